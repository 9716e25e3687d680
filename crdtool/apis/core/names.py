"""The name validators of apimachinery's util/validation that core's validation uses beyond those of
schema.apimachinery.names (environment variable names, config keys, HTTP header names),
with their texts (k8s.io/apimachinery pkg/util/validation/validation.go, 1.36)."""

from __future__ import annotations

import re

from crdtool.schema.apimachinery.names import (
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    byte_len,
    max_len_error,
    regex_error,
)

_ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*"
_ENV_VAR_NAME_MSG = ("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', "
                     "or '.', and must not start with a digit")
_ENV_VAR_NAME_RE = re.compile(_ENV_VAR_NAME_FMT)
_RELAXED_ENV_VAR_NAME_MSG = ("a valid environment variable name must consist only of printable ASCII characters "
                             "other than '='")

_CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+"
_CONFIG_MAP_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
_CONFIG_MAP_KEY_RE = re.compile(_CONFIG_MAP_KEY_FMT)

_HTTP_HEADER_NAME_FMT = "[-A-Za-z0-9]+"
_HTTP_HEADER_NAME_MSG = "a valid HTTP header must consist of alphanumeric characters or '-'"
_HTTP_HEADER_NAME_RE = re.compile(_HTTP_HEADER_NAME_FMT)


def _chdir_prefix(value: str) -> list[str]:
    """hasChDirPrefix."""
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    if value.startswith(".."):
        return ["must not start with '..'"]
    return []


def is_env_var_name(value: str) -> list[str]:
    """IsEnvVarName (the strict rule, without RelaxedEnvironmentVariableValidation)."""
    errs = []
    if not _ENV_VAR_NAME_RE.fullmatch(value):
        errs.append(regex_error(_ENV_VAR_NAME_MSG, _ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
    return errs + _chdir_prefix(value)


def is_relaxed_env_var_name(value: str) -> list[str]:
    """IsRelaxedEnvVarName: printable ASCII other than '=' (RelaxedEnvironmentVariableValidation, GA)."""
    errs = []
    if not value:
        errs.append("environment variable name must be non-empty")
    if any(c == "=" or not (" " <= c <= "~") for c in value):
        errs.append(_RELAXED_ENV_VAR_NAME_MSG)
    return errs


def is_config_map_key(value: str) -> list[str]:
    """IsConfigMapKey: the keys of ConfigMaps and Secrets, and the keys selected from them."""
    errs = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _CONFIG_MAP_KEY_RE.fullmatch(value):
        errs.append(regex_error(_CONFIG_MAP_KEY_MSG, _CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"))
    return errs + _chdir_prefix(value)


def is_http_header_name(value: str) -> list[str]:
    """IsHTTPHeaderName."""
    if not _HTTP_HEADER_NAME_RE.fullmatch(value):
        return [regex_error(_HTTP_HEADER_NAME_MSG, _HTTP_HEADER_NAME_FMT, "X-Header-Name")]
    return []
