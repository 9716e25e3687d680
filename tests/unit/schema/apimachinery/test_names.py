"""apimachinery's name and label validators: the apiserver's exact messages."""

import time

import pytest

from crdtool.schema.apimachinery import names

SUBDOMAIN_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
                 "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                 "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
DNS1035_MSG = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
               "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
               "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
NAME_PART_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                 "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                 "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")


def test_dns1123_subdomain():
    assert names.is_dns1123_subdomain("widgets.example.com") == []
    assert names.is_dns1123_subdomain("widgets.") == [SUBDOMAIN_MSG]
    long_name = "widgets." + ".".join(["a" * 60] * 5) + ".com"
    assert names.is_dns1123_subdomain(long_name) == ["must be no more than 253 characters"]


def test_dns1035_label():
    assert names.is_dns1035_label("v1beta1") == []
    assert names.is_dns1035_label("V1.0") == [DNS1035_MSG]
    assert names.is_dns1035_label("v1\n") == [DNS1035_MSG]  # `$` is the end of the text, as in Go
    assert names.is_dns1035_label("a" * 64) == ["must be no more than 63 characters"]


def test_dns1123_label_dots():
    assert names.is_dns1123_label("a.b") == ["must not contain dots"]
    assert names.is_dns1123_label("Bad_NS") == [
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
        "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]


def test_qualified_name():
    assert names.is_qualified_name("app.kubernetes.io/name") == []
    assert names.is_qualified_name("bad key!") == [NAME_PART_MSG]
    assert names.is_qualified_name("/empty-prefix") == ["prefix part must be non-empty"]
    assert names.is_qualified_name("x" * 64) == ["name part must be no more than 63 bytes"]
    assert names.is_qualified_name("a/b/c") == [
        "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
        "(e.g. 'example.com/MyName')"]


def test_label_value():
    assert names.is_valid_label_value("") == []
    assert names.is_valid_label_value("x" * 64) == ["must be no more than 63 bytes"]
    assert names.is_valid_label_value("-x-") == [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
        "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
        "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]


def test_generate_name_masks_trailing_dash():
    assert names.name_is_dns_subdomain("widget-", True) == []
    assert names.name_is_dns_subdomain("widget-", False) == [SUBDOMAIN_MSG]
    assert names.name_is_dns_subdomain("Bad_Prefix-", True) == [SUBDOMAIN_MSG]


def test_path_segment_names():
    assert names.validate_path_segment_name("%", False) == ["may not contain '%'"]
    assert names.validate_path_segment_name("bad/name", False) == ["may not contain '/'"]
    assert names.validate_path_segment_name("..", False) == ["may not be '..'"]
    assert names.validate_path_segment_name("..", True) == []


def test_port():
    assert names.is_valid_port_num(443) == []
    assert names.is_valid_port_num(0) == ["must be between 1 and 65535, inclusive"]


def _seconds(check, value: str) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        check(value)
        times.append(time.perf_counter() - start)
    return min(times)


@pytest.mark.parametrize("check,unit,tail", [
    (names.is_dns1123_label, "a", "-"), (names.is_dns1123_subdomain, "a", "-"), (names.is_dns1123_subdomain, "a.", "-"),
    (names.is_dns1123_subdomain, "aa-", "."), (names.is_dns1035_label, "a0", "-"), (names.is_qualified_name, "a", "_"),
    (names.is_valid_label_value, "A_-", "_"), (names.is_wildcard_dns1123_subdomain, "*.a", "-"),
    (names.domain_prefixed_path_errors, "a/", "\\"), (names.is_valid_percent, "1", "1"),
])
def test_a_value_of_any_length_is_matched_in_linear_time(check, unit: str, tail: str) -> None:
    """Values have no length limit before their pattern is tried (Go reports both errors): four times the
    length takes about four times as long, never sixteen."""
    short, long = unit * 25_000 + tail, unit * 100_000 + tail
    assert _seconds(check, long) < 8 * _seconds(check, short) + 0.01
