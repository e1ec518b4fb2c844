"""The appliance installer's requirements, checked against what Raspberry Pi OS Bookworm ships.

The installer itself is run for real by `systemd/arm64-chroot.sh` (an arm64 bookworm chroot under
qemu-user, recorded in systemd/arm64-chroot.log); these checks keep it from drifting in CI.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

from firmware_py.compiled import compiled_sources, module_name

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


def test_a_failed_compiled_build_stops_the_install():
    """The appliance is compiled unless POKERTABLE_COMPILE=0 says otherwise; a failed build is an error.

    It used to fall back to pure Python with a warning: a fresh install then ran 1.7-2.4x slower than
    the README said and nothing failed.
    """
    assert 'compile="${POKERTABLE_COMPILE:-1}"' in INSTALL
    build = INSTALL.split('compile="${POKERTABLE_COMPILE:-1}"', 1)[1].split("mfrc522", 1)[0]
    assert re.search(r'if ! POKERTABLE_COMPILE="\$compile" "\$\{pip\[@\]\}" [^\n]*-e "\$\{PREFIX\}/src"', build)
    assert build.count('"${pip[@]}"') == 1, "no second, pure-Python install after a failed build"
    assert "exit 1" in build and "-m firmware_py.compiled" in build


def test_the_compiled_build_asks_for_every_typed_library_the_compiled_modules_import():
    """mypyc type-checks what it compiles in pip's build environment, which has only what setup.py asks
    for: session.py's orjson was missing there, and a fresh venv's compiled install stopped."""
    code = (
        "import sys; sys.modules['mypyc'] = None  # as in pip's fresh build environment\n"
        "from setuptools import build_meta; print('\\n'.join(build_meta.get_requires_for_build_editable()))"
    )
    asked = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "POKERTABLE_COMPILE": "1"},
                           capture_output=True, text=True, check=True).stdout.split()
    asked_names = {Requirement(line).name for line in asked}
    mypy_ignored = {module for override in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
                    .get("overrides", []) if override.get("ignore_missing_imports") for module in override["module"]}
    imported: set[str] = set()
    for source in compiled_sources(ROOT):
        for node in ast.walk(ast.parse((ROOT / source).read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    third_party = {name for name in imported if name not in sys.stdlib_module_names and name != "firmware_py"}
    assert "mypy" in asked_names
    assert third_party, "the compiled modules import orjson and phevaluator"
    for name in third_party:
        assert name in asked_names or name in mypy_ignored, f"{name}: add it to setup.py's setup_requires"


def test_the_compiled_check_names_the_modules_imported_from_their_sources():
    """This test environment is uncompiled (the README's install): the check must say so and fail."""
    result = subprocess.run([sys.executable, "-m", "firmware_py.compiled"], cwd=ROOT, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 1
    assert "firmware_py.core.engine" in result.stderr and "firmware_py.session" in result.stderr
    assert {module_name(source) for source in compiled_sources(ROOT)} >= {"firmware_py.core", "firmware_py.session"}
    assert "firmware_py/core/mistakes.py" not in compiled_sources(ROOT)
