"""The HTTPS call to a conversion webhook, as the apiserver's webhook REST client makes it, with
the standard library only, and every failure in the words of Go's net/http and client-go.

What the apiserver does (k8s.io/apiserver's util/webhook and client-go's rest package): POST the
ConversionReview as JSON to the CRD's URL with `?timeout=30s` appended (the client's timeout; the
URL's path cleaned by path.Join), HTTP/1.1, User-Agent `kube-apiserver-admission`; the whole call
bounded by that timeout. A transport failure is Go's url.Error, `Post "URL": <cause>`. An answer
outside 2xx is an error built from its status code (the body quoted only when it is text), unless
the body is a metav1.Status with status Failure, whose message is used. An empty 2xx body is
`0-length response ...`; anything else is decoded as a ConversionReview (crdtool.convert.review).

Timeouts: client-go gives the request a context with the client's timeout and http.Client has the
same Timeout; its transport is wrapped (user agent, metrics), so net/http cancels through its own
timer, set a moment after the context's deadline. Which of the two a slow webhook meets first is a
race of microseconds; the error names the client's timer once it has fired, which crdtool takes as
the rule: `context deadline exceeded (Client.Timeout exceeded while awaiting headers)` (`... or
context cancellation while reading body` once the headers are in).
"""

from __future__ import annotations

import os
import posixpath
import socket
import ssl
import threading
import time
import zlib
from dataclasses import dataclass, field
from urllib.parse import quote, quote_plus, urlsplit

from crdtool.convert import review, tls
from crdtool.model.gofmt import go_quote, go_trim_space
from crdtool.model.gotime import go_duration

__all__ = ["Answer", "WebhookClient", "check_url", "into_review"]

USER_AGENT = "kube-apiserver-admission"
#: The apiserver's webhook client timeout (setGlobalDefaults in apiserver's util/webhook).
DEFAULT_TIMEOUT_NS = 30 * 10**9
AWAITING_HEADERS = "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
READING_BODY = "context deadline exceeded (Client.Timeout or context cancellation while reading body)"
#: A request context's deadline that ends before the client's timeout: Go's context.DeadlineExceeded.
CONTEXT_DEADLINE = "context deadline exceeded"
_MAX_UNSTRUCTURED_TEXT = 2048

#: How much of an answer (its body, and again once gunzipped) crdtool reads: 64 MiB, or four times
#: the request when that is more (a batch of large objects comes back about as large as it went).
#: This bound is crdtool's own: the apiserver reads a webhook's answer whole (client-go's
#: rest.Request.transformResponse, io.ReadAll) and net/http gunzips it as it comes, without a bound;
#: its only bound is the timeout. A larger answer would only grow crdtool's memory until it fails.
MIN_ANSWER_LIMIT = 64 * 1024 * 1024
ANSWER_LIMIT_FACTOR = 4


def answer_limit(request: bytes) -> int:
    """The most bytes of an answer to `request` that are read."""
    return max(MIN_ANSWER_LIMIT, ANSWER_LIMIT_FACTOR * len(request))


def too_large(limit: int) -> str:
    """crdtool's words for an answer over `limit` (the apiserver has none: it would read on)."""
    return (f"the answer is larger than {limit} bytes, more than crdtool reads (64 MiB, or four times the "
            "request)")


def gunzip(data: bytes, limit: int) -> bytes:
    """A gzip body decompressed (every member, as Go's gzip.Reader), or ValueError past `limit`
    bytes (so a small body that inflates to gigabytes stops at the limit); zlib.error if it is not gzip."""
    out = bytearray()
    while data:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out += inflater.decompress(data, limit + 1 - len(out))
        if len(out) > limit:
            raise ValueError(too_large(limit))
        if inflater.unconsumed_tail or not inflater.eof:
            if inflater.unconsumed_tail:  # stopped at the limit with input left: larger than it
                raise ValueError(too_large(limit))
            raise zlib.error("truncated")
        data = inflater.unused_data
    return bytes(out)


class _Failure(Exception):
    """A transport failure: the text is Go's cause (what follows `Post "URL": `)."""


class _TooLarge(Exception):
    """An answer larger than crdtool reads (its own bound, in its own words)."""


class _BodyFailure(Exception):
    """Reading the body failed: the text is Go's cause."""


@dataclass
class Answer:
    """An HTTP answer: status code, headers (lower-cased names, first value) and body."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


def _clean_path(path: str) -> str:
    """path.Join("/", p): absolute and cleaned (no trailing slash, no `.` or `..`)."""
    cleaned = posixpath.normpath("/" + path)
    return "/" + cleaned.lstrip("/")


def _errno_text(err: OSError) -> str:
    """Go's syscall.Errno text (the C library's, lower-cased)."""
    if err.errno is None:
        return str(err)
    text = os.strerror(err.errno)
    return text[:1].lower() + text[1:]


def _nameserver() -> str | None:
    try:
        with open("/etc/resolv.conf", encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0] == "nameserver":
                    host = parts[1]
                    return f"[{host}]:53" if ":" in host else f"{host}:53"
    except OSError:
        return None
    return None


def _host_port(address: tuple) -> str:
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def check_url(url: str):
    """The parts of a webhook URL, or ValueError where the apiserver would not accept it in a CRD."""
    parts = urlsplit(url)
    problem = None
    if parts.scheme != "https" or not parts.hostname:
        problem = "must be https://host[:port][/path]"
    elif parts.username is not None or parts.password is not None:
        problem = "user information is not allowed"
    elif parts.query:
        problem = "query parameters are not allowed"
    elif parts.fragment:
        problem = "fragments are not allowed"
    else:
        try:
            parts.port  # noqa: B018 - a bad port is a ValueError
        except ValueError:
            problem = "has an invalid port"
    if problem is not None:
        raise ValueError(f"the webhook URL {url} {problem}")
    return parts


def _resolve(host: str, port: int, timeout: float) -> list:
    """getaddrinfo, bounded by the timeout (the C resolver takes none)."""
    found: list = []
    failure: list[BaseException] = []

    def lookup() -> None:
        try:
            found.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as err:
            failure.append(err)

    worker = threading.Thread(target=lookup, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise _Failure(AWAITING_HEADERS)
    if failure or not found:
        server = _nameserver()
        on = f" on {server}" if server else ""
        raise _Failure(f"dial tcp: lookup {host}{on}: no such host")
    return found


class WebhookClient:
    """POSTs reviews (ConversionReviews, AdmissionReviews) to one URL as the apiserver's webhook client would.

    `request_timeout_ns` is the request context's timeout when the caller sets one (an admission
    webhook's timeoutSeconds): it is the `?timeout=` the webhook is told, and when it ends before the
    client's own timeout Go's error is the context's (`context deadline exceeded`). `dial` is the
    address connected to instead of the URL's host (a service reference resolved to its endpoint:
    the URL, the Host header and the TLS server name stay the service's).
    """

    def __init__(self, url: str, *, ca_pem: bytes | None, verify: bool = True,
                 timeout_ns: int = DEFAULT_TIMEOUT_NS, server_name: str | None = None,
                 request_timeout_ns: int | None = None, dial: tuple[str, int] | None = None) -> None:
        parts = check_url(url)
        self.port = parts.port or 443
        self.hostname = parts.hostname
        self.dial = dial or (parts.hostname, self.port)
        self.host_header = parts.netloc
        self.path = quote(_clean_path(parts.path), safe="/:@!$&'()*+,;=-._~%")
        self.query = "timeout=" + quote_plus(go_duration(request_timeout_ns or timeout_ns))
        self.url = f"https://{parts.netloc}{self.path}?{self.query}"
        self.server_name = server_name or self.hostname
        self.timeout = min(timeout_ns, request_timeout_ns or timeout_ns) / 1e9
        self.deadline_text = (CONTEXT_DEADLINE if request_timeout_ns is not None and request_timeout_ns < timeout_ns
                              else None)
        self.context = tls.make_context(ca_pem, verify)
        self.verify = verify

    # -- the exchange
    def exchange(self, body: bytes, version: str) -> review.Review:
        """The decoded ConversionReview answer, or review.CallError with Go's text."""
        return into_review(self.post(body), version)

    def post(self, body: bytes) -> Answer:
        deadline = time.monotonic() + self.timeout
        try:
            return self._post(body, deadline)
        except _Failure as err:
            cause = str(err)
            if self.deadline_text is not None and cause == AWAITING_HEADERS:
                cause = self.deadline_text
            raise review.CallError(f"Post {go_quote(self.url)}: {cause}") from None
        except _BodyFailure as err:
            if self.deadline_text is not None and str(err) == READING_BODY:
                err = _BodyFailure(self.deadline_text)
            raise review.CallError("unexpected error when reading response body. Please retry. "
                                   f"Original error: {err}") from None
        except _TooLarge as err:
            raise review.CallError(str(err)) from None

    def _remaining(self, deadline: float) -> float:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Failure(AWAITING_HEADERS)
        return left

    def _connect(self, deadline: float) -> tuple[socket.socket, tuple]:
        infos = _resolve(self.dial[0], self.dial[1], self._remaining(deadline))
        first: tuple[tuple, OSError] | None = None
        for family, kind, proto, _, address in infos:
            sock = socket.socket(family, kind, proto)
            sock.settimeout(self._remaining(deadline))
            try:
                sock.connect(address)
                return sock, address
            except TimeoutError:
                sock.close()
                raise _Failure(AWAITING_HEADERS) from None
            except OSError as err:
                sock.close()
                first = first or (address, err)
        assert first is not None
        address, err = first
        raise _Failure(f"dial tcp {_host_port(address)}: connect: {_errno_text(err)}")

    def _handshake(self, sock: socket.socket, address: tuple, deadline: float) -> ssl.SSLSocket:
        local = _host_port(sock.getsockname())
        conn = self.context.wrap_socket(sock, server_hostname=self.server_name, do_handshake_on_connect=False)
        try:
            conn.settimeout(self._remaining(deadline))
            conn.do_handshake()
        except TimeoutError:
            conn.close()
            raise _Failure(AWAITING_HEADERS) from None
        except ssl.SSLCertVerificationError as err:
            conn.close()
            raise _Failure(tls.verification_error(err, address, self.server_name,
                                                  max(0.5, deadline - time.monotonic()))) from None
        except ssl.SSLError as err:
            conn.close()
            raise _Failure(tls.go_tls_error(err)) from None
        except OSError as err:
            conn.close()
            if err.errno is None:
                raise _Failure("EOF") from None
            raise _Failure(f"read tcp {local}->{_host_port(address)}: read: {_errno_text(err)}") from None
        if self.verify:
            der = conn.getpeercert(binary_form=True)
            problem = tls.hostname_error(tls.parse_leaf(der), self.server_name) if der else None
            if problem is not None:
                conn.close()
                raise _Failure(f"tls: failed to verify certificate: {problem}")
        return conn

    def _post(self, body: bytes, deadline: float) -> Answer:
        sock, address = self._connect(deadline)
        conn = self._handshake(sock, address, deadline)
        with conn:
            request = (f"POST {self.path}?{self.query} HTTP/1.1\r\nHost: {self.host_header}\r\n"
                       f"User-Agent: {USER_AGENT}\r\nContent-Length: {len(body)}\r\n"
                       "Accept: application/json, */*\r\nContent-Type: application/json\r\n"
                       "Accept-Encoding: gzip\r\n\r\n").encode("latin-1") + body
            local, remote = _host_port(conn.getsockname()), _host_port(address)
            try:
                conn.settimeout(self._remaining(deadline))
                conn.sendall(request)
            except TimeoutError:
                raise _Failure(AWAITING_HEADERS) from None
            except OSError as err:
                raise _Failure(f"write tcp {local}->{remote}: write: {_errno_text(err)}") from None
            return _Reader(conn, deadline, local, remote, answer_limit(body)).answer()


class _Reader:
    """Reads one HTTP/1.1 answer from a socket within a deadline."""

    def __init__(self, conn: ssl.SSLSocket, deadline: float, local: str, remote: str, limit: int) -> None:
        self.conn, self.deadline, self.local, self.remote = conn, deadline, local, remote
        self.limit = limit
        self.buffer = bytearray()
        self.eof = False
        self.headers_done = False

    def _fill(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            self._timeout()
        try:
            self.conn.settimeout(left)
            data = self.conn.recv(65536)
        except TimeoutError:
            self._timeout()
        except ssl.SSLError as err:
            if isinstance(err, (ssl.SSLEOFError, ssl.SSLZeroReturnError)):
                data = b""
            else:
                raise self._error(tls.go_tls_error(err)) from None
        except OSError as err:
            raise self._error(f"read tcp {self.local}->{self.remote}: read: {_errno_text(err)}") from None
        if not data:
            self.eof = True
        self.buffer += data
        if len(self.buffer) > self.limit + 65536:  # a body (or a header line) past the limit
            raise _TooLarge(too_large(self.limit))

    def _timeout(self) -> None:
        if self.headers_done:
            raise _BodyFailure(READING_BODY)
        raise _Failure(AWAITING_HEADERS)

    def _error(self, text: str) -> Exception:
        return _BodyFailure(text) if self.headers_done else _Failure(text)

    def _line(self) -> bytes:
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end + 1])
                del self.buffer[:end + 1]
                return line.rstrip(b"\r\n")
            if self.eof:
                if not self.headers_done:
                    if self.buffer:
                        raise _Failure("net/http: HTTP/1.x transport connection broken: unexpected EOF")
                    raise _Failure("EOF")
                raise _BodyFailure("unexpected EOF")
            self._fill()

    def _exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            if self.eof:
                raise _BodyFailure("unexpected EOF")
            self._fill()
        data = bytes(self.buffer[:n])
        del self.buffer[:n]
        return data

    def _head(self) -> tuple[int, dict[str, str]]:
        while True:
            line = self._line().decode("latin-1")
            proto, sep, status = line.partition(" ")
            if not sep:
                raise _Failure("net/http: HTTP/1.x transport connection broken: malformed HTTP response "
                               + go_quote(line))
            status = status.lstrip(" ")
            code = status[:3]
            if len(code) != 3 or not code.isdigit():
                raise _Failure("net/http: HTTP/1.x transport connection broken: malformed HTTP status code "
                               + go_quote(code))
            if not proto.startswith("HTTP/"):
                raise _Failure("net/http: HTTP/1.x transport connection broken: malformed HTTP version "
                               + go_quote(proto))
            headers: dict[str, str] = {}
            while True:
                header = self._line().decode("latin-1")
                if not header:
                    break
                name, colon, value = header.partition(":")
                if not colon:
                    raise _Failure("net/http: HTTP/1.x transport connection broken: malformed MIME header line: "
                                   + header)
                headers.setdefault(name.strip().lower(), value.strip())
            if 100 <= int(code) < 200 and int(code) != 101:
                continue  # an interim answer: the real one follows
            return int(code), headers

    def _chunked(self) -> bytes:
        out = bytearray()
        while True:
            size_line = self._line().split(b";")[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise _BodyFailure("invalid byte in chunk length") from None
            if size == 0:
                while self._line():
                    pass
                return bytes(out)
            if len(out) + size > self.limit:
                raise _TooLarge(too_large(self.limit))
            out += self._exactly(size)
            self._exactly(2)

    def answer(self) -> Answer:
        status, headers = self._head()
        self.headers_done = True
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = self._chunked()
        elif "content-length" in headers:
            try:
                length = int(headers["content-length"])
            except ValueError:
                raise _Failure("net/http: HTTP/1.x transport connection broken: bad Content-Length "
                               + go_quote(headers["content-length"])) from None
            if length > self.limit:
                raise _TooLarge(too_large(self.limit))
            body = self._exactly(length)
        elif status in (204, 304):
            body = b""
        else:
            while not self.eof:
                self._fill()
            body = bytes(self.buffer)
        if headers.get("content-encoding", "").lower() == "gzip":
            try:
                body = gunzip(body, self.limit)
            except ValueError as err:
                raise _TooLarge(str(err)) from None
            except zlib.error:
                raise _BodyFailure("gzip: invalid header") from None
            headers.pop("content-encoding")
        return Answer(status, headers, body)


# ---------------------------------------------------------------- client-go's reading of the answer

def _media_type(content_type: str) -> tuple[str | None, str | None]:
    """mime.ParseMediaType's media type, or its error."""
    base, _, params = content_type.partition(";")
    media = base.strip().lower()
    token = "".join(c for c in media if c not in "/")
    if not media or not token:
        return None, "mime: no media type"
    main, slash, sub = media.partition("/")
    if not main:
        return None, "mime: no media type"
    if slash:
        if not sub:
            return None, "mime: expected token after slash"
        if "/" in sub or " " in sub:
            return None, "mime: unexpected content after media subtype"
    elif " " in main:
        return None, "mime: expected slash after first token"
    for param in params.split(";"):
        if param.strip() and "=" not in param:
            return None, "mime: invalid media parameter"
    return media, None


_STATUS_MESSAGES = {
    409: "the server reported a conflict",
    404: "the server could not find the requested resource",
    400: "the server rejected our request for an unknown reason",
    401: "the server has asked for the client to provide credentials",
    405: "the server does not allow this method on the requested resource",
    422: "the server rejected our request due to an error in our request",
    503: "the server is currently unable to handle the request",
    504: "the server was unable to return a response in the time allotted, but may still be processing the request",
    429: "the server has received too many requests and has asked us to try again later",
}


def generic_server_response(code: int, server_message: str) -> str:
    """errors.NewGenericServerResponse(code, "POST", ...).Error() for the webhook client."""
    if code in _STATUS_MESSAGES:
        return _STATUS_MESSAGES[code]
    if code in (403, 415):
        return server_message
    if code == 406:
        if not server_message or server_message == "unknown":
            return "the server was unable to respond with a content type that the client supports"
        return server_message
    if code >= 500:
        return f"an error on the server ({go_quote(server_message)}) has prevented the request from succeeding"
    return f"the server responded with the status code {code} but did not return more information"


def into_review(answer: Answer, version: str,
                review_type: review.ReviewType = review.CONVERSION_REVIEW) -> review.Review:
    """client-go's transformResponse and Result.Into(&ConversionReview{}) (or the review type's): the
    review, or CallError."""
    header = answer.headers.get("content-type", "")
    content_type = header or "application/json"
    media, problem = _media_type(content_type)
    if problem is not None:
        raise review.CallError(f"Internal error occurred: {problem}")
    if not 200 <= answer.status <= 206:
        is_text = not header or (media or "").startswith("text/")
        body = answer.body[:_MAX_UNSTRUCTURED_TEXT]
        message = go_trim_space(body.decode("utf-8", "replace")) if is_text else "unknown"
        if answer.body:
            failure = review.failure_status_message(answer.body)
            if failure is not None:
                raise review.CallError(failure)
        raise review.CallError(generic_server_response(answer.status, message))
    if not answer.body:
        raise review.CallError(f"0-length response with status code: {answer.status} and content type: "
                               f"{content_type}")
    return review.decode_review(answer.body, version, review_type)

