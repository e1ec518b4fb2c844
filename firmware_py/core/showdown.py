"""The showdown and the pots: the hands read, every pot (main and side) awarded, and the ruling that says so.

Below the handlers: a betting round closing on the river, or a hand left uncontested, comes here
(transitions.py); it changes the phase to nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from firmware_py.core.cards import any_unknown
from firmware_py.core.chips import grouped
from firmware_py.core.hand import Hand
from firmware_py.core.phase import SHOWDOWN
from firmware_py.core.pots import Pot
from firmware_py.core.rulings import Ruling, RulingKind
from firmware_py.core.state import TableState
from firmware_py.core.vocab import RuleKey


def award(table: TableState, hand: Hand, best: Callable[[Sequence[int]], Sequence[int]] | None,
          low: Callable[[Sequence[int]], Sequence[int]] | None = None) -> tuple[Pot, ...] | None:
    """Every pot to the best of its seats (`best` None: the last hand left takes it); None without chips.

    A high-low split game also reads the low (`low`: the seats with the best qualifying low, () for none): each
    pot's low half goes to them, and with no low the high takes the whole pot."""
    chips = table.chips.hand
    if chips is None or chips.settled:
        return None
    chips.fold_out(hand.betting.folded)
    chips.fold_out(hand.betting.dead)

    def read(seats: Sequence[int]) -> Sequence[int]:
        won = best(seats) if best is not None else ()
        return won or seats  # no hand to read (jokers, wrong counts): the pot is split

    return chips.award(read, low)


def pots_text(table: TableState, pots: Sequence[Pot]) -> str:
    contested = [pot for pot in pots if len(pot.seats) > 1]
    names = ["main pot", *(f"side pot {n}" for n in range(1, len(contested)))]
    # "side pot 1 of 375", not "side pot 1 375": a pot's number and its amount never read as one figure
    # a high-low pot: "main pot of 300 split high to seat 1, low to seat 3: seat 1 (150) and seat 3 (150)"
    parts = [f"{name} of {grouped(pot.amount)} {_halves(pot) + ':' if pot.low_winners else 'to'} "
             + " and ".join(f"seat {s} ({grouped(c)})" for s, c in pot.shares)
             for name, pot in zip(names, contested, strict=True)]
    parts += [f"{grouped(pot.amount)} not called goes back to seat {pot.seats[0]}"
              for pot in pots if len(pot.seats) == 1]
    text = "Pots: " + "; ".join(parts) + "."
    if len(contested) > 1:
        text += f" Each pot is split separately ({table.rule(RuleKey.SIDE_POTS).cite})."
    text += odd_chips_text(table, [(name, pot) for name, pot in zip(names, contested, strict=True) if pot.odd_chips])
    if any(pot.low_winners and (pot.amount // pot.chip) % 2 for pot in contested):
        text += f" {_split_odd_chip(table)}"
    return text


def _halves(pot: Pot) -> str:
    """'split high to seat 1, low to seat 3 and seat 4': who won each half of a high-low pot."""
    def seats(won: Sequence[int]) -> str:
        return " and ".join(f"seat {s}" for s in won)
    return f"split high to {seats(pot.winners)}, low to {seats(pot.low_winners)}"


def _split_odd_chip(table: TableState) -> str:
    """The book's sentence on the odd chip between the high and the low halves, cited (Robert's Ties 5(c))."""
    rule = table.rule(RuleKey.ODD_CHIP)
    cite = f"{rule.origin.get('split_rule', rule.source)}: {rule.word('split_rule')}"
    return f"The odd chip of a split between the high and the low hands goes to the high hand ({cite})."


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
    high, *others = hand.game.hands
    ranks = high.ranks(hands, board)  # each hand read once, for the showdown and every pot
    tied = high.best(ranks, ranks)
    name = high.rank_name(ranks[tied[0]])  # the winning rank in words (by the game's rule, as it was read)
    who = " and ".join(f"seat {s}" for s in tied)
    summary = f"{who} {'split the pot' if len(tied) > 1 else 'wins'} with {name}"
    low_tied: tuple[int, ...] | None = None
    low_name: str | None = None
    low_best: Callable[[Sequence[int]], Sequence[int]] | None = None
    if others:  # a high-low split game: the low reads its own ranks, and only qualifying hands have one
        low = others[0]
        low_ranks = low.ranks(hands, board)
        if low_ranks:
            low_tied = low.best(low_ranks, low_ranks)
            low_name = low.rank_name(low_ranks[low_tied[0]])

            def low_best(seats: Sequence[int]) -> Sequence[int]:
                return low.best(low_ranks, seats)
        summary = _split_summary(tied, name, low_tied, low_name, low.title)
    rule = table.rule(RuleKey.SHOWDOWN)

    def best(seats: Sequence[int]) -> Sequence[int]:
        return high.best(ranks, seats)  # none to read: (), and the pot is split

    pots = award(table, hand, best, low_best)
    remedy = rule.text(summary=summary, hole=hand.game.shown_cards()) + (f" {pots_text(table, pots)}" if pots else "")
    if low_tied is not None and not pots:  # no chips counted: the book's odd-chip sentence for the dealer's split
        remedy += f" {_split_odd_chip(table)}"
    hand.showdown = table.emit(Ruling(t=table.t, ruling=RulingKind.SHOWDOWN, rule=rule.cite,
                                      remedy=remedy, winners=tied, hand=name, pots=pots,
                                      low_winners=low_tied, low_hand=low_name), shown=False)


def _split_summary(tied: Sequence[int], name: str, low_tied: Sequence[int] | None, low_name: str | None,
                   low_title: str) -> str:
    """Who wins the high half and who the low in a high-low split game; no low: the high takes the whole pot."""
    def who(seats: Sequence[int]) -> str:
        return " and ".join(f"seat {s}" for s in seats)
    if low_tied is None:
        taken = "split the pot" if len(tied) > 1 else "wins the whole pot"
        return f"{who(tied)} {taken} with {name}, no hand qualifying for the {low_title}"
    if len(tied) == 1 and tuple(low_tied) == tuple(tied):
        return f"{who(tied)} scoops the pot, the high with {name} and the low with {low_name}"
    high = f"{who(tied)} {'split the high half' if len(tied) > 1 else 'wins the high half'} with {name}"
    low = f"{who(low_tied)} {'split the low half' if len(low_tied) > 1 else 'wins the low half'} with {low_name}"
    return f"{high}; {low}"
