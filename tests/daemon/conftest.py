"""Helpers: run the daemon as a real process, read its journal and acknowledgements."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def daemon_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "firmware_py", "run", *args]


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET",
                                                            "WATCHDOG_USEC", "INVOCATION_ID", "JOURNAL_STREAM")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["SDL_VIDEODRIVER"] = "dummy"
    return env


def run_daemon(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(daemon_command(*args), cwd=ROOT, env=environment(), capture_output=True, text=True,
                          timeout=timeout, check=False)


@pytest.fixture
def root() -> Path:
    return ROOT
