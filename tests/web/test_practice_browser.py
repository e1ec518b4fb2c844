"""Practice on the action tracker in a real browser (Debian's chromium through Playwright): `run --simulate
--headless --tracker` deals, an operator clicks the page's own buttons at random (all-ins often), and every hand
ends and the next is dealt: never "No one to act" with only Undo and Misdeal left (issue 35). The page's Round
done button is there, live while a betting round is open."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser import browser, page  # noqa: F401  (the fixtures)

expect: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed").expect
ROOT = Path(__file__).resolve().parents[2]
STALL_S = 20.0
CLICK_MS = 2000  # a button the next state disabled is looked at again, not waited for


def _click_for(rng: random.Random, page: Any, state: dict) -> None:  # noqa: F811
    """What an operator might click for the seat to act: the page's own buttons, all in often."""
    legal = state["legal"]
    roll = rng.random()
    if roll < 0.25 and legal.get("allin_ok") and page.locator("#allin").is_enabled():
        page.click("#allin", timeout=CLICK_MS)
    elif roll < 0.4 and legal.get("may_raise") and page.locator("#raise").is_enabled():
        page.fill("#amount", f"{legal['min_to']:,}", timeout=CLICK_MS)
        page.click("#raise", timeout=CLICK_MS)
    elif roll < 0.55 and legal.get("to_call"):
        page.click("#fold", timeout=CLICK_MS)
    else:
        page.click("#call", timeout=CLICK_MS)


@pytest.mark.parametrize("hands", [25, pytest.param(200, marks=pytest.mark.soak)])
def test_practice_in_the_browser_every_hand_ends_and_the_next_is_dealt(
        browser: Any, page: Any, tmp_path: Path, hands: int) -> None:  # noqa: F811
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else tmp_path))
    command = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--tracker", "127.0.0.1:0",
               "--hands", str(hands), "--fresh", "--speed", "1000", "--journal", str(folder / "practice.sqlite3")]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        assert process.stdout is not None
        line = ""
        while "pair with the code" not in line:
            line = process.stdout.readline()
            assert line, "the practice table stopped before the tracker started"
        found = re.search(r"(http://\S+)/ and pair with the code (\d+)", line)
        assert found is not None
        threading.Thread(target=lambda: lines.extend(process.stdout or ()), daemon=True).start()
        url, code = found.groups()
        page.goto(url + "/")
        page.fill("#code", code)
        page.click("#pairbtn")
        expect(page.locator("#pair")).to_be_hidden()
        rng = random.Random(35)
        seen, last_change, round_done_live = None, time.monotonic(), False
        while process.poll() is None:
            try:
                state = page.evaluate("() => S")
            except Exception:  # the page went with the table at the session's end
                break
            if state is None:
                time.sleep(0.05)
                continue
            key = (state["hand"], state["count"], state["phase"], len(state["board"]), state["ruling"] is None)
            if key != seen:
                seen, last_change = key, time.monotonic()
            assert time.monotonic() - last_change < STALL_S, f"practice stalled: {page.inner_text('#who')}, {state}"
            try:
                if state["ruling"] is not None and page.locator("#confirm").is_visible():
                    page.click("#confirm", timeout=CLICK_MS)
                elif state["legal"] is not None and state["phase"] == "betting":
                    round_done_live = round_done_live or page.locator("#rounddone").is_enabled()
                    _click_for(rng, page, state)
                    time.sleep(0.05)  # the verdict and the next state
                else:
                    time.sleep(0.05)  # the bot is dealing
            except Exception:  # a button the next state disabled as it was clicked: look again
                if process.poll() is not None:
                    break
        assert process.wait(timeout=60) == 0
        assert round_done_live
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)
    time.sleep(0.2)
    output = "".join(lines)
    assert "Traceback" not in output, output[-2000:]
    played = re.search(r"simulated table: (\d+) hands played", output)
    assert played and int(played.group(1)) == hands, output[-2000:]
