"""Go's `net/url` parser, as far as the apiserver's CRD checks look at its result or its error.

Webhook URLs are checked on what `url.Parse` makes of them (scheme, host, user, fragment,
query) and the API approval annotation on `url.ParseRequestURI`; their error texts
(`parse "https://exa mple.com": invalid character " " in host name`) are Go's. Python's
urllib parses differently, so this follows Go's algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass

from crdtool.model.gofmt import go_quote

_HEX = "0123456789abcdefABCDEF"
_HOST_SUBDELIMS = set("!$&'()*+,;=:[]<>\"")
_USERINFO_OK = set("-._:~!$&'()*+,;=%@")


class URLError(Exception):
    """url.Error: `parse "<url>": <reason>`."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"parse {go_quote(url)}: {reason}")


class _Reason(Exception):
    pass


@dataclass(slots=True)
class GoURL:
    """The parts of url.URL the apiserver checks."""

    scheme: str = ""
    opaque: str = ""
    user: str | None = None  # Userinfo.String(), None when the URL has no userinfo
    host: str = ""
    path: str = ""
    raw_query: str = ""
    fragment: str = ""


def _is_alnum(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _should_escape(c: str, mode: str) -> bool:
    """shouldEscape for the modes used here: host, userinfo."""
    if _is_alnum(c):
        return False
    if mode == "host" and c in _HOST_SUBDELIMS:
        return False
    if c in "-_.~":
        return False
    if c in "$&+,/:;=?@":
        if mode == "user":
            return c in "@/?:"
        return True
    return True


def _unescape(s: str, mode: str) -> str:
    """unescape: reject bad %-escapes (and, in a host, characters that would need one)."""
    i = 0
    while i < len(s):
        c = s[i]
        if c == "%":
            if i + 2 >= len(s) or s[i + 1] not in _HEX or s[i + 2] not in _HEX:
                raise _Reason("invalid URL escape " + go_quote(s[i:i + 3]))
            if mode == "host" and int(s[i + 1], 16) < 8 and s[i:i + 3] != "%25":
                raise _Reason("invalid URL escape " + go_quote(s[i:i + 3]))
            i += 3
            continue
        if mode == "host" and ord(c) < 0x80 and _should_escape(c, mode):
            raise _Reason("invalid character " + go_quote(c) + " in host name")
        i += 1
    return _decode_percent(s)


def _decode_percent(s: str) -> str:
    if "%" not in s:
        return s
    out = bytearray()
    i = 0
    raw = s.encode("utf-8", "surrogateescape")
    while i < len(raw):
        if raw[i] == 0x25:
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", "surrogateescape")


def _escape_user(s: str) -> str:
    out = []
    for b in s.encode("utf-8", "surrogateescape"):
        c = chr(b)
        out.append(c if b < 0x80 and not _should_escape(c, "user") else f"%{b:02X}")
    return "".join(out)


def _get_scheme(raw: str) -> tuple[str, str]:
    for i, c in enumerate(raw):
        if c.isascii() and c.isalpha():
            continue
        if c.isascii() and (c.isdigit() or c in "+-."):
            if i == 0:
                return "", raw
            continue
        if c == ":":
            if i == 0:
                raise _Reason("missing protocol scheme")
            return raw[:i], raw[i + 1:]
        return "", raw
    return "", raw


def _valid_optional_port(port: str) -> bool:
    if port == "":
        return True
    return port[0] == ":" and all(c in "0123456789" for c in port[1:])


def _parse_host(host: str) -> str:
    if host.startswith("["):
        i = host.rfind("]")
        if i < 0:
            raise _Reason("missing ']' in host")
        colon_port = host[i + 1:]
        if not _valid_optional_port(colon_port):
            raise _Reason(f"invalid port {go_quote(colon_port)} after host")
        zone = host[:i].find("%25")
        if zone >= 0:
            return _unescape(host[:zone], "host") + _decode_percent(host[zone:i]) + _unescape(host[i:], "host")
    else:
        i = host.rfind(":")
        if i != -1 and not _valid_optional_port(host[i:]):
            raise _Reason(f"invalid port {go_quote(host[i:])} after host")
    return _unescape(host, "host")


def _parse_authority(authority: str, url: GoURL) -> None:
    i = authority.rfind("@")
    url.host = _parse_host(authority[i + 1:] if i >= 0 else authority)
    if i < 0:
        return
    userinfo = authority[:i]
    if not all(_is_alnum(c) or c in _USERINFO_OK for c in userinfo):
        raise _Reason("net/url: invalid userinfo")
    username, colon, password = userinfo.partition(":")
    user = _escape_user(_unescape(username, "user"))
    if colon:
        user += ":" + _escape_user(_unescape(password, "user"))
    url.user = user


def _parse(raw: str, via_request: bool) -> GoURL:
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        raise _Reason("net/url: invalid control character in URL")
    if raw == "" and via_request:
        raise _Reason("empty url")
    url = GoURL()
    if raw == "*":
        url.path = "*"
        return url
    scheme, rest = _get_scheme(raw)
    url.scheme = scheme.lower()
    if rest.endswith("?") and rest.count("?") == 1:
        rest = rest[:-1]
    else:
        rest, _, url.raw_query = rest.partition("?")
    if not rest.startswith("/"):
        if url.scheme:
            url.opaque = rest
            return url
        if via_request:
            raise _Reason("invalid URI for request")
        if ":" in rest.partition("/")[0]:
            raise _Reason("first path segment in URL cannot contain colon")
    if (url.scheme or not via_request and not rest.startswith("///")) and rest.startswith("//"):
        authority, slash, tail = rest[2:].partition("/")
        rest = slash + tail
        _parse_authority(authority, url)
    url.path = _unescape(rest, "path")
    return url


def parse(raw: str) -> GoURL:
    """url.Parse: a URL, with an optional #fragment."""
    u, hash_mark, frag = raw.partition("#")
    try:
        url = _parse(u, False)
    except _Reason as e:
        raise URLError(u, str(e)) from None
    if hash_mark:
        try:
            url.fragment = _unescape(frag, "fragment")
        except _Reason as e:
            raise URLError(raw, str(e)) from None
    return url


def parse_request_uri(raw: str) -> GoURL:
    """url.ParseRequestURI: an absolute URI or an absolute path, no fragment."""
    try:
        return _parse(raw, True)
    except _Reason as e:
        raise URLError(raw, str(e)) from None
