"""A broker of the command's own on loopback: `tournament --simulate` with no `--broker` needs nothing
running (the README's main command). Anonymous, on 127.0.0.1 only, in a temporary directory, stopped with
the command. Mosquitto where it is installed (the shipped config/room/mosquitto.conf settings that matter to a
round trip, `set_tcp_nodelay`, kept where the installed Mosquitto knows them); on a machine without it, the
pure-Python MQTT 5 broker of firmware_py/room/python_broker.py, so the command runs on a bare machine.

`stop_process` is how every broker this project starts is stopped (the tests' Mosquitto too)."""

from __future__ import annotations

import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware_py.room import python_broker

START_TIMEOUT_S = 10.0
PYTHON_START_TIMEOUT_S = 30.0  # an interpreter to start and import anyio first: slower on a loaded Pi


class BrokerMissing(RuntimeError):
    """No broker to start (the message says how to get one)."""


def stop_process(process: subprocess.Popen[bytes] | None, timeout_s: float = 5.0) -> None:
    """SIGTERM, then SIGKILL after `timeout_s`: a broker's own shutdown (Mosquitto saves its store) first."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout_s)


def mosquitto_path() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class EmbeddedBroker:
    """`start()` a broker on a free loopback port (Mosquitto, else the pure-Python one); `stop()` ends it and
    removes its directory. `name` says which one runs, `notes` how it is set."""

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary
        self.port = 0
        self.name = ""
        self.notes = ""
        self.process: subprocess.Popen[bytes] | None = None
        self.directory: Path | None = None

    def start(self) -> EmbeddedBroker:
        binary = self.binary or mosquitto_path()
        if binary is None:
            missing = python_broker.available()
            if missing:
                raise BrokerMissing("no --broker given, Mosquitto is not installed to start one on loopback and "
                                    f"{missing}: install Mosquitto (`sudo apt-get install mosquitto`) or the "
                                    "project's dependencies (`pip install -e .`), or give --broker HOST[:PORT] of a "
                                    "running broker")
            self.directory = Path(tempfile.mkdtemp(prefix="pokertable-broker-"))
            try:
                self._start_python()
            except BrokerMissing:
                self.stop()
                raise
            return self
        self.name = "a Mosquitto"
        self.directory = Path(tempfile.mkdtemp(prefix="pokertable-broker-"))
        last = ""
        for nodelay in (True, False):  # Mosquitto before 2.0 does not know set_tcp_nodelay
            for _attempt in range(3):  # another process may take the free port first
                self.port = _free_port()
                last = self._try(binary, nodelay)
                if not last:
                    self.notes = ("set_tcp_nodelay on, as the room ships it" if nodelay else
                                  "this Mosquitto has no set_tcp_nodelay: each round trip may wait ~40 ms, the "
                                  "simulation runs several times slower")
                    return self
                if "set_tcp_nodelay" in last:
                    break
        self.stop()
        raise BrokerMissing(f"Mosquitto ({binary}) did not start on loopback: {last[-500:]}")

    def _try(self, binary: str, nodelay: bool) -> str:
        assert self.directory is not None
        conf = self.directory / "mosquitto.conf"
        log = self.directory / "mosquitto.log"
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous true", "persistence false",
                 "max_queued_messages 100000", "message_size_limit 262144", f"log_dest file {log}",
                 "log_type error", "log_type warning"]
        if nodelay:
            lines.append("set_tcp_nodelay true")
        conf.write_text("\n".join(lines) + "\n")
        out = (self.directory / "stdout.log").open("ab")
        self.process = subprocess.Popen([binary, "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT)
        out.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if _listening(self.port):
                return ""
            time.sleep(0.05)
        self._end()
        said = [p.read_text(errors="replace") for p in (self.directory / "stdout.log", log) if p.exists()]
        return " ".join(" ".join(said).split()) or "no word from it"

    def _start_python(self) -> None:
        """The pure-Python broker in a process of its own (a second core for it, and stopped as Mosquitto is),
        on a port it picks itself and tells on its first line: no other process can take the port between."""
        assert self.directory is not None
        self.name = "a pure-Python MQTT broker"
        self.notes = ("Mosquitto is not installed: moat-lib-mqtt, firmware_py/room/python_broker.py, enough for the "
                      "simulated room; a real room runs Mosquitto")
        package_root = str(Path(python_broker.__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root,
                                                                        os.environ.get("PYTHONPATH")]))}
        errors = (self.directory / "broker.log").open("ab")
        self.process = subprocess.Popen([sys.executable, "-m", "firmware_py.room.python_broker", "0"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=env)
        errors.close()
        assert self.process.stdout is not None
        deadline = time.monotonic() + PYTHON_START_TIMEOUT_S
        line = b""
        while time.monotonic() < deadline and not line.endswith(b"\n"):
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 256)
                if not chunk:
                    break
                line += chunk
        text = line.decode(errors="replace").strip()
        if text.startswith(python_broker.READY) and text[len(python_broker.READY):].isdigit():
            self.port = int(text[len(python_broker.READY):])
            if _listening(self.port):
                return
        self._end()
        said = (self.directory / "broker.log").read_text(errors="replace")
        raise BrokerMissing(f"the pure-Python broker did not start on loopback: "
                            f"{' '.join((text + ' ' + said).split())[-500:] or 'no word from it'}")

    def _end(self) -> None:
        process, self.process = self.process, None
        stop_process(process)
        if process is not None:
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()

    def stop(self) -> None:
        self._end()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
