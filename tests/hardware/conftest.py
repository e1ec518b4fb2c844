"""Fixtures: an emulated Pi with MFRC522 chips; readers are handed its parts (`hw.open_spi`, `hw.gpio`)."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from hardware.emulation.bus import EmulatedHardware, install_fake_modules
from hardware.hardware_config import SpiReaderConfig

# Only for the `mfrc522` package's own polling (test_library_baseline.py): it imports RPi.GPIO and
# spidev at import time, so the fakes must be in place before anything imports it.
install_fake_modules()


@pytest.fixture
def hw() -> Iterator[EmulatedHardware]:
    with EmulatedHardware() as hardware:
        yield hardware


@pytest.fixture
def events() -> queue.Queue[object]:
    return queue.Queue()


def _drain(q: queue.Queue[object]) -> list[object]:
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


@pytest.fixture
def drain():
    """Everything posted to a queue so far."""
    return _drain


@pytest.fixture
def reader_config():
    """SpiReaderConfig with defaults: the shoe on /dev/spidev0.0, reset on GPIO 25."""
    return _reader_config


def _reader_config(antenna: str = "shoe", *, bus: int = 0, device: int = 0, reset_pin: int | None = 25,
                  spi_hz: int = 1_000_000) -> SpiReaderConfig:
    return SpiReaderConfig(antenna=antenna, bus=bus, device=device, reset_pin=reset_pin, spi_hz=spi_hz)
