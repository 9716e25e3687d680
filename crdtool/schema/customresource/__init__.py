"""A custom resource's create and update: apiextensions' registry/customresource."""
