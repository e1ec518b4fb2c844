"""A whole emulated table for a config: MFRC522 chips, a serial board on a pty, and mock panel pins.

A simulated table (or a test) drives the real drivers through it: `place("shoe", uid)` puts a
tag on an antenna whether that antenna is an MFRC522 or a port of the serial board. The drivers
are handed its parts: `hardware.open_spi`, `hardware.gpio`, `hardware.sleep`, `pin_factory`, and
the serial board's port (the pty behind `config.serial.port`, or the open `board_port` given).
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.emulation.bus import EmulatedHardware
from hardware.emulation.chip import EmulatedMfrc522, Tag
from hardware.emulation.serial_board import EmulatedBoard
from hardware.hardware_config import HardwareConfig


class EmulatedTable:
    """Everything in `config`, emulated; `config` (the attribute) points the serial port at the pty."""

    def __init__(self, config: HardwareConfig, *, realtime: bool = True, board_interval_s: float = 0.02,
                 board_port: Any = None) -> None:
        """`board_port`: an open pyserial port (e.g. `loop://`) the board writes to when stepped by the
        caller (`board.scan()`), instead of a pty with a thread scanning every `board_interval_s`."""
        self.hardware = EmulatedHardware(realtime=realtime)
        self.chips: dict[str, EmulatedMfrc522] = {}
        self._tags: dict[tuple[str, str], Tag] = {}
        for reader in config.readers:
            self.chips[reader.antenna] = self.hardware.add_mfrc522(bus=reader.bus, device=reader.device,
                                                                    reset_pin=reader.reset_pin)
        self._dir = Path(tempfile.mkdtemp(prefix="pokertable-emulated-"))
        self.board: EmulatedBoard | None = None
        if config.serial is not None and board_port is not None:
            self.board = EmulatedBoard(len(config.serial.antennas), port=board_port)
        elif config.serial is not None:
            link = self._dir / "felt-board"
            self.board = EmulatedBoard(len(config.serial.antennas), link=link)
            config = dataclasses.replace(config, serial=dataclasses.replace(config.serial, port=str(link)))
            self.board.start(board_interval_s)
        self.config = config
        self.pin_factory = MockFactory(pin_class=MockPWMPin)

    def senses(self, antenna: str) -> bool:
        """Whether a reader of the config (an MFRC522 or a port of the board) watches `antenna`."""
        return antenna in self.chips or (self.config.serial is not None and antenna in self.config.serial.antennas)

    def place(self, antenna: str, uid: str) -> None:
        """Put the tag `uid` (8, 14 or 20 hex digits) on `antenna`."""
        if antenna in self.chips:
            tag = self._tags.setdefault((antenna, uid), Tag(uid=bytes.fromhex(uid)))
            self.chips[antenna].place(tag)
            return
        port = self._board_port(antenna)
        assert self.board is not None
        self.board.place(port, uid)

    def remove(self, antenna: str, uid: str) -> None:
        if antenna in self.chips:
            tag = self._tags.get((antenna, uid))
            if tag is not None:
                self.chips[antenna].remove(tag)
            return
        assert self.board is not None
        self.board.remove(self._board_port(antenna), uid)

    def _board_port(self, antenna: str) -> int:
        if self.config.serial is None or antenna not in self.config.serial.antennas:
            raise ValueError(f"antenna {antenna!r} is not in the config")
        return self.config.serial.antennas.index(antenna)

    def close(self) -> None:
        if self.board is not None:
            self.board.stop()
        self.pin_factory.reset()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> EmulatedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
