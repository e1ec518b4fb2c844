#!/usr/bin/env bash
# Check the units with systemd-analyze verify (any warning, an unknown key or a bad value, fails) and
# their sandbox with systemd-analyze security (an exposure above 1.5 fails): the table's unit and the
# room's (collector, floor, broadcast; a template is checked as an instance).
# The installed interpreter does not exist off the Pi, so a copy of each unit points at this
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
for unit in pokertable.service pokertable-collector.service pokertable-floor.service pokertable-broadcast@.service; do
    name="${unit/@./@t01.}"
    sed "s|/opt/pokertable/venv/bin/python|$python|" "$here/$unit" > "$work/$name"
    status=0
    output="$(systemd-analyze verify --man=no "$work/$name" 2>&1)" || status=$?
    if [[ -n "$output" || "$status" -ne 0 ]]; then
        printf '%s\n' "$output" >&2
        echo "systemd-analyze verify rejected $unit" >&2
        exit 1
    fi
    echo "$unit: systemd-analyze verify OK"
    # The exposure score of the sandbox (0 safest, 10 none): the goal is at most 1.5.
    exposure="$(systemd-analyze security --offline=yes --no-pager "$work/$name" 2>&1 \
        | sed -n "s/.*Overall exposure level for ${name}: \([0-9.]*\).*/\1/p")"
    if [[ -z "$exposure" ]] || ! awk -v e="$exposure" 'BEGIN { exit !(e <= 1.5) }'; then
        echo "$unit: exposure ${exposure:-unknown}, more than 1.5" >&2
        exit 1
    fi
    echo "$unit: exposure $exposure (at most 1.5)"
done
