#!/usr/bin/env bash
# Redraw the README's pictures from the example sessions, headless, with the shipped table file's
# names and blinds: bash docs/img/make.sh (from anywhere; run from a clone with the package installed).
set -euo pipefail
cd "$(dirname "$0")/../.."
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
snap() { python -m firmware_py snapshot "$@" --config config/table.toml; }
sessions=tests/sessions
snap "$sessions/clean_showdown.jsonl" --view venue --at 20 --out docs/img/venue-800x480.png
snap "$sessions/misdeal_exposed_robert.jsonl" --view venue --out docs/img/venue-ruling-800x480.png
snap "$sessions/misdeal_exposed_robert.jsonl" --view venue --size 1920x1080 --out docs/img/venue-ruling-1920x1080.png
snap "$sessions/clean_showdown.jsonl" --view broadcast --delay 10 --at 42.5 --out docs/img/broadcast-800x480.png
snap "$sessions/clean_showdown.jsonl" --view broadcast --delay 10 --at 42.5 --size 1920x1080 \
    --out docs/img/broadcast-1920x1080.png
snap "$sessions/clean_showdown.jsonl" --view broadcast --at 20 --out docs/img/broadcast-delay-800x480.png
snap "$sessions/three_way_allin_robert.jsonl" --view venue --at 9 --out docs/img/venue-chips-800x480.png
snap "$sessions/three_way_allin_robert.jsonl" --view broadcast --delay 10 --at 24 --size 1280x720 \
    --out docs/img/broadcast-chips-1280x720.png
snap "$sessions/chip_race_wfp.jsonl" --view venue --at 8.2 --out docs/img/venue-chip-race-800x480.png
snap "$sessions/checkin_wrong_seat_wfp.jsonl" --view venue --at 9.2 --out docs/img/venue-checkin-800x480.png
snap "$sessions/checkin_wrong_seat_wfp.jsonl" --view venue --at 4.6 --out docs/img/venue-not-checked-in-800x480.png
snap "$sessions/bb_ante_short_upt.jsonl" --view broadcast --delay 1 --at 10 --size 1280x720 \
    --out docs/img/broadcast-bb-ante-1280x720.png
# The overlay page (the OBS browser source) in Debian's chromium, over a felt backdrop (the page itself is
# transparent): the browser tests keep their pictures when given OVERLAY_SHOTS.
shots=$(mktemp -d)
OVERLAY_SHOTS="$shots" python -m pytest -q -p no:cacheprovider tests/overlay/test_overlay_hand.py \
    tests/overlay/test_overlay_control.py tests/overlay/test_overlay_short_blind.py
for name in overlay-flop-1920x1080 overlay-showdown-1920x1080 overlay-showdown-1280x720 overlay-turn-1080x1920 \
        overlay-misdeal-1920x1080 overlay-reveal-first-action-1280x720 overlay-bb-ante-1280x720 \
        overlay-short-blind-1920x1080; do
    cp "$shots/$name.png" docs/img/
done
rm -rf "$shots"
# The venue screen in a tournament (hand-for-hand, a hold, a player called by name)
POKERTABLE_SCREENSHOTS=docs/img python -m pytest -q -p no:cacheprovider tests/display/test_venue_tournament.py
# The venue screen's dead button and an all-in winner after the award; the floor's two tall tiles at 720p;
# the action tracker (its verdicts hand, a dead button, the README's tablet and phone pictures) in chromium
POKERTABLE_SCREENSHOTS=docs/img python -m pytest -q -p no:cacheprovider tests/display/test_venue_truths.py \
    tests/display/test_floor_legible.py tests/web/test_tracker_browser.py
# The room's chip counts (the floor at 720p, the director's page) and a jackpot hand; the overlay's chip leaders
POKERTABLE_SCREENSHOTS=docs/img python -m pytest -q -p no:cacheprovider tests/room/test_chip_counts.py \
    tests/room/test_chip_counts_page.py
OVERLAY_SHOTS=docs/img python -m pytest -q -p no:cacheprovider tests/overlay/test_overlay_chip_leaders.py
