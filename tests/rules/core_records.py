"""The core's records found, not listed: every dataclass of firmware_py/core, its `__init__` and copies as written.

Read from the source (`ast`), so the same holds for the compiled core, whose classes keep no source: the
records whose `__init__` is written out (for mypyc: see the note above `Setup` in core/events.py), the
methods that copy one (`copy`, an undo checkpoint's), and every call that gives a record's fields by position.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "firmware_py" / "core"
# Where records are made by position: the core, and the session reader (compiled with it: firmware_py/compiled.py).
MAKERS = (*sorted(CORE.glob("*.py")), ROOT / "firmware_py" / "session.py")


@dataclass(frozen=True)
class Record:
    """A dataclass of the core, as declared and as its `__init__` is written (None: the generated one)."""

    cls: type
    module: ModuleType
    path: Path
    node: ast.ClassDef
    init: ast.FunctionDef | None

    @property
    def name(self) -> str:
        return self.cls.__name__

    def fields(self) -> tuple[dataclasses.Field[object], ...]:
        return dataclasses.fields(self.cls)

    def init_fields(self) -> list[str]:
        return [f.name for f in self.fields() if f.init]

    def params(self) -> list[ast.arg]:
        """The written `__init__`'s parameters but `self`, positional ones first, in their order."""
        assert self.init is not None
        args = self.init.args
        return [*args.posonlyargs, *args.args][1:] + list(args.kwonlyargs)

    def positional(self) -> int:
        """How many of the fields the written `__init__` takes by position."""
        assert self.init is not None
        return len(self.init.args.posonlyargs) + len(self.init.args.args) - 1

    def final(self, name: str) -> bool:
        """The field is declared `Final[...]` (read-only; its default is the `__init__`'s)."""
        for item in self.node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.target.id == name:
                ann = item.annotation
                return isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name) and ann.value.id == "Final"
        return False

    def where(self, node: ast.AST | None = None) -> str:
        line = getattr(node if node is not None else self.node, "lineno", 0)
        return f"{self.path.relative_to(ROOT)}:{line} {self.name}"


def records() -> list[Record]:
    """Every dataclass defined in firmware_py/core, in file order."""
    found = []
    for path in sorted(CORE.glob("*.py")):
        module = importlib.import_module(f"firmware_py.core.{path.stem}")
        for node in ast.parse(path.read_text()).body:
            cls = getattr(module, node.name, None) if isinstance(node, ast.ClassDef) else None
            if isinstance(node, ast.ClassDef) and isinstance(cls, type) and dataclasses.is_dataclass(cls):
                init = next((item for item in node.body
                             if isinstance(item, ast.FunctionDef) and item.name == "__init__"), None)
                found.append(Record(cls, module, path, node, init))
    return found


def written() -> list[Record]:
    """The records whose `__init__` is written out."""
    return [r for r in records() if r.init is not None]


def self_fields(node: ast.AST, me: str = "self") -> set[str]:
    """The attributes of `me` an expression reads (`self.hole` in `{s: c.copy() for s, c in self.hole.items()}`)."""
    return {n.attr for n in ast.walk(node)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == me}


def names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def assignments(body: ast.FunctionDef, target: str) -> Iterator[tuple[str, ast.AST | None, ast.AST]]:
    """(attribute, the value it is given or None when not told apart, the statement) for each attribute of
    `target` set in the function: `t.a = v`, `t.a, t.b = v, w`, `t.a = t.b = 0`, `object.__setattr__(t, "a", v)`."""
    for node in ast.walk(body):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for aim in targets:
                if isinstance(aim, ast.Attribute) and isinstance(aim.value, ast.Name) and aim.value.id == target:
                    yield aim.attr, node.value, node
                elif isinstance(aim, ast.Tuple):
                    values = node.value.elts if isinstance(node.value, ast.Tuple) else [None] * len(aim.elts)
                    for part, value in zip(aim.elts, values, strict=True):
                        if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) \
                                and part.value.id == target:
                            yield part.attr, value, node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__setattr__" \
                and len(node.args) == 3 and isinstance(node.args[0], ast.Name) and node.args[0].id == target \
                and isinstance(node.args[1], ast.Constant):
            yield str(node.args[1].value), node.args[2], node


def copies(record: Record) -> list[ast.FunctionDef]:
    """The record's methods that make another of it from `self` (a copy or a changed copy)."""
    found = []
    for item in record.node.body:
        if isinstance(item, ast.FunctionDef) and item.name != "__init__" and item.args.args \
                and item.args.args[0].arg == "self" \
                and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == record.name
                        for n in ast.walk(item)):
            found.append(item)
    return found


def positional_calls(made: dict[str, Record]) -> Iterator[tuple[Path, ast.Call, Record]]:
    """Every call, in the core and the session reader, that gives a written-out record fields by position."""
    for path in MAKERS:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in made and node.args:
                yield path, node, made[node.func.id]


def writer(record: Record) -> Record | None:
    """The record whose written `__init__` makes this one: its own, or its parent's (Read and Gone: Sighting's)."""
    if record.init is not None:
        return record
    return next((w for w in written() if w.cls in record.cls.__mro__[1:]), None)


def init_defaults(record: Record) -> dict[str, object]:
    """The written `__init__`'s defaults, by parameter, as its module reads them."""
    assert record.init is not None
    args = record.init.args
    nodes = dict(zip([p.arg for p in [*args.posonlyargs, *args.args][1:]][::-1], args.defaults[::-1], strict=False))
    nodes |= {p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None}
    return {name: eval(compile(ast.Expression(node), str(record.path), "eval"), vars(record.module))
            for name, node in nodes.items()}


def final_defaults() -> dict[type, dict[str, object]]:
    """The records read-only by their `Final` fields (no class-level default: mypy would read it as a constant),
    with their defaults, which are their `__init__`'s."""
    found = {}
    for record in records():
        maker = writer(record)
        if maker is not None and all(maker.final(f.name) for f in record.fields()):
            found[record.cls] = init_defaults(maker)
    return found


def made_by_written_init() -> list[type]:
    """The records a written `__init__` makes, but a base of others that is never made itself (Sighting)."""
    made = [r.cls for r in records() if writer(r) is not None]
    return [cls for cls in made if not any(other is not cls and issubclass(other, cls) for other in made)]
