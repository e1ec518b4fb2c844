"""Regenerate example sessions under tests/sessions/ from scripted dealing (run by hand).

Each session is one table story that ends in a ruling kind of table-events.md. The expected
rulings beside each (`NAME.expected.jsonl`) were read and checked against the rulebooks by hand;
`test_replay.py` replays the sessions through the CLI and compares. So rewrite only the session whose
story or rulings you changed, and read its new rulings before committing:

    python tests/sessions/make_sessions.py burns_rpl       # rewrite one session and its expected rulings
    python tests/sessions/make_sessions.py --check         # write nothing: which sessions would change
    python tests/sessions/make_sessions.py --list          # the sessions' names
    python tests/sessions/make_sessions.py --all           # every one (after a deliberate change to all)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from firmware_py.config_toolkit import did_you_mean  # noqa: E402
from firmware_py.core import Read, RuleKey, Setup  # noqa: E402
from firmware_py.session import event_to_json  # noqa: E402
from tests.rules.table_driver import Table  # noqa: E402

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


def three_way_allin(t: Recorder) -> None:
    """Seats 2, 3 and 4 all in for 300, 1,000 and 2,000; seat 1 covers: a main pot and two side pots."""
    t.reserved = {"2c", "7d", "9s", "4c", "3h"}
    t.level(50, 100)
    t.stacks(s1=5000, s2=300, s3=1000, s4=2000)
    t.new_hand()
    t.deal(["As", "Ks", "Qs", "Js", "Ah", "Kh", "Qh", "Jh"])  # seats 2, 3, 4, 1 (twice)
    t.bet("allin")  # seat 4: 2,000
    t.bet("call")  # seat 1
    t.bet("allin")  # seat 2: 300, a call for less
    t.bet("allin")  # seat 3: 1,000
    t.flop(["2c", "7d", "9s"])
    t.turn("4c")
    t.river("3h")


def runout_late_read(t: Recorder) -> None:
    """Three all in before the flop, the board run out at once; the board3 reader drops out for a
    moment, so the turn on board4 is read before the third flop card: the showdown, and no ruling."""
    t.reserved = {"2c", "7d", "9s", "4c", "3h", "5d", "8h", "Td"}
    t.level(50, 100)
    t.stacks(s1=1000, s2=1000, s3=1000, s4=1000)
    t.new_hand()
    t.deal(["As", "Ks", "Qs", "Js", "Ah", "Kh", "Qh", "Jh"])  # seats 2, 3, 4, 1 (twice)
    t.bet("allin")  # seat 4
    t.bet("call")  # seat 1: all in
    t.press("fold")  # seat 2
    t.bet("call")  # seat 3: all in
    for card in ("5d", "2c", "7d", "9s", "8h", "4c"):  # burn, flop, burn, turn: the dealer runs it out
        t.read("shoe", card)
    t.read("board1", "2c")
    t.read("board2", "7d")
    t.read("board4", "4c")  # the turn lands, and is read, first
    t.read("board3", "9s")  # the late read
    t.river("3h")


CHIP_SET = (25, 100, 500, 1000)  # the chips in play of a tournament that starts at 25/50


def odd_chip(t: Recorder) -> None:
    """Seat 2 folds its small blind: a pot of 125 split between seats 3 and 1 in 25 chips: 75 and 50, the odd
    25 chip to seat 3, first clockwise from the button."""
    t.reserved = {"As", "Kh", "Qd", "Jc", "Ts"}
    t.level(25, 50)
    t.stacks(s1=1000, s2=1000, s3=1000)
    t.new_hand()
    t.deal(["2c", "3c", "4d", "2d", "3d", "5d"])  # seats 2, 3, 1 (twice)
    t.bet("call")  # seat 1 (the button acts first three-handed)
    t.press("fold")  # seat 2
    t.press("check")  # seat 3
    t.flop(["As", "Kh", "Qd"])
    t.act("check", "check")
    t.turn("Jc")
    t.act("check", "check")
    t.river("Ts")
    t.act("check", "check")


def split_side_pot(t: Recorder) -> None:
    """Seat 3 all in short wins the main pot; seats 4 and 1 tie for an odd side pot of 375: 200 and 175 in 25
    chips, the odd 25 chip to seat 4, first clockwise from the button."""
    t.reserved = {"Ks", "Qd", "Jh", "Tc", "2s"}
    t.level(50, 100)
    t.stacks(s1=1000, s2=1000, s3=275, s4=1000)
    t.new_hand()
    t.deal(["6h", "As", "3c", "3h", "7h", "5c", "4s", "4d"])  # seats 2, 3, 4, 1 (twice)
    t.bet("raise", 300)  # seat 4
    t.bet("call")  # seat 1
    t.bet("call")  # seat 2
    t.bet("allin")  # seat 3: 275, short of the call
    t.flop(["Ks", "Qd", "Jh"])
    t.press("check")  # seat 2
    t.bet("bet", 150)  # seat 4
    t.bet("call")  # seat 1
    t.press("fold")  # seat 2
    t.turn("Tc")
    t.act("check", "check")
    t.river("2s")
    t.act("check", "check")


def raise_too_small_upt(t: Recorder) -> None:
    """UPT's house rule: a raise is at least double the bet faced. 500 then 800 is brought up to 1,000."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.clean_preflop()
    t.flop()
    t.press("check")  # seat 2
    t.bet("bet", 500)  # seat 3
    t.bet("raise", 800)  # seat 4: under double the 500 faced


def short_allin_not_reopened(t: Recorder) -> None:
    """WFP dealers: bet 400, all in 700 (short of a full raise); the bettor may only call or fold."""
    t.level(100, 200)
    t.stacks(s1=5000, s2=5000, s3=5000, s4=700)
    t.clean_preflop()  # 200 each: seat 4 has 500 behind
    t.flop()
    t.press("check")  # seat 2
    t.bet("bet", 400)  # seat 3
    t.bet("allin")  # seat 4: 500, short of a full raise to 800
    t.bet("call")  # seat 1
    t.press("call")  # seat 2
    t.bet("raise", 1200)  # seat 3 already acted: not reopened
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


def out_of_turn_bet_upt(t: Recorder) -> None:
    """UPT's house rule Out Of Turn Bet: seat 4 bets 1,000 out of turn on the flop and posts the minimum bet
    (the big blind, 200) at once; the action moves back to seat 2, who faces it (its check is refused). Seat 2 calls,
    seat 3 folds, seat 1 calls: seat 4 may only check, and the round is over."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.clean_preflop()
    t.flop()
    t.press("bet", seat=4, amount=1000)  # seat 2 is to act: 200 posted now
    t.press("check")  # seat 2: no check (call, fold or raise), a ruling
    t.act("call", "fold", "call")  # seats 2, 3 and 1


def out_of_turn_check_robert(t: Recorder) -> None:
    """Robert's Betting and Raising 10: seat 3 checks out of turn, seat 2 then bets: the check is
    not binding, but seat 3 may not bet or raise on its turn (the raise is refused, a ruling citing
    Betting and Raising 10); it calls."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.clean_preflop()
    t.flop()
    t.press("check", seat=3)  # seat 2 is to act
    t.bet("bet", 400)  # seat 2: the action changed
    t.bet("raise", 1200)  # seat 3: refused
    t.act("call", "fold", "call")  # seats 3, 4 and 1


def out_of_turn_fold_wfp_dealer(t: Recorder) -> None:
    """WFP dealers' Act in Turn: seat 1 (the button) folds out of turn before seat 4: "an out of turn
    (OOT) folded hand will be mucked immediately"; seats 4, 2 and 3 play on."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.press("fold", seat=1)  # seat 4 is to act
    t.act("call", "call", "check")  # seats 4, 2 and 3 (seat 1's fold taken between)


def out_of_turn_call_rpl(t: Recorder) -> None:
    """RPL Betting and Raising 9: seat 1 calls out of turn, seat 4 raises: the call is not binding and
    RPL has no rule against the seat raising then; seat 1 re-raises."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.press("call", seat=1)  # seat 4 is to act
    t.bet("raise", 600)  # seat 4: the action changed
    t.bet("raise", 1800)  # seat 1: free to raise in RPL
    t.act("fold", "fold", "call")  # seats 2, 3 and 4


def blind_fold_wfp_dealer(t: Recorder) -> None:
    """WFP dealers give a blind's fold back: the big blind folds out of turn before anyone acted (Act in
    Turn, Know the Blinds: the cards are returned), then folds in turn at its option to check (Mucked
    Cards / Unintentional Folds: returned again, with a warning); it checks and the flop comes."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.press("fold", seat=3)  # seat 4 is to act
    t.act("call", "call", "call")  # seats 4, 1 and 2
    t.press("fold")  # seat 3, the big blind, with nothing to call
    t.press("check")
    t.flop()
    t.act("check", "check", "check", "check")


def bb_ante_short_upt(t: Recorder) -> None:
    """A big-blind ante level: seat 3 (the big blind) has 300 chips, posts the 200 blind first and 100 of the
    200 ante (dead money), all in: UPT Tournaments 19, action on what is left. Seats 4 and 1 call 200, seat 2
    folds its small blind; seat 3's four of a kind wins the main pot (200 x 3 + 100 small blind + 100 ante)."""
    t.reserved = {"2c", "7d", "9s", "4c", "3h"}
    t.level(100, 200, bb_ante=200)
    t.stacks(s1=5000, s2=5000, s3=300, s4=5000)
    t.new_hand()
    t.deal(["Kd", "9h", "Qs", "Js", "Kc", "9d", "Qh", "Jh"])  # seats 2, 3, 4, 1 (twice)
    t.bet("call")  # seat 4
    t.bet("call")  # seat 1
    t.bet("fold")  # seat 2, the small blind
    t.flop(["9c", "7d", "9s"])
    t.bet("check")  # seat 4
    t.bet("check")  # seat 1
    t.turn("4c")
    t.bet("check")
    t.bet("check")
    t.river("3h")
    t.bet("check")
    t.bet("check")


def chip_race_wfp(t: Recorder) -> None:
    """A color-up of the 25 chips between hands (WFP Tournament Procedures 6): odd chips from the stacks (seat 1
    three, seat 2 two, seat 3 two: all its chips), one card each from seat 1. Seat 3 may not be raced out: it
    gets a 100 chip first; the 75 left is half a chip or more: the highest card (As, seat 2) gets one. The
    dealer first deals seat 1's third card to seat 2's place (the seat antenna sees it): the race is dealt again."""
    t.level(50, 100)
    t.stacks(s1=1075, s2=2050, s3=50, s4=1000)
    t.race(25, 100)
    t.read("shoe", "Ks")
    t.read("shoe", "Qs")
    t.read("shoe", "Js")
    t.read("seat2", "Js")  # seat 1 was due it: a race misdeal
    t.press("confirm")
    for card in ("Ks", "Qs", "Js", "As", "Ah", "2c", "3c"):
        t.read("shoe", card)
    t.press("confirm")
    t.new_hand()


def chips_in_play_upt(t: Recorder) -> None:
    """Chips of 25, 100, 500 and 1,000 in play (the setup's denominations; Ties: "An odd chip will be broken down
    to the smallest unit used in the game", "No player may receive more than one odd chip"). A stack of 13 is no
    chip: not taken. A pot of 200 split three ways in 25s: 75, 75 and 50, one odd chip each to seats 2 and 3.
    The color-up of the 25s (UPT Tournaments 11): four odd chips raced for one 100 chip; from then on the smallest
    chip is 100, a level of 50/100 is not taken, and a pot of 700 split three ways is 300, 200 and 200."""
    t.reserved = {"As", "Kh", "Qd", "Jc", "Ts"}
    t.level(25, 50)
    t.stacks(s1=1500, s2=13, s3=1500, s4=1500)  # seat 2's 13: a chip that does not exist (a notice)
    t.stacks(s2=1500)
    t.new_hand()
    t.deal(["2c", "3c", "4c", "5c", "2d", "3d", "4d", "5d"])  # seats 2, 3, 4, 1
    t.act("call", "call", "call", "check")  # seat 4, seat 1, seat 2 completes, seat 3 checks: 200
    t.flop(["As", "Kh", "Qd"])
    t.act("check", "check", "fold", "check")  # seat 4 folds
    t.turn("Jc")
    t.act("check", "check", "check")
    t.river("Ts")
    t.act("check", "check", "check")  # the board plays: seats 2, 3 and 1 split 200 as 75, 75, 50
    t.press("hand_end")
    t.race(25, 100)  # odd 25s: seat 2 one (1,525), seat 3 one (1,525), seat 4 two (1,450): four cards
    for card in ("9c", "Kd", "2h", "7s"):
        t.read("shoe", card)  # 100 in odd chips: one 100 chip to the king (seat 3)
    t.press("confirm")
    t.level(50, 100)  # the 50 is no chip now: not taken (a notice)
    t.level(100, 200)
    t.fresh_deck()
    t.reserved = {"As", "Kh", "Qd", "Jc", "Ts"}
    t.new_hand()  # the button moves to seat 2: seat 3 small blind, seat 4 big blind
    t.deal(["2c", "3c", "4c", "5c", "2d", "3d", "4d", "5d"])  # seats 3, 4, 1, 2
    t.act("call", "call", "fold", "check")  # seat 1, seat 2, seat 3 folds its small blind, seat 4 checks: 700
    t.flop(["As", "Kh", "Qd"])
    t.act("check", "check", "check")
    t.turn("Jc")
    t.act("check", "check", "check")
    t.river("Ts")
    t.act("check", "check", "check")  # seats 4, 1 and 2 split 700 in 100s: 300, 200, 200


def clocks_and_folds_wfp_dealer(t: Recorder) -> None:
    """WFP dealers' "Clock" and "Mucked Cards / Unintentional Folds". Hand 1: seat 2 calls the clock on seat 4;
    20 and 10 seconds, 5 to 1, dead. Hand 2: seat 1 folds in error and gets its cards back (only a fold since);
    on the flop seat 3 folds in error, but seat 4 has bet since: refused. Hand 3: the clock on seat 1, who says
    "raise" with no amount: at the end of the 30 seconds, a minimum raise."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.clock(2)  # on seat 4, first to act
    t.wait(31)  # dead
    t.act("call", "call", "check")  # seats 1, 2 and 3
    t.flop()
    t.act("check", "check", "check")
    t.turn()
    t.act("check", "check", "check")
    t.river()
    t.act("check", "check", "check")
    t.press("hand_end")
    t.fresh_deck()
    t.new_hand()  # button on seat 2: seat 1 is first to act
    t.deal()
    t.act("fold")  # seat 1, mistaken about the bet
    t.act("fold")  # seat 2 (the button)
    t.retrieve(1)  # a fold since is not significant: returned; seat 1 acts when the action comes round
    t.act("call")  # seat 3, the small blind
    t.act("check")  # seat 4, the big blind
    t.act("call")  # seat 1, back in
    t.flop()
    t.act("fold")  # seat 3, in error
    t.bet("bet", 400)  # seat 4: significant action
    t.retrieve(3)  # refused
    t.act("fold")  # seat 1: seat 4 wins
    t.press("hand_end")
    t.fresh_deck()
    t.new_hand()
    t.deal()
    t.clock()  # the dealer calls it on the first to act
    t.wait(4)
    t.press("raise")  # "raise", no amount: the clock runs on
    t.wait(27)  # a minimum raise
    t.act("fold", "fold", "fold")


def clocks_and_folds_robert(t: Recorder) -> None:
    """Robert's Rules (No-Limit 16 as UPT reproduces it; Dead Hands 1(f) and 2). Seat 4 folds in error and seat 1
    calls; management retrieves the clearly identifiable hand. The clock on seat 2 facing the big blind: a
    minute, a ten-second warning, dead. On the flop the clock on seat 3 with no bet to call: checked."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.act("fold")  # seat 4
    t.act("call")  # seat 1
    t.retrieve(4)  # Dead Hands 2: clearly identifiable, at management's discretion
    t.clock(1)  # on seat 2, the small blind, facing the big blind
    t.wait(61)  # dead
    t.act("check")  # seat 3, the big blind
    t.act("call")  # seat 4, back in: calls the big blind
    t.flop()
    t.clock(4)  # on seat 3, first to act, no bet to call
    t.wait(61)  # checked
    t.act("check", "check")
    t.turn()
    t.act("check", "check", "check")
    t.river()
    t.act("check", "check", "check")


def folds_rpl(t: Recorder) -> None:
    """RPL The Deal 5: "Mucked cards can not be retrieved from the pile": seat 4 folds in error, the retrieve
    press is refused; the clock (No-Limit Rules 14) on seat 1 facing the big blind: a minute, dead."""
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    t.act("fold")
    t.retrieve(4)
    t.clock(3)
    t.wait(61)
    t.act("call", "check")


def jackpot_bad_beat_wfp(t: Recorder) -> None:
    """A bad beat for the house's jackpot (config/jackpots.toml; the table rules only the showdown, the daemon the
    jackpot): seat 2's aces full of kings (As Ad) loses to seat 3's four nines (9h 9d) on Ac Kh Kd 9s 9c."""
    t.reserved = {"Ac", "Kh", "Kd", "9s", "9c"}
    t.level(100, 200)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal(["As", "9h", "2d", "7c", "Ad", "9d", "Ts", "4h"])  # seats 2, 3, 4, 1 (twice)
    t.act("fold", "fold", "call", "check")  # seats 4 and 1 fold; seat 2 completes, seat 3 checks
    t.flop(["Ac", "Kh", "Kd"])
    t.bet("bet", 400)  # seat 2
    t.act("call")  # seat 3
    t.turn("9s")
    t.act("check")
    t.bet("bet", 1000)  # seat 3
    t.act("call")
    t.river("9c")
    t.act("check")
    t.bet("bet", 3000)  # seat 3
    t.act("call")


# -- the other games (core/game.py): each irregularity class, in every profile -------------------------
# Several hands a session, each one class: the deal's (a misdeal, an exposed, boxed, short and extra card),
# the board's (premature cards, too many flop cards, burns, a foreign card) and the betting's (pot limit's
# cap, fixed limit's sizes and raise cap, a showdown read by the game's rule).


def _hand(t: Recorder) -> int:
    """A new hand with a fresh deck: the number of hole cards the four seats hold in all."""
    t.fresh_deck()
    t.new_hand()
    return t.hole_cards * len(t.core.snapshot().seats)


def game_deal(t: Recorder) -> None:
    _hand(t)
    t.deal(count=2)
    t.press("exposed")  # the second card of the deal: a misdeal (Misdeals 1(a), or the profile's own)
    total = _hand(t)
    t.deal(count=5)
    t.press("exposed")  # one exposed card: replaced after the deal; it becomes the flop's burn
    t.deal(count=total - 5)
    t.shoe()
    t.act("call", "call", "call", "check")
    t.flop(burns=0)
    t.act("check", "check", "check", "check")
    total = _hand(t)
    t.deal(count=3)
    t.press("boxed")  # a scrap of paper, or taken as exposed: the profile says
    t.deal(count=total - 2)
    t.act("call", "call", "call", "check")
    total = _hand(t)
    t.deal(count=total - 1)
    t.act("call")  # the button short one card: dealt it in proper sequence
    t.shoe()
    t.act("call", "call", "check")
    _hand(t)
    t.deal()
    t.shoe()  # one extra card: it becomes the flop's burn
    t.act("call", "call", "call", "check")
    t.flop(burns=0)


def game_board(t: Recorder) -> None:
    _hand(t)
    t.deal()
    t.act("call", "call")
    t.flop()  # before the blinds acted: premature
    t.act("call", "check")
    t.flop(burns=0)
    _hand(t)
    t.deal()
    t.act("call", "call", "call", "check")
    t.street(count=4)  # four flop cards: redealt or the turn's burn, as the profile says
    assert t.core.profile is not None
    if t.core.profile.rule(RuleKey.FLOP_TOO_MANY).procedure == "redeal":
        t.flop(burns=0)
        t.act("check", "check", "check", "check")
        t.turn()
    else:
        t.act("check", "check", "check", "check")
        t.turn(burns=0)
    _hand(t)
    t.deal()
    t.act("call", "call", "call", "check")
    t.flop(burns=0)  # the flop's burn missing
    t.act("check", "check", "check", "check")
    t.turn(burns=2)  # two burns
    t.act("check", "check", "check", "check")  # the turn's burns are judged once its betting begins
    _hand(t)
    t.deal(count=3)
    t.shoe("Qs", blue=True)  # a card with another back: the hand is void


def game_pot_limit(t: Recorder) -> None:
    """A raise over the pot is refused (the pot-limit rule), the pot-sized one taken; a showdown by Omaha's rule."""
    t.level(50, 100)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    _hand(t)
    t.deal()
    t.bet("raise", 400)  # seat 4: the pot-sized raise is to 350
    t.bet("raise", 350)
    t.bet("call")  # seat 1
    t.press("fold")  # seat 2
    t.bet("call")  # seat 3
    t.flop()
    t.press("check")  # seat 3
    t.bet("bet", 2000)  # seat 4: the pot is 1,100: refused
    t.bet("bet", 1100)
    t.bet("call")
    t.press("fold")
    t.turn()
    t.act("check", "check")
    t.river()
    t.act("check", "check")


def game_fixed_limit(t: Recorder) -> None:
    """A bet and three raises, the fourth refused (Betting and Raising 3(a)); the small bet, then the big bet."""
    t.level(50, 100)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    _hand(t)
    t.deal()
    t.act("raise", "raise", "raise")  # seats 4, 1, 2: to 400, the cap with the big blind's bet
    t.bet("raise")  # seat 3: capped
    t.act("call", "call", "call")  # seats 3, 4 and 1
    t.flop()
    t.bet("bet", 500)  # seat 2: the small bet, 100, whatever is keyed
    t.act("call", "fold", "call")  # seats 3, 4 and 1
    t.turn()
    t.bet("bet")  # seat 2: the big bet, 200
    t.act("call", "call")  # seats 3 and 1
    t.river()
    t.act("check", "check", "check")


def game_hilo_split(t: Recorder) -> None:
    """Omaha Hi-Lo, eight or better, in chips of 25 (Robert's Ties 5(c)). Hand 1: seat 1's kings take the high half
    of 200; seats 2 and 3 tie for the low (7-4-3-2-A) and are quartered, 50 each. Hand 2: the small blind folds,
    175 is seven chips: the high (seat 1) 100, the odd chip to the high hand, the low (seat 2) 75."""
    board = ["Kd", "7c", "4s", "2h", "Qs"]
    hands = {1: ["Ks", "Kh", "Jd", "Tc"], 2: ["Ac", "3d", "Jh", "Ts"], 3: ["As", "3c", "9c", "9d"],
             4: ["8h", "6h", "Qc", "Qh"]}
    t.level(25, 50)
    t.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    t.reserved = {card for cards in hands.values() for card in cards} | set(board)
    t.new_hand()
    t.deal([hands[seat][n] for n in range(4) for seat in (2, 3, 4, 1)])  # left of the button (seat 1) first
    t.act("call", "call", "call", "check")  # seats 4, 1, 2; the big blind checks
    t.flop(board[:3])
    t.act("check", "check", "check", "check")
    t.turn(board[3])
    t.act("check", "check", "check", "check")
    t.river(board[4])
    t.act("check", "check", "check", "check")
    board = ["Kh", "8c", "5s", "3h", "Jd"]
    hands = {1: ["Kc", "Ks", "Tc", "Td"], 2: ["Ac", "2d", "Qc", "Qd"], 3: ["9c", "9d", "Th", "Ts"],
             4: ["7h", "6h", "Js", "Jh"]}
    t.fresh_deck()
    t.reserved = {card for cards in hands.values() for card in cards} | set(board)
    t.new_hand()
    t.deal([hands[seat][n] for n in range(4) for seat in (3, 4, 1, 2)])  # the button is seat 2's
    t.act("call", "call", "fold", "check")  # seats 1, 2; seat 3 folds its small blind; seat 4 checks
    t.flop(board[:3])
    t.act("check", "check", "check")
    t.turn(board[3])
    t.act("check", "check", "check")
    t.river(board[4])
    t.act("check", "check", "check")


HILO_SESSIONS: dict[str, tuple[str, dict[str, object], Callable[[Recorder], None]]] = {
    f"{game}_split_{profile.replace('-', '_')}": (profile, {"game": game, "denominations": CHIP_SET},
                                                   game_hilo_split)
    for game, profiles in (("omaha_hilo", ("robert", "upt", "rpl", "wfp", "wfp-dealer")),
                           ("limit_omaha_hilo", ("robert", "rpl")))
    for profile in profiles
}


def checkin_wrong_seat(t: Recorder) -> None:
    """Players checked in by card (docs/checkin.md): P5's card is read at seat 4, P4's seat, and P4 has not come:
    the deal is ruled (both seats' players not at their drawn seat); the floor seats them and the next deal is
    clean."""
    t.level(100, 200)
    t.stacks(s1=5000, s2=5000, s3=5000, s4=5000, s5=5000)
    t.draw(s1="P1", s2="P2", s3="P3", s4="P4", s5="P5")
    for seat in (1, 2, 3):
        t.check_in(f"P{seat}", seat, name=("Ann", "Bo", "Cy")[seat - 1])
    t.check_in("P5", 4, name="Eve")  # at the wrong seat
    t.new_hand()
    t.deal()
    while t.core.snapshot().to_act is not None:
        t.act("fold")
    t.press("hand_end")
    t.fresh_deck()
    t.check_in("P5", 5, name="Eve")  # the floor moves Eve to her seat
    t.check_in("P4", 4, name="Dan")  # and Dan arrives
    t.new_hand()
    t.deal()
    t.act("call", "call", "call", "call", "check")


def checkin_absent_robert(t: Recorder) -> None:
    """Robert's Misdeals 1(i), (j): seat 4's player is away and posted nothing (a misdeal); at the redeal seat 4's
    player is back and the big blind's player away, entitled by the blind posted (the hand plays)."""
    t.level(100, 200)
    t.stacks(s1=5000, s2=5000, s3=5000, s4=5000)
    t.draw(s1="P1", s2="P2", s3="P3", s4="P4")
    t.check_in("P1", 1)
    t.check_in("P2", 2)
    t.new_hand()
    t.deal()  # P3 (the big blind, posted) and P4 (posted nothing) away: a misdeal, before P3's is told
    t.press("hand_end")
    t.fresh_deck()
    t.check_in("P4", 4)
    t.new_hand()
    t.deal()
    t.act("call", "call", "call", "check")


GAME_SESSIONS: dict[str, tuple[str, dict[str, object], Callable[[Recorder], None]]] = {
    f"{game}_{kind}_{profile.replace('-', '_')}": (profile, {"game": game}, story)
    for game, stories in (("omaha", (("deal", game_deal), ("board", game_board), ("betting", game_pot_limit))),
                          ("omaha5", (("deal", game_deal),)),
                          ("limit_holdem", (("deal", game_deal), ("board", game_board),
                                            ("betting", game_fixed_limit))))
    for kind, story in stories
    for profile in ("robert", "upt", "rpl", "wfp", "wfp-dealer")
}

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
    "three_way_allin_robert": ("robert", {}, three_way_allin),
    # Chips of 25 and up (Ties: "An odd chip will be broken down to the smallest unit used in the game"):
    # 125 splits 75/50, not 63/62; 375 splits 200/175, not 188/187.
    "odd_chip_wfp": ("wfp", {"seats": (1, 2, 3), "denominations": CHIP_SET}, odd_chip),
    "split_side_pot_rpl": ("rpl", {"denominations": CHIP_SET}, split_side_pot),
    "raise_too_small_upt": ("upt", {}, raise_too_small_upt),
    "short_allin_not_reopened_wfp_dealer": ("wfp-dealer", {}, short_allin_not_reopened),
    "unknown_card_rpl": ("rpl", {}, unknown_card),
    "runout_late_read_upt": ("upt", {}, runout_late_read),
    "out_of_turn_bet_upt": ("upt", {}, out_of_turn_bet_upt),
    "out_of_turn_check_robert": ("robert", {}, out_of_turn_check_robert),
    "out_of_turn_fold_wfp_dealer": ("wfp-dealer", {}, out_of_turn_fold_wfp_dealer),
    "out_of_turn_call_rpl": ("rpl", {}, out_of_turn_call_rpl),
    "blind_fold_wfp_dealer": ("wfp-dealer", {}, blind_fold_wfp_dealer),
    "bb_ante_short_upt": ("upt", {}, bb_ante_short_upt),
    "chip_race_wfp": ("wfp", {}, chip_race_wfp),
    "chips_in_play_upt": ("upt", {"denominations": CHIP_SET}, chips_in_play_upt),
    "clocks_and_folds_wfp_dealer": ("wfp-dealer", {}, clocks_and_folds_wfp_dealer),
    "clocks_and_folds_robert": ("robert", {}, clocks_and_folds_robert),
    "folds_rpl": ("rpl", {}, folds_rpl),
    "jackpot_bad_beat_wfp": ("wfp", {}, jackpot_bad_beat_wfp),
    "checkin_wrong_seat_wfp": ("wfp", {"seats": (1, 2, 3, 4, 5)}, checkin_wrong_seat),
    "checkin_wrong_seat_rpl": ("rpl", {"seats": (1, 2, 3, 4, 5)}, checkin_wrong_seat),
    "checkin_absent_robert": ("robert", {}, checkin_absent_robert),
    **GAME_SESSIONS,
    **HILO_SESSIONS,
}


def record(name: str) -> tuple[str, str, list[str]]:
    """One session dealt again: its event lines, its expected ruling lines, and the ruling kinds."""
    profile, kw, story = SESSIONS[name]
    table = Recorder(profile, **kw)
    story(table)
    events = "".join(json.dumps(e) + "\n" for e in table.events)
    expected = "".join(json.dumps(r.to_json()) + "\n" for r in table.rulings)
    return events, expected, [r.ruling.value for r in table.rulings]


def differs(name: str, directory: Path = HERE) -> bool:
    """Whether the session's files differ from what its story deals now."""
    events, expected, _ = record(name)
    files = (directory / f"{name}.jsonl", directory / f"{name}.expected.jsonl")
    return [f.read_text() if f.exists() else None for f in files] != [events, expected]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make_sessions.py", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="the sessions to rewrite, e.g. burns_rpl")
    parser.add_argument("--all", action="store_true", help="rewrite every session")
    parser.add_argument("--check", action="store_true", help="write nothing; list the sessions that would change "
                        "(exit status 1 if any)")
    parser.add_argument("--list", action="store_true", help="list the sessions' names")
    parser.add_argument("--dir", type=Path, default=HERE, help="where the session files are (default: beside this)")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(SESSIONS))
        return 0
    for name in args.names:
        if name not in SESSIONS:
            parser.error(f"no session {name!r}{did_you_mean(name, SESSIONS)}; --list names them")
    if args.check:
        changed = [name for name in (args.names or SESSIONS) if differs(name, args.dir)]
        print("\n".join(f"{name}: would change" for name in changed) or "every session is as its story deals it")
        return 1 if changed else 0
    if not args.names and not args.all:
        parser.error("name the sessions to rewrite (--list names them), or --all")
    for name in SESSIONS if args.all else args.names:
        events, expected, kinds = record(name)
        (args.dir / f"{name}.jsonl").write_text(events)
        (args.dir / f"{name}.expected.jsonl").write_text(expected)
        print(name, kinds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
