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
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from firmware_py.config_toolkit import ConfigMistakes, Section, how_to_write, shown
from firmware_py.core import Button, ButtonName, Name, Seat, SeatStatus, Stacks, TableSnapshot, Verdict
from firmware_py.core.engine import Outcome
from firmware_py.core.events import MAX_SEATS, NAME_MAX, PLAYER_ACTIONS
from firmware_py.core.game import game_named
from firmware_py.core.snapshot import IN_HAND, IN_PLAY, LIVE, Phase, PlayerState
from firmware_py.daemon.app import Awaited
from firmware_py.daemon.tracker_page import STATIC
from firmware_py.extensions import Extension, Registry
from firmware_py.web import Pairing, WebServer
from firmware_py.web.amounts import AMOUNT_JS, parse_amount
from firmware_py.web.body import BodyError, parse_body
from firmware_py.web.page import WebPage, body_error, html_file

logger = logging.getLogger(__name__)

MAX_BODY = 1024
VERDICT_TIMEOUT_S = 5.0  # the core answers in milliseconds; this long means the journal is failing
KEEPALIVE_S = 15.0
PRESSES = {*PLAYER_ACTIONS, ButtonName.UNDO, ButtonName.MISDEAL, ButtonName.CONFIRM, ButtonName.CLOCK,
           ButtonName.RETRIEVE, ButtonName.EXTEND, ButtonName.ROUND_DONE}
SEAT_PRESSES = {*PLAYER_ACTIONS, ButtonName.CLOCK, ButtonName.RETRIEVE}  # clock: the caller; retrieve: whose hand
AMOUNT_ACTIONS = {ButtonName.BET, ButtonName.RAISE}
WHERE = "Type the code shown on the table's screen."


class PressBody(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /press`: a button, the hand number and action count it was made against, a seat, an amount."""

    name: str
    hand: int | None = None
    count: int | None = None
    seat: int | None = None
    amount: str | int | None = None
    ruling: int | None = None  # confirm: the number of the ruling it confirms


class PlayerBody(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /players`: one change to a seat (op: name, seat, unseat, bust, rebuy, add_on, stack)."""

    op: str
    seat: int | None = None
    name: str | None = None
    amount: str | int | None = None
    moved: bool = False


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
    no_hosts: tuple[str, ...] = ()
    hosts = mistakes.attempt(lambda: _hosts(section), no_hosts)
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
        "limit": game_named(snapshot.game).title if chips.max_raise_to is not None else None,
        "presets": presets if may_raise else {},
    }


def public_state(snapshot: TableSnapshot, names: dict[int, str]) -> dict[str, Any]:
    """What the operator sees: seats, names, stacks, bets, who acts, the pots, the board. No hole card.
    `names`: the table file's (`[display.seat_names]`); a name typed here (the snapshot's) goes over it."""
    names = {**names, **dict(snapshot.names)}
    chips = snapshot.chips
    between = snapshot.phase not in IN_PLAY
    seats = []
    for view in snapshot.seats:
        if view.state is PlayerState.EMPTY:
            continue  # a seat left (or never taken): the page offers it to seat a player
        state = str(view.state)
        if view.state is PlayerState.WAITING:
            state = "no chips" if view.stack == 0 else ("seated" if between else "sitting out")
        elif view.state is PlayerState.ALLIN:  # in words, as the venue screen says it
            # All in during the hand, and given chips by the pots: no longer all in.
            state = "active" if snapshot.phase is Phase.SHOWDOWN and view.stack else "all in"
        seats.append({
            "seat": view.seat, "name": names.get(view.seat, ""), "state": state, "stack": view.stack,
            "bet": view.bet, "last_action": view.last_action, "declared": view.declared,
            "button": view.is_button, "small_blind": view.is_small_blind, "big_blind": view.is_big_blind,
            "to_act": view.to_act, "cards": len(view.cards),
        })
    pots = chips.contested() if chips else ()
    in_hand = [v for v in snapshot.seats if v.state in IN_HAND]
    live = [v.seat for v in in_hand if v.state in LIVE]
    taken = {v.seat for v in snapshot.seats if v.state is not PlayerState.EMPTY}
    return {
        "hand": snapshot.hand_number, "count": snapshot.actions, "phase": str(snapshot.phase),
        "street": str(snapshot.street) if snapshot.street else None, "board": list(snapshot.board),
        "to_act": snapshot.to_act, "between_hands": between, "profile": snapshot.profile_title,
        "pot": (chips.pot - chips.uncalled) if chips else None, "level": chips.level if chips else None,
        "pots": [{"amount": pot.amount, "seats": list(pot.seats), "winners": list(pot.winners),
                  **({"low_winners": list(pot.low_winners)} if pot.low_winners else {})} for pot in pots],
        "uncalled": {"amount": chips.uncalled, "seat": chips.uncalled_seat} if chips and chips.uncalled else None,
        "seats": seats, "legal": legal_actions(snapshot),
        # A button on a seat nobody holds (it moved on past a player who left): shown, as a dead button.
        "dead_button": snapshot.button if snapshot.button is not None and snapshot.button not in taken
        and snapshot.phase is not Phase.IDLE else None,
        # How the hand ended: a showdown, or one hand left when every other folded (no showdown).
        "won_uncontested": live[0] if snapshot.phase is Phase.SHOWDOWN and len(live) == 1 and len(in_hand) > 1
        else None,
        "ruling": ({"ruling": str(r.ruling), "rule": r.rule, "remedy": r.remedy, "number": snapshot.ruling_number}
                   if (r := snapshot.unconfirmed[0] if snapshot.unconfirmed else None) else None),
        "notices": list(snapshot.notices[-3:]),
        "clock": ({"seat": c.seat, "called_by": c.called_by, "seconds": c.seconds, "rule": c.rule,
                   "left": max(0, math.ceil(c.left(snapshot.t))), "raise_said": c.raise_said, "action": c.action,
                   "extensions_left": c.extensions_left}
                  if (c := snapshot.clock) is not None else None),
    }


def verdict(outcome: Outcome) -> dict[str, Any]:
    """The core's answer to one press in words: its verdict as the core gave it (taken, refused and why, or
    ruled), the rulings it made and what else the table said (a notice about another seat is said, never
    read as this press's refusal)."""
    refused = [outcome.refused] if outcome.verdict is Verdict.REFUSED and outcome.refused else []
    said = [n.message for n in outcome.notices if n.message not in refused]
    rulings = [{"ruling": str(r.ruling), "rule": r.rule, "remedy": r.remedy} for r in outcome.rulings]
    taken = outcome.verdict is not Verdict.REFUSED
    return {"ok": taken, "taken": taken, "verdict": str(outcome.verdict), "refused": refused, "said": said,
            "rulings": rulings}


def merged_verdict(answers: list[dict[str, Any]]) -> dict[str, Any]:
    """The verdicts of a request's events (a seat's stack, then the seat) as one: refused if any was."""
    out = {key: [item for one in answers for item in one[key]] for key in ("refused", "said", "rulings")}
    kinds = {one["verdict"] for one in answers}
    kind = next((k for k in (Verdict.REFUSED, Verdict.RULED) if k in kinds), Verdict.TAKEN)
    taken = kind is not Verdict.REFUSED
    return {"ok": taken, "taken": taken, "verdict": str(kind), **out}


# -- the server ---------------------------------------------------------------------------------------

class ActionTracker:
    """The tracker's web server on its own thread; `post` is the daemon queue's `put`."""

    def __init__(self, config: TrackerConfig, *, post: Callable[[object], None],
                 clock: Callable[[], float], pairing: Pairing | None = None) -> None:
        self.config = config
        self.post = post
        self.clock = clock
        self.pairing = pairing or Pairing()
        self.pairing.name = "action tracker"
        self.names: dict[int, str] = {}
        self.snapshot: TableSnapshot | None = None
        self._state_json = "{}"
        self._version = 0
        self._changed: asyncio.Event | None = None
        self.ready = threading.Event()  # set once it listens and knows its own address
        self.pairing.listeners.append(self._wake)
        self.page = WebPage([
            Route("/", html_file(STATIC / "tracker.html"), methods=["GET"]),
            Route("/state", self._state, methods=["GET"]),
            Route("/events", self._events, methods=["GET"]),
            Route("/press", self._press, methods=["POST"]),
            Route("/players", self._players, methods=["POST"]),
        ], name="action tracker", pairing=self.pairing, where=WHERE, hosts=config.hosts, pages=("/",),
            stream_paths=("/events",), folders=(STATIC,), generated={"amounts.js": AMOUNT_JS}, limit=64,
            unpaired=16, streams=8)
        self.server = WebServer(self.page, host=config.listen, port=config.port, name="action tracker",
                                connections=1000)

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
        self._wake()

    def _wake(self, _code: str = "") -> None:
        """Open pages' streams look again: at a new state, or at their session (a new code: someone paired,
        or every session was revoked, and a revoked page then asks for a code within a moment)."""
        loop = self.server.loop
        if loop is not None and self._changed is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed.set)

    @property
    def address(self) -> tuple[str, int]:
        return self.server.address

    def start(self) -> None:
        self.server.start()
        self.ready.set()
        logger.info("action tracker: pair a device with the code on the venue screen")

    def stop(self) -> None:
        self.page.closing = True  # open pages' streams end now, not at the server's shutdown timeout
        loop = self.server.loop
        if loop is not None and self._changed is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._changed.set)
        self.server.stop()

    # -- the page's side (uvicorn's thread) --

    async def _state(self, _request: Request) -> Response:
        return Response(self._state_json, media_type="application/json")

    async def _events(self, request: Request) -> Response:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self.page.event_stream(request, version=lambda: self._version, data=lambda: self._state_json,
                                      wake=self._changed, keepalive_s=KEEPALIVE_S)

    async def _press(self, request: Request) -> Response:
        try:
            body = await parse_body(request, PressBody, limit=MAX_BODY)
        except BodyError as exc:
            return body_error(exc)
        return await self._events_of(lambda: [self._button(body)])

    async def _players(self, request: Request) -> Response:
        try:
            body = await parse_body(request, PlayerBody, limit=MAX_BODY)
        except BodyError as exc:
            return body_error(exc)
        return await self._events_of(lambda: self._player_events(body))

    async def _events_of(self, events_of: Callable[[], list[Any]]) -> Response:
        """A paired device's POST (the middleware let only those through): its body made into events for
        the table, and the table's verdict."""
        try:
            events = events_of()
        except ValueError as exc:
            return _error(400, str(exc))
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
        answer = merged_verdict([verdict(one) for one in answers])
        return JSONResponse(answer, status_code=200 if answer["taken"] else 409)

    def _button(self, body: PressBody) -> Button:
        name = body.name
        if name not in {b.value for b in PRESSES}:
            raise ValueError(f"unknown action {shown(name)}")
        button = ButtonName(name)
        hand, count = body.hand, body.count
        if not (_whole(hand) and _whole(count)):
            raise ValueError("a press needs the hand number and the action count it was made against")
        seat = body.seat
        if seat is not None and not (_whole(seat) and 1 <= seat <= MAX_SEATS):
            raise ValueError(f"seat must be 1..{MAX_SEATS}, not {shown(seat)}")
        amount = None
        if button in AMOUNT_ACTIONS and body.amount not in (None, ""):
            amount = parse_amount(str(body.amount))
        ruling = body.ruling  # confirm: the ruling the page showed, so a second tablet's is refused
        if button is ButtonName.CONFIRM and not (_whole(ruling) and ruling >= 1):
            raise ValueError("a confirm names the ruling it confirms (its number, as the page shows it)")
        return Button(t=self.clock(), name=button, seat=seat if button in SEAT_PRESSES else None,
                      amount=amount, hand=hand, count=count, ruling=ruling if button is ButtonName.CONFIRM else None)

    def _player_events(self, body: PlayerBody) -> list[Any]:
        op, seat = body.op, body.seat
        if not (_whole(seat) and 1 <= seat <= MAX_SEATS):
            raise ValueError(f"seat must be 1..{MAX_SEATS}, not {shown(seat)}")
        snapshot = self.snapshot
        views = {v.seat: v for v in snapshot.seats} if snapshot is not None else {}
        between = snapshot is None or snapshot.phase not in IN_PLAY
        now = self.clock()
        if op == "name":
            name = body.name
            if not isinstance(name, str) or len(name.strip()) > NAME_MAX:
                raise ValueError(f"a name is text of at most {NAME_MAX} characters")
            # A journaled event, as any other: the core keeps it in its snapshot, where the venue screen, the
            # broadcast, the floor and the hand histories read it (not this page's memory alone).
            return [Name(t=now, seat=seat, name=name.strip())]
        if op == "seat":
            if seat in views and views[seat].state is not PlayerState.EMPTY:
                raise ValueError(f"seat {seat} is taken")
            stack = parse_amount(str(body.amount if body.amount is not None else ""))
            moved = body.moved  # moved here to balance tables: the profile's rule
            return [Stacks(t=now, stacks=((seat, stack),), why="correction"),
                    Seat(t=now, seat=seat, status=SeatStatus.IN, moved=moved)]
        if seat not in views or views[seat].state is PlayerState.EMPTY:
            raise ValueError(f"no player in seat {seat}")
        if op in ("unseat", "bust"):
            if op == "bust" and views[seat].stack not in (0, None):
                raise ValueError(f"seat {seat} still has {views[seat].stack:,} chips: unseat it instead")
            gone: list[Any] = [Seat(t=now, seat=seat, status=SeatStatus.OUT)]
            if snapshot is not None and seat in dict(snapshot.names):  # the name leaves with its player
                gone.append(Name(t=now, seat=seat, name=""))
            return gone
        if op in ("rebuy", "add_on", "stack"):
            if not between:
                raise ValueError(f"{op.replace('_', '-')} is between hands only: finish the hand first")
            amount = parse_amount(str(body.amount if body.amount is not None else ""))
            total = amount if op == "stack" else (views[seat].stack or 0) + amount
            return [Stacks(t=now, stacks=((seat, total),), why="correction" if op == "stack" else op)]
        raise ValueError(f"unknown op {shown(op)}: name, seat, unseat, bust, rebuy, add_on or stack")


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9


def _error(status: int, message: str) -> Response:
    return JSONResponse({"ok": False, "taken": False, "verdict": "refused", "error": message, "refused": [message],
                         "said": [], "rulings": []}, status_code=status)


EXTENSION = Extension(name="action tracker", section="tracker",
                      parse=lambda raw, where: parse_tracker_config(raw, source=where.source), setup=_attach)
