"""The room's schemas of the core's records, made from those records: one declaration per record.

A ruling and a pot cross into the room (the `ruling` and `state` messages) as the core writes them
(`Ruling.to_json`, `Pot.to_json`). Their msgspec schemas (`messages.RulingJson`, `messages.PotJson`)
are made here from the core records' own fields, in their order, so a field the core adds is a field
the room carries and checks, with no second list kept by hand:

- each field's wire type is the room's bound for that field's name (`FIELD_TYPES`), else the bound
  for its Python type (`BY_TYPE`: a tuple of ints is a list of seats, an int an amount of chips, a
  str a text, a bool a bool);
- a field the record gives a default is optional on the wire (`to_json` leaves it out at its default),
  a field without one is required;
- a field of a type neither table knows stops the import, naming the record, the field and where to
  add its bound (the room's tests import this module, so the core's change cannot land silently).

The feed's pot and ruling (`feed.FeedPot`, `feed.FeedRuling`) and the tournament's pot
(`tournament_messages.PotJson`) are shapes of their own (a pot's name, a ruling's title, shares as
pairs); each carries every field of its core record but those `LEFT_OUT` names here with the reason,
which tests/room/test_wire_records.py holds them to.

Only the field names and defaults of a record are read (`dataclasses.fields`), which the compiled
core keeps as the interpreted one does; the Python type is read only for a field `FIELD_TYPES` lacks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

from firmware_py.core.events import MAX_SEATS
from firmware_py.core.rulings import RulingKind, Street
from firmware_py.core.vocab import Cause
from firmware_py.room.bounds import Card, Chips, Name, SeatNo, Seconds, Text

Seats = Annotated[list[SeatNo], msgspec.Meta(max_length=MAX_SEATS)]
# A pot's shares as `Pot.to_json` writes them: {"seat": chips}, the seat number as the key.
SeatKey = Annotated[str, msgspec.Meta(pattern=r"^[0-9]{1,2}$")]
Shares = Annotated[dict[SeatKey, Chips], msgspec.Meta(max_length=MAX_SEATS)]

# The room's bound for a core record's field, by the field's name (the same name means the same thing in
# every record: `seats`, `winners` and `odd_chips` are seat numbers, `amount` and `chip` chips).
FIELD_TYPES: dict[str, Any] = {
    "t": Seconds, "ruling": RulingKind, "rule": Text, "remedy": Text, "cause": Cause, "card": Card, "seat": SeatNo,
    "street": Street, "hand": Name, "amount": Chips, "chip": Chips, "seats": Seats, "winners": Seats,
    "odd_chips": Seats, "shares": Shares, "low_winners": Seats, "low_hand": Name,
}
# The bound for a field the table above does not name, by its Python type (as the record's annotation reads). The
# compiled core's records may give a bare class there (`tuple`, not `tuple[int, ...]`): a field whose type names no
# bound then stops the import, naming it, so a new container field is named above (the compiled CI run finds it).
BY_TYPE: dict[str, Any] = {
    "int": Chips, "int | None": Chips, "str": Text, "str | None": Text, "bool": bool, "bool | None": bool,
    "tuple[int, ...]": Seats, "tuple[int, ...] | None": Seats,
}
# What the room's other shapes of a core record leave out, and why (tests/room/test_wire_records.py).
LEFT_OUT: dict[str, dict[str, str]] = {
    "feed.FeedPot": {
        "odd_chips": "the picture shows each winner's share, odd chips included (`shares`)",
        "chip": "the chip an odd chip is worth is the floor's and the archive's, not the picture's",
    },
    "feed.FeedRuling": {
        "amount": "the banner shows the ruling and its remedy, which says the amount",
        "pots": "the feed carries the pots on their own (`BroadcastFeed.pots`), named",
    },
    "tournament_messages.PotJson": {
        "odd_chips": "the director checks the stacks by each winner's share, odd chips included (`shares`)",
        "chip": "the director checks chips, not the chip they were split in",
    },
}


def _type_name(annotation: object) -> str:
    return annotation.__name__ if isinstance(annotation, type) else str(annotation)


def wire_type(record: type, field: dataclasses.Field[Any], types: Mapping[str, Any] | None = None) -> Any:
    """The room's bound for one field of a core record: `types`, then `FIELD_TYPES` by name, then `BY_TYPE`."""
    for table in (types or {}, FIELD_TYPES):
        if field.name in table:
            return table[field.name]
    known = BY_TYPE.get(_type_name(field.type))
    if known is None:
        raise TypeError(f"{record.__name__}.{field.name} ({_type_name(field.type)}): the room has no bound for it; "
                        f"add one to FIELD_TYPES in firmware_py/room/wire.py")
    return known


def record_struct(record: type, name: str, *, base: type[msgspec.Struct],
                  types: Mapping[str, Any] | None = None) -> type[msgspec.Struct]:
    """A msgspec Struct named `name` for what `record.to_json()` writes: one field per field of the record, in
    its order, each bounded (`wire_type`); a field with a default optional (None when left out)."""
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for field in dataclasses.fields(record):
        bound = wire_type(record, field, types)
        has_default = field.default is not dataclasses.MISSING or field.default_factory is not dataclasses.MISSING
        fields.append((field.name, bound | None, None) if has_default else (field.name, bound))
    return msgspec.defstruct(name, fields, bases=(base,), module=base.__module__, kw_only=True,
                             forbid_unknown_fields=True)


def carried(record: type, shape: type[msgspec.Struct]) -> tuple[set[str], set[str]]:
    """(the record's fields `shape` lacks, the fields it lacks that `LEFT_OUT` does not excuse)."""
    lacking = {f.name for f in dataclasses.fields(record)} - set(shape.__struct_fields__)
    excused = LEFT_OUT.get(f"{shape.__module__.rsplit('.', 1)[-1]}.{shape.__name__}", {})
    return lacking, lacking - set(excused)
