"""The multi-antenna reader board on a serial port: lines in, debounced events out, reconnecting for ever."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import serial

from firmware_py.errors import ProtocolError
from hardware.hardware_config import PresenceTiming, SerialBoardConfig
from hardware.polling import Clock, EventSink, FaultLatch
from hardware.presence import Presence
from hardware.protocol import MAX_LINE_BYTES, SEQ_MODULO, Hello, PortFailure, Scan, decode
from hardware.worker import Worker

logger = logging.getLogger(__name__)

READ_TIMEOUT_S = 0.05
LOG_FIRST_BAD_LINES = 20  # then one log line per 1,000 bad lines, so noise cannot flood the log


def open_serial_port(url: str, *, baudrate: int, timeout: float) -> Any:
    """Open a port by path or pyserial URL (`loop://`, `socket://`...)."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=timeout)


class SerialBoardReader(Worker):
    """Reads the antenna board's lines on its own thread; `feed()` and `step()` drive it in tests.

    Every port's scan line updates that antenna's presence; a malformed or corrupted line is
    counted and logged and changes nothing. When the port disappears (a USB cable pulled), the
    board is reported faulty, presence is frozen so no card is reported gone for it, and the
    port is tried again every `reconnect_s` until it is back.
    """

    def __init__(self, config: SerialBoardConfig, *, queue: EventSink, clock: Clock,
                 timing_for: Callable[[str], PresenceTiming] = lambda _antenna: PresenceTiming(),
                 open_port: Callable[..., Any] = open_serial_port) -> None:
        self.config = config
        self.name = config.name
        self.queue = queue
        self.clock = clock
        self.open_port = open_port
        self.latch = FaultLatch(config.name, queue=queue, clock=clock)
        self.presence = [Presence(antenna, timing_for(antenna)) for antenna in config.antennas]
        self.lines_ok = 0
        self.lines_bad = 0
        self.lines_lost = 0
        self.reconnects = 0
        self.hello: Hello | None = None
        self.last_error = ""
        self._buffer = bytearray()
        self._discarding = False
        self._last_seq: int | None = None
        self._last_line_at: float | None = None
        self._port: Any = None
        self._next_attempt = 0.0
        super().__init__(f"board-{self.name}", error_wait_s=config.reconnect_s)

    # -- bytes to events ------------------------------------------------------------------------

    def feed(self, data: bytes, now: float | None = None) -> None:
        """Take bytes as they come off the wire; complete lines are handled at once."""
        now = self.clock() if now is None else now
        for byte_line in self._split(data):
            self._line(byte_line, now)

    def _split(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                rest = data[start:]
                if not self._discarding:
                    self._buffer += rest
                    if len(self._buffer) > MAX_LINE_BYTES:
                        self._bad(f"no newline within {MAX_LINE_BYTES} bytes: dropped until the next one")
                        self._buffer.clear()
                        self._discarding = True
                return lines
            if self._discarding:
                self._discarding = False
            else:
                self._buffer += data[start:end]
                lines.append(bytes(self._buffer))
                self._buffer.clear()
            start = end + 1

    def _line(self, raw: bytes, now: float) -> None:
        if not raw.strip():
            return
        try:
            message = decode(raw)
        except ProtocolError as exc:
            self._bad(f"{exc}: {raw[:80]!r}")
            return
        if isinstance(message, Scan) and message.port >= len(self.presence):
            self._bad(f"port {message.port} is not in [serial] antennas ({len(self.presence)} ports configured)")
            return
        self.lines_ok += 1
        if self._last_seq is not None:
            gap = (message.seq - self._last_seq - 1) % SEQ_MODULO
            if 0 < gap < 1000:
                self.lines_lost += gap
        self._last_seq = message.seq
        self._last_line_at = now
        if self.latch.ok():
            for presence in self.presence:
                presence.resume(now)
        if isinstance(message, Scan):
            for event in self.presence[message.port].update(message.uids, now):
                self.queue.put(event)
        elif isinstance(message, Hello):
            self.hello = message
        elif isinstance(message, PortFailure):
            antenna = self.config.antennas[message.port] if message.port < len(self.config.antennas) else "?"
            logger.warning("board %s port %d (%s) reports %s", self.name, message.port, antenna, message.code)

    def _bad(self, message: str) -> None:
        self.lines_bad += 1
        self.last_error = message
        if self.lines_bad <= LOG_FIRST_BAD_LINES or self.lines_bad % 1000 == 0:
            logger.warning("board %s: bad line #%d ignored: %s", self.name, self.lines_bad, message)

    # -- the port -------------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._port is not None

    def step(self) -> None:
        """Read what the port has (waiting at most its timeout), or try to reopen it when it is time."""
        now = self.clock()
        if self._port is None:
            if now < self._next_attempt:
                return
            try:
                self._port = self.open_port(self.config.port, baudrate=self.config.baudrate,
                                            timeout=READ_TIMEOUT_S)
            except Exception as exc:  # pyserial raises SerialException, OSError, ValueError
                self._next_attempt = now + self.config.reconnect_s
                self.latch.fault(f"cannot open {self.config.port}: {exc}")
                return
            self.reconnects += 1
            self._buffer.clear()
            self._discarding = True  # the first bytes after a (re)connect may start mid-line
            self._last_line_at = now
            logger.info("board %s: %s open", self.name, self.config.port)
        try:
            waiting = self._port.in_waiting
            data = self._port.read(waiting or 1)
        except Exception as exc:
            self._drop_port(f"{self.config.port} disappeared: {exc}")
            return
        now = self.clock()
        if data:
            self.feed(data, now)
        elif self._last_line_at is not None and now - self._last_line_at > self.config.silence_s:
            self.latch.fault(f"no line from the board on {self.config.port} for {self.config.silence_s:g} s")

    def _drop_port(self, message: str) -> None:
        try:
            self._port.close()
        except Exception:
            logger.debug("board %s: closing a dead port failed", self.name, exc_info=True)
        self._port = None
        self._next_attempt = self.clock() + self.config.reconnect_s
        self.latch.fault(message)

    def _cycle(self) -> float:
        self.step()  # a read waits at most READ_TIMEOUT_S for bytes
        return min(self.config.reconnect_s, 0.05) if self._port is None else 0.0

    def _close(self) -> None:
        if self._port is not None:
            try:
                self._port.close()
            finally:
                self._port = None
