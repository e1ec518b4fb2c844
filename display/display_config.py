"""What the display knows that the core does not: player names, blind levels, broadcast delay."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from firmware_py.config_toolkit import ConfigMistakes, Section, how_to_write, shown
from firmware_py.core.chips import Stakes
from firmware_py.core.events import MAX_SEATS
from firmware_py.errors import ConfigError


class View(StrEnum):
    """What a screen shows (`[display] view`, the `snapshot` command's `--view`)."""

    VENUE = "venue"
    BROADCAST = "broadcast"
    OPERATOR = "operator"  # the operator's own screen: live status, never hole cards, never on air

DEFAULT_DELAY_S = 120.0


@dataclass(frozen=True, kw_only=True, slots=True)
class BlindLevel:
    """One level of the blind schedule: the core's stakes (blinds, ante) and how long they last.

    Its own record, not a subclass of the core's `Stakes`: a compiled core (mypyc) cannot be extended.
    """

    small: int
    big: int
    ante: int = 0
    bb_ante: int = 0  # the big-blind ante: one forced bet the big blind posts for the table
    minutes: float

    @property
    def stakes(self) -> Stakes:
        return Stakes(small=self.small, big=self.big, ante=self.ante, bb_ante=self.bb_ante)


DEFAULT_LEVELS = tuple(
    BlindLevel(small=small, big=big, minutes=20)
    for small, big in ((25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400),
                       (300, 600), (400, 800), (500, 1000), (700, 1400), (1000, 2000))
)


@dataclass(frozen=True, kw_only=True, slots=True)
class LevelNow:
    """The blind level in force at a moment: its number (from 1), the level, seconds left in it."""

    number: int
    level: BlindLevel
    seconds_left: float | None  # None on the last level, which never ends


@dataclass(frozen=True, kw_only=True, slots=True)
class DisplayConfig:
    """Names, blinds and the broadcast delay; validated when made.

    >>> DisplayConfig(seat_names={3: "Ada"}).name(3), DisplayConfig().name(4)
    ('Ada', 'Seat 4')
    >>> DisplayConfig(broadcast_delay_s=0)
    Traceback (most recent call last):
    ...
    firmware_py.errors.ConfigError: broadcast_delay_s is 0: a broadcast without delay leaks hole \
cards; set allow_zero_delay = true for a private game
    """

    seat_names: Mapping[int, str] = field(default_factory=dict)
    blind_levels: tuple[BlindLevel, ...] = DEFAULT_LEVELS
    levels_start_t: float = 0.0  # session time at which the first level began
    broadcast_delay_s: float = DEFAULT_DELAY_S
    allow_zero_delay: bool = False

    def __post_init__(self) -> None:
        if self.broadcast_delay_s < 0:
            raise ConfigError(f"broadcast_delay_s is {self.broadcast_delay_s}: "
                              "it cannot be negative")
        if self.broadcast_delay_s == 0 and not self.allow_zero_delay:
            raise ConfigError("broadcast_delay_s is 0: a broadcast without delay leaks hole cards; "
                              "set allow_zero_delay = true for a private game")
        if not self.blind_levels:
            raise ConfigError("blind_levels is empty: give at least one level")
        for number, level in enumerate(self.blind_levels, start=1):
            if level.minutes <= 0 or level.small < 0 or level.big < level.small:
                raise ConfigError(f"blind level {number}: {level} is not a level "
                                  "(minutes > 0, 0 <= small <= big)")

    def name(self, seat: int) -> str:
        return self.seat_names.get(seat) or f"Seat {seat}"

    def level_at(self, t: float) -> LevelNow:
        """The blind level at session time `t` (the first level before `levels_start_t`)."""
        elapsed = max(0.0, t - self.levels_start_t)
        for number, level in enumerate(self.blind_levels, start=1):
            length = level.minutes * 60
            if elapsed < length or number == len(self.blind_levels):
                left = None if number == len(self.blind_levels) else length - elapsed
                return LevelNow(number=number, level=level, seconds_left=left)
            elapsed -= length
        raise AssertionError("unreachable: the last level never ends")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "display config",
                     section: str = "display") -> DisplayConfig:
        """Build from the parsed `[display]` table of file `source`; every wrong key or value is reported
        at once, each naming the file, the section and the key, with a suggestion.

        `broadcast_delay_minutes` may be given instead of `broadcast_delay_s`.

        >>> DisplayConfig.from_mapping({"blind_levels": [{"small": "25", "big": 50, "minutes": True}]},
        ...                            source="table.toml")
        Traceback (most recent call last):
        ...
        firmware_py.errors.ConfigError: table.toml: [display.blind_levels #1] small: must be a whole \
number of chips, not '25' (write small = 25, without quotes)
        table.toml: [display.blind_levels #1] minutes: must be a number of minutes above 0, e.g. minutes = 20, \
not True
        """
        if "show_operator_status" in data:
            raise ConfigError(f"{source}: [{section}] show_operator_status is gone: the broadcast picture never "
                              "shows live status (it leaked the live hand past the delay); remove the key and "
                              "show the operator's status on its own screen with view = \"operator\"")
        mistakes = ConfigMistakes()
        top = Section(source, section, dict(data), ("seat_names", "blind_levels", "levels_start_t",
                                                    "broadcast_delay_s", "broadcast_delay_minutes",
                                                    "allow_zero_delay"), mistakes=mistakes)
        kwargs: dict[str, Any] = {}
        if top.has("seat_names"):
            kwargs["seat_names"] = _seat_names(top, mistakes)
        if top.has("blind_levels"):
            kwargs["blind_levels"] = _blind_levels(top, mistakes)
        for key, target, scale in (("levels_start_t", "levels_start_t", 1), ("broadcast_delay_minutes",
                                   "broadcast_delay_s", 60), ("broadcast_delay_s", "broadcast_delay_s", 1)):
            if top.has(key):
                what = "a number of seconds" if scale == 1 else "a number of minutes"
                with mistakes.check():
                    kwargs[target] = top.number(key, 0.0, low=-math.inf, what=what) * scale
        if top.has("allow_zero_delay"):
            with mistakes.check():
                kwargs["allow_zero_delay"] = top.boolean("allow_zero_delay", False)
        mistakes.raise_if_any()
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(f"{source}: [{section}] {exc}") from None


def _seat_names(top: Section, mistakes: ConfigMistakes) -> dict[int, str]:
    raw = top.get("seat_names")
    if not isinstance(raw, dict):
        mistakes.note(top.error(f"must be a table of seat = \"name\", e.g. [{top.path}.seat_names] 1 = \"Ada\", "
                                f"not {shown(raw)}", "seat_names"))
        return {}
    names: dict[int, str] = {}
    for seat, name in raw.items():
        key = f"seat_names {seat}"
        if not str(seat).isdigit() or not 1 <= int(seat) <= MAX_SEATS:
            mistakes.note(top.error(f"is not a seat: seats are 1..{MAX_SEATS}", key))
        elif not isinstance(name, str):
            mistakes.note(top.error(f"must be a name in quotes, e.g. \"Ada\", not {shown(name)}", key))
        else:
            names[int(seat)] = name
    return names


def _blind_levels(top: Section, mistakes: ConfigMistakes) -> tuple[BlindLevel, ...]:
    raw = top.get("blind_levels")
    if not isinstance(raw, list):
        mistakes.note(top.error("must be a list of levels, e.g. [{ small = 25, big = 50, minutes = 20 }], "
                                f"not {shown(raw)}", "blind_levels"))
        return ()
    levels = []
    for number, row in enumerate(raw, start=1):
        level = mistakes.section(top.source, f"{top.path}.blind_levels #{number}", row)
        if level is None:
            continue
        values: dict[str, Any] = {}
        for key in ("small", "big", "ante", "bb_ante"):
            value = level.get(key, 0) if key in ("ante", "bb_ante") else level.get(key)
            if value is None:
                mistakes.note(level.error("is missing: give the blind in chips, e.g. small = 25", key))
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                mistakes.note(level.error(f"must be a whole number of chips, not {shown(value)}"
                                          f"{how_to_write(key, value)}", key))
            else:
                values[key] = value
        minutes = level.get("minutes")
        if (isinstance(minutes, bool) or not isinstance(minutes, int | float) or not math.isfinite(minutes)
                or minutes <= 0):
            mistakes.note(level.error(f"must be a number of minutes above 0, e.g. minutes = 20, not {shown(minutes)}",
                                      "minutes"))
        else:
            values["minutes"] = float(minutes)
        if values.get("ante") and values.get("bb_ante"):
            mistakes.note(level.error(f"a level has an ante every player posts or a big-blind ante (bb_ante), not "
                                      f"both: keep one (ante = {values['ante']}, bb_ante = {values['bb_ante']})",
                                      "bb_ante"))
            values.pop("bb_ante")
        level.finish()
        if len(values) >= 4 and {"small", "big", "minutes"} <= values.keys():
            levels.append(BlindLevel(**values))
    return tuple(levels)
