"""apimachinery's name, label and port validators, with their messages character for character.

Each `is_*` function returns the list of messages the apiserver reports for a value (empty when
the value is valid), like `k8s.io/apimachinery/pkg/util/validation` does. Two generations of
these helpers are live in Kubernetes 1.36 and their texts differ: the older
`pkg/util/validation` ones (DNS names, used for object names, groups and versions) say
"must be no more than N characters", the newer `pkg/api/validate/content` ones (label keys and
values, used for labels, annotations and finalizers) say "... N bytes". Both measure bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                      "and must start and end with an alphanumeric character")
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
                          "or '.', and must start and end with an alphanumeric character")
_DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
_DNS1035_LABEL_MSG = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                      "alphabetic character, and end with an alphanumeric character")
_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                  "alphanumeric character")
_LABEL_VALUE_FMT = "(" + _LABEL_KEY_FMT + ")?"
_LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    "and must start and end with an alphanumeric character")

DNS1123_LABEL_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
DNS1035_LABEL_MAX_LENGTH = 63
LABEL_KEY_MAX_LENGTH = 63
LABEL_VALUE_MAX_LENGTH = 63

# Python's own engine runs these fixed patterns in time linear in the value's length (each repetition
# ends at a '.' or at the value's end, which it cannot match, so backtracking retries a character a
# bounded number of times), and at a twentieth of re2's cost per call through its Python wrapper:
# names, labels and keys are matched for every object. Patterns from users' schemas are re2's.
_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL_RE = re.compile(_DNS1035_LABEL_FMT)
_LABEL_KEY_RE = re.compile(_LABEL_KEY_FMT)
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)

EMPTY_ERROR = "must be non-empty"

#: The signature of a `ValidateNameFunc`: (name, is a generateName prefix) -> messages.
NameFunc = Callable[[str, bool], list[str]]


def byte_len(s: str) -> int:
    """Go's len() of a string: its length in UTF-8 bytes."""
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogateescape"))


def max_len_error(length: int) -> str:
    """pkg/util/validation.MaxLenError."""
    return f"must be no more than {length} characters"


def max_len_bytes_error(length: int) -> str:
    """pkg/api/validate/content.MaxLenError."""
    return f"must be no more than {length} bytes"


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """RegexError: the message, its examples, and the regex the value failed."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    return msg + " (e.g. " + " or ".join(f"'{e}', " for e in examples) + f"regex used for validation is '{fmt}')"


def inclusive_range_error(lo: int, hi: int) -> str:
    return f"must be between {lo} and {hi}, inclusive"


def _full(regex, value: str) -> bool:
    return regex.fullmatch(value) is not None


def is_dns1123_label(value: str) -> list[str]:
    """IsDNS1123Label (used for namespace names)."""
    errs = []
    if byte_len(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _full(_DNS1123_LABEL_RE, value):
        if _full(_DNS1123_SUBDOMAIN_RE, value):
            errs.append("must not contain dots")
        else:
            errs.append(regex_error(_DNS1123_LABEL_MSG, _DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


def _subdomain(value: str, too_long: str) -> list[str]:
    errs = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(too_long)
    if not _full(_DNS1123_SUBDOMAIN_RE, value):
        errs.append(regex_error(_DNS1123_SUBDOMAIN_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    """pkg/util/validation.IsDNS1123Subdomain (object names, CRD groups, webhook path segments)."""
    return _subdomain(value, max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))


def content_is_dns1123_subdomain(value: str) -> list[str]:
    """pkg/api/validate/content.IsDNS1123Subdomain (the prefix of a label key)."""
    return _subdomain(value, max_len_bytes_error(DNS1123_SUBDOMAIN_MAX_LENGTH))


def is_dns1035_label(value: str) -> list[str]:
    """IsDNS1035Label (CRD version names, resource names, short names, categories)."""
    errs = []
    if byte_len(value) > DNS1035_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1035_LABEL_MAX_LENGTH))
    if not _full(_DNS1035_LABEL_RE, value):
        errs.append(regex_error(_DNS1035_LABEL_MSG, _DNS1035_LABEL_FMT, "my-name", "abc-123"))
    return errs


def is_qualified_name(value: str) -> list[str]:
    """content.IsLabelKey (alias IsQualifiedName): an optional DNS subdomain prefix and '/', then a name."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + EMPTY_ERROR)
        else:
            errs.extend("prefix part " + m for m in content_is_dns1123_subdomain(prefix))
    else:
        return ["a valid label key " + regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    if not name:
        errs.append("name part " + EMPTY_ERROR)
    elif byte_len(name) > LABEL_KEY_MAX_LENGTH:
        errs.append("name part " + max_len_bytes_error(LABEL_KEY_MAX_LENGTH))
    if not _full(_LABEL_KEY_RE, name):
        errs.append("name part " + regex_error(_LABEL_KEY_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    """content.IsLabelValue."""
    errs = []
    if byte_len(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(max_len_bytes_error(LABEL_VALUE_MAX_LENGTH))
    if not _full(_LABEL_VALUE_RE, value):
        errs.append(regex_error(_LABEL_VALUE_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def is_valid_port_num(port: int) -> list[str]:
    """IsValidPortNum: 1..65535."""
    return [] if 1 <= port <= 65535 else [inclusive_range_error(1, 65535)]


def _mask_trailing_dash(name: str) -> str:
    """maskTrailingDash, faithfully: a generateName's trailing '-' and the character before it become 'a'."""
    return name[:-2] + "a" if name.endswith("-") else name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """NameIsDNSSubdomain, the ValidateNameFunc of most kinds (CRDs included)."""
    return is_dns1123_subdomain(_mask_trailing_dash(name) if prefix else name)


def name_is_dns_label(name: str, prefix: bool) -> list[str]:
    """NameIsDNSLabel, also ValidateNamespaceName."""
    return is_dns1123_label(_mask_trailing_dash(name) if prefix else name)


def name_is_dns1035_label(name: str, prefix: bool) -> list[str]:
    """NameIsDNS1035Label."""
    return is_dns1035_label(_mask_trailing_dash(name) if prefix else name)


def validate_path_segment_name(name: str, prefix: bool) -> list[str]:
    """path.ValidatePathSegmentName, the ValidateNameFunc of custom resources."""
    if not prefix:
        for illegal in (".", ".."):
            if name == illegal:
                return [f"may not be '{illegal}'"]
    return [f"may not contain '{c}'" for c in ("/", "%") if c in name]


_PORT_NAME_CHARSET_RE = re.compile("[-a-z0-9]+")
_PORT_NAME_ONE_LETTER_RE = re.compile("[a-z]")


def is_valid_port_name(port: str) -> list[str]:
    """IsValidPortName: an IANA_SVC_NAME, at most 15 characters of a-z, 0-9 and single inner hyphens,
    with a letter."""
    errs = []
    if byte_len(port) > 15:
        errs.append(max_len_error(15))
    if not _full(_PORT_NAME_CHARSET_RE, port):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if _PORT_NAME_ONE_LETTER_RE.search(port) is None:
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port and (port[0] == "-" or port[-1] == "-"):
        errs.append("must not begin or end with a hyphen")
    return errs


_WILDCARD_DNS1123_SUBDOMAIN_FMT = "\\*\\." + _DNS1123_SUBDOMAIN_FMT
_WILDCARD_DNS1123_SUBDOMAIN_RE = re.compile(_WILDCARD_DNS1123_SUBDOMAIN_FMT)
_WILDCARD_DNS1123_SUBDOMAIN_MSG = ("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS "
                                   "subdomain, which must consist of lower case alphanumeric characters, '-' or '.' "
                                   "and end with an alphanumeric character")


def is_wildcard_dns1123_subdomain(value: str) -> list[str]:
    """IsWildcardDNS1123Subdomain (an Ingress rule's or TLS entry's `*.` host)."""
    errs = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _full(_WILDCARD_DNS1123_SUBDOMAIN_RE, value):
        errs.append(regex_error(_WILDCARD_DNS1123_SUBDOMAIN_MSG, _WILDCARD_DNS1123_SUBDOMAIN_FMT, "*.example.com"))
    return errs


_PERCENT_FMT = "[0-9]+%"
_PERCENT_RE = re.compile(_PERCENT_FMT)


def is_valid_percent(percent: str) -> list[str]:
    """IsValidPercent: digits and a final '%'."""
    if _full(_PERCENT_RE, percent):
        return []
    return [regex_error("a valid percent string must be a numeric string followed by an ending '%'",
                        _PERCENT_FMT, "1%", "93%")]


_HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
_HTTP_PATH_RE = re.compile(_HTTP_PATH_FMT)


def domain_prefixed_path_errors(value: str) -> list[tuple[str, str]]:
    """IsDomainPrefixedPath's Invalid findings for a non-empty value, as (bad value, message): a
    `host/path` whose host is a DNS subdomain and whose path is an HTTP path (an empty value is the
    caller's Required)."""
    parts = value.split("/", 1)
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return [(value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    host, path = parts
    found = [(host, m) for m in is_dns1123_subdomain(host)]
    if not _full(_HTTP_PATH_RE, path):
        found.append((path, regex_error("must be a valid path", _HTTP_PATH_FMT)))
    return found
