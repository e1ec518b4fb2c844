"""Pairing a device with a page: a short code exchanges for a session the server keeps, expires and revokes.

The one authentication of every page that acts (the tracker, the director's page, the producer's
control). The code is shown where only the operator sees it (the tracker's venue screen; the
director's and the producer's console and log, see docs/web.md); the operator types it once and the
browser keeps an HttpOnly, SameSite=Strict cookie. No secret travels in a URL.

Guessing is throttled, never answered by changing the code (a code that changes under attack locks
the real operator out):

- per client address: `FREE_WRONG` wrong tries, then each further try is looked at only after a
  wait that doubles (1 s, 2 s, 4 s ... `MAX_WAIT_S`); a try during the wait is refused unchecked
  (429 and `Retry-After`). A client's count is forgotten after `FORGET_S` without a wrong try.
- for all clients together: past `GLOBAL_WRONG` wrong tries in `GLOBAL_WINDOW_S`, an address with a
  wrong try on record is looked at once per `GLOBAL_WINDOW_S` at most; so a guesser with many
  addresses gets one try per address a minute, the operator's tablet, which has guessed nothing,
  pairs at once, and an operator who mistyped during the attack waits a minute, not the attack out.

The code changes only when a device pairs with it (a code serves once) or when every session is
revoked. A session lives `lifetime_s` from pairing at most, and ends after `idle_s` with no request
and no open page; `revoke_all()` (the operator's signal, or a paired page's "unpair every device")
ends every one at once.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import signal
import threading
import time
import unicodedata
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)

COOKIE = "pt_session"
CODE_DIGITS = 6
MAX_SESSIONS = 16
FREE_WRONG = 5
MAX_WAIT_S = 300.0
FORGET_S = 3600.0
GLOBAL_WRONG = 30
GLOBAL_WINDOW_S = 60.0
MAX_CLIENTS = 4096
LIFETIME_S = 12 * 3600.0
IDLE_S = 2 * 3600.0
REVOKE_SIGNAL = signal.SIGUSR1


def normalise_code(text: str) -> str:
    """The code as typed, with spaces and dashes dropped and full-width digits made plain."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if ch not in " -\u00a0\t")


def shown_code(code: str) -> str:
    """The code as a person reads it: "123 456"."""
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


@dataclass(slots=True)
class Session:
    """A paired device, known by its token's hash (the token itself is never kept)."""

    key: str
    client: str
    created: float
    seen: float
    ended: bool = False


@dataclass(slots=True)
class _Client:
    wrong: int = 0
    last_wrong: float = 0.0
    next_try: float = 0.0


@dataclass(frozen=True, slots=True)
class Attempt:
    """What `attempt` decided: a token (paired), or why not and, when throttled, how long to wait."""

    token: str | None = None
    refused: str = ""
    retry_after_s: float = 0.0
    throttled: bool = False


@dataclass(slots=True)
class _GlobalWindow:
    times: deque[float] = field(default_factory=deque)

    def count(self, now: float) -> int:
        cut = now - GLOBAL_WINDOW_S
        while self.times and self.times[0] < cut:
            self.times.popleft()
        return len(self.times)


_PAIRINGS: weakref.WeakSet[Pairing] = weakref.WeakSet()
_SIGNAL_INSTALLED = False


class Pairing:
    """The pairing code, the throttle on guessing it and the sessions it gave; safe from any thread.

    >>> pairing = Pairing(new_code=lambda: "123456")
    >>> pairing.code
    '123456'
    >>> token = pairing.attempt("123 456", client="10.0.0.5").token
    >>> pairing.session(token) is not None, pairing.session("guess")
    (True, None)
    """

    def __init__(self, *, new_code: Callable[[], str] | None = None, max_sessions: int = MAX_SESSIONS,
                 clock: Callable[[], float] = time.monotonic, lifetime_s: float = LIFETIME_S,
                 idle_s: float = IDLE_S, name: str = "page") -> None:
        self._new_code = new_code or (lambda: f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}")
        self._lock = threading.RLock()  # re-entrant: the revoke signal's handler may run on a thread holding it
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._global = _GlobalWindow()
        self._max_sessions = max_sessions
        self.clock = clock
        self.lifetime_s = lifetime_s
        self.idle_s = idle_s
        self.name = name
        self.wrong_total = 0
        self.throttled_total = 0
        self.listeners: list[Callable[[str], None]] = []  # told each new code (the venue screen, the console)
        self._code = self._new_code()
        _PAIRINGS.add(self)

    @property
    def code(self) -> str:
        return self._code

    def _renew(self) -> None:
        self._code = self._new_code()
        for listener in list(self.listeners):
            listener(self._code)

    # -- the code ------------------------------------------------------------------------------------

    def attempt(self, typed: str, *, client: str) -> Attempt:
        """One try of a code from `client` (its address): a session token, or refused (and for how long)."""
        now = self.clock()
        with self._lock:
            record = self._client(client, now)
            if now < record.next_try:
                return self._throttled(record.next_try - now, "too many wrong codes from this device")
            over = self._global.count(now) >= GLOBAL_WRONG
            if over and record.wrong > 0 and now - record.last_wrong < GLOBAL_WINDOW_S:
                return self._throttled(GLOBAL_WINDOW_S - (now - record.last_wrong), "too many wrong codes on this page")
            if not secrets.compare_digest(normalise_code(typed).encode(), self._code.encode()):
                self.wrong_total += 1
                record.wrong += 1
                record.last_wrong = now
                self._global.times.append(now)
                if record.wrong >= FREE_WRONG:
                    record.next_try = now + min(MAX_WAIT_S, 2.0 ** (record.wrong - FREE_WRONG))
                if record.wrong == FREE_WRONG or self._global.count(now) == GLOBAL_WRONG:
                    logger.warning("%s: wrong pairing codes (%d from %s); tries are slowed down", self.name,
                                   record.wrong, client)
                return Attempt(refused="that is not the code")
            token = secrets.token_urlsafe(32)
            key = _key(token)
            self._sessions[key] = Session(key=key, client=client, created=now, seen=now)
            while len(self._sessions) > self._max_sessions:  # the oldest device is unpaired
                self._sessions.popitem(last=False)[1].ended = True
            self._clients.pop(client, None)
            self._renew()
            logger.info("%s: a device at %s paired (%d paired)", self.name, client, len(self._sessions))
            return Attempt(token=token)

    def _throttled(self, wait_s: float, why: str) -> Attempt:
        self.throttled_total += 1
        wait = max(1.0, wait_s)
        return Attempt(refused=f"{why}: wait {wait:.0f} s and type it again", retry_after_s=wait, throttled=True)

    def _client(self, client: str, now: float) -> _Client:
        record = self._clients.get(client)
        if record is not None and record.wrong and now - record.last_wrong > FORGET_S and now >= record.next_try:
            record = None
        if record is None:
            record = _Client()
            self._clients[client] = record
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
        self._clients.move_to_end(client)
        return record

    # -- the sessions ----------------------------------------------------------------------------------

    def session(self, token: str | None, *, touch: bool = True) -> Session | None:
        """The live session of this cookie value, or None (unknown, expired, revoked)."""
        if not token:
            return None
        key = _key(token)
        now = self.clock()
        with self._lock:
            found = self._sessions.get(key)
            if found is None:
                return None
            if not self._alive(found, now):
                self._end(found)
                return None
            if touch:
                found.seen = now
            return found

    def alive(self, session: Session, *, touch: bool = False) -> bool:
        """Whether a session found earlier still holds (an open page's stream asks on each turn)."""
        now = self.clock()
        with self._lock:
            if session.ended or not self._alive(session, now):
                self._end(session)
                return False
            if touch:
                session.seen = now
            return True

    def _alive(self, session: Session, now: float) -> bool:
        return not session.ended and now - session.created < self.lifetime_s and now - session.seen < self.idle_s

    def _end(self, session: Session) -> None:
        session.ended = True
        self._sessions.pop(session.key, None)

    @property
    def paired_count(self) -> int:
        now = self.clock()
        with self._lock:
            return sum(1 for s in self._sessions.values() if self._alive(s, now))

    def revoke_all(self, *, keep: Session | None = None, why: str = "revoked") -> int:
        """End every session (but `keep`) and change the code; how many ended."""
        with self._lock:
            ended = [s for s in self._sessions.values() if s is not keep]
            for one in ended:
                self._end(one)
            self._renew()
        logger.warning("%s: %d paired device(s) unpaired (%s); a new pairing code is shown", self.name,
                       len(ended), why)
        return len(ended)


def _key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def revoke_every_page(why: str) -> int:
    """Every pairing in this process: all sessions ended, new codes. The operator's signal calls it."""
    return sum(pairing.revoke_all(why=why) for pairing in list(_PAIRINGS))


def install_revoke_signal() -> bool:
    """`kill -USR1 <pid>` (or `systemctl kill -s USR1 <unit>`) unpairs every device of every page of
    the process. Installed once, from the main thread only (False elsewhere)."""
    global _SIGNAL_INSTALLED  # noqa: PLW0603
    if _SIGNAL_INSTALLED:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False

    def on_signal(_number: int, _frame: object) -> None:
        # Off the signal handler: the revocation takes the pairing's lock and logs
        threading.Thread(target=revoke_every_page, args=("the operator's SIGUSR1",), daemon=True,
                         name="revoke sessions").start()

    signal.signal(REVOKE_SIGNAL, on_signal)
    _SIGNAL_INSTALLED = True
    return True
