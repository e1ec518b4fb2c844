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
import runpy
from pathlib import Path

from setuptools import setup

COMPILE = os.environ.get("POKERTABLE_COMPILE", "") == "1"
# The rules core and the session reader: the list lives in firmware_py/compiled.py, which also checks,
# after an install, that these are the modules imported (read by path: the package cannot be imported
# in pip's build environment).
ROOT = Path(__file__).resolve().parent
MODULES = runpy.run_path(str(ROOT / "firmware_py" / "compiled.py"))["compiled_sources"](ROOT)

if not COMPILE:
    setup()
else:
    try:
        from mypyc.build import mypycify
    except ImportError:
        # pip first asks the backend what the build needs (PEP 517): setuptools answers with
        # setup_requires, pip installs them in the build environment and runs this file again.
        # mypyc type-checks what it compiles, so the build environment also needs the libraries the
        # compiled modules import with their types: orjson and msgspec (session.py and the schema it
        # decodes with, session_schema.py, which stays interpreted; both ship their types).
        # phevaluator has none (pyproject.toml's mypy section ignores it), so it is not needed here.
        setup(setup_requires=["mypy>=1.10", "orjson>=3.8", "msgspec>=0.18"])
    else:
        # One shared library for the group, named rather than hashed: pokertable_core__mypyc.
        setup(ext_modules=mypycify(MODULES, opt_level="3", group_name="pokertable_core"))
