"""Wiring the configured sensors into running threads that post to one queue (used by enroll, doctor, the daemon)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.hardware_config import HardwareConfig
from hardware.mfrc522_reader import Mfrc522Reader, SpiOpener
from hardware.polling import Clock, EventSink, ReaderThread
from hardware.presence import Presence
from hardware.serial_board import SerialBoardReader, open_serial_port


@dataclass
class Sensors:
    """The running reader threads; `stop()` stops them in reverse order of starting."""

    threads: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for thread in reversed(self.threads):
            thread.stop()
        self.threads.clear()


def start_sensors(config: HardwareConfig, *, queue: EventSink, clock: Clock = time.monotonic,
                  sleep: Callable[[float], None] = time.sleep, antennas: set[str] | None = None,
                  open_port: Callable[..., Any] = open_serial_port, open_spi: SpiOpener | None = None,
                  gpio: Any = None) -> Sensors:
    """Start a thread per SPI reader and one for the serial board (only those serving `antennas`).

    `open_spi` and `gpio` go to each `Mfrc522Reader` (None: spidev and RPi.GPIO on a Pi).
    """
    sensors = Sensors()
    try:
        for reader_config in config.readers:
            if antennas is not None and reader_config.antenna not in antennas:
                continue
            reader = Mfrc522Reader(reader_config, open_spi=open_spi, gpio=gpio, sleep=sleep)
            presence = Presence(reader_config.antenna, config.timing_for(reader_config.antenna))
            thread = ReaderThread(reader, presence, queue=queue, clock=clock,
                                  poll_interval_s=config.poll_interval_s)
            thread.start()
            sensors.threads.append(thread)
        board = config.serial
        if board is not None and (antennas is None or antennas & set(board.antennas)):
            serial_reader = SerialBoardReader(board, queue=queue, clock=clock, timing_for=config.timing_for,
                                              open_port=open_port)
            serial_reader.start()
            sensors.threads.append(serial_reader)
    except BaseException:
        sensors.stop()
        raise
    return sensors
