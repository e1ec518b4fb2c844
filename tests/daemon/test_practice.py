"""`run --simulate --tracker`: the dealer bot deals and waits for the players' actions from the page."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _request(base: str, path: str, body: object = None, cookie: str = "") -> tuple[int, Any, dict[str, str]]:
    headers = {"Origin": base, **({"Content-Type": "application/json"} if body is not None else {}),
               **({"Cookie": cookie} if cookie else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, raw, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        status, raw, got = exc.code, exc.read(), dict(exc.headers)
    try:
        return status, json.loads(raw), got
    except ValueError:
        return status, raw.decode(errors="replace"), got


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
        status, _body, headers = _request(base, "/pair", {"code": code})
        assert status == 200
        cookie = headers["set-cookie"].split(";")[0]
        streets: list[str] = []
        for _ in range(400):
            state = _request(base, "/state", cookie=cookie)[1]
            if state["hand"] > 1 or (state["phase"] in ("showdown", "idle") and streets):
                break
            legal = state["legal"]
            if legal is None:
                import time  # noqa: PLC0415

                time.sleep(0.05)  # the bot is dealing
                continue
            if not streets or streets[-1] != state["street"]:
                streets.append(state["street"])
            _request(base, "/press", {"name": "call" if legal["to_call"] else "check", "hand": state["hand"],
                                      "count": state["count"]}, cookie=cookie)
        assert streets[0] == "preflop" and len(streets) >= 2  # the bot dealt a street once the round closed
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0]
    assert "Traceback" not in output and "MISDEAL" not in output and "PREMATURE" not in output, output[-2000:]
