"""Without a display, a command that opens a window says so, as `run` does, instead of an SDL error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NO_SCREEN = "no display here (DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER unset)"


def _without_display(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    return subprocess.run([sys.executable, "-m", "firmware_py", *args], cwd=ROOT, env={**clean, **env}, check=False,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", [["floor", "--room", "main"],
                                     ["broadcast", "--room", "main", "--table", "t01", "--feed-port", "-1"]])
@pytest.mark.parametrize("windowed", [[], ["--windowed"]])
def test_a_room_window_without_a_display_says_no_display_here(command, windowed):
    result = _without_display(*command, *windowed, "--broker", "127.0.0.1:9")
    assert result.returncode == 2
    assert result.stderr.startswith(f"{command[0]}: {NO_SCREEN}: use --headless"), result.stderr
    assert "Traceback" not in result.stderr


def test_a_display_that_is_set_but_not_there_is_named(tmp_path, room_broker):
    # the floor connects first (a broker that is not there is status 3), then opens its window
    result = _without_display("floor", "--room", "main", "--broker", f"127.0.0.1:{room_broker}", "--windowed",
                              DISPLAY=":7919", XAUTHORITY=str(tmp_path / "none"))
    assert result.returncode == 2
    assert "floor: cannot open a window on :7919: " in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
