"""Practice on the action tracker in a real browser (Debian's chromium through Playwright): `run --simulate
--headless --tracker` deals, an operator clicks the page's own buttons at random (all-ins often), and every hand
ends and the next is dealt: never "No one to act" with only Undo and Misdeal left (issue 35). The page's Round
done button is there, live while a betting round is open. After every click the page's statements are held
against the journal, replayed into a core of the test's own as the table writes it: the verdict is that core's
answer to the press (taken, ruled, or refused and why), and the seats' stacks and the seat to act are the
journal's wherever the page shows the same hand and action count."""

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
from typing import Any

import pytest

from firmware_py.core import Button, Verdict
from firmware_py.core.engine import Outcome, TableCore
from firmware_py.core.events import PLAYER_ACTIONS
from firmware_py.daemon.journal import Journal
from firmware_py.profiles import load_profiles
from firmware_py.session import SessionReader
from tests.browser import browser, page  # noqa: F401  (the fixtures)

_playwright: Any = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
expect: Any = _playwright.expect
PlaywrightError: Any = _playwright.Error
ROOT = Path(__file__).resolve().parents[2]
STALL_S = 20.0
CLICK_MS = 2000  # a button the next state disabled is looked at again, not waited for


class JournalFollower:
    """The practice table's journal read as it grows (read-only, beside the writer) into a core of the test's
    own: its snapshot, and its answer to each player's press."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.core = TableCore(load_profiles())
        self.reader = SessionReader(source=str(path), base_dir=ROOT / "config")
        self.seq = 0
        self.presses: list[tuple[Button, Outcome]] = []

    def catch_up(self) -> None:
        if not self.path.exists():
            return
        with Journal.read_only(self.path) as journal:
            for row in journal.rows(after=self.seq):
                self.seq = row.seq
                event = self.reader.parse_line(row.line, row.seq)
                if event is None:
                    continue
                outcome = self.core.feed(event)
                if isinstance(event, Button) and event.name in PLAYER_ACTIONS:
                    self.presses.append((event, outcome))


WATCH_VERDICTS = """() => { window.verdicts = []; const v = document.getElementById("verdict");
  new MutationObserver(() => { if (v.textContent) window.verdicts.push(v.textContent); })
    .observe(v, {childList: true, characterData: true, subtree: true}); }"""


def _verdict(page: Any, before: int) -> str:  # noqa: F811
    """The page's answer to the last press (the first words it showed after `before` that are not "Sending"):
    read as they are shown, since a new hand clears them from the page."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        said = [text for text in page.evaluate("() => window.verdicts")[before:] if not text.startswith("Sending")]
        if said:
            return str(said[0])
        time.sleep(0.02)
    raise AssertionError("the page waited for its verdict for 10 s")  # not a Playwright error: never passed over


def _holds(said: str, press: Button, outcome: Outcome) -> None:
    """The page's words for a press are the core's answer to it, as the journal replays it."""
    where = f"the page says {said!r} for {press.name} (journal: {outcome.verdict}, {outcome.refused!r})"
    if outcome.verdict is Verdict.REFUSED:
        assert said == f"Refused: {outcome.refused}", where
        return
    assert re.match(rf"{press.name}\b.*: {outcome.verdict}\b", said), where
    for ruling in outcome.rulings:
        assert ruling.remedy in said, where
    for notice in outcome.notices:
        assert notice.message in said, where


def _same_table(page: Any, follower: JournalFollower) -> bool:  # noqa: F811
    """Once the page shows the state the journal is at (the same hand, action count, phase, board and cards
    dealt), its seats' stacks and the seat to act are the journal's. The page is read first: what it shows was
    journaled before it was pushed, so the journal read after it is as new or newer; the bot deals on meanwhile,
    so a difference must last a second to count. True when the two were found equal."""
    deadline = time.monotonic() + 1.0
    differs: tuple[Any, ...] | None = None
    while time.monotonic() < deadline:
        shown = page.evaluate("() => S")
        follower.catch_up()
        snapshot = follower.core.snapshot()
        want = (snapshot.hand_number, snapshot.actions, str(snapshot.phase), list(snapshot.board),
                {view.seat: len(view.cards) for view in snapshot.seats})
        if shown is not None and want == (shown["hand"], shown["count"], shown["phase"], shown["board"],
                                          {v["seat"]: v["cards"] for v in shown["seats"] if "cards" in v}):
            stacks = {view.seat: view.stack for view in snapshot.seats}
            page_stacks = {v["seat"]: v["stack"] for v in shown["seats"] if v["seat"] in stacks}
            if page_stacks == stacks and shown["to_act"] == snapshot.to_act:
                return True
            differs = (page_stacks, stacks, shown["to_act"], snapshot.to_act)
        else:
            differs = None  # another state: the page or the journal moved on
        time.sleep(0.05)
    assert differs is None, f"the page's seats differ from the journal's for a second: {differs}"
    return False  # the table moved on faster than the page was read: looked at again after the next press


def _click_for(rng: random.Random, page: Any, state: dict) -> None:  # noqa: F811
    """What an operator might click, legal or not: the seat to act's action (all in often), now and then another
    seat's action out of turn (its seat chosen first) or a raise below the minimum."""
    legal = state["legal"]
    others = [v["seat"] for v in state["seats"] if v["seat"] != legal["seat"] and v.get("state") == "active"]
    roll = rng.random()
    if roll < 0.08 and others:
        page.click(f'#seats .seat[data-seat="{rng.choice(others)}"]', timeout=CLICK_MS)
        page.click(rng.choice(("#fold", "#call")), timeout=CLICK_MS)
    elif roll < 0.12 and legal.get("chips") and legal.get("min_to", 0) > 1 and page.locator("#raise").is_enabled():
        page.fill("#amount", f"{legal['min_to'] - 1:,}", timeout=CLICK_MS)
        page.click("#raise", timeout=CLICK_MS)
    elif roll < 0.3 and legal.get("allin_ok") and page.locator("#allin").is_enabled():
        page.click("#allin", timeout=CLICK_MS)
    elif roll < 0.45 and legal.get("may_raise") and page.locator("#raise").is_enabled():
        page.fill("#amount", f"{legal['min_to']:,}", timeout=CLICK_MS)
        page.click("#raise", timeout=CLICK_MS)
    elif roll < 0.6 and legal.get("to_call"):
        page.click("#fold", timeout=CLICK_MS)
    else:
        page.click("#call", timeout=CLICK_MS)


def _let_go(page: Any) -> None:  # noqa: F811
    """A seat still chosen after its press (refused, or held out of turn): chosen no more."""
    chosen = page.locator("#seats .seat.sel")
    if chosen.count():
        chosen.first.click(timeout=CLICK_MS)


@pytest.mark.parametrize("hands", [12, pytest.param(200, marks=pytest.mark.soak)])
def test_practice_in_the_browser_every_hand_ends_and_the_next_is_dealt(
        browser: Any, page: Any, tmp_path: Path, hands: int) -> None:  # noqa: F811
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else tmp_path))
    command = [sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--tracker", "127.0.0.1:0",
               "--hands", str(hands), "--fresh", "--speed", "1000", "--journal", str(folder / "practice.sqlite3")]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    follower = JournalFollower(folder / "practice.sqlite3")
    checked = tables_checked = 0
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
        page.wait_for_function("() => document.getElementById('verdict') !== null")
        page.evaluate(WATCH_VERDICTS)
        rng = random.Random(35)
        seen, last_change, round_done_live = None, time.monotonic(), False
        while process.poll() is None:
            try:
                state = page.evaluate("() => S")
            except PlaywrightError as exc:  # the page reloading, or gone with the table at the session's end
                if process.poll() is not None:
                    break
                assert time.monotonic() - last_change < STALL_S, f"the page cannot be read: {exc}; {page.url}"
                time.sleep(0.2)
                continue
            if state is None:
                time.sleep(0.05)
                continue
            key = (state["hand"], state["count"], state["phase"], len(state["board"]), state["ruling"] is None)
            if key != seen:
                seen, last_change = key, time.monotonic()
            assert time.monotonic() - last_change < STALL_S, f"practice stalled: {page.inner_text('#who')}, {state}"
            said: str | None = None
            try:
                if state["ruling"] is not None and page.locator("#confirm").is_visible():
                    shown = page.evaluate("() => window.verdicts.length")
                    page.click("#confirm", timeout=CLICK_MS)
                    # its answer is read before the next press, so that press's answer is never taken from it
                    confirmed = _verdict(page, shown)
                    assert confirmed.startswith(("confirm: taken", "Refused")), confirmed
                elif state["legal"] is not None and state["phase"] == "betting":
                    round_done_live = round_done_live or page.locator("#rounddone").is_enabled()
                    follower.catch_up()
                    before = len(follower.presses)
                    shown = page.evaluate("() => window.verdicts.length")
                    _click_for(rng, page, state)
                    said = _verdict(page, shown)
                else:
                    time.sleep(0.05)  # the bot is dealing
            except PlaywrightError:  # a button the next state disabled as it was clicked: look again
                if process.poll() is not None:
                    break
            if said is None:
                continue
            # The checks, outside the try: a failed one is never taken for a button that was disabled.
            follower.catch_up()
            if len(follower.presses) > before:  # the press reached the table: its answer is the core's
                press, outcome = follower.presses[before]
                _holds(said, press, outcome)
                checked += 1
            else:  # refused before the table (a stale page's press, the page's own check)
                assert said.startswith(("Refused", "Not sent")), said
            with contextlib.suppress(PlaywrightError):  # the page may go with the table at the session's end
                _let_go(page)
                tables_checked += _same_table(page, follower)
        with contextlib.suppress(PlaywrightError):
            page.goto("about:blank")  # the page's stream closed: the tracker's server stops without waiting on it
        assert process.wait(timeout=180) == 0, "".join(lines)[-2000:]
        assert round_done_live
        assert checked >= hands and tables_checked >= hands // 2, (checked, tables_checked)
        answers = {outcome.verdict for _press, outcome in follower.presses}
        assert answers == set(Verdict), f"not every kind of answer came: {answers}"
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
