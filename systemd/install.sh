#!/usr/bin/env bash
# Install the poker-table appliance on Raspberry Pi OS (Bookworm, 64-bit): a dedicated user, SPI on,
# the package in a virtualenv that sees Debian's python3-pygame (SDL with KMS/DRM), the config in
# /etc/pokertable, and the systemd unit. Run from a clone: sudo systemd/install.sh
set -euo pipefail

APP_USER=pokertable
PREFIX=/opt/pokertable
ETC=/etc/pokertable
UNIT=pokertable.service
SRC="$(cd "$(dirname "$0")/.." && pwd)"

if [[ "$(id -u)" -ne 0 ]]; then
    echo "run as root: sudo $0" >&2
    exit 1
fi

echo "== packages"
apt-get update
# python3-pygame is built on Debian's SDL2, which has the KMS/DRM video driver the PyPI wheel lacks.
# python3-spidev and python3-serial come built; gcc and python3-dev build phevaluator (no aarch64 wheel).
apt-get install -y --no-install-recommends python3-venv python3-dev gcc libc6-dev \
    python3-pygame python3-serial python3-spidev python3-evdev sqlite3 fonts-noto-core fonts-droid-fallback
# fonts-noto-core and fonts-droid-fallback: players' names in other scripts (Arabic, Hebrew, Devanagari,
# Thai, CJK...); the views ship Noto Sans for Latin, Greek and Cyrillic and fall back to these.
# RPi.GPIO for the mfrc522 package: rpi-lgpio provides the module on top of lgpio and works on a Pi 4
# and a Pi 5 (where RPi.GPIO itself cannot reach the GPIO block). Raspberry Pi OS ships it as Debian
# packages (they replace python3-rpi.gpio); plain Debian has neither, so then pip takes the wheels.
if apt-cache show python3-rpi-lgpio >/dev/null 2>&1; then
    apt-get install -y --no-install-recommends python3-lgpio python3-rpi-lgpio
    gpio_from_pip=()
else
    echo "python3-rpi-lgpio is not in this system's archives (not Raspberry Pi OS): rpi-lgpio from PyPI"
    gpio_from_pip=("rpi-lgpio>=0.6")
fi

echo "== user ${APP_USER}"
for group in gpio spi dialout video render input; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$APP_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "$APP_USER"
fi
usermod -a -G gpio,spi,dialout,video,render,input "$APP_USER"

echo "== SPI"
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_spi 0   # 0 means enable
else
    for config in /boot/firmware/config.txt /boot/config.txt; do
        if [[ -f "$config" ]]; then
            grep -q '^dtparam=spi=on' "$config" || echo 'dtparam=spi=on' >> "$config"
            break
        fi
    done
fi

echo "== package into ${PREFIX}"
install -d -m 0755 "$PREFIX"
rm -rf "${PREFIX}/src"
cp -a "$SRC" "${PREFIX}/src"
rm -rf "${PREFIX}/src/.git" "${PREFIX}/src/state" "${PREFIX}/src/.venv"  # a developer's venv is not the appliance's
python3 -m venv --system-site-packages "${PREFIX}/venv"
pip=("${PREFIX}/venv/bin/pip" install --no-input --disable-pip-version-check)
# Pin pygame to Debian's (KMS/DRM) so pip resolves the package's requirement against it instead of
# fetching a PyPI wheel; the rest (phevaluator, gpiozero 2, pokerkit) come from PyPI.
constraints="$(mktemp)"
trap 'rm -f "$constraints"' EXIT
system_pygame="$(/usr/bin/python3 -c 'import importlib.metadata as m; print(m.version("pygame"))')"
echo "pygame==${system_pygame}" > "$constraints"
# The rules core compiled with mypyc (setup.py; gcc and python3-dev above, mypy and orjson fetched
# into the build environment): the whole replay about 1.65x as fast, and the README's figures assume
# it. A compiled build that fails stops the install: a table that silently ran the slower pure-Python
# core would miss those figures. POKERTABLE_COMPILE=0 installs pure Python on purpose.
compile="${POKERTABLE_COMPILE:-1}"
if [[ "$compile" != 0 && "$compile" != 1 ]]; then
    echo "install: POKERTABLE_COMPILE must be 1 (compiled, the default) or 0 (pure Python), not '$compile'" >&2
    exit 1
fi
find "${PREFIX}/src" -name '*.so' -delete  # nothing from the source tree's own builds shadows this one
build_start=$SECONDS
if ! POKERTABLE_COMPILE="$compile" "${pip[@]}" --constraint "$constraints" -e "${PREFIX}/src" "${gpio_from_pip[@]}"; then
    if [[ "$compile" == 1 ]]; then
        echo "install: FAILED: the compiled rules core did not build (pip's output above says why)." >&2
        echo "install: POKERTABLE_COMPILE=0 $0 installs it as pure Python, about 1.7x slower." >&2
    fi
    exit 1
fi
# The build can succeed and still leave the sources imported (a stale or misplaced .so): check the
# modules the service will load.
if [[ "$compile" == 1 ]]; then
    "${PREFIX}/venv/bin/python" -m firmware_py.compiled || {
        echo "install: FAILED: the compiled rules core was built but is not the one imported" >&2
        exit 1
    }
fi
echo "install: the package and its dependencies installed ($([[ "$compile" == 1 ]] && echo "rules core compiled" \
    || echo "pure Python")) in $((SECONDS - build_start)) s"
# mfrc522 0.0.7 declares RPi.GPIO, which would replace rpi-lgpio's module and breaks a Pi 5: no deps.
"${pip[@]}" --no-deps "mfrc522==0.0.7"
# pip's consistency check, less the one requirement left out on purpose (mfrc522's RPi.GPIO, above).
if ! problems="$("${PREFIX}/venv/bin/pip" check 2>&1)"; then
    problems="$(grep -v '^mfrc522 .* requires rpi-gpio, which is not installed' <<<"$problems" || true)"
    if [[ -n "$problems" ]]; then
        printf '%s\n' "$problems" >&2
        echo "install: pip check found broken requirements in ${PREFIX}/venv" >&2
        exit 1
    fi
fi
"${PREFIX}/venv/bin/python" -c 'import pygame; print("pygame", pygame.version.ver, "from", pygame.__file__)'

echo "== config in ${ETC}"
install -d -m 0755 "$ETC"
for item in hardware.toml profiles decks; do
    if [[ ! -e "${ETC}/${item}" ]]; then
        cp -a "${SRC}/config/${item}" "${ETC}/${item}"
    fi
done
if [[ ! -e "${ETC}/table.toml" ]]; then
    install -m 0644 "${SRC}/config/table.toml" "${ETC}/table.toml"
fi
# Check the config as the service will read it, before enabling anything.
"${PREFIX}/venv/bin/python" -c '
import sys
from firmware_py.daemon.table_config import load_table_config
from firmware_py.errors import ConfigError
try:
    load_table_config(sys.argv[1], with_display=False)
except ConfigError as exc:
    sys.exit(f"install: {exc}")
' "${ETC}/table.toml"

echo "== unit"
install -m 0644 "${SRC}/systemd/${UNIT}" "/etc/systemd/system/${UNIT}"
if [[ -n "${POKERTABLE_NO_SYSTEMCTL:-}" ]]; then
    # systemd/arm64-chroot.sh: no systemd runs in a chroot.
    echo "POKERTABLE_NO_SYSTEMCTL set: unit installed, not enabled"
    exit 0
fi
systemctl daemon-reload
systemctl enable "$UNIT"
echo "installed. Reboot once (SPI, groups), then: journalctl -u ${UNIT} -f"
