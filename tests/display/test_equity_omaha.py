"""Omaha chances: exact heads-up on the flop (every turn and river), checked against an independent
enumerator that reads each hand with pokerkit's own Omaha evaluator, not phevaluator."""

from __future__ import annotations

import itertools
import random

import pytest

from firmware_py.core.cards import FULL_DECK
from firmware_py.core.game import HandRule
from firmware_py.odds.equity import calculate_equity


def pokerkit_enumeration(hands: list[tuple[str, ...]], board: tuple[str, ...]) -> tuple[list[float], list[float]]:
    """Win and tie chances by pokerkit's OmahaHoldemHand over every runout (slow, independent)."""
    from pokerkit import OmahaHoldemHand  # noqa: PLC0415

    seen = {*board, *(card for hand in hands for card in hand)}
    stub = [card for card in FULL_DECK if card not in seen]
    wins, ties, runouts = [0] * len(hands), [0] * len(hands), 0
    for extra in itertools.combinations(stub, 5 - len(board)):
        full = "".join((*board, *extra))
        made = [OmahaHoldemHand.from_game("".join(hand), full) for hand in hands]
        best = max(made)
        winners = [i for i, hand in enumerate(made) if hand == best]
        for i in winners:
            (wins if len(winners) == 1 else ties)[i] += 1
        runouts += 1
    return [w / runouts for w in wins], [t / runouts for t in ties]


@pytest.mark.parametrize(("hands", "board"), [
    ([("As", "Ah", "Kd", "Qc"), ("Js", "Ts", "9h", "8h")], ("2s", "7h", "9d")),  # aces against a wrap
    ([("Ks", "Kh", "4c", "5d"), ("Ad", "2d", "3h", "Qs")], ("Kd", "8d", "2c")),  # a set against a flush draw
    ([("Ah", "Kh", "Qs", "Js"), ("Ac", "Kc", "Qd", "Jd")], ("Ts", "9c", "2h")),  # mostly a split
])
def test_heads_up_plo_on_the_flop_is_exact_and_matches_pokerkit(hands: list[tuple[str, ...]],
                                                              board: tuple[str, ...]) -> None:
    equity = calculate_equity(hands, board, rule=HandRule.TWO_FROM_HAND, hole_size=4)
    assert equity.exact and equity.runouts == 41 * 40 // 2
    wins, ties = pokerkit_enumeration(hands, board)
    assert list(equity.win) == pytest.approx(wins, abs=1e-12)
    assert list(equity.tie) == pytest.approx(ties, abs=1e-12)


def test_omaha_is_not_read_as_holdem() -> None:
    """Four spades on the board and one in the hand: a flush in hold'em, none in Omaha."""
    hands = [("As", "Kd", "Qc", "Jh"), ("Td", "Tc", "3h", "4d")]
    board = ("2s", "7s", "9s", "5s")
    omaha = calculate_equity(hands, board, rule=HandRule.TWO_FROM_HAND, hole_size=4)
    assert omaha.exact and omaha.win[1] > 0.5  # the tens lead when only two hole cards play


def test_five_card_plo_preflop_is_sampled_from_the_callers_generator() -> None:
    hands = [("As", "Ah", "Kd", "Kc", "2h"), ("7s", "8s", "9h", "Th", "3c")]
    first = calculate_equity(hands, (), rule=HandRule.TWO_FROM_HAND, hole_size=5, rng=random.Random(4),
                             max_samples=4000)
    again = calculate_equity(hands, (), rule=HandRule.TWO_FROM_HAND, hole_size=5, rng=random.Random(4),
                             max_samples=4000)
    assert not first.exact and first == again and 0.4 < first.win[0] < 0.8


def test_a_hand_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="exactly four cards"):
        calculate_equity([("As", "Ah"), ("Kd", "Kc", "Qs", "Qh")], rule=HandRule.TWO_FROM_HAND, hole_size=4)


@pytest.mark.parametrize("board", [("2s", "7h", "9d"), ("2s", "7h", "9d", "Kc")])
def test_heads_up_omaha_outs_are_the_cards_pokerkit_says_put_the_player_behind_ahead(board: tuple[str, ...]) -> None:
    """The broadcast's outs in Omaha (two from the hand, three from the board), checked card by card
    against pokerkit's own Omaha hands."""
    from pokerkit import OmahaHoldemHand  # noqa: PLC0415

    from firmware_py.room.broadcast import heads_up_outs  # noqa: PLC0415

    live = ((1, ("As", "Ah", "Kd", "Qc")), (2, ("Js", "Ts", "8h", "6h")))
    seat, outs = heads_up_outs(live, board, frozenset(), rule=HandRule.TWO_FROM_HAND)

    def hand(cards: tuple[str, ...], common: tuple[str, ...]) -> OmahaHoldemHand:
        return OmahaHoldemHand.from_game("".join(cards), "".join(common))

    assert seat == 2  # aces lead the draw
    seen = {*board, *live[0][1], *live[1][1]}
    want = tuple(card for card in FULL_DECK if card not in seen
                 and hand(live[1][1], (*board, card)) > hand(live[0][1], (*board, card)))
    assert outs == want and len(outs) > 5
