"""The structural schema and its rules: apiextensions-apiserver's pkg/apiserver/schema."""
