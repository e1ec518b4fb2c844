"""Regenerate the example sessions under tests/sessions/ from scripted dealing (run by hand).

Each session is one table story that ends in a ruling kind of table-events.md. The expected
rulings beside each (`NAME.expected.jsonl`) were read and checked against the rulebooks by hand;
`test_replay.py` replays the sessions through the CLI and compares.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from firmware_py.core import Read, Setup  # noqa: E402
from firmware_py.session import event_to_json  # noqa: E402
from tests.rules.table import Table  # noqa: E402

DECKS = ["../../config/decks/test-red.json", "../../config/decks/test-blue.json"]


class Recorder(Table):
    def __init__(self, profile: str, **kw: object) -> None:
        self.events: list[dict[str, object]] = []
        super().__init__(profile, **kw)  # type: ignore[arg-type]

    def _feed(self, event: object) -> list:  # type: ignore[override]
        line = event_to_json(event)  # type: ignore[arg-type]
        if isinstance(event, Setup):
            line["decks"] = DECKS
        self.events.append(line)
        return super()._feed(event)


def misdeal_exposed(t: Recorder) -> None:
    t.new_hand()
    t.deal(count=2)
    t.press("exposed")


def exposed_card(t: Recorder) -> None:
    t.new_hand()
    t.deal(count=5)
    t.press("exposed")
    t.deal(count=3)
    t.shoe()
    t.act("call", "call", "call", "check")
    t.flop(burns=0)
    t.act("check", "check", "check", "check")


def boxed_card(t: Recorder) -> None:
    t.new_hand()
    t.deal(count=3)
    t.press("boxed")
    t.deal(count=6)
    t.act("call", "call", "call", "check")


def extra_and_premature(t: Recorder) -> None:
    t.new_hand()
    t.deal()
    t.shoe()  # one extra card
    t.act("call", "call")
    t.flop()  # before the blinds acted: premature
    t.act("call", "check")
    t.flop(burns=0)


def flop_too_many_redeal(t: Recorder) -> None:
    t.clean_preflop()
    t.street(count=4)
    t.flop(burns=0)  # redealt without a burn
    t.act("check", "check", "check", "check")
    t.turn()


def flop_too_many_next_burn(t: Recorder) -> None:
    t.clean_preflop()
    t.street(count=4)
    t.act("check", "check", "check", "check")
    t.turn(burns=0)  # the extra flop card was the turn's burn


def burns(t: Recorder) -> None:
    t.clean_preflop()
    t.flop(burns=0)
    t.act("check", "check", "check", "check")
    t.turn(burns=2)
    t.act("check", "check", "check", "check")
    t.river(burns=0)
    t.act("check", "check", "check", "check")


def void_foreign(t: Recorder) -> None:
    t.new_hand()
    t.deal(count=3)
    t.shoe("Qs", blue=True)


def joker_dead_hand(t: Recorder) -> None:
    t.new_hand()
    t.deal(["2d", "7c", "X1"], count=3)
    t.deal(count=5)
    t.act("call")


def too_late(t: Recorder) -> None:
    t.new_hand()
    t.deal()
    t.act("call")
    t.read("seat5", t.core.snapshot().seat(6).cards[0])


def wrong_count(t: Recorder) -> None:
    t.new_hand()
    t.deal(count=6)
    t.act("call")


def two_card_turn(t: Recorder) -> None:
    t.clean_preflop()
    t.flop()
    t.act("check", "check", "check", "check")
    t.shoe()
    t.street(count=2, burns=0, first_position=4)
    t.gone("board4", t.core.snapshot().board[3])


def short_card(t: Recorder) -> None:
    t.new_hand()
    t.deal(count=7)
    t.act("call")
    t.shoe()  # the top card to the button in proper sequence
    t.act("call", "call", "check")


def unknown_card(t: Recorder) -> None:
    """A card whose tag no deck knows comes out of the shoe as seat 4's first card: the alarm, then
    the hand plays on with the card counted (no short card, no dead hand) and the dealer reads it."""
    t.new_hand()
    t.deal(count=2)
    t._feed(Read(t=t.tick(), antenna="shoe", uid="04AA55AA55AA01"))
    t.deal(count=5)
    t.act("call", "call", "call", "check")
    t.flop()
    t.act("check", "check", "check", "check")


SESSIONS: dict[str, tuple[str, dict[str, object], Callable[[Recorder], None]]] = {
    "misdeal_exposed_robert": ("robert", {}, misdeal_exposed),
    "misdeal_exposed_rpl": ("rpl", {}, misdeal_exposed),
    "exposed_card_upt": ("upt", {}, exposed_card),
    "boxed_card_robert": ("robert", {}, boxed_card),
    "boxed_card_wfp_dealer": ("wfp-dealer", {}, boxed_card),
    "extra_and_premature_wfp": ("wfp", {}, extra_and_premature),
    "flop_too_many_robert": ("robert", {}, flop_too_many_redeal),
    "flop_too_many_wfp": ("wfp", {}, flop_too_many_next_burn),
    "burns_rpl": ("rpl", {}, burns),
    "void_foreign_card_robert": ("robert", {}, void_foreign),
    "joker_dead_hand_wfp": ("wfp", {}, joker_dead_hand),
    "misdeal_too_late_wfp_dealer": ("wfp-dealer", {"seats": (1, 2, 3, 4, 5, 6)}, too_late),
    "wrong_count_upt": ("upt", {}, wrong_count),
    "too_many_cards_wfp_dealer": ("wfp-dealer", {}, two_card_turn),
    "short_card_robert": ("robert", {}, short_card),
    "unknown_card_rpl": ("rpl", {}, unknown_card),
}


def main() -> None:
    for name, (profile, kw, story) in SESSIONS.items():
        table = Recorder(profile, **kw)
        story(table)
        lines = "".join(json.dumps(e) + "\n" for e in table.events)
        (HERE / f"{name}.jsonl").write_text(lines)
        (HERE / f"{name}.expected.jsonl").write_text("".join(json.dumps(r.to_json()) + "\n" for r in table.rulings))
        print(name, [r.ruling.value for r in table.rulings])


if __name__ == "__main__":
    main()
