"""`run --simulate --tracker`: the dealer bot deals and waits for the players' actions from the page."""

from __future__ import annotations

import contextlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.tracker_table import http_json

ROOT = Path(__file__).resolve().parents[2]
STALL_S = 15.0  # the table waits this long for nobody: a stall


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


def _start_practice(folder: Path, hands: int, *extra: str) -> tuple[subprocess.Popen[str], str, str]:
    """`run --simulate --headless --tracker` on a free port, paired: (the process, the page's address, the cookie)."""
    command = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--tracker", "127.0.0.1:0",
               "--hands", str(hands), "--fresh", "--journal", str(folder / "practice.sqlite3"), *extra]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
    return process, base, headers["set-cookie"].split(";")[0]


def _drain(process: subprocess.Popen[str]) -> list[str]:
    """Read the table's output as it comes (a full pipe would block its logging, and so the table)."""
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        lines.extend(process.stdout)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _post(base: str, press: dict, cookie: str) -> None:
    with contextlib.suppress(OSError):  # the table stopped after its last hand
        http_json(base, "/press", press, cookie=cookie)


def _random_press(rng: random.Random, state: dict) -> dict:
    """A press an operator might make for the seat to act: mostly legal, all in often, now and then another
    seat's action out of turn."""
    legal = state["legal"]
    seat = legal["seat"]
    base = {"hand": state["hand"], "count": state["count"]}
    others = [s["seat"] for s in state["seats"] if s["seat"] != seat and s["state"] == "active"]
    roll = rng.random()
    if roll < 0.05 and others:
        return {**base, "name": rng.choice(("call", "check", "fold")), "seat": rng.choice(others)}
    if roll < 0.25 and legal.get("allin_ok"):
        return {**base, "name": "allin", "seat": seat}
    if roll < 0.4 and legal.get("may_raise"):
        amount = rng.randint(legal["min_to"], max(legal["min_to"], min(legal["max_to"], 3 * legal["min_to"])))
        return {**base, "name": legal["word"], "seat": seat, "amount": str(amount)}
    if roll < 0.55 and legal.get("to_call"):
        return {**base, "name": "fold", "seat": seat}
    return {**base, "name": "call" if legal.get("to_call") else "check", "seat": seat}


@pytest.mark.parametrize("hands", [100, pytest.param(400, marks=pytest.mark.soak)])  # about 30 s and 2 min
def test_practice_completes_every_hand_with_random_presses_and_all_ins(tmp_path: Path, hands: int) -> None:
    # Before issue 35 the first all-in hung the table: the bot dealt one street after it, the core waited in a
    # betting round with nobody to act, and the bot waited for that round to close. Now every all-in hand runs
    # out its board to a showdown, and the bot deals the next hand.
    rng = random.Random(35)
    shm = Path("/dev/shm")  # the journal in memory where there is a tmpfs: every press waits for its commit
    folder = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else tmp_path))
    process, base, cookie = _start_practice(folder, hands, "--speed", "1000")
    lines = _drain(process)
    all_ins = showdowns = 0
    try:
        last_change, seen, last_hand = time.monotonic(), None, 0
        while process.poll() is None:
            try:
                status, state, _headers = http_json(base, "/state", cookie=cookie)
            except OSError:  # refused or reset
                break  # the session is over: the table stopped
            if status != 200:
                break
            key = (state["hand"], state["count"], state["phase"], len(state["board"]), state["ruling"] is None)
            if key != seen:
                seen, last_change = key, time.monotonic()
            if state["phase"] == "showdown" and state["hand"] != last_hand:
                last_hand, showdowns = state["hand"], showdowns + 1
            assert time.monotonic() - last_change < STALL_S, f"practice stalled: {state}"
            if state["ruling"] is not None:
                _post(base, {"name": "confirm", "hand": state["hand"], "count": state["count"],
                             "ruling": state["ruling"]["number"]}, cookie)  # the ruling shown, by number
            elif state["legal"] is not None:
                press = _random_press(rng, state)
                all_ins += press["name"] == "allin"
                _post(base, press, cookie)
            else:
                time.sleep(0.01)  # the bot is dealing
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)
    time.sleep(0.2)  # the reader's last lines
    output = "".join(lines)
    assert "Traceback" not in output, output[-2000:]
    played = re.search(r"simulated table: (\d+) hands played", output)
    assert played and int(played.group(1)) == hands, output[-2000:]
    assert all_ins >= hands // 6 and showdowns >= hands // 6


def test_round_done_on_the_tracker_closes_a_round_whose_presses_were_missed(tmp_path: Path) -> None:
    # A real hand can need it: the dealer saw every player act but a press was never entered. The page had
    # Undo and Misdeal only; its Round done button sends round_done, and the core closes the round.
    from tests.tracker_table import TrackerTable  # noqa: PLC0415

    table = TrackerTable(tmp_path).start()
    try:
        cookie = table.pair()
        table.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
        before = table.new_hand()
        assert before.phase == "betting" and before.to_act is not None
        status, state, _ = table.request("/state", cookie=cookie)
        status, body, _ = table.request("/press", {"name": "round_done", "hand": state["hand"],
                                                   "count": state["count"]}, cookie=cookie)
        assert status == 200 and body["taken"], body
        table.wait(lambda: table.settle().phase == "board")
    finally:
        table.stop()


def test_the_practice_tracker_names_the_players_as_the_venue_screen_does(tmp_path: Path) -> None:
    # config/table.toml's [display.seat_names] (Ada, Bea, ...) are the venue screen's and the PHH's names; the
    # tracker showed "Seat 1..6" beside them.
    from firmware_py.daemon.table_config import load_table_config  # noqa: PLC0415

    names = load_table_config(ROOT / "config" / "table.toml", with_display=False).seat_names
    process, base, cookie = _start_practice(tmp_path, 1)
    try:
        state = http_json(base, "/state", cookie=cookie)[1]
        assert {s["seat"]: s["name"] for s in state["seats"]} == {seat: names[seat] for seat in
                                                                  (s["seat"] for s in state["seats"])}
        assert names[1] == "Ada"
    finally:
        process.terminate()
        process.communicate(timeout=20)
