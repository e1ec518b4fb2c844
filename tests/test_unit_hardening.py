"""The systemd units: systemd-analyze accepts them and rates each sandbox at most 1.5 (the table's was 2.5);
the room's units (collector, floor, broadcast) have the table's hardening."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "pokertable.service"
ROOM_UNITS = [ROOT / "systemd" / name for name in ("pokertable-collector.service", "pokertable-floor.service",
                                                    "pokertable-broadcast@.service")]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_the_unit_passes_verify_and_its_exposure_is_at_most_1_5():
    result = subprocess.run(["bash", str(ROOT / "systemd" / "verify.sh")], capture_output=True, text=True,
                            check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    exposures = {line.split(":")[0]: float(line.split("exposure ")[1].split()[0])
                 for line in result.stdout.splitlines() if "exposure " in line}
    assert set(exposures) == {UNIT.name, *(unit.name for unit in ROOM_UNITS)}
    assert all(exposure <= 1.5 for exposure in exposures.values()), exposures


def test_the_unit_asks_for_the_sandbox_settings_of_issue_13():
    text = UNIT.read_text()
    for setting in ("SystemCallFilter=@system-service", "ProtectProc=invisible", "PrivateUsers=yes",
                    "RemoveIPC=yes", "MemoryDenyWriteExecute=yes", "SystemCallErrorNumber=EPERM"):
        assert f"\n{setting}\n" in text, setting


@pytest.mark.parametrize("unit", ROOM_UNITS, ids=lambda unit: unit.name)
def test_the_room_units_have_the_tables_hardening_and_stop_restarting_on_a_refusal(unit):
    text = unit.read_text()
    table = UNIT.read_text()
    network = ("PrivateNetwork=", "IPAddressDeny=", "RestrictAddressFamilies=")  # they talk to the broker
    kept = [line for line in table.splitlines() if line.startswith(("Protect", "Restrict", "NoNewPrivileges",
                                                                    "PrivateTmp", "PrivateUsers", "LockPersonality",
                                                                    "MemoryDenyWriteExecute", "SystemCall",
                                                                    "RemoveIPC", "CapabilityBoundingSet",
                                                                    "AmbientCapabilities", "DevicePolicy", "UMask"))
            and not line.startswith(network)]
    missing = [line for line in kept if f"\n{line}\n" not in text]
    assert not missing, missing
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n" in text
    assert "RestartPreventExitStatus=2 4\n" in text  # a refused password is not retried every 5 s
    assert "LoadCredential=password:" in text and "${CREDENTIALS_DIRECTORY}/password" in text
