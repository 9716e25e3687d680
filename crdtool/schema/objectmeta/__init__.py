"""A custom resource's metadata: apiextensions-apiserver's schema/objectmeta."""
