"""MFRC522 readers on SPI: register access on an injected SPI device, with a correct ISO 14443-3 poll.

The package's own polling (`MFRC522_Request`/`MFRC522_Anticoll`, `SimpleMFRC522`) sends REQA to a
tag it left in READY, so a resting card answers every other poll; it spins 2,000 SPI reads on an
empty poll because its timer-interrupt test is a bitwise `~` on booleans that is never false; it
stops at cascade level 1 (a 7-byte NTAG UID comes back as `88` plus three bytes); it reports a
collision as an error; `Close_MFRC522` calls `GPIO.cleanup()` for every pin of the process; and
`SimpleMFRC522` is fixed to /dev/spidev0.0. Here the registers are read and written as the
datasheet says (the package's `Read_MFRC522`/`Write_MFRC522` send the same bytes), on an SPI device
from an opener the caller may inject (the emulator's, in tests and the simulated table); by default
the package's `spidev` and `RPi.GPIO` on a Pi. The poll follows ISO/IEC 14443-3:2018 clause 6 itself.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_py.errors import HardwareError, ReaderError, ReaderNotAnswering
from hardware.hardware_config import SpiReaderConfig
from hardware.iso14443 import (
    CASCADE_TAG,
    HLTA,
    NVB_SELECT,
    SAK_UID_INCOMPLETE,
    SEL_CL,
    SHORT_FRAME_BITS,
    UID_CLN_BITS,
    WUPA,
    bcc,
    bits_to_bytes,
    bytes_to_bits,
    crc_a,
)
from hardware.mfrc522_registers import (
    BIT_FRAMING,
    BIT_S,
    CMD_IDLE,
    CMD_SOFT_RESET,
    CMD_TRANSCEIVE,
    COLL,
    COLL_POS_NOT_VALID,
    COMM_IRQ,
    COMMAND,
    CONTROL,
    ERR_BUFFER_OVFL,
    ERR_COLL,
    ERR_CRC,
    ERR_PARITY,
    ERR_PROTOCOL,
    ERROR,
    FDT_S,
    FIFO_DATA,
    FIFO_LEVEL,
    IRQ_ERR,
    IRQ_RX,
    IRQ_TIMER,
    MODE,
    POWER_DOWN,
    T_MODE,
    T_PRESCALER,
    T_RELOAD_H,
    T_RELOAD_L,
    TX_ASK,
    TX_CONTROL,
    VERSION,
    read_address,
    write_address,
)

logger = logging.getLogger(__name__)

# The chip's timer: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 41 ticks = 1.0 ms after the end of each frame.
# Layer-3 answers come within one FDT (under 0.1 ms), and 6.4.3 gives HLTA a 1 ms window.
TIMER_PRESCALER = 169
TIMER_RELOAD = 40
TIMEOUT_S = (2 * TIMER_PRESCALER + 1) * (TIMER_RELOAD + 1) / 13_560_000
MAX_IRQ_READS = 4
RESET_SETTLE_S = 0.05
VALID_VERSIONS = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone", 0x12: "clone (0x12)",
                  0xB2: "FM17522 clone", 0x89: "clone (0x89)"}

SpiOpener = Callable[[int, int], Any]
"""(bus, device) -> an open device with spidev.SpiDev's `xfer2`, `max_speed_hz`, `mode` and `close`."""

_reset_pin_users: dict[int, int] = {}
_reset_pin_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class _Answer:
    """What the chip received after a frame: the bits (first bit at index 0), and where they collided."""

    bits: list[int]
    collision: int | None = None  # index into `bits` of the first collided bit
    error: int = 0


@dataclass
class PollStats:
    """Counters since the reader was opened; the doctor and the benchmarks read them."""

    polls: int = 0
    transceives: int = 0
    timeouts: int = 0
    collisions: int = 0
    frame_errors: int = 0


@dataclass
class _Fork:
    """An unexplored branch of the UID tree: the UID CLn already selected, and the bits known at `level`."""

    selected: list[list[int]]
    prefix: list[int]
    retries: int = 1


_IMPORT_LOCK = threading.Lock()


def _mfrc522_module(reader: str) -> Any:
    """The package's `mfrc522.MFRC522` module (the package re-binds the name `MFRC522` to the class).

    Imported late, under a lock: it imports RPi.GPIO and spidev, which exist only on a Pi (or as
    fakes), and two reader threads importing a package that fails half-way would see it half-made.
    """
    with _IMPORT_LOCK:
        try:
            importlib.import_module("mfrc522")
            return sys.modules["mfrc522.MFRC522"]
        except (ImportError, KeyError, RuntimeError) as exc:  # RuntimeError: rpi-lgpio off a Pi
            for name in [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]:
                del sys.modules[name]  # a half-imported package: the next retry imports it afresh
            raise HardwareError(f"reader {reader!r}: cannot import the mfrc522 package ({exc}); install it "
                                "with `pip install --no-deps mfrc522 spidev` plus RPi.GPIO, or rpi-lgpio on a "
                                "Pi 5. No Pi here? `run --simulate` or `enroll --emulate`") from None


def _package_spi_opener(reader: str) -> tuple[SpiOpener, Any]:
    """The real default: spidev and RPi.GPIO as the `mfrc522` package imports them on a Pi."""
    module = _mfrc522_module(reader)

    def open_spi(bus: int, device: int) -> Any:
        spi = module.spidev.SpiDev()
        spi.open(bus, device)
        return spi

    return open_spi, module.GPIO


class Mfrc522Reader:
    """One MFRC522 on one chip select: `poll()` returns the UID of every Type A tag in its field.

    Bus, chip select, reset pin and SPI clock come from the config; `open_spi` opens the SPI device
    and `gpio` is the RPi.GPIO-compatible module for the reset line (by default spidev and RPi.GPIO
    on a Pi; on a Pi 5, rpi-lgpio provides it under the same name); `sleep` is injected so a test
    against the emulator runs on virtual time: `Mfrc522Reader(config, open_spi=hw.open_spi,
    gpio=hw.gpio, sleep=hw.sleep)`.
    """

    def __init__(self, config: SpiReaderConfig, *, open_spi: SpiOpener | None = None,
                 sleep: Callable[[float], None] = time.sleep, gpio: Any = None, max_tags: int = 8) -> None:
        self.config = config
        self.name = config.antenna
        self.max_tags = max_tags
        self.stats = PollStats()
        self._open_spi = open_spi
        self._sleep = sleep
        self._gpio = gpio
        self._spi: Any = None
        self._stalls = 0
        self.version: int | None = None

    # -- life cycle -----------------------------------------------------------------------------

    def open(self) -> None:
        """Open the SPI device, raise the reset line and configure the chip; raises ReaderError."""
        if self._open_spi is None:
            self._open_spi, gpio = _package_spi_opener(self.name)
            if self._gpio is None:
                self._gpio = gpio
        try:
            spi = self._open_spi(self.config.bus, self.config.device)
        except OSError as exc:
            raise ReaderError(self.name, f"{self.config.spi_path} cannot be opened ({exc.strerror or exc}): "
                              "enable SPI (dtparam=spi=on; dtoverlay=spi1-3cs for bus 1) and check "
                              "the bus and device numbers") from None
        spi.max_speed_hz = self.config.spi_hz
        spi.mode = 0
        self._spi = spi
        try:
            self._raise_reset_line()
            self.configure()
        except BaseException:
            self.close()
            raise

    def recover(self) -> None:
        """After a fault: configure the chip again (it may have been power-cycled), or open it."""
        if self._spi is None:
            self.open()
        else:
            self.configure()

    def close(self) -> None:
        """Close this reader's SPI device and release only its own reset pin (unlike `Close_MFRC522`)."""
        if self._spi is not None:
            try:
                self._spi.close()
            finally:
                self._spi = None
        pin = self.config.reset_pin
        if pin is not None and self._gpio is not None:
            with _reset_pin_lock:
                users = _reset_pin_users.get(pin, 0) - 1
                if users <= 0:
                    _reset_pin_users.pop(pin, None)
                    self._gpio.cleanup(pin)
                else:
                    _reset_pin_users[pin] = users

    def __enter__(self) -> Mfrc522Reader:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _raise_reset_line(self) -> None:
        pin = self.config.reset_pin
        if pin is None:
            return
        gpio = self._gpio
        mode = gpio.getmode()
        if mode is None:
            gpio.setmode(gpio.BCM)
        elif mode != gpio.BCM:
            raise HardwareError(f"reader {self.name!r}: RPi.GPIO is set to BOARD numbering by another "
                                "module; the table's pins are BCM numbers")
        with _reset_pin_lock:
            if pin not in _reset_pin_users:
                gpio.setwarnings(False)
                gpio.setup(pin, gpio.OUT)
                gpio.output(pin, 1)
                self._sleep(RESET_SETTLE_S)
            _reset_pin_users[pin] = _reset_pin_users.get(pin, 0) + 1

    def configure(self) -> None:
        """Soft-reset the chip and set its timer, modulation and antenna; raises ReaderNotAnswering."""
        write, read = self._write, self._read
        write(COMMAND, CMD_SOFT_RESET)
        self._sleep(RESET_SETTLE_S)
        for _ in range(3):
            if not read(COMMAND) & POWER_DOWN:
                break
            self._sleep(RESET_SETTLE_S)
        self.version = self.read_version()
        write(T_MODE, 0x80)  # TAuto: the timer starts at the end of every frame sent
        write(T_PRESCALER, TIMER_PRESCALER)
        write(T_RELOAD_H, TIMER_RELOAD >> 8)
        write(T_RELOAD_L, TIMER_RELOAD & 0xFF)
        write(TX_ASK, 0x40)  # 100 % ASK, as Type A requires
        write(MODE, 0x3D)  # CRC preset 6363h, the CRC_A start value
        write(COLL, 0x00)  # ValuesAfterColl = 0: bits after a collision read as 0
        write(TX_CONTROL, read(TX_CONTROL) | 0x03)  # antenna drivers on
        self._stalls = 0

    def read_version(self) -> int:
        """VersionReg; raises ReaderNotAnswering when the bus reads all zeros or all ones."""
        version = self._read(VERSION)
        if version in (0x00, 0xFF):
            raise ReaderNotAnswering(self.name, f"no answer on {self.config.spi_path}: VersionReg reads "
                                     f"0x{version:02X} (check power, wiring and chip select)")
        return version

    def _write(self, register: int, value: int) -> None:
        self._spi.xfer2([write_address(register), value])

    def _read(self, register: int) -> int:
        return int(self._spi.xfer2([read_address(register), 0])[1])

    # -- the poll -------------------------------------------------------------------------------

    def poll(self) -> list[str]:
        """Every tag in the field, as upper-case hex UIDs; raises ReaderError if the chip fails."""
        if self._spi is None:
            raise ReaderError(self.name, "the reader is not open")
        self.stats.polls += 1
        found: list[str] = []
        # Clause 6.5.1 (select sequence): WUPA, not REQA, starts each poll, so a tag halted by the
        # previous poll (6.3.5 HALT) answers again; REQA would reach only tags in IDLE.
        forks = [_Fork(selected=[], prefix=[])]
        rounds = 0
        while forks and rounds < 2 * self.max_tags and len(found) < self.max_tags:
            fork = forks.pop()
            rounds += 1
            uid, failed = self._activate(fork, forks)
            if uid is not None and uid not in found:
                found.append(uid)
            if failed and fork.retries > 0:
                fork.retries -= 1
                forks.append(fork)
        return found

    def _activate(self, fork: _Fork, forks: list[_Fork]) -> tuple[str | None, bool]:
        """One pass of the select sequence down one branch; returns (UID, transmission error)."""
        # 6.4.1: WUPA moves tags in IDLE or HALT to READY (READY*); the answer is ATQA.
        atqa = self._transceive([WUPA], tx_last_bits=SHORT_FRAME_BITS, answer_bits=16)
        if atqa is None:
            return None, bool(fork.selected or fork.prefix)  # an empty field, unless a branch vanished
        uid: list[int] = []
        for level, shared in enumerate(fork.selected):
            # Re-select the cascade levels this branch shares with a tag already read (6.5.3).
            if self._select(level, shared) is None:
                return None, True
        level = len(fork.selected)
        for part in fork.selected:
            uid += _uid_part(part)
        prefix = fork.prefix
        selected = list(fork.selected)
        while level < len(SEL_CL):
            cln_bits = self._anticollision(level, prefix, selected, forks)
            if cln_bits is None:
                return None, True
            sak = self._select(level, cln_bits)
            if sak is None:
                return None, True
            cln = bits_to_bytes(cln_bits)
            # 6.5.3.4: SAK bit 3 set means the UID is not complete; 6.5.4: then CLn starts with CT.
            if sak & SAK_UID_INCOMPLETE:
                if cln[0] != CASCADE_TAG:
                    self.stats.frame_errors += 1
                    return None, True
                uid += cln[1:4]
                selected.append(cln_bits)
                level += 1
                prefix = []
                continue
            uid += cln[0:4]
            # 6.4.3: HLTA puts the selected tag in HALT; it answers nothing within 1 ms if accepted.
            self._transceive([*HLTA, *crc_a(HLTA)], answer_bits=0, expect_silence=True)
            return bytes(uid).hex().upper(), False
        self.stats.frame_errors += 1
        return None, True

    def _anticollision(self, level: int, prefix: list[int], selected: list[list[int]],
                       forks: list[_Fork]) -> list[int] | None:
        """6.5.3.1: the anticollision loop within one cascade level; returns the 40 bits of UID CLn + BCC."""
        known = list(prefix)
        while len(known) < UID_CLN_BITS:
            count = len(known)
            # 6.5.3.3: NVB counts the valid bytes (SEL and NVB included) in its high nibble, bits in the low.
            nvb = ((2 + count // 8) << 4) | (count % 8)
            frame = [SEL_CL[level], nvb, *bits_to_bytes(known)]
            answer = self._transceive(frame, tx_last_bits=count % 8, rx_align=count % 8,
                                      answer_bits=UID_CLN_BITS - count)
            if answer is None:
                return None
            if answer.collision is not None:
                # Two tags answered different bits: keep the bits before the collision, follow the
                # branch with a 1 now and leave the branch with a 0 for a later pass.
                self.stats.collisions += 1
                agreed = answer.bits[:answer.collision]
                forks.append(_Fork(selected=[list(s) for s in selected], prefix=known + agreed + [0]))
                known = known + agreed + [1]
                continue
            if answer.error or len(answer.bits) != UID_CLN_BITS - count:
                self.stats.frame_errors += 1
                return None
            known += answer.bits
        cln = bits_to_bytes(known)
        if bcc(cln[:4]) != cln[4]:  # 6.5.3.1: the BCC checks the four UID bytes
            self.stats.frame_errors += 1
            return None
        return known

    def _select(self, level: int, cln_bits: list[int]) -> int | None:
        """6.4.2: SELECT with NVB 70h, the 40 bits and CRC_A; returns the SAK, or None."""
        frame = [SEL_CL[level], NVB_SELECT, *bits_to_bytes(cln_bits)]
        answer = self._transceive([*frame, *crc_a(frame)], answer_bits=24)
        if answer is None:
            return None
        data = bits_to_bytes(answer.bits)
        if answer.error or answer.collision is not None or len(answer.bits) != 24 or crc_a(data[:1]) != data[1:3]:
            self.stats.frame_errors += 1  # 6.2.4: a SAK whose CRC_A does not match is a transmission error
            return None
        return int(data[0])

    # -- one frame ------------------------------------------------------------------------------

    def _transceive(self, frame: list[int], *, tx_last_bits: int = 0, rx_align: int = 0, answer_bits: int,
                    expect_silence: bool = False) -> _Answer | None:
        """Send one frame and wait, with bounded SPI reads, for the answer or the 1 ms timer."""
        spi, write = self._spi, self._write
        self.stats.transceives += 1
        write(COMMAND, CMD_IDLE)  # stop whatever runs
        write(COMM_IRQ, 0x7F)  # clear every interrupt flag
        write(FIFO_LEVEL, 0x80)  # flush the FIFO
        spi.xfer2([write_address(FIFO_DATA), *frame])  # one burst into the FIFO
        write(COMMAND, CMD_TRANSCEIVE)
        write(BIT_FRAMING, 0x80 | (rx_align << 4) | tx_last_bits)  # StartSend
        sent_bits = len(frame) * 9 + 2
        tx_s = sent_bits * BIT_S
        first = tx_s + (0 if expect_silence else FDT_S + (answer_bits * 9 // 8 + 2) * BIT_S) + 30e-6
        self._sleep(first if not expect_silence else tx_s + TIMEOUT_S + 50e-6)
        irq = 0
        for attempt in range(MAX_IRQ_READS):
            irq = self._read(COMM_IRQ)
            if irq & (IRQ_RX | IRQ_TIMER | IRQ_ERR):
                break
            self._sleep(max(tx_s + TIMEOUT_S + 50e-6 - first, 50e-6) if attempt == 0 else TIMEOUT_S)
        else:
            self._stalled()
            return None
        self._stalls = 0
        if not irq & IRQ_RX:
            self.stats.timeouts += 1
            return None
        if expect_silence:
            logger.debug("reader %s: a tag answered HLTA (a NAK); ignored", self.name)
            return None
        reg = read_address
        _, error, level, control, coll = spi.xfer2([reg(ERROR), reg(FIFO_LEVEL), reg(CONTROL), reg(COLL), 0])
        level = min(level, 64)
        data = spi.xfer2([reg(FIFO_DATA)] * level + [0])[1:] if level else []
        last_bits = control & 0x07
        total = (level - 1) * 8 + last_bits if last_bits and level else level * 8
        bits = bytes_to_bits(data, total)[rx_align:]
        collision = None
        if error & ERR_COLL:
            if coll & COLL_POS_NOT_VALID:
                self.stats.frame_errors += 1
                return _Answer(bits=bits, error=error)
            position = coll & 0x1F or 32  # CollPos counts FIFO bit positions from 1; 0 means 32
            collision = position - 1 - rx_align
            if not 0 <= collision < len(bits):
                self.stats.frame_errors += 1
                return _Answer(bits=bits, error=error)
            return _Answer(bits=bits, collision=collision)
        bad = error & (ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL | ERR_CRC)
        return _Answer(bits=bits, error=bad)

    def _stalled(self) -> None:
        """No interrupt at all: the chip is gone (reads 00/FF) or was reset behind our back."""
        self._stalls += 1
        self.read_version()  # raises ReaderNotAnswering
        if self._stalls > 2:
            raise ReaderError(self.name, "the chip answers but never finishes a command; power-cycle it")
        logger.warning("reader %s: the chip lost its settings (a brown-out?); configuring it again", self.name)
        self.configure()
        self._stalls = 1


def _uid_part(cln_bits: list[int]) -> list[int]:
    cln = bits_to_bytes(cln_bits)
    return list(cln[1:4]) if cln[0] == CASCADE_TAG else list(cln[0:4])

