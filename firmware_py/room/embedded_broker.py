"""A Mosquitto of the command's own on loopback: `tournament --simulate` with no `--broker` needs nothing
running (the README's main command). Anonymous, on 127.0.0.1 only, in a temporary directory, stopped with
the command; the shipped config/room/mosquitto.conf settings that matter to a round trip (`set_tcp_nodelay`)
are kept where the installed Mosquitto knows them."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

START_TIMEOUT_S = 10.0


class BrokerMissing(RuntimeError):
    """No Mosquitto to start (the message says how to get one)."""


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
    """`start()` a Mosquitto on a free loopback port; `stop()` ends it and removes its directory."""

    def __init__(self, binary: str | None = None) -> None:
        self.binary = binary
        self.port = 0
        self.notes = ""
        self.process: subprocess.Popen[bytes] | None = None
        self.directory: Path | None = None

    def start(self) -> EmbeddedBroker:
        binary = self.binary or mosquitto_path()
        if binary is None:
            raise BrokerMissing("no --broker given and Mosquitto is not installed to start one on loopback: "
                                "install it (`sudo apt-get install mosquitto`), or give --broker HOST[:PORT] of a "
                                "running broker")
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

    def _end(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def stop(self) -> None:
        self._end()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
