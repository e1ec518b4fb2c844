"""A driver's own thread: one step at a time until stopped, surviving whatever a step raises."""

from __future__ import annotations

import logging
import threading

logger = logging.getLogger(__name__)

STOP_TIMEOUT_S = 2.0


class Worker:
    """Runs `_cycle()` on a daemon thread until `stop()`: the readers, the serial board, the panel, the keypad.

    `_cycle()` does one step and returns how long to wait before the next (None ends the thread,
    e.g. a device unplugged for good). An exception in a step is logged with its traceback and the
    step is tried again after `error_wait_s`: a driver bug must not leave the table blind in silence.
    `stop()` joins the thread, then `_close()` releases the device.
    """

    def __init__(self, thread_name: str, *, error_wait_s: float) -> None:
        self.thread_name = thread_name
        self.error_wait_s = error_wait_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._close()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                delay = self._cycle()
            except Exception:
                logger.exception("%s: unexpected error", self.thread_name)
                delay = self.error_wait_s
            if delay is None:
                return
            if delay > 0:
                self._stop.wait(delay)

    def _cycle(self) -> float | None:
        raise NotImplementedError

    def _close(self) -> None:
        """Release the device after the thread has stopped (nothing by default)."""
