"""Serving a Starlette app with uvicorn on a thread of its own, beside the daemon's main loop."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any, Literal

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from firmware_py.web.logs import quiet_server_logs
from firmware_py.web.pairing import install_revoke_signal

logger = logging.getLogger(__name__)

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 5.0
HEAD_DEADLINE_S = 5.0


class HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request's head: a connection that has not sent a
    whole request line and headers within HEAD_DEADLINE_S of opening (or of its last answer) is
    closed. uvicorn has none: connections that trickle a header a minute held every one of the
    server's `connections` and answered everyone 503, the paired tablet too. A WebSocket upgraded
    off the connection is no longer this protocol's and is left alone."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm_head()

    def _arm_head(self) -> None:
        self._cancel_head()
        self._head_for = self.cycle  # the request in hand when armed: a new one must start in time
        self._head_timer = self.loop.call_later(HEAD_DEADLINE_S, self._head_late)

    def _cancel_head(self) -> None:
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not self._head_for:  # a request's head arrived whole
            self._cancel_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head()
        super().connection_lost(exc)

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.get_protocol() is not self or self.transport.is_closing():
            return  # upgraded to a WebSocket, or already closing
        if self.cycle is self._head_for:
            self.transport.close()


class WebServer:
    """One ASGI app served by uvicorn on its own thread; `start()` returns once it listens.

    uvicorn's own access log is off and its error log keeps no traceback (see `quiet_server_logs`);
    `connections` caps open connections (idle and half-open ones included) and in-flight requests
    together: past it uvicorn answers 503 at once rather than queueing or resetting. Keep it well
    above the app's own bound (`Bounded`), which answers "busy" in words: a burst of connections
    opened at once all count here before the first request is read. Port 0 picks a free port (`address` tells which).

    >>> server = WebServer(app, host="127.0.0.1", port=0, name="tracker")  # doctest: +SKIP
    >>> server.start(); server.address  # doctest: +SKIP
    ('127.0.0.1', 41877)
    """

    def __init__(self, app: Any, *, host: str, port: int, name: str, connections: int = 1000,
                 keep_alive_s: float = 5.0, lifespan: Literal["auto", "on", "off"] = "off") -> None:
        quiet_server_logs()
        self.name = name
        # lifespan "on" for an app with start-up work (the overlay's pusher task), "off" for one without
        self._config = uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False,
                                      lifespan=lifespan, server_header=False, date_header=False,
                                      ws_ping_interval=10.0,
                                      limit_concurrency=connections, timeout_keep_alive=int(keep_alive_s),
                                      backlog=1024, http=HeadDeadline,
                                      timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(self._config)
        self._thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def address(self) -> tuple[str, int]:
        """The address it listens on (the real port when started with port 0)."""
        for server in self._server.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                return str(host), int(port)
        raise RuntimeError(f"{self.name} is not listening")

    @property
    def host(self) -> str:
        return self.address[0]

    @property
    def url(self) -> str:
        """`http://host:port`, without a trailing slash."""
        return "http://{}:{}".format(*self.address)

    def start(self) -> WebServer:
        failed: list[BaseException] = []

        def serve() -> None:
            try:
                asyncio.run(self._serve())
            except BaseException as exc:  # a port in use: told to start() below, one line, no traceback
                failed.append(exc)

        self._thread = threading.Thread(target=serve, name=self.name, daemon=True)
        self._thread.start()
        deadline = threading.Event()
        for _ in range(int(START_TIMEOUT_S / 0.01)):
            if self._server.started or failed or not self._thread.is_alive():
                break
            deadline.wait(0.01)
        if not self._server.started:
            reason = f"{type(failed[0]).__name__}: {failed[0]}" if failed else "it did not start"
            raise OSError(f"{self.name} could not listen on {self._config.host}:{self._config.port} ({reason})")
        logger.info("%s on http://%s:%d/", self.name, *self.address)
        install_revoke_signal()  # SIGUSR1 unpairs every device of every page (from the main thread only)
        return self

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self._server.serve()
        if not self._server.started:
            raise OSError("uvicorn did not start (is the port in use?)")

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(STOP_TIMEOUT_S)



def serve(app: Any, *, host: str = "127.0.0.1", port: int = 0, name: str = "web page",
          lifespan: Literal["auto", "on", "off"] = "on") -> WebServer:
    """Start `app` on host:port (0: any free port) and return the running server once it listens."""
    return WebServer(app, host=host, port=port, name=name, lifespan=lifespan).start()
