"""docs/room.md's one-machine walk-through, followed literally: its command blocks are read from the doc (so
the doc and this test cannot drift) and run as written, from a copy of the clone, in a sandbox: a network
namespace of its own (loopback; the standard ports 8883 and 5432 collide with nobody) and a mount namespace in
which /etc/mosquitto, /var/lib/mosquitto, /var/log/mosquitto and /run are private copies, so the real
Mosquitto and PostgreSQL binaries run from what the walk-through installs and nothing of the host changes.
Only what is not there is stood in for: `sudo` (we are root already; `apt-get install` checks the packages
are installed), `systemctl` (no systemd in the sandbox: it starts the broker from its own configuration), and
Debian's PostgreSQL cluster (one made with initdb as Debian makes it: peer locally, passwords over TCP)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.room.conftest import ROOT
from tests.room.services import postgres_bin

DOC = ROOT / "docs" / "room.md"

SUDO = r"""#!/usr/bin/env bash
# sudo in the walk-through's sandbox, where we are root: -u USER runs as USER; apt-get install only checks
set -euo pipefail
if [[ "$1" == "-u" ]]; then user="$2"; shift 2; exec runuser -u "$user" -- "$@"; fi
if [[ "$1" == "apt-get" ]]; then
    for package in "${@:3}"; do
        [[ "$package" == -* ]] && continue
        dpkg -s "$package" >/dev/null 2>&1 || { echo "sudo (sandbox): $package is not installed" >&2; exit 1; }
    done
    exit 0
fi
exec "$@"
"""

SYSTEMCTL = r"""#!/usr/bin/env bash
# systemctl in the walk-through's sandbox (no systemd): Mosquitto run from its own /etc/mosquitto/mosquitto.conf
set -euo pipefail
pidfile=/run/mosquitto/mosquitto.pid
stop() {
    if [[ -f $pidfile ]]; then
        pid="$(cat $pidfile)"; kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        rm -f $pidfile
    fi
}
case "$1 ${2:-}" in
"restart mosquitto")
    stop
    /usr/sbin/mosquitto -c /etc/mosquitto/mosquitto.conf -d
    for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/8883) 2>/dev/null && exit 0; sleep 0.1; done
    echo "systemctl (sandbox): mosquitto did not start" >&2; cat /var/log/mosquitto/mosquitto.log >&2; exit 1 ;;
"reload mosquitto") kill -HUP "$(cat $pidfile)" ;;
"daemon-reload "*) ;;
*) echo "systemctl (sandbox): $*: not here" >&2; exit 1 ;;
esac
"""

SANDBOX = r"""#!/usr/bin/env bash
set -euo pipefail
mount --make-rprivate /
ip link set lo up
cp -a /etc/mosquitto "$S/etc-mosquitto"
rm -f "$S"/etc-mosquitto/conf.d/*.conf
mount --bind "$S/etc-mosquitto" /etc/mosquitto
mount -t tmpfs tmpfs /run
mkdir -p /run/mosquitto /run/postgresql
chown mosquitto /run/mosquitto; chown postgres /run/postgresql
for d in /var/lib/mosquitto /var/log/mosquitto; do mount -t tmpfs tmpfs "$d"; chown mosquitto "$d"; done
# install-room.sh broker builds the room's plugin into /usr/local/lib/pokertable: a tmpfs there, and what else
# /usr/local/lib holds bound back in as it is
mkdir -p "$S/local-lib"
mount --bind /usr/local/lib "$S/local-lib"
mount -t tmpfs tmpfs /usr/local/lib
for entry in "$S"/local-lib/*; do
    [[ -e "$entry" ]] || continue
    if [[ -d "$entry" ]]; then mkdir "/usr/local/lib/${entry##*/}"; else touch "/usr/local/lib/${entry##*/}"; fi
    mount --bind "$entry" "/usr/local/lib/${entry##*/}"
done
runuser -u postgres -- "$PGBIN/initdb" -D "$S/pg/data" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
    -E UTF8 >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$S/pg/data" -o "-k /run/postgresql -c listen_addresses=localhost -p 5432" \
    -l "$S/pg/log" -w start >/dev/null
finish() {
    set +e
    jobs -p | xargs -r kill 2>/dev/null
    sleep 3
    jobs -p | xargs -r kill -9 2>/dev/null
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$S/pg/data" -m immediate stop >/dev/null 2>&1
    [[ -f /run/mosquitto/mosquitto.pid ]] && kill "$(cat /run/mosquitto/mosquitto.pid)" 2>/dev/null
    return 0
}
trap finish EXIT
export HOME="$S/home" PATH="$S/shims:$S/venv/bin:$PATH"
cd "$S/clone"
echo "== setup"
source "$S/setup.sh"
echo "== run"
source "$S/run.sh"
for _ in $(seq 180); do
    hands="$(psql -h localhost -U collector -tA pokertable -c 'SELECT count(*) FROM hands' 2>/dev/null || echo 0)"
    [[ "$hands" -ge 1 ]] && break
    sleep 1
done
echo "HANDS=$hands"
echo "RULINGS=$(psql -h localhost -U collector -tA pokertable -c 'SELECT count(*) FROM rulings')"
echo "MODES=$(stat -c '%a' room/*.password | sort -u | tr '\n' ' ')"
"""


def blocks(text: str, name: str) -> str:
    """The ```sh block after `<!-- walk-through: NAME -->` in docs/room.md."""
    found = re.search(rf"<!-- walk-through: {name} -->\s*```sh\n(.*?)```", text, re.S)
    assert found, f"docs/room.md has no walk-through block {name!r}"
    return found[1]


def test_the_doc_has_both_blocks_and_the_shipped_table_files():
    text = DOC.read_text()
    assert "install-room.sh user \"$user\" --password-file" in blocks(text, "setup")
    assert "config/table-room-tls.toml" in blocks(text, "run")
    for name in ("table-room.toml", "table-room-tls.toml"):
        assert (ROOT / "config" / name).is_file()
        assert f"config/{name}" in text


def why_not() -> str | None:
    if os.geteuid() != 0:
        return "the sandbox (network and mount namespaces) needs root"
    for tool in ("unshare", "runuser", "openssl", "mosquitto_passwd", "psql", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if not Path("/usr/sbin/mosquitto").exists() or not Path("/etc/mosquitto/mosquitto.conf").exists():
        return "the Debian mosquitto package is not installed"
    if postgres_bin("initdb") is None:
        return "PostgreSQL (initdb) is not installed"
    if subprocess.run(["unshare", "--mount", "--net", "true"], capture_output=True, check=False).returncode:
        return "namespaces are not available here (unshare --mount --net failed)"
    return None


def base_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV", "PG"))
           and key not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def copy_of_the_clone(target: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def test_the_one_machine_walk_through_works_followed_literally():
    reason = why_not()
    if reason:
        pytest.skip(reason)
    text = DOC.read_text()
    sandbox = Path(tempfile.mkdtemp(prefix="pokertable-walk-"))
    try:
        os.chmod(sandbox, 0o755)  # the postgres and mosquitto users go through it
        (sandbox / "pg").mkdir()
        shutil.chown(sandbox / "pg", "postgres", "postgres")
        (sandbox / "home").mkdir(mode=0o700)
        copy_of_the_clone(sandbox / "clone")
        # A venv of its own for `pip install -e`, seeing the installed dependencies (no network in the sandbox).
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(sandbox / "venv")], check=True)
        shims = sandbox / "shims"
        shims.mkdir()
        for name, body in (("sudo", SUDO), ("systemctl", SYSTEMCTL)):
            (shims / name).write_text(body)
            (shims / name).chmod(0o755)
        # `pip install` needs the package index (and its build isolation fetches setuptools), which the sandbox's
        # network has not: the walk-through's pip lines run first, as written, in the clone with the venv.
        setup = blocks(text, "setup").splitlines(keepends=True)
        for line in [line for line in setup if line.startswith("pip install")]:
            installed = subprocess.run(["bash", "-c", line], cwd=sandbox / "clone", capture_output=True, text=True,
                                       env={**base_env(), "PATH": f"{sandbox / 'venv' / 'bin'}:{os.environ['PATH']}"},
                                       timeout=300, check=False)
            assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
        (sandbox / "setup.sh").write_text("".join(line for line in setup if not line.startswith("pip install")))
        (sandbox / "run.sh").write_text(blocks(text, "run"))
        (sandbox / "sandbox.sh").write_text(SANDBOX)
        env = base_env()
        env.update(S=str(sandbox), PGBIN=str(Path(postgres_bin("initdb") or "").parent), SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy")
        result = subprocess.run(["unshare", "--mount", "--net", "--fork", "bash", str(sandbox / "sandbox.sh")],
                                env=env, capture_output=True, text=True, timeout=420, check=False)
        output = result.stdout + result.stderr
        assert result.returncode == 0, output[-4000:]
        assert "cannot connect" not in output and "Traceback" not in output, output[-4000:]
        hands = int(re.search(r"HANDS=(\d+)", result.stdout)[1])  # type: ignore[index]
        rulings = int(re.search(r"RULINGS=(\d+)", result.stdout)[1])  # type: ignore[index]
        assert hands >= 1 and rulings >= 1, output[-4000:]
        assert "MODES=600 " in result.stdout
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)
