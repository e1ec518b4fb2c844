"""One errors module: every exception the project raises on purpose lives in `firmware_py.errors`,
derives from TableError and from the built-in it resembles, so callers can catch either."""

from __future__ import annotations

import inspect
from pathlib import Path

from firmware_py import errors
from firmware_py.errors import JournalFull, ReaderNotAnswering, TableError

ROOT = Path(__file__).resolve().parent.parent


def test_every_error_is_a_table_error_and_a_builtin():
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__]
    assert len(classes) >= 12
    for cls in classes:
        if cls is TableError:
            continue
        assert issubclass(cls, TableError), cls
        assert any(base.__module__ == "builtins" and base is not Exception for base in cls.__mro__[1:]), cls
    assert issubclass(ReaderNotAnswering, TimeoutError) and issubclass(JournalFull, OSError)


def test_the_old_error_modules_and_colliding_module_names_are_gone():
    for old in ("hardware/errors.py", "hardware/config.py", "display/config.py", "firmware_py/daemon/config.py",
                "firmware_py/room/config.py", "firmware_py/daemon/faults.py", "hardware/faults.py",
                "tests/rules/table.py", "firmware_py/core/table.py", "hardware/emulation/table.py",
                "firmware_py/simulation/table.py"):
        assert not (ROOT / old).exists(), old
    names = [p.name for top in ("firmware_py", "display", "hardware") for p in (ROOT / top).rglob("*.py")]
    for name in ("config.py", "faults.py", "errors.py", "table.py"):
        assert names.count(name) <= 1, name
