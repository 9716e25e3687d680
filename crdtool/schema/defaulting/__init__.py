"""Defaulting and the checks of defaults: apiextensions-apiserver's schema/defaulting."""
