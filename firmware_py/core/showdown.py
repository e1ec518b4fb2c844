"""The showdown and the pots: the hands read, every pot (main and side) awarded, and the ruling that says so.

Below the handlers: a betting round closing on the river, or a hand left uncontested, comes here
(transitions.py); it changes the phase to nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_py.core.cards import any_unknown
from firmware_py.core.chips import grouped
from firmware_py.core.evaluator import best_of, hand_name, hand_ranks
from firmware_py.core.hand import Hand
from firmware_py.core.phase import SHOWDOWN
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Ruling, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import RuleKey


def award(table: TableState, hand: Hand,
          best: Callable[[Sequence[int]], Sequence[int]] | None) -> tuple[Pot, ...] | None:
    """Every pot to the best of its seats (`best` None: the last hand left takes it); None without chips."""
    chips = table.chips.hand
    if chips is None or chips.settled:
        return None
    chips.fold_out(hand.betting.folded)
    chips.fold_out(hand.betting.dead)

    def read(seats: Sequence[int]) -> Sequence[int]:
        won = best(seats) if best is not None else ()
        return won or seats  # no hand to read (jokers, wrong counts): the pot is split

    return chips.award(read)


def pots_text(table: TableState, pots: Sequence[Pot]) -> str:
    contested = [pot for pot in pots if len(pot.seats) > 1]
    names = ["main pot", *(f"side pot {n}" for n in range(1, len(contested)))]
    # "side pot 1 of 375", not "side pot 1 375": a pot's number and its amount never read as one figure
    parts = [f"{name} of {grouped(pot.amount)} to " + " and ".join(f"seat {s} ({grouped(c)})" for s, c in pot.shares)
             for name, pot in zip(names, contested, strict=True)]
    parts += [f"{grouped(pot.amount)} not called goes back to seat {pot.seats[0]}"
              for pot in pots if len(pot.seats) == 1]
    text = "Pots: " + "; ".join(parts) + "."
    if len(contested) > 1:
        text += f" Each pot is split separately ({table.rule(RuleKey.SIDE_POTS).cite})."
    text += odd_chips_text(table, [(name, pot) for name, pot in zip(names, contested, strict=True) if pot.odd_chips])
    return text


def odd_chips_text(table: TableState, pots: Sequence[tuple[str, Pot]]) -> str:
    """Where each odd chip went and why, the book's sentences cited: in single units (a table not told its chips)
    as it always read; in chips of the smallest denomination, each pot's odd chips and the three Ties sentences."""
    if not pots:
        return ""
    rule = table.rule(RuleKey.ODD_CHIP)
    odd = [seat for _name, pot in pots for seat in pot.odd_chips]
    if all(pot.chip <= 1 for _name, pot in pots):
        who = ", ".join(f"seat {s}" for s in odd)
        return f" Odd chip to {who}, first clockwise from the button ({rule.cite})."
    parts = []
    for name, pot in pots:
        chip = grouped(pot.chip)
        whole = " and ".join(grouped(chips) for _seat, chips in pot.shares)
        who = " and ".join(f"seat {s}" for s in pot.odd_chips)
        parts.append(f"{name} ({grouped(pot.amount)}) in {chip} chips is {whole}, "
                     f"the odd {chip} chip{'s' if len(pot.odd_chips) > 1 else ''} to {who}")
    unit_cite = f"{rule.origin.get('unit_rule', rule.source)}: {rule.word('unit_rule')}"
    one_cite = f"{rule.origin.get('one_each_rule', rule.source)}: {rule.word('one_each_rule')}"
    return (f" Odd chips: {'; '.join(parts)}: an odd chip is broken down to the smallest chip in play ({unit_cite}), "
            f"no player gets more than one ({one_cite}), and it goes to the first winner clockwise from the button "
            f"({rule.cite}).")


def showdown(table: TableState, hand: Hand) -> None:
    hand.phase = SHOWDOWN
    board = [table.cards[uid].card for uid in hand.board.cards]
    hands: dict[int, Sequence[str]] = {
        seat: [table.cards[uid].card for uid in hand.dealt.hole[seat]]
        for seat in hand.live()
        if len(hand.dealt.hole[seat]) == hand.game.hole_cards and seat not in hand.dealt.jokers
    }
    if len(board) != 5 or len(hands) < 2:
        return
    if any_unknown(board, *hands.values()):
        return  # a card the table could not read is in play: the dealer reads the hands
    ranks = hand_ranks(hands, board, hand.game.hand_rule)  # each hand read once, for the showdown and every pot
    tied = best_of(ranks, ranks)
    name = hand_name(ranks[tied[0]])  # the winning rank in words (by the game's rule, as it was read)
    who = " and ".join(f"seat {s}" for s in tied)
    summary = f"{who} {'split the pot' if len(tied) > 1 else 'wins'} with {name}"
    rule = table.rule(RuleKey.SHOWDOWN)

    def best(seats: Sequence[int]) -> Sequence[int]:
        return best_of(ranks, seats)  # none to read: (), and the pot is split

    pots = award(table, hand, best)
    remedy = rule.text(summary=summary, hole=hand.game.shown_cards()) + (f" {pots_text(table, pots)}" if pots else "")
    hand.showdown = table.emit(Ruling(t=table.t, ruling=RulingKind.SHOWDOWN, rule=rule.cite,
                                      remedy=remedy, winners=tied, hand=name, pots=pots), shown=False)
