"""A whole emulated table for a config: MFRC522 chips, a serial board on a pty, and mock panel pins.

A simulated table (or a test) drives the real drivers through it: `place("shoe", uid)` puts a
tag on an antenna whether that antenna is an MFRC522 or a port of the serial board.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.emulation.bus import EmulatedHardware
from hardware.emulation.chip import EmulatedMfrc522, Tag
from hardware.emulation.serial_board import EmulatedBoard
from hardware.hardware_config import HardwareConfig


class EmulatedTable:
    """Everything in `config`, emulated; `config` (the attribute) points the serial port at the pty."""

    def __init__(self, config: HardwareConfig, *, realtime: bool = True, board_interval_s: float = 0.02) -> None:
        self.hardware = EmulatedHardware(realtime=realtime)
        self.chips: dict[str, EmulatedMfrc522] = {}
        self._tags: dict[tuple[str, str], Tag] = {}
        for reader in config.readers:
            self.chips[reader.antenna] = self.hardware.add_mfrc522(bus=reader.bus, device=reader.device,
                                                                    reset_pin=reader.reset_pin)
        self._dir = Path(tempfile.mkdtemp(prefix="pokertable-emulated-"))
        self.board: EmulatedBoard | None = None
        if config.serial is not None:
            link = self._dir / "felt-board"
            self.board = EmulatedBoard(len(config.serial.antennas), link=link)
            config = dataclasses.replace(config, serial=dataclasses.replace(config.serial, port=str(link)))
            self.board.start(board_interval_s)
        self.config = config
        self.pin_factory = MockFactory(pin_class=MockPWMPin)
        self.hardware.__enter__()

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
        self.hardware.__exit__()
        self.pin_factory.reset()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> EmulatedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
