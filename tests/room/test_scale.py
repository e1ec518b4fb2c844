"""The room's scale test at CI size: three tables through a TLS broker with the ACL, two broker restarts,
two tables SIGKILLed and resumed, and then every check of bench/room_scale.py (the full run is 50 tables)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.room.conftest import ROOT
from tests.room.test_publisher import environment


def test_room_at_ci_size_loses_nothing_doubles_nothing_and_leaks_nothing(tmp_path: Path,
                                                                         mosquitto_installed: None) -> None:
    out = tmp_path / "scale.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "room_scale.py"), "--tables", "3", "--seconds",
                             "40", "--outage", "3", "--speed", "20", "--work", str(tmp_path / "work"), "--out",
                             str(out)], cwd=ROOT, env=environment(), capture_output=True, text=True, timeout=240,
                            check=False)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    results = json.loads(out.read_text())
    assert results["failures"] == []
    assert results["rulings"] > 5 and results["hands"] > 10
    assert results["forged_publish"] == "Not authorized"
    assert results["acl"]["floor"]["received"]["state"] > 0 and results["acl"]["production"]["received"]["broadcast"]
