"""The overlay page (an OBS browser source) and the producer's control page, as one Starlette app.

`/` is the stream graphic: a transparent page that gets the feature table's delayed message, under
that table's reveal policy, pushed over a WebSocket (`/ws`) the moment it is due on air. It never
gets timing (when the next message is due tells viewers when the next action comes) nor a held-back
card. `/control` is the producer's page: the feature table, each table's reveal policy, chips as
amounts or big blinds, the delay, and the countdown to the next change on air (never on air).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from firmware_py.room.broadcast import ControlError, Production
from firmware_py.room.overlay_theme import Theme

logger = logging.getLogger("firmware_py.room")

STATIC = Path(__file__).resolve().parent / "static"
FONT = Path(__file__).resolve().parents[2] / "display" / "fonts" / "NotoSans-Bold.ttf"
PUSH_S = 0.02  # how often the on-air message is looked at: a message is on air at most this late
NO_STORE = {"Cache-Control": "no-store"}


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


def make_app(production: Production, theme: Theme) -> Any:
    from starlette.applications import Starlette  # noqa: PLC0415
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

    def static(name: str, kind: str) -> Any:
        async def endpoint(_request: Request) -> Response:
            return FileResponse(STATIC / name, media_type=kind, headers=NO_STORE)
        return endpoint

    async def theme_css(_request: Request) -> Response:
        return Response(theme.stylesheet(), media_type="text/css", headers=NO_STORE)

    async def logo(_request: Request) -> Response:
        if theme.logo is None:
            return Response(status_code=404)
        return FileResponse(theme.logo, media_type=theme.logo_type())

    async def font(_request: Request) -> Response:
        return FileResponse(FONT, media_type="font/ttf")

    async def feed_json(_request: Request) -> Response:
        return JSONResponse(production.page(production.clock()), headers=NO_STORE)

    async def tournament_json(_request: Request) -> Response:
        """The tournament on the delay (places, payouts, level), or 404 when no director has spoken."""
        shown = production.tournament(production.clock())
        if shown is None:
            return JSONResponse({"error": "no tournament state (yet, on the delay)"}, status_code=404,
                                headers=NO_STORE)
        return JSONResponse(shown, headers=NO_STORE)

    async def status(_request: Request) -> Response:
        return JSONResponse(production.operator(production.clock()), headers=NO_STORE)

    async def control(request: Request) -> Response:
        try:
            changes = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body must be JSON"}, status_code=400)
        if not isinstance(changes, dict):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
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

    routes = [
        Route("/", static("overlay.html", "text/html; charset=utf-8")),
        Route("/index.html", static("overlay.html", "text/html; charset=utf-8")),
        Route("/overlay.css", static("overlay.css", "text/css")),
        Route("/overlay.js", static("overlay.js", "text/javascript")),
        Route("/control", static("control.html", "text/html; charset=utf-8")),
        Route("/theme.css", theme_css),
        Route("/logo", logo),
        Route("/font.ttf", font),
        Route("/feed.json", feed_json),
        Route("/tournament.json", tournament_json),
        Route("/api/status", status),
        Route("/api/control", control, methods=["POST"]),
        WebSocketRoute("/ws", page_socket),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.pusher = pusher
    return app
