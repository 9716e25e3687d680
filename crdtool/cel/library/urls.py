"""Kubernetes' URL library (library/urls.go) over Go's net/url (model/gourl.py).

`url()` and `isURL()` accept what `url.ParseRequestURI` accepts; the URL value is what `url.Parse`
makes of the same text (so a `#fragment` is not part of the path or query), and each getter is the
Go accessor of that value.
"""

from __future__ import annotations

from cel_expr_python import cel

from crdtool.cel.library.functions import Library
from crdtool.cel.library.opaque import cel_type, make
from crdtool.model.gourl import URL, URLError, is_request_uri, parse, parse_request_uri

__all__ = ["library"]

URL_TYPE = "kubernetes.URL"


def _string_to_url(text: str):
    """stringToUrl: ParseRequestURI checks the text, Parse (its result is kept in the value) reads it."""
    try:
        parse_request_uri(text)
        parse(text)
    except URLError as err:
        raise ValueError(f"URL parse error during conversion from string: {err}") from None
    return make(URL_TYPE, text)


def _url(value) -> URL:
    """The parsed URL of a `kubernetes.URL` value (its text was accepted by url())."""
    return parse(value.value)


def library(lib: Library) -> None:
    u, s = cel_type(URL_TYPE), cel.Type.STRING
    lib.function("url", "string_to_url", u, [s], _string_to_url)
    lib.function("isURL", "is_url_string", cel.Type.BOOL, [s], is_request_uri)
    lib.member("getScheme", "url_get_scheme", s, [u], lambda v: _url(v).scheme)
    lib.member("getHost", "url_get_host", s, [u], lambda v: _url(v).host)
    lib.member("getHostname", "url_get_hostname", s, [u], lambda v: _url(v).hostname())
    lib.member("getPort", "url_get_port", s, [u], lambda v: _url(v).port())
    lib.member("getEscapedPath", "url_get_escaped_path", s, [u], lambda v: _url(v).escaped_path())
    lib.member("getQuery", "url_get_query", cel.Type.Map(s, cel.Type.List(s)), [u], lambda v: _url(v).query())
