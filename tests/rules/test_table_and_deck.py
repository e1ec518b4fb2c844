"""Button, blinds and deal order (section 9), defective decks (8), showdown (10), noise, undo."""

from __future__ import annotations

import pytest

from firmware_py.core import Deck, Read, RulingKind
from firmware_py.core.events import MAX_SEATS
from firmware_py.core.hand import Hand
from firmware_py.core.seating import Positions, clockwise_from
from tests.rules.table_driver import ALL_PROFILES, BLUE, RED, Table, kinds, only


def test_deal_order_first_card_left_of_the_button_button_last() -> None:
    table = Table("robert", seats=(2, 4, 7, 9), button=4)
    table.new_hand()
    table.deal(["2s", "7h", "Td", "4c", "9s", "Kh", "3d", "8c"])
    snap = table.core.snapshot()
    assert [snap.seat(s).cards[0] for s in (7, 9, 2, 4)] == ["2s", "7h", "Td", "4c"]
    assert (snap.button, snap.small_blind, snap.big_blind) == (4, 7, 9)
    assert snap.to_act == 2  # first to act: left of the big blind


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_heads_up_button_is_small_blind_and_big_blind_gets_the_first_card(profile: str) -> None:
    table = Table(profile, seats=(3, 8), button=3)
    table.new_hand()
    table.deal(["2s", "7h", "Td", "4c"])
    snap = table.core.snapshot()
    assert snap.small_blind == 3 and snap.big_blind == 8
    assert snap.seat(8).cards == ("2s", "Td")
    assert snap.to_act == 3  # the button acts first before the flop
    table.act("call", "check")
    table.flop()
    assert table.core.snapshot().to_act == 8  # and last after it


def test_button_moves_after_the_hand_and_stays_after_a_misdeal() -> None:
    table = Table("robert")
    table.clean_preflop()
    table.press("hand_end")
    table.new_hand()
    assert table.core.snapshot().button == 2
    table.press("misdeal")
    table.new_hand()
    assert table.core.snapshot().button == 2  # a misdeal is redealt from the same button


@pytest.mark.parametrize(("profile", "button"), [("robert", 3), ("wfp", 3), ("rpl", 3), ("wfp-dealer", 2)])
def test_dead_button_when_the_small_blind_leaves(profile: str, button: int) -> None:
    table = Table(profile, seats=(1, 2, 3, 4, 5), button=2)  # small blind 3, big blind 4
    table.clean_preflop()
    table.press("hand_end")
    table.seat(3, "out")
    table.new_hand()
    snap = table.core.snapshot()
    assert snap.big_blind == 5 and snap.small_blind == 4
    # Dead button: the button goes to the empty seat; WFP dealers keep it in place.
    assert snap.button == button


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_dead_button_when_the_big_blind_leaves_there_is_no_small_blind(profile: str) -> None:
    table = Table(profile, seats=(1, 2, 3, 4, 5), button=1)  # small blind 2, big blind 3
    table.clean_preflop()
    table.press("hand_end")
    table.seat(3, "out")
    table.new_hand()
    snap = table.core.snapshot()
    assert snap.big_blind == 4 and snap.small_blind is None and snap.button == 2


def test_robert_new_player_is_not_dealt_in_between_the_button_and_the_blinds() -> None:
    table = Table("robert", seats=(1, 2, 4, 5, 6), button=1)  # small blind 2, big blind 4
    table.clean_preflop()
    table.press("hand_end")
    table.seat(3, "in")
    table.new_hand()  # button 2, small blind 4, big blind 5: seat 3 is between button and blinds
    snap = table.core.snapshot()
    assert (snap.button, snap.small_blind, snap.big_blind) == (2, 4, 5)
    assert snap.seat(3).state == "waiting"
    table.deal()
    assert snap.seat(3).cards == ()


def test_new_player_in_the_big_blind_seat_posts_it() -> None:
    table = Table("robert", seats=(1, 2, 4, 5, 6), button=6)  # small blind 1, big blind 2
    table.clean_preflop()
    table.press("hand_end")
    table.seat(3, "in")
    table.new_hand()
    snap = table.core.snapshot()
    assert (snap.button, snap.small_blind, snap.big_blind) == (1, 2, 3)
    assert snap.seat(3).state == "active"


def test_rpl_rules_for_using_blinds_5_new_player_is_dealt_in_immediately() -> None:
    table = Table("rpl", seats=(1, 2, 4, 5, 6), button=1)
    table.clean_preflop()
    table.press("hand_end")
    table.seat(3, "in")
    table.new_hand()
    assert table.core.snapshot().seat(3).state == "active"


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_3_card_with_a_different_back_voids_the_hand(profile: str) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal(count=3)
    ruling = only(table.shoe("Qs", blue=True))
    assert ruling.ruling is RulingKind.VOID_HAND and ruling.cause == "foreign_card" and ruling.card == "Qs"
    assert "blue" in ruling.remedy and ruling.rule.endswith("Irregularities 3")


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_irregularities_4_two_cards_of_the_same_rank_and_suit_void_the_hand(profile: str) -> None:
    twin = Deck(name="red-twin", back="red", cards=dict(BLUE.cards))  # another red deck
    table = Table(profile, decks=(RED, twin))
    table.new_hand()
    table.deal(["2s", "7h", "Td"], count=3)
    ruling = only(table.read("shoe", "7h", blue=True))
    assert ruling.ruling is RulingKind.VOID_HAND and ruling.cause == "duplicate_card" and ruling.card == "7h"
    assert ruling.rule.endswith("Irregularities 4")


def test_unknown_tag_between_hands_or_off_the_shoe_is_a_notice_not_a_ruling() -> None:
    table = Table("robert")
    assert table._feed(Read(t=1.0, antenna="shoe", uid="DEADBEEF")) == []  # no hand: cards being gathered
    assert "unknown tag DEADBEEF on antenna shoe" in table.notices[-1]
    table.new_hand()
    assert table._feed(Read(t=2.0, antenna="muck", uid="DEADBEEF")) == []
    assert "unknown tag DEADBEEF on antenna muck" in table.notices[-1]


def _to_river(table: Table, hole: list[str], board: list[str]) -> None:
    table.reserved.update(board)
    table.new_hand()
    table.deal(hole)
    table.act("call", "call", "call", "check")
    table.flop(board[:3])
    table.act("check", "check", "check", "check")
    table.turn(board[3])
    table.act("check", "check", "check", "check")
    table.river(board[4])


def test_the_showdown_2_cards_speak_best_hand_wins() -> None:
    table = Table("robert")
    _to_river(table, ["As", "Kd", "7c", "2h", "Ad", "Kh", "8c", "3h"], ["Qs", "Js", "4d", "Ts", "9c"])
    ruling = only(table.act("check", "check", "check", "check"))
    assert ruling.ruling is RulingKind.SHOWDOWN and ruling.winners == (3,)  # K-K makes a straight
    assert ruling.hand == "straight, king high"


def test_the_showdown_split_pot_playing_the_board() -> None:
    table = Table("wfp-dealer")
    _to_river(table, ["2s", "3d", "4c", "5h", "2h", "3s", "4h", "5c"], ["Ah", "Kh", "Qh", "Jh", "Th"])
    ruling = only(table.act("check", "check", "check", "check"))
    assert ruling.winners == (1, 2, 3, 4) and ruling.hand == "royal flush"
    assert ruling.rule == "wfp-dealer: Showdown Order / Cards Speak"


def test_uncontested_pot_has_no_showdown() -> None:
    table = Table("robert")
    table.new_hand()
    table.deal()
    assert table.act("fold", "fold", "fold") == []
    assert table.core.snapshot().phase == "showdown" and table.core.snapshot().showdown is None


def test_noise_repeated_reads_of_cards_that_never_left_make_no_ruling() -> None:
    table = Table("robert")
    table.new_hand()
    for card in ["2s", "7h", "Td", "4c", "9s", "Kh", "3d", "8c"]:
        table.read("shoe", table.take(card))
        table.read("shoe", card)  # the shoe reads the same card twice
    table.act("call", "call", "call", "check")
    table.shoe("5d")
    for i, card in enumerate(["Qs", "Js", "4d"], start=1):
        table.read("shoe", table.take(card))
        table.read(f"board{i}", card)
        table.read(f"board{i}", card)  # flicker: read again
        table.gone(f"board{i}", card)
        table.read(f"board{i}", card)
    table.act("check", "check", "check", "check")
    assert table.rulings == []
    assert table.core.snapshot().board == ("Qs", "Js", "4d")


def test_undo_takes_back_the_last_press() -> None:
    table = Table("robert", seats=(1, 2, 3, 4, 5, 6))
    table.new_hand()
    table.deal()
    table.act("fold", "fold")
    table.press("undo")
    assert table.core.snapshot().seat(5).state == "active"
    assert only(table.press("misdeal")).ruling is RulingKind.MISDEAL  # one action: still in the window


def test_confirm_clears_the_banner_oldest_first() -> None:
    table = Table("robert")
    table.new_hand()
    table.deal(count=4)
    table.press("exposed")
    assert len(table.core.snapshot().unconfirmed) == 1
    table.press("confirm")
    assert table.core.snapshot().unconfirmed == ()


@pytest.mark.parametrize(("profile", "seconds", "warnings"),
                         [("robert", 60, (10.0,)), ("wfp", 60, (10.0,)), ("wfp-dealer", 30, (20.0, 10.0))])
def test_clock_follows_the_profile(profile: str, seconds: int, warnings: tuple[float, ...]) -> None:
    table = Table(profile)
    table.new_hand()
    table.deal()
    table.press("clock")
    clock = table.core.snapshot().clock
    assert clock is not None and clock.seat == 4 and clock.seconds == seconds and clock.warnings == warnings
    table.act("call")
    assert table.core.snapshot().clock is None


def test_same_input_gives_the_same_rulings() -> None:
    def play() -> list[object]:
        table = Table("upt")
        table.new_hand()
        table.deal(count=5)
        table.press("exposed")
        table.deal(count=3)
        table.shoe()
        table.act("call", "call")
        table.flop()
        return [r.to_json() for r in table.rulings]

    assert play() == play()
    assert kinds(Table("upt").rulings) == []


def test_noise_a_card_taken_for_an_extra_card_that_later_lands_on_the_board_is_not_also_a_burn() -> None:
    table = Table("robert", seats=(1, 2))
    table.new_hand()
    table.deal()
    table.read("board1", table.take("6s"))  # read before it left the shoe: taken as an extra card
    table.act("call", "check")
    table.flop()
    table.act("check", "check")
    table.turn()
    table.act("check", "check")
    table.shoe()
    table.read("shoe", "6s")
    table.read("board5", "6s")
    snap = table.core.snapshot()
    assert snap.board[-1] == "6s" and "6s" not in snap.burns


@pytest.mark.parametrize("button", [*range(-1, 13)])
def test_the_seats_clockwise_start_after_the_seat_and_wrap_round_the_table(button: int) -> None:
    """`clockwise_from` as a pass round the table's ten seats from the one after `button`: seats beyond
    them are no seats, and a seat number beyond them is that seat round the table again."""
    for seats in ({1, 3, 5, 8}, {2, 10}, {4}, set(), {0, 1, 10, 11}, set(range(1, 11))):
        by_pass = [(button - 1 + step) % MAX_SEATS + 1 for step in range(1, MAX_SEATS + 1)]
        expected = [seat for seat in by_pass if seat in seats]
        assert clockwise_from(button, seats) == expected
        assert clockwise_from(button, tuple(seats)) == expected


def test_one_can_act_when_the_others_are_all_in_folded_or_dead() -> None:
    hand = Hand(number=1, positions=Positions(button=1, small_blind=2, big_blind=3, deal_order=(2, 3, 4, 1)))
    for folded, dead, allin in [((), (), ()), ((2,), (), (3,)), ((2,), (3,), (4,)), ((2, 3, 4, 1), (), ()),
                                ((), (), (2, 3, 4)), ((1,), (2,), ())]:
        hand.betting.folded, hand.betting.dead, hand.betting.allin = set(folded), set(dead), set(allin)
        assert hand.one_can_act() is (len(hand.can_act()) <= 1)
