"""The bad-beat session (`tests/sessions/jackpot_bad_beat_wfp.jsonl`) played through the real daemon with the
[jackpots] extension attached through its port: the jackpot tests' one table."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.port import DaemonPort
from firmware_py.jackpots import EXTENSION, JackpotsConfig, JackpotWatch
from firmware_py.session import SessionReader
from tests.daemon.test_resume_at_scale import CONFIG

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests" / "sessions" / "jackpot_bad_beat_wfp.jsonl"
HOUSE = ROOT / "config" / "jackpots.toml"


def play_bad_beat(journal_path: Path, config: JackpotsConfig) -> JackpotWatch:
    """Every event of the session through a daemon journaling to `journal_path`; the watch, once it stopped."""
    events = [e for _n, e in SessionReader(base_dir=SESSION.parent).read(SESSION.read_bytes().splitlines())]
    journal = Journal.open(journal_path)
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
    watch = EXTENSION.setup(DaemonPort(daemon), config)
    assert isinstance(watch, JackpotWatch)
    for event in events:
        inbox.put(event)
    inbox.put(Stop("test"))
    runner = threading.Thread(target=daemon.run)
    runner.start()
    runner.join(60)
    journal.close()
    return watch
