"""The director's page: the tournament's state pushed by server-sent events, with the clock's start and
pause and hand-for-hand on the director's buttons; on the pages' one web layer (firmware_py/web/page.py).

    GET  /         the page (static/director.html, .css, .js); unpaired: the pairing page
    GET  /state    the state as JSON (the DirectorState the room reads)
    GET  /events   the same, pushed on every change (server-sent events), and a `ping` every KEEPALIVE_S:
                   a page that hears nothing for STALE_S (static/director.js) says it has lost the director
                   and stops its clock
    POST /clock    {"run": true|false}: start or pause the clock
    POST /bubble   {"hand_for_hand": true|false}

Every path but the pairing page's needs a paired session: the code is printed on the director's
console (and its log) at start and after each pairing (the director has no venue screen). Behind
the same guards as every page: its own Host (any address of the machine it is reached at, or a
configured name), POSTs only from its own Origin, bodies under a size cap and a deadline, a bound
on requests and streams apart for paired and unpaired clients, a failed request logged in one line.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from firmware_py.web.body import BodyError, parse_body
from firmware_py.web.page import WebPage, body_error, html_file
from firmware_py.web.pairing import Pairing

logger = logging.getLogger(__name__)
KEEPALIVE_S = 2.0  # the page's stale indicator comes on after 6 s without a word (director.js STALE_S)
POLL_S = 0.25
STATIC = Path(__file__).resolve().parent / "static"
WHERE = "Type the pairing code printed on the director's console when the tournament started (and after each pairing)."


class ClockBody(msgspec.Struct, forbid_unknown_fields=True):
    run: bool


class BubbleBody(msgspec.Struct, forbid_unknown_fields=True):
    hand_for_hand: bool


class DirectorPage:
    def __init__(self, director: Any, *, hosts: Iterable[str] = (), pairing: Pairing | None = None) -> None:
        self.director = director
        self.pairing = pairing or Pairing()
        self.pairing.name = "director's page"
        self.web = WebPage([
            Route("/", html_file(STATIC / "director.html"), methods=["GET"]),
            Route("/state", self._state, methods=["GET"]),
            Route("/events", self._events, methods=["GET"]),
            Route("/clock", self._clock, methods=["POST"]),
            Route("/bubble", self._bubble, methods=["POST"]),
        ], name="tournament director's page", pairing=self.pairing, where=WHERE, hosts=hosts, pages=("/",),
            stream_paths=("/events",), folders=(STATIC,), limit=32, unpaired=16, streams=16)
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
        return msgspec.json.encode(self.director.state()).decode()

    async def _state(self, _request: Request) -> Response:
        return Response(self.state_json(), media_type="application/json")

    async def _events(self, request: Request) -> Response:
        return self.web.event_stream(request, version=lambda: int(self.director.version), data=self.state_json,
                                     poll_s=POLL_S, keepalive_s=KEEPALIVE_S)

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


def director_app(director: Any, *, hosts: Iterable[str] = (), pairing: Pairing | None = None) -> DirectorPage:
    """The page's ASGI app; its pairing code is `app.pairing.code` (print it: the director has no venue screen)."""
    return DirectorPage(director, hosts=hosts, pairing=pairing)
