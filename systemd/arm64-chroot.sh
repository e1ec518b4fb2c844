#!/usr/bin/env bash
# Prove the installer on 64-bit Debian bookworm (what Raspberry Pi OS Bookworm 64-bit is built on)
# without a Pi: debootstrap an arm64 root, run it under qemu-user, and run systemd/install.sh in it.
# Everything the installer does is run for real in the chroot (apt packages, the build of
# phevaluator and spidev from source, the venv, the config check) except the steps that need a
# booted Pi: systemctl (no systemd running in a chroot) and raspi-config (not in Debian).
#
#   sudo systemd/arm64-chroot.sh [ROOT]      # ROOT defaults to /var/tmp/pokertable-arm64
#   sudo SKIP_BENCH=1 systemd/arm64-chroot.sh  # the install and its checks and tests, no benchmarks
#   sudo FRAMES_ONLY=1 systemd/arm64-chroot.sh [ROOT]  # again in ROOT as the last run left it: display/ and
#       bench/ copied in afresh, the broadcast frame benchmark only, its rows added to the log
#       (FRAMES_ONLY_RUNS=3: three runs; FRAMES_ONLY_ARGS="--pin 0,1": the frames and the chances worker
#       each on a core of their own, standing in for the Pi's spare cores on a shared host)
#
# Rerunnable: the debootstrapped root is kept as a tarball beside ROOT, and each run installs into a
# fresh copy of it, so every run is a first install. The timings and the installed package lists go to systemd/arm64-chroot.log,
# with the compiled core's build time and check, the rules tests run against it, and the replay,
# frame and resume benchmarks under qemu (an upper bound for a Pi 4: see the README's bench table).
# Needs: debootstrap qemu-user-static binfmt-support (Debian packages). Not run by CI (it takes
# tens of minutes and downloads about 300 MB).
set -euo pipefail

ROOT="${1:-/var/tmp/pokertable-arm64}"
SUITE=bookworm
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/.." && pwd)"
log="$here/arm64-chroot.log"

if [[ "$(id -u)" -ne 0 ]]; then
    echo "run as root: sudo $0" >&2
    exit 1
fi
for tool in debootstrap qemu-aarch64-static; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$tool not found: apt-get install -y debootstrap qemu-user-static binfmt-support" >&2
        exit 1
    fi
done

# Run a command inside the chroot. With binfmt_misc registered for aarch64 the kernel runs the arm64
# binaries through qemu by itself; without it, qemu-aarch64-static is called explicitly (only the
# first binary is emulated then, so this fallback suits the shell steps, not apt or pip).
binfmt_ready() {
    [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] && grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}
if ! binfmt_ready; then
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true
    fi
    update-binfmts --enable qemu-aarch64 || true
fi
in_root() {
    if binfmt_ready; then
        chroot "$ROOT" "$@"
    else
        chroot "$ROOT" /usr/bin/qemu-aarch64-static "$@"
    fi
}

mounted=()
cleanup() {
    local index
    for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do
        umount -l "${mounted[index]}" 2>/dev/null || true
    done
}
trap cleanup EXIT
bind() {
    mkdir -p "$ROOT$2"
    mount --bind "$1" "$ROOT$2"
    mounted+=("$ROOT$2")
}

stamp() { date -u +%s; }
say() { printf '%s\n' "$*" | tee -a "$log"; }

# The tests and benchmarks run in the installed tree (/opt/pokertable/src, the compiled core beside its
# sources), with pytest and hypothesis put apart from the appliance's venv.
phh_in_root=""
in_installed() {
    in_root env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYTHONPATH=/opt/pokertable-testdeps \
        BENCH_PUBLIC_PHH="${phh_in_root:-}" bash -c 'cd /opt/pokertable/src && exec "$@"' bash "$@"
}

if [[ -n "${FRAMES_ONLY:-}" ]]; then
    # The display and the benchmarks are pure Python (not compiled): the installed root takes this tree's
    # copies of them, and the compiled core and the venv stay as the installer left them.
    if [[ ! -x "$ROOT/opt/pokertable/venv/bin/python" ]]; then
        echo "no installed root at $ROOT: run $0 without FRAMES_ONLY first" >&2
        exit 1
    fi
    bind /proc /proc
    bind /sys /sys
    bind /dev /dev
    for dir in display bench; do
        rm -rf --one-file-system "$ROOT/opt/pokertable/src/$dir"
        cp -a "$src/$dir" "$ROOT/opt/pokertable/src/$dir"
    done
    # Modules the display imports that are newer than the install (added since): copied beside it, the
    # installed ones (compiled or not) left as they are.
    cp -a -n "$src/firmware_py/." "$ROOT/opt/pokertable/src/firmware_py/"
    say ""
    say "# the broadcast frame benchmark again, $(date -u '+%Y-%m-%d %H:%M UTC'), in $ROOT as its last install left it (installed $(date -u -r "$ROOT/opt/pokertable/venv" "+%Y-%m-%d %H:%M UTC")), with display/ and bench/ at $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')"
    say "load average before: $(cut -d' ' -f1-3 /proc/loadavg); bench_display.py --frames-only --hands 3 ${FRAMES_ONLY_ARGS:-}"
    frames_start=$(stamp)
    status=0
    for _ in $(seq "${FRAMES_ONLY_RUNS:-1}"); do
        # shellcheck disable=SC2086  # the arguments are words
        in_installed /opt/pokertable/venv/bin/python bench/bench_display.py --frames-only --hands 3 ${FRAMES_ONLY_ARGS:-} 2>&1 \
            | grep -E '^broadcast frame' | tee -a "$log" || status=$?
    done
    say "frame benchmark: $(( $(stamp) - frames_start )) s; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit "$status"
fi

: > "$log"
say "# arm64 chroot run, $(date -u '+%Y-%m-%d %H:%M UTC'), host $(uname -m), $(qemu-aarch64-static --version | head -n 1)"
say "# binfmt_misc for aarch64: $(binfmt_ready && echo registered || echo 'not registered (explicit qemu-aarch64-static)')"

# A run that was killed may have left its bind mounts (the repository, /dev): never delete through them.
while read -r target; do
    umount -l "$target" || true
done < <(findmnt -rn -o TARGET | grep "^$ROOT/" | sort -r)
if findmnt -rn -o TARGET | grep -q "^$ROOT/"; then
    echo "mounts remain under $ROOT: unmount them first" >&2
    exit 1
fi

start=$(stamp)
base="$ROOT.base.tar"  # the root right after debootstrap: each run installs into a clean copy of it
if [[ ! -e "$base" ]]; then
    rm -rf --one-file-system "$ROOT"
    say "== debootstrap --arch=arm64 --foreign $SUITE (first stage, on the host)"
    debootstrap --arch=arm64 --foreign --variant=minbase --include=ca-certificates,sudo,passwd \
        "$SUITE" "$ROOT" "$MIRROR" > "$ROOT.debootstrap1.log" 2>&1
    install -m 0755 "$(command -v qemu-aarch64-static)" "$ROOT/usr/bin/qemu-aarch64-static"
    say "== debootstrap --second-stage (arm64 binaries under qemu)"
    in_root /debootstrap/debootstrap --second-stage > "$ROOT.debootstrap2.log" 2>&1
    echo "deb $MIRROR $SUITE main" > "$ROOT/etc/apt/sources.list"
    echo "$(( $(stamp) - start ))" > "$ROOT/.debootstrap-seconds"
    tar -C "$ROOT" -cpf "$base" .
    say "debootstrap (both stages): $(cat "$ROOT/.debootstrap-seconds") s"
else
    rm -rf --one-file-system "$ROOT"
    mkdir -p "$ROOT"
    tar -C "$ROOT" -xpf "$base"
    say "== a clean copy of the debootstrapped root ($base; debootstrap took $(cat "$ROOT/.debootstrap-seconds") s)"
fi
say "chroot machine: $(in_root uname -m), $(in_root cat /etc/debian_version)"

bind /proc /proc
bind /sys /sys
bind /dev /dev
bind "$src" /srv/pokertable
# The public hand histories the replay benchmark deals again (shared/ beside the repository or a parent).
for dir in "$src/.." "$src/../.." "$src/../../.."; do
    if [[ -z "$phh_in_root" && -d "$dir/shared/phh/data" ]]; then
        bind "$(cd "$dir/shared/phh/data" && pwd)" /srv/phh
        phh_in_root=/srv/phh
    fi
done
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# Certificates this host trusts that Debian's bundle lacks (a TLS proxy's, where there is one), so
# pip in the chroot reaches PyPI the way this host does. Debian's pip reads the system bundle.
python3 - "$ROOT" <<'PY'
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
pem = re.compile(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", re.S)
host = pem.findall(pathlib.Path("/etc/ssl/certs/ca-certificates.crt").read_text())
have = set(pem.findall((root / "etc/ssl/certs/ca-certificates.crt").read_text()))
extra = [cert for cert in host if cert not in have]
target = root / "usr/local/share/ca-certificates"
target.mkdir(parents=True, exist_ok=True)
for index, cert in enumerate(extra):
    (target / f"host-extra-{index}.crt").write_text(cert + "\n")
print(f"certificates added from this host: {len(extra)}")
PY
in_root update-ca-certificates >/dev/null
# The chroot has no running systemd: systemctl is replaced for the installer's two calls only.
policy="$ROOT/usr/sbin/policy-rc.d"
printf '#!/bin/sh\nexit 101\n' > "$policy"
chmod 0755 "$policy"

in_root dpkg-query -W | cut -f1 | sort > "$ROOT.before.txt"
say "== systemd/install.sh in the chroot (POKERTABLE_NO_SYSTEMCTL=1: no systemd runs in a chroot)"
install_start=$(stamp)
status=0
# A clean environment: none of this host's pip settings (its wheel cache, its index) leak in.
in_root env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    POKERTABLE_NO_SYSTEMCTL=1 DEBIAN_FRONTEND=noninteractive bash /srv/pokertable/systemd/install.sh > "$ROOT.install.log" 2>&1 || status=$?
install_seconds=$(( $(stamp) - install_start ))
say "install.sh exit status: $status, $install_seconds s"
rm -f "$policy"
in_root dpkg-query -W | cut -f1 | sort > "$ROOT.after.txt"

say "== Debian packages the installer added ($(comm -13 "$ROOT.before.txt" "$ROOT.after.txt" | wc -l))"
comm -13 "$ROOT.before.txt" "$ROOT.after.txt" | tr '\n' ' ' | fold -s -w 100 | tee -a "$log"
say ""
say "== pip packages in the venv (the rest come from Debian through --system-site-packages)"
in_root /opt/pokertable/venv/bin/pip list --local --format=freeze 2>/dev/null | tee -a "$log" || true
say "== checks in the installed venv"
check_status=0
in_root /opt/pokertable/venv/bin/python - <<'EOF' 2>&1 | tee -a "$log" || check_status=$?
import importlib, platform
import pygame
print("machine", platform.machine(), "python", platform.python_version())
print("pygame", pygame.version.ver, "SDL", ".".join(map(str, pygame.get_sdl_version())), "from", pygame.__file__)
assert pygame.__file__.startswith("/usr/lib/python3/dist-packages"), "pygame must be Debian's (KMS/DRM)"
for name in ("phevaluator", "spidev", "gpiozero", "lgpio", "serial", "pokerkit", "firmware_py"):
    module = importlib.import_module(name)
    print(f"{name:12s}", getattr(module, "__file__", "?"))
import importlib.metadata as metadata
dists = {d.metadata["Name"].lower().replace("_", "-") for d in metadata.distributions()}
assert "rpi.gpio" not in dists and "rpi-gpio" not in dists, "RPi.GPIO (the distribution) breaks a Pi 5"
print("RPi.GPIO is provided by rpi-lgpio:", "rpi-lgpio" in dists)
for name in ("RPi.GPIO", "mfrc522"):  # rpi-lgpio reads the Pi's device tree when imported
    try:
        importlib.import_module(name)
        print(f"{name:12s} imported")
    except RuntimeError as exc:
        assert "Raspberry Pi" in str(exc), exc
        print(f"{name:12s} installed; importing it needs a Pi ({exc}): checked on a real Pi only")
from phevaluator import evaluate_cards
print("phevaluator works:", evaluate_cards("Ah", "Kh", "Qh", "Jh", "Th"))
EOF
in_root /opt/pokertable/venv/bin/python -m firmware_py run --simulate --headless --hands 5 --fresh \
    --journal /tmp/arm64-sim.sqlite3 2>&1 | tail -n 3 | tee -a "$log" || check_status=$?
in_root env SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy /opt/pokertable/venv/bin/python -m firmware_py \
    snapshot /srv/pokertable/tests/sessions/clean_showdown.jsonl --view venue --out /tmp/arm64-venue.png 2>&1 | tail -n 2 | tee -a "$log" || check_status=$?
say "venue view rendered with Debian's pygame: $(in_root file -b /tmp/arm64-venue.png 2>/dev/null || ls -l "$ROOT/tmp/arm64-venue.png")"
say "== the compiled rules core (setup.py, POKERTABLE_COMPILE=1, built by the installer under qemu)"
grep '^install: the package' "$ROOT.install.log" | tee -a "$log" || check_status=1
in_root /opt/pokertable/venv/bin/python -m firmware_py.compiled 2>&1 | tail -n 1 | tee -a "$log" || check_status=$?

say "== the rules, replay and session-reader tests against the installed compiled core"
in_root /opt/pokertable/venv/bin/pip install -q --disable-pip-version-check --target /opt/pokertable-testdeps \
    "pytest>=8" "pytest-xdist>=3.5" "hypothesis>=6" > "$ROOT.testdeps.log" 2>&1 || check_status=$?
tests_start=$(stamp)
in_installed /opt/pokertable/venv/bin/python -m pytest -q -p no:cacheprovider tests/rules tests/test_replay.py \
    tests/test_session_chips.py 2>&1 | tail -n 1 | tee -a "$log" || check_status=$?
say "tests under qemu: $(( $(stamp) - tests_start )) s"

if [[ -z "${SKIP_BENCH:-}" ]]; then
    say "== benchmarks under qemu-user on this host (x86_64 emulating aarch64): an upper bound for a Pi 4"
    say "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    bench_start=$(stamp)
    in_installed /opt/pokertable/venv/bin/python -m bench --only replay --quick 2>&1 | grep -E '^(replay|  of which)' \
        | tee -a "$log" || check_status=$?
    in_installed /opt/pokertable/venv/bin/python bench/bench_display.py --seconds 1 --rounds 1 --hands 3 2>&1 \
        | grep -E '^(event -> frame|broadcast frame)' | tee -a "$log" || check_status=$?
    in_installed /opt/pokertable/venv/bin/python bench/bench_scale.py --events 10000 --events 76000 2>&1 \
        | tee -a "$log" || check_status=$?
    say "benchmarks: $(( $(stamp) - bench_start )) s; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
say "== pip's check of the venv"
in_root /opt/pokertable/venv/bin/pip check 2>&1 | tee -a "$log" || true
say "== the installer's output (last 40 lines; full log: $ROOT.install.log)"
tail -n 40 "$ROOT.install.log" | tee -a "$log"
say "total: $(( $(stamp) - start )) s"
if [[ "$status" -ne 0 || "$check_status" -ne 0 ]]; then
    say "FAILED (install $status, checks $check_status)"
    exit 1
fi
say "OK"
