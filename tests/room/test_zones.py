"""The zone layout at CI size (bench/room_zones.py; the full run is 2 x 25 tables): two zone brokers bridged to
a central one with the shipped config/room/zone-bridge.conf and acl-centre, the bridge cut from each side by a
SIGKILL (what the killed broker held is gone: the tables send it again until the collector's `archived` covers
it), and every ruling and hand stored once, the floor matching every table, `archived` carried back to the
zones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.room.conftest import ROOT
from tests.room.test_publisher import environment


def test_two_zones_bridged_to_the_centre_store_everything_once_after_a_broker_sigkill_on_each_side(
        tmp_path: Path, mosquitto_installed: None) -> None:
    out = tmp_path / "zones.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "room_zones.py"), "--zones", "2", "--tables", "4",
                             "--seconds", "30", "--speed", "10", "--outage", "3", "--hands", "12", "--kill", "--work",
                             str(tmp_path / "work"), "--out", str(out)], cwd=ROOT, env=environment(),
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    results = json.loads(out.read_text())
    assert results["failures"] == []
    assert results["archived_crosses_the_bridge"] is True
    assert results["stored"] == results["expected"] and results["rulings"] > 5 and results["hands"] > 10
