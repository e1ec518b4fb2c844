"""Real services on loopback for the room's tests and benchmarks: Mosquitto (TLS, passwords, the
shipped ACL) and PostgreSQL, each in a temporary directory, installed with apt-get when missing.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.room.embedded_broker import mosquitto_path, stop_process

ROOT = Path(__file__).resolve().parents[2]
ACL_FILE = ROOT / "config" / "room" / "acl"
ROOM_CONF = ROOT / "config" / "room" / "mosquitto.conf"  # the shipped broker settings
GUARD_SOURCE = ROOT / "config" / "room" / "clientid_guard.c"
CENTRE_ACL_FILE = ROOT / "config" / "room" / "acl-centre"  # the zones' users, on the centre only


def simulated_table_file(directory: Path, name: str, *, seats: int = 6, room: str = "") -> Path:
    """A simulated table's config file, headless; `room` is its `[room]` section (empty: no room)."""
    path = directory / f"{name}.toml"
    path.write_text(f"""
[table]
profile = "robert"
seats = {list(range(1, seats + 1))}
button = 1
decks = ["{ROOT}/config/decks/test-red.json", "{ROOT}/config/decks/test-blue.json"]
in_play = "test-red"
hardware = "{ROOT}/config/hardware.toml"
profiles = "{ROOT}/config/profiles"

[display]
enabled = false
{room}
""")
    return path
START_TIMEOUT_S = 15.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, timeout: float = START_TIMEOUT_S) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            sock.settimeout(0.2)
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False


def wait_subscribed(process: subprocess.Popen[str], log: Path, timeout: float = 60.0) -> None:
    """Until a room command writing its stdout (its log) to `log` says it is subscribed (its "room: subscribed
    to" line, after the broker's SUBACK): a fixed sleep was too short on a loaded machine, and what the test published
    before then had no subscriber."""
    deadline = time.monotonic() + timeout
    while "room: subscribed to" not in log.read_text(errors="replace"):
        if process.poll() is not None:
            raise AssertionError(f"the command ended before it subscribed: {log.read_text(errors='replace')[-2000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not subscribed after {timeout:.0f} s: {log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.05)


def ensure_installed(binary: str, packages: list[str]) -> str | None:
    """None when `binary` is on PATH (installing the Debian packages if needed), else why not."""
    if shutil.which(binary) or Path(f"/usr/sbin/{binary}").exists():
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return f"{binary} is not installed and cannot be (needs root and apt-get): apt-get install {' '.join(packages)}"
    result = subprocess.run(["apt-get", "install", "-y", "-qq", *packages], capture_output=True, text=True,
                            check=False, timeout=600)
    if result.returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False, timeout=600)
        result = subprocess.run(["apt-get", "install", "-y", "-qq", *packages], capture_output=True, text=True,
                                check=False, timeout=600)
    if result.returncode != 0 or not (shutil.which(binary) or Path(f"/usr/sbin/{binary}").exists()):
        return f"apt-get install {' '.join(packages)} failed: {result.stderr.strip()[-300:]}"
    return None


def mosquitto_binary() -> str:
    return mosquitto_path() or "/usr/sbin/mosquitto"  # where the product looks for it (embedded_broker.py)


def room_settings() -> list[str]:
    """The shipped config/room/mosquitto.conf, without its comments."""
    return [line for line in ROOM_CONF.read_text().splitlines() if line.strip() and not line.startswith("#")]


def clientid_guard(directory: Path) -> Path:
    """The room's Mosquitto plugin (config/room/clientid_guard.c), built with gcc against Debian's
    mosquitto-dev headers (installed with apt-get when missing), as systemd/install-room.sh builds it."""
    library = directory / "clientid_guard.so"
    if library.exists():
        return library
    if not Path("/usr/include/mosquitto_broker.h").exists() or not Path("/usr/include/mosquitto.h").exists():
        reason = ensure_installed("gcc", ["gcc"]) or _install_headers()
        if reason:
            raise RuntimeError(reason)
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gcc", "-O2", "-Wall", "-shared", "-fPIC", "-o", str(library), str(GUARD_SOURCE)], check=True,
                   capture_output=True, timeout=120)
    os.chmod(library, 0o755)
    return library


def _install_headers() -> str | None:
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "the mosquitto-dev headers are missing: apt-get install mosquitto-dev libmosquitto-dev"
    for attempt in range(2):
        result = subprocess.run(["apt-get", "install", "-y", "-qq", "mosquitto-dev", "libmosquitto-dev"],
                                capture_output=True, text=True, check=False, timeout=600)
        if result.returncode == 0:
            return None
        if attempt == 0:
            subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False, timeout=600)
    return f"apt-get install mosquitto-dev libmosquitto-dev failed: {result.stderr.strip()[-300:]}"


# -- certificates ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Certs:
    ca: Path
    server_cert: Path
    server_key: Path


def make_certs(directory: Path, *, names: tuple[str, ...] = ("localhost", "127.0.0.1")) -> Certs:
    """A throwaway CA and a server certificate for `names` (cryptography package)."""
    from cryptography import x509  # noqa: PLC0415
    from cryptography.hazmat.primitives import hashes, serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415
    from cryptography.x509.oid import NameOID  # noqa: PLC0415

    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = name("pokertable test CA")
    ca_cert = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
               .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                            crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
               .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(name(names[0])).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([_san(name) for name in names]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    certs = Certs(ca=directory / "ca.crt", server_cert=directory / "server.crt", server_key=directory / "server.key")
    certs.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    certs.server_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    certs.server_key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
    for path in (certs.ca, certs.server_cert, certs.server_key):
        os.chmod(path, 0o644)  # mosquitto may drop to its own user when started as root
    return certs


def _san(name: str) -> object:
    from cryptography import x509  # noqa: PLC0415

    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


# -- Mosquitto -------------------------------------------------------------------------------------

@dataclass
class Mosquitto:
    """A Mosquitto on 127.0.0.1 in `directory`: plain, or TLS with passwords and the shipped ACL."""

    directory: Path
    port: int = 0
    tls: bool = False
    users: dict[str, str] = field(default_factory=dict)  # user -> password; empty: anonymous allowed
    acl: Path | None = None
    certs: Certs | None = None
    extra: list[str] = field(default_factory=list)  # more mosquitto.conf lines (a bridge section)
    guard: Path | None = None  # the client-id plugin (clientid_guard), for a broker with users
    process: subprocess.Popen[bytes] | None = None

    def __post_init__(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        if not self.port:
            self.port = free_port()
        if self.tls and self.certs is None:
            self.certs = make_certs(self.directory / "certs")
        store = self.directory / "store"
        store.mkdir(exist_ok=True)
        os.chmod(store, 0o777)  # mosquitto started as root writes as its own user
        lines = [f"listener {self.port} 127.0.0.1", *room_settings(), f"persistence_location {store}/",
                 "max_inflight_messages 0", f"log_dest file {self.directory / 'mosquitto.log'}",
                 "log_type error", "log_type warning", "log_type notice", "log_type subscribe",
                 "log_type unsubscribe", "log_type information"]
        if os.geteuid() == 0:
            lines.append("user root")  # the test's files sit in root's 0700 temp directories
        if self.tls:
            assert self.certs is not None
            lines += [f"cafile {self.certs.ca}", f"certfile {self.certs.server_cert}",
                      f"keyfile {self.certs.server_key}", "tls_version tlsv1.2"]
        if self.users:
            passwd = self.directory / "passwd"
            passwd.write_text("")
            for user, password in self.users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(passwd), user, password], check=True,
                               capture_output=True)
            os.chmod(passwd, 0o644)
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if self.acl is not None:
            lines.append(f"acl_file {self.acl}")
        if self.guard is not None:
            lines.append(f"plugin {self.guard}")
        self.conf = self.directory / "mosquitto.conf"
        self.conf.write_text("\n".join([*lines, *self.extra]) + "\n")
        os.chmod(self.directory, 0o777)

    def start(self) -> Mosquitto:
        log = (self.directory / "stdout.log").open("ab")
        self.process = subprocess.Popen([mosquitto_binary(), "-c", str(self.conf)], stdout=log,
                                        stderr=subprocess.STDOUT)
        if not wait_port(self.port):
            self.stop()
            raise RuntimeError(f"mosquitto did not start on port {self.port}: "
                               f"{(self.directory / 'stdout.log').read_text(errors='replace')[-800:]}")
        return self

    def stop(self) -> None:
        """As the product stops the brokers it starts (SIGTERM: Mosquitto saves its store; SIGKILL after 5 s)."""
        process, self.process = self.process, None
        stop_process(process)

    def kill(self) -> None:
        """SIGKILL: what the broker had not saved (autosave) is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)
        self.process = None

    def restart(self, down_s: float = 0.0) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()

    def log(self) -> str:
        path = self.directory / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""


def zone_bridge(shipped: str, *, zone: str, centre: Mosquitto, password: str) -> list[str]:
    """config/room/zone-bridge.conf with this zone's name, the centre's port, password and CA: the lines
    a zone broker adds to its mosquitto.conf. Only the values the file says to change are changed."""
    assert centre.certs is not None
    values = {"connection": zone, "address": f"127.0.0.1:{centre.port}", "remote_clientid": f"{zone}.bridge",
              "remote_username": zone, "remote_password": password, "bridge_cafile": str(centre.certs.ca)}
    lines = []
    for line in shipped.splitlines():
        key = line.split(" ", 1)[0]
        lines.append(f"{key} {values[key]}" if key in values and not line.startswith("#") else line)
    return lines


def centre_acl(zones: dict[str, list[str]]) -> str:
    """The lines a centre adds to config/room/acl for these zones and their tables, as the installer prints
    them from config/room/acl-centre (`systemd/install-room.sh zone-acl ZONE TABLE...`, once per zone)."""
    return "\n".join(subprocess.run(["bash", str(ROOT / "systemd" / "install-room.sh"), "zone-acl", zone, *tables],
                                    check=True, capture_output=True, text=True, timeout=60).stdout
                     for zone, tables in zones.items())


# -- PostgreSQL ------------------------------------------------------------------------------------

def postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    for directory in versions:
        if (directory / name).exists():
            return str(directory / name)
    return None


@dataclass
class Postgres:
    """A throwaway PostgreSQL cluster on 127.0.0.1, run as the `postgres` user when we are root."""

    directory: Path
    port: int = 0

    def __post_init__(self) -> None:
        if not self.port:
            self.port = free_port()
        self.data = self.directory / "data"

    def _as_owner(self, argv: list[str]) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *argv]
        return argv

    def start(self) -> Postgres:
        initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
        if not initdb or not pg_ctl:
            raise RuntimeError("initdb/pg_ctl not found")
        self.directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres", "postgres")
            os.chmod(self.directory, 0o777)
        subprocess.run(self._as_owner([initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
                       check=True, capture_output=True, timeout=120)
        options = f"-h 127.0.0.1 -p {self.port} -k {self.directory} -F"
        subprocess.run(self._as_owner([pg_ctl, "-D", str(self.data), "-o", options, "-l",
                                       str(self.directory / "pg.log"), "-w", "start"]),
                       check=True, capture_output=True, timeout=120)
        return self

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        pg_ctl = postgres_bin("pg_ctl")
        if pg_ctl and self.data.exists():
            subprocess.run(self._as_owner([pg_ctl, "-D", str(self.data), "-m", "fast", "stop"]),
                           capture_output=True, check=False, timeout=60)
