"""The daemon with `[checkin]` (docs/checkin.md): a player card read by a reader is a `checkin` event, journaled as
one, the player's name on the seat; the director's draw and a player at the wrong seat ruled at the deal."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

from firmware_py.core import Button, ButtonName, Draw, Gone, Read, Ruling, RulingKind
from firmware_py.daemon import app
from firmware_py.daemon.app import Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.port import DaemonPort
from firmware_py.daemon.table_config import load_table_config
from firmware_py.extensions import attach_extensions
from firmware_py.session import load_deck

ROOT = Path(__file__).resolve().parents[2]
RED = load_deck(ROOT / "config" / "decks" / "test-red.json")
ANN, BO = "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"


def _table(tmp_path: Path) -> Path:
    (tmp_path / "players.toml").write_text(f'[players.P1]\nname = "Ann Lee"\nuid = "{ANN}"\n'
                                          f'[players.P2]\nname = "Bo"\nuid = "{BO}"\n')
    config = ROOT / "config"
    path = tmp_path / "table.toml"
    path.write_text(f"""
[table]
profile = "wfp"
seats = [1, 2, 3]
button = 1
decks = ["{config}/decks/test-red.json", "{config}/decks/test-blue.json"]
in_play = "test-red"
hardware = "{config}/hardware.toml"
profiles = "{config}/profiles"

[checkin]
players = "players.toml"
""")
    return path


def test_a_player_card_read_by_the_daemon_is_journaled_as_a_check_in_and_a_wrong_seat_is_ruled(tmp_path,
                                                                                               monkeypatch) -> None:
    monkeypatch.setattr(app, "IDLE_WAKE_S", 0.02)
    config = load_table_config(_table(tmp_path), with_display=False)
    journal = Journal.open(tmp_path / "journal.sqlite3")
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(config, journal=journal, clock=lambda: 1.0, events=inbox)
    attach_extensions(DaemonPort(daemon))
    rulings: list[Ruling] = []
    ruled = threading.Event()

    def heard(ruling: Ruling) -> None:
        rulings.append(ruling)
        ruled.set()

    daemon.on_ruling.append(heard)
    runner = threading.Thread(target=daemon.run)
    runner.start()
    try:
        inbox.put(Draw(t=1.0, seats=((1, "P1"), (2, "P2"), (3, "P3"))))
        inbox.put(Read(t=1.0, antenna="shoe", uid=ANN))  # at the shoe between hands: Ann's drawn seat, 1
        inbox.put(Gone(t=1.0, antenna="shoe", uid=ANN))  # (a player card leaving: nobody's card)
        inbox.put(Read(t=1.0, antenna="seat3", uid=BO))  # Bo's card at seat 3: Bo is drawn to seat 2
        inbox.put(Button(t=1.0, name=ButtonName.NEW_HAND))
        for uid in list(RED.cards)[:6]:
            inbox.put(Read(t=1.0, antenna="shoe", uid=uid))
        deadline = time.monotonic() + 30
        while len(rulings) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        inbox.put(Stop("test"))
        runner.join(30)
    lines = [row.line for row in journal.rows()]
    journal.close()
    checkins = [line for line in lines if '"kind": "checkin"' in line]
    assert len(checkins) == 2 and '"player": "P1"' in checkins[0] and '"seat"' not in checkins[0]
    assert '"player": "P2"' in checkins[1] and '"seat": 3' in checkins[1]
    assert not [line for line in lines if ANN in line or BO in line]  # never a card's read
    assert sorted((r.ruling, r.seat, r.cause) for r in rulings) == [
        (RulingKind.DEAD_HAND, 2, "wrong_seat"), (RulingKind.DEAD_HAND, 3, "not_checked_in")]
    assert dict(daemon.core.snapshot().names) == {1: "Ann Lee", 3: "Bo"}
