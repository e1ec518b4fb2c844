"""Reader threads: poll a reader, debounce its sightings, post events and faults to the daemon's queue."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from firmware_py.errors import TableError
from hardware.presence import Presence
from hardware.reader_health import ReaderFault, ReaderRecovered
from hardware.worker import Worker

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
RETRY_S = 0.5


class EventSink(Protocol):
    """Where reader threads post: the daemon's one queue (`queue.Queue` fits)."""

    def put(self, item: object) -> None: ...


class PollingReader(Protocol):
    """A reader that answers `poll()` with the UIDs in its one antenna's field."""

    name: str

    def open(self) -> None: ...

    def recover(self) -> None: ...

    def poll(self) -> list[str]: ...

    def close(self) -> None: ...


class FaultLatch:
    """One idempotent fault state per reader: the first failure posts `ReaderFault`, the first
    success after it posts `ReaderRecovered`; repeats in between post nothing."""

    def __init__(self, reader: str, *, queue: EventSink, clock: Clock) -> None:
        self.reader = reader
        self.queue = queue
        self.clock = clock
        self.faulted = False
        self.message = ""

    def fault(self, message: str) -> None:
        if self.faulted:
            return
        self.faulted, self.message = True, message
        # Whoever reads the queue reports it (the daemon's fault log, enroll's prompt): one line, not two.
        logger.debug("reader %s fault: %s", self.reader, message)
        self.queue.put(ReaderFault(t=self.clock(), reader=self.reader, message=message))

    def ok(self) -> bool:
        """Mark the reader healthy; True if it was faulted (it just recovered)."""
        if not self.faulted:
            return False
        self.faulted, self.message = False, ""
        logger.warning("reader %s recovered", self.reader)
        self.queue.put(ReaderRecovered(t=self.clock(), reader=self.reader))
        return True


class ReaderThread(Worker):
    """Polls one single-antenna reader on its own thread; `step()` is one poll, for tests.

    It never calls the rules core: `Read`/`Gone` events and `ReaderFault`/`ReaderRecovered`
    records go to `queue`. A failing reader is retried every `retry_s` until it answers again.
    """

    def __init__(self, reader: PollingReader, presence: Presence, *, queue: EventSink, clock: Clock,
                 poll_interval_s: float = 0.01, retry_s: float = RETRY_S) -> None:
        self.reader = reader
        self.presence = presence
        self.queue = queue
        self.clock = clock
        self.poll_interval_s = poll_interval_s
        self.retry_s = retry_s
        self.latch = FaultLatch(reader.name, queue=queue, clock=clock)
        self._opened = False
        super().__init__(f"reader-{reader.name}", error_wait_s=retry_s)

    def step(self) -> float:
        """Poll once; returns how long to wait before the next step."""
        try:
            if not self._opened:
                self.reader.open()
                self._opened = True
            elif self.latch.faulted:
                self.reader.recover()
            uids = self.reader.poll()
        except TableError as exc:
            self.latch.fault(str(exc))
            return self.retry_s
        except Exception as exc:  # a driver bug must not kill the thread: log it once and keep trying
            if not self.latch.faulted:
                logger.exception("reader %s: unexpected error", self.reader.name)
            self.latch.fault(f"unexpected error: {exc!r}")
            return self.retry_s
        now = self.clock()
        if self.latch.ok():
            self.presence.resume(now)
        for event in self.presence.update(uids, now):
            self.queue.put(event)
        return self.poll_interval_s

    def _cycle(self) -> float:
        return self.step()

    def _close(self) -> None:
        if self._opened:
            try:
                self.reader.close()
            except Exception:
                logger.exception("reader %s: error while closing", self.reader.name)
            self._opened = False
