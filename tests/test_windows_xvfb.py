"""Every window the project opens, on a real X server (Xvfb) as on a PC's desktop: `run --simulate`
opens a window, not the full screen, and each window (the table, the floor, the broadcast) closes on
Esc, on q and on its close button, with status 0. Keys are real key presses (XTEST).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.xwindows import XVFB_SIZE, find_window, screenshot, why_no_x, xvfb

ROOT = Path(__file__).resolve().parents[1]
CLOSE_TIMEOUT_S = 20.0
CLOSES = ["Escape", "q", "close button"]

pytestmark = pytest.mark.skipif(why_no_x() is not None, reason=str(why_no_x()))


@pytest.fixture(scope="module")
def x_display() -> Iterator[str]:
    with xvfb() as name:
        yield name


def _start(args: list[str], display: str, tmp_path: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    log = (tmp_path / "out.log").open("w")
    return subprocess.Popen([sys.executable, "-m", "firmware_py", *args], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, text=True)


def _close_and_wait(process: subprocess.Popen[str], title: str, display: str, how: str, tmp_path: Path) -> None:
    try:
        window = find_window(title, display)
        if how == "close button":
            window.close()
        else:
            window.press(how)
        status = process.wait(CLOSE_TIMEOUT_S)
    except (subprocess.TimeoutExpired, AssertionError):
        process.kill()
        process.wait()
        raise AssertionError(f"{title!r} did not close on {how}:\n{(tmp_path / 'out.log').read_text()}") from None
    assert status == 0, (tmp_path / "out.log").read_text()


@pytest.mark.parametrize("how", CLOSES)
def test_run_simulate_opens_a_window_on_a_desktop_and_closes_on(how, x_display, tmp_path):
    process = _start(["run", "--simulate", "--fresh", "--journal", str(tmp_path / "sim.sqlite3"), "--speed", "5"],
                     x_display, tmp_path)
    window = find_window("Poker table", x_display)
    assert window.size == (800, 480)  # config/table.toml's size: a window, not the 1280x800 screen
    assert window.size != XVFB_SIZE
    if how == "Escape":
        screenshot(x_display, str(tmp_path / "run-simulate.png"))
    _close_and_wait(process, "Poker table", x_display, how, tmp_path)
    assert "the window was closed" in (tmp_path / "out.log").read_text()


@pytest.mark.parametrize("how", CLOSES)
def test_the_floor_window_closes_on(how, x_display, room_broker, tmp_path):
    process = _start(["floor", "--room", "main", "--broker", f"127.0.0.1:{room_broker}", "--windowed",
                      "--size", "960x540", "--client-id", f"floor.xvfb-{how[0]}"], x_display, tmp_path)
    _close_and_wait(process, "Floor: room main", x_display, how, tmp_path)


@pytest.mark.parametrize("how", CLOSES)
def test_the_broadcast_window_closes_on(how, x_display, room_broker, tmp_path):
    process = _start(["broadcast", "--room", "main", "--table", "t01", "--broker", f"127.0.0.1:{room_broker}",
                      "--windowed", "--size", "960x540", "--feed-port", "-1"], x_display, tmp_path)
    _close_and_wait(process, "Broadcast: main/t01", x_display, how, tmp_path)
