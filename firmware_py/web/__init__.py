"""The one web layer of every page of the table (tracker, director, producer's control, overlay):
Starlette served by uvicorn on a thread, one middleware stack (no traceback out, one set of security
headers with a strict CSP, the Host/Origin guard, pairing by code for a server-side session, bounds
kept apart for paired and unpaired clients), one body parser with msgspec schemas under a size cap
and a deadline, static files served one way, logs without secrets or tracebacks. See docs/web.md."""

from firmware_py.web.body import BodyError, parse_body, read_body
from firmware_py.web.guard import CSP, Bounded, Contained, Headers, HostPolicy, OriginGuard, reply
from firmware_py.web.logs import OneLine, quiet_server_logs
from firmware_py.web.page import Authenticated, WebPage, html_file
from firmware_py.web.pairing import COOKIE, Pairing, install_revoke_signal, normalise_code, shown_code
from firmware_py.web.server import WebServer

__all__ = [
    "COOKIE",
    "CSP",
    "Authenticated",
    "BodyError",
    "Bounded",
    "Contained",
    "Headers",
    "HostPolicy",
    "OneLine",
    "OriginGuard",
    "Pairing",
    "WebPage",
    "WebServer",
    "html_file",
    "install_revoke_signal",
    "normalise_code",
    "parse_body",
    "quiet_server_logs",
    "read_body",
    "reply",
    "shown_code",
]
