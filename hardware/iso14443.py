"""ISO/IEC 14443-3 Type A framing used by both the MFRC522 driver and its emulator: commands, CRC_A, BCC."""

from __future__ import annotations

from collections.abc import Sequence

# Short frames (7 bits) of the request commands.
REQA = 0x26  # wakes tags in IDLE only
WUPA = 0x52  # wakes tags in IDLE and HALT: a tag halted by the previous poll answers again
SHORT_FRAME_BITS = 7

# Select codes of the three cascade levels; the anticollision and select commands share them.
SEL_CL = (0x93, 0x95, 0x97)
NVB_SELECT = 0x70  # "number of valid bits": SEL, NVB and all 40 bits of UID CLn follow
CASCADE_TAG = 0x88  # CT: first byte of a UID CLn when the UID continues at the next level
SAK_UID_INCOMPLETE = 0x04  # SAK bit 3: the UID is not complete, go on at the next cascade level
HLTA = (0x50, 0x00)

UID_CLN_BITS = 40  # four UID bytes and the BCC


def crc_a(data: Sequence[int]) -> bytes:
    """CRC_A of ISO/IEC 14443-3 Annex B (CRC-16/ISO-IEC-14443-3-A, initial value 0x6363), LSB first.

    >>> crc_a(bytes([0x50, 0x00])).hex()
    '57cd'
    """
    crc = 0x6363
    for byte in data:
        mixed = byte ^ (crc & 0xFF)
        mixed = (mixed ^ (mixed << 4)) & 0xFF
        crc = ((crc >> 8) ^ (mixed << 8) ^ (mixed << 3) ^ (mixed >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def bcc(uid_cln: bytes | bytearray | list[int]) -> int:
    """Block check character: the XOR of the four bytes of a UID CLn."""
    value = 0
    for byte in uid_cln:
        value ^= byte
    return value


def cascade_levels(uid: bytes) -> list[bytes]:
    """The UID CLn of each cascade level: 4-byte UIDs need one, 7-byte two, 10-byte three.

    >>> [part.hex() for part in cascade_levels(bytes.fromhex("04a1b2c3d4e5f6"))]
    ['8804a1b2', 'c3d4e5f6']
    """
    if len(uid) == 4:
        return [uid]
    if len(uid) == 7:
        return [bytes([CASCADE_TAG]) + uid[:3], uid[3:]]
    if len(uid) == 10:
        return [bytes([CASCADE_TAG]) + uid[:3], bytes([CASCADE_TAG]) + uid[3:6], uid[6:]]
    raise ValueError(f"a Type A UID has 4, 7 or 10 bytes, not {len(uid)}")


def bytes_to_bits(data: bytes | bytearray | list[int], nbits: int | None = None) -> list[int]:
    """Bits in transmission order (each byte LSB first), cut to `nbits`."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def bits_to_bytes(bits: list[int]) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)
