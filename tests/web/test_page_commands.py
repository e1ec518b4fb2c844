"""The director's station as the director runs it (`tournament --listen 0.0.0.0:PORT` on a real
Mosquitto): the pairing code printed on its console, a LAN address that answers, nothing acting
before the code, and the operator's signal (`kill -USR1`) unpairing every device with a new code
printed."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.room.conftest import broker, mosquitto_installed  # noqa: F401  (the fixtures)
from tests.room.services import Mosquitto, free_port
from tests.room.test_publisher import environment
from tests.tracker_table import http_json, http_pair
from tests.web.test_page_attacks import lan_address

ROOT = Path(__file__).resolve().parents[2]


def _lines(process: subprocess.Popen[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def _code(lines: queue.Queue[str], pattern: str, timeout_s: float = 30.0) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            continue
        found = re.search(pattern + r" (\d{3}) (\d{3})", line)
        if found:
            return found[1] + found[2]
    raise AssertionError(f"no {pattern!r} line in time")


def test_the_director_pairs_with_the_code_on_its_console_and_a_signal_unpairs_everyone(
        broker: Mosquitto) -> None:  # noqa: F811
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "firmware_py", "tournament", "--room", "main", "--broker",
                                f"127.0.0.1:{broker.port}", "--tables", "2", "--players", "12",
                                "--listen", f"0.0.0.0:{port}"], cwd=ROOT, env=environment(),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = _lines(process)
        code = _code(lines, "pair a browser with the code")
        base = f"http://{lan_address()}:{port}"
        assert http_json(base, "/clock", {"run": True})[0] == 401  # no code, no clock
        cookie = http_pair(base, code)
        status, body, _ = http_json(base, "/clock", {"run": True}, cookie=cookie)
        assert status == 200 and body["ok"]
        assert http_json(base, "/state", cookie=cookie)[1]["running"] is True
        next_code = _code(lines, "next pairing code")  # printed after the pairing
        process.send_signal(signal.SIGUSR1)  # the operator: every device unpaired
        newest = _code(lines, "next pairing code")
        assert newest != next_code
        assert http_json(base, "/state", cookie=cookie)[0] == 401
        assert http_pair(base, newest)  # the new code pairs
    finally:
        process.terminate()
        process.wait(20)
