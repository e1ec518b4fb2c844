"""Recorded sessions replayed through the real rules core, rendered, and their pictures checked."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from pictures import RecordingPainter, count_colour, face_pixels

from display.app import View
from display.cards import FaceRole
from display.display_config import DisplayConfig
from display.layout import table_places, venue_layout
from display.render import render_view
from display.widgets import banner_colours
from firmware_py.cli import main
from firmware_py.core.engine import TableCore
from firmware_py.core.snapshot import PlayerState
from firmware_py.profiles import load_profiles
from firmware_py.session import read_session

SESSIONS = Path(__file__).resolve().parents[1] / "sessions"
EXPECTED = sorted(SESSIONS.glob("*.expected.jsonl"))


def replay(path: Path):
    """(time, snapshot, rulings of that event) after each event of the session."""
    core = TableCore(load_profiles())
    out = []
    for _, event in read_session(path):
        outcome = core.feed(event)
        out.append((event.t, core.snapshot(), outcome.rulings))
    return out


def session_for(expected: Path) -> Path:
    return expected.with_name(expected.name.replace(".expected", ""))


def test_every_expected_session_is_covered():
    kinds = {json.loads(line)["ruling"] for path in EXPECTED
             for line in path.read_text().splitlines() if line.strip()}
    assert len(EXPECTED) >= 5
    assert "misdeal" in kinds


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.name.split(".")[0])
def test_venue_banner_for_each_ruling_and_never_a_hole_card(expected):
    steps = replay(session_for(expected))
    history = [(t, snapshot) for t, snapshot, _ in steps]
    config = DisplayConfig()
    banners = 0
    for t, snapshot, rulings in steps:
        painter = RecordingPainter()
        surface = render_view(View.VENUE, history, at=t, size=(800, 480), config=config,
                              painter=painter)
        assert FaceRole.HOLE not in {role for _, role, _ in painter.faces}
        places = table_places([s.seat for s in snapshot.seats if s.state != PlayerState.EMPTY])
        layout = venue_layout(800, 480, places=places)
        if snapshot.unconfirmed:
            fill, _ = banner_colours(snapshot.unconfirmed[0])
            assert count_colour(surface, fill, layout.banner) > 800 * 480 * 0.05
            banners += 1
        else:
            # No banner: every ivory pixel is on a board card.
            board = sum(face_pixels(surface, place) for place in layout.board)
            assert face_pixels(surface) == board
        if rulings and rulings[0].ruling != "showdown":
            assert snapshot.unconfirmed  # a ruling shows until the dealer confirms
    if any(r.ruling != "showdown" for _, _, rulings in steps for r in rulings):
        assert banners


@pytest.mark.parametrize("expected", EXPECTED[:4], ids=lambda p: p.name.split(".")[0])
def test_broadcast_of_a_session_waits_for_the_delay(expected):
    steps = replay(session_for(expected))
    history = [(t, snapshot) for t, snapshot, _ in steps]
    dealt_at = next((t for t, snap, _ in steps if any(s.cards for s in snap.seats)), None)
    assert dealt_at is not None
    config = DisplayConfig(broadcast_delay_s=30)
    for at in (dealt_at, dealt_at + 29.9):
        painter = RecordingPainter()
        surface = render_view(View.BROADCAST, history, at=at, size=(800, 480), config=config,
                              painter=painter)
        assert painter.cards(FaceRole.HOLE) == []
        assert face_pixels(surface) == 0
    painter = RecordingPainter()
    surface = render_view(View.BROADCAST, history, at=dealt_at + 30, size=(800, 480),
                          config=config, painter=painter)
    assert painter.cards(FaceRole.HOLE)
    assert face_pixels(surface) > 0


@pytest.mark.parametrize("view", ["venue", "broadcast"])
def test_snapshot_command_writes_the_picture(tmp_path, view, capsys):
    session = SESSIONS / "clean_showdown.jsonl"
    out = tmp_path / f"{view}.png"
    status = main(["snapshot", str(session), "--view", view, "--at", "25", "--delay", "10",
                   "--size", "1280x720", "--out", str(out)])
    assert status == 0
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1280, 720)
    assert face_pixels(picture) > 0  # board cards (venue) or hole and board cards (broadcast)
    assert "t=25s" in capsys.readouterr().out


def test_snapshot_command_refuses_an_unset_zero_delay(tmp_path, capsys):
    status = main(["snapshot", str(SESSIONS / "clean_showdown.jsonl"), "--view", "broadcast",
                   "--delay", "0", "--out", str(tmp_path / "x.png")])
    assert status == 2
    err = capsys.readouterr().err
    assert "add --allow-zero-delay" in err and "allow_zero_delay" not in err  # the flag, not a config key
    status = main(["snapshot", str(SESSIONS / "clean_showdown.jsonl"), "--view", "broadcast",
                   "--delay", "0", "--allow-zero-delay", "--out", str(tmp_path / "x.png")])
    assert status == 0


def test_broadcast_command_refuses_zero_delay_naming_the_flag(capsys):
    status = main(["broadcast", "--room", "main", "--table", "t01", "--delay", "0", "--headless",
                   "--broker", "127.0.0.1:9", "--feed-port", "-1", "--seconds", "0"])
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("broadcast: --delay 0 ") and "add --allow-zero-delay" in err
    assert "allow_zero_delay" not in err


def _readme_snapshot_command() -> list[str]:
    readme = (SESSIONS.parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("python -m firmware_py snapshot"):]
    lines = []
    for line in block.splitlines():
        lines.append(line.split("#")[0].strip().rstrip("\\").strip())
        if not line.split("#")[0].rstrip().endswith("\\"):
            break
    return " ".join(lines).split()[3:]  # after `python -m firmware_py`


def test_the_readme_snapshot_example_shows_what_it_says(tmp_path, monkeypatch):
    """The README's broadcast example: the showdown with every hole card, not the delay countdown."""
    args = _readme_snapshot_command()
    assert args[0] == "snapshot" and "--view" in args and args[args.index("--view") + 1] == "broadcast"
    args[args.index("--out") + 1] = str(tmp_path / "b.png")
    monkeypatch.chdir(SESSIONS.parents[1])
    assert main(args) == 0
    picture = pygame.image.load(str(tmp_path / "b.png"))
    assert face_pixels(picture) > picture.get_width() * picture.get_height() // 10  # cards fill the picture


def test_snapshot_reads_the_one_table_config_format(tmp_path, capsys):
    config = SESSIONS.parents[1] / "config" / "table.toml"
    out = tmp_path / "v.png"
    assert main(["snapshot", str(SESSIONS / "clean_showdown.jsonl"), "--config", str(config), "--out", str(out)]) == 0
    old = tmp_path / "display.toml"
    old.write_text('seat_names = { 1 = "Ada" }\n')  # the display-only file snapshot used to take
    assert main(["snapshot", str(SESSIONS / "clean_showdown.jsonl"), "--config", str(old), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(old) in err and "Traceback" not in err


def test_the_shipped_table_file_shows_seat_names_and_blind_levels():
    from firmware_py.daemon.table_config import load_table_config  # noqa: PLC0415

    display = load_table_config(SESSIONS.parents[1] / "config" / "table.toml", with_display=True).screen.display
    assert display.seat_names and len(display.blind_levels) >= 3
    assert display.blind_levels != DisplayConfig().blind_levels  # set in the file, not the default
