"""The floor at 1280x720 (issue 35): a tile's key figures are shown whole, never cut ("irre…", "BOARD…"),
whatever the tile's shape; and the counts per dealer agree with the tiles.

`POKERTABLE_SCREENSHOTS=docs/img python -m pytest tests/display/test_floor_legible.py` keeps the pictures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest
from pictures import recorded_text

from display import theme
from display.floor import dealer_counts, render_floor, status_label
from firmware_py.room.floor import FloorModel
from tests.room.samples import message, room_of


@contextmanager
def cut_short() -> Iterator[list[str]]:
    """Every line `theme.draw_text` had to cut with an ellipsis inside the block."""
    cut: list[str] = []
    real = theme._ellipsize

    def record(text: str, size: int, max_width: int) -> str:
        cut.append(text)
        return real(text, size, max_width)

    theme._ellipsize = record
    try:
        yield cut
    finally:
        theme._ellipsize = real


def _room(tables: int) -> FloorModel:
    model = room_of(tables)
    model.feed("pokertable/main/t01/state", message(
        "state", "t01", 200, session="st01", status="board", phase="board", hand=12, dealer="Ben", faults=[],
        open_rulings=[], street=None, counts={"hands": 11, "misdeals": 2, "irregularities": 17,
                                              "hands_per_hour": 31.5}), now=1000.0)
    return model


@pytest.mark.parametrize("tables", [1, 2, 3, 12, 30])
def test_every_tiles_key_figures_are_shown_whole_at_720p(tables: int) -> None:
    model = _room(tables)
    surface = pygame.Surface((1280, 720))
    with cut_short() as cut, recorded_text() as drawn:
        render_floor(surface, model, now=1000.0, title="Room main", clock_text="21:14:05")
    folder = os.environ.get("POKERTABLE_SCREENSHOTS")
    if folder and tables == 2:
        pygame.image.save(surface, str(Path(folder) / "floor-two-tables-1280x720.png"))
    views = model.tables()
    figures = {view.table for view in views} | {status_label(view.status(1000.0)) for view in views}
    figures |= {f"misdeals {v.counts['misdeals']}   irreg. {v.counts['irregularities']}" for v in views}
    assert "BOARD DUE" in figures and "misdeals 2   irreg. 17" in figures
    assert figures <= set(drawn.texts)
    assert not figures & set(cut), sorted(figures & set(cut))


def test_the_counts_per_dealer_are_the_sums_of_their_tiles() -> None:
    model = _room(30)  # 12 dealers over 30 tables: some deal at two or three
    views = model.tables()
    want: dict[str, tuple[int, int]] = {}
    for view in views:
        misdeals, irregular = want.get(view.dealer, (0, 0))
        want[view.dealer] = (misdeals + view.counts["misdeals"], irregular + view.counts["irregularities"])
    got = {name: (c.misdeals, c.irregularities) for name, c in dealer_counts(views).items()}
    assert got == want and any(sum(1 for v in views if v.dealer == d) > 1 for d in want)
    surface = pygame.Surface((1280, 720))
    with recorded_text() as drawn:
        render_floor(surface, model, now=1000.0, title="Room main", clock_text="21:14:05")
    texts = drawn.texts
    column = texts[texts.index("irregularities") + 1:]  # the dealer rows: name, misdeals, irregularities
    rows = [column[i:i + 3] for i in range(0, len(column) - 2, 3)]
    assert rows and all(want[name] == (int(m), int(i)) for name, m, i in rows)
