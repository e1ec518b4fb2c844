"""The example sessions' regenerator: each session is what its story deals, and one is rewritten alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.sessions import make_sessions

SESSIONS = Path(__file__).resolve().parent / "sessions"


@pytest.mark.parametrize("name", sorted(make_sessions.SESSIONS))
def test_each_example_session_is_what_its_story_deals(name):
    assert not make_sessions.differs(name), f"{name}: `python tests/sessions/make_sessions.py --check`"


def test_the_regenerator_rewrites_the_one_session_named_and_leaves_the_others(tmp_path, capsys):
    for path in SESSIONS.glob("*.jsonl"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "burns_rpl.expected.jsonl").write_text("stale\n")
    (tmp_path / "boxed_card_robert.expected.jsonl").write_text("stale too\n")
    before = {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()}
    assert make_sessions.main(["--check", "--dir", str(tmp_path)]) == 1
    assert capsys.readouterr().out.split() == ["boxed_card_robert:", "would", "change", "burns_rpl:", "would",
                                               "change"]
    assert make_sessions.main(["burns_rpl", "--dir", str(tmp_path)]) == 0
    written = {path.name for path in tmp_path.iterdir() if path.stat().st_mtime_ns != before[path.name]}
    assert written == {"burns_rpl.jsonl", "burns_rpl.expected.jsonl"}
    assert (tmp_path / "burns_rpl.expected.jsonl").read_text() == (SESSIONS / "burns_rpl.expected.jsonl").read_text()
    assert (tmp_path / "boxed_card_robert.expected.jsonl").read_text() == "stale too\n"


def test_an_unknown_session_name_is_refused_with_a_suggestion(capsys):
    with pytest.raises(SystemExit):
        make_sessions.main(["burnz_rpl"])
    assert "did you mean 'burns_rpl'?" in capsys.readouterr().err
