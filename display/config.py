"""What the display knows that the core does not: player names, blind levels, broadcast delay."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_py.errors import ConfigError

DEFAULT_DELAY_S = 120.0


@dataclass(frozen=True, kw_only=True, slots=True)
class BlindLevel:
    """One level of the blind schedule."""

    small: int
    big: int
    minutes: float
    ante: int = 0

    def label(self) -> str:
        stakes = f"{self.small:,}/{self.big:,}"
        return stakes + (f" ante {self.ante:,}" if self.ante else "")


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
    def from_mapping(cls, data: Mapping[str, Any], *,
                     source: str = "display config") -> DisplayConfig:
        """Build from a parsed TOML/JSON table; unknown keys are errors with a suggestion.

        `broadcast_delay_minutes` may be given instead of `broadcast_delay_s`.
        """
        known = {"seat_names", "blind_levels", "levels_start_t", "broadcast_delay_s",
                 "broadcast_delay_minutes", "allow_zero_delay"}
        if "show_operator_status" in data:
            raise ConfigError(f"{source}: show_operator_status is gone: the broadcast picture never shows "
                              "live status (it leaked the live hand past the delay); remove the key and "
                              "show the operator's status on its own screen with view = \"operator\"")
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(key, sorted(known), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ConfigError(f"{source}: unknown key {key!r}{hint}")
        kwargs: dict[str, Any] = {}
        try:
            if "seat_names" in data:
                kwargs["seat_names"] = {int(seat): str(name)
                                        for seat, name in dict(data["seat_names"]).items()}
            if "blind_levels" in data:
                kwargs["blind_levels"] = tuple(
                    BlindLevel(small=int(row["small"]), big=int(row["big"]),
                               minutes=float(row["minutes"]), ante=int(row.get("ante", 0)))
                    for row in data["blind_levels"])
            if "levels_start_t" in data:
                kwargs["levels_start_t"] = float(data["levels_start_t"])
            if "broadcast_delay_minutes" in data:
                kwargs["broadcast_delay_s"] = float(data["broadcast_delay_minutes"]) * 60
            if "broadcast_delay_s" in data:
                kwargs["broadcast_delay_s"] = float(data["broadcast_delay_s"])
            for key in ("allow_zero_delay",):
                if key in data:
                    if not isinstance(data[key], bool):
                        raise ConfigError(f"{source}: {key} must be true or false")
                    kwargs[key] = data[key]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ConfigError):
                raise
            raise ConfigError(f"{source}: {exc}") from None
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None
