"""The appliance installer's requirements, checked against what Raspberry Pi OS Bookworm ships.

The installer itself is run for real by `systemd/arm64-chroot.sh` (an arm64 bookworm chroot under
qemu-user, recorded in systemd/arm64-chroot.log); these checks keep it from drifting in CI.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
INSTALL = (ROOT / "systemd" / "install.sh").read_text().replace("\\\n", " ")  # continued lines joined
COMMANDS = [line.strip() for line in INSTALL.splitlines() if line.strip() and not line.strip().startswith("#")]
BOOKWORM = {"pygame": "2.1.2", "pyserial": "3.5"}  # python3-pygame, python3-serial in Debian bookworm


def test_the_package_accepts_debian_bookworms_pygame_and_pyserial():
    """pygame>=2.5 made pip report a conflict with Debian's 2.1.2 (the KMS/DRM build the screen needs)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.name in BOOKWORM:
            assert requirement.specifier.contains(BOOKWORM[requirement.name]), line


def test_mfrc522_is_installed_without_its_rpi_gpio_dependency():
    pip_lines = [line for line in COMMANDS if "mfrc522==" in line and "pip" in line]
    assert pip_lines and all("--no-deps" in line for line in pip_lines)
    assert not re.search(r"pip\S*\s+install[^\n]*\bspidev\b", INSTALL)  # Debian's python3-spidev instead


def test_a_compiler_and_python_headers_are_installed_for_phevaluator():
    apt = " ".join(line for line in COMMANDS if "apt-get install" in line)
    for package in ("python3-dev", "gcc", "libc6-dev", "python3-pygame", "python3-spidev"):
        assert re.search(rf"\b{re.escape(package)}\b", apt), package


def test_pip_is_pinned_to_the_system_pygame():
    assert "--constraint" in INSTALL and 'echo "pygame==${system_pygame}"' in INSTALL
    assert "--system-site-packages" in INSTALL


def test_the_rules_core_is_compiled_with_a_pure_python_fallback():
    """setup.py compiles the core with mypyc only when asked; a failed build must not stop the install."""
    assert "POKERTABLE_COMPILE=1" in INSTALL
    fallback = INSTALL.split("POKERTABLE_COMPILE=1", 1)[1]
    assert "did not compile" in fallback and re.search(r'"\$\{pip\[@\]\}" [^\n]*-e "\$\{PREFIX\}/src"', fallback)
