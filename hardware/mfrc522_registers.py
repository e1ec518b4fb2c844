"""The MFRC522's registers, commands and bits (NXP MFRC522 datasheet, section 9), shared by the driver and the emulator.

One table, so the driver and the emulated chip cannot drift apart on an address or a flag.
"""

from __future__ import annotations

FC_HZ = 13_560_000  # the carrier
BIT_S = 128 / FC_HZ  # one bit at 106 kbit/s
FDT_S = 1236 / FC_HZ  # ISO 14443-3 6.2.1.1: the PICC answers the anticollision commands this soon

# Registers (datasheet table "MFRC522 register overview").
COMMAND, COMM_IEN, DIV_IEN, COMM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(1, 9)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(9, 15)
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = range(0x11, 0x16)
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

VERSION_MFRC522_V2 = 0x92

# Commands (CommandReg bits 3..0).
CMD_IDLE, CMD_CALC_CRC, CMD_TRANSMIT, CMD_RECEIVE = 0x00, 0x03, 0x04, 0x08
CMD_TRANSCEIVE, CMD_AUTHENT, CMD_SOFT_RESET = 0x0C, 0x0E, 0x0F
POWER_DOWN = 0x10  # CommandReg: the soft power-down bit (set while a soft reset runs)

# ComIrqReg, DivIrqReg, ErrorReg and CollReg bits.
IRQ_TX, IRQ_RX, IRQ_IDLE, IRQ_ERR, IRQ_TIMER = 0x40, 0x20, 0x10, 0x02, 0x01
DIV_IRQ_CRC = 0x04
ERR_BUFFER_OVFL, ERR_COLL, ERR_CRC, ERR_PARITY, ERR_PROTOCOL = 0x10, 0x08, 0x04, 0x02, 0x01
COLL_POS_NOT_VALID = 0x20


def write_address(register: int) -> int:
    """The SPI address byte that writes a register (datasheet 8.1.2.3: bit 7 clear, address in bits 6..1)."""
    return (register << 1) & 0x7E


def read_address(register: int) -> int:
    """The SPI address byte that reads a register (bit 7 set).

    >>> hex(read_address(VERSION))
    '0xee'
    """
    return write_address(register) | 0x80
