"""`run --simulate --tracker`: the dealer bot deals and waits for the players' actions from the page."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from tests.tracker_table import http_json

ROOT = Path(__file__).resolve().parents[2]


def test_practice_the_bot_deals_and_waits_for_the_trackers_presses(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--tracker", "127.0.0.1:0",
               "--hands", "2", "--fresh", "--journal", str(tmp_path / "practice.sqlite3")]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = ""
        while "pair with the code" not in line:
            line = process.stdout.readline()
            assert line, "the practice table stopped before the tracker started"
        found = re.search(r"(http://\S+)/ and pair with the code (\d+)", line)
        assert found is not None
        base, code = found.groups()
        status, _body, headers = http_json(base, "/pair", {"code": code})
        assert status == 200
        cookie = headers["set-cookie"].split(";")[0]
        streets: list[str] = []
        for _ in range(600):
            state = http_json(base, "/state", cookie=cookie)[1]
            if state["hand"] > 1 or (state["phase"] in ("showdown", "idle") and streets):
                break
            legal = state["legal"]
            if legal is None:
                time.sleep(0.05)  # the bot is dealing
                continue
            if not streets or streets[-1] != state["street"]:
                streets.append(state["street"])
            http_json(base, "/press", {"name": "call" if legal["to_call"] else "check", "hand": state["hand"],
                                      "count": state["count"]}, cookie=cookie)
        # The bot dealt each street once the round closed, to the river even where its own script
        # had the hand end sooner (everyone calling and checking here): the hand reached a showdown.
        assert streets == ["preflop", "flop", "turn", "river"]
        assert state["phase"] == "showdown" and len(state["board"]) == 5
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0]
    assert "Traceback" not in output and "MISDEAL" not in output and "PREMATURE" not in output, output[-2000:]
