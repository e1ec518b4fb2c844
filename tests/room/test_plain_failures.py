"""Plain failures: every room command (floor, collect, broadcast, and the table at start) stops with a status
and one line saying why when it cannot use the broker, a real Mosquitto with TLS, passwords and the ACL:
a certificate for another name, a certificate from another CA, a wrong password (at once, no retry loop),
nothing listening (within --seconds); a collector run as the wrong user is warned; its database is 0600."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.commands import REFUSED, UNREACHABLE
from tests.room.conftest import ROOT, USERS, broker_config, table_file
from tests.room.samples import message
from tests.room.services import ACL_FILE, Mosquitto, free_port, make_certs, wait_subscribed
from tests.room.test_publisher import environment

COMMANDS = {
    "floor": ["floor", "--room", "main", "--headless", "--dump", "{tmp}/floor.json"],
    "collect": ["collect", "--room", "main", "--db", "{tmp}/room.sqlite3"],
    "broadcast": ["broadcast", "--room", "main", "--table", "t01", "--headless", "--feed-port", "-1"],
}
USER_OF = {"floor": "floor", "collect": "collector", "broadcast": "production"}


@pytest.fixture
def misnamed_broker(tmp_path: Path, mosquitto_installed: None) -> Iterator[Mosquitto]:
    """TLS with a certificate for broker.example only: a client that connects to 127.0.0.1 must refuse it."""
    certs = make_certs(tmp_path / "misnamed-certs", names=("broker.example",))
    server = Mosquitto(tmp_path / "misnamed", tls=True, users=USERS, acl=ACL_FILE, certs=certs).start()
    yield server
    server.stop()


def command(name: str, tmp_path: Path, *, port: int, ca: Path | None, password: str | None = None,
            user: str | None = None, seconds: float = 20.0, extra: tuple[str, ...] = ()) -> tuple[int, str, float]:
    argv = [part.replace("{tmp}", str(tmp_path)) for part in COMMANDS[name]]
    password_file = tmp_path / f"{name}.password"
    password_file.write_text(password if password is not None else USERS[USER_OF[name]])
    argv += ["--broker", f"127.0.0.1:{port}", "--password-file", str(password_file), "--seconds", str(seconds),
             *extra]
    if ca is not None:
        argv += ["--tls", "--ca-file", str(ca)]
    if user is not None:
        argv += ["--user", user]
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "firmware_py", *argv], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=60, check=False)
    return result.returncode, result.stderr, time.monotonic() - started


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_certificate_for_another_name_is_refused_naming_the_name(name, tmp_path, misnamed_broker):
    status, stderr, took = command(name, tmp_path, port=misnamed_broker.port, ca=misnamed_broker.certs.ca)
    assert status == REFUSED, stderr
    assert "its certificate is not for the name '127.0.0.1'" in stderr and "subjectAltName" in stderr
    assert took < 20  # --seconds is 20: it stopped at the refusal, not at the end


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_certificate_from_another_ca_is_refused_naming_the_ca_file(name, tmp_path, secure_broker):
    other = make_certs(tmp_path / "other-ca")
    status, stderr, _took = command(name, tmp_path, port=secure_broker.port, ca=other.ca)
    assert status == REFUSED, stderr
    assert f"does not check against the CA in {other.ca}" in stderr


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_wrong_password_stops_at_once_instead_of_retrying(name, tmp_path, secure_broker):
    status, stderr, took = command(name, tmp_path, port=secure_broker.port, ca=secure_broker.certs.ca,
                                   password="not-the-password")
    assert status == REFUSED, stderr
    assert f"refused user '{USER_OF[name]}'" in stderr and "Not retrying" in stderr
    assert took < 20  # --seconds is 20: it did not sit there retrying (the one "refused" below says so too)
    assert stderr.count("refused") == 1


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_nothing_listening_is_unreachable_within_seconds(name, tmp_path, mosquitto_installed):
    status, stderr, took = command(name, tmp_path, port=free_port(), ca=None, seconds=2)
    assert status == UNREACHABLE, stderr
    assert "connection refused: is the broker running and the port right?" in stderr
    assert took < 10  # --seconds 2 (and an interpreter start, slow under load), not the 10 s connect timeout


def test_a_table_whose_broker_is_down_deals_on_and_says_so(tmp_path, mosquitto_installed):
    config = table_file(tmp_path, port=free_port())
    result = subprocess.run([sys.executable, "-m", "firmware_py", "run", "--simulate", "--headless", "--hands", "2",
                             "--config", str(config), "--journal", str(tmp_path / "t.sqlite3"), "--fresh"],
                            cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "connection refused" in result.stderr and "the table deals on" in result.stderr
    assert "2 hands played" in result.stdout


def _online_table_with_a_ruling_and_a_hand(broker: Mosquitto) -> None:
    from firmware_py.room.mqtt import make_client  # noqa: PLC0415

    client = make_client(broker_config(broker, "t01"), client_id="t01.by-hand")  # the broker binds ids to users
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    client.publish("pokertable/main/t01/status", json.dumps(message("status", "t01", 0, dealer="Dana")), qos=1,
                   retain=True).wait_for_publish(5)
    client.publish("pokertable/main/t01/ruling", json.dumps(message(
        "ruling", "t01", 3, dealer="Dana", idx=1, ruling={"t": 1.0, "ruling": "exposed_card", "seat": 2, "card": "Qc",
                                                          "rule": "robert: Hold'em 1", "remedy": "Deal on."})),
                   qos=1).wait_for_publish(5)
    client.publish("pokertable/main/t01/hand", json.dumps(message("hand", "t01", 9, dealer="Dana", idx=2, t=2.0)),
                   qos=1).wait_for_publish(5)
    client.disconnect()
    client.loop_stop()


@pytest.mark.parametrize("user", ["floor", "collector"])
def test_a_collector_run_as_the_wrong_user_is_warned(user, tmp_path, secure_broker):
    argv = [part.replace("{tmp}", str(tmp_path)) for part in COMMANDS["collect"]]
    password_file = tmp_path / "pw"
    password_file.write_text(USERS[user])
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_py", *argv, "--broker", f"127.0.0.1:{secure_broker.port}", "--tls",
         "--ca-file", str(secure_broker.certs.ca), "--user", user, "--password-file", str(password_file),
         "--seconds", "6", "--warn-silence", "3"],
        cwd=ROOT, env=environment(), stdout=(tmp_path / "collect.out").open("w"), stderr=subprocess.PIPE, text=True)
    wait_subscribed(process, tmp_path / "collect.out")  # the collector's session keeps anything published from now
    _online_table_with_a_ruling_and_a_hand(secure_broker)
    _, stderr = process.communicate(timeout=60)
    stdout = (tmp_path / "collect.out").read_text(errors="replace")
    assert process.returncode == 0, stderr
    if user == "floor":  # the floor's user may read rulings, never a hand
        assert "nothing came on pokertable/main/+/hand while 1 tables were online" in stderr
        assert "ACL does not let user 'floor' read it" in stderr
        assert "2 messages, 1 stored" not in stdout
    else:
        assert "nothing came" not in stderr and "ACL" not in stderr
        assert "2 messages, 2 stored" in stdout


def test_the_collectors_sqlite_files_are_owner_only(tmp_path):
    from firmware_py.room.collector import SQLiteStore  # noqa: PLC0415

    path = tmp_path / "state" / "room.sqlite3"
    store = SQLiteStore(path)
    store.write([("main", "t01", "s", 1, 0, "", 1, 1.0, "exposed_card", "r", "x", "{}", 1)], [])
    files = [path, path.with_name("room.sqlite3-wal"), path.with_name("room.sqlite3-shm")]
    assert all(p.exists() for p in files)
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {p.name: 0o600 for p in files}
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    store.close()
    path.chmod(0o644)  # a file made by an older version
    SQLiteStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
