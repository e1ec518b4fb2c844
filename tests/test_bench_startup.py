"""Every benchmark runs as the README writes it (`python bench/NAME.py`): Python then puts bench/, not the root, on
the path, so a script that imports the project's packages must take the one start-up step first
(`from _startup import ROOT`, bench/_startup.py). bench/journal_damage.py did not, and stopped at once with
"No module named 'firmware_py'" wherever the project was not pip-installed from that checkout."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("firmware_py", "display", "hardware", "tests")
SCRIPTS = sorted(p for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))


def _imports(tree: ast.Module) -> list[tuple[int, str]]:
    """The module-level imports, in order: (line, the top package)."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_benchmark_script_takes_the_start_up_step_before_the_project_s_imports(script: Path) -> None:
    imports = _imports(ast.parse(script.read_text(), str(script)))
    project = [line for line, top in imports if top in PROJECT]
    if not project:
        return  # nothing of the project's at import time (it runs the project in a subprocess)
    startup = [line for line, top in imports if top == "_startup"]
    assert startup and startup[0] < project[0], (
        f"{script.relative_to(ROOT)} line {project[0]} imports the project before `from _startup import ROOT`: "
        "`python bench/...` cannot find it unless the project is pip-installed from this checkout")
