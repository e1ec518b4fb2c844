"""A register-level MFRC522 with ISO/IEC 14443-3 Type A tags in its field, on a virtual clock.

It answers SPI transfers the way the datasheet describes (address byte `(reg << 1) | read`,
burst writes to one address, chained reads), runs Transceive/CalcCRC/SoftReset, keeps the
interrupt, error, collision and FIFO registers, and times tag responses and its timer against
a clock that advances with each SPI transfer and each sleep of the driver.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from hardware.iso14443 import (
    HLTA,
    REQA,
    SAK_UID_INCOMPLETE,
    SEL_CL,
    SHORT_FRAME_BITS,
    WUPA,
    bcc,
    bits_to_bytes,
    bytes_to_bits,
    cascade_levels,
    crc_a,
)
from hardware.mfrc522_registers import (
    BIT_FRAMING,
    BIT_S,
    CMD_AUTHENT,
    CMD_CALC_CRC,
    CMD_SOFT_RESET,
    CMD_TRANSCEIVE,
    CMD_TRANSMIT,
    COLL,
    COMM_IEN,
    COMM_IRQ,
    COMMAND,
    CONTROL,
    CRC_RESULT_H,
    CRC_RESULT_L,
    DIV_IRQ,
    DIV_IRQ_CRC,
    ERR_COLL,
    ERR_CRC,
    ERR_PROTOCOL,
    ERROR,
    FC_HZ,
    FDT_S,
    FIFO_DATA,
    FIFO_LEVEL,
    IRQ_ERR,
    IRQ_IDLE,
    IRQ_RX,
    IRQ_TIMER,
    IRQ_TX,
    MODE,
    RX_MODE,
    STATUS1,
    STATUS2,
    T_MODE,
    T_PRESCALER,
    T_RELOAD_H,
    T_RELOAD_L,
    TX_CONTROL,
    TX_MODE,
    VERSION,
    VERSION_MFRC522_V2,
    WATER_LEVEL,
)

RESET_VALUES = {
    COMMAND: 0x20, COMM_IEN: 0x80, COMM_IRQ: 0x14, STATUS1: 0x21, WATER_LEVEL: 0x08,
    CONTROL: 0x10, COLL: 0xA0, MODE: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84,
    0x19: 0x4D, 0x1A: 0x62, 0x1F: 0xEB, CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF, 0x24: 0x26,
    0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20,
}


class TagState(StrEnum):
    """PICC states of ISO/IEC 14443-3 Type A (the `*` variants come from HALT via WUPA)."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass(eq=False)
class Tag:
    """One Type A tag: a 4-byte MIFARE Classic or a 7-byte NTAG21x/Ultralight, with fault knobs.

    `drop_responses` makes it miss that many answers (a weak coupling); `corrupt_responses`
    flips one bit in that many answers (noise), so the reader sees BCC or CRC errors.
    """

    uid: bytes
    atqa: bytes = b""
    sak: int = -1
    state: TagState = TagState.IDLE
    from_halt: bool = False
    level: int = 0
    drop_responses: int = 0
    corrupt_responses: int = 0
    answers: int = 0
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def __post_init__(self) -> None:
        cascade_levels(self.uid)  # validates the length
        if not self.atqa:
            self.atqa = bytes([0x04, 0x00]) if len(self.uid) == 4 else bytes([0x44, 0x00])
        if self.sak < 0:
            self.sak = 0x08 if len(self.uid) == 4 else 0x00

    @classmethod
    def classic(cls, uid_hex: str) -> Tag:
        """A MIFARE Classic 1K: 4-byte UID, ATQA 0004, SAK 08."""
        return cls(uid=bytes.fromhex(uid_hex))

    @classmethod
    def ntag(cls, uid_hex: str) -> Tag:
        """An NTAG213/Ultralight: 7-byte UID (two cascade levels), ATQA 0044, SAK 00."""
        return cls(uid=bytes.fromhex(uid_hex))

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    def power_up(self) -> None:
        self.state, self.from_halt, self.level = TagState.IDLE, False, 0

    def _back_off(self) -> None:
        """Any unexpected command in READY or ACTIVE sends the tag back to IDLE (HALT if it came from there)."""
        self.state = TagState.HALT if self.from_halt else TagState.IDLE
        self.level = 0

    def receive(self, bits: list[int]) -> list[int] | None:
        """React to one PCD frame as the PICC state machine says; return the answer bits, or None."""
        answer = self._react(bits)
        if answer is None:
            return None
        if self.drop_responses > 0:
            self.drop_responses -= 1
            return None
        if self.corrupt_responses > 0:
            self.corrupt_responses -= 1
            answer = list(answer)
            answer[self.rng.randrange(len(answer))] ^= 1
        self.answers += 1
        return answer

    def _react(self, bits: list[int]) -> list[int] | None:
        if len(bits) == SHORT_FRAME_BITS:
            code = bits_to_bytes(bits)[0]
            if code == WUPA and self.state in (TagState.IDLE, TagState.HALT):
                self.from_halt = self.state == TagState.HALT
                self.state, self.level = TagState.READY, 0
                return bytes_to_bits(self.atqa)
            if code == REQA and self.state == TagState.IDLE:
                self.state, self.level, self.from_halt = TagState.READY, 0, False
                return bytes_to_bits(self.atqa)
            if self.state in (TagState.READY, TagState.ACTIVE):
                self._back_off()  # a second REQA: the READY tag falls back to IDLE and stays silent
            return None
        if len(bits) < 16:
            if self.state in (TagState.READY, TagState.ACTIVE):
                self._back_off()
            return None
        data = bits_to_bytes(bits)
        cmd = data[0]
        if self.state == TagState.ACTIVE and len(bits) == 32 and tuple(data[:2]) == HLTA:
            if crc_a(data[:2]) == data[2:4]:
                self.state = TagState.HALT
            else:
                self._back_off()
            return None
        if self.state != TagState.READY:
            if self.state == TagState.ACTIVE:
                self._back_off()
            return None
        if cmd not in SEL_CL:
            self._back_off()
            return None
        level = SEL_CL.index(cmd)
        parts = cascade_levels(self.uid)
        if level != self.level or level >= len(parts):
            return None  # a select or anticollision of another cascade level: not for this tag
        cln = [*parts[level], bcc(parts[level])]
        cln_bits = bytes_to_bits(cln)
        nvb = data[1]
        if nvb == 0x70:
            if len(bits) != 72 or crc_a(data[:7]) != data[7:9]:
                self._back_off()
                return None
            if list(data[2:7]) != cln:
                return None  # another tag is being selected
            if level + 1 < len(parts):
                self.level += 1
                sak = self.sak | SAK_UID_INCOMPLETE
            else:
                self.state = TagState.ACTIVE
                sak = self.sak & ~SAK_UID_INCOMPLETE
            return bytes_to_bits(bytes([sak]) + crc_a([sak]))
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if not 0 <= known < 40 or len(bits) != 16 + known:
            self._back_off()
            return None
        if bits[16:] != cln_bits[:known]:
            return None  # its UID does not start with the bits the reader already knows
        return cln_bits[known:]


@dataclass
class _Exchange:
    """A frame on the air: when the answer (or the timer) lands, and what it is."""

    tx_end: float
    done_at: float
    irq: int
    error: int = 0
    fifo: bytes = b""
    last_bits: int = 0
    coll: int | None = None


class VirtualTime(Protocol):
    """The emulated Pi's clock the chip reads and moves (`hardware.emulation.bus.EmulatedHardware` is one)."""

    def now(self) -> float: ...

    def advance(self, seconds: float) -> None: ...


class EmulatedMfrc522:
    """One MFRC522 on one chip select, with an antenna field that tags enter and leave."""

    def __init__(self, hardware: VirtualTime, *, bus: int, device: int, reset_pin: int | None = None,
                 version: int = VERSION_MFRC522_V2) -> None:
        self.hardware = hardware
        self.bus, self.device, self.reset_pin = bus, device, reset_pin
        self.version = version
        self.tags: list[Tag] = []
        self.answering = True  # False: the module is unplugged, MISO reads 0x00
        self.transfers = 0
        self.transfer_bytes = 0
        self._lock = threading.RLock()
        self._fifo = bytearray()
        self._pending: _Exchange | None = None
        self._powered_down = False
        self._reset_registers()

    # -- what a test or a simulated table does --------------------------------------------------

    def place(self, tag: Tag) -> Tag:
        """Put a tag on the antenna: it powers up in IDLE."""
        with self._lock:
            if tag not in self.tags:
                tag.power_up()
                self.tags.append(tag)
        return tag

    def remove(self, tag: Tag) -> None:
        with self._lock:
            if tag in self.tags:
                self.tags.remove(tag)

    def clear(self) -> None:
        with self._lock:
            self.tags.clear()

    def unplug(self) -> None:
        """The module stops answering (a loose wire): every read gives 0x00."""
        with self._lock:
            self.answering = False

    def plug_in(self) -> None:
        """The module answers again, as after a power cycle: every register back to its reset value."""
        with self._lock:
            self.answering = True
            self._reset_registers()
            for tag in self.tags:
                tag.power_up()

    @property
    def field_on(self) -> bool:
        return bool(self.regs[TX_CONTROL] & 0x03) and not self._powered_down

    def reset_counters(self) -> None:
        self.transfers = self.transfer_bytes = 0

    # -- the SPI side ---------------------------------------------------------------------------

    def set_reset_line(self, level: int) -> None:
        """NRSTPD: low is a hard power-down; the rising edge resets the chip."""
        with self._lock:
            if not level:
                self._powered_down = True
            elif self._powered_down:
                self._powered_down = False
                self._reset_registers()
                for tag in self.tags:
                    tag.power_up()

    def transfer(self, data: list[int], speed_hz: int) -> list[int]:
        """One SPI transaction (chip select low for all of `data`)."""
        with self._lock:
            self.transfers += 1
            self.transfer_bytes += len(data)
            self.hardware.advance(len(data) * 8 / max(speed_hz, 1))
            if not self.answering or self._powered_down or not data:
                return [0] * len(data)
            first = data[0]
            address = (first >> 1) & 0x3F
            if first & 0x80:  # read: each byte sent names the register whose value comes back next
                out = [0]
                for byte in data[1:]:
                    out.append(self._read(address))
                    address = (byte >> 1) & 0x3F
                return out
            for value in data[1:]:
                self._write(address, value & 0xFF)
            return [0] * len(data)

    # -- registers ------------------------------------------------------------------------------

    def _reset_registers(self) -> None:
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.regs[VERSION] = self.version
        self._fifo.clear()
        self._pending = None

    def _settle(self) -> None:
        """Apply the outcome of a frame whose time has come."""
        pending = self._pending
        if pending is None or self.hardware.now() < pending.done_at:
            return
        self._pending = None
        self.regs[COMM_IRQ] |= IRQ_TX | pending.irq
        self.regs[ERROR] = pending.error
        if pending.irq & IRQ_RX:
            self._fifo.extend(pending.fifo)
            del self._fifo[64:]
            self.regs[CONTROL] = (self.regs[CONTROL] & ~0x07) | pending.last_bits
            if pending.coll is not None:
                self.regs[COLL] = (self.regs[COLL] & 0x80) | pending.coll
        if pending.error:
            self.regs[COMM_IRQ] |= IRQ_ERR

    def _read(self, reg: int) -> int:
        self._settle()
        if reg == FIFO_DATA:
            return self._fifo.pop(0) if self._fifo else 0
        if reg == FIFO_LEVEL:
            return len(self._fifo)
        if reg == CONTROL:
            return self.regs[CONTROL] & 0x07
        if reg == BIT_FRAMING:
            return self.regs[BIT_FRAMING] & 0x7F
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        self._settle()
        if reg in (ERROR, STATUS1, VERSION, CRC_RESULT_H, CRC_RESULT_L):
            return  # read-only
        if reg == FIFO_LEVEL:
            if value & 0x80:
                self._fifo.clear()
            return
        if reg == FIFO_DATA:
            if len(self._fifo) < 64:
                self._fifo.append(value)
            return
        if reg == COMM_IRQ:
            mask = value & 0x7F
            self.regs[COMM_IRQ] = (self.regs[COMM_IRQ] | mask) if value & 0x80 else (self.regs[COMM_IRQ] & ~mask)
            return
        if reg == DIV_IRQ:
            mask = value & 0x7F
            self.regs[DIV_IRQ] = (self.regs[DIV_IRQ] | mask) if value & 0x80 else (self.regs[DIV_IRQ] & ~mask)
            return
        if reg == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)
            return
        if reg == COMMAND:
            self._command(value)
            return
        if reg == STATUS2:
            self.regs[STATUS2] = value & 0x08 | (self.regs[STATUS2] & ~0x08)
            return
        self.regs[reg] = value
        if reg == BIT_FRAMING and value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
            self._transmit()
        if reg == TX_CONTROL and not self.field_on:
            for tag in self.tags:
                tag.power_up()  # no field, no power: the tag forgets its state

    def _command(self, value: int) -> None:
        command = value & 0x0F
        self.regs[COMMAND] = value & 0x3F
        if command == CMD_SOFT_RESET:
            self._reset_registers()
            return
        self._pending = None  # any new command stops the one running
        if command == CMD_CALC_CRC:
            crc = crc_a(bytes(self._fifo))
            self._fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = crc[0], crc[1]
            self.regs[DIV_IRQ] |= DIV_IRQ_CRC
        elif command == CMD_AUTHENT:  # Crypto1 is not emulated: the authentication fails at once
            self.regs[ERROR] = ERR_PROTOCOL
            self.regs[COMM_IRQ] |= IRQ_IDLE | IRQ_ERR
            self.regs[COMMAND] &= ~0x0F
        elif command == CMD_TRANSMIT:
            self._transmit(receive=False)

    def _timer_s(self) -> float | None:
        if not self.regs[T_MODE] & 0x80:  # TAuto off: the timer never starts by itself
            return None
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / FC_HZ

    def _transmit(self, *, receive: bool = True) -> None:
        framing = self.regs[BIT_FRAMING]
        tx_last = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        data = bytes(self._fifo)
        self._fifo.clear()
        if self.regs[TX_MODE] & 0x80:
            data += crc_a(data)
        nbits = len(data) * 8 - (8 - tx_last if tx_last else 0)
        bits = bytes_to_bits(data, nbits)
        now = self.hardware.now()
        tx_end = now + (nbits + len(data) + 2) * BIT_S
        if not receive:
            self._pending = _Exchange(tx_end=tx_end, done_at=tx_end, irq=IRQ_IDLE)
            return
        answers = [a for tag in (self.tags if self.field_on else []) if (a := tag.receive(bits)) is not None]
        timer = self._timer_s()
        if not answers:
            if timer is None:
                self._pending = _Exchange(tx_end=tx_end, done_at=float("inf"), irq=0)
            else:
                self._pending = _Exchange(tx_end=tx_end, done_at=tx_end + timer, irq=IRQ_TIMER)
            return
        length = max(len(a) for a in answers)
        received: list[int] = []
        collision: int | None = None
        for i in range(length):
            values = {a[i] for a in answers if i < len(a)}
            if collision is not None:
                received.append(0 if not self.regs[COLL] & 0x80 else max(values))
            elif len(values) > 1 or (len(answers) > 1 and any(i >= len(a) for a in answers)):
                collision = i
                received.append(1)
            else:
                received.append(values.pop())
        error = 0
        coll_reg = None
        if collision is not None:
            error |= ERR_COLL
            position = rx_align + collision + 1
            coll_reg = 0x20 if position > 32 else position % 32
        placed = [0] * rx_align + received
        fifo = bits_to_bytes(placed)
        last_bits = len(placed) % 8
        if self.regs[RX_MODE] & 0x80 and len(fifo) >= 3:
            if crc_a(fifo[:-2]) != fifo[-2:]:
                error |= ERR_CRC
            fifo = fifo[:-2]
        rx_bits = len(received) + len(received) // 8 + 2
        done_at = tx_end + FDT_S + rx_bits * BIT_S
        self._pending = _Exchange(tx_end=tx_end, done_at=done_at, irq=IRQ_RX, error=error, fifo=fifo,
                                  last_bits=last_bits, coll=coll_reg)
