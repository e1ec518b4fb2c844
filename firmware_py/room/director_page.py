"""The director's page: the tournament's state pushed by server-sent events, with the clock's start and
pause and hand-for-hand on the director's buttons, registration, rebuys, add-ons and deals; and the room's
read-only screens; on the pages' one web layer (firmware_py/web/page.py).

    GET  /         the page (static/director.html, .css, .js); unpaired: the pairing page
    GET  /state    the state as JSON (the DirectorState the room reads), with `leaderboard`: the room's chip counts
                   made from it (firmware_py/room/leaderboard.py), as the floor and the broadcast make them
    GET  /events   the same, pushed on every change (server-sent events), and a `ping` every KEEPALIVE_S:
                   a page that hears nothing for STALE_S (static/director.js) says it has lost the director
                   and stops its clock
    POST /clock    {"run": true|false}: start or pause the clock
    POST /bubble   {"hand_for_hand": true|false}
    POST /register {"name": "...", "card": "..."} a late entry (seat by draw, or an alternate);
                   {"person": "<busted entry>"} a re-entry
    POST /rebuy    {"player": "<entry>"}    POST /add_on {"player": "<entry>"}
    POST /deal     {"method": "icm"|"chip-chop"|"custom", "agreed": [<every player left>], "play_for": 0,
                   "custom": {"<player>": amount}}
    POST /deal/preview  the same without "agreed": each player's share, nothing recorded
    POST /undo     {"n": <action number>}   each answers {"ok": true, "entry": {...}} or 409 with the reason

Open without pairing (read-only, public data only: what a card room posts on its walls, never a hole card
nor the director's controls), for the room's TV and the players' phones:

    GET  /screen   the room's clock screen (static/screen.html); GET /player: a player's view on a phone
                   (static/player.html); both read /public, /public/events (tournament_screens.public_state)
    GET  /results.json, /results.csv   the results (places, prizes, bounties, re-entries, rebuys, add-ons, deal);
                   a player card's id only for a paired session (the director's export)

Every other path but the pairing page's needs a paired session: the code is printed on the director's
console (and its log) at start and after each pairing (the director has no venue screen). Behind
the same guards as every page: its own Host (any address of the machine it is reached at, or a
configured name), POSTs only from its own Origin, bodies under a size cap and a deadline, a bound
on requests and streams apart for paired and unpaired clients, a failed request logged in one line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from firmware_py.room.leaderboard import leaderboard
from firmware_py.room.tournament_screens import public_state
from firmware_py.web.body import BodyError, parse_body
from firmware_py.web.page import WebPage, body_error, html_file, session_of
from firmware_py.web.pairing import Pairing

logger = logging.getLogger(__name__)
KEEPALIVE_S = 2.0  # the page's stale indicator comes on after 6 s without a word (director.js STALE_S)
POLL_S = 0.25
STATIC = Path(__file__).resolve().parent / "static"
WHERE = "Type the pairing code printed on the director's console when the tournament started (and after each pairing)."
# read-only, public data only: the room's TV, the players' phones, the results
PUBLIC = ("/screen", "/player", "/public", "/public/events", "/results.json", "/results.csv")
STREAMS = 80  # the page's streams in all (its bound: the next gets 503 "busy")
PUBLIC_STREAMS = 64  # of them the screens' and phones' at most: a crowd of phones never takes the director's /events

T = TypeVar("T")
Text = Annotated[str, msgspec.Meta(max_length=200)]


class ClockBody(msgspec.Struct, forbid_unknown_fields=True):
    run: bool


class BubbleBody(msgspec.Struct, forbid_unknown_fields=True):
    hand_for_hand: bool


class RegisterBody(msgspec.Struct, forbid_unknown_fields=True):
    name: Text = ""
    card: Annotated[str, msgspec.Meta(max_length=64)] = ""
    person: Text = ""  # a re-entry: the busted entry's id


class PlayerBody(msgspec.Struct, forbid_unknown_fields=True):
    player: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class DealPreviewBody(msgspec.Struct, forbid_unknown_fields=True):
    method: Annotated[str, msgspec.Meta(min_length=1, max_length=20)]
    play_for: Annotated[int, msgspec.Meta(ge=0)] = 0
    custom: Annotated[dict[Text, Annotated[int, msgspec.Meta(ge=0)]], msgspec.Meta(max_length=64)] = {}


class DealBody(DealPreviewBody, forbid_unknown_fields=True):
    agreed: Annotated[list[Text], msgspec.Meta(max_length=64)] = []


class UndoBody(msgspec.Struct, forbid_unknown_fields=True):
    n: Annotated[int, msgspec.Meta(ge=1)]


class DirectorPage:
    def __init__(self, director: Any, *, hosts: Iterable[str] = (), pairing: Pairing | None = None) -> None:
        self.director = director
        self.pairing = pairing or Pairing()
        self.pairing.name = "director's page"
        self.web = WebPage([
            Route("/", html_file(STATIC / "director.html"), methods=["GET"]),
            Route("/state", self._state, methods=["GET"]),
            Route("/events", self._events, methods=["GET"]),
            Route("/screen", html_file(STATIC / "screen.html"), methods=["GET"]),
            Route("/player", html_file(STATIC / "player.html"), methods=["GET"]),
            Route("/public", self._public, methods=["GET"]),
            Route("/public/events", self._public_events, methods=["GET"]),
            Route("/results.json", self._results_json, methods=["GET"]),
            Route("/results.csv", self._results_csv, methods=["GET"]),
            Route("/clock", self._clock, methods=["POST"]),
            Route("/bubble", self._bubble, methods=["POST"]),
            Route("/register", self._register, methods=["POST"]),
            Route("/rebuy", self._rebuy, methods=["POST"]),
            Route("/add_on", self._add_on, methods=["POST"]),
            Route("/undo", self._undo, methods=["POST"]),
            Route("/deal", self._deal, methods=["POST"]),
            Route("/deal/preview", self._deal_preview, methods=["POST"]),
        ], name="tournament director's page", pairing=self.pairing, where=WHERE, hosts=hosts, pages=("/",),
            public=PUBLIC, stream_paths=("/events", "/public/events"), folders=(STATIC,), limit=32, unpaired=32,
            streams=STREAMS)
        self.public_streams = 0
        self.public_limit = PUBLIC_STREAMS
        self.guard = self.web.hosts  # `guard.add(names)`: more names the page answers at

    @property
    def closing(self) -> bool:
        return self.web.closing

    @closing.setter
    def closing(self, value: bool) -> None:
        self.web.closing = value

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.web(scope, receive, send)

    def state_json(self) -> str:
        state = msgspec.to_builtins(self.director.state())
        state["leaderboard"] = leaderboard(state)
        return json.dumps(state, separators=(",", ":"))

    def public_json(self) -> str:
        return json.dumps(public_state(self.director.state()), separators=(",", ":"))

    async def _state(self, _request: Request) -> Response:
        return Response(self.state_json(), media_type="application/json")

    async def _events(self, request: Request) -> Response:
        return self.web.event_stream(request, version=lambda: int(self.director.version), data=self.state_json,
                                     poll_s=POLL_S, keepalive_s=KEEPALIVE_S)

    async def _public(self, _request: Request) -> Response:
        return Response(self.public_json(), media_type="application/json")

    async def _public_events(self, request: Request) -> Response:
        if self.public_streams >= self.public_limit:
            return JSONResponse({"ok": False, "error": f"busy: {self.public_limit} screens are already open here"},
                                status_code=503, headers={"Retry-After": "5"})
        stream = self.web.event_stream(request, version=lambda: int(self.director.version), data=self.public_json,
                                       poll_s=POLL_S, keepalive_s=KEEPALIVE_S, public=True)
        return _Counted(stream, self)


    async def _results_json(self, request: Request) -> Response:
        return JSONResponse(self.director.results(cards=session_of(request) is not None), headers={
            "Content-Disposition": "attachment; filename=results.json"})

    async def _results_csv(self, request: Request) -> Response:
        return Response(self.director.results_csv(cards=session_of(request) is not None),
                        media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": "attachment; filename=results.csv"})

    async def _clock(self, request: Request) -> Response:
        try:
            body = await parse_body(request, ClockBody, limit=256)
        except BodyError as exc:
            return body_error(exc)
        if self.director.over:
            return JSONResponse({"ok": False, "error": "the tournament is over: its clock is stopped"}, status_code=409)
        (self.director.start_clock if body.run else self.director.pause_clock)()
        return JSONResponse({"ok": True})

    async def _bubble(self, request: Request) -> Response:
        try:
            body = await parse_body(request, BubbleBody, limit=256)
        except BodyError as exc:
            return body_error(exc)
        if self.director.over:
            return JSONResponse({"ok": False, "error": "the tournament is over: no hand-for-hand"}, status_code=409)
        self.director.hand_for_hand(body.hand_for_hand)
        return JSONResponse({"ok": True})

    async def _act(self, request: Request, schema: type[T], act: Callable[[T], Any]) -> Response:
        """An action on the field or the money: done and journaled, or refused with the director's reason (409)."""
        try:
            body = await parse_body(request, schema, limit=4096)
        except BodyError as exc:
            return body_error(exc)
        try:
            entry = act(body)
        except BodyError as exc:
            return body_error(exc)
        except (ValueError, TypeError, KeyError) as exc:
            return JSONResponse({"ok": False, "error": str(exc)[:500]}, status_code=409)
        return JSONResponse({"ok": True, "entry": msgspec.to_builtins(entry)})

    async def _register(self, request: Request) -> Response:
        def register(body: RegisterBody) -> Any:
            if not body.person and not body.name.strip():
                raise BodyError("the body does not fit: a late entry needs its name (or a re-entry its person)")
            return self.director.register(body.name, card=body.card, person=body.person)
        return await self._act(request, RegisterBody, register)

    async def _rebuy(self, request: Request) -> Response:
        return await self._act(request, PlayerBody, lambda b: self.director.rebuy(b.player))

    async def _add_on(self, request: Request) -> Response:
        return await self._act(request, PlayerBody, lambda b: self.director.add_on(b.player))

    async def _deal(self, request: Request) -> Response:
        return await self._act(request, DealBody, lambda b: self.director.make_deal(
            b.method, agreed=list(b.agreed), play_for=b.play_for, custom=dict(b.custom)))

    async def _deal_preview(self, request: Request) -> Response:
        return await self._act(request, DealPreviewBody, lambda b: self.director.deal_preview(
            b.method, play_for=b.play_for, custom=dict(b.custom)))

    async def _undo(self, request: Request) -> Response:
        return await self._act(request, UndoBody, lambda b: self.director.undo(b.n))


def director_app(director: Any, *, hosts: Iterable[str] = (), pairing: Pairing | None = None) -> DirectorPage:
    """The page's ASGI app; its pairing code is `app.pairing.code` (print it: the director has no venue screen)."""
    return DirectorPage(director, hosts=hosts, pairing=pairing)


class _Counted(Response):
    """A public stream counted while it runs (`DirectorPage.public_streams`), apart from the director's own."""

    def __init__(self, inner: Response, page: DirectorPage) -> None:
        self.inner = inner
        self.page = page

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.page.public_streams += 1
        try:
            await self.inner(scope, receive, send)
        finally:
            self.page.public_streams -= 1
