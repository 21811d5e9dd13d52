"""An HTTP proxy in front of the real server that fails chosen requests the ways a network and a load balancer
do, and records every request it saw."""

from __future__ import annotations

import http.client
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, List, Optional
from urllib.parse import urlsplit

# What the proxy does with a request a fault was planned for.
REJECT_503 = "reject_503"  # answers 503 (a load balancer's HTML page) without forwarding
REJECT_429 = "reject_429"  # answers 429 with Retry-After: 1 without forwarding
REJECT_429_LONG = "reject_429_long"  # answers 429 with Retry-After: 120 without forwarding
REJECT_500 = "reject_500"  # answers 500 in the API's envelope without forwarding
FORWARD_THEN_503 = "forward_then_503"  # the server does the work; the client hears 503 instead of its answer
STALL = "stall"  # answers nothing for STALL_SECONDS, then 503

STALL_SECONDS = 3.0
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "proxy-connection"}


@dataclass
class Seen:
    method: str
    path: str
    idempotency_key: Optional[str]
    action: str
    upstream_headers: Dict[str, str] = field(default_factory=dict)


class FaultProxy:
    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.upstream_host = parts.hostname or "127.0.0.1"
        self.upstream_port = parts.port or 80
        self.seen: List[Seen] = []
        self._plans: List[tuple[str, str, List[str]]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def plan(self, method: str, path: str, *actions: str) -> None:
        """The next requests of `method` whose path (without the query) is `path` get `actions`, in turn;
        every other request is forwarded."""
        with self._lock:
            self._plans.append((method, "/api/v1" + path, list(actions)))

    def requests_to(self, method: str, path: str) -> List[Seen]:
        with self._lock:
            return [seen for seen in self.seen if seen.method == method and seen.path == "/api/v1" + path]

    def _next_action(self, method: str, path: str) -> str:
        with self._lock:
            for planned_method, planned_path, actions in self._plans:
                if planned_method == method and planned_path == path and actions:
                    return actions.pop(0)
            return "forward"

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self.seen.append(seen)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self._handle()

            do_POST = do_PATCH = do_DELETE = do_PUT = do_GET

            def _handle(self) -> None:
                path = urlsplit(self.path).path
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                action = proxy._next_action(self.command, path)
                seen = Seen(self.command, path, self.headers.get("Idempotency-Key"), action)
                proxy._record(seen)
                if action == REJECT_503:
                    self._answer(503, b"<html><body>503 Service Unavailable</body></html>", "text/html")
                elif action in (REJECT_429, REJECT_429_LONG):
                    retry_after = "1" if action == REJECT_429 else "120"
                    envelope = b'{"success":false,"error":{"code":"RATE_LIMITED","message":"Too many requests."}}'
                    self._answer(429, envelope, "application/json", {"Retry-After": retry_after})
                elif action == REJECT_500:
                    envelope = b'{"success":false,"error":{"code":"INTERNAL_SERVER_ERROR","message":"Boom."}}'
                    self._answer(500, envelope, "application/json", {"Request-Id": "req_proxy500"})
                elif action == STALL:
                    time.sleep(STALL_SECONDS)
                    self._answer(503, b"too late", "text/plain")
                else:
                    status, headers, answer = self._forward(body)
                    seen.upstream_headers = headers
                    if action == FORWARD_THEN_503:
                        self._answer(503, b"<html><body>502 Bad Gateway</body></html>", "text/html")
                    else:
                        self._answer(status, answer, headers.get("content-type", "application/json"), headers)

            def _forward(self, body: bytes) -> tuple[int, Dict[str, str], bytes]:
                connection = http.client.HTTPConnection(proxy.upstream_host, proxy.upstream_port, timeout=120)
                try:
                    headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
                    headers["Content-Length"] = str(len(body))
                    connection.request(self.command, self.path, body=body, headers=headers)
                    response = connection.getresponse()
                    answer = response.read()
                    return response.status, {name.lower(): value for name, value in response.getheaders()}, answer
                finally:
                    connection.close()

            def _answer(
                self, status: int, body: bytes, content_type: str, headers: Optional[Dict[str, str]] = None
            ) -> None:
                try:
                    self.send_response(status)
                    for name, value in (headers or {}).items():
                        if name.lower() not in HOP_BY_HOP and name.lower() != "content-type":
                            self.send_header(name, value)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        return Handler
