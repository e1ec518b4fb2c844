"""ASGI guards for the pages: the Host and Origin check, a bound on requests with a clear "busy", no traceback out."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SECURITY_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


async def reply(send: Send, status: int, message: str, *, retry_after_s: int | None = None) -> None:
    """A short JSON answer `{"error": message}` with the pages' security headers."""
    body = json.dumps({"ok": False, "error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               *SECURITY_HEADERS]
    if retry_after_s is not None:
        headers.append((b"retry-after", str(retry_after_s).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class OriginGuard:
    """Refuses a request whose Host is not one of the page's own (DNS rebinding), and a POST or a
    WebSocket whose Origin is not the page's own (cross-site requests), before the app sees it."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str]) -> None:
        self.app = app
        self.set_hosts(hosts)

    def set_hosts(self, hosts: Iterable[str]) -> None:
        """The `host:port` names the page answers at (known only once a port-0 server listens)."""
        self.hosts = frozenset(host.lower() for host in hosts)
        self.origins = frozenset(f"http://{host}" for host in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = (_header(scope, b"host") or "").lower()
        if host not in self.hosts:
            await self._refuse(scope, send, "this page answers only at its own address (Host refused)")
            return
        unsafe = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if unsafe and _header(scope, b"origin") not in self.origins:
            await self._refuse(scope, send, "a request from another page is refused (Origin)")
            return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send, message: str) -> None:
        client = (scope.get("client") or ("?",))[0]
        logger.warning("refused %s %s from %s: %s", scope.get("method", "WS"), scope.get("path", ""), client, message)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await reply(send, 403, message)


class Bounded:
    """At most `limit` requests in the app at once (long-lived streams apart, see `streams`); the
    next gets 503 with "busy" in words and a Retry-After, never a reset or a queue that grows."""

    def __init__(self, app: ASGIApp, *, limit: int, streams: int = 8,
                 stream_paths: Iterable[str] = ()) -> None:
        self.app = app
        self.limit = limit
        self.streams = streams
        self.stream_paths = frozenset(stream_paths)
        self.active = 0
        self.streaming = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        stream = scope["type"] == "websocket" or scope.get("path") in self.stream_paths
        if stream and self.streaming >= self.streams:
            await self._busy(scope, send, f"busy: {self.streams} pages are already open on this table")
            return
        if not stream and self.active >= self.limit:
            await self._busy(scope, send, "busy: the table is answering other presses; try again in a moment")
            return
        if stream:
            self.streaming += 1
        else:
            self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            if stream:
                self.streaming -= 1
            else:
                self.active -= 1

    async def _busy(self, scope: Scope, send: Send, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1013})
            return
        await reply(send, 503, message, retry_after_s=1)


class Contained:
    """An exception in the app becomes a 500 and one log line (type and words), never a traceback."""

    def __init__(self, app: ASGIApp, *, name: str) -> None:
        self.app = app
        self.name = name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            logger.error("%s: %s %s failed: %s: %s", self.name, scope.get("method", scope["type"]),
                         scope.get("path", ""), type(exc).__name__, exc)
            if scope["type"] == "http" and not started:
                await reply(send, 500, "the page failed on this request; it is logged")


def guarded(app: ASGIApp, *, name: str, hosts: Iterable[str], limit: int = 32, streams: int = 8,
            stream_paths: Iterable[str] = ()) -> ASGIApp:
    """The app behind the three guards: Contained outermost, then Host/Origin, then the bound."""
    inner = Bounded(app, limit=limit, streams=streams, stream_paths=stream_paths)
    return Contained(OriginGuard(inner, hosts=hosts), name=name)
