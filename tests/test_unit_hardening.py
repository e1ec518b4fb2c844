"""The systemd unit: systemd-analyze accepts it and rates its sandbox at most 1.5 (it was 2.5)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "pokertable.service"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_the_unit_passes_verify_and_its_exposure_is_at_most_1_5():
    result = subprocess.run(["bash", str(ROOT / "systemd" / "verify.sh")], capture_output=True, text=True,
                            check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    exposure = float(result.stdout.split("exposure ")[1].split()[0])
    assert exposure <= 1.5


def test_the_unit_asks_for_the_sandbox_settings_of_issue_13():
    text = UNIT.read_text()
    for setting in ("SystemCallFilter=@system-service", "ProtectProc=invisible", "PrivateUsers=yes",
                    "RemoveIPC=yes", "MemoryDenyWriteExecute=yes", "SystemCallErrorNumber=EPERM"):
        assert f"\n{setting}\n" in text, setting
