"""The producer's choices on the page: reveal policies live, chips in big blinds, the ruling banner, the theme."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser import open_paired
from tests.overlay.conftest import Clock
from tests.overlay.hand import ROOT, hand_messages
from tests.overlay.page import PAIRED, read, wait_seq
from tests.overlay.test_overlay_delay import post
from tests.overlay.test_overlay_hand import FELT

DELAY_S = 10.0


def keep(page: Any, name: str) -> None:
    """With OVERLAY_SHOTS=DIR, the picture over a felt backdrop (docs/img/make.sh)."""
    if os.environ.get("OVERLAY_SHOTS"):
        # A constructed style sheet, not a <style> tag: the page's CSP (no 'unsafe-inline') refuses the latter.
        page.evaluate("css => { const felt = new CSSStyleSheet(); felt.replaceSync(css); "
                      "document.adoptedStyleSheets = [...document.adoptedStyleSheets, felt]; }", FELT)
        page.screenshot(path=str(Path(os.environ["OVERLAY_SHOTS"]) / name))
        page.evaluate("() => { document.adoptedStyleSheets = document.adoptedStyleSheets.slice(0, -1); }")
EVERY_CARD = "() => [...document.querySelectorAll('.strip .card')].every(c => c.dataset.card "


def loaded(room_factory: Any, clock: Clock, session: Path | None = None, **kwargs: Any) -> tuple[Any, list[Any]]:
    steps = hand_messages(session) if session else hand_messages()
    room = room_factory(delay_s=DELAY_S, clock=clock, **kwargs)
    for step in steps:
        room.production.table("t01").push(step.feed, step.t)
    return room, steps


def show(page: Any, clock: Clock, step: Any) -> dict[str, Any]:
    clock.now = step.t + DELAY_S
    wait_seq(page, step.seq)
    return read(page)


def test_reveal_policy_changed_live_from_the_control_page(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    dealt = next(s for s in steps if s.snapshot.phase == "betting")
    raised = next(s for s in steps if s.t == 6.5)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    control = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.goto(room.url + "/")
        open_paired(control, room.url + "/control", room.app.pairing.code)
        control.select_option("#reveal", "first_action")  # the producer, on the control page
        control.wait_for_function("() => document.getElementById('error').textContent === ''")
        for _ in range(100):  # the page's POST has reached the production room (not a fixed sleep)
            if str(room.production.control.policy("t01")) == "first_action":
                break
            page.wait_for_timeout(50)
        assert str(room.production.control.policy("t01")) == "first_action"
        seen = show(page, clock, dealt)
        cards = {card for seat in dealt.feed.seats for card in seat.cards}
        assert all(strip["cards"] == ["back", "back"] for strip in seen["strips"])
        faces = [card for card in cards if card[0] in "AKQJ"]
        assert not any(f'"{card}"' in seen["html"] or f">{card[0]}<" in seen["html"] for card in faces)
        assert all(strip["win"] is None for strip in seen["strips"])  # no chances while a hand is hidden
        seen = show(page, clock, raised)  # seat 4 raised, seat 1 called: theirs show
        keep(page, "overlay-reveal-first-action-1280x720.png")
        shown = {strip["name"]: strip["cards"] for strip in seen["strips"]}
        assert shown["Dee Dee Ramone"] == list(dealt.snapshot.seat(4).cards)
        assert shown["Ada Lovelace"] == list(dealt.snapshot.seat(1).cards)
        assert shown["Bo Jackson"] == ["back", "back"]
        post(room.url + "/api/control", {"reveal": {"t01": "never"}})
        page.wait_for_function(EVERY_CARD + "=== 'back')")
        post(room.url + "/api/control", {"reveal": {"t01": "immediately"}})
        page.wait_for_function(EVERY_CARD + ".length === 2)")
        control.wait_for_function("() => document.getElementById('timing').textContent.includes('next change in')")
    finally:
        page.close()
        control.close()


def test_the_page_never_gets_timing_and_the_control_page_does(room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    clock.now = steps[5].t + DELAY_S
    feed = urllib.request.urlopen(room.url + "/feed.json", timeout=5).read().decode()
    status = json.loads(urllib.request.urlopen(urllib.request.Request(
        room.url + "/api/status", headers={"Cookie": PAIRED[room.url]}), timeout=5).read())
    assert "next" not in feed and "release" not in feed and "delay" not in feed
    assert status["next_in_s"] == pytest.approx(steps[6].t - steps[5].t, abs=0.01)
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(room.url + "/api/control", {"delay_s": -3})
    assert "delay_s -3" in refused.value.read().decode()



def test_the_control_page_refuses_a_feature_table_never_heard_of_and_lists_the_allowed_values(
        room_factory: Any) -> None:
    clock = Clock()
    room, _steps = loaded(room_factory, clock)
    for change, says in (({"feature": "t99"}, "feature 't99': no such table on pokertable/"),
                         ({"reveal": {"t99": "never"}}, "reveal 't99': no such table"),
                         ({"reveal": {"t01": "later"}}, "one of immediately, first_action, showdown, never"),
                         ({"chips": "euros"}, "one of amounts, bb")):
        with pytest.raises(urllib.error.HTTPError) as refused:
            post(room.url + "/api/control", change)
        text = json.loads(refused.value.read())["error"]
        assert refused.value.code == 400 and says in text, (change, text)
        if "no such table" in text:
            assert "(heard of: t01)" in text
    assert room.production.control.feature == "t01" and not room.production.control.reveal

def test_chips_in_big_blinds(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock)
    post(room.url + "/api/control", {"chips": "bb"})
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, steps[-1])
    finally:
        page.close()
    assert seen["pot"] == "POT 14.8 BB"  # 1,475 at 50/100
    assert [strip["stack"] for strip in seen["strips"]] == ["7.3 BB", "7 BB", "11 BB", "7.5 BB"]
    assert seen["result"] == ["Cy Young wins the main pot, 11 BB, with straight, ace high",
                              "Dee Dee Ramone & Ada Lovelace split side pot 1, 3.8 BB"]


def test_a_misdeal_puts_the_ruling_banner_on_air(browser: Any, room_factory: Any) -> None:
    clock = Clock()
    room, steps = loaded(room_factory, clock, session=ROOT / "tests" / "sessions" / "misdeal_exposed_robert.jsonl")
    misdeal = next(s for s in steps if s.snapshot.unconfirmed)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(room.url + "/")
        seen = show(page, clock, misdeal)
        keep(page, "overlay-misdeal-1920x1080.png")
    finally:
        page.close()
    ruling = misdeal.snapshot.unconfirmed[0]
    assert seen["ruling"] == str(ruling.ruling).replace("_", " ").upper() == "MISDEAL"


def test_a_theme_file_restyles_the_page_without_code(browser: Any, room_factory: Any, tmp_path: Path) -> None:
    (tmp_path / "mine.css").write_text(".strip { border-radius: 0; }\n")
    theme = tmp_path / "theme.toml"
    theme.write_text('name = "club"\nfont = "DejaVu Sans"\nlogo = ""\ncss = "mine.css"\n'
                     '[colours]\naccent = "#ff00aa"\nstrip = "#102030f0"\n')
    clock = Clock()
    room, steps = loaded(room_factory, clock, theme=theme)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto(room.url + "/")
        show(page, clock, steps[-1])
        style = page.evaluate("""() => { const s = getComputedStyle(document.querySelector('.strip'));
            return [getComputedStyle(document.querySelector('.stack')).color, s.backgroundColor, s.borderTopLeftRadius,
                    getComputedStyle(document.body).fontFamily, !!document.querySelector('.logo')]; }""")
    finally:
        page.close()
    assert style[0] == "rgb(255, 0, 170)" and style[1] == "rgba(16, 32, 48, 0.94)" and style[2] == "0px"
    assert style[3].startswith('"DejaVu Sans"') and style[4] is False


def test_a_wrong_theme_names_the_file_and_every_key(tmp_path: Path) -> None:
    from firmware_py.errors import ConfigError  # noqa: PLC0415
    from firmware_py.room.overlay_theme import load_theme  # noqa: PLC0415

    theme = tmp_path / "theme.toml"
    theme.write_text('logo = "nope.png"\nscale = 9\n[colours]\naccent = "yellow"\nacent = "#fff"\n')
    with pytest.raises(ConfigError) as error:
        load_theme(theme)
    text = str(error.value)
    assert f"{theme}: logo: no such file" in text and "scale: must be between 0.5 and 2" in text
    assert "[colours] accent: must be a colour" in text
    assert "[colours] acent: unknown key (did you mean 'accent'?)" in text


def test_the_broadcast_command_names_a_bad_theme_or_instance(tmp_path: Path) -> None:
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from tests.room.test_publisher import environment  # noqa: PLC0415

    theme = tmp_path / "theme.toml"
    theme.write_text('scale = "big"\n[colours]\nacent = "#fff"\n')
    for argv, message in ((["--theme", str(theme)], f"{theme}: [colours] acent: unknown key (did you mean 'accent'?)"),
                          (["--instance", "a/b"], "--instance 'a/b' may hold only letters")):
        result = subprocess.run([sys.executable, "-m", "firmware_py", "broadcast", "--room", "main", "--table", "t01",
                                 "--headless", *argv], cwd=ROOT, env=environment(), capture_output=True, text=True,
                                timeout=60, check=False)
        assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
