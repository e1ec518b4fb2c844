"""Pairing a device with a page: a short code shown on the venue screen exchanges for a session cookie.

No secret travels in a URL or lands in a log: the operator reads the code off the table's screen,
types it once, and the browser keeps an HttpOnly, SameSite=Strict cookie. A code serves once;
wrong tries are counted and, past a few, the code changes (so it cannot be guessed by trying).
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

COOKIE = "pt_session"
CODE_DIGITS = 6
MAX_WRONG = 5
MAX_SESSIONS = 16
MAX_BODY = 256


def normalise_code(text: str) -> str:
    """The code as typed, with spaces and dashes dropped and full-width digits made plain."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if ch not in " -\u00a0\t")


class Pairing:
    """The pairing code and the sessions it gave; safe to use from any thread.

    >>> pairing = Pairing(new_code=lambda: "123456")
    >>> pairing.code
    '123456'
    >>> token = pairing.exchange("123 456")
    >>> pairing.valid(token), pairing.valid("guess")
    (True, False)
    """

    def __init__(self, *, new_code: Callable[[], str] | None = None, max_sessions: int = MAX_SESSIONS) -> None:
        self._new_code = new_code or (lambda: f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}")
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, None] = OrderedDict()
        self._max_sessions = max_sessions
        self._wrong = 0
        self.listeners: list[Callable[[str], None]] = []  # told each new code (the venue screen shows it)
        self._code = self._new_code()

    @property
    def code(self) -> str:
        return self._code

    def _renew(self) -> None:
        self._code = self._new_code()
        self._wrong = 0
        for listener in self.listeners:
            listener(self._code)

    def exchange(self, typed: str) -> str | None:
        """A session token for the right code (the code then changes), None for a wrong one."""
        with self._lock:
            if not hmac.compare_digest(normalise_code(typed).encode(), self._code.encode()):
                self._wrong += 1
                if self._wrong >= MAX_WRONG:
                    self._renew()
                return None
            token = secrets.token_urlsafe(32)
            self._sessions[token] = None
            while len(self._sessions) > self._max_sessions:  # the oldest device is unpaired
                self._sessions.popitem(last=False)
            self._renew()
            return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return any(hmac.compare_digest(token.encode(), known.encode()) for known in self._sessions)

    def revoke_all(self) -> None:
        with self._lock:
            self._sessions.clear()

    def paired(self, request: Request) -> bool:
        """Whether the request carries a session cookie this pairing gave."""
        return self.valid(request.cookies.get(COOKIE))

    def route(self, path: str = "/pair") -> Route:
        """`POST path` with `{"code": "123456"}`: the session cookie, or 403 in words."""

        async def pair(request: Request) -> Response:
            body = await request.body()
            try:
                code = _code_of(body)
            except ValueError as exc:
                return JSONResponse({"ok": False, "error": str(exc)}, status_code=400)
            token = self.exchange(code)
            if token is None:
                return JSONResponse({"ok": False, "error": "that is not the code on the table's screen"},
                                    status_code=403)
            response = JSONResponse({"ok": True})
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/", max_age=12 * 3600)
            return response

        return Route(path, pair, methods=["POST"])


def _code_of(body: bytes) -> str:
    if len(body) > MAX_BODY:
        raise ValueError("the body is too long for a pairing code")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ValueError('the body must be JSON: {"code": "123456"}') from None
    code = data.get("code") if isinstance(data, dict) else None
    if not isinstance(code, str):
        raise ValueError('the body must be JSON: {"code": "123456"}')
    return code
