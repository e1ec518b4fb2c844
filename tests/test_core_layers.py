"""The rules core's layers: handlers never import each other, and no module of the core imports itself back.

Read from the sources (ast), not from `sys.modules`: a circle imported lazily inside a function counts
as much as one at the top of a file (issue 21: betting, misdeals, shoe and streets imported each other,
and hand, state and snapshot formed a second circle).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "firmware_py" / "core"
PACKAGE = "firmware_py.core"
# the rule handlers, one per concept
HANDLERS = frozenset({"flow", "shoe", "streets", "betting", "racing", "shotclock", "retrieval", "checkin"})
ABOVE = frozenset({"route", "engine"})  # the routing of events to the handlers, and the core's front


def core_imports(path: Path) -> set[str]:
    """The core modules a source file imports, anywhere in it (TYPE_CHECKING blocks and functions included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == PACKAGE:
                found.update(alias.name for alias in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(alias.name.removeprefix(PACKAGE + ".").split(".")[0]
                         for alias in node.names if alias.name.startswith(PACKAGE + "."))
    return found


def graph() -> dict[str, set[str]]:
    modules = {path.stem for path in CORE.glob("*.py") if path.stem != "__init__"}
    return {name: core_imports(CORE / f"{name}.py") & modules for name in sorted(modules)}


def test_the_handlers_exist() -> None:
    assert set(graph()) >= HANDLERS | ABOVE


@pytest.mark.parametrize("handler", sorted(HANDLERS))
def test_a_handler_imports_no_other_handler(handler: str) -> None:
    sideways = graph()[handler] & HANDLERS - {handler}
    assert not sideways, f"core/{handler}.py imports the handlers {sorted(sideways)}: call down into transitions.py"


def test_only_the_routing_and_the_front_import_handlers() -> None:
    wrong = {name: sorted(imports & HANDLERS) for name, imports in graph().items()
             if name not in HANDLERS | ABOVE and imports & HANDLERS}
    assert not wrong, f"modules below the handlers import them: {wrong}"


def test_no_import_circle_in_the_core() -> None:
    edges = graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for nxt in sorted(edges[name]):
            if state.get(nxt) == 1:
                circles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[name] = 2

    for name in edges:
        if name not in state:
            visit(name, [name])
    assert not circles, "import circles in the core: " + "; ".join(" -> ".join(c) for c in circles)


def test_the_layer_test_sees_a_circle(tmp_path: Path) -> None:
    """The reader of imports finds the forms the core uses (so the tests above can fail)."""
    source = tmp_path / "x.py"
    source.write_text("from firmware_py.core import betting, shoe\nfrom firmware_py.core.hand import Hand\n"
                      "def f():\n    from firmware_py.core.streets import gone\n")
    assert core_imports(source) == {"betting", "shoe", "hand", "streets"}
