"""The adapters' layers: the feature API, the hardware, the daemon and the simulated table import each other one
way only, as the rules core's modules do (tests/test_core_layers.py).

Bottom to top: the feature API (`firmware_py/ports.py`, the port a feature is handed, and `firmware_py/
extensions.py`, the registry), the hardware (`hardware/`), the daemon (`firmware_py/daemon/`), the simulated table
(`firmware_py/simulation/`, which drives a daemon). Read from the sources (ast), not from `sys.modules`: an import
inside a function or a TYPE_CHECKING block counts as much as one at the top of a file (issue 36: these four
imported each other in one 16-file circle, the hardware loader imported the registry, the keypad called up into
the daemon's wiring, and the registry handed every extension the daemon itself).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Each layer's sources, bottom first: an arrow from a layer to one above it runs back up.
LAYERS: dict[str, tuple[str, ...]] = {
    "api": ("firmware_py/ports.py", "firmware_py/extensions.py"),
    "hardware": ("hardware",),
    "daemon": ("firmware_py/daemon",),
    "simulation": ("firmware_py/simulation",),
}
ORDER = {layer: rank for rank, layer in enumerate(LAYERS)}
REGISTRY = "firmware_py.extensions"
PORTS = "firmware_py.ports"
MAX_UPWARD = 1  # issue 36's bound; there is none today


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def sources(root: Path = ROOT) -> dict[str, tuple[str, Path]]:
    """Every module of the four layers: its name, to its layer and file."""
    found: dict[str, tuple[str, Path]] = {}
    for layer, places in LAYERS.items():
        for place in places:
            path = root / place
            for source in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
                found[module_name(source, root)] = (layer, source)
    return found


def imported(path: Path, name: str) -> set[str]:
    """The dotted names a source file imports, anywhere in it (functions and TYPE_CHECKING blocks included):
    `from a.b import c` gives both `a.b` and `a.b.c` (c may be a module); relative imports are resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def resolve(dotted: str, modules: Iterable[str]) -> str | None:
    """The module of the layers a dotted name lands in (its longest known prefix), or None (outside them)."""
    known = set(modules)
    while dotted:
        if dotted in known:
            return dotted
        dotted = dotted.rpartition(".")[0]
    return None


@functools.cache
def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module to the modules of the four layers it imports."""
    modules = sources(root)
    edges: dict[str, set[str]] = {}
    for name, (_layer, path) in modules.items():
        targets = {resolve(dotted, modules) for dotted in imported(path, name)}
        edges[name] = {t for t in targets if t is not None and t != name}
    return edges


def layer_of(name: str, root: Path = ROOT) -> str:
    return sources(root)[name][0]


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(edges.get(name, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    return found


def layer_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = sources(root)
    out: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for name, targets in graph(root).items():
        out[modules[name][0]].update(modules[t][0] for t in targets if modules[t][0] != modules[name][0])
    return out


def upward(root: Path = ROOT) -> list[str]:
    modules = sources(root)
    return sorted(f"{name} -> {target}" for name, targets in graph(root).items() for target in targets
                  if ORDER[modules[target][0]] > ORDER[modules[name][0]])


def test_the_layers_are_there() -> None:
    names = sources()
    assert {REGISTRY, PORTS, "firmware_py.daemon.app", "hardware.keypad", "firmware_py.simulation.wiring"} <= set(names)


def test_the_hardware_never_imports_the_daemon() -> None:
    """Reader threads post to a queue; what attaches them to a daemon is the port, never the daemon's modules."""
    wrong = {name: sorted(t for t in targets if t.startswith("firmware_py.daemon"))
             for name, targets in graph().items() if layer_of(name) == "hardware"}
    wrong = {name: targets for name, targets in wrong.items() if targets}
    assert not wrong, f"hardware/ imports the daemon: {wrong}: attach through firmware_py.ports.TablePort"


def test_the_hardware_loader_imports_no_registry() -> None:
    """The hardware file's extension sections ([keypad]) are read by what the loader is handed."""
    assert REGISTRY not in graph()["hardware.hardware_config"]


@pytest.mark.parametrize("api", [REGISTRY, PORTS])
def test_the_feature_api_imports_no_adapter(api: str) -> None:
    """The registry and the ports import no daemon, hardware or simulation module: an extension is handed the
    table's port, never the daemon."""
    above = sorted(t for t in graph()[api] if layer_of(t) != "api")
    assert not above, f"{api} imports {above}"


def test_no_import_circle_among_the_adapter_packages() -> None:
    found = circles(layer_graph())
    assert not found, "import circles among the layers: " + "; ".join(" -> ".join(c) for c in found)


def test_no_import_circle_among_the_adapter_modules() -> None:
    found = circles(graph())
    assert not found, "import circles among the modules: " + "; ".join(" -> ".join(c) for c in found)


def test_at_most_one_arrow_runs_back_up() -> None:
    arrows = upward()
    assert len(arrows) <= MAX_UPWARD, f"{len(arrows)} imports run back up the layers {list(LAYERS)}: {arrows}"


def test_the_layer_test_sees_every_form_of_import(tmp_path: Path) -> None:
    """The reader of imports finds the forms the adapters use (so the tests above can fail): a function's
    import, a TYPE_CHECKING one, `from package import module`, a relative one, and a circle made of them."""
    for folder in ("hardware", "firmware_py/daemon", "firmware_py/simulation"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "firmware_py/ports.py").write_text("")
    (tmp_path / "firmware_py/extensions.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from firmware_py.daemon.app import Daemon\n")
    (tmp_path / "firmware_py/daemon/app.py").write_text("from hardware import keypad\nfrom . import wiring\n")
    (tmp_path / "firmware_py/daemon/wiring.py").write_text("")
    (tmp_path / "hardware/keypad.py").write_text("def attach():\n    from firmware_py.daemon.wiring import add\n")
    edges = graph(tmp_path)
    assert edges["firmware_py.extensions"] == {"firmware_py.daemon.app"}
    assert edges["firmware_py.daemon.app"] == {"hardware.keypad", "firmware_py.daemon.wiring",
                                              "hardware", "firmware_py.daemon"}
    assert edges["hardware.keypad"] == {"firmware_py.daemon.wiring"}
    assert circles(layer_graph(tmp_path)) == [["daemon", "hardware", "daemon"]]
    assert upward(tmp_path) == ["firmware_py.extensions -> firmware_py.daemon.app",
                                "hardware.keypad -> firmware_py.daemon.wiring"]
