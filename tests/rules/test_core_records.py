"""One record mechanism, checked by discovery: every dataclass of the core whose `__init__` is written out (for
mypyc, see core/events.py) takes its fields in field order with the fields' defaults and sets each from its own
parameter; every copy it has gives each field its own; every call that gives one fields by position gives a
field's namesake in that field's place. Found by walking firmware_py/core, not listed: a new record, a new field
or a new copy is checked the day it is written."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from tests.rules.core_records import (
    Record,
    assignments,
    copies,
    names,
    positional_calls,
    records,
    self_fields,
    written,
)

WRITTEN = written()


def test_the_core_records_are_found_by_walking_the_core() -> None:
    """The walk finds the records (a guard on the walk itself: an empty list would check nothing)."""
    found = {r.name for r in WRITTEN}
    assert {"Pot", "Ruling", "Hand", "Dealt", "Betting", "Board", "HandChips", "TableChips", "Wager", "Button",
            "Sighting", "Taken", "Outcome", "Positions"} <= found
    assert len(found) >= 18 and len(records()) > len(found)  # and records with the generated `__init__`


@pytest.mark.parametrize("record", WRITTEN, ids=lambda r: r.name)
def test_a_written_init_takes_the_record_fields_in_field_order_with_their_defaults(record: Record) -> None:
    params, fields, count = [p.arg for p in record.params()], record.init_fields(), record.positional()
    assert params[:count] == fields[:count] and sorted(params[count:]) == sorted(fields[count:]), \
        f"{record.where(record.init)}: the __init__'s parameters are not the fields (init=True), those taken by " \
        "position in field order"
    assert record.init is not None
    args = record.init.args
    defaults = dict(zip([p.arg for p in [*args.posonlyargs, *args.args][1:]][::-1], args.defaults[::-1], strict=False))
    defaults |= {p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None}
    for field in record.fields():
        if not field.init:
            continue
        given = defaults.get(field.name)
        where = f"{record.where(record.init)}.{field.name}"
        if field.default is not dataclasses.MISSING:
            assert given is not None, f"{where}: the field has a default ({field.default!r}), the parameter none"
            value = eval(compile(ast.Expression(given), str(record.path), "eval"), vars(record.module))
            assert value == field.default, f"{where}: the parameter's default {value!r}, the field's {field.default!r}"
        elif field.default_factory is not dataclasses.MISSING:
            assert isinstance(given, ast.Constant) and given.value is None, \
                f"{where}: a field with a default factory takes None for 'a new one'"
        else:
            assert given is None or record.final(field.name), \
                f"{where}: the parameter has a default the field lacks (only a Final field's default is the __init__'s)"


@pytest.mark.parametrize("record", WRITTEN, ids=lambda r: r.name)
def test_a_written_init_sets_every_field_from_its_own_parameter(record: Record) -> None:
    assert record.init is not None
    set_to: dict[str, list[ast.AST | None]] = {}
    for attr, value, _node in assignments(record.init, "self"):
        set_to.setdefault(attr, []).append(value)
    fields = [f.name for f in record.fields()]
    assert set(fields) - set(set_to) == set(), f"{record.where(record.init)}: fields the __init__ never sets"
    assert set(set_to) - set(fields) == set(), f"{record.where(record.init)}: sets what is not a field"
    others = set(record.init_fields())
    for name in record.init_fields():
        read = set().union(*(names(v) for v in set_to[name] if v is not None)) if set_to[name] else set()
        assert name in read, f"{record.where(record.init)}: `{name}` is not set from its own parameter"
        assert not (read & others) - {name}, \
            f"{record.where(record.init)}: `{name}` is set from another field's parameter: {sorted(read & others)}"


COPIED = [(record, method) for record in WRITTEN for method in copies(record)]


def test_the_copies_are_found() -> None:
    assert {f"{r.name}.{m.name}" for r, m in COPIED} >= {
        "Hand.copy", "Dealt.copy", "Betting.copy", "Board.copy", "BurnLedger.copy", "StreetDeal.copy",
        "HandChips.copy", "TableChips.copy"}


@pytest.mark.parametrize(("record", "method"), COPIED, ids=[f"{r.name}.{m.name}" for r, m in COPIED])
def test_a_written_copy_gives_every_field_its_own_value(record: Record, method: ast.FunctionDef) -> None:
    """A copy made by position (`Dealt(self.slots.copy(), self.next_slot, ...)`) gives the i-th parameter the i-th
    field; one made blank and filled in (`new = HandChips(...)`, `new.order = self.order`) fills every field, each
    from itself. A field left out, or in another's place, would come back wrong from an undo."""
    where = f"{record.where(method)}.{method.name}"
    fields = [f.name for f in record.fields()]
    for node in ast.walk(method):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == record.name):
            continue
        filled = {attr: value for attr, value, _ in assignments(method, _bound_to(method, node) or "")}
        if filled:  # made blank, then filled in field by field
            assert set(fields) - set(filled) == set(), f"{where}: fields the copy leaves at the blank's value"
            for attr, value in filled.items():
                assert value is None or self_fields(value) <= {attr}, f"{where}: `{attr}` given another field"
            continue
        given = {record.params()[i].arg: arg for i, arg in enumerate(node.args)} | \
            {k.arg: k.value for k in node.keywords if k.arg is not None}
        assert set(record.init_fields()) - set(given) == set(), f"{where}: fields the copy leaves at their default"
        for name, arg in given.items():
            read = self_fields(_local_value(method, arg))
            assert read <= {name} and (read or isinstance(arg, ast.Constant) or name not in fields), \
                f"{where}: the `{name}` place is given {ast.unparse(arg)}"


def _local_value(method: ast.FunctionDef, arg: ast.expr) -> ast.AST:
    """What a local name given as an argument was made of (`due = {...self.due...}`), else the argument."""
    if isinstance(arg, ast.Name):
        for node in ast.walk(method):
            if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [arg.id]:
                return node.value
    return arg


def _bound_to(method: ast.FunctionDef, call: ast.Call) -> str | None:
    """The local name a call's result is bound to (`new = HandChips(...)`), if any."""
    for node in ast.walk(method):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


# The records made by a written `__init__`: their own, or their parent's (Read and Gone: Sighting's).
MADE = {r.name: r for r in WRITTEN} | {
    r.name: next(w for w in WRITTEN if w.cls in r.cls.__mro__[1:]) for r in records()
    if r.init is None and any(w.cls in r.cls.__mro__[1:] for w in WRITTEN)}
CALLS = list(positional_calls(MADE))


def test_the_positional_calls_are_found() -> None:
    made = {call.func.id for _path, call, _record in CALLS if isinstance(call.func, ast.Name)}
    assert made >= {"Read", "Gone", "Button", "Taken", "Wager", "Pot", "Outcome", "Hand", "Dealt"}


@pytest.mark.parametrize(("path", "call", "record"), CALLS,
                         ids=[f"{p.stem}:{c.lineno}:{ast.unparse(c.func)}" for p, c, _r in CALLS])
def test_a_record_given_by_position_gets_each_namesake_in_its_own_place(path: object, call: ast.Call,
                                                                          record: Record) -> None:
    """`Taken(street, seat, name, word)`: an argument named as one of the record's fields (`word`, `self.word`)
    sits in that field's place; no more arguments by position than the `__init__` takes so."""
    where = f"{path}:{call.lineno} {ast.unparse(call)[:120]}"
    assert len(call.args) <= record.positional(), f"{where}: more by position than {record.name} takes so"
    fields = record.init_fields()
    for i, arg in enumerate(call.args):
        named = arg.id if isinstance(arg, ast.Name) else arg.attr if isinstance(arg, ast.Attribute) else None
        assert named not in fields or named == fields[i], \
            f"{where}: `{named}` is given in the place of `{fields[i]}`"
