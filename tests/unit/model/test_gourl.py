"""Go's net/url and netip.ParseAddr, differentially: the cases of Go's own tests, and Go 1.26's error texts.

Sources: golang/go src/net/url/url_test.go (urltests, parseRequestURLTests, TestParseErrors,
TestURLHostnameAndPort, unescapeTests, queryEscapeTests, pathEscapeTests, TestInvalidUserPassword,
TestRejectControlCharacters) with the answers Go 1.26 gives (strict colons in http(s) hosts, IPv6
literals checked by netip.ParseAddr), and src/net/netip/netip.go's ParseAddr errors. The CEL URL
library (k8s.io/apiserver/pkg/cel/library/urls.go) is checked on the same strings through `isURL`,
`url()` and the getters, and end to end through `crdtool validate`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cel import environment
from crdtool.cli import cli
from crdtool.model import gourl
from crdtool.model.gourl import (
    URL,
    URLError,
    escape,
    is_request_uri,
    parse,
    parse_query,
    parse_request_uri,
    unescape,
)
from crdtool.model.netip import AddrError, parse_addr

# url_test.go urltests: input -> (scheme, opaque, user, host, path, raw_query, fragment).
URLTESTS = [
    ("http://www.google.com", ("http", "", None, "www.google.com", "", "", "")),
    ("http://www.google.com/", ("http", "", None, "www.google.com", "/", "", "")),
    ("http://www.google.com/file%20one%26two", ("http", "", None, "www.google.com", "/file one&two", "", "")),
    ("http://www.google.com/#file%20one%26two", ("http", "", None, "www.google.com", "/", "", "file one&two")),
    ("ftp://webmaster@www.google.com/", ("ftp", "", ("webmaster", None), "www.google.com", "/", "", "")),
    ("ftp://john%20doe@www.google.com/", ("ftp", "", ("john doe", None), "www.google.com", "/", "", "")),
    ("http://www.google.com/?", ("http", "", None, "www.google.com", "/", "", "")),
    ("http://www.google.com/?foo=bar?", ("http", "", None, "www.google.com", "/", "foo=bar?", "")),
    ("http://www.google.com/?q=go+language", ("http", "", None, "www.google.com", "/", "q=go+language", "")),
    ("http://www.google.com/?q=go%20language", ("http", "", None, "www.google.com", "/", "q=go%20language", "")),
    ("http://www.google.com/a%20b?q=c+d", ("http", "", None, "www.google.com", "/a b", "q=c+d", "")),
    ("http:www.google.com/?q=go+language", ("http", "www.google.com/", None, "", "", "q=go+language", "")),
    ("http:%2f%2fwww.google.com/?q=go+language",
     ("http", "%2f%2fwww.google.com/", None, "", "", "q=go+language", "")),
    ("mailto:/webmaster@golang.org", ("mailto", "", None, "", "/webmaster@golang.org", "", "")),
    ("mailto:webmaster@golang.org", ("mailto", "webmaster@golang.org", None, "", "", "", "")),
    ("/foo?query=http://bad", ("", "", None, "", "/foo", "query=http://bad", "")),
    ("//foo", ("", "", None, "foo", "", "", "")),
    ("//user@foo/path?a=b", ("", "", ("user", None), "foo", "/path", "a=b", "")),
    ("///threeslashes", ("", "", None, "", "///threeslashes", "", "")),
    ("http://user:password@google.com", ("http", "", ("user", "password"), "google.com", "", "", "")),
    ("http://j@ne:password@google.com", ("http", "", ("j@ne", "password"), "google.com", "", "", "")),
    ("http://jane:p@ssword@google.com", ("http", "", ("jane", "p@ssword"), "google.com", "", "", "")),
    ("http://j@ne:password@google.com/p@th?q=@go",
     ("http", "", ("j@ne", "password"), "google.com", "/p@th", "q=@go", "")),
    ("http://www.google.com/?q=go+language#foo", ("http", "", None, "www.google.com", "/", "q=go+language", "foo")),
    ("http://www.google.com/?q=go+language#foo&bar",
     ("http", "", None, "www.google.com", "/", "q=go+language", "foo&bar")),
    ("http://www.google.com/?q=go+language#foo%26bar",
     ("http", "", None, "www.google.com", "/", "q=go+language", "foo&bar")),
    ("file:///home/adg/rabbits", ("file", "", None, "", "/home/adg/rabbits", "", "")),
    ("file:///C:/FooBar/Baz.txt", ("file", "", None, "", "/C:/FooBar/Baz.txt", "", "")),
    ("MaIlTo:webmaster@golang.org", ("mailto", "webmaster@golang.org", None, "", "", "", "")),
    ("a/b/c", ("", "", None, "", "a/b/c", "", "")),
    ("http://%3Fam:pa%3Fsword@google.com", ("http", "", ("?am", "pa?sword"), "google.com", "", "", "")),
    ("http://192.168.0.1/", ("http", "", None, "192.168.0.1", "/", "", "")),
    ("http://192.168.0.1:8080/", ("http", "", None, "192.168.0.1:8080", "/", "", "")),
    ("http://[fe80::1]/", ("http", "", None, "[fe80::1]", "/", "", "")),
    ("http://[fe80::1]:8080/", ("http", "", None, "[fe80::1]:8080", "/", "", "")),
    ("http://[fe80::1%25en0]/", ("http", "", None, "[fe80::1%en0]", "/", "", "")),
    ("http://[fe80::1%25en0]:8080/", ("http", "", None, "[fe80::1%en0]:8080", "/", "", "")),
    ("http://[fe80::1%25%65%6e%301-._~]/", ("http", "", None, "[fe80::1%en01-._~]", "/", "", "")),
    ("http://[fe80::1%25%65%6e%301-._~]:8080/", ("http", "", None, "[fe80::1%en01-._~]:8080", "/", "", "")),
    ("http://rest.rsc.io/foo%2fbar/baz%2Fquux?alt=media",
     ("http", "", None, "rest.rsc.io", "/foo/bar/baz/quux", "alt=media", "")),
    ("mysql://a,b,c/bar", ("mysql", "", None, "a,b,c", "/bar", "", "")),
    ("scheme://!$&'()*+,;=hello!:1/path", ("scheme", "", None, "!$&'()*+,;=hello!:1", "/path", "", "")),
    ("http://host/!$&'()*+,;=:@[hello]", ("http", "", None, "host", "/!$&'()*+,;=:@[hello]", "", "")),
    ("http://example.com/oid/[order_id]", ("http", "", None, "example.com", "/oid/[order_id]", "", "")),
    ("http://192.168.0.2:8080/foo", ("http", "", None, "192.168.0.2:8080", "/foo", "", "")),
    ("http://192.168.0.2:/foo", ("http", "", None, "192.168.0.2:", "/foo", "", "")),
    ("http://[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:8080/foo",
     ("http", "", None, "[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:8080", "/foo", "", "")),
    ("http://[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:/foo",
     ("http", "", None, "[2b01:e34:ef40:7730:8e70:5aff:fefe:edac]:", "/foo", "", "")),
    ("http://hello.世界.com/foo", ("http", "", None, "hello.世界.com", "/foo", "", "")),
    ("http://hello.%e4%b8%96%e7%95%8c.com/foo", ("http", "", None, "hello.世界.com", "/foo", "", "")),
    ("http://hello.%E4%B8%96%E7%95%8C.com/foo", ("http", "", None, "hello.世界.com", "/foo", "", "")),
    ("http://example.com//foo", ("http", "", None, "example.com", "//foo", "", "")),
    ('myscheme://authority<"hi">/foo', ("myscheme", "", None, 'authority<"hi">', "/foo", "", "")),
    ("tcp://[2020::2020:20:2020:2020%25Windows%20Loves%20Spaces]:2020",
     ("tcp", "", None, "[2020::2020:20:2020:2020%Windows Loves Spaces]:2020", "", "", "")),
    ("magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn",
     ("magnet", "", None, "", "", "xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn", "")),
    ("mailto:?subject=hi", ("mailto", "", None, "", "", "subject=hi", "")),
    # Go 1.26: colons in a host are strict for http(s) only; other schemes keep the last one as the port.
    ("tcp://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080/foo",
     ("tcp", "", None, "2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080", "/foo", "", "")),
]


@pytest.mark.parametrize(("raw", "want"), URLTESTS)
def test_parse_urltests(raw: str, want: tuple) -> None:
    u = parse(raw)
    assert (u.scheme, u.opaque, u.user, u.host, u.path, u.raw_query, u.fragment) == want


# url_test.go parseRequestURLTests.
PARSE_REQUEST_URL_TESTS = [
    ("http://foo.com", True), ("http://foo.com/", True), ("http://foo.com/path", True), ("/", True),
    ("//not.a.user@not.a.host/just/a/path", True), ("//not.a.user@%66%6f%6f.com/just/a/path/also", True),
    ("*", True), ("http://192.168.0.1/", True), ("http://192.168.0.1:8080/", True), ("http://[fe80::1]/", True),
    ("http://[fe80::1]:8080/", True), ("http://[fe80::1%25en0]/", True), ("http://[fe80::1%25en0]:8080/", True),
    ("http://[fe80::1%25%65%6e%301-._~]/", True), ("http://[fe80::1%25%65%6e%301-._~]:8080/", True),
    ("foo.html", False), ("../dir/", False), (" http://foo.com", False), ("http://192.168.0.%31/", False),
    ("http://192.168.0.%31:8080/", False), ("http://[fe80::%31]/", False), ("http://[fe80::%31]:8080/", False),
    ("http://[fe80::%31%25en0]/", False), ("http://[fe80::%31%25en0]:8080/", False),
    ("http://[fe80::1%en0]/", False), ("http://[fe80::1%en0]:8080/", False),
]


@pytest.mark.parametrize(("raw", "valid"), PARSE_REQUEST_URL_TESTS)
def test_parse_request_uri_tests(raw: str, valid: bool) -> None:
    try:
        parse_request_uri(raw)
    except URLError:
        assert not valid
    else:
        assert valid
    assert is_request_uri(raw) is valid


def test_a_scheme_relative_looking_path_stays_a_path() -> None:
    assert parse_request_uri("//not.a.user@not.a.host/just/a/path").path == "//not.a.user@not.a.host/just/a/path"


# url_test.go TestParseErrors (url.Parse).
PARSE_ERRORS = [
    ("http://[::1]", False), ("http://[::1]:80", False), ("http://[::1]:namedport", True),
    ("http://x:namedport", True), ("http://[::1]/", False), ("http://[::1]a", True), ("http://[::1]%23", True),
    ("http://[::1%25en0]", False), ("http://[::1]:", False), ("http://x:", False), ("http://[::1]:%38%30", True),
    ("http://[::1%25%41]", False), ("http://[%10::1]", True), ("http://[::1]/%48", False),
    ("http://%41:8080/", True), ("mysql://x@y(z:123)/foo", True), ("mysql://x@y(1.2.3.4:123)/foo", True),
    (" http://foo.com", True), ("ht tp://foo.com", True), ("ahttp://foo.com", False), ("1http://foo.com", True),
    ("http://[]%20%48%54%54%50%2f%31%2e%31%0a%4d%79%48%65%61%64%65%72%3a%20%31%32%33%0a%0a/", True),
    ("http://a b.com/", True), ("cache_object://foo", True), ("cache_object:foo", True),
    ("cache_object:foo/bar", True), ("cache_object/:foo/bar", False),
    ("http://user^:passwo^rd@foo.com/", True), ("http://foo.com/?foo\nbar", True), ("http\r://foo.com/", True),
    ("http://foo\x7f.com/", True), ("http://foo.com/ctl\x80", False),
]


@pytest.mark.parametrize(("raw", "fails"), PARSE_ERRORS)
def test_parse_errors(raw: str, fails: bool) -> None:
    try:
        parse(raw)
    except URLError:
        assert fails
    else:
        assert not fails


# Error texts: `parse "<url>": <reason>`, as Go 1.26 words each reason.
ERROR_TEXTS = [
    ("https://example.com:abc/x", True, 'invalid port ":abc" after host'),
    ("https://ü@example.com/", True, "net/url: invalid userinfo"),
    ("https://example.com/%zz", True, 'invalid URL escape "%zz"'),
    ("https://example.com/%zé", True, 'invalid URL escape "%z\\xc3"'),
    ("https://exa%zzmple.com/", True, 'invalid URL escape "%zz"'),
    ("://x", True, "missing protocol scheme"),
    ("1a:b/x", False, "first path segment in URL cannot contain colon"),
    ("https://a{b}/", True, 'invalid character "{" in host name'),
    ("https://not a valid hostname!", True, 'invalid character " " in host name'),
    ("https://!&^(...)", True, 'invalid character "^" in host name'),
    ("https://[1.2.3.4]/", True, "invalid IP-literal"),
    ("https://[v1.x]/", True, 'invalid host: ParseAddr("v1.x"): unexpected character (at "v1.x")'),
    ("http://a[::1]/", True, "invalid IP-literal"),
    ("http://[::1", True, "missing ']' in host"),
    ("http://[::1]:8x/", True, 'invalid port ":8x" after host'),
    ("http://[::1]:%38%30", True, 'invalid port ":%38%30" after host'),
    ("http://%41:8080/", True, 'invalid URL escape "%41"'),
    ("http://[fe80::%31]/", True, 'invalid URL escape "%31"'),
    ("http://[fe80::1%en0]/", True, 'invalid URL escape "%en"'),
    ("http://[fe80::1%25%0a]/", True, 'invalid URL escape "%0a"'),
    ("http://[fe80::1%25%2f]/", True, 'invalid URL escape "%2f"'),
    ("http://::1/", True, 'invalid port "::1" after host'),
    ("http://localhost:80:80/", True, 'invalid port ":80:80" after host'),
    ("http://2b01:e34:ef40:7730:8e70:5aff:fefe:edac:8080/foo", True,
     'invalid port ":e34:ef40:7730:8e70:5aff:fefe:edac:8080" after host'),
    ("#%blah$#@", True, "invalid URI for request"),
    ("", True, "empty url"),
    ("http://foo.com/?foo\nbar", True, "net/url: invalid control character in URL"),
]


@pytest.mark.parametrize(("raw", "via_request", "reason"), ERROR_TEXTS)
def test_error_texts(raw: str, via_request: bool, reason: str) -> None:
    with pytest.raises(URLError) as err:
        (parse_request_uri if via_request else parse)(raw)
    assert err.value.reason == reason
    assert str(err.value).endswith(f": {reason}") and str(err.value).startswith("parse ")


def test_the_error_quotes_the_url_as_go_does() -> None:
    with pytest.raises(URLError, match=r'^parse "https://a\\tb/": net/url: invalid control character in URL$'):
        parse_request_uri("https://a\tb/")


# url_test.go TestURLHostnameAndPort: URL.Host -> (Hostname(), Port()).
HOST_PORT = [
    ("foo.com:80", "foo.com", "80"), ("foo.com", "foo.com", ""), ("foo.com:", "foo.com", ""),
    ("FOO.COM", "FOO.COM", ""), ("1.2.3.4", "1.2.3.4", ""), ("1.2.3.4:80", "1.2.3.4", "80"),
    ("[1:2:3:4]", "1:2:3:4", ""), ("[1:2:3:4]:80", "1:2:3:4", "80"), ("[::1]:80", "::1", "80"),
    ("[::1]", "::1", ""), ("[::1]:", "::1", ""), ("localhost", "localhost", ""),
    ("localhost:443", "localhost", "443"),
    ("some.super.long.domain.example.org:8080", "some.super.long.domain.example.org", "8080"),
    ("[2001:0db8:85a3:0000:0000:8a2e:0370:7334]:17000", "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "17000"),
    ("[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", "2001:0db8:85a3:0000:0000:8a2e:0370:7334", ""),
    ("[google.com]:80", "google.com", "80"), ("google.com]:80", "google.com]", "80"),
    ("google.com:80_invalid_port", "google.com:80_invalid_port", ""), ("[::1]extra]:80", "::1]extra", "80"),
    ("google.com]extra:extra", "google.com]extra:extra", ""),
]


@pytest.mark.parametrize(("host", "hostname", "port"), HOST_PORT)
def test_hostname_and_port(host: str, hostname: str, port: str) -> None:
    u = URL(host=host)
    assert (u.hostname(), u.port()) == (hostname, port)


# url_test.go unescapeTests (QueryUnescape) and the escape tables.
UNESCAPE = [
    ("", "", None), ("abc", "abc", None), ("1%41", "1A", None), ("1%41%42%43", "1ABC", None), ("%4a", "J", None),
    ("%6F", "o", None), ("%", None, '"%"'), ("%a", None, '"%a"'), ("%1", None, '"%1"'), ("123%45%6", None, '"%6"'),
    ("%zzzzz", None, '"%zz"'), ("a+b", "a b", None), ("a%20b", "a b", None),
]


@pytest.mark.parametrize(("text", "want", "escape_error"), UNESCAPE)
def test_query_unescape(text: str, want: str | None, escape_error: str | None) -> None:
    if escape_error is None:
        assert unescape(text, gourl.QUERY_COMPONENT) == want
        assert unescape(text.replace("+", "%20"), gourl.PATH_SEGMENT) == want
    else:
        with pytest.raises(Exception, match=f"^invalid URL escape {escape_error}$"):
            unescape(text, gourl.QUERY_COMPONENT)


ESCAPE = [
    ("", gourl.QUERY_COMPONENT, ""), ("abc", gourl.QUERY_COMPONENT, "abc"),
    ("one two", gourl.QUERY_COMPONENT, "one+two"), ("10%", gourl.QUERY_COMPONENT, "10%25"),
    (" ?&=#+%!<>#\"{}|\\^[]`☺\t:/@$'()*,;", gourl.QUERY_COMPONENT,
     "+%3F%26%3D%23%2B%25%21%3C%3E%23%22%7B%7D%7C%5C%5E%5B%5D%60%E2%98%BA%09%3A%2F%40%24%27%28%29%2A%2C%3B"),
    ("abc+def", gourl.PATH_SEGMENT, "abc+def"), ("a/b", gourl.PATH_SEGMENT, "a%2Fb"),
    ("one two", gourl.PATH_SEGMENT, "one%20two"), ("10%", gourl.PATH_SEGMENT, "10%25"),
    (" ?&=#+%!<>#\"{}|\\^[]`☺\t:/@$'()*,;", gourl.PATH_SEGMENT,
     "%20%3F&=%23+%25%21%3C%3E%23%22%7B%7D%7C%5C%5E%5B%5D%60%E2%98%BA%09:%2F@$%27%28%29%2A%2C%3B"),
    ("Фотки собак", gourl.PATH_SEGMENT, "%D0%A4%D0%BE%D1%82%D0%BA%D0%B8%20%D1%81%D0%BE%D0%B1%D0%B0%D0%BA"),
]


@pytest.mark.parametrize(("text", "mode", "want"), ESCAPE)
def test_escape_round_trips(text: str, mode: int, want: str) -> None:
    assert escape(text, mode) == want
    assert unescape(want, mode) == text


# url_test.go shouldEscapeTests.
SHOULD_ESCAPE = [
    ("a", gourl.PATH, False), ("a", gourl.USER_PASSWORD, False), ("a", gourl.QUERY_COMPONENT, False),
    ("a", gourl.FRAGMENT, False), ("a", gourl.HOST, False), ("-", gourl.FRAGMENT, False),
    (":", gourl.USER_PASSWORD, True), ("/", gourl.USER_PASSWORD, True), ("?", gourl.USER_PASSWORD, True),
    ("@", gourl.USER_PASSWORD, True), ("$", gourl.USER_PASSWORD, False), (";", gourl.USER_PASSWORD, False),
    ("!", gourl.HOST, False), ("'", gourl.HOST, False), (":", gourl.HOST, False), ("[", gourl.HOST, False),
    ("_", gourl.HOST, False), ("?", gourl.PATH, True), ("!", gourl.FRAGMENT, False), ("'", gourl.FRAGMENT, True),
]


@pytest.mark.parametrize(("char", "mode", "escaped"), SHOULD_ESCAPE)
def test_should_escape(char: str, mode: int, escaped: bool) -> None:
    assert gourl.should_escape(ord(char), mode) is escaped


def test_escaped_path_keeps_a_valid_raw_path() -> None:
    assert parse("http://rest.rsc.io/foo%2fbar/baz%2Fquux?alt=media").escaped_path() == "/foo%2fbar/baz%2Fquux"
    assert parse("https://example.com/path with spaces/").escaped_path() == "/path%20with%20spaces/"
    assert parse("http://host/!$&'()*+,;=:@[hello]").escaped_path() == "/!$&'()*+,;=:@[hello]"


def test_parse_query() -> None:
    """ParseQuery: semicolons are an error (the pair is dropped), the first escape error is kept."""
    assert parse_query("a=1&b=2") == ({"a": ["1"], "b": ["2"]}, None)
    assert parse_query("a=1&a=2&a=banana") == ({"a": ["1", "2", "banana"]}, None)
    assert parse_query("ascii=%3Ckey%3A+0x90%3E") == ({"ascii": ["<key: 0x90>"]}, None)
    assert parse_query("a=1;b=2") == ({}, "invalid semicolon separator in query")
    assert parse_query("a=1&a=2;a=banana") == ({"a": ["1"]}, "invalid semicolon separator in query")
    assert parse_query("%gh&%ij") == ({}, 'invalid URL escape "%gh"')
    assert parse_query("&" * 10000) == ({}, "number of URL query parameters exceeded limit")


# netip.ParseAddr (netip.go).
ADDRS = [
    ("1.2.3.4", True, None), ("::1", False, None), ("fe80::1%en0", False, None), ("::ffff:1.2.3.4", False, None),
    ("1.2.3", None, 'ParseAddr("1.2.3"): IPv4 address too short'),
    ("1.2.3.4.5", None, 'ParseAddr("1.2.3.4.5"): IPv4 address too long'),
    ("01.2.3.4", None, 'ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'),
    ("256.1.1.1", None, 'ParseAddr("256.1.1.1"): IPv4 field has value >255'),
    ("1..2.3", None, 'ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")'),
    ("1.2.3.x", None, 'ParseAddr("1.2.3.x"): unexpected character (at "x")'),
    ("abc", None, 'ParseAddr("abc"): unable to parse IP'),
    ("%en0", None, 'ParseAddr("%en0"): missing IPv6 address'),
    ("fe80::1%", None, 'ParseAddr("fe80::1%"): zone must be a non-empty string'),
    ("1:2:3:4:5:6:7:8:9", None, 'ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")'),
    ("1::2::3", None, 'ParseAddr("1::2::3"): multiple :: in address (at ":3")'),
    ("12345::", None, 'ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")'),
    ("1:2", None, 'ParseAddr("1:2"): address string too short'),
    ("1:", None, 'ParseAddr("1:"): colon must be followed by more characters (at ":")'),
    ("1:2:3:4:5:6:7::8", None, 'ParseAddr("1:2:3:4:5:6:7::8"): the :: must expand to at least one field of zeros'),
    ("1:2:3:4:5:6:7:8::", None, 'ParseAddr("1:2:3:4:5:6:7:8::"): the :: must expand to at least one field of zeros'),
    ("::1.2.3", None, 'ParseAddr("::1.2.3"): IPv4 address too short'),
    ("1:2:3:1.2.3.4", None,
     'ParseAddr("1:2:3:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address '
     '(at "1.2.3.4")'),
    ("::g", None, 'ParseAddr("::g"): each colon-separated field must have at least one digit (at "g")'),
]


@pytest.mark.parametrize(("text", "is4", "error"), ADDRS)
def test_parse_addr(text: str, is4: bool | None, error: str | None) -> None:
    if error is None:
        addr = parse_addr(text)
        assert is4 is None or addr.is4 is is4
    else:
        with pytest.raises(AddrError) as err:
            parse_addr(text)
        assert str(err.value) == error


def test_parse_addr_values() -> None:
    assert parse_addr("1:2:3:4:5:6:7::").value == 0x0001_0002_0003_0004_0005_0006_0007_0000
    assert parse_addr("::ffff:1.2.3.4").is4in6
    assert parse_addr("fe80::1%eth0").zone == "eth0"


# The CEL library over the same strings: isURL, url() and its error text, the getters.
ENV = environment.eval_env()


def _cel(expr: str):
    return ENV.compile(expr).eval(data={})


@pytest.mark.parametrize(("raw", "valid"), PARSE_REQUEST_URL_TESTS + [
    ("https://not a valid hostname!", False), ("https://!&^(...)", False), ("https://exa%zzmple.com/", False),
    ("#%blah$#@", False), ("https://[1.2.3.4]/", False), ("http://::1/", False),
    ("https://user:pass@example.com:80/path?query=val#fragment", True), ("https://a:b:c/", False),
])
def test_is_url(raw: str, valid: bool) -> None:
    assert _cel(f"isURL({json.dumps(raw)})").value() is valid


def test_url_error_is_the_librarys_text() -> None:
    value = _cel("url('https://exa%zzmple.com/')")
    assert str(value.value()).endswith(
        'URL parse error during conversion from string: parse "https://exa%zzmple.com/": invalid URL escape "%zz"')


@pytest.mark.parametrize(("raw", "getters"), [
    ("https://user:pass@example.com:80/path?query=val#fragment",
     {"getScheme": "https", "getHost": "example.com:80", "getHostname": "example.com", "getPort": "80",
      "getEscapedPath": "/path", "getQuery": {"query": ["val"]}}),
    ("http://[fe80::1%25en0]:8080/a%2fb?x=1;y=2&z=%41",
     {"getHost": "[fe80::1%en0]:8080", "getHostname": "fe80::1%en0", "getPort": "8080",
      "getEscapedPath": "/a%2fb", "getQuery": {"z": ["A"]}}),
    ("/path#frag?x=1", {"getScheme": "", "getHost": "", "getEscapedPath": "/path", "getQuery": {}}),
    ("HTTPS://Example.COM", {"getScheme": "https", "getHost": "Example.COM", "getEscapedPath": ""}),
    ("mailto:someone@example.com", {"getScheme": "mailto", "getHost": "", "getEscapedPath": ""}),
])
def test_getters(raw: str, getters: dict) -> None:
    for getter, want in getters.items():
        assert _cel(f"url({json.dumps(raw)}).{getter}()").plain_value() == want, getter


def test_is_url_refuses_what_go_refuses_through_the_cli(tmp_path: Path) -> None:
    crd, cr = tmp_path / "crd.json", tmp_path / "cr.json"
    crd.write_text(json.dumps({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                 "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                     "type": "object", "properties": {"spec": {"type": "object", "properties": {"u": {
                         "type": "string", "x-kubernetes-validations": [
                             {"rule": "isURL(self)", "message": "must be a URL"},
                             {"rule": "!isURL(self) || url(self).getHost() != ''"}]}}}}}}}]}}))
    cr.write_text(json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                              "spec": {"u": "https://not a valid hostname!"}}))
    res = CliRunner().invoke(cli, ["--no-color", "validate", "-c", str(crd), str(cr)])
    assert res.exit_code == 1, res.output
    assert 'spec.u: Invalid value: "https://not a valid hostname!": must be a URL' in res.output
