"""A resume costs the current hand: the core is restored from the checkpoint the journal keeps at each
hand boundary and only the events after it are replayed; a checkpoint that is damaged, foreign or from
other profiles costs a full replay, never a wrong state. Open rulings are announced again."""

from __future__ import annotations

import logging
import pickle
import queue
import random

import pytest

from firmware_py.core import Button, ButtonName, Event
from firmware_py.core.engine import TableCore
from firmware_py.daemon.app import Daemon, Stop, journal_events, load_core_state, replay, state_digest
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.table_config import load_table_config
from firmware_py.simulation.dealer import DealerBot
from tests.daemon.conftest import ROOT

CONFIG = load_table_config(ROOT / "config" / "table.toml", with_display=False)


def _hands(count: int, seed: int = 2) -> list[Event]:
    bot = DealerBot(rng=random.Random(seed), deck=CONFIG.deck(CONFIG.game.in_play), profile=CONFIG.profiles["robert"],
                    seats=CONFIG.game.seats, button=CONFIG.game.button, error_rate=0.0)
    return [event for hand in bot.session(count, t=1.0) for event in hand.events]


def _run(path, events: list[Event]) -> Daemon:
    journal = Journal.open(path)
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
    for event in events:
        inbox.put(event)
    inbox.put(Stop("test"))
    assert daemon.run() == 0
    journal.close()
    return daemon


def _full_replay_digest(path) -> str:
    with Journal.open(path) as journal:
        events = journal_events(journal, base_dir=CONFIG.hardware_file.parent)
    core = TableCore(CONFIG.profiles)
    replay(events, core)
    return state_digest(core.snapshot())


def _tail_of_a_hand(events: list[Event]) -> int:
    """Cut inside the last hand: after its new_hand press and a few events."""
    last = max(i for i, e in enumerate(events) if isinstance(e, Button) and e.name is ButtonName.NEW_HAND)
    return last + 6  # the bot's hands are 40 events or more


def test_a_resume_replays_only_the_events_after_the_last_hand_boundary(tmp_path):
    events = _hands(40)
    cut = _tail_of_a_hand(events)
    path = tmp_path / "j.sqlite3"
    _run(path, events[:cut])  # a checkpoint at the last hand boundary (or the last batch after it)
    _run(path, events[cut: cut + 5])  # five more events of the same hand
    resumed = _run(path, [])
    assert resumed.resumed == cut + 5 + 1  # and the setup line
    assert resumed.replayed_on_resume == 5
    assert state_digest(resumed.core.snapshot()) == _full_replay_digest(path)


def test_undo_after_a_resume_from_a_checkpoint_takes_back_the_last_press(tmp_path):
    events = _hands(10)
    cut = _tail_of_a_hand(events)
    path = tmp_path / "j.sqlite3"
    _run(path, events[:cut])
    undo = Button(t=events[cut - 1].t, name=ButtonName.UNDO)
    resumed = _run(path, [undo])
    assert state_digest(resumed.core.snapshot()) == _full_replay_digest(path)


def _tamper(path, sql: str, *args) -> None:
    journal = Journal.open(path)
    journal._db.execute(sql, args)
    journal.close()


def test_a_damaged_checkpoint_costs_a_full_replay_not_a_wrong_state(tmp_path, caplog):
    events = _hands(12)
    path = tmp_path / "j.sqlite3"
    _run(path, events[: _tail_of_a_hand(events)])
    _tamper(path, "UPDATE checkpoint SET state = zeroblob(length(state))")
    with caplog.at_level(logging.WARNING):
        resumed = _run(path, [])
    assert "checkpoint is damaged" in caplog.text
    assert resumed.replayed_on_resume == resumed.resumed
    assert state_digest(resumed.core.snapshot()) == _full_replay_digest(path)


class _Boom:
    def __reduce__(self):
        import os  # noqa: PLC0415

        return (os.system, ("touch pwned",))


def test_a_checkpoint_holding_anything_but_core_state_is_not_loaded(tmp_path, caplog, monkeypatch):
    monkeypatch.chdir(tmp_path)
    events = _hands(6)
    path = tmp_path / "j.sqlite3"
    _run(path, events[: _tail_of_a_hand(events)])
    import zlib  # noqa: PLC0415

    data = pickle.dumps({"version": 1, "core": _Boom(), "setup": None})
    _tamper(path, "UPDATE checkpoint SET state = ?, crc = ?", data, zlib.crc32(data))
    with caplog.at_level(logging.WARNING):
        resumed = _run(path, [])
    assert not (tmp_path / "pwned").exists()
    assert "cannot be used" in caplog.text
    assert state_digest(resumed.core.snapshot()) == _full_replay_digest(path)


def test_a_checkpoint_of_other_profiles_is_not_used(tmp_path):
    events = _hands(6)
    path = tmp_path / "j.sqlite3"
    _run(path, events[: _tail_of_a_hand(events)])
    _tamper(path, "UPDATE checkpoint SET fingerprint = 'other'")
    resumed = _run(path, [])
    assert resumed.replayed_on_resume == resumed.resumed


def test_rulings_still_open_at_a_kill_are_announced_again_on_restart(tmp_path, caplog):
    events = _hands(3)
    first = max(i for i, e in enumerate(events) if isinstance(e, Button) and e.name is ButtonName.NEW_HAND)
    # The dealer exposes a card mid-deal: the EXPOSED CARD ruling is made, then the table is killed.
    deal = events[first: first + 4]
    exposed = Button(t=deal[-1].t, name=ButtonName.EXPOSED)
    path = tmp_path / "j.sqlite3"
    live = _run(path, [*events[:first], *deal, exposed])
    open_rulings = list(live.core.unconfirmed)
    assert open_rulings, "the exposed card made no ruling"
    heard = []
    journal = Journal.open(path)
    inbox: queue.Queue[object] = queue.Queue()
    daemon = Daemon(CONFIG, journal=journal, clock=lambda: 0.0, events=inbox)
    daemon.on_ruling.append(heard.append)
    inbox.put(Stop("test"))
    with caplog.at_level(logging.INFO):
        assert daemon.run() == 0
    journal.close()
    assert heard == open_rulings == daemon.announced_again
    assert "[open before the restart]" in caplog.text


def test_the_checkpoint_fingerprint_is_the_same_in_every_process():
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from tests.daemon.conftest import environment  # noqa: PLC0415

    code = ("from firmware_py.daemon.app import core_fingerprint; from firmware_py.profiles import load_profiles; "
            "print(core_fingerprint(load_profiles()))")
    prints = set()
    for seed in ("1", "2", "3"):
        env = {**environment(), "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                             check=True)
        prints.add(out.stdout.strip())
    assert len(prints) == 1


class _ByName:
    """An enum member pickled the way Debian bookworm's Python 3.11.2 (the Pi's) pickles it: getattr(class, name)."""

    def __init__(self, kind: object, name: str) -> None:
        self.kind, self.name = kind, name

    def __reduce__(self) -> tuple[object, ...]:
        return getattr, (self.kind, self.name)


def test_a_checkpoint_with_enum_members_pickled_by_name_is_resumed():
    """The arm64 chroot found every restart replaying the whole journal: its checkpoints were refused."""
    data = pickle.dumps({"version": 1, "pressed": [_ByName(ButtonName, "CALL")]})
    assert load_core_state(data)["pressed"] == [ButtonName.CALL]


def test_a_checkpoint_asking_getattr_for_anything_but_a_core_enum_member_is_refused():
    for kind, name in ((ButtonName, "__init__"), (ButtonName, "_member_map_"), (TableCore, "feed")):
        data = pickle.dumps({"version": 1, "x": _ByName(kind, name)})
        with pytest.raises(pickle.UnpicklingError, match="not a member of a core enum"):
            load_core_state(data)
