"""Value validation and ratcheting: apiextensions-apiserver's pkg/apiserver/validation."""
