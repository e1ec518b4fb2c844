#!/usr/bin/env bash
# Check the unit with systemd-analyze verify (any warning, an unknown key or a bad value, fails) and
# its sandbox with systemd-analyze security (an exposure above 1.5 fails).
# The installed interpreter does not exist off the Pi, so a copy of the unit points at this
# machine's python3 instead; everything else is checked as written.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v systemd-analyze >/dev/null 2>&1; then
    echo "systemd-analyze not found: skipping the unit check" >&2
    exit 0
fi
python="$(command -v python3)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sed "s|/opt/pokertable/venv/bin/python|$python|" "$here/pokertable.service" > "$work/pokertable.service"
output="$(systemd-analyze verify --man=no "$work/pokertable.service" 2>&1)" || status=$?
if [[ -n "$output" || "${status:-0}" -ne 0 ]]; then
    printf '%s\n' "$output" >&2
    echo "systemd-analyze verify rejected pokertable.service" >&2
    exit 1
fi
echo "pokertable.service: systemd-analyze verify OK"
# The exposure score of the sandbox (0 safest, 10 none): the goal is at most 1.5.
exposure="$(systemd-analyze security --offline=yes --no-pager "$work/pokertable.service" 2>&1 \
    | sed -n 's/.*Overall exposure level for pokertable.service: \([0-9.]*\).*/\1/p')"
if [[ -z "$exposure" ]] || ! awk -v e="$exposure" 'BEGIN { exit !(e <= 1.5) }'; then
    echo "pokertable.service: exposure ${exposure:-unknown}, more than 1.5" >&2
    exit 1
fi
echo "pokertable.service: exposure $exposure (at most 1.5)"
