"""The action tracker: the operator's station on a tablet or phone, on Starlette served by uvicorn.

Off unless `[tracker]` is in the table config; then it listens on the configured address only (no
wildcard). A device pairs once with the code shown on the venue screen and keeps a session cookie:
no secret in a URL or a log. The page gets the table's public state pushed (server-sent events):
the seat map with names, stacks, bets, button, blinds and who acts, the pots as the core counts them,
the board and the street; never a hole card. Each press carries the hand number and the action
count it was made against and goes, like the panel's, through the daemon's one queue; the reply
waits for the core's verdict and gives its words (taken, refused and why, a ruling).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from firmware_py.config_toolkit import ConfigMistakes, Section, how_to_write, shown
from firmware_py.core import Button, ButtonName, NoticeKind, Seat, SeatStatus, Stacks, TableSnapshot
from firmware_py.core.engine import Outcome
from firmware_py.core.events import MAX_SEATS, PLAYER_ACTIONS
from firmware_py.core.game import GAMES, HOLDEM
from firmware_py.core.snapshot import IN_PLAY, Phase, PlayerState
from firmware_py.daemon.app import Awaited
from firmware_py.extensions import Extension, Registry
from firmware_py.web import Bounded, Contained, OriginGuard, Pairing, WebServer
from firmware_py.web.amounts import AMOUNT_JS, parse_amount

logger = logging.getLogger(__name__)

MAX_BODY = 1024
VERDICT_TIMEOUT_S = 5.0  # the core answers in milliseconds; this long means the journal is failing
KEEPALIVE_S = 15.0
PRESSES = {*PLAYER_ACTIONS, ButtonName.UNDO, ButtonName.MISDEAL, ButtonName.CONFIRM, ButtonName.ROUND_DONE}
AMOUNT_ACTIONS = {ButtonName.BET, ButtonName.RAISE}
NAME_MAX = 24
UNPAIRED = "pair this device first: type the code shown on the table's screen"


@dataclass(frozen=True, kw_only=True, slots=True)
class TrackerConfig:
    """`[tracker]`: the address of the interface to listen on, the port, other names of the appliance."""

    listen: str
    port: int
    hosts: tuple[str, ...] = ()  # e.g. "table1.local": the names the tablet may use besides the address


def _attach(registry: Registry, config: TrackerConfig) -> ActionTracker:
    from firmware_py.daemon.wiring import add_tracker  # noqa: PLC0415 (wiring imports this module)

    tracker: ActionTracker = add_tracker(registry.daemon, config)
    return tracker


def parse_tracker_config(raw: Any, *, source: str) -> TrackerConfig:
    """Validate `[tracker]`: every mistake in one ConfigError, each naming the file, the key and how to write it."""
    mistakes = ConfigMistakes()
    section = Section(source, "tracker", raw, ("listen", "port", "hosts"), mistakes=mistakes)
    listen = mistakes.attempt(lambda: _listen(section), "")
    port = mistakes.attempt(lambda: _port(section), 8080)
    hosts = mistakes.attempt(lambda: _hosts(section), ())
    mistakes.raise_if_any()
    return TrackerConfig(listen=listen, port=port, hosts=hosts)


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


def _hosts(section: Section) -> tuple[str, ...]:
    hosts = section.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) and h and " " not in h for h in hosts):
        raise section.error(f'must be a list of host names, e.g. hosts = ["table1.local"], not {shown(hosts)}',
                            "hosts")
    return tuple(hosts)


# -- what the page shows ----------------------------------------------------------------------------

def legal_actions(snapshot: TableSnapshot) -> dict[str, Any] | None:
    """What the seat to act may do, with the limits: check or call, bet or raise from..to, presets."""
    seat, chips = snapshot.to_act, snapshot.chips
    if seat is None or snapshot.phase is not Phase.BETTING:
        return None
    view = snapshot.seat(seat)
    if chips is None or view.stack is None:
        return {"seat": seat, "chips": False}
    stack, bet = view.stack, view.bet or 0
    most = stack + bet  # all in: the seat's total for the round
    to_call = chips.to_call
    level = bet + to_call  # the bet faced
    least = chips.min_raise_to if chips.min_raise_to is not None else most
    may_raise = chips.may_raise and most > level
    pot_after_call = chips.pot + to_call
    # Pot limit and fixed limit: the core's largest bet or raise; all in only within it.
    top = min(most, chips.max_raise_to) if chips.max_raise_to is not None else most
    allin_ok = top == most or most <= level

    def clamp(to: int) -> int:
        return max(least, min(top, to))

    presets = {"min": min(least, most), "half_pot": clamp(level + pot_after_call // 2),
               "pot": clamp(level + pot_after_call)}
    if allin_ok:
        presets["allin"] = most
    return {
        "seat": seat, "chips": True, "to_call": to_call, "stack": stack, "bet": bet,
        "word": "raise" if level > 0 else "bet", "may_raise": may_raise, "min_to": min(least, most),
        "max_to": top, "allin_to": most, "allin_ok": allin_ok,
        "limit": GAMES.get(snapshot.game, HOLDEM).title if chips.max_raise_to is not None else None,
        "presets": presets if may_raise else {},
    }


def public_state(snapshot: TableSnapshot, names: dict[int, str]) -> dict[str, Any]:
    """What the operator sees: seats, names, stacks, bets, who acts, the pots, the board. No hole card."""
    chips = snapshot.chips
    between = snapshot.phase not in IN_PLAY
    seats = []
    for view in snapshot.seats:
        if view.state is PlayerState.EMPTY:
            continue  # a seat left (or never taken): the page offers it to seat a player
        state = str(view.state)
        if view.state is PlayerState.WAITING:
            state = "no chips" if view.stack == 0 else ("seated" if between else "sitting out")
        seats.append({
            "seat": view.seat, "name": names.get(view.seat, ""), "state": state, "stack": view.stack,
            "bet": view.bet, "last_action": view.last_action, "declared": view.declared,
            "button": view.is_button, "small_blind": view.is_small_blind, "big_blind": view.is_big_blind,
            "to_act": view.to_act, "cards": len(view.cards),
        })
    pots = chips.contested() if chips else ()
    return {
        "hand": snapshot.hand_number, "count": snapshot.actions, "phase": str(snapshot.phase),
        "street": str(snapshot.street) if snapshot.street else None, "board": list(snapshot.board),
        "to_act": snapshot.to_act, "between_hands": between, "profile": snapshot.profile_title,
        "pot": (chips.pot - chips.uncalled) if chips else None, "level": chips.level if chips else None,
        "pots": [{"amount": pot.amount, "seats": list(pot.seats), "winners": list(pot.winners)} for pot in pots],
        "uncalled": {"amount": chips.uncalled, "seat": chips.uncalled_seat} if chips and chips.uncalled else None,
        "seats": seats, "legal": legal_actions(snapshot),
        "ruling": ({"ruling": str(r.ruling), "rule": r.rule, "remedy": r.remedy}
                   if (r := snapshot.unconfirmed[0] if snapshot.unconfirmed else None) else None),
        "notices": list(snapshot.notices[-3:]),
    }


def verdict(outcome: Outcome) -> dict[str, Any]:
    """The core's answer to one press in words: refused (and why), or taken, and any ruling it made."""
    refused = [n.message for n in outcome.notices if n.notice is NoticeKind.IGNORED]
    said = [n.message for n in outcome.notices if n.notice is not NoticeKind.IGNORED]
    rulings = [{"ruling": str(r.ruling), "rule": r.rule, "remedy": r.remedy} for r in outcome.rulings]
    taken = not refused or bool(rulings)
    return {"ok": taken, "taken": taken, "refused": refused, "said": said, "rulings": rulings}


# -- the server ---------------------------------------------------------------------------------------

class ActionTracker:
    """The tracker's web server on its own thread; `post` is the daemon queue's `put`."""

    def __init__(self, config: TrackerConfig, *, post: Callable[[object], None],
                 clock: Callable[[], float], pairing: Pairing | None = None) -> None:
        self.config = config
        self.post = post
        self.clock = clock
        self.pairing = pairing or Pairing()
        self.names: dict[int, str] = {}
        self.snapshot: TableSnapshot | None = None
        self._state_json = "{}"
        self._version = 0
        self._changed: asyncio.Event | None = None
        self.ready = threading.Event()  # set once it listens and knows its own address
        self._closing = False
        self._bounded = Bounded(self._app(), limit=64, streams=8, stream_paths=("/events",))
        self._guard = OriginGuard(self._bounded, hosts=())
        self.server = WebServer(Contained(self._guard, name="tracker"), host=config.listen, port=config.port,
                                name="action tracker", connections=1000)

    # -- the daemon's side (the main loop's thread) --

    def update(self, snapshot: TableSnapshot) -> None:
        """A snapshot listener: the page's state, pushed to every open page."""
        self.snapshot = snapshot
        self._refresh()

    def _refresh(self) -> None:
        if self.snapshot is None:
            return
        self._state_json = json.dumps(public_state(self.snapshot, self.names))
        self._version += 1
        loop = self.server.loop
        if loop is not None and self._changed is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed.set)

    @property
    def address(self) -> tuple[str, int]:
        return self.server.address

    def start(self) -> None:
        self.server.start()
        host, port = self.address
        shown_host = f"[{host}]" if ":" in host else host
        names = {f"{shown_host}:{port}", *(f"{h}:{port}" for h in self.config.hosts),
                 *(h for h in self.config.hosts if ":" in h)}
        if ipaddress.ip_address(host).is_loopback:
            names.add(f"localhost:{port}")
        self._guard.set_hosts(names)
        self.ready.set()
        logger.info("action tracker: pair a device with the code on the venue screen")

    def stop(self) -> None:
        self._closing = True  # open pages' streams end now, not at the server's shutdown timeout
        loop = self.server.loop
        if loop is not None and self._changed is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed.set)
        self.server.stop()

    # -- the page's side (uvicorn's thread) --

    def _app(self) -> Starlette:
        return Starlette(routes=[
            Route("/", self._page, methods=["GET"]),
            self.pairing.route("/pair"),
            Route("/state", self._state, methods=["GET"]),
            Route("/events", self._events, methods=["GET"]),
            Route("/press", self._press, methods=["POST"]),
            Route("/players", self._players, methods=["POST"]),
        ])

    async def _page(self, _request: Request) -> Response:
        return HTMLResponse(PAGE, headers=HEADERS)

    async def _state(self, request: Request) -> Response:
        if not self.pairing.paired(request):
            return _error(401, UNPAIRED)
        return Response(self._state_json, media_type="application/json", headers=HEADERS)

    async def _events(self, request: Request) -> Response:
        if not self.pairing.paired(request):
            return _error(401, UNPAIRED)
        if self._changed is None:
            self._changed = asyncio.Event()
        changed = self._changed

        async def stream() -> AsyncIterator[str]:
            sent = -1
            while not self._closing:
                if sent != self._version:
                    sent = self._version
                    yield f"event: state\ndata: {self._state_json}\n\n"
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE_S)
                except TimeoutError:
                    yield ": still here\n\n"
                if self._closing or await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def _press(self, request: Request) -> Response:
        return await self._events_of(request, lambda body: [self._button(body)])

    async def _players(self, request: Request) -> Response:
        return await self._events_of(request, self._player_events)

    async def _events_of(self, request: Request, events_of: Callable[[dict[str, Any]], list[Any]]) -> Response:
        """A paired device's POST: its JSON body made into events for the table, and the table's verdict."""
        if not self.pairing.paired(request):
            return _error(401, UNPAIRED)
        try:
            events = events_of(await _json_body(request))
        except ValueError as exc:
            return _error(400, str(exc))
        if not events:  # a name only: the page's own, not the table's
            self._refresh()
            return JSONResponse({"ok": True, "taken": True, "refused": [], "said": ["name changed"],
                                 "rulings": []}, headers=HEADERS)
        return await self._verdict(events)

    async def _verdict(self, events: list[Any]) -> Response:
        answers = []
        for event in events:
            awaited = Awaited(event)
            self.post(awaited)
            try:
                answers.append(await asyncio.wait_for(asyncio.wrap_future(awaited.verdict), VERDICT_TIMEOUT_S))
            except TimeoutError:
                return _error(504, f"the table did not answer within {VERDICT_TIMEOUT_S:g} s: "
                              "the press may still be recorded; look at the table before pressing again")
            except ValueError as exc:
                return _error(409, f"the table refused it: {exc}")
        merged = [verdict(answer) for answer in answers]
        out = {key: [item for one in merged for item in one[key]] for key in ("refused", "said", "rulings")}
        taken = all(one["taken"] for one in merged)
        return JSONResponse({"ok": taken, "taken": taken, **out}, status_code=200 if taken else 409,
                            headers=HEADERS)

    def _button(self, body: dict[str, Any]) -> Button:
        name = body.get("name")
        if name not in {b.value for b in PRESSES}:
            raise ValueError(f"unknown action {shown(name)}")
        button = ButtonName(name)
        hand, count = body.get("hand"), body.get("count")
        if not (_whole(hand) and _whole(count)):
            raise ValueError("a press needs the hand number and the action count it was made against")
        seat = body.get("seat")
        if seat is not None and not (_whole(seat) and 1 <= seat <= MAX_SEATS):
            raise ValueError(f"seat must be 1..{MAX_SEATS}, not {shown(seat)}")
        amount = None
        if button in AMOUNT_ACTIONS and body.get("amount") not in (None, ""):
            text = body["amount"]
            if not isinstance(text, str | int) or isinstance(text, bool):
                raise ValueError("the amount must be typed as text, e.g. \"1,200\"")
            amount = parse_amount(str(text))
        return Button(t=self.clock(), name=button, seat=seat if button in PLAYER_ACTIONS else None,
                      amount=amount, hand=hand, count=count)

    def _player_events(self, body: dict[str, Any]) -> list[Any]:
        op, seat = body.get("op"), body.get("seat")
        if not (_whole(seat) and 1 <= seat <= MAX_SEATS):
            raise ValueError(f"seat must be 1..{MAX_SEATS}, not {shown(seat)}")
        snapshot = self.snapshot
        views = {v.seat: v for v in snapshot.seats} if snapshot is not None else {}
        between = snapshot is None or snapshot.phase not in IN_PLAY
        now = self.clock()
        if op == "name":
            name = body.get("name")
            if not isinstance(name, str) or len(name.strip()) > NAME_MAX:
                raise ValueError(f"a name is text of at most {NAME_MAX} characters")
            if name.strip():
                self.names[seat] = name.strip()
            else:
                self.names.pop(seat, None)
            return []
        if op == "seat":
            if seat in views and views[seat].state is not PlayerState.EMPTY:
                raise ValueError(f"seat {seat} is taken")
            stack = parse_amount(str(body.get("amount", "")))
            moved = body.get("moved", False) is True  # moved here to balance tables: the profile's rule
            return [Stacks(t=now, stacks=((seat, stack),), why="correction"),
                    Seat(t=now, seat=seat, status=SeatStatus.IN, moved=moved)]
        if seat not in views or views[seat].state is PlayerState.EMPTY:
            raise ValueError(f"no player in seat {seat}")
        if op in ("unseat", "bust"):
            if op == "bust" and views[seat].stack not in (0, None):
                raise ValueError(f"seat {seat} still has {views[seat].stack:,} chips: unseat it instead")
            self.names.pop(seat, None)
            return [Seat(t=now, seat=seat, status=SeatStatus.OUT)]
        if op in ("rebuy", "add_on", "stack"):
            if not between:
                raise ValueError(f"{op.replace('_', '-')} is between hands only: finish the hand first")
            amount = parse_amount(str(body.get("amount", "")))
            total = amount if op == "stack" else (views[seat].stack or 0) + amount
            return [Stacks(t=now, stacks=((seat, total),), why="correction" if op == "stack" else op)]
        raise ValueError(f"unknown op {shown(op)}: name, seat, unseat, bust, rebuy, add_on or stack")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9


async def _json_body(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ValueError(f"a JSON body of at most {MAX_BODY} bytes is needed")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ValueError("the body is not JSON") from None
    if not isinstance(data, dict):
        raise ValueError("the body must be a JSON object")
    return data


def _error(status: int, message: str) -> Response:
    return JSONResponse({"ok": False, "taken": False, "error": message, "refused": [message]},
                        status_code=status, headers=HEADERS)


HEADERS = {
    "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                               "connect-src 'self'; frame-ancestors 'none'",
}

from firmware_py.daemon.tracker_page import PAGE_TEMPLATE  # noqa: E402  (the page: HTML, CSS and JS)

PAGE = PAGE_TEMPLATE.replace("/*AMOUNT_JS*/", AMOUNT_JS)


EXTENSION = Extension(name="action tracker", section="tracker",
                      parse=lambda raw, where: parse_tracker_config(raw, source=where.source), setup=_attach)
