"""A threaded HTTPS server on 127.0.0.1 with a trustme certificate, for the tests of the webhook
client (conversion and admission webhooks): requests are recorded, and a handler may hold its answer
until `release` is set (a webhook that times out)."""

from __future__ import annotations

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import trustme


class HTTPSServer:
    """Serves `handler` over HTTPS until `close()`; the handler sees `server.requests` (a list to append
    to) and `server.release` (an Event)."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], cert: trustme.LeafCert) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.server.requests = []
        self.server.release = threading.Event()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        cert.configure_cert(context)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def requests(self) -> list[dict]:
        return self.server.requests

    def close(self) -> None:
        self.server.release.set()
        self.server.shutdown()
        self.server.server_close()
