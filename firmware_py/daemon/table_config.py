"""Loading `config/table.toml`: seats, profile, decks, the hardware file, the display and the journal.

Read once at start-up and validated before anything is touched: every unknown key and bad value, in
this file and in the hardware, profile and deck files it names, is reported in one ConfigError, one
mistake a line, each naming the file, the section and key, with a "did you mean" or how to write it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from display.display_config import View
from firmware_py.config_toolkit import (
    ConfigMistakes,
    Section,
    did_you_mean,
    how_to_write,
    out_of_range,
    read_toml,
    shown,
    toml_value,
)
from firmware_py.core import Deck, Setup
from firmware_py.core.chips import denominations_problem
from firmware_py.core.events import MAX_SEATS
from firmware_py.core.game import DEFAULT as DEFAULT_GAME
from firmware_py.core.game import GAMES
from firmware_py.core.profiles import Profile
from firmware_py.errors import ConfigError, DeckFileError
from firmware_py.extensions import EXTENSIONS, ConfigFile, Where
from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck

if TYPE_CHECKING:  # imported on demand at run time: pygame, starlette and paho only where they are used
    from display.display_config import DisplayConfig
    from firmware_py.daemon.tracker_config import TrackerConfig
    from firmware_py.room.room_config import RoomConfig
    from hardware.hardware_config import HardwareConfig

CONFIG_DIR = Path(__file__).resolve().parent.parent.parent / "config"
DEFAULT_PATH = CONFIG_DIR / "table.toml"
JOURNAL_NAME = "journal.sqlite3"
MAX_DELAY_S = 24 * 3600  # the broadcast's secure delay: a day at most


@dataclass(frozen=True, kw_only=True, slots=True)
class ScreenConfig:
    """How the daemon drives the screen; `display` holds what the views themselves need."""

    enabled: bool = True
    view: View = View.VENUE
    size: tuple[int, int] = (800, 480)
    fullscreen: bool = True
    display: DisplayConfig | None = None  # what the views need (None headless: no pygame)


@dataclass(frozen=True, kw_only=True, slots=True)
class TableConfig:
    """The whole table file, validated, with the decks, profiles and hardware already loaded."""

    source: str
    game: Setup  # [table]: profile, seats, button, decks (deck_files: absolute paths) and in_play, at t=0
    profiles: Mapping[str, Profile]
    profiles_dir: Path
    hardware_file: Path
    hardware: HardwareConfig
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    journal_path: Path = Path("state") / JOURNAL_NAME
    starting_stack: int = 0  # [chips]: each seat's chips at the start; 0: the table counts no chips
    # display.display_config.DisplayConfig: the blind levels of [display] (level_at), journaled when chips are
    # counted; the simulated dealer, which always bets amounts, plays them too
    schedule: DisplayConfig | None = None
    seat_names: Mapping[int, str] = field(default_factory=dict)  # [display.seat_names], for the hand histories
    # The registered extensions' sections in this file (firmware_py.extensions), each typed by its own schema.
    extensions: Mapping[str, object] = field(default_factory=dict)

    @property
    def tracker(self) -> TrackerConfig | None:
        """`[tracker]`: the action-tracker page (off when None)."""
        return cast("TrackerConfig | None", self.extensions.get("tracker"))

    @property
    def room(self) -> RoomConfig | None:
        """`[room]`: publishing to the room's broker (off when None)."""
        return cast("RoomConfig | None", self.extensions.get("room"))

    @property
    def in_tournament(self) -> bool:
        """`[room] tournament = true`: the director's level, seats and button rule this table, not this file."""
        room = self.room
        return room is not None and room.tournament

    def setup(self, t: float = 0.0) -> Setup:
        """The session's `setup` event for this configuration."""
        return replace(self.game, t=t)

    def deck(self, name: str) -> Deck:
        return next(d for d in self.game.decks if d.name == name)


def default_journal_path(table: str | None = None) -> Path:
    """systemd's StateDirectory= when run as the appliance, else ./state beside the current directory; a table
    of a room (`[room] table`) keeps its journals in its own folder there, `state/t02/`: two tables started on
    one machine never share one."""
    state = os.environ.get("STATE_DIRECTORY")
    folder = Path(state.split(":")[0]) if state else Path("state")
    return (folder / table if table else folder) / JOURNAL_NAME


def load_table_config(path: str | Path = DEFAULT_PATH, *, with_display: bool = True) -> TableConfig:
    """Read and validate a table file and everything it names; raises ConfigError."""
    path = Path(path)
    data = read_toml(path, what="table config")
    return parse_table_config(data, source=str(path), base_dir=path.parent, with_display=with_display)


def parse_table_config(data: Mapping[str, Any], *, source: str, base_dir: Path,
                       with_display: bool = True) -> TableConfig:
    """Validate a parsed table file: every mistake in it (and in the files it names) in one ConfigError."""
    mistakes = ConfigMistakes()
    sections = ("table", "display", "journal", "chips", *EXTENSIONS.sections(ConfigFile.TABLE))
    for key in data:
        if key not in sections:
            mistakes.note(ConfigError(f"{source}: [{key}]: unknown section{did_you_mean(key, sections)}"))
    game: dict[str, Any] = {}
    if "table" not in data:
        mistakes.note(ConfigError(f"{source}: [table]: is missing (profile, seats, button, decks, in_play)"))
    else:
        with mistakes.check():
            table = Section(source, "table", data["table"],
                            ("profile", "seats", "button", "decks", "in_play", "hardware", "profiles", "game"),
                            mistakes=mistakes)
            game = _game(table, base_dir, mistakes)
    screen = mistakes.attempt(lambda: _screen(source, data.get("display", {}), with_display=with_display),
                              ScreenConfig())
    no_chips: tuple[int, Any, tuple[int, ...]] = (0, None, ())
    starting_stack, schedule, denominations = mistakes.attempt(
        lambda: _chips(source, data.get("chips", {}), data.get("display", {}),
                       views=screen.display if with_display else False), no_chips)
    if denominations and "game" in game:  # the chips in play reach the core with the setup
        game["game"] = replace(game["game"], denominations=denominations)
    extensions = EXTENSIONS.parse(data, file=ConfigFile.TABLE, where=Where(source=source, base_dir=base_dir),
                                  attempt=mistakes.attempt)
    room = extensions.get("room")
    table_id = getattr(room, "table", None) or None
    journal_path = default_journal_path(table_id)
    if "journal" in data:
        journal_path = mistakes.attempt(lambda: _journal(source, data["journal"], base_dir, table_id), journal_path)
    mistakes.raise_if_any()
    return TableConfig(source=source, **game, screen=screen, journal_path=journal_path,
                       starting_stack=starting_stack, schedule=schedule, extensions=extensions,
                       seat_names=dict(schedule.seat_names) if schedule is not None else {})


def _game(table: Section, base_dir: Path, mistakes: ConfigMistakes) -> dict[str, Any]:
    """The `[table]` section: each key checked on its own, a key that depends on another checked once that one
    is right (the button against good seats, `in_play` against decks that all loaded)."""
    no_profiles: dict[str, Profile] = {}
    profiles_dir, profiles = mistakes.attempt(lambda: _profiles(table, base_dir), (base_dir, no_profiles))
    profile = mistakes.attempt(lambda: _profile(table, profiles), "")
    dealt = mistakes.attempt(lambda: _dealt(table, profiles.get(profile)), DEFAULT_GAME)
    seats: tuple[int, ...] = mistakes.attempt(lambda: _seats(table), ())
    button = mistakes.attempt(lambda: _button(table, seats), 0)
    deck_paths, decks, in_play = _decks(table, base_dir, mistakes)
    hardware_file, hardware = base_dir, None
    with mistakes.check():
        hardware_file = _path(base_dir, table.string("hardware", "hardware.toml"), table, "hardware")
        from hardware.hardware_config import load_hardware_config  # noqa: PLC0415 (the hardware layer loads on demand)

        # its ConfigError names its own file and key; the extensions' sections there ([keypad]) are read by theirs
        hardware = load_hardware_config(hardware_file, extensions=EXTENSIONS.reader(ConfigFile.HARDWARE))
    game = Setup(t=0.0, profile=profile, seats=seats, button=button, decks=tuple(decks), in_play=in_play,
                 deck_files=tuple(str(p) for p in deck_paths), game=dealt)
    return {"game": game, "profiles": profiles, "profiles_dir": profiles_dir, "hardware_file": hardware_file,
            "hardware": hardware}


def _profiles(table: Section, base_dir: Path) -> tuple[Path, dict[str, Profile]]:
    profiles_dir = _path(base_dir, table.string("profiles", "profiles"), table, "profiles")
    try:
        return profiles_dir, load_profiles(profiles_dir)
    except ConfigError as exc:
        raise ConfigError(f"{table.source}: [table] profiles: {exc}") from None


def _profile(table: Section, profiles: Mapping[str, Profile]) -> str:
    profile = table.string("profile")
    if profiles and profile not in profiles:  # no profiles: they did not load, and that is reported already
        raise table.error(f"unknown profile {shown(profile)}{did_you_mean(profile, profiles)}; "
                          f"profiles are {', '.join(sorted(profiles))}", "profile")
    return profile


def _dealt(table: Section, profile: Profile | None) -> str:
    """`game`: the game the table deals (hold'em when not given), one the profile's house deals."""
    game = table.string("game", DEFAULT_GAME)
    if game not in GAMES:
        raise table.error(f"unknown game {shown(game)}{did_you_mean(game, GAMES)}; the games are "
                          f"{', '.join(GAMES)}", "game")
    if profile is not None and game not in profile.games:
        raise table.error(f"{shown(game)} is not a game the {profile.name} profile deals; its games are "
                          f"{', '.join(profile.games)}", "game")
    return game


def with_game(config: TableConfig, game: str, *, where: str = "--game") -> TableConfig:
    """The table file's config dealing `game` instead (`run --game`), checked as the file's `[table] game` is:
    a game there is, and one the profile's house deals; a ConfigError names what to write instead."""
    if game not in GAMES:
        raise ConfigError(f"{where}: unknown game {shown(game)}{did_you_mean(game, GAMES)}; the games are "
                          f"{', '.join(GAMES)}")
    profile = config.profiles.get(config.game.profile)
    if profile is not None and game not in profile.games:
        raise ConfigError(f"{where}: {shown(game)} is not a game the {profile.name} profile of {config.source} deals; "
                          f"its games are {', '.join(profile.games)}")
    return replace(config, game=replace(config.game, game=game))


def _seat(section: Section, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        raise section.error(f"must hold seat numbers 1..{MAX_SEATS}, not {shown(value)}", key)
    return value


def _seats(table: Section) -> tuple[int, ...]:
    raw_seats = table.required("seats")
    if not isinstance(raw_seats, list) or len(raw_seats) < 2:
        raise table.error(f"must list at least two occupied seats, e.g. [1, 2, 3], not {shown(raw_seats)}", "seats")
    seats = tuple(sorted(_seat(table, "seats", s) for s in raw_seats))
    if len(set(seats)) != len(seats):
        raise table.error(f"lists a seat twice, e.g. seats = {toml_value(sorted(set(seats)))}", "seats")
    return seats


def _button(table: Section, seats: tuple[int, ...]) -> int:
    button = _seat(table, "button", table.required("button"))
    if seats and button not in seats:  # no seats: they are wrong, and that is reported already
        raise table.error(f"seat {button} is not one of the occupied seats {list(seats)}", "button")
    return button


def _decks(table: Section, base_dir: Path, mistakes: ConfigMistakes) -> tuple[list[Path], list[Deck], str]:
    """`decks`, each file loaded on its own, and `in_play`, checked against them when they all loaded."""
    raw_decks = mistakes.attempt(lambda: table.required("decks"), None)
    listed = isinstance(raw_decks, list) and raw_decks and all(isinstance(d, str) for d in raw_decks)
    if raw_decks is not None and not listed:
        mistakes.note(table.error("must list deck registry files, e.g. decks = [\"decks/test-red.json\"]", "decks"))
    deck_paths, decks = [], []
    for name in raw_decks if listed else ():
        with mistakes.check():
            deck_path = _path(base_dir, name, table, "decks")
            deck_paths.append(deck_path)
            try:
                decks.append(load_deck(deck_path))
            except DeckFileError as exc:
                raise table.error(str(exc), "decks") from None
    in_play = mistakes.attempt(lambda: table.string("in_play"), "")
    names = [d.name for d in decks]
    if in_play and listed and len(decks) == len(raw_decks) and in_play not in names:
        # (a deck that did not load may be the one in play: its own mistake is reported already)
        mistakes.note(table.error(f"{shown(in_play)} is none of the decks {names}{did_you_mean(in_play, names)}",
                                  "in_play"))
    return deck_paths, decks, in_play


def _journal(source: str, raw: Any, base_dir: Path, table: str | None) -> Path:
    journal = Section(source, "journal", raw, ("path",))
    if "path" not in journal.data:
        return default_journal_path(table)
    return _path(base_dir, journal.string("path"), journal, "path")


def _chips(source: str, raw: Any, display: Any, *, views: Any = False) -> tuple[int, Any, tuple[int, ...]]:
    """`[chips] starting_stack` and `denominations`, and the schedule: `[display] blind_levels` (one for the chips
    and the views) and seat names. `views`: the views' display config when it was read (its mistakes are told
    there, once). Every stack and blind is checked against the smallest chip: a chip that does not exist is
    refused here, not at the table."""
    section = Section(source, "chips", raw, ("starting_stack", "denominations"))
    stack = section.data.get("starting_stack", 0)
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
        raise section.error(f"must be a whole number of chips (0: count no chips), not {shown(stack)}"
                            f"{how_to_write('starting_stack', stack, 1500)}", "starting_stack")
    denominations = _denominations(section)
    if views is not False:
        schedule = views
    else:
        from display.display_config import DisplayConfig  # noqa: PLC0415 (no pygame: the schedule only)

        keys = ("blind_levels", "levels_start_t", "seat_names")
        levels = {k: v for k, v in (display if isinstance(display, dict) else {}).items() if k in keys}
        schedule = DisplayConfig.from_mapping(levels, source=source)
    if denominations:
        smallest = denominations[0]
        if stack % smallest:
            raise section.error(f"{stack:,} is no whole number of the smallest chip in play, {smallest:,}: a stack is "
                                f"made of chips (e.g. starting_stack = {max(smallest, stack - stack % smallest)})",
                                "starting_stack")
        for number, level in enumerate(getattr(schedule, "blind_levels", ()) or (), start=1):
            odd = [f"{what} {amount:,}" for what, amount in (("small", level.small), ("big", level.big),
                                                             ("ante", level.ante), ("bb_ante", level.bb_ante))
                   if amount % smallest]
            if odd:
                raise ConfigError(f"{source}: [display] blind_levels level {number}: {', '.join(odd)} is no whole "
                                  f"number of the smallest chip in play, {smallest:,} ([chips] denominations): a "
                                  "blind or ante is made of chips; change the level or add the chip")
    return stack, schedule, denominations


def _denominations(section: Section) -> tuple[int, ...]:
    """`[chips] denominations`: the chips in play, e.g. [25, 100, 500, 1000] (none: every amount in single units)."""
    given = section.get("denominations")
    if given is None:
        return ()
    example = [25, 100, 500, 1000, 5000]
    if not isinstance(given, list) or not given or any(
            isinstance(chip, bool) or not isinstance(chip, int) or chip < 1 for chip in given):
        raise section.error(f"must be a list of the chip values in play, each a whole number above zero, not "
                            f"{shown(given)}{how_to_write('denominations', given, example)}", "denominations")
    chips = tuple(sorted(given))
    problem = denominations_problem(chips)
    if problem:
        raise section.error(f"{toml_value(given)}: {problem}{how_to_write('denominations', given, example)}",
                            "denominations")
    return chips


def _screen(source: str, raw: Any, *, with_display: bool) -> ScreenConfig:
    """`[display]`: how the daemon drives the screen, and (with_display) what the views need; every mistake."""
    mistakes = ConfigMistakes()
    ours = ("enabled", "view", "size", "fullscreen")
    theirs = ("seat_names", "blind_levels", "levels_start_t", "broadcast_delay_s", "broadcast_delay_minutes",
              "allow_zero_delay", "show_operator_status")  # the last: refused with a clear message
    section = Section(source, "display", raw, ours + theirs, mistakes=mistakes)
    view = mistakes.attempt(lambda: _view(section), View.VENUE)
    size = mistakes.attempt(lambda: _size(section), (800, 480))
    theirs_given = {k: v for k, v in section.data.items() if k in theirs}
    for key, high in (("broadcast_delay_s", MAX_DELAY_S), ("broadcast_delay_minutes", MAX_DELAY_S / 60)):
        value = section.data.get(key)
        problem = None if value is None else out_of_range(value, low=0, high=high)
        if problem:
            mistakes.note(section.error(f"{problem}{how_to_write(key, value)}", key))
            del theirs_given[key]  # one message for one mistake: the views' check would repeat it
    display_config = None
    if with_display:
        from display.display_config import DisplayConfig  # noqa: PLC0415 (display is optional for headless runs)

        display_config = mistakes.attempt(lambda: DisplayConfig.from_mapping(theirs_given, source=source), None)
    enabled = mistakes.attempt(lambda: section.boolean("enabled", True), True)
    fullscreen = mistakes.attempt(lambda: section.boolean("fullscreen", True), True)
    mistakes.raise_if_any()
    return ScreenConfig(enabled=enabled, view=view, size=size, fullscreen=fullscreen, display=display_config)


def _view(section: Section) -> View:
    view = section.string("view", View.VENUE)
    if view not in set(View):
        raise section.error(f"must be one of {', '.join(View)}, not {shown(view)}{did_you_mean(view, list(View))}",
                            "view")
    return View(view)


def _size(section: Section) -> tuple[int, int]:
    size = section.data.get("size", [800, 480])
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 100 <= v <= 8000 for v in size)):
        raise section.error(f"must be [width, height] in pixels (100..8000), e.g. size = [800, 480], "
                            f"not {shown(size)}", "size")
    return size[0], size[1]


def _path(base_dir: Path, name: str, section: Section, key: str) -> Path:
    try:
        path = Path(name).expanduser()
        return (path if path.is_absolute() else base_dir / path).resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # a NUL byte, a name too long, a symlink loop
        raise section.error(f"{shown(name)} is not a usable path ({exc})", key) from None
