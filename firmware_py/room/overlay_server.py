"""Serving a Starlette app with uvicorn on a thread: the one start-up the room's pages use.

Kept to this one small module so the team's shared web helper (the action tracker's, issue 18) can
replace it in one place. The socket is bound here, before the thread starts, so a port in use is an
error at start-up (OSError) and port 0 gets a free port that `port` then names.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

STOP_S = 5.0


class RunningServer:
    """A uvicorn server on its own thread; `stop()` ends it (open WebSockets are closed)."""

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn  # noqa: PLC0415

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.sock.bind((host, port))
        except OSError:
            self.sock.close()
            raise
        self.host, self.port = host, int(self.sock.getsockname()[1])
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                ws_ping_interval=10.0, timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name=f"web-{self.port}", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 10.0) -> RunningServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not self.server.started:
            raise RuntimeError(f"the web server on {self.url} did not start")
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(STOP_S)
        self.sock.close()


def serve(app: Any, *, host: str = "127.0.0.1", port: int = 0) -> RunningServer:
    """Start `app` on host:port (0: any free port) and return once it answers."""
    return RunningServer(app, host=host, port=port).start()
