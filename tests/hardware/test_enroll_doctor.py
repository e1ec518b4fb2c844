"""Enrollment and doctor, end to end through the command modules against the emulated table."""

from __future__ import annotations

import argparse
import json
import queue
import time
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.commands import doctor, enroll
from firmware_py.core.events import Read
from firmware_py.session import load_deck
from hardware.doctor import check_reader
from hardware.emulation.emulated_table import EmulatedTable
from hardware.enrollment import ENROLL_ORDER, Enrollment
from hardware.hardware_config import load_hardware_config
from hardware.rig import start_sensors

CONFIG = """
[presence]
debounce_s = 0.0
removal_delay_s = 0.3
poll_interval_s = 0.005
[[reader]]
antenna = "shoe"
bus = 0
device = 0
reset_pin = 25
[serial]
port = "/dev/null-replaced-by-the-emulation"
antennas = ["board1", "muck"]
[panel]
hold_s = 0.2
buzzer_pin = 12
[panel.buttons]
fold = 5
misdeal = 23
"""


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "hardware.toml"
    path.write_text(CONFIG)
    return path


def parse(module, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    return parser.parse_args(argv)


@pytest.mark.parametrize("antenna", ["shoe", "board1"])
def test_enroll_runs_end_to_end_on_the_emulated_table(config_path, tmp_path, capsys, antenna):
    out = tmp_path / "decks" / "green.json"
    args = parse(enroll, ["--deck", "green", "--back", "green", "--out", str(out), "--config", str(config_path),
                          "--antenna", antenna, "--emulate", "--card-timeout", "10"])
    assert enroll.run(args) == 0
    deck = load_deck(out)
    assert deck.missing == () and len(deck.cards) == 54
    printed = capsys.readouterr().out
    assert "[ 1/54] next: 2s - place it" in printed
    # X1 and X2 are the deck's codes for its jokers: the prompt says so
    assert "[53/54] next: X1 (the first joker) - place it" in printed
    assert "[54/54] next: X2 (the second joker) - place it" in printed


def _enroll_with(operator, enrollment, config_path, antenna="shoe", timeout=10.0):
    config = load_hardware_config(config_path)
    with EmulatedTable(config) as table:
        events: queue.Queue[object] = queue.Queue()
        sensors = start_sensors(table.config, queue=events, antennas={antenna}, sleep=table.hardware.sleep,
                                open_spi=table.hardware.open_spi, gpio=table.hardware.gpio)
        lines: list[str] = []

        class Out:
            def write(self, text: str) -> None:
                lines.append(text)

            def flush(self) -> None:
                pass

        try:
            status = enroll.run_enrollment(enrollment, events, antenna=antenna, out=Out(),
                                           on_prompt=lambda card: operator(table, card), card_timeout_s=timeout)
        finally:
            sensors.stop()
    return status, "".join(lines)


def test_enroll_refuses_a_uid_already_enrolled_and_resumes_after_an_interruption(config_path, tmp_path):
    out = tmp_path / "red.json"
    uids = iter(f"04{i:012X}" for i in range(1, 1000))
    state = {"previous": None, "count": 0}

    def operator(table, card):
        state["count"] += 1
        if state["previous"]:
            table.remove("shoe", state["previous"])
        if state["count"] == 3:  # the dealer scans the first card again
            table.place("shoe", "04000000000001")
            time.sleep(0.1)
            table.remove("shoe", "04000000000001")
        if state["count"] == 6:
            raise KeyboardInterrupt  # the operator walks away
        uid = next(uids)
        table.place("shoe", uid)
        state["previous"] = uid

    enrollment = Enrollment.open(deck="red", back="red", path=out)
    with pytest.raises(KeyboardInterrupt):
        _enroll_with(operator, enrollment, config_path)
    saved = json.loads(out.read_text())
    assert len(saved["cards"]) == 5
    assert saved["cards"]["04000000000001"] == "2s"

    resumed = Enrollment.open(deck="red", back="red", path=out)
    assert resumed.expected == ENROLL_ORDER[5]
    refused = resumed.offer("04000000000001")
    assert refused.message.startswith("UID 04000000000001 is already enrolled in this deck as 2s")
    state["count"] = 100
    status, text = _enroll_with(operator, resumed, config_path)
    assert status == 0, text
    assert load_deck(out).missing == ()


def test_enroll_refuses_a_card_of_another_deck(tmp_path):
    other = tmp_path / "blue.json"
    other.write_text(json.dumps({"deck": "blue", "back": "blue", "cards": {"04AAAAAAAAAAAA": "As"}}))
    enrollment = Enrollment.open(deck="red", back="red", path=tmp_path / "red.json", others=[other])
    outcome = enrollment.offer("04AAAAAAAAAAAA")
    assert not outcome.accepted and "deck 'blue' (blue.json) as As" in outcome.message


def test_enroll_explains_a_bad_antenna_and_a_bad_config(config_path, tmp_path, capsys):
    args = parse(enroll, ["--deck", "x", "--back", "red", "--out", str(tmp_path / "x.json"), "--config",
                          str(config_path), "--antenna", "bord1"])
    assert enroll.run(args) == 2
    assert "did you mean 'board1'" in capsys.readouterr().err
    broken = tmp_path / "broken.toml"
    broken.write_text(CONFIG.replace("reset_pin", "reset_pim"))
    assert main(["enroll", "--deck", "x", "--back", "red", "--config", str(broken)]) == 2  # the CLI words it
    assert "reset_pim: unknown key (did you mean 'reset_pin'?)" in capsys.readouterr().err


def test_doctor_runs_end_to_end_on_the_emulated_table(config_path, capsys):
    args = parse(doctor, ["--config", str(config_path), "--emulate", "--tags", "--panel"])
    assert doctor.run(args) == 0
    printed = capsys.readouterr().out
    for expected in ["PASS  reader shoe: /dev/spidev0.0 present", "PASS  reader shoe: VersionReg 0x92",
                     "PASS  reader shoe: read tag", "valid lines, 0 bad", "PASS  button fold: GPIO 5 pressed",
                     "PASS  button misdeal", "PASS  buzzer: GPIO 12 confirmed", "0 failed"]:
        assert expected in printed


def test_doctor_reports_a_dead_reader_with_the_fix(config_path, capsys):
    config = load_hardware_config(config_path)
    with EmulatedTable(config, realtime=False) as table:
        table.chips["shoe"].unplug()
        hw = table.hardware
        checks = check_reader(config.readers[0], spi_exists=hw.spi_device_exists, open_spi=hw.open_spi,
                              gpio=hw.gpio, sleep=hw.sleep, prompt=None, clock=hw.now)
        table.hardware.missing_devices.add((0, 0))
        missing = check_reader(config.readers[0], spi_exists=hw.spi_device_exists, open_spi=hw.open_spi,
                               gpio=hw.gpio, sleep=hw.sleep, prompt=None)
    assert checks[-1].ok is False and "VersionReg reads 0x00" in checks[-1].detail
    assert "check 3.3 V" in checks[-1].line()
    assert missing[0].ok is False and "dtparam=spi=on" in missing[0].fix


def test_the_emulated_table_places_tags_on_spi_and_serial_antennas(config_path):
    config = load_hardware_config(config_path)
    with EmulatedTable(config) as table:
        events: queue.Queue[object] = queue.Queue()
        sensors = start_sensors(table.config, queue=events, sleep=table.hardware.sleep,
                                open_spi=table.hardware.open_spi, gpio=table.hardware.gpio)
        try:
            table.place("shoe", "04A1B2C3D4E5F6")
            table.place("muck", "DEADBEEF")
            seen: set[tuple[str, str]] = set()
            deadline = time.monotonic() + 5
            while len(seen) < 2 and time.monotonic() < deadline:
                try:
                    item = events.get(timeout=0.1)
                except queue.Empty:
                    continue
                if isinstance(item, Read):
                    seen.add((item.antenna, item.uid))
        finally:
            sensors.stop()
    assert seen == {("shoe", "04A1B2C3D4E5F6"), ("muck", "DEADBEEF")}
