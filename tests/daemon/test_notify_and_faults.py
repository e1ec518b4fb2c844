"""sd_notify over a real datagram socket, the watchdog only while healthy, and faults on screen not crashes."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import time

import pytest

from firmware_py.daemon import ComponentFault
from firmware_py.daemon.app import CallbackComponent, Daemon, Stop
from firmware_py.daemon.journal import Journal
from firmware_py.daemon.sdnotify import Notifier
from firmware_py.daemon.table_config import load_table_config
from hardware.reader_health import ReaderFault, ReaderRecovered
from tests.daemon.conftest import ROOT, daemon_command, environment


@pytest.fixture
def listener(tmp_path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(10)
    yield path, sock
    sock.close()


def test_notifier_sends_ready_and_watchdog_datagrams(listener):
    path, sock = listener
    notifier = Notifier(str(path))
    assert notifier.ready("new session") and notifier.watchdog()
    assert sock.recv(512) == b"READY=1\nSTATUS=new session"
    assert sock.recv(512) == b"WATCHDOG=1"


def test_notifier_does_nothing_outside_systemd(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not Notifier().enabled and not Notifier().watchdog()


def test_daemon_under_systemd_says_ready_then_pings_the_watchdog(listener, tmp_path):
    path, sock = listener
    env = environment() | {"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "400000"}
    process = subprocess.Popen(daemon_command("--simulate", "--headless", "--hands", "3", "--speed", "20",
                                              "--journal", str(tmp_path / "j.sqlite3")),
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        messages = [sock.recv(512) for _ in range(4)]
    finally:
        process.terminate()
        process.wait(20)
    assert messages[0].startswith(b"READY=1")
    assert messages[1:] == [b"WATCHDOG=1"] * 3


def test_a_component_that_fails_to_start_becomes_a_fault_not_a_crash(tmp_path, caplog):
    config = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    events: queue.Queue[object] = queue.Queue()
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        daemon = Daemon(config, journal=journal, clock=time.monotonic, events=events)
        stopped: list[str] = []

        def broken() -> None:
            raise OSError("GPIO busy")

        daemon.panel = CallbackComponent("panel", broken, lambda: stopped.append("panel"))
        daemon.readers.append(CallbackComponent("readers", lambda: None, lambda: stopped.append("readers")))
        events.put(ReaderFault(t=1.0, reader="shoe", message="not answering"))
        events.put(Stop("test"))
        assert daemon.run() == 0
        faults = {f.component: f.message for f in daemon.faults.current()}
        assert faults == {"panel": "failed to start: GPIO busy", "reader shoe": "not answering"}
        assert stopped == ["readers"]  # what started is stopped; the broken panel never started
        events.put(ReaderRecovered(t=2.0, reader="shoe"))
        events.put(Stop("test"))
        daemon._loop()
        assert not daemon.faults.has("reader shoe")
    assert "fault reader shoe: not answering" in caplog.text


def test_sigterm_stops_the_daemon_cleanly(tmp_path):
    process = subprocess.Popen(daemon_command("--simulate", "--headless", "--hands", "50", "--speed", "5",
                                              "--journal", str(tmp_path / "j.sqlite3")),
                               cwd=ROOT, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    # Its signal handlers are in place before the daemon logs the session it starts (a fixed sleep
    # sent SIGTERM to a process still importing under load, which the default handler kills)
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if "new session:" in line:
            break
    process.terminate()
    out, _ = process.communicate(timeout=20)
    out = "".join(seen) + out
    assert process.returncode == 0, out
    assert "stopped: signal SIGTERM" in out


def test_the_window_opens_on_a_dummy_display_and_draws(tmp_path):
    code = (
        "import sys, time, threading;"
        "from firmware_py.cli import main;"
        "sys.exit(main(['run', '--simulate', '--windowed', '--hands', '1', '--speed', '50',"
        f" '--journal', r'{tmp_path / 'j.sqlite3'}']))"
    )
    process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=environment() | {"SDL_AUDIODRIVER": "dummy"},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Terminated once it has started its session (a fixed sleep could signal it while still importing)
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if "new session:" in line:
            break
    time.sleep(1)  # a few frames drawn
    process.terminate()
    out, _ = process.communicate(timeout=20)
    out = "".join(seen) + out
    assert process.returncode == 0, out
    assert "failed" not in out and "Traceback" not in out, out
    assert os.path.exists(tmp_path / "j.sqlite3")


def test_a_component_fault_posted_by_a_running_component_shows_in_the_fault_state(tmp_path):
    """The daemon package's one ComponentFault, posted to the queue by a component that broke while
    running, is what the main loop puts in the fault state (there were two classes: this one was ignored)."""
    config = load_table_config(ROOT / "config" / "table.toml", with_display=False)
    events: queue.Queue[object] = queue.Queue()
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        daemon = Daemon(config, journal=journal, clock=time.monotonic, events=events)
        events.put(ComponentFault(component="room publisher", message="the broker refused the password",
                                  t=1.0))
        events.put(Stop("test"))
        assert daemon.run() == 0
        faults = {f.component: f.message for f in daemon.faults.current()}
        assert faults == {"room publisher": "the broker refused the password"}
