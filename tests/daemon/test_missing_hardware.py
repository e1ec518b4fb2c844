"""No Pi, no reader library, a deck file short a card: each gets one clear message and no traceback.

These run the real commands as a user would on a machine without the hardware (this one: RPi.GPIO,
spidev and lgpio are absent, so the mfrc522 package cannot import and gpiozero has no pin factory).
"""

from __future__ import annotations

import json
import logging
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

from firmware_py.commands.enroll import run_enrollment
from hardware.enrollment import Enrollment
from hardware.hardware_config import PresenceTiming
from hardware.polling import ReaderThread
from hardware.presence import Presence
from hardware.reader_health import ReaderFault
from tests.daemon.conftest import ROOT, daemon_command, environment, run_daemon


def _no_pi() -> bool:
    """In a fresh process: the hardware tests install fake RPi.GPIO modules into this one."""
    probe = subprocess.run([sys.executable, "-c", "import RPi.GPIO"], capture_output=True, check=False)
    return probe.returncode != 0


needs_no_pi = pytest.mark.skipif(not _no_pi(), reason="RPi.GPIO is importable here: this is (or fakes) a Pi")


@needs_no_pi
def test_enroll_without_a_pi_names_emulate_and_stops_instead_of_waiting_for_ever(tmp_path):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "firmware_py", "enroll", "--deck", "casino", "--back", "red",
                             "--out", str(tmp_path / "casino.json"), "--fault-timeout", "1"],
                            cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=60, check=False)
    assert time.monotonic() - started < 30
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "cannot import the mfrc522 package" in result.stdout
    assert "--emulate" in result.stdout and "did not come back in 1 s" in result.stdout
    assert result.stdout.count("reader fault:") == 1


def test_enroll_gives_up_on_a_reader_that_stays_faulty(tmp_path):
    enrollment = Enrollment.open(deck="casino", back="red", path=tmp_path / "casino.json", others=[])
    events: queue.Queue[object] = queue.Queue()
    for _ in range(3):  # the fault latch posts once; repeats would not restart the wait
        events.put(ReaderFault(t=0.0, reader="shoe", message="not answering"))

    class Out:
        text = ""

        def write(self, s: str) -> None:
            Out.text += s

        def flush(self) -> None:
            pass

    assert run_enrollment(enrollment, events, antenna="shoe", out=Out(), fault_timeout_s=0.2) == 1  # type: ignore[arg-type]
    assert "did not come back in 0.2 s" in Out.text and "--emulate" in Out.text


@needs_no_pi
def test_run_without_hardware_logs_one_line_per_fault_then_retries_quietly(tmp_path):
    process = subprocess.Popen(daemon_command("--headless", "--journal", str(tmp_path / "j.sqlite3")), cwd=ROOT,
                               env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Each fault's line first (however slowly a loaded machine starts the daemon), then ten retries of
    # each reader (every 0.5 s) that must log nothing more
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout or ()), daemon=True)
    reader.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(any(f"fault {part}:" in line for line in list(lines))
                                                  for part in ("reader shoe", "reader burn", "panel")):
        time.sleep(0.1)
    time.sleep(5)
    process.send_signal(signal.SIGTERM)
    process.wait(30)
    reader.join(30)
    output = "".join(lines)
    assert "Traceback" not in output and "KeyError" not in output
    for component in ("reader shoe", "reader burn", "panel"):
        assert sum(f"fault {component}:" in line for line in output.splitlines()) == 1, output
    assert "run --simulate" in output  # what to do on a machine without the hardware


def test_a_reader_driver_bug_is_logged_with_its_traceback_once_not_every_retry(caplog):
    class Broken:
        name = "shoe"

        def open(self) -> None:
            raise KeyError("mfrc522.MFRC522")

        def recover(self) -> None: ...

        def poll(self) -> list[str]:
            return []

        def close(self) -> None: ...

    presence = Presence("shoe", PresenceTiming(debounce_s=0.05, removal_delay_s=0.5))
    thread = ReaderThread(Broken(), presence, queue=queue.Queue(), clock=lambda: 0.0)
    with caplog.at_level(logging.DEBUG, logger="hardware.polling"):
        for _ in range(5):
            thread.step()
    assert sum(r.exc_info is not None for r in caplog.records) == 1


def test_a_deck_file_short_a_card_is_a_clear_config_error_for_the_simulated_table(tmp_path):
    config = tmp_path / "config"
    shutil.copytree(ROOT / "config", config)
    deck_file = config / "decks" / "test-red.json"
    deck = json.loads(deck_file.read_text())
    uid = next(uid for uid, card in deck["cards"].items() if card == "7s")
    del deck["cards"][uid]
    deck_file.write_text(json.dumps(deck))
    result = run_daemon("--simulate", "--headless", "--hands", "2", "--fresh", "--config", str(config / "table.toml"),
                        "--journal", str(tmp_path / "sim.sqlite3"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert f"{deck_file}: deck 'test-red' lacks 1 card (7s)" in result.stderr
    assert "enroll --deck test-red" in result.stderr


def test_rpi_lgpio_off_a_pi_is_a_reader_fault_not_a_crash(monkeypatch):
    """rpi-lgpio's RPi.GPIO raises RuntimeError when imported off a Pi (seen in the arm64 chroot)."""
    from firmware_py.errors import HardwareError  # noqa: PLC0415
    from hardware import mfrc522_reader  # noqa: PLC0415

    def off_a_pi(name):
        raise RuntimeError("This module can only be run on a Raspberry Pi!")

    monkeypatch.setattr(mfrc522_reader.importlib, "import_module", off_a_pi)
    with pytest.raises(HardwareError, match=r"cannot import the mfrc522 package .*only be run on a Raspberry Pi"):
        mfrc522_reader._mfrc522_module("shoe")
