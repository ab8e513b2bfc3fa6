"""A local OpenAI-compatible HTTP server for tests: scripted replies and injected faults.

Serves ``POST /v1/chat/completions`` and ``POST /v1/embeddings`` on 127.0.0.1 (a free port)
so the real ``openai`` client and HTTP path are exercised. Replies come from a queue
(``push``); when it is empty, ``chat_handler(messages)`` answers. Every request is logged.

A ``SilentServer`` (fixture ``silent_server``) accepts connections and never answers.

Usage in a test module::

    from openai_stub import Fault, stub_server  # noqa: F401  (the fixture)

    def test_x(stub_server):
        stub_server.push("hello", Fault(status=429), "again")
"""
from __future__ import annotations

import hashlib
import socket
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

import pytest


@dataclass(frozen=True)
class Fault:
    """An injected failure: an HTTP status, a delay past the client timeout, or a non-JSON body."""
    status: int = 0
    sleep_s: float = 0.0
    garbage: bool = False


class StubServer:
    def __init__(self) -> None:
        self.queue: list[str | Fault] = []
        self.requests: list[dict] = []
        self.chat_handler: Callable[[list[dict]], str] = lambda messages: "OK"
        self._lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with stub._lock:
                    stub.requests.append({"path": self.path, "body": body,
                                          "auth": self.headers.get("Authorization", "")})
                    item = stub.queue.pop(0) if stub.queue else None
                if isinstance(item, Fault):
                    if item.sleep_s:
                        time.sleep(item.sleep_s)
                        return self._send(200, {"error": "too late"})
                    if item.garbage:
                        return self._send_raw(200, b"<html>this is not json", "application/json")
                    return self._send(item.status, {"error": {"message": f"injected {item.status}",
                                                              "type": "stub"}})
                if self.path.endswith("/chat/completions"):
                    text = item if item is not None else stub.chat_handler(body["messages"])
                    return self._send(200, {
                        "id": "stub", "object": "chat.completion", "created": 0, "model": body["model"],
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
                if self.path.endswith("/embeddings"):
                    data = [{"object": "embedding", "index": i, "embedding": _vector(t)}
                            for i, t in enumerate(body["input"])]
                    return self._send(200, {"object": "list", "data": data, "model": body["model"],
                                            "usage": {"prompt_tokens": 3, "total_tokens": 3}})
                return self._send(404, {"error": {"message": "no such route"}})

            def _send(self, status: int, payload: dict) -> None:
                self._send_raw(status, json.dumps(payload).encode(), "application/json")

            def _send_raw(self, status: int, data: bytes, ctype: str) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02},
                                       daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def push(self, *items: str | Fault) -> None:
        with self._lock:
            self.queue.extend(items)

    def count(self, route: str) -> int:
        return sum(r["path"].endswith(route) for r in self.requests)

    def __enter__(self) -> "StubServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def _vector(text: str, dim: int = 8) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255.0 - 0.5 for b in digest[:dim]]


@pytest.fixture
def stub_server():
    """A running StubServer for one test."""
    with StubServer() as server:
        yield server


class SilentServer:
    """Accepts TCP connections on 127.0.0.1 and never replies (a hung endpoint); counts connections."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.sock.settimeout(0.05)
        self.accepted: list[socket.socket] = []
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"

    @property
    def connections(self) -> int:
        return len(self.accepted)

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted.append(conn)  # kept open, never answered

    def __enter__(self) -> "SilentServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self.thread.join(2)
        for c in self.accepted:
            c.close()
        self.sock.close()


@pytest.fixture
def silent_server():
    """A running SilentServer for one test."""
    with SilentServer() as server:
        yield server
