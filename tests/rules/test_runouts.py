"""Board run-outs with no betting between streets (all in), and the flop redeal: the deal under noise."""

from __future__ import annotations

import pytest

from firmware_py.core import RulingKind
from tests.rules.table_driver import ALL_PROFILES, Table, kinds


def allin_preflop(profile: str) -> Table:
    """Three seats all in before the flop: no betting after it, the dealer runs the board out at once."""
    t = Table(profile)
    t.level(50, 100)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.new_hand()
    t.deal()
    t.bet("allin")  # seat 4
    t.bet("call")  # seat 1: all in too
    t.press("fold")  # seat 2
    t.bet("call")  # seat 3: all in
    return t


def flop_two_down(t: Table) -> tuple[str, str, str, str]:
    """The flop's burn and three cards out of the shoe; the first two read on board1 and board2."""
    burn, a, b, c = (t.take() for _ in range(4))
    for card in (burn, a, b, c):
        t.read("shoe", card)
    t.read("board1", a)
    t.read("board2", b)
    return burn, a, b, c


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_noise_a_flop_card_read_late_in_an_allin_runout_is_no_second_burn(profile: str) -> None:
    # Regression: the turn's burn left the shoe before the third flop card's board read came in;
    # it was counted as a second flop burn (burn_extra), and the turn as a fourth flop card.
    t = allin_preflop(profile)
    burn, _a, _b, c = flop_two_down(t)
    turn_burn, turn = t.take(), t.take()
    t.read("shoe", turn_burn)  # the dealer is already at the turn
    t.read("board3", c)  # ... when the third flop card's read arrives
    t.read("shoe", turn)
    t.read("board4", turn)
    t.river()
    assert kinds(t.rulings) == [RulingKind.SHOWDOWN]
    assert t.core.snapshot().burns == tuple(t.core.card(t.uid(x)) for x in (burn, turn_burn)) + \
        t.core.snapshot().burns[2:]


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_noise_a_flop_card_read_after_the_turn_landed_in_an_allin_runout_is_no_ruling(profile: str) -> None:
    # Regression (the noise harness with amounts, 5 in 10,000 clean hands): the board3 reader dropped
    # out for a moment, so the turn's board4 read came in before the third flop card's. The turn was
    # taken for the third flop card, then the real one for a fourth (flop_too_many, burn_extra).
    # The antenna's position says which street a card is; the order of the reads does not.
    t = allin_preflop(profile)
    burn, a, b, c = flop_two_down(t)
    turn_burn, turn = t.take(), t.take()
    t.read("shoe", turn_burn)
    t.read("shoe", turn)
    t.read("board4", turn)  # lands, and is read, first
    t.read("board3", c)  # the late read
    t.river()
    assert kinds(t.rulings) == [RulingKind.SHOWDOWN]
    snapshot = t.core.snapshot()
    assert snapshot.board == tuple(t.core.card(t.uid(x)) for x in (a, b, c, turn)) + snapshot.board[4:]
    assert snapshot.burns[:2] == tuple(t.core.card(t.uid(x)) for x in (burn, turn_burn))


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_noise_the_turn_read_after_the_river_landed_in_an_allin_runout_is_no_ruling(profile: str) -> None:
    t = allin_preflop(profile)
    t.flop()
    turn_burn, turn, river_burn, river = (t.take() for _ in range(4))
    for card in (turn_burn, turn, river_burn, river):
        t.read("shoe", card)
    t.read("board5", river)
    t.read("board4", turn)
    assert kinds(t.rulings) == [RulingKind.SHOWDOWN]
    assert t.core.snapshot().board[3:] == (t.core.card(t.uid(turn)), t.core.card(t.uid(river)))


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_hold_em_a_turn_card_on_its_position_before_the_flop_is_complete_with_betting_to_come(profile: str) -> None:
    # With players still to act the positions change nothing: the card is judged as before.
    t = Table(profile)
    t.clean_preflop()
    burn, a, b, c = (t.take() for _ in range(4))
    for card in (burn, a, b):
        t.read("shoe", card)
    t.read("board1", a)
    t.read("board2", b)
    before = [r.ruling for r in t.rulings]
    t.read("shoe", c)
    t.read("board4", c)  # a third flop card put down on the turn's antenna
    assert [r.ruling for r in t.rulings] == before
    assert t.core.snapshot().board[:3] == tuple(t.core.card(t.uid(x)) for x in (a, b, c))


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_all_in_with_the_board_complete_the_hands_are_read_at_once(profile: str) -> None:
    t = allin_preflop(profile)
    t.flop()
    t.turn()
    t.river()
    assert kinds(t.rulings) == [RulingKind.SHOWDOWN]
    assert sum(v.stack or 0 for v in t.core.snapshot().seats) == 4000


@pytest.mark.parametrize("profile", ["robert", "upt", "rpl"])
def test_hold_em_3_the_extra_flop_card_may_come_out_first_in_the_redeal(profile: str) -> None:
    # Regression: the fourth flop card, the last card out before the redeal, was taken for a double
    # read when the shuffle brought it out first again, and the new flop never completed.
    t = Table(profile, seats=(1, 2), button=1)
    t.clean_preflop()
    burn, a, b, c, extra = (t.take() for _ in range(5))
    for card in (burn, a, b, c, extra):
        t.read("shoe", card)
    for position, card in enumerate((a, b, c, extra), start=1):
        t.read(f"board{position}", card)
    assert kinds(t.rulings) == [RulingKind.FLOP_TOO_MANY]
    t.press("confirm")
    for position, card in enumerate((a, b, c, extra), start=1):
        t.gone(f"board{position}", card)
    new = [extra, t.take(), t.take()]  # redealt without a burn; the extra card comes out first
    for card in new:
        t.read("shoe", card)
    for position, card in enumerate(new, start=1):
        t.read(f"board{position}", card)
    assert t.core.snapshot().board == tuple(new) and t.core.snapshot().phase == "betting"
    t.act("check", "check")
    t.turn()
    t.act("check", "check")
    t.river()
    t.act("check", "check")
    assert kinds(t.rulings) == [RulingKind.FLOP_TOO_MANY, RulingKind.SHOWDOWN]
