"""Which modules the opt-in mypyc build compiles, and whether the ones imported are the compiled ones.

setup.py reads `compiled_sources` from this file (by path, before the package can be imported), so the
build and the check share one list. `python -m firmware_py.compiled` prints where each of them is
imported from and exits 1 unless every one is a compiled extension: the installer, CI and the arm64
chroot run it after a compiled build, since a build that succeeds can still leave the sources imported.

This file uses the standard library only: setup.py runs it inside pip's build environment.
"""

from __future__ import annotations

import importlib
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# mistakes.py stays interpreted: its Mistakes is extended by the config loaders (interpreted classes
# cannot extend compiled ones), and it only runs while loading files. The session reader's schema,
# firmware_py/session_schema.py, is not in the list either: msgspec reads its Structs' annotations,
# which a compiled class does not keep as written.
LEFT_INTERPRETED = frozenset({"mistakes.py"})


def compiled_sources(root: Path) -> list[str]:
    """The rules core (less `LEFT_INTERPRETED`) and the session reader, as paths relative to `root`.

    The session reader turns each line of a journal or session file into the core's events, and is
    half of a replay's time; its malformed-line messages are the same compiled (CI runs the reader's
    fuzz tests against the compiled build).
    """
    core = sorted(path.relative_to(root).as_posix() for path in (root / "firmware_py" / "core").glob("*.py")
                  if path.name not in LEFT_INTERPRETED)
    return [*core, "firmware_py/session.py"]


def module_name(source: str) -> str:
    """`firmware_py/core/__init__.py` -> `firmware_py.core`; `firmware_py/session.py` -> `firmware_py.session`."""
    parts = source.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_from() -> dict[str, str]:
    """Each compiled module's name and the file it is imported from."""
    root = Path(__file__).resolve().parents[1]
    found: dict[str, str] = {}
    for source in compiled_sources(root):
        name = module_name(source)
        found[name] = str(getattr(importlib.import_module(name), "__file__", None) or "(no file)")
    return found


def main() -> int:
    found = imported_from()
    interpreted = [name for name, path in found.items() if not path.endswith(tuple(EXTENSION_SUFFIXES))]
    for name, path in found.items():
        print(f"{name:32s} {path}")
    if interpreted:
        print(f"NOT COMPILED: {len(interpreted)} of {len(found)} modules are imported from their sources: "
              f"{', '.join(interpreted)} (build with POKERTABLE_COMPILE=1, see setup.py)", file=sys.stderr)
        return 1
    print(f"compiled: all {len(found)} modules are imported from their compiled extensions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
