"""Emulated Pi peripherals: MFRC522 chips on SPI chip selects, GPIO lines, and one virtual clock.

A driver is handed this hardware's parts explicitly: `hw.open_spi` (an SPI opener), `hw.gpio` (an
RPi.GPIO-compatible module) and `hw.sleep`. Only to run the `mfrc522` package itself (its own
polling, kept as a baseline in the tests), `install_fake_modules()` puts a fake `spidev` and a fake
`RPi.GPIO` in `sys.modules` that talk to whichever `EmulatedHardware` is active.
"""

from __future__ import annotations

import errno
import sys
import threading
import time
import types
from collections.abc import Callable
from typing import Any

from hardware.emulation.chip import EmulatedMfrc522

XFER_OVERHEAD_S = 20e-6  # a spidev ioctl from Python, beside the bits on the wire

class _Active:
    """Which EmulatedHardware the fake modules talk to."""

    hardware: EmulatedHardware | None = None
    lock = threading.Lock()


class EmulatedHardware:
    """The peripherals of one emulated Pi; use `with EmulatedHardware() as hw:` to make it active.

    Time is virtual by default: it advances with every SPI transfer and every `sleep()`, so a
    test is exact and fast. With `realtime=True` it follows the monotonic clock (a simulated
    table driven by threads).
    """

    def __init__(self, *, realtime: bool = False) -> None:
        self.realtime = realtime
        self._t0 = time.monotonic()
        self._virtual = 0.0
        self._clock_lock = threading.Lock()
        self.chips: dict[tuple[int, int], EmulatedMfrc522] = {}
        self.gpio_mode: int | None = None
        self.gpio_levels: dict[int, int] = {}
        self.gpio_setup: dict[int, int] = {}
        self.gpio_cleanups: list[int | None] = []
        self.missing_devices: set[tuple[int, int]] = set()
        self.gpio = _fake_gpio_module(lambda: self)  # RPi.GPIO's interface, on these pins

    # clock
    def now(self) -> float:
        if self.realtime:
            return time.monotonic() - self._t0
        return self._virtual

    def advance(self, seconds: float) -> None:
        if not self.realtime:
            with self._clock_lock:
                self._virtual += seconds + XFER_OVERHEAD_S

    def sleep(self, seconds: float) -> None:
        """The sleep to hand a driver: virtual time moves on; in real time the thread sleeps."""
        if self.realtime:
            time.sleep(seconds)
        else:
            with self._clock_lock:
                self._virtual += max(seconds, 0.0)

    # chips
    def add_mfrc522(self, *, bus: int = 0, device: int = 0, reset_pin: int | None = None,
                    version: int = 0x92) -> EmulatedMfrc522:
        chip = EmulatedMfrc522(self, bus=bus, device=device, reset_pin=reset_pin, version=version)
        self.chips[(bus, device)] = chip
        return chip

    def chip(self, bus: int, device: int) -> EmulatedMfrc522:
        return self.chips[(bus, device)]

    def open_spi(self, bus: int, device: int) -> FakeSpiDev:
        """The SPI opener to hand a driver: the chip on `bus`/`device`, or FileNotFoundError as spidev gives."""
        return FakeSpiDev(bus, device, hardware=self)

    def spi_device_exists(self, bus: int, device: int) -> bool:
        return (bus, device) in self.chips and (bus, device) not in self.missing_devices

    def set_gpio(self, pin: int, level: int) -> None:
        self.gpio_levels[pin] = level
        for chip in self.chips.values():
            if chip.reset_pin == pin:
                chip.set_reset_line(level)

    # activation
    def __enter__(self) -> EmulatedHardware:
        activate(self)
        return self

    def __exit__(self, *exc: object) -> None:
        deactivate(self)


def activate(hardware: EmulatedHardware) -> None:
    install_fake_modules()
    with _Active.lock:
        _Active.hardware = hardware


def deactivate(hardware: EmulatedHardware) -> None:
    with _Active.lock:
        if _Active.hardware is hardware:
            _Active.hardware = None


def active() -> EmulatedHardware:
    hardware = _Active.hardware
    if hardware is None:
        raise FileNotFoundError(errno.ENOENT, "no emulated hardware is active (use `with EmulatedHardware()`)")
    return hardware


class FakeSpiDev:
    """The part of `spidev.SpiDev` that drivers use, wired to an emulated chip."""

    def __init__(self, bus: int | None = None, device: int | None = None, *,
                 hardware: EmulatedHardware | None = None) -> None:
        self.max_speed_hz = 500_000
        self.mode = 0
        self.bits_per_word = 8
        self.lsbfirst = False
        self.cshigh = False
        self.no_cs = False
        self._chip: EmulatedMfrc522 | None = None
        self._hardware = hardware  # None: the active one (the fake `spidev` module's devices)
        if bus is not None and device is not None:
            self.open(bus, device)

    def open(self, bus: int, device: int) -> None:
        hardware = self._hardware or active()
        if not hardware.spi_device_exists(bus, device):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/spidev{bus}.{device}")
        self._chip = hardware.chip(bus, device)

    def close(self) -> None:
        self._chip = None

    def xfer2(self, data: list[int], *_: Any) -> list[int]:
        if self._chip is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        return self._chip.transfer(list(data), self.max_speed_hz)

    xfer = xfer2

    def writebytes(self, data: list[int]) -> None:
        self.xfer2(data)

    def readbytes(self, count: int) -> list[int]:
        return self.xfer2([0] * count)


def _fake_gpio_module(active: Callable[[], EmulatedHardware]) -> types.ModuleType:
    gpio = types.ModuleType("RPi.GPIO")
    gpio.__doc__ = "Fake RPi.GPIO routed to an EmulatedHardware."
    constants = {"BOARD": 10, "BCM": 11, "OUT": 0, "IN": 1, "LOW": 0, "HIGH": 1,
                 "PUD_OFF": 20, "PUD_DOWN": 21, "PUD_UP": 22, "VERSION": "emulated"}
    for name, value in constants.items():
        setattr(gpio, name, value)

    def setmode(mode: int) -> None:
        active().gpio_mode = mode

    def getmode() -> int | None:
        return active().gpio_mode

    def setwarnings(flag: bool) -> None:
        pass

    def setup(channel: int, direction: int, pull_up_down: int = 20, initial: int = -1) -> None:
        hw = active()
        if hw.gpio_mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")
        hw.gpio_setup[channel] = direction
        if direction == 0 and initial != -1:
            hw.set_gpio(channel, initial)

    def output(channel: int, value: int) -> None:
        hw = active()
        if hw.gpio_setup.get(channel) != 0:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        hw.set_gpio(channel, 1 if value else 0)

    def input(channel: int) -> int:
        return active().gpio_levels.get(channel, 0)

    def cleanup(channel: int | None = None) -> None:
        hw = active()
        hw.gpio_cleanups.append(channel)
        pins = list(hw.gpio_setup) if channel is None else [channel]
        for pin in pins:
            hw.gpio_setup.pop(pin, None)
            hw.gpio_levels.pop(pin, None)
        if channel is None:
            hw.gpio_mode = None

    for func in (setmode, getmode, setwarnings, setup, output, input, cleanup):
        setattr(gpio, func.__name__, func)
    return gpio


def install_fake_modules() -> None:
    """Make `import spidev` and `import RPi.GPIO` give the fakes; idempotent.

    Refuses when a real module was imported first: mixing real and fake GPIO would drive real pins.
    """
    spidev = sys.modules.get("spidev")
    if spidev is not None and not getattr(spidev, "_pokertable_fake", False):
        raise RuntimeError("the real spidev module is already imported; install the fakes first")
    if spidev is None:
        spidev = types.ModuleType("spidev")
        spidev.SpiDev = FakeSpiDev  # type: ignore[attr-defined]
        spidev._pokertable_fake = True  # type: ignore[attr-defined]
        sys.modules["spidev"] = spidev
    if "RPi.GPIO" not in sys.modules:
        rpi = types.ModuleType("RPi")
        gpio = _fake_gpio_module(active)
        gpio._pokertable_fake = True  # type: ignore[attr-defined]
        rpi.GPIO = gpio  # type: ignore[attr-defined]
        rpi.__path__ = []  # a package, so `import RPi.GPIO` works
        sys.modules["RPi"] = rpi
        sys.modules["RPi.GPIO"] = gpio
    elif not getattr(sys.modules["RPi.GPIO"], "_pokertable_fake", False):
        raise RuntimeError("the real RPi.GPIO module is already imported; install the fakes first")
