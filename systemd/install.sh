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
apt-get install -y python3-venv python3-pygame python3-lgpio python3-serial python3-evdev sqlite3

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
rm -rf "${PREFIX}/src/.git" "${PREFIX}/src/state"
python3 -m venv --system-site-packages "${PREFIX}/venv"
# --no-deps for pygame: the system one (KMS/DRM) must win over a PyPI wheel.
"${PREFIX}/venv/bin/pip" install --no-deps -e "${PREFIX}/src"
"${PREFIX}/venv/bin/pip" install "phevaluator>=0.6" "gpiozero>=2.0" "pokerkit>=0.7" mfrc522 spidev
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
from firmware_py.daemon.config import load_table_config
from firmware_py.errors import ConfigError
try:
    load_table_config(sys.argv[1], with_display=False)
except ConfigError as exc:
    sys.exit(f"install: {exc}")
' "${ETC}/table.toml"

echo "== unit"
install -m 0644 "${SRC}/systemd/${UNIT}" "/etc/systemd/system/${UNIT}"
systemctl daemon-reload
systemctl enable "$UNIT"
echo "installed. Reboot once (SPI, groups), then: journalctl -u ${UNIT} -f"
