"""Sample snapshots, made by hand, for rendering the views without the rules core."""

from __future__ import annotations

import dataclasses

from display.display_config import DisplayConfig
from firmware_py.core.rulings import Ruling, RulingKind, Street
from firmware_py.core.snapshot import ClockView, Phase, PlayerState, SeatView, TableSnapshot
from firmware_py.core.vocab import Cause

HOLES = {1: ("As", "Ah"), 2: ("Kd", "Kc"), 3: ("7s", "8s"), 4: ("Qh", "Jh"), 5: ("2c", "2d"),
         6: ("9c", "Th")}
NAMES = {1: "Ada", 2: "Bruno", 3: "Chen", 4: "Dalia", 5: "Emeka", 6: "Freya"}
CONFIG = DisplayConfig(seat_names=NAMES, broadcast_delay_s=60)


def dealt(*, t: float = 10.0, seats: int = 6, board: tuple[str, ...] = (),
          folded: tuple[int, ...] = (), to_act: int | None = 4, street: Street | None = None,
          **changes: object) -> TableSnapshot:
    """A six-handed hand with every hole card dealt: button 1, blinds 2 and 3."""
    views = []
    for seat in range(1, seats + 1):
        state = PlayerState.FOLDED if seat in folded else PlayerState.ACTIVE
        views.append(SeatView(seat=seat, state=state, cards=HOLES[seat], is_button=seat == 1,
                              is_small_blind=seat == 2, is_big_blind=seat == 3,
                              to_act=seat == to_act))
    if street is None:
        street = {0: Street.PREFLOP, 3: Street.FLOP, 4: Street.TURN, 5: Street.RIVER}[len(board)]
    burns = ("3c", "4c", "5c")[: {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]]
    snap = TableSnapshot(t=t, profile="robert", profile_title="Robert's Rules of Poker",
                         hand_number=7, phase=Phase.BETTING, street=street, seats=tuple(views),
                         button=1, small_blind=2, big_blind=3, to_act=to_act, board=board,
                         burns=burns, in_play="test-red")
    return dataclasses.replace(snap, **changes) if changes else snap


def ruling(kind: RulingKind, **fields: object) -> Ruling:
    base: dict[str, object] = {"t": 9.0, "ruling": kind, "rule": "robert: Misdeals 1(a)",
                               "remedy": "Gather all cards, reshuffle, recut and redeal."}
    base.update(fields)
    if "cause" in base:
        base["cause"] = Cause(base["cause"])  # a compiled core (mypyc) takes a Cause, not its string
    return Ruling(**base)  # type: ignore[arg-type]


RULING_EXAMPLES: dict[RulingKind, Ruling] = {
    RulingKind.MISDEAL: ruling(RulingKind.MISDEAL, cause="exposed_first_cards", card="Kd", seat=2),
    RulingKind.MISDEAL_TOO_LATE: ruling(
        RulingKind.MISDEAL_TOO_LATE, cause="wrong_count", seat=4, rule="robert: Misdeals 2",
        remedy="The deal plays on; seat 4's hand is dead."),
    RulingKind.EXPOSED_CARD: ruling(
        RulingKind.EXPOSED_CARD, card="Qh", seat=4, rule="upt: Hold'em 1",
        remedy="Deal continues. After the deal give seat 4 the top card; the exposed card is the "
               "burn."),
    RulingKind.BOXED_CARD: ruling(RulingKind.BOXED_CARD, card="9d", rule="robert: Irregularities 6",
                                  remedy="Treat it as a scrap of paper; replace it with the next "
                                         "card."),
    RulingKind.EXTRA_CARD: ruling(RulingKind.EXTRA_CARD, card="5s", seat=2,
                                  rule="robert: Irregularities 10",
                                  remedy="Put it back on the deck: it is the next burn card."),
    RulingKind.PREMATURE_CARD: ruling(
        RulingKind.PREMATURE_CARD, card="Jd", street=Street.FLOP, rule="upt: Hold'em 7",
        remedy="Finish the betting; mix the flop into the stub, shuffle, cut, new flop, no burn."),
    RulingKind.FLOP_TOO_MANY: ruling(RulingKind.FLOP_TOO_MANY, card="6h", street=Street.FLOP,
                                     rule="upt: Hold'em 3", remedy="Redeal the flop."),
    RulingKind.BURN_MISSING: ruling(RulingKind.BURN_MISSING, street=Street.TURN,
                                    rule="robert: Irregularities 15",
                                    remedy="Take the turn back, burn, and deal it again."),
    RulingKind.BURN_EXTRA: ruling(RulingKind.BURN_EXTRA, street=Street.RIVER,
                                  rule="robert: Irregularities 15",
                                  remedy="Put the second burn back on the deck as the river."),
    RulingKind.VOID_HAND: ruling(RulingKind.VOID_HAND, cause="duplicate_card", card="As",
                                 rule="robert: Irregularities 4",
                                 remedy="All action void; return every chip bet this hand."),
    RulingKind.SCRAP_CARD: ruling(RulingKind.SCRAP_CARD, card="X1", seat=5,
                                  rule="robert: Irregularities 7",
                                  remedy="A joker is a scrap of paper: replace it, no misdeal."),
    RulingKind.DEAD_HAND: ruling(RulingKind.DEAD_HAND, cause="wrong_count", seat=6,
                                 rule="robert: Dead Hands 1(c)", remedy="Seat 6's hand is dead."),
    RulingKind.SHOWDOWN: ruling(RulingKind.SHOWDOWN, winners=(1,), hand="three of a kind, aces",
                                rule="robert: The Showdown", remedy="Push the pot to seat 1."),
    RulingKind.SHORT_CARD: ruling(RulingKind.SHORT_CARD, seat=3, rule="robert: Misdeals 1(e)",
                                  remedy="Deal seat 3 the top card: it comes in proper sequence."),
    RulingKind.UNKNOWN_CARD: ruling(RulingKind.UNKNOWN_CARD, cause="unknown_tag", card="?1", seat=4,
                                    rule="robert: Irregularities 3",
                                    remedy="A card came out of the shoe with tag 04AA55AA55AA01, which no "
                                           "enrolled deck knows. Stop and look at its back."),
}


def example(kind: RulingKind) -> Ruling:
    """The example ruling of `kind`; a plain one for kinds added to the core since."""
    return RULING_EXAMPLES.get(kind) or ruling(kind, seat=2, rule="robert: 1",
                                               remedy=f"Remedy for {kind}.")


def with_ruling(kind: RulingKind) -> TableSnapshot:
    """A flop with the example ruling of `kind` waiting for confirm."""
    example_ruling = example(kind)
    return dealt(board=("Ad", "7h", "2s"), unconfirmed=(example_ruling,),
                 hand_rulings=(example_ruling,))


def clock_on(*, seconds: float = 30, warnings: tuple[float, ...] = (20, 10),
             countdown: int = 5, started_t: float = 100.0, called_by: int | None = None) -> TableSnapshot:
    clock = ClockView(seat=4, started_t=started_t, seconds=seconds, warnings=warnings,
                      countdown=countdown, rule="wfp-dealer: Clock", called_by=called_by)
    return dealt(t=started_t, board=("Ad", "7h", "2s", "Kh"), clock=clock, folded=(5,))


def showdown() -> TableSnapshot:
    result = RULING_EXAMPLES[RulingKind.SHOWDOWN]
    return dealt(board=("Ad", "7h", "2s", "Kh", "3d"), folded=(3, 4, 5, 6), to_act=None,
                 phase=Phase.SHOWDOWN, showdown=result, hand_rulings=(result,))
