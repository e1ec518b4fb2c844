"""The overlay page (an OBS browser source) and the producer's control page, as one Starlette app.

On the pages' one web layer (firmware_py/web/page.py): the overlay's paths are public (OBS reads
them; they show only what is on air, after the delay), the control's need a paired session (the
code is printed on the broadcast's console at start). `/` is the stream graphic: a transparent page
that gets the feature table's delayed message, under that table's reveal policy, pushed over a
WebSocket (`/ws`) the moment it is due on air. It never gets timing (when the next message is due
tells viewers when the next action comes) nor a held-back card. `/control` is the producer's page:
the feature table, each table's reveal policy, chips as amounts or big blinds, the delay, and the
countdown to the next change on air (never on air).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import msgspec

from firmware_py.room.broadcast import ControlError, Production
from firmware_py.room.overlay_theme import Theme
from firmware_py.web.body import BodyError, parse_body
from firmware_py.web.page import WebPage, html_file
from firmware_py.web.pairing import Pairing

logger = logging.getLogger("firmware_py.room")

STATIC = Path(__file__).resolve().parent / "static"
FONT = Path(__file__).resolve().parents[2] / "display" / "fonts" / "NotoSans-Bold.ttf"
PUSH_S = 0.02  # how often the on-air message is looked at: a message is on air at most this late


class Pusher:
    """Looks at what is on air every PUSH_S and sends it to every page when it changed."""

    def __init__(self, production: Production) -> None:
        self.production = production
        self.pages: set[Any] = set()
        self.last = ""
        self.sent = 0

    def payload(self) -> str:
        return json.dumps(self.production.page(self.production.clock()), separators=(",", ":"))

    async def run(self) -> None:
        while True:
            try:
                text = self.payload()
                if text != self.last:
                    self.last = text
                    self.sent += 1
                    for page in list(self.pages):
                        with contextlib.suppress(Exception):  # a page gone away: its handler drops it
                            await page.send_text(text)
            except Exception:
                logger.exception("overlay: pushing the page failed")
            await asyncio.sleep(PUSH_S)


class ControlChanges(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /api/control`: the producer's changes (each optional; the values checked by `Production.change`)."""

    feature: str | None = None
    reveal: dict[str, str] | None = None
    chips: str | None = None
    delay_s: float | None = None


WHERE = "Type the pairing code printed on the broadcast's console when it started (and after each pairing)."
PUBLIC = ("/", "/index.html", "/logo", "/feed.json", "/tournament.json", "/ws")


def make_app(production: Production, theme: Theme, *, pairing: Pairing | None = None,
             hosts: Iterable[str] = ()) -> WebPage:
    """The overlay (public: OBS reads it, and it shows only what is on air) and the producer's control
    (paired only: `/control`, `/api/status`, `/api/control`) on the pages' one web layer."""
    from starlette.requests import Request  # noqa: PLC0415
    from starlette.responses import FileResponse, JSONResponse, Response  # noqa: PLC0415
    from starlette.routing import Route, WebSocketRoute  # noqa: PLC0415
    from starlette.websockets import WebSocket, WebSocketDisconnect  # noqa: PLC0415

    pusher = Pusher(production)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        task = asyncio.create_task(pusher.run())
        try:
            yield
        finally:
            task.cancel()

    async def logo(_request: Request) -> Response:
        if theme.logo is None:
            return Response(status_code=404)
        return FileResponse(theme.logo, media_type=theme.logo_type())

    async def feed_json(_request: Request) -> Response:
        return JSONResponse(production.page(production.clock()))

    async def tournament_json(_request: Request) -> Response:
        """The tournament on the delay (places, payouts, level), or 404 when no director has spoken."""
        shown = production.tournament(production.clock())
        if shown is None:
            return JSONResponse({"error": "no tournament state (yet, on the delay)"}, status_code=404)
        return JSONResponse(shown)

    async def status(_request: Request) -> Response:
        return JSONResponse(production.operator(production.clock()))

    async def control(request: Request) -> Response:
        try:
            body = await parse_body(request, ControlChanges, limit=4096)
        except BodyError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        changes = {name: value for name in body.__struct_fields__ if (value := getattr(body, name)) is not None}
        try:
            production.change(**changes)
        except ControlError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(production.operator(production.clock()))

    async def page_socket(socket: WebSocket) -> None:
        await socket.accept()
        pusher.pages.add(socket)
        try:
            await socket.send_text(pusher.last or pusher.payload())
            while True:
                await socket.receive_text()  # the page sends nothing; this waits for it to go away
        except WebSocketDisconnect:
            pass
        finally:
            pusher.pages.discard(socket)

    overlay = html_file(STATIC / "overlay.html")
    routes = [
        Route("/", overlay),
        Route("/index.html", overlay),
        Route("/control", html_file(STATIC / "control.html")),
        Route("/logo", logo),
        Route("/feed.json", feed_json),
        Route("/tournament.json", tournament_json),
        Route("/api/status", status),
        Route("/api/control", control, methods=["POST"]),
        WebSocketRoute("/ws", page_socket),
    ]
    app = WebPage(routes, name="production control", pairing=pairing or Pairing(name="production control"),
                  where=WHERE, hosts=hosts, public=PUBLIC, pages=("/control",), folders=(STATIC, FONT.parent),
                  generated={"theme.css": theme.stylesheet()}, limit=32, unpaired=32, streams=16,
                  lifespan=lifespan)
    app.state.pusher = pusher
    return app
