"""The `replay` command: example sessions through the real CLI, and bad input read as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.cli import main
from firmware_py.core import RulingKind

SESSIONS = Path(__file__).resolve().parent / "sessions"
EXAMPLES = sorted(p for p in SESSIONS.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_py", "replay", *args],
                          capture_output=True, text=True, check=False, timeout=60)


@pytest.mark.parametrize("session", EXAMPLES, ids=lambda p: p.stem)
def test_example_session_replays_to_the_expected_rulings(session: Path) -> None:
    result = replay(str(session))
    assert result.returncode == 0, result.stderr
    expected = session.with_name(session.stem + ".expected.jsonl").read_text()
    assert [json.loads(line) for line in result.stdout.splitlines()] == \
        [json.loads(line) for line in expected.splitlines()]


SPEC_KINDS = {"misdeal", "misdeal_too_late", "exposed_card", "boxed_card", "extra_card", "premature_card",
              "flop_too_many", "burn_missing", "burn_extra", "void_hand", "scrap_card", "dead_hand", "showdown"}


def test_example_sessions_cover_every_ruling_kind() -> None:
    seen = set()
    for path in SESSIONS.glob("*.expected.jsonl"):
        seen |= {json.loads(line)["ruling"] for line in path.read_text().splitlines()}
    assert {k.value for k in RulingKind} >= SPEC_KINDS  # the least set of table-events.md
    assert {k.value for k in RulingKind} == seen


def test_rulings_carry_the_fields_of_the_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SESSIONS / "exposed_card_upt.jsonl")]) == 0
    ruling = json.loads(capsys.readouterr().out.splitlines()[0])
    assert ruling == {"t": ruling["t"], "ruling": "exposed_card", "card": ruling["card"], "seat": 2,
                      "rule": "upt: Hold'em 1", "remedy": ruling["remedy"]}
    assert isinstance(ruling["t"], float) and len(ruling["card"]) == 2


def test_explain_prints_one_line_per_ruling_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--explain", str(SESSIONS / "misdeal_exposed_robert.jsonl")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    assert "MISDEAL" in lines[0] and "seat 3" in lines[0] and "card 7c" in lines[0]
    assert "robert: Misdeals 1(a)" in lines[0] and "reshuffle" in lines[0]


def _session(tmp_path: Path, *lines: str) -> Path:
    decks = Path(__file__).resolve().parents[1] / "config" / "decks"
    setup = json.dumps({"t": 0, "kind": "setup", "profile": "robert", "seats": [1, 2, 3], "button": 1,
                        "decks": [str(decks / "test-red.json")], "in_play": "test-red"})
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join([setup, *lines]) + "\n")
    return path


@pytest.mark.parametrize(("line", "message"), [
    ('{"t": 1, "kind": "button", "name": "new_hand"', "line 2: not valid JSON"),
    ('{"t": 1, "kind": "buton", "name": "new_hand"}', "line 2: 'kind' must be one of"),
    ('{"t": 1, "kind": "button", "name": "fodl"}', "line 2: unknown button 'fodl' (did you mean 'fold'?)"),
    ('{"t": 1, "kind": "read", "antenna": "bord1", "uid": "04AB"}', "unknown antenna 'bord1'"),
    ('{"t": 1, "kind": "read", "antenna": "shoe", "uid": "zz"}', "'zz' is not a tag UID"),
    ('{"kind": "button", "name": "fold"}', "line 2: 't' must be a non-negative number"),
    ('[1, 2]', "line 2: each line must be one JSON object"),
    ('{"t": 1, "kind": "seat", "seat": 11, "status": "out"}', "'seat' must hold seat numbers 1..10"),
])
def test_malformed_line_exits_2_naming_the_line(tmp_path: Path, line: str, message: str) -> None:
    result = replay(str(_session(tmp_path, line)))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_time_going_backwards_is_an_error(tmp_path: Path) -> None:
    path = _session(tmp_path, '{"t": 5, "kind": "button", "name": "new_hand"}',
                    '{"t": 4, "kind": "button", "name": "fold"}')
    result = replay(str(path))
    assert result.returncode == 2 and "line 3: time goes backwards" in result.stderr


def test_rulings_before_a_bad_line_are_still_printed(tmp_path: Path) -> None:
    red = json.loads((Path(__file__).resolve().parents[1] / "config/decks/test-red.json").read_text())
    first = next(uid for uid, card in red["cards"].items() if card == "As")
    path = _session(tmp_path, '{"t": 1, "kind": "button", "name": "new_hand"}',
                    json.dumps({"t": 2, "kind": "read", "antenna": "shoe", "uid": first}),
                    '{"t": 3, "kind": "button", "name": "exposed"}', "garbage")
    result = replay(str(path))
    assert result.returncode == 2 and "line 5" in result.stderr
    assert json.loads(result.stdout)["ruling"] == "misdeal"


def test_unknown_profile_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    decks = Path(__file__).resolve().parents[1] / "config" / "decks"
    path.write_text(json.dumps({"t": 0, "kind": "setup", "profile": "roberts", "seats": [1, 2], "button": 1,
                                "decks": [str(decks / "test-red.json")], "in_play": "test-red"}) + "\n")
    result = replay(str(path))
    assert result.returncode == 2 and "line 1: unknown profile 'roberts'" in result.stderr


def test_missing_session_file(tmp_path: Path) -> None:
    result = replay(str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2 and "cannot open the session file" in result.stderr


def test_broken_deck_registry_names_file_entry_and_reason(tmp_path: Path) -> None:
    deck = tmp_path / "bad.json"
    deck.write_text(json.dumps({"deck": "bad", "back": "red", "cards": {"04AA": "As", "04:bb": "Zz"}}))
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"t": 0, "kind": "setup", "profile": "robert", "seats": [1, 2], "button": 1,
                                "decks": ["bad.json"], "in_play": "bad"}) + "\n")
    result = replay(str(path))
    assert result.returncode == 2
    assert "bad.json" in result.stderr and "entry '04:bb'" in result.stderr and "'Zz' is not a card" in result.stderr


def test_notices_report_unknown_tags_on_stderr(tmp_path: Path) -> None:
    # On the muck (not a card out of the shoe): a notice for the operator, not a ruling.
    path = _session(tmp_path, '{"t": 1, "kind": "button", "name": "new_hand"}',
                    '{"t": 2, "kind": "read", "antenna": "muck", "uid": "DE:AD:BE:EF"}')
    result = replay("--notices", str(path))
    assert result.returncode == 0 and result.stdout == ""
    assert "line 3: unknown tag DEADBEEF on antenna muck" in result.stderr


def test_an_unknown_tag_out_of_the_shoe_is_a_ruling_naming_the_antenna(tmp_path: Path) -> None:
    path = _session(tmp_path, '{"t": 1, "kind": "button", "name": "new_hand"}',
                    '{"t": 2, "kind": "read", "antenna": "shoe", "uid": "DE:AD:BE:EF"}')
    result = replay(str(path))
    assert result.returncode == 0
    ruling = json.loads(result.stdout)
    assert ruling["ruling"] == "unknown_card" and "out of the shoe with tag DEADBEEF" in ruling["remedy"]
