"""Kubernetes' URL library (library/urls.go), parsing as Go's url.ParseRequestURI does."""

from __future__ import annotations

import urllib.parse

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make
from crdtool.model.gofmt import go_quote

__all__ = ["library"]

URL = "kubernetes.URL"


def _parse(text: str) -> urllib.parse.SplitResult:
    """url.ParseRequestURI: an absolute URI or an absolute path; ValueError with the library's text."""
    def fail(why: str) -> ValueError:
        return ValueError(f"URL parse error during conversion from string: parse {go_quote(text)}: {why}")

    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise fail("net/url: invalid control character in URL")
    scheme = ""
    for i, c in enumerate(text):
        if c.isascii() and (c.isalpha() or (i > 0 and (c.isdigit() or c in "+-."))):
            continue
        if c == ":":
            if i == 0:
                raise fail("missing protocol scheme")
            scheme = text[:i]
        break
    rest = text[len(scheme) + 1:] if scheme else text
    if not scheme and not rest.startswith("/"):
        raise fail("invalid URI for request")
    if rest.startswith("//"):
        host = rest[2:].split("/", 1)[0].split("?", 1)[0].rpartition("@")[2]
        after = host[host.rfind("]") + 1:] if host.startswith("[") else host
        if ":" in after:
            port = after[after.rfind(":"):]
            if port != ":" and not port[1:].isdigit():
                raise fail(f"invalid port {go_quote(port)} after host")
    return urllib.parse.urlsplit(text)


def _is_url(text: str) -> bool:
    try:
        _parse(text)
    except ValueError:
        return False
    return True


def _split(u) -> urllib.parse.SplitResult:
    return urllib.parse.urlsplit(u.value)


def _hostname(u) -> str:
    host = _split(u).netloc.rpartition("@")[2]
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host[1:]
    return host.rpartition(":")[0] if ":" in host else host


def _port(u) -> str:
    host = _split(u).netloc.rpartition("@")[2]
    if host.startswith("["):
        after = host[host.find("]") + 1:] if "]" in host else ""
        return after[1:] if after.startswith(":") else ""
    return host.rpartition(":")[2] if ":" in host else ""


def _escaped_path(u) -> str:
    return urllib.parse.quote(urllib.parse.unquote(_split(u).path), safe="/!$&'()*+,;=:@~-._")


def _query(u) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(_split(u).query, keep_blank_values=True)


def library(lib: Library) -> None:
    u, s = cel_type(URL), cel.Type.STRING
    lib.function("url", "string_to_url", u, [s], lambda t: (_parse(t), make(URL, t))[1])
    lib.function("isURL", "is_url_string", cel.Type.BOOL, [s], _is_url)
    lib.member("getScheme", "url_get_scheme", s, [u], lambda v: _split(v).scheme)
    lib.member("getHost", "url_get_host", s, [u], lambda v: _split(v).netloc.rpartition("@")[2])
    lib.member("getHostname", "url_get_hostname", s, [u], _hostname)
    lib.member("getPort", "url_get_port", s, [u], _port)
    lib.member("getEscapedPath", "url_get_escaped_path", s, [u], _escaped_path)
    lib.member("getQuery", "url_get_query", cel.Type.Map(s, cel.Type.List(s)), [u], _query)
