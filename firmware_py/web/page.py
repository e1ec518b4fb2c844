"""The one web layer of the pages (tracker, director, producer's control): a Starlette app with the
same middleware for all, the pairing routes, and static files served one way.

    Contained       an exception is a 500 and one log line, never a traceback
    Headers         one set of security headers (the strict CSP among them) on every answer
    OriginGuard     the Host must be the page's own (HostPolicy), an unsafe request's Origin too
    Authenticated   no session cookie, no action: an HTML page answers with the pairing page (401),
                    anything else with 401 in words; only `public` paths, /pair and /static/ pass
    Bounded         paired devices have their own bound, unpaired clients theirs (and per address)

A page's routes read bodies with `firmware_py.web.body.parse_body` (size cap, short deadline, a
msgspec schema). See docs/web.md.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request, cookie_parser
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from firmware_py.web.body import BodyError, parse_body
from firmware_py.web.guard import (
    ASGIApp,
    Bounded,
    Contained,
    Headers,
    HostPolicy,
    OriginGuard,
    Receive,
    Scope,
    Send,
    _header,
    client_of,
    reply,
)
from firmware_py.web.pairing import COOKIE, Pairing, Session

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
ASSET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$")
MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".html": "text/html; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml",
               ".ttf": "font/ttf"}
UNPAIRED = "pair this device first: type the pairing code"


class PairBody(msgspec.Struct, forbid_unknown_fields=True):
    code: str


class RevokeBody(msgspec.Struct, forbid_unknown_fields=True):
    others: bool = True  # every other device (this one stays paired), or every one


def cookie_name(scope: Scope) -> str:
    """The session cookie's name: one per port, so two pages of one machine (a tracker and a director's
    page) do not overwrite each other's cookie (a cookie is not kept apart by port)."""
    server = scope.get("server")
    return f"{COOKIE}_{server[1]}" if server and server[1] else COOKIE


def session_of(request: Request) -> Session | None:
    """The request's session (set by `Authenticated`), None on a public path without one."""
    found: Session | None = request.scope.get("state", {}).get("session")
    return found


class Authenticated:
    """No session, no action: only `public` paths, `/pair` and `/static/...` answer without a cookie."""

    def __init__(self, app: ASGIApp, *, pairing: Pairing, public: Iterable[str] = (), pages: Iterable[str] = (),
                 pair_page: Callable[[], bytes]) -> None:
        self.app = app
        self.pairing = pairing
        self.public = frozenset({"/pair", *public})
        self.pages = frozenset(pages)
        self.pair_page = pair_page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        cookies = cookie_parser(_header(scope, b"cookie") or "")
        session = self.pairing.session(cookies.get(cookie_name(scope)))
        state = scope.setdefault("state", {})
        state["session"] = session
        path = scope.get("path", "")
        if session is not None or path in self.public or path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if path in self.pages and scope.get("method") in ("GET", "HEAD"):
            await HTMLResponse(self.pair_page(), status_code=401)(scope, receive, send)
            return
        await reply(send, 401, UNPAIRED)


class Assets:
    """Static files, served one way for every page: `/static/NAME` from the page's folders (first
    that has it), or a generated asset (`generated[NAME] = text`). No path below a folder, no listing."""

    def __init__(self, folders: Sequence[Path], generated: Mapping[str, str] | None = None) -> None:
        self.folders = [STATIC, *folders]
        self.generated = dict(generated or {})

    def path(self, name: str) -> Path | None:
        if not ASSET_NAME.match(name) or ".." in name:
            return None
        for folder in self.folders:
            candidate = folder / name
            if candidate.is_file():
                return candidate
        return None

    async def endpoint(self, request: Request) -> Response:
        name = str(request.path_params["name"])
        kind = MEDIA_TYPES.get(Path(name).suffix, "application/octet-stream")
        if name in self.generated:
            return Response(self.generated[name], media_type=kind)
        found = self.path(name)
        if found is None:
            return JSONResponse({"ok": False, "error": f"no file {name!r} here"}, status_code=404)
        return FileResponse(found, media_type=kind)



def html_file(path: Path) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answering with a static HTML file: a page's shell (no data in it; its script, a
    static file too, fetches the data once paired)."""

    async def endpoint(_request: Request) -> Response:
        return FileResponse(path, media_type=MEDIA_TYPES[".html"])

    return endpoint


class WebPage:
    """One page's app: its routes behind the one middleware stack, with pairing and static files.

    `public`: paths that answer without a session (read-only, nothing secret: the overlay for OBS);
    `pages`: the HTML paths an unpaired browser gets the pairing page at; `stream_paths`: long-lived
    answers (server-sent events), bounded apart. `hosts`: the names the page also answers at.
    """

    def __init__(self, routes: Sequence[BaseRoute], *, name: str, pairing: Pairing, where: str,
                 hosts: Iterable[str] = (), public: Iterable[str] = (), pages: Iterable[str] = ("/",),
                 stream_paths: Iterable[str] = (), folders: Sequence[Path] = (),
                 generated: Mapping[str, str] | None = None, limit: int = 32, unpaired: int = 16,
                 per_client: int = 6, streams: int = 8, lifespan: Any = None) -> None:
        self.name = name
        self.pairing = pairing
        self.where = where
        self.hosts = HostPolicy(hosts)
        self.assets = Assets(folders, generated)
        self.closing = False
        pair_routes = [Route("/pair", self._pair_page, methods=["GET"]),
                       Route("/pair", self._pair, methods=["POST"]),
                       Route("/pair/revoke", self._revoke, methods=["POST"]),
                       Route("/static/{name}", self.assets.endpoint, methods=["GET"])]
        self.app = Starlette(routes=[*pair_routes, *routes], lifespan=lifespan, middleware=[
            Middleware(Contained, name=name),
            Middleware(Headers),
            Middleware(OriginGuard, policy=self.hosts),
            Middleware(Authenticated, pairing=pairing, public=public, pages=pages, pair_page=self.pair_html),
            Middleware(Bounded, limit=limit, unpaired=unpaired, per_client=per_client, streams=streams,
                       stream_paths=stream_paths),
        ])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)

    @property
    def state(self) -> Any:
        return self.app.state

    def pair_html(self) -> bytes:
        template = (STATIC / "pair.html").read_text(encoding="utf-8")
        lives = (f"A device stays paired for {_duration(self.pairing.lifetime_s)} at most, and "
                 f"{_duration(self.pairing.idle_s)} without use.")
        return (template.replace("{{title}}", html.escape(self.name)).replace("{{where}}", html.escape(self.where))
                .replace("{{lifetime}}", html.escape(lives))).encode()

    def alive(self, request: Request) -> bool:
        """For an open page's stream, on each turn: the session still holds (not expired nor revoked)."""
        session = session_of(request)
        return not self.closing and session is not None and self.pairing.alive(session, touch=True)

    def event_stream(self, request: Request, *, version: Callable[[], int], data: Callable[[], str],
                     wake: asyncio.Event | None = None, poll_s: float = 0.25,
                     keepalive_s: float = 15.0, public: bool = False) -> StreamingResponse:
        """The pages' one server-sent-events stream: `event: state` with `data()` whenever `version()`
        changes (looked at when `wake` is set, or every `poll_s`), an `event: ping` every `keepalive_s` (a page
        that hears nothing for a while can say it lost its server); it ends
        when the page closes, the session expires or is revoked (the page then asks for a code), or the
        browser goes away. `public`: a stream of a public path (read-only, public data), open without a
        session: it ends only when the page closes or the browser goes away."""

        async def stream() -> AsyncIterator[str]:
            sent: int | None = None
            quiet = 0.0
            while not self.closing if public else self.alive(request):
                now = version()
                if now != sent:
                    sent, quiet = now, 0.0
                    yield f"event: state\ndata: {data()}\n\n"
                if wake is not None:
                    wake.clear()
                    try:
                        await asyncio.wait_for(wake.wait(), keepalive_s)
                    except TimeoutError:
                        yield "event: ping\ndata: {}\n\n"
                else:
                    await asyncio.sleep(poll_s)
                    quiet += poll_s
                    if quiet >= keepalive_s:
                        quiet = 0.0
                        yield "event: ping\ndata: {}\n\n"
                if await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"X-Accel-Buffering": "no"})

    async def _pair_page(self, _request: Request) -> Response:
        return HTMLResponse(self.pair_html())

    async def _pair(self, request: Request) -> Response:
        try:
            body = await parse_body(request, PairBody, limit=256)
        except BodyError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=exc.status)
        tried = self.pairing.attempt(body.code, client=client_of(request.scope))
        if tried.token is None:
            headers = {"Retry-After": str(round(tried.retry_after_s))} if tried.throttled else None
            return JSONResponse({"ok": False, "error": tried.refused if tried.throttled
                                 else f"That is not the code. {self.where}"},
                                status_code=429 if tried.throttled else 403, headers=headers)
        response = JSONResponse({"ok": True})
        response.set_cookie(cookie_name(request.scope), tried.token, httponly=True, samesite="strict", path="/",
                            max_age=int(self.pairing.lifetime_s))
        return response

    async def _revoke(self, request: Request) -> Response:
        session = session_of(request)
        if session is None:
            return JSONResponse({"ok": False, "error": UNPAIRED}, status_code=401)
        try:
            body = await parse_body(request, RevokeBody, limit=256)
        except BodyError as exc:
            return JSONResponse({"ok": False, "error": str(exc)}, status_code=exc.status)
        ended = self.pairing.revoke_all(keep=session if body.others else None,
                                        why=f"asked from a paired page at {client_of(request.scope)}")
        return JSONResponse({"ok": True, "unpaired": ended})


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        hours = seconds / 3600
        return f"{hours:g} hour" + ("" if hours == 1 else "s")
    return f"{seconds / 60:g} minutes" if seconds >= 60 else f"{seconds:g} s"


def body_error(exc: BodyError) -> Response:
    """A refused body as the pages answer it."""
    return JSONResponse({"ok": False, "taken": False, "error": str(exc), "refused": [str(exc)]},
                        status_code=exc.status)
