"""The action tracker: a small web page on which a broadcast's operator enters actions and amounts.

Off unless `[tracker]` is in the table config; then it listens on the configured address only (no
wildcard) and every request needs the token. It is Python's own `http.server` on a thread of its
own: two routes, no files served, bodies capped, so there is no framework to keep patched on the
appliance. The page shows public information only (who acts, pot, stacks, the bet to call, the
minimum raise), never a hole card. Like the panel, it posts `Button` events to the daemon's queue;
only the main loop touches the core.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from firmware_py.config_toolkit import ConfigMistakes, Section, how_to_write, shown
from firmware_py.core import Button, ButtonName, TableSnapshot
from firmware_py.core.events import PLAYER_ACTIONS

logger = logging.getLogger(__name__)

MAX_BODY = 1024
MIN_TOKEN = 16
AMOUNT_ACTIONS = {ButtonName.BET, ButtonName.RAISE, ButtonName.ALLIN}


@dataclass(frozen=True, kw_only=True, slots=True)
class TrackerConfig:
    """`[tracker]`: the address of the interface to listen on, the port, and the token."""

    listen: str
    port: int
    token: str


def parse_tracker_config(raw: Any, *, source: str) -> TrackerConfig:
    """Validate `[tracker]`: every mistake in one ConfigError, each naming the file, the key and how to write it."""
    mistakes = ConfigMistakes()
    section = Section(source, "tracker", raw, ("listen", "port", "token"), mistakes=mistakes)
    listen = mistakes.attempt(lambda: _listen(section), "")
    port = mistakes.attempt(lambda: _port(section), 8080)
    token = mistakes.attempt(lambda: _token(section), "")
    mistakes.raise_if_any()
    return TrackerConfig(listen=listen, port=port, token=token)


def _listen(section: Section) -> str:
    listen = section.get("listen")
    try:
        address = ipaddress.ip_address(listen)
    except ValueError:
        raise section.error(f"{shown(listen)} is not an IP address; give the address of the interface the "
                            "operator's tablet is on, e.g. listen = \"192.168.4.1\"", "listen") from None
    if address.is_unspecified:
        raise section.error(f"{listen} would listen on every interface; give the address of the one interface "
                            "the tablet is on", "listen")
    return str(address)


def _port(section: Section) -> int:
    port = section.get("port", 8080)
    if isinstance(port, bool) or not isinstance(port, int) or not 1024 <= port <= 65535:
        raise section.error(f"must be a port number 1024..65535, not {shown(port)}{how_to_write('port', port, 8080)}",
                            "port")
    return port


def _token(section: Section) -> str:
    token = section.get("token")
    if not isinstance(token, str) or len(token) < MIN_TOKEN:
        raise section.error(f"must be a secret of at least {MIN_TOKEN} characters "
                            "(e.g. from `python -c 'import secrets; print(secrets.token_urlsafe())'`)", "token")
    return token


def public_state(snapshot: TableSnapshot) -> dict[str, Any]:
    """What the operator sees: seats, stacks, bets, last actions, pot, who acts. No cards."""
    chips = snapshot.chips
    return {
        "hand": snapshot.hand_number, "phase": str(snapshot.phase), "street": snapshot.street,
        "to_act": snapshot.to_act, "button": snapshot.button,
        "pot": chips.pot if chips else None, "level": chips.level if chips else None,
        "to_call": chips.to_call if chips else None, "min_raise_to": chips.min_raise_to if chips else None,
        "may_raise": chips.may_raise if chips else None,
        "seats": [{"seat": v.seat, "state": str(v.state), "stack": v.stack, "bet": v.bet,
                   "last_action": v.last_action} for v in snapshot.seats],
    }


PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Action tracker</title>
<style>body{font:18px system-ui;background:#10141a;color:#eee;margin:12px}button{font-size:22px;
margin:4px;padding:14px 18px;border-radius:8px;border:0}#state td{padding:2px 10px}
.act{background:#2d6a4f;color:#fff}.fold{background:#9d0208;color:#fff}input{font-size:24px;width:8em}
.me{background:#334}</style></head><body><h2 id="head">Action tracker</h2>
<table id="state"></table><p><input id="amount" inputmode="numeric" placeholder="amount (to)">
</p><p><button class="fold" data-a="fold">Fold</button><button class="act" data-a="check">Check</button>
<button class="act" data-a="call">Call</button><button class="act" data-a="bet">Bet</button>
<button class="act" data-a="raise">Raise</button><button class="act" data-a="allin">All in</button></p>
<p id="msg"></p><script>
const token = new URLSearchParams(location.search).get("token");
async function refresh(){const r=await fetch("state?token="+encodeURIComponent(token));
if(!r.ok){document.getElementById("msg").textContent="state: "+r.status;return}const s=await r.json();
document.getElementById("head").textContent="Hand "+s.hand+" "+(s.street||s.phase)+" | pot "+(s.pot??"-")+
" | to act: seat "+(s.to_act??"-")+" | to call "+(s.to_call??"-")+" | min raise to "+(s.min_raise_to??"-");
const t=document.getElementById("state");t.replaceChildren();for(const v of s.seats){const row=t.insertRow();
if(v.seat===s.to_act)row.className="me";for(const x of ["Seat "+v.seat,v.state,v.stack??"",v.bet??"",
v.last_action??""]){row.insertCell().textContent=x}}}
for(const b of document.querySelectorAll("button[data-a]")){b.onclick=async()=>{
const amount=document.getElementById("amount").value.trim();const body={name:b.dataset.a};
if(amount)body.amount=parseInt(amount,10);const r=await fetch("action?token="+encodeURIComponent(token),
{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify(body)});
document.getElementById("msg").textContent=r.ok?"sent "+b.dataset.a+(amount?" "+amount:""):
"refused: "+await r.text();document.getElementById("amount").value="";setTimeout(refresh,200)}}
refresh();setInterval(refresh,1000);</script></body></html>"""


class ActionTracker:
    """The tracker's HTTP server on its own thread; `post` is the daemon queue's `put`."""

    def __init__(self, config: TrackerConfig, *, post: Callable[[object], None],
                 clock: Callable[[], float]) -> None:
        self.config = config
        self.post = post
        self.clock = clock
        self.snapshot: TableSnapshot | None = None
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def update(self, snapshot: TableSnapshot) -> None:
        """A snapshot listener: keep the latest state for the page."""
        self.snapshot = snapshot

    @property
    def address(self) -> tuple[str, int]:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return str(host), int(port)

    def start(self) -> None:
        tracker = self

        class Handler(_Handler):
            owner = tracker

        server = _Server6 if ":" in self.config.listen else _Server
        self._server = server((self.config.listen, self.config.port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="tracker", daemon=True)
        self._thread.start()
        logger.info("action tracker on http://%s:%d/?token=...", *self.address)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(2.0)

    def action(self, body: Any) -> str | None:
        """Validate one action from the page and post it; an error message when refused."""
        if not isinstance(body, dict):
            return "the body must be a JSON object"
        name = body.get("name")
        if name not in {b.value for b in PLAYER_ACTIONS}:
            return f"unknown action {name!r}"
        button = ButtonName(name)
        amount = body.get("amount")
        if amount is not None:
            if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount < 10**9:
                return "the amount must be a whole number of chips"
            if button not in AMOUNT_ACTIONS:
                amount = None
        self.post(Button(t=self.clock(), name=button, amount=amount))
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(BaseHTTPRequestHandler):
    owner: ActionTracker
    server_version = "pokertable-tracker"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("tracker %s: %s", self.client_address[0], format % args)

    def _authorised(self) -> bool:
        query = parse_qs(urlsplit(self.path).query)
        given = (query.get("token") or [""])[0]
        header = self.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            given = header[7:]
        if hmac.compare_digest(given.encode(), self.owner.config.token.encode()):
            return True
        self._send(HTTPStatus.FORBIDDEN, "text/plain", b"token missing or wrong")
        return False

    def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'unsafe-inline'; "
                         "style-src 'unsafe-inline'")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        route = urlsplit(self.path).path
        if route not in ("/", "/state"):
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found")
            return
        if not self._authorised():
            return
        if route == "/":
            self._send(HTTPStatus.OK, "text/html", PAGE.encode())
            return
        snapshot = self.owner.snapshot
        state = public_state(snapshot) if snapshot is not None else {}
        self._send(HTTPStatus.OK, "application/json", json.dumps(state).encode())

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/action":
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found")
            return
        if not self._authorised():
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            self._send(HTTPStatus.BAD_REQUEST, "text/plain", b"a JSON body of at most 1 KiB is needed")
            return
        try:
            body = json.loads(self.rfile.read(length))
        except (json.JSONDecodeError, UnicodeDecodeError):
            self._send(HTTPStatus.BAD_REQUEST, "text/plain", b"the body is not JSON")
            return
        error = self.owner.action(body)
        if error is not None:
            self._send(HTTPStatus.BAD_REQUEST, "text/plain", error.encode())
            return
        self._send(HTTPStatus.OK, "application/json", b'{"ok": true}')
