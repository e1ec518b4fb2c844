"""An emulated multi-antenna board: writes the line protocol to a pty behind a stable path, or to any port."""

from __future__ import annotations

import contextlib
import os
import threading
import tty
from pathlib import Path
from typing import Any

from hardware.protocol import SEQ_MODULO, Hello, Message, Scan, encode


class EmulatedBoard:
    """A board with `ports` antennas; place and remove tags, then `scan()` writes one line per port.

    With `link`, it plays a USB board: a pseudo-terminal whose slave is reached through `link`
    (as udev's /dev/serial/by-id names are), and `unplug()`/`plug_in()` make it vanish and
    come back. With `port` it writes to an open pyserial port (e.g. `loop://`) instead.
    """

    def __init__(self, ports: int, *, link: str | Path | None = None, port: Any = None,
                 board: str = "emulated", firmware: str = "1.0") -> None:
        if (link is None) == (port is None):
            raise ValueError("give exactly one of link (a pty) or port (an open serial port)")
        self.ports = ports
        self.board, self.firmware = board, firmware
        self.link = Path(link) if link is not None else None
        self.port = port
        self.tags: list[list[str]] = [[] for _ in range(ports)]
        self.seq = 0
        self.lines_written = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self.link is not None:
            self.plug_in()

    def place(self, port: int, uid: str) -> None:
        with self._lock:
            if uid not in self.tags[port]:
                self.tags[port].append(uid)

    def remove(self, port: int, uid: str) -> None:
        with self._lock:
            if uid in self.tags[port]:
                self.tags[port].remove(uid)

    # the wire
    def write_raw(self, data: bytes) -> None:
        """Put bytes on the wire as they are (noise, corrupted lines)."""
        if self.port is not None:
            self.port.write(data)
            return
        if self._master is None:
            return  # unplugged: the bytes go nowhere
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._master, data)  # a full buffer drops bytes, as a USB board does

    def send(self, message: Message) -> None:
        self.write_raw(encode(message))
        self.lines_written += 1

    def next_seq(self) -> int:
        seq = self.seq
        self.seq = (self.seq + 1) % SEQ_MODULO
        return seq

    def scan(self) -> None:
        """One scan cycle: one `S` line per port."""
        with self._lock:
            snapshot = [tuple(t) for t in self.tags]
        for port, uids in enumerate(snapshot):
            self.send(Scan(seq=self.next_seq(), port=port, uids=uids))

    def hello(self) -> None:
        self.send(Hello(seq=self.next_seq(), board=self.board, firmware=self.firmware, ports=self.ports))

    # USB plug
    def plug_in(self) -> None:
        """A fresh pty appears behind `link` (a new /dev/pts number, the same stable name)."""
        assert self.link is not None
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        temporary = self.link.with_name(self.link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        temporary.symlink_to(os.ttyname(slave))
        temporary.replace(self.link)
        self._master, self._slave = master, slave
        self.hello()

    def unplug(self) -> None:
        """The USB cable is pulled: the pty hangs up and the stable name disappears."""
        assert self.link is not None
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    # a scanning thread
    def start(self, interval_s: float = 0.02) -> None:
        def run() -> None:
            cycles = 0
            while not self._stop.wait(interval_s):
                self.scan()
                cycles += 1
                if cycles % 250 == 0:
                    self.hello()

        self._thread = threading.Thread(target=run, name="emulated-board", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        if self.link is not None:
            self.unplug()

