"""What every page of the table (tracker, director, overlay) shares: Starlette served by uvicorn on a
thread, the Host/Origin guard, a bound with a clear "busy", pairing by code for a session cookie,
and logs without secrets or tracebacks. See docs/web.md."""

from firmware_py.web.guard import Bounded, Contained, OriginGuard, guarded, reply
from firmware_py.web.logs import OneLine, quiet_server_logs
from firmware_py.web.pairing import COOKIE, Pairing, normalise_code
from firmware_py.web.server import WebServer

__all__ = [
    "COOKIE",
    "Bounded",
    "Contained",
    "OneLine",
    "OriginGuard",
    "Pairing",
    "WebServer",
    "guarded",
    "normalise_code",
    "quiet_server_logs",
    "reply",
]
