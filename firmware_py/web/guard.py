"""ASGI guards for the pages: the Host and Origin check, a bound on requests with a clear "busy", no traceback out."""

from __future__ import annotations

import ipaddress
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
# One content security policy for every page: scripts, styles, pictures and fonts from the page's own
# address only, no inline script or style (every page's script and style are static files), requests
# and streams to its own address, frames only of its own (the producer's preview of the overlay).
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
       "connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'")
SECURITY_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"content-security-policy", CSP.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def client_of(scope: Scope) -> str:
    """The client's address (no port): the key of the pairing throttle and the per-client bound."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


async def reply(send: Send, status: int, message: str, *, retry_after_s: float | None = None) -> None:
    """A short JSON answer `{"error": message}` with the pages' security headers."""
    body = json.dumps({"ok": False, "error": message, "refused": [message]}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               *SECURITY_HEADERS]
    if retry_after_s is not None:
        headers.append((b"retry-after", str(max(1, round(retry_after_s))).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Headers:
    """The one set of security headers on every answer of a page (a header the app set itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {bytes(k).lower() for k, _ in headers}
                headers.extend((k, v) for k, v in SECURITY_HEADERS if k not in have)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip("[]").split("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class HostPolicy:
    """The Host names a page answers at, decided per connection so `--listen 0.0.0.0` works on a LAN:

    - the address the browser connected to, as an IP literal (`192.168.4.20:8095`, `[fe80::1]:8095`):
      the connection's own local address, from the socket, so every real address of the machine
      works and nothing else does;
    - `localhost:PORT` when that address is a loopback one;
    - each configured name (`pokertable.local`), with the page's port (or as given, with a port).

    A DNS-rebinding page reaches the server under its own name (`evil.example:8095`), never an IP
    literal of this machine: refused. A name the machine is really known by must be configured.
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names: frozenset[str] = frozenset()
        self.add(names)

    def add(self, names: Iterable[str]) -> None:
        self.names = self.names | {name.lower() for name in names}

    set_hosts = add  # the older name (a port-0 server once had to tell its own address; no longer needed)

    def allows(self, host: str, server: tuple[str, int | None] | None) -> bool:
        host = host.lower()
        if not host or server is None:
            return False
        local, port = server[0], server[1]
        name, sep, given_port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if not sep or not given_port.isdigit() or int(given_port) != port:
            return host in self.names  # a configured name without a port (behind port 80)
        if host in self.names or name in self.names:
            return True
        literal = _ip(name)
        here = _ip(local)
        if literal is not None:
            return here is not None and literal == here
        return name == "localhost" and here is not None and here.is_loopback


class OriginGuard:
    """Refuses a request whose Host is not one of the page's own (DNS rebinding, see `HostPolicy`),
    and a POST or a WebSocket whose Origin is not the page's own address (cross-site requests),
    before the app sees it."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str] = (), policy: HostPolicy | None = None) -> None:
        self.app = app
        self.policy = policy or HostPolicy()
        self.policy.add(hosts)

    def set_hosts(self, hosts: Iterable[str]) -> None:
        """More names the page answers at (besides the addresses the browser connects to)."""
        self.policy.add(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = (_header(scope, b"host") or "").lower()
        if not self.policy.allows(host, scope.get("server")):
            await self._refuse(scope, send, "this page answers only at its own address (Host refused)")
            return
        unsafe = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if unsafe and (_header(scope, b"origin") or "").lower() != f"http://{host}":
            await self._refuse(scope, send, "a request from another page is refused (Origin)")
            return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send, message: str) -> None:
        logger.warning("refused %s %s from %s: %s", scope.get("method", "WS"), scope.get("path", ""),
                       client_of(scope), message)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await reply(send, 403, message)


class Bounded:
    """At most `limit` requests of paired devices in the app at once, and apart from them at most
    `unpaired` of everyone else (the pairing page, a guesser, a slow body), at most `per_client` of
    them from one address; long-lived streams (`stream_paths`, WebSockets) have their own `streams`.
    The next gets 503 with "busy" in words and a Retry-After, never a reset or a queue that grows: a
    crowd of unpaired clients fills only its own pool, never the paired device's.

    Behind `Authenticated` (which marks a paired request's scope); without it every request is unpaired.
    """

    def __init__(self, app: ASGIApp, *, limit: int, streams: int = 8, stream_paths: Iterable[str] = (),
                 unpaired: int | None = None, per_client: int = 8) -> None:
        self.app = app
        self.limit = limit
        self.unpaired_limit = unpaired if unpaired is not None else limit
        self.per_client = per_client
        self.streams = streams
        self.stream_paths = frozenset(stream_paths)
        self.active = 0
        self.unpaired = 0
        self.streaming = 0
        self.by_client: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        stream = scope["type"] == "websocket" or scope.get("path") in self.stream_paths
        paired = (scope.get("state") or {}).get("session") is not None
        if stream:
            if self.streaming >= self.streams:
                await self._busy(scope, send, f"busy: {self.streams} pages are already open here")
                return
            self.streaming += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.streaming -= 1
            return
        if paired:
            if self.active >= self.limit:
                await self._busy(scope, send, "busy: the table is answering other presses; try again in a moment")
                return
            self.active += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.active -= 1
            return
        if scope.get("method") in ("GET", "HEAD") and str(scope.get("path", "")).startswith("/static/"):
            await self.app(scope, receive, send)  # a page's own small files, no body: never held, never "busy"
            return
        client = client_of(scope)
        mine = self.by_client.get(client, 0)
        if self.unpaired >= self.unpaired_limit or mine >= self.per_client:
            await self._busy(scope, send, "busy: too many requests not yet paired; try again in a moment")
            return
        self.unpaired += 1
        self.by_client[client] = mine + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.unpaired -= 1
            left = self.by_client.get(client, 1) - 1
            if left > 0:
                self.by_client[client] = left
            else:
                self.by_client.pop(client, None)

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
