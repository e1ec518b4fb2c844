"""The action tracker: the operator's station on a tablet or phone, on Starlette served by uvicorn.

Off unless `[tracker]` is in the table config; then it listens on the configured address only (no
wildcard). A device pairs once with the code shown on the venue screen and keeps a session cookie:
no secret in a URL or a log. The page gets the table's public state pushed (server-sent events):
the seat map with names, stacks, bets, button, blinds and who acts, the pots as the core counts them,
the board and the street; never a hole card (its replay of a hand, `/replay`, shows a finished hand's
hole cards as `replay_hole_cards` says, never those of a hand in play: docs/replay.md). Each press
carries the hand number and the action count it was made against and goes, like the panel's, through
the daemon's one queue; the reply waits for the core's verdict and gives its words (taken, refused and
why, a ruling).

The app is here (the server and its wiring through the table's port: `firmware_py.ports.TablePort`); its
config is `tracker_config.py`, what the page shows `tracker_view.py`, the page's files `tracker_page.py`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeGuard

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from firmware_py.config_toolkit import shown
from firmware_py.core import Button, ButtonName, Name, Seat, SeatStatus, Stacks, TableSnapshot
from firmware_py.core.events import MAX_SEATS, NAME_MAX, PLAYER_ACTIONS
from firmware_py.core.snapshot import IN_PLAY, PlayerState
from firmware_py.daemon.app import Awaited
from firmware_py.daemon.tracker_config import TrackerConfig, check_tracker_environment, parse_tracker_config
from firmware_py.daemon.tracker_page import STATIC
from firmware_py.daemon.tracker_view import merged_verdict, public_state, verdict
from firmware_py.extensions import Extension, Where
from firmware_py.ports import TRACKER, CallbackComponent, Shown, TablePort
from firmware_py.web import Pairing, WebServer
from firmware_py.web.amounts import AMOUNT_JS, parse_amount
from firmware_py.web.body import BodyError, parse_body
from firmware_py.web.page import WebPage, body_error, html_file
from firmware_py.web.replay_page import ReplaySource, replay_routes

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


# -- the server ---------------------------------------------------------------------------------------

class ActionTracker:
    """The tracker's web server on its own thread; `post` is the daemon queue's `put`."""

    def __init__(self, config: TrackerConfig, *, post: Callable[[object], None],
                 clock: Callable[[], float], pairing: Pairing | None = None,
                 replays: ReplaySource | None = None) -> None:
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
        self.on_started: list[Callable[[], None]] = []  # told once it listens (the practice console's line)
        self.pairing.listeners.append(self._wake)
        self.page = WebPage([
            Route("/", html_file(STATIC / "tracker.html"), methods=["GET"]),
            Route("/state", self._state, methods=["GET"]),
            Route("/events", self._events, methods=["GET"]),
            Route("/press", self._press, methods=["POST"]),
            Route("/players", self._players, methods=["POST"]),
            *(replay_routes(replays) if replays is not None else ()),  # the table's hands replayed (hand_replay.py)
        ], name="action tracker", pairing=self.pairing, where=WHERE, hosts=config.hosts, pages=("/", "/replay"),
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
        for listener in self.on_started:
            listener()

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


# -- the wiring: the tracker attached through the table's port ----------------------------------------------

def add_tracker(port: TablePort, config: TrackerConfig, *, pairing: Pairing | None = None) -> ActionTracker:
    """The action-tracker page (only when `[tracker]` is configured), started after the core."""
    from firmware_py.hand_replay import HoleCards  # noqa: PLC0415
    from firmware_py.web.replay_page import JournalReplays  # noqa: PLC0415

    facts = port.config
    room = facts.extensions.get("room")
    replays = JournalReplays(port.journal.path, profiles=facts.profiles, base_dir=facts.hardware_file.parent,
                             hole_cards=HoleCards(config.replay_hole_cards),
                             # the table as the hand histories name it: its room id, else its file's name
                             table=str(getattr(room, "table", "")) or Path(facts.source).stem)
    tracker = ActionTracker(config, post=port.presses(TRACKER).put, clock=port.clock, pairing=pairing,
                            replays=replays)
    # The players' names as the venue screen and the hand histories have them ([display.seat_names]), not
    # "Seat N" on the operator's page beside "Ada" on the screen.
    tracker.names.update(port.config.seat_names)
    port.on_snapshot(tracker.update)

    def show(code: str) -> None:  # the venue screen shows the code a device pairs with
        port.show(Shown.PAIRING, code)

    def start() -> None:
        tracker.start()
        tracker.pairing.listeners.append(show)
        show(tracker.pairing.code)
        replays.start()  # the journal so far read for the replay page, on its own thread

    def stop() -> None:
        tracker.stop()
        replays.close()

    port.add_component(CallbackComponent("action tracker", start, stop), first=True)
    return tracker


def tell_on_console(tracker: ActionTracker) -> None:
    """Practice without a venue screen (`run --simulate --tracker`): the console tells where the page is and
    the code to pair with, and each new code."""
    tracker.pairing.listeners.append(lambda code: print(f"action tracker: pairing code {code}", flush=True))

    def tell() -> None:
        host, port = tracker.address
        print(f"action tracker: open http://{host}:{port}/ and pair with the code {tracker.pairing.code}",
              flush=True)

    tracker.on_started.append(tell)


def _check(config: TrackerConfig, where: Where) -> None:
    check_tracker_environment(config, source=where.source)


EXTENSION = Extension(name="action tracker", section="tracker",
                      parse=lambda raw, where: parse_tracker_config(raw, source=where.source),
                      validate_environment=_check, setup=add_tracker)
