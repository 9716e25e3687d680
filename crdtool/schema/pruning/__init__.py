"""Pruning: apiextensions-apiserver's pkg/apiserver/schema/pruning."""
