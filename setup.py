"""The opt-in compiled build: `POKERTABLE_COMPILE=1` at build time compiles the rules core and the
session reader with mypyc.

Without the variable (the README's `pip install -e '.[test]'`, development) the package is pure
Python, as pyproject.toml describes it; this file only adds the extension modules. With it, mypyc
(part of mypy, which type-checks the core already) turns the core's annotated modules into C
extensions built by the system compiler, about 2.4x as fast on `TableCore.feed`. The appliance
installer sets it (systemd/install.sh); `bench/compiled.sh` builds and measures it in a scratch copy.
It needs a C compiler and the Python headers (the installer's gcc and python3-dev) and mypy, which
pip fetches into the build environment.

An editable install compiled this way puts the .so files beside the .py files, and Python then
imports the .so: an edit to the core's source does nothing until it is rebuilt. Develop uncompiled.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

COMPILE = os.environ.get("POKERTABLE_COMPILE", "") == "1"
# The rules core, except mistakes.py: its Mistakes is extended by the config loaders (interpreted
# classes cannot extend compiled ones), and it only runs while loading files. And the session reader,
# which turns each line of a journal or session file into the core's events: with it compiled the
# 500-hand replay drops from 155 to 143 ms (its malformed-line messages are the same: CI runs the
# reader's fuzz tests against this build).
LEFT_INTERPRETED = {"mistakes.py"}
MODULES = [*sorted(str(path) for path in Path("firmware_py/core").glob("*.py") if path.name not in LEFT_INTERPRETED),
           "firmware_py/session.py"]

if not COMPILE:
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        # pip first asks the backend what the build needs (PEP 517): setuptools answers with
        # setup_requires, pip installs mypy in the build environment and runs this file again.
        setup(setup_requires=["mypy>=1.10"])
    else:
        # One shared library for the group, named rather than hashed: pokertable_core__mypyc.
        setup(ext_modules=mypycify(MODULES, opt_level="3", group_name="pokertable_core"))
