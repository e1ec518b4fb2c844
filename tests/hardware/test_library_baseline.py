"""The `mfrc522` package's own polling against the same emulator: the faults our poll fixes.

These pin down why `hardware.mfrc522_reader` does not use `SimpleMFRC522`; if a new release of
the package fixes one, its test here fails and the note in `hardware/README.md` needs updating.
"""

from __future__ import annotations

import pytest
from mfrc522 import SimpleMFRC522  # the fakes are installed by conftest, which pytest imports first

from hardware.emulation.chip import Tag


@pytest.fixture
def simple(hw):
    chip = hw.add_mfrc522(bus=0, device=0, reset_pin=22)  # SimpleMFRC522 is fixed to bus 0, device 0
    reader = SimpleMFRC522()
    chip.reset_counters()
    return reader, chip


def test_library_sees_a_resting_card_only_every_other_poll(simple):
    reader, chip = simple
    chip.place(Tag.classic("DEADBEEF"))
    seen = [reader.read_id_no_block() is not None for _ in range(6)]
    assert seen == [True, False, True, False, True, False]


def test_library_empty_poll_costs_about_2000_spi_transfers(simple):
    reader, chip = simple
    assert reader.read_id_no_block() is None
    assert chip.transfers > 2000


def test_library_reads_a_seven_byte_uid_as_the_cascade_tag_and_three_bytes(simple):
    reader, chip = simple
    chip.place(Tag.ntag("04A1B2C3D4E5F6"))
    number = reader.read_id_no_block()
    assert number is not None
    assert f"{number:010X}".startswith("8804A1B2")  # CT + 3 UID bytes + BCC, not the UID


def test_library_gives_nothing_for_two_cards_on_one_antenna(simple):
    reader, chip = simple
    chip.place(Tag.classic("DEADBEEF"))
    chip.place(Tag.classic("12345678"))
    assert [reader.read_id_no_block() for _ in range(4)] == [None] * 4


def test_library_close_resets_every_gpio_of_the_process(hw, simple):
    reader, _ = simple
    reader.READER.Close_MFRC522()
    assert hw.gpio_cleanups == [None]  # GPIO.cleanup() with no pin: every pin, the panel's too
