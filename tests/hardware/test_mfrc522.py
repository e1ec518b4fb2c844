"""The MFRC522 poll, run by the real driver on the register-level emulator's SPI devices, handed to it."""

from __future__ import annotations

import pytest

from firmware_py.core.events import Gone, Read
from firmware_py.errors import ReaderError, ReaderNotAnswering
from hardware.emulation.chip import Tag
from hardware.hardware_config import PresenceTiming
from hardware.mfrc522_reader import Mfrc522Reader
from hardware.polling import ReaderThread
from hardware.presence import Presence
from hardware.reader_health import ReaderFault, ReaderRecovered

NTAG = "04A1B2C3D4E5F6"
CLASSIC = "DEADBEEF"


@pytest.fixture
def chip(hw):
    return hw.add_mfrc522(bus=0, device=0, reset_pin=25)


@pytest.fixture
def reader(hw, chip, reader_config):
    with Mfrc522Reader(reader_config(), open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep) as r:
        chip.reset_counters()
        yield r


def test_a_card_left_on_the_antenna_is_seen_on_every_poll(chip, reader):
    chip.place(Tag.ntag(NTAG))
    assert [reader.poll() for _ in range(20)] == [[NTAG]] * 20


def test_an_empty_poll_costs_at_most_20_spi_transfers(chip, reader):
    for _ in range(10):
        chip.reset_counters()
        assert reader.poll() == []
        assert chip.transfers <= 20


def test_seven_byte_and_four_byte_uids_both_read(chip, reader):
    chip.place(Tag.ntag(NTAG))
    assert reader.poll() == [NTAG]
    chip.clear()
    chip.place(Tag.classic(CLASSIC))
    assert reader.poll() == [CLASSIC]


def test_ten_byte_uids_read_through_three_cascade_levels(chip, reader):
    chip.place(Tag(uid=bytes.fromhex("0811223344556677889A")))
    assert reader.poll() == ["0811223344556677889A"]


def test_two_cards_on_one_antenna_are_both_reported(chip, reader):
    chip.place(Tag.ntag(NTAG))
    chip.place(Tag.classic(CLASSIC))
    for _ in range(5):
        assert sorted(reader.poll()) == sorted([NTAG, CLASSIC])
    assert reader.stats.collisions > 0


def test_cards_whose_uids_differ_only_at_cascade_level_2_are_both_reported(chip, reader):
    uids = ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3000000", "04A1B2C3FFFFFF"]
    for uid in uids:
        chip.place(Tag.ntag(uid))
    assert sorted(reader.poll()) == sorted(uids)


def test_a_tag_entering_and_leaving_the_field(chip, reader):
    tag = Tag.classic(CLASSIC)
    assert reader.poll() == []
    chip.place(tag)
    assert reader.poll() == [CLASSIC]
    chip.remove(tag)
    assert reader.poll() == []
    chip.place(tag)
    assert reader.poll() == [CLASSIC]


def test_a_corrupted_answer_is_rejected_and_the_next_poll_reads_the_tag(chip, reader):
    tag = chip.place(Tag.ntag(NTAG))
    tag.corrupt_responses = 2  # the ATQA (any answer will do) and the anticollision answer (BCC fails)
    first = reader.poll()
    assert first in ([], [NTAG])  # the retry inside the poll may already get it right
    assert reader.stats.frame_errors >= 1
    assert reader.poll() == [NTAG]
    assert all(len(uid) in (8, 14) for uid in first)


def test_corrupted_answers_never_give_a_wrong_uid(chip, reader):
    tag = chip.place(Tag.ntag(NTAG))
    for n in range(200):
        tag.corrupt_responses = 1 + n % 5
        assert reader.poll() in ([], [NTAG])


def test_a_tag_that_misses_answers_times_out_without_a_fault(chip, reader):
    tag = chip.place(Tag.ntag(NTAG))
    tag.drop_responses = 3
    results = [reader.poll() for _ in range(9)]
    # A lost ATQA leaves the tag in READY, where the next WUPA sends it to IDLE (6.3.3): each lost
    # answer costs at most two polls, then the tag is read on every poll again.
    assert results[-3:] == [[NTAG]] * 3
    assert reader.stats.timeouts >= 3


def test_a_reader_that_stops_answering_raises_a_clear_error(chip, reader):
    chip.unplug()
    with pytest.raises(ReaderNotAnswering, match=r"shoe.*/dev/spidev0\.0.*VersionReg reads 0x00"):
        reader.poll()


def test_a_missing_spi_device_names_the_device_and_the_fix(hw, reader_config):
    with pytest.raises(ReaderError, match=r"/dev/spidev0\.1 cannot be opened.*dtparam=spi=on"):
        Mfrc522Reader(reader_config(device=1), open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep).open()


def test_a_chip_reset_behind_the_readers_back_is_configured_again(chip, reader):
    chip.place(Tag.ntag(NTAG))
    chip.plug_in()  # a brown-out: registers back to reset values, timer and antenna off
    polls = [reader.poll() for _ in range(3)]
    assert polls[-1] == [NTAG]


def test_closing_a_reader_releases_only_its_own_reset_pin(hw, chip, reader_config):
    other = hw.add_mfrc522(bus=0, device=1, reset_pin=25)
    first = Mfrc522Reader(reader_config(), open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep)
    second = Mfrc522Reader(reader_config("burn", device=1), open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep)
    first.open()
    second.open()
    first.close()
    assert hw.gpio_cleanups == []  # the shared reset line stays up for the other reader
    other.place(Tag.classic(CLASSIC))
    assert second.poll() == [CLASSIC]
    second.close()
    assert hw.gpio_cleanups == [25]


def test_readers_on_several_buses_and_chip_selects(hw, reader_config):
    chips = {(bus, dev): hw.add_mfrc522(bus=bus, device=dev, reset_pin=25) for bus, dev in
             [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2)]}
    readers = []
    for i, (bus, dev) in enumerate(chips):
        chips[(bus, dev)].place(Tag.classic(f"1000000{i}"))
        r = Mfrc522Reader(reader_config(f"board{i + 1}", bus=bus, device=dev, spi_hz=4_000_000),
                          open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep)
        r.open()
        readers.append(r)
    try:
        assert [r.poll() for r in readers] == [[f"1000000{i}"] for i in range(5)]
    finally:
        for r in readers:
            r.close()


class TestReaderThread:
    """Faults and recovery as the daemon sees them: records on the one queue."""

    def make(self, hw, reader, events, debounce_s=0.0):
        presence = Presence("shoe", PresenceTiming(debounce_s=debounce_s, removal_delay_s=0.5),
                            reports_gone=True)
        return ReaderThread(reader, presence, queue=events, clock=hw.now, retry_s=0.2)

    def test_a_resting_card_is_one_read(self, hw, chip, reader, events, drain):
        thread = self.make(hw, reader, events)
        chip.place(Tag.ntag(NTAG))
        for _ in range(50):
            hw.sleep(thread.step())
        reads = drain(events)
        assert [type(e) for e in reads] == [Read]
        assert reads[0].uid == NTAG and reads[0].antenna == "shoe"

    def test_a_reader_that_stops_answering_faults_once_and_recovers(self, hw, chip, reader, events, drain):
        thread = self.make(hw, reader, events)
        chip.place(Tag.ntag(NTAG))
        for _ in range(5):
            hw.sleep(thread.step())
        chip.unplug()
        for _ in range(20):
            hw.sleep(thread.step())
        chip.plug_in()
        for _ in range(5):
            hw.sleep(thread.step())
        records = drain(events)
        kinds = [type(r) for r in records]
        assert kinds == [Read, ReaderFault, ReaderRecovered]  # no Gone: the card never left
        assert "VersionReg reads 0x00" in records[1].message
        assert records[1].reader == "shoe"

    def test_a_card_removed_while_the_reader_was_down_goes_after_recovery(self, hw, chip, reader, events, drain):
        thread = self.make(hw, reader, events)
        tag = chip.place(Tag.ntag(NTAG))
        hw.sleep(thread.step())
        chip.unplug()
        chip.remove(tag)
        for _ in range(10):
            hw.sleep(thread.step())
        chip.plug_in()
        for _ in range(100):
            hw.sleep(thread.step())
        kinds = [type(r) for r in drain(events)]
        assert kinds == [Read, ReaderFault, ReaderRecovered, Gone]


def test_the_driver_takes_its_spi_device_and_gpio_explicitly_no_fake_modules_needed():
    """In a fresh process (conftest installs the fakes into this one): no `spidev`, `RPi` or `mfrc522` import."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    code = """
import sys
from hardware.hardware_config import SpiReaderConfig
from hardware.emulation.bus import EmulatedHardware
from hardware.emulation.chip import Tag
from hardware.mfrc522_reader import Mfrc522Reader
hw = EmulatedHardware()  # never activated: nothing global points at it
hw.add_mfrc522(bus=1, device=2, reset_pin=25).place(Tag.ntag("04A1B2C3D4E5F6"))
config = SpiReaderConfig(antenna="burn", bus=1, device=2, reset_pin=25)
with Mfrc522Reader(config, open_spi=hw.open_spi, gpio=hw.gpio, sleep=hw.sleep) as reader:
    print(reader.poll(), hw.gpio_levels)
print(sorted(n for n in ("spidev", "RPi", "RPi.GPIO", "mfrc522") if n in sys.modules))
"""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env={"PYTHONPATH": str(root)},
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["['04A1B2C3D4E5F6'] {25: 1}", "[]"]
