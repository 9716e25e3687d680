"""CRD validation: apiextensions-apiserver's pkg/apis/apiextensions/validation."""
