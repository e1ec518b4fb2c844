"""The structure of a tournament: blind levels (blinds, ante or big-blind ante), breaks and color-ups.

A structure is data (config/tournament/*.toml; the schedules of wfp-dealer "Blind Structures, Breaks,
Tournament Timing"). `parse_structure` takes the TOML text already read and the file's name for its
messages: this module reads no file and no clock; `Structure.at(elapsed)` says where a clock that has
run `elapsed` seconds stands.

    [structure]
    name = "wfp-nightly"
    source = "wfp-dealer, Blind Structures: normal nightly games"
    starting_stack = 1500
    denominations = [25, 100, 500, 1000, 5000]   # the chips in play at the start (optional): every stack,
                                   # blind and ante a whole number of the smallest, each color-up removes it

    [[steps]]                      # a level
    small = 25
    big = 50
    minutes = 15
    # ante = 25                    # an ante from every player, or
    # bb_ante = 50                 # the big-blind ante: the big blind posts it for the table

    [[steps]]                      # a color-up between levels: the race for the odd chips (WFP 6, UPT 11)
    color_up = 25                  # the denomination removed
    to = 100                       # the chip its odd chips race for

    [[steps]]
    break_minutes = 10

    [entries]                      # optional: a freezeout without it
    late_registration_until_level = 4   # new entries taken through level 4 (and the break after it)
    re_entries = 1                 # a busted player may enter again this many times (a new entry, a new seat)
    rebuys = 2                     # rebuys a player may make, each of rebuy_chips, through rebuy_until_level,
    rebuy_chips = 1500             #   while at or below rebuy_at_or_below chips (0: the starting stack)
    rebuy_until_level = 3
    rebuy_at_or_below = 0
    add_ons = 1                    # add-ons a player may make, each of add_on_chips, at the first break
    add_on_chips = 3000
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_py.core.chips import denominations_problem


class StructureError(ValueError):
    """A structure file that cannot be used: names the file, the step and the key."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Level:
    number: int  # 1, 2, ... counting levels only
    small: int
    big: int
    minutes: float
    ante: int = 0
    bb_ante: int = 0

    def label(self) -> str:
        text = f"{self.small:,}/{self.big:,}"
        if self.ante:
            text += f" ante {self.ante:,}"
        if self.bb_ante:
            text += f" BB ante {self.bb_ante:,}"
        return text


@dataclass(frozen=True, kw_only=True, slots=True)
class ColorUp:
    remove: int  # the denomination taken off the tables
    to: int  # the denomination its odd chips race for

    def label(self) -> str:
        return f"color up: {self.remove:,} chips off, race for {self.to:,}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Break:
    minutes: float

    def label(self) -> str:
        return f"break {self.minutes:g} min"


Step = Level | ColorUp | Break


@dataclass(frozen=True, kw_only=True, slots=True)
class Clock:
    """Where the clock stands: the level in force (the last one started), a break if one is running, the
    seconds left in the current step, and the color-ups passed so far (their step indexes)."""

    step: int  # index into Structure.steps of the running level or break
    level: Level
    on_break: Break | None
    remaining_s: float
    color_ups: tuple[int, ...]
    next_level: Level | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Entries:
    """What the structure allows besides the first entry: late registration (through a named level), re-entries,
    rebuys and add-ons (their limits, chips and windows). All 0: a freezeout."""

    late_registration_until_level: int = 0
    re_entries: int = 0
    rebuys: int = 0
    rebuy_chips: int = 0
    rebuy_until_level: int = 0
    rebuy_at_or_below: int = 0  # 0: the starting stack
    add_ons: int = 0
    add_on_chips: int = 0


ENTRIES_KEYS = tuple(Entries.__dataclass_fields__)


@dataclass(frozen=True, kw_only=True, slots=True)
class Structure:
    name: str
    source: str
    starting_stack: int
    steps: tuple[Step, ...]
    denominations: tuple[int, ...] = ()  # the chips in play at the start, smallest first (): not given
    entries: Entries = Entries()

    def chips_at(self, step: int) -> tuple[int, ...]:
        """The chips in play at step index `step`: the start's, less the lowest at each color-up passed (its
        `to` chip in play), as WFP Tournament Procedures 6 has it. () when the structure names no chips."""
        chips = self.denominations
        for passed in self.steps[: step + 1]:
            if chips and isinstance(passed, ColorUp):
                chips = tuple(sorted({*chips, passed.to} - {passed.remove}))
        return chips

    def late_open(self, clock: Clock) -> bool:
        """Whether new entries (late registrations, re-entries) are taken with the clock where it stands: through
        the level the structure names and the break after it."""
        return clock.level.number <= self.entries.late_registration_until_level

    def rebuy_open(self, clock: Clock) -> bool:
        return clock.level.number <= self.entries.rebuy_until_level

    def first_break(self) -> int | None:
        """The step index of the first break (the add-on's), or None."""
        return next((i for i, s in enumerate(self.steps) if isinstance(s, Break)), None)

    @property
    def levels(self) -> tuple[Level, ...]:
        return tuple(s for s in self.steps if isinstance(s, Level))

    def at(self, elapsed_s: float) -> Clock:
        """The clock after `elapsed_s` seconds of play (paused time not counted); the last level lasts on."""
        if elapsed_s < 0:
            raise ValueError(f"elapsed time {elapsed_s} is negative")
        left = elapsed_s
        level: Level | None = None
        passed: list[int] = []
        for index, step in enumerate(self.steps):
            if isinstance(step, ColorUp):
                passed.append(index)
                continue
            if isinstance(step, Level):
                level = step
            seconds = step.minutes * 60.0
            last_timed = not any(isinstance(s, Level | Break) for s in self.steps[index + 1:])
            if left < seconds or last_timed:
                assert level is not None or isinstance(step, Break)
                current = level if level is not None else self.levels[0]
                return Clock(step=index, level=current, on_break=step if isinstance(step, Break) else None,
                             remaining_s=max(0.0, seconds - left), color_ups=tuple(passed),
                             next_level=next((s for s in self.steps[index + 1:] if isinstance(s, Level)), None))
            left -= seconds
        raise AssertionError("a structure has at least one level")  # parse_structure makes sure

    def color_ups_between(self, before: Clock, after: Clock) -> tuple[ColorUp, ...]:
        """The color-ups the clock passed going from `before` to `after`."""
        done = set(before.color_ups)
        found = [self.steps[i] for i in after.color_ups if i not in done]
        return tuple(s for s in found if isinstance(s, ColorUp))


_LEVEL_KEYS = ("small", "big", "minutes", "ante", "bb_ante")
HEAD_KEYS = ("name", "source", "starting_stack", "denominations")
_ALL_KEYS = (*_LEVEL_KEYS, "color_up", "to", "break_minutes")


def _suggest(key: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (keys: {', '.join(known)})"


def _number(value: Any, where: str, *, positive: bool = True) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (1 if positive else 0):
        raise StructureError(f"{where}: {value!r} must be a whole number {'above' if positive else 'of at least'} "
                             f"zero")
    return value


def _minutes(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 24 * 60:
        raise StructureError(f"{where}: {value!r} must be a number of minutes above 0, at most 1440")
    return float(value)


def parse_structure(text: str, source: str) -> Structure:
    """A structure from the TOML `text` of the file `source` (StructureError naming the file, step and key)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StructureError(f"{source}: not TOML: {exc}") from None
    return structure_from(data, source)


def structure_from(data: Mapping[str, Any], source: str) -> Structure:
    for key in data:
        if key not in ("structure", "steps", "entries"):
            raise StructureError(f"{source}: unknown section [{key}]{_suggest(key, ['structure', 'steps', 'entries'])}")
    head = data.get("structure")
    if not isinstance(head, dict):
        raise StructureError(f"{source}: no [structure] section (name, source, starting_stack)")
    for key in head:
        if key not in HEAD_KEYS:
            raise StructureError(f"{source}: [structure] unknown key {key!r}{_suggest(key, HEAD_KEYS)}")
    name = head.get("name")
    if not isinstance(name, str) or not name:
        raise StructureError(f"{source}: [structure] name must be a text, e.g. name = \"wfp-nightly\"")
    stack = _number(head.get("starting_stack"), f"{source}: [structure] starting_stack")
    raw = data.get("steps")
    if not isinstance(raw, list) or not raw:
        raise StructureError(f"{source}: no [[steps]]: a structure needs at least one level")
    steps: list[Step] = []
    levels = 0
    for index, item in enumerate(raw, start=1):
        where = f"{source}: [[steps]] number {index}"
        if not isinstance(item, dict):
            raise StructureError(f"{where}: must be a table of keys")
        for key in item:
            if key not in _ALL_KEYS:
                raise StructureError(f"{where}: unknown key {key!r}{_suggest(key, _ALL_KEYS)}")
        if "color_up" in item:
            extra = sorted(set(item) - {"color_up", "to"})
            if extra:
                raise StructureError(f"{where}: a color-up has only color_up and to, not {', '.join(extra)}")
            remove = _number(item["color_up"], f"{where} color_up")
            to = _number(item.get("to"), f"{where} to")
            if to <= remove or to % remove:
                raise StructureError(f"{where}: to = {to} must be a multiple of color_up = {remove}, larger")
            steps.append(ColorUp(remove=remove, to=to))
        elif "break_minutes" in item:
            extra = sorted(set(item) - {"break_minutes"})
            if extra:
                raise StructureError(f"{where}: a break has only break_minutes, not {', '.join(extra)}")
            steps.append(Break(minutes=_minutes(item["break_minutes"], f"{where} break_minutes")))
        else:
            small = _number(item.get("small"), f"{where} small")
            big = _number(item.get("big"), f"{where} big")
            if big < small:
                raise StructureError(f"{where}: big = {big} is less than small = {small}")
            ante = _number(item.get("ante", 0), f"{where} ante", positive=False)
            bb_ante = _number(item.get("bb_ante", 0), f"{where} bb_ante", positive=False)
            if ante and bb_ante:
                raise StructureError(f"{where}: a level has an ante or a big-blind ante, not both")
            levels += 1
            steps.append(Level(number=levels, small=small, big=big, ante=ante, bb_ante=bb_ante,
                               minutes=_minutes(item.get("minutes"), f"{where} minutes")))
    if not levels:
        raise StructureError(f"{source}: no level among the steps (small, big, minutes)")
    if not isinstance(steps[0], Level):
        raise StructureError(f"{source}: the first step must be a level")
    source_text = head.get("source", "")
    if not isinstance(source_text, str):
        raise StructureError(f"{source}: [structure] source must be a text")
    chips = _denominations(head.get("denominations"), source)
    if chips:
        _check_chips(chips, stack, steps, source)
    structure = Structure(name=name, source=source_text, starting_stack=stack, steps=tuple(steps),
                          denominations=chips, entries=_entries(data.get("entries", {}), source, levels=levels,
                                                                steps=steps))
    if chips:
        _check_entry_chips(structure, source)
    return structure


def _check_entry_chips(structure: Structure, source: str) -> None:
    """A late entry's stack, a rebuy's and an add-on's chips made of the chips in play when they are taken (the
    smallest chip only grows at each color-up, so the last step of each window is the one to check)."""
    entries, steps = structure.entries, structure.steps

    def step_of_level(number: int) -> int:
        return next(i for i, s in enumerate(steps) if isinstance(s, Level) and s.number == number)

    windows = []
    if entries.late_registration_until_level:
        windows.append(("starting_stack", "[structure] starting_stack", structure.starting_stack,
                        step_of_level(entries.late_registration_until_level), "a late entry"))
    if entries.rebuys:
        windows.append(("rebuy_chips", "[entries] rebuy_chips", entries.rebuy_chips,
                        step_of_level(entries.rebuy_until_level), "a rebuy"))
    first_break = structure.first_break()
    if entries.add_ons and first_break is not None:
        windows.append(("add_on_chips", "[entries] add_on_chips", entries.add_on_chips, first_break, "the add-on"))
    for _key, where, amount, step, what in windows:
        smallest = structure.chips_at(step)[0]
        if amount % smallest:
            raise StructureError(f"{source}: {where} = {amount}: {what} is paid in chips, and {amount:,} is no whole "
                                 f"number of the smallest chip in play then, {smallest:,} (e.g. "
                                 f"{max(smallest, amount - amount % smallest)})")


def _denominations(given: Any, source: str) -> tuple[int, ...]:
    """`[structure] denominations`: the chips in play at the start (none given: ())."""
    if given is None:
        return ()
    if not isinstance(given, list) or not given or any(
            isinstance(chip, bool) or not isinstance(chip, int) or chip < 1 for chip in given):
        raise StructureError(f"{source}: [structure] denominations: {given!r} must be a list of the chip values in "
                             "play, each a whole number above zero, e.g. denominations = [25, 100, 500, 1000, 5000]")
    chips = tuple(sorted(given))
    problem = denominations_problem(chips)
    if problem:
        raise StructureError(f"{source}: [structure] denominations: {given!r}: {problem}")
    return chips


def _check_chips(chips: tuple[int, ...], stack: int, steps: Sequence[Step], source: str) -> None:
    """Every stack, blind and ante made of the chips in play at its step; each color-up removes the lowest chip
    in play (WFP Tournament Procedures 6, UPT Tournaments 11: "The lowest denomination of chip in play will be
    removed from the table when it is no longer needed in the blind or ante structure")."""
    if stack % chips[0]:
        raise StructureError(f"{source}: [structure] starting_stack: {stack:,} is no whole number of the smallest "
                             f"chip in play, {chips[0]:,}: a stack is made of chips "
                             f"(e.g. starting_stack = {max(chips[0], stack - stack % chips[0])})")
    for index, step in enumerate(steps, start=1):
        where = f"{source}: [[steps]] number {index}"
        if isinstance(step, ColorUp):
            if step.remove != chips[0]:
                what = "not a chip in play" if step.remove not in chips else "not the lowest chip in play"
                raise StructureError(f"{where} color_up: {step.remove:,} is {what} ({', '.join(map(str, chips))}): "
                                     f"a color-up removes the lowest, {chips[0]:,}")
            chips = tuple(sorted({*chips, step.to} - {step.remove}))
        elif isinstance(step, Level):
            odd = [f"{what} = {amount}" for what, amount in (("small", step.small), ("big", step.big),
                                                            ("ante", step.ante), ("bb_ante", step.bb_ante))
                   if amount % chips[0]]
            if odd:
                raise StructureError(f"{where}: {', '.join(odd)} is no whole number of the smallest chip in play "
                                     f"then, {chips[0]:,}: a blind or ante is made of chips (move the color-up "
                                     "after this level, or change it)")


def _entries(raw: Any, source: str, *, levels: int, steps: Sequence[Step]) -> Entries:
    if not isinstance(raw, dict):
        raise StructureError(f"{source}: [entries] must be a table of keys")
    values: dict[str, int] = {}
    for key, value in raw.items():
        if key not in ENTRIES_KEYS:
            raise StructureError(f"{source}: [entries] unknown key {key!r}{_suggest(key, ENTRIES_KEYS)}")
        values[key] = _number(value, f"{source}: [entries] {key}", positive=False)
    entries = Entries(**values)
    for key in ("late_registration_until_level", "rebuy_until_level"):
        if getattr(entries, key) > levels:
            raise StructureError(f"{source}: [entries] {key} = {getattr(entries, key)}: the structure has "
                                 f"{levels} levels (name one of 1..{levels})")
    if entries.rebuys and not (entries.rebuy_chips and entries.rebuy_until_level):
        raise StructureError(f"{source}: [entries] rebuys = {entries.rebuys} needs rebuy_chips and "
                             "rebuy_until_level (e.g. rebuy_chips = 1500, rebuy_until_level = 3)")
    if entries.add_ons and not entries.add_on_chips:
        raise StructureError(f"{source}: [entries] add_ons = {entries.add_ons} needs add_on_chips "
                             "(e.g. add_on_chips = 3000)")
    if entries.add_ons and not any(isinstance(s, Break) for s in steps):
        raise StructureError(f"{source}: [entries] add_ons = {entries.add_ons}: the add-on is taken at the first "
                             "break, and the structure has no break (add [[steps]] break_minutes = 10)")
    if entries.re_entries and not entries.late_registration_until_level:
        raise StructureError(f"{source}: [entries] re_entries = {entries.re_entries}: a re-entry is a late entry, "
                             "and late_registration_until_level is 0 (name the last level entries are taken)")
    return entries
