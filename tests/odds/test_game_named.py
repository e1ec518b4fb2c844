"""The views and the odds get the game through one function, `game_named`, which refuses a game it does not know:
no view draws an unknown game's hand as hold'em's in silence."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from firmware_py.core import Setup
from firmware_py.core.engine import TableCore
from firmware_py.core.game import game_named
from firmware_py.odds.chances import best_hands, chances_key
from firmware_py.profiles import load_profiles
from firmware_py.room.feed import best_hands as feed_hands
from tests.rules.table_driver import BLUE, RED

ROOT = Path(__file__).resolve().parents[2]
VIEWS = [*sorted((ROOT / "display").glob("*.py")), *sorted((ROOT / "firmware_py" / "odds").glob("*.py")),
         *sorted((ROOT / "firmware_py" / "room").glob("*.py")), ROOT / "firmware_py" / "daemon" / "tracker.py"]


def _names_used(path: Path) -> set[str]:
    return {node.id for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Name)} | {
        alias.name for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ImportFrom)
        for alias in node.names}


@pytest.mark.parametrize("path", VIEWS, ids=[str(p.relative_to(ROOT)) for p in VIEWS])
def test_a_view_reads_no_game_registry_of_its_own(path: Path) -> None:
    """The registry `GAMES` (and its `.get(name, HOLDEM)` fallback) stays in the core: views call `game_named`."""
    assert "GAMES" not in _names_used(path), f"{path.relative_to(ROOT)} reads GAMES: use core.game.game_named"


def _snapshot(game: str) -> object:
    core = TableCore(load_profiles())
    core.feed(Setup(t=0.0, profile="robert", seats=(1, 2), button=1, decks=(RED, BLUE), in_play="test-red",
                    game="omaha_hilo"))
    return dataclasses.replace(core.snapshot(), game=game)


def test_an_unknown_game_is_refused_by_name_not_drawn_as_holdem() -> None:
    snapshot = _snapshot("razz")
    for view in (best_hands, feed_hands, chances_key):
        with pytest.raises(ValueError, match=r"'razz' is not a game this table knows; the games are holdem, "):
            view(snapshot)  # type: ignore[arg-type]


def test_a_known_game_is_the_record_itself() -> None:
    assert game_named("limit_omaha_hilo").phh_variant == "FO/8"
    assert best_hands(_snapshot("omaha_hilo")) == {}  # type: ignore[arg-type]


ROOM_AND_ODDS = [*sorted((ROOT / "firmware_py" / "room").glob("*.py")),
                 *sorted((ROOT / "firmware_py" / "odds").glob("*.py"))]


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):  # function-level imports included
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("path", ROOM_AND_ODDS, ids=[str(p.relative_to(ROOT)) for p in ROOM_AND_ODDS])
def test_the_room_and_the_odds_import_nothing_of_the_display(path: Path) -> None:
    """Issue 36 item 2: the odds live beside the evaluator, so the room's broadcast needs no `display/` for them."""
    wrong = sorted(m for m in _imported_modules(path) if m == "display" or m.startswith("display."))
    assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"
