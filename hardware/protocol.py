"""The antenna board's serial line protocol (see `serial-protocol.md`): a pure codec, no port, no clock.

    $S,<seq>,<port>,<uid>[;<uid>...]*<crc>     what one antenna port sees in one scan cycle
    $I,<seq>,<board>,<firmware>,<ports>*<crc>  who the board is (at start-up, then every 5 s)
    $E,<seq>,<port>,<code>*<crc>               the board's own fault report for one port

`crc` is CRC-16/CCITT-FALSE (polynomial 1021h, initial FFFFh) of the bytes between `$` and `*`,
as four upper-case hex digits. Lines end in `\\n` (a `\\r` before it is ignored).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from firmware_py.core.cards import normalise_uid
from firmware_py.errors import ProtocolError

MAX_LINE_BYTES = 256
MAX_PORTS = 16
MAX_TAGS_PER_PORT = 8
SEQ_MODULO = 65536
UID_LENGTHS = (8, 14, 20)  # hex digits of 4-, 7- and 10-byte UIDs
HEX_DIGITS = frozenset("0123456789ABCDEFabcdef")  # no separators on the wire: "1A:2B:3C" is 3 bytes


@dataclass(frozen=True, kw_only=True, slots=True)
class Scan:
    """All the tags one antenna port sees in one scan cycle (none is a valid answer)."""

    seq: int
    port: int
    uids: tuple[str, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Hello:
    seq: int
    board: str
    firmware: str
    ports: int


@dataclass(frozen=True, kw_only=True, slots=True)
class PortFailure:
    seq: int
    port: int
    code: str


Message = Scan | Hello | PortFailure


def checksum(body: bytes) -> str:
    """CRC-16/CCITT-FALSE as four hex digits.

    >>> checksum(b"123456789")
    '29B1'
    """
    return f"{binascii.crc_hqx(body, 0xFFFF):04X}"


def encode(message: Message) -> bytes:
    """One line of the protocol, newline included.

    >>> encode(Scan(seq=7, port=1, uids=("04A1B2C3D4E5F6",)))
    b'$S,7,1,04A1B2C3D4E5F6*7C79\\n'
    """
    if isinstance(message, Scan):
        body = f"S,{message.seq},{message.port},{';'.join(message.uids)}"
    elif isinstance(message, Hello):
        body = f"I,{message.seq},{message.board},{message.firmware},{message.ports}"
    else:
        body = f"E,{message.seq},{message.port},{message.code}"
    raw = body.encode("ascii")
    return b"$" + raw + b"*" + checksum(raw).encode("ascii") + b"\n"


def decode(line: bytes) -> Message:
    """Parse one line (with or without its newline); ProtocolError says what is wrong with it."""
    line = line.rstrip(b"\r\n")
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(f"line of {len(line)} bytes, longer than {MAX_LINE_BYTES}")
    if not line.startswith(b"$"):
        raise ProtocolError("line does not start with '$' (noise, or the start of the line was lost)")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ProtocolError("no '*' and four-digit checksum at the end of the line")
    body, given = line[1:star], line[star + 1:]
    try:
        text = body.decode("ascii")
        given_text = given.decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolError("non-ASCII bytes in the line") from None
    if checksum(body) != given_text.upper():
        raise ProtocolError(f"checksum {given_text} does not match the line (expected {checksum(body)}): "
                            "corrupted on the wire")
    fields = text.split(",")
    kind = fields[0]
    if kind == "S" and len(fields) == 4:
        seq, port = _seq(fields[1]), _port(fields[2])
        uids = tuple(_uid(u) for u in fields[3].split(";")) if fields[3] else ()
        if len(uids) > MAX_TAGS_PER_PORT:
            raise ProtocolError(f"{len(uids)} tags on one port, more than {MAX_TAGS_PER_PORT}")
        return Scan(seq=seq, port=port, uids=uids)
    if kind == "I" and len(fields) == 5:
        ports = _number(fields[4], "port count", 1, MAX_PORTS)
        return Hello(seq=_seq(fields[1]), board=fields[2], firmware=fields[3], ports=ports)
    if kind == "E" and len(fields) == 4:
        return PortFailure(seq=_seq(fields[1]), port=_port(fields[2]), code=fields[3])
    raise ProtocolError(f"unknown line kind {kind!r} with {len(fields)} fields (expected S/4, I/5 or E/4)")


def _number(text: str, what: str, low: int, high: int) -> int:
    if not text.isdigit() or len(text) > 5:
        raise ProtocolError(f"{what} {text!r} is not a decimal number")
    value = int(text)
    if not low <= value <= high:
        raise ProtocolError(f"{what} {value} is outside {low}..{high}")
    return value


def _seq(text: str) -> int:
    return _number(text, "sequence number", 0, SEQ_MODULO - 1)


def _port(text: str) -> int:
    return _number(text, "port", 0, MAX_PORTS - 1)


def _uid(text: str) -> str:
    if len(text) not in UID_LENGTHS or any(ch not in HEX_DIGITS for ch in text):
        raise ProtocolError(f"UID {text!r} is not 8, 14 or 20 hex digits (a 4-, 7- or 10-byte card ID)")
    try:
        return normalise_uid(text)
    except ValueError as exc:
        raise ProtocolError(str(exc)) from None
