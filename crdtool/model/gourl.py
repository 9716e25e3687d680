"""Go's `net/url` (Go 1.26, as kube-apiserver 1.36 is built): parsing, its errors, and the URL accessors.

The apiserver parses URLs with it in several places: a CRD's conversion webhook URL (`url.Parse`),
the `uri` string format and the API-approval annotation (`url.ParseRequestURI`), and the CEL URL
library (`isURL`, `url()` and the getters on a URL). Their verdicts and error texts
(`parse "https://exa mple.com": invalid character " " in host name`) are Go's, which Python's
urllib does not share, so this follows Go's algorithm. Go works on bytes: strings that are not
UTF-8 arrive with surrogate escapes and leave the same way.

Go 1.26 made colons in a host strict for http and https (`http://a:1:2/` is an invalid port
`":1:2"`); other schemes keep the last colon as the port separator. Kubernetes 1.36 builds with
`godebug default=go1.26`, so the strict default applies.
"""

from __future__ import annotations

from crdtool.model.gofmt import go_quote
from crdtool.model.netip import AddrError, parse_addr
from crdtool.model.record import Record

__all__ = ["URL", "URLError", "escape", "is_request_uri", "parse", "parse_query", "parse_request_uri", "unescape"]

# Encoding modes (Go's `encoding` constants).
PATH, PATH_SEGMENT, HOST, ZONE, USER_PASSWORD, QUERY_COMPONENT, FRAGMENT = range(1, 8)

_ALNUM = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_HOST_EXTRA = frozenset(b"!$&'()*+,;=:[]<>\"")
_RESERVED = frozenset(b"$&+,/:;=?@")
_USERINFO_OK = frozenset(b"-._:~!$&'()*+,;=%@") | _ALNUM
_MAX_QUERY_PARAMS = 10000


class URLError(ValueError):
    """url.Error: `parse "<url>": <reason>`."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"parse {go_quote(url)}: {reason}")
        self.url, self.reason = url, reason


class _Fail(Exception):
    """A parse failure's reason, before url.Error wraps it with the URL."""


class URL(Record):
    """url.URL (the text fields hold Go's strings; `user` is None or (username, password or None))."""

    __slots__ = ("scheme", "opaque", "user", "host", "path", "raw_path", "omit_host", "force_query", "raw_query",
                 "fragment", "raw_fragment")

    scheme: str
    opaque: str
    user: tuple[str, str | None] | None
    host: str
    path: str
    raw_path: str
    omit_host: bool
    force_query: bool
    raw_query: str
    fragment: str
    raw_fragment: str

    def __init__(self, scheme: str = "", opaque: str = "", user: tuple[str, str | None] | None = None,
                 host: str = "", path: str = "", raw_path: str = "", omit_host: bool = False,
                 force_query: bool = False, raw_query: str = "", fragment: str = "", raw_fragment: str = "") -> None:
        self.scheme = scheme
        self.opaque = opaque
        self.user = user
        self.host = host
        self.path = path
        self.raw_path = raw_path
        self.omit_host = omit_host
        self.force_query = force_query
        self.raw_query = raw_query
        self.fragment = fragment
        self.raw_fragment = raw_fragment

    def user_string(self) -> str:
        """Userinfo.String(): the username and password escaped for a URL."""
        if self.user is None:
            return ""
        name, password = self.user
        text = escape(name, USER_PASSWORD)
        return text if password is None else f"{text}:{escape(password, USER_PASSWORD)}"

    def hostname(self) -> str:
        """URL.Hostname(): the host without a valid port and without IPv6 brackets."""
        return _split_host_port(self.host)[0]

    def port(self) -> str:
        """URL.Port(): the port digits, or "" when the host has no valid port."""
        return _split_host_port(self.host)[1]

    def escaped_path(self) -> str:
        """URL.EscapedPath(): the raw path when it is a valid escaping of the path, else the path escaped."""
        if self.raw_path and _valid_encoded(self.raw_path, PATH):
            try:
                if unescape(self.raw_path, PATH) == self.path:
                    return self.raw_path
            except _Fail:
                pass
        if self.path == "*":
            return "*"
        return escape(self.path, PATH)

    def query(self) -> dict[str, list[str]]:
        """URL.Query(): the query's values, malformed pairs dropped."""
        return parse_query(self.raw_query)[0]


def _bytes(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _str(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def should_escape(c: int, mode: int) -> bool:
    """shouldEscape: whether byte `c` must be %-escaped in the URL part `mode`."""
    if c in _ALNUM:
        return False
    if mode in (HOST, ZONE) and c in _HOST_EXTRA:
        return False
    if c in b"-_.~":
        return False
    if c in _RESERVED:
        if mode == PATH:
            return c == ord("?")
        if mode == PATH_SEGMENT:
            return c in b"/;,?"
        if mode == USER_PASSWORD:
            return c in b"@/?:"
        if mode == QUERY_COMPONENT:
            return True
        if mode == FRAGMENT:
            return False
    # Sub-delimiters stay unescaped only in a fragment (and not the single quote).
    return not (mode == FRAGMENT and c in b"!()*")


def unescape(s: str, mode: int) -> str:
    """unescape: %XX decoded (and `+` as a space in a query component); _Fail with Go's reason."""
    raw = _bytes(s)
    i, n, has_plus = 0, 0, False
    while i < len(raw):
        c = raw[i]
        if c == 0x25:
            n += 1
            if i + 2 >= len(raw) or raw[i + 1] not in _HEX or raw[i + 2] not in _HEX:
                raise _Fail("invalid URL escape " + go_quote(_str(raw[i:i + 3])))
            if mode == HOST and int(chr(raw[i + 1]), 16) < 8 and raw[i:i + 3] != b"%25":
                raise _Fail("invalid URL escape " + go_quote(_str(raw[i:i + 3])))
            if mode == ZONE:
                v = int(raw[i + 1:i + 3], 16)
                if raw[i:i + 3] != b"%25" and v != 0x20 and should_escape(v, HOST):
                    raise _Fail("invalid URL escape " + go_quote(_str(raw[i:i + 3])))
            i += 3
        elif c == 0x2B:
            has_plus = mode == QUERY_COMPONENT
            i += 1
        else:
            if mode in (HOST, ZONE) and c < 0x80 and should_escape(c, mode):
                raise _Fail("invalid character " + go_quote(chr(c)) + " in host name")
            i += 1
    if n == 0 and not has_plus:
        return s
    out = bytearray()
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == 0x25:
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
            continue
        out.append(0x20 if c == 0x2B and mode == QUERY_COMPONENT else c)
        i += 1
    return _str(bytes(out))


def escape(s: str, mode: int) -> str:
    """escape: the bytes `mode` does not allow as %XX (a space as `+` in a query component)."""
    out = []
    for c in _bytes(s):
        if c == 0x20 and mode == QUERY_COMPONENT:
            out.append("+")
        elif should_escape(c, mode):
            out.append(f"%{c:02X}")
        else:
            out.append(chr(c))
    return _str("".join(out).encode("latin-1"))


def _valid_encoded(s: str, mode: int) -> bool:
    for c in _bytes(s):
        if c in b"!$&'()*+,;=:@[]%":
            continue
        if should_escape(c, mode):
            return False
    return True


def _valid_optional_port(port: bytes) -> bool:
    return port == b"" or (port[:1] == b":" and all(0x30 <= c <= 0x39 for c in port[1:]))


def _split_host_port(host_port: str) -> tuple[str, str]:
    host, port = host_port, ""
    colon = host.rfind(":")
    if colon != -1 and _valid_optional_port(_bytes(host[colon:])):
        host, port = host[:colon], host[colon + 1:]
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host, port


def _get_scheme(raw: str) -> tuple[str, str]:
    for i, c in enumerate(raw):
        if c.isascii() and c.isalpha():
            continue
        if c in "0123456789+-.":
            if i == 0:
                return "", raw
            continue
        if c == ":":
            if i == 0:
                raise _Fail("missing protocol scheme")
            return raw[:i], raw[i + 1:]
        return "", raw
    return "", raw


def _parse_host(scheme: str, host: str) -> str:
    raw = _bytes(host)
    open_bracket = raw.rfind(b"[")
    if open_bracket > 0:
        raise _Fail("invalid IP-literal")
    if open_bracket == 0:
        close = raw.rfind(b"]")
        if close < 0:
            raise _Fail("missing ']' in host")
        colon_port = raw[close + 1:]
        if not _valid_optional_port(colon_port):
            raise _Fail(f"invalid port {go_quote(_str(colon_port))} after host")
        port = unescape(_str(colon_port), HOST)
        name = raw[1:close]
        zone = name.find(b"%25")
        if zone >= 0:
            unescaped = unescape(_str(name[:zone]), HOST) + unescape(_str(name[zone:]), ZONE)
        else:
            unescaped = unescape(_str(name), HOST)
        # Only an IPv6 address may be bracketed (an IPv4-mapped one included).
        try:
            addr = parse_addr(unescaped)
        except AddrError as err:
            raise _Fail(f"invalid host: {err}") from None
        if addr.is4:
            raise _Fail("invalid IP-literal")
        return f"[{unescaped}]{port}"
    colon = raw.find(b":")
    if colon != -1:
        last = raw.rfind(b":")
        if last != colon and scheme not in ("http", "https"):
            colon = last
        if not _valid_optional_port(raw[colon:]):
            raise _Fail(f"invalid port {go_quote(_str(raw[colon:]))} after host")
    return unescape(host, HOST)


def _parse_authority(scheme: str, authority: str, url: URL) -> None:
    at = authority.rfind("@")
    url.host = _parse_host(scheme, authority[at + 1:])
    if at < 0:
        return
    userinfo = authority[:at]
    if not all(ord(c) < 0x80 and ord(c) in _USERINFO_OK for c in userinfo):
        raise _Fail("net/url: invalid userinfo")
    if ":" not in userinfo:
        url.user = (unescape(userinfo, USER_PASSWORD), None)
    else:
        name, _, password = userinfo.partition(":")
        url.user = (unescape(name, USER_PASSWORD), unescape(password, USER_PASSWORD))


def _set_path(url: URL, p: str) -> None:
    url.path = unescape(p, PATH)
    url.raw_path = "" if escape(url.path, PATH) == p else p


def _parse(raw: str, via_request: bool) -> URL:
    if any(b < 0x20 or b == 0x7F for b in _bytes(raw)):
        raise _Fail("net/url: invalid control character in URL")
    if raw == "" and via_request:
        raise _Fail("empty url")
    url = URL()
    if raw == "*":
        url.path = "*"
        return url
    scheme, rest = _get_scheme(raw)
    url.scheme = scheme.lower()
    if rest.endswith("?") and rest.count("?") == 1:
        url.force_query = True
        rest = rest[:-1]
    else:
        rest, _, url.raw_query = rest.partition("?")
    if not rest.startswith("/"):
        if url.scheme:
            url.opaque = rest  # a rootless path is opaque
            return url
        if via_request:
            raise _Fail("invalid URI for request")
        if ":" in rest.partition("/")[0]:
            raise _Fail("first path segment in URL cannot contain colon")
    if (url.scheme or not via_request and not rest.startswith("///")) and rest.startswith("//"):
        authority, slash, tail = rest[2:].partition("/")
        rest = slash + tail
        _parse_authority(url.scheme, authority, url)
    elif url.scheme and rest.startswith("/"):
        url.omit_host = True
    _set_path(url, rest)
    return url


def parse(raw: str) -> URL:
    """url.Parse: a URL reference, relative or absolute, with an optional #fragment; URLError otherwise."""
    u, hash_mark, frag = raw.partition("#")
    try:
        url = _parse(u, False)
    except _Fail as e:
        raise URLError(u, str(e)) from None
    if frag:
        try:
            url.fragment = unescape(frag, FRAGMENT)
        except _Fail as e:
            raise URLError(raw, str(e)) from None
        url.raw_fragment = "" if escape(url.fragment, FRAGMENT) == frag else frag
    return url


def parse_request_uri(raw: str) -> URL:
    """url.ParseRequestURI: an absolute URI or an absolute path (a `#` is part of the path); URLError otherwise."""
    try:
        return _parse(raw, True)
    except _Fail as e:
        raise URLError(raw, str(e)) from None


def is_request_uri(raw: str) -> bool:
    """Whether url.ParseRequestURI accepts `raw`: the `uri` format's check (govalidator.IsRequestURI)
    and the Kubernetes CEL library's isURL."""
    try:
        parse_request_uri(raw)
    except URLError:
        return False
    return True


def parse_query(query: str) -> tuple[dict[str, list[str]], str | None]:
    """url.ParseQuery: the values of `k=v&...` and the first error's text (the pair is dropped)."""
    values: dict[str, list[str]] = {}
    if query.count("&") + 1 > _MAX_QUERY_PARAMS:
        return values, "number of URL query parameters exceeded limit"
    error = None
    while query:
        key, _, query = query.partition("&")
        if ";" in key:
            error = "invalid semicolon separator in query"
            continue
        if not key:
            continue
        key, _, value = key.partition("=")
        try:
            key, value = unescape(key, QUERY_COMPONENT), unescape(value, QUERY_COMPONENT)
        except _Fail as e:
            error = error or str(e)
            continue
        values.setdefault(key, []).append(value)
    return values, error
