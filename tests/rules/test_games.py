"""The games as data (core/game.py): Pot-Limit Omaha with four and five hole cards and fixed-limit hold'em,
dealt, bet and shown down by the same rules core as hold'em, with the books' rules cited."""

from __future__ import annotations

import pytest

from firmware_py.core import RuleKey, RulingKind, Setup
from firmware_py.core.engine import TableCore
from firmware_py.core.evaluator import omaha_strength, strength
from firmware_py.core.game import GAMES, HIGH_TWO_FROM_HAND, Game, Structure
from firmware_py.core.vocab import Cause
from firmware_py.profiles import load_profiles
from tests.rules.table_driver import ALL_PROFILES, RED, Table, kinds, only

PLO_GAMES = ("omaha", "omaha5")


def test_the_registry_holds_each_game_once_with_its_structure() -> None:
    assert {name: (g.hole_cards, g.betting, tuple(kind.name for kind in g.hands)) for name, g in GAMES.items()} == {
        "holdem": (2, Structure.NO_LIMIT, ("high",)),
        "omaha": (4, Structure.POT_LIMIT, ("omaha_high",)),
        "omaha5": (5, Structure.POT_LIMIT, ("omaha_high",)),
        "limit_holdem": (2, Structure.FIXED_LIMIT, ("high",)),
        "omaha_hilo": (4, Structure.POT_LIMIT, ("omaha_high", "low8")),
        "limit_omaha_hilo": (4, Structure.FIXED_LIMIT, ("omaha_high", "low8")),
    }
    assert all(g.hand_rule is g.hands[0].rule for g in GAMES.values())


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_every_profile_deals_every_game(profile: str) -> None:
    assert set(load_profiles()[profile].games) == set(GAMES)


def test_a_setup_naming_a_game_the_profile_does_not_deal_is_refused() -> None:
    profiles = load_profiles()
    from dataclasses import replace  # noqa: PLC0415
    holdem_only = {**profiles, "robert": replace(profiles["robert"], games=("holdem",))}
    core = TableCore(holdem_only)
    with pytest.raises(ValueError, match="'omaha' is not one the robert profile deals: its games are holdem"):
        core.feed(Setup(t=0.0, profile="robert", seats=(1, 2), button=1, decks=(RED,), in_play="test-red",
                        game="omaha"))


@pytest.mark.parametrize("game", PLO_GAMES)
@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_plo_deals_the_games_hole_cards_then_opens_the_betting(profile: str, game: str) -> None:
    t = Table(profile, game=game)
    t.new_hand()
    t.deal(count=4 * GAMES[game].hole_cards - 1)
    assert t.core.snapshot().phase == "dealing"
    t.deal(count=1)
    snap = t.core.snapshot()
    assert snap.phase == "betting" and snap.game == game
    assert all(len(seat.cards) == GAMES[game].hole_cards for seat in snap.seats)


@pytest.mark.parametrize("game", PLO_GAMES)
@pytest.mark.parametrize("profile", ("robert", "upt", "wfp", "wfp-dealer"))
def test_misdeals_1a_first_card_exposed_is_a_misdeal_in_plo(profile: str, game: str) -> None:
    t = Table(profile, game=game)
    t.new_hand()
    t.deal(count=1)
    assert kinds(t.press("exposed")) == [RulingKind.MISDEAL]


@pytest.mark.parametrize("game", PLO_GAMES)
@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_an_exposed_card_later_in_the_plo_deal_is_replaced_and_the_hand_keeps_its_count(profile: str,
                                                                                        game: str) -> None:
    t = Table(profile, game=game)
    t.new_hand()
    t.deal(count=6)
    assert kinds(t.press("exposed")) == [RulingKind.EXPOSED_CARD]
    t.deal(count=4 * GAMES[game].hole_cards - 6)
    t.shoe()  # the replacement for the exposed card
    assert all(len(seat.cards) == GAMES[game].hole_cards for seat in t.core.snapshot().seats)


@pytest.mark.parametrize("game", PLO_GAMES)
@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_short_card_in_plo_counts_the_games_cards(profile: str, game: str) -> None:
    """Misdeals 1(e): the button short one card is dealt it in proper sequence; more short is a misdeal."""
    t = Table(profile, game=game)
    t.new_hand()
    t.deal(count=4 * GAMES[game].hole_cards - 1)
    assert kinds(t.press("call")) == [RulingKind.SHORT_CARD]
    t2 = Table(profile, game=game)
    t2.new_hand()
    t2.deal(count=4 * GAMES[game].hole_cards - 4)
    assert kinds(t2.press("call")) == [RulingKind.MISDEAL]


def _plo_hand(profile: str = "robert", game: str = "omaha") -> Table:
    t = Table(profile, game=game)
    t.level(50, 100)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=10000)
    t.new_hand()
    t.deal()
    return t


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_pot_limit_a_raise_over_the_pot_is_refused_citing_the_rule(profile: str) -> None:
    """UPT Section 14 (Robert's pot-limit rule): a bet may not exceed the pot; the dealer enforces the cap."""
    t = _plo_hand(profile)
    assert t.core.snapshot().chips.max_raise_to == 350  # 150 in the pot, 100 to call: 100 + 250
    ruling = only(t.bet("raise", 400))  # seat 4, first to act
    assert ruling.ruling is RulingKind.BET_TOO_LARGE and ruling.cause is Cause.OVER_POT_LIMIT
    assert ruling.rule == load_profiles()[profile].rule(RuleKey.POT_LIMIT).cite
    assert "350" in ruling.remedy
    snap = t.core.snapshot()
    assert snap.to_act == 4 and snap.chips.pot == 150  # not taken: seat 4 acts again
    assert t.bet("raise", 350) == []
    assert t.core.snapshot().chips.max_raise_to == 1200  # seat 1: 350 to call, then the pot of 850 after it


def test_pot_limit_all_in_over_the_pot_is_refused_and_within_it_is_taken() -> None:
    t = _plo_hand()
    assert kinds(t.bet("allin")) == [RulingKind.BET_TOO_LARGE]
    t2 = Table("robert", game="omaha")
    t2.level(50, 100)
    t2.stacks(s1=10000, s2=10000, s3=10000, s4=300)
    t2.new_hand()
    t2.deal()
    assert t2.bet("allin") == []  # 300: under the pot-sized raise to 350
    assert t2.core.snapshot().seat(4).state == "allin"


def test_omaha_showdown_uses_exactly_two_hole_cards() -> None:
    """Four hearts on the board and one in the hand is no flush in Omaha: the showdown reads it so."""
    t = Table("robert", seats=(1, 2), game="omaha")
    t.reserved = {"Ah", "Kh", "Qh", "2h", "3c"}
    t.new_hand()
    # heads-up the button (seat 1) is the small blind; the deal starts with seat 2
    t.deal(["Jh", "Ts", "9s", "9c", "8s", "8d", "7c", "7d"])  # seat 2: Jh 9s 8s 7c; seat 1: Ts 9c 8d 7d
    t.act("call", "check")
    t.flop(["Ah", "Kh", "Qh"])
    t.act("check", "check")
    t.turn("2h")
    t.act("check", "check")
    rulings = t.river("3c") + t.act("check", "check")
    showdown = next(r for r in rulings if r.ruling is RulingKind.SHOWDOWN)
    # hold'em reading would give seat 2 a flush (Jh with four hearts); Omaha gives both a high card,
    # and seat 2's (A K Q J 9 with its jack) beats seat 1's (A K Q T 9)
    assert strength(["Jh", "9s", "Ah", "Kh", "Qh", "2h", "3c"]) < omaha_strength(["Jh", "9s", "8s", "7c"],
                                                                                 ["Ah", "Kh", "Qh", "2h", "3c"])
    assert showdown.winners == (2,) and showdown.hand == "high card, ace"


def _limit_hand(profile: str, seats: tuple[int, ...] = (1, 2, 3, 4)) -> Table:
    t = Table(profile, seats=seats, game="limit_holdem")
    t.level(50, 100)
    t.stacks(**{f"s{s}": 10000 for s in seats})
    t.new_hand()
    t.deal()
    return t


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_fixed_limit_bets_are_the_small_bet_then_the_big_bet(profile: str) -> None:
    t = _limit_hand(profile)
    t.bet("raise")  # seat 4: to 200
    assert t.core.snapshot().chips.min_raise_to == t.core.snapshot().chips.max_raise_to == 300
    t.act("call", "call", "call")
    t.flop()
    t.bet("bet", 500)  # keyed wrong: the small bet is taken
    assert t.core.snapshot().seat(2).bet == 100 and any("fixed limit" in n for n in t.notices)
    t.act("call", "call", "call")
    t.turn()
    t.bet("bet")
    assert t.core.snapshot().seat(2).bet == 200  # the big bet from the turn


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_betting_and_raising_3a_a_bet_and_three_raises_multiway(profile: str) -> None:
    t = _limit_hand(profile)
    t.act("raise", "raise", "raise")  # seats 4, 1, 2: with the big blind's bet, a bet and three raises
    assert t.core.snapshot().chips.min_raise_to is not None
    ruling = only(t.bet("raise"))  # seat 3: capped
    assert ruling.ruling is RulingKind.RAISE_NOT_ALLOWED and ruling.cause is Cause.RAISES_CAPPED
    assert "a bet and 3 raises" in ruling.remedy
    assert t.core.snapshot().to_act == 3 and t.core.snapshot().seat(3).bet == 100


@pytest.mark.parametrize(("profile", "capped"), [("robert", False), ("rpl", False), ("wfp", False),
                                                 ("wfp-dealer", False), ("upt", True)])
def test_heads_up_raising_is_unlimited_except_where_the_house_caps_it(profile: str, capped: bool) -> None:
    """Robert's Betting and Raising 4 (and RPL 3): unlimited heads-up; UPT Tournaments 23: capped heads-up too."""
    t = _limit_hand(profile, seats=(1, 2))
    rulings = t.act("raise", "raise", "raise", "raise")
    assert kinds(rulings) == ([RulingKind.RAISE_NOT_ALLOWED] if capped else [])


# UPT and WFP have no limit all-in rule of their own: they inherit Robert's, and the ruling says whose it is.
LIMIT_ALLIN = {"robert": "robert: Betting and Raising 6", "upt": "robert: Betting and Raising 6",
               "wfp": "robert: Betting and Raising 6", "wfp-dealer": "robert: Betting and Raising 6",
               "rpl": "rpl: Betting and Raising 4"}


def _limit_flop(profile: str, short: int) -> Table:
    """Fixed limit 50/100, seats 1-4 (button 1): everyone calls pre-flop; on the flop seat 2 bets 100, seat 3
    calls and seat 4 goes all in with `short` more than the bet; seat 1 is to act."""
    t = Table(profile, seats=(1, 2, 3, 4), game="limit_holdem")
    t.level(50, 100)
    t.stacks(s1=10000, s2=10000, s3=10000, s4=200 + short)
    t.new_hand()
    t.deal()
    t.act("call", "call", "call", "check")
    t.flop()
    t.bet("bet")
    t.act("call", "allin")
    assert t.core.snapshot().seat(4).bet == 100 + short and t.core.snapshot().to_act == 1
    return t


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_robert_betting_and_raising_6_an_allin_of_half_a_bet_or_more_is_a_full_bet(profile: str) -> None:
    """Robert's: "An all-in wager of a half a bet or more is treated as a full bet, and a player may fold, call,
    or make a full raise. (An example of a full raise on a $20 betting round is raising a $15 all-in bet to $35.)" (RPL
    Betting and Raising 4 has the same words.) It reopens the betting for those who had acted."""
    t = _limit_flop(profile, short=50)  # all in to 150 over a bet of 100: half a bet more
    assert t.core.snapshot().chips.min_raise_to == 250  # a full raise: a bet more than the all-in
    assert t.bet("call") == [] and t.core.snapshot().seat(1).bet == 150
    snapshot = t.core.snapshot()
    assert snapshot.to_act == 2 and snapshot.chips.may_raise  # seat 2 bet before, and may raise again: reopened
    assert t.bet("raise") == [] and t.core.snapshot().seat(2).bet == 250


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_robert_betting_and_raising_6_an_allin_of_less_than_half_a_bet_reopens_nothing(profile: str) -> None:
    """Robert's: "An all-in wager of less than half a bet does not reopen the betting for any player who has
    already acted ... A player who has not yet acted ... may fold, call, or complete the wager"."""
    t = _limit_flop(profile, short=20)  # all in to 120: less than half a bet more
    assert t.core.snapshot().chips.min_raise_to == 200  # seat 1 has not acted: it may complete the bet
    assert t.bet("call") == [] and t.core.snapshot().seat(1).bet == 120
    snapshot = t.core.snapshot()
    assert snapshot.to_act == 2 and not snapshot.chips.may_raise  # seat 2 bet, and faces only the short all-in
    ruling = only(t.bet("raise"))
    assert (ruling.ruling, ruling.cause, ruling.seat) == (RulingKind.RAISE_NOT_ALLOWED, Cause.NOT_REOPENED, 2)
    assert ruling.rule == LIMIT_ALLIN[profile] and "less than half a bet" in ruling.remedy
    assert t.core.snapshot().seat(2).bet == 100 and t.bet("call") == [] and t.core.snapshot().seat(2).bet == 120


@pytest.mark.parametrize("profile", ALL_PROFILES)
def test_robert_betting_and_raising_6_a_completed_short_allin_is_raised_a_full_bet_more(profile: str) -> None:
    t = _limit_flop(profile, short=20)
    assert t.bet("raise") == [] and t.core.snapshot().seat(1).bet == 200  # seat 1 completes the bet ...
    assert t.core.snapshot().chips.min_raise_to == 300  # ... which is a full raise: seat 2 may raise again
    assert t.bet("raise") == [] and t.core.snapshot().seat(2).bet == 300


@pytest.mark.parametrize("game", [
    # Fixed-limit Omaha: a structure and a hand rule the registry already has, combined anew.
    Game(name="limit_omaha", title="Fixed-Limit Omaha", short="FLO", hole_cards=4, betting=Structure.FIXED_LIMIT,
         hands=(HIGH_TWO_FROM_HAND,), limit_bets=(1, 1, 2, 2)),
    # Six-card Omaha: more hole cards, the same rules.
    Game(name="omaha6", title="Six-Card Pot-Limit Omaha", short="PLO6", hole_cards=6, betting=Structure.POT_LIMIT,
         hands=(HIGH_TWO_FROM_HAND,)),
])
def test_a_new_game_is_one_record_and_a_profile_naming_it(monkeypatch: pytest.MonkeyPatch,
                                                          game: Game) -> None:
    """Issue 21: adding a game touches only core/game.py, the profiles and tests. Here the record is added to
    the registry and a profile names it; nothing else changes, and a hand is dealt, bet and shown down."""
    from dataclasses import replace  # noqa: PLC0415

    monkeypatch.setitem(GAMES, game.name, game)
    profiles = load_profiles()
    profiles = {**profiles, "robert": replace(profiles["robert"], games=(*profiles["robert"].games, game.name))}
    t = Table("robert", seats=(1, 2, 3), game=game.name, profiles=profiles)  # type: ignore[arg-type]
    t.reserved = {"As", "Kd", "7c", "4h", "2s"}
    t.level(50, 100)
    t.stacks(s1=5000, s2=5000, s3=5000)
    t.new_hand()
    t.deal()
    assert all(len(seat.cards) == game.hole_cards for seat in t.core.snapshot().seats)
    t.act("call", "call", "check")
    t.flop(["As", "Kd", "7c"])
    t.bet("bet")
    max_bet = t.core.snapshot().chips.max_raise_to
    assert max_bet == (200 if game.betting is Structure.FIXED_LIMIT else 600)  # the next raise: fixed, or the pot
    t.act("call", "call")
    t.turn("4h")
    t.act("check", "check", "check")
    rulings = t.river("2s") + t.act("check", "check", "check")
    showdown = next(r for r in rulings if r.ruling is RulingKind.SHOWDOWN)
    hands = {v.seat: list(v.cards) for v in t.core.snapshot().seats}
    board = ["As", "Kd", "7c", "4h", "2s"]
    best = min(omaha_strength(cards, board) for cards in hands.values())
    assert showdown.winners == tuple(s for s, cards in sorted(hands.items()) if omaha_strength(cards, board) == best)


def test_a_session_naming_an_unknown_game_is_refused_with_a_suggestion() -> None:
    from firmware_py.session import SessionReader  # noqa: PLC0415
    from tests.rules.table_driver import ROOT  # noqa: PLC0415

    reader = SessionReader(base_dir=ROOT / "config" / "decks")
    line = {"t": 0, "kind": "setup", "profile": "robert", "seats": [1, 2], "button": 1,
            "decks": ["test-red.json"], "in_play": "test-red"}
    assert reader.parse_object(line).game == "holdem"  # type: ignore[union-attr]
    assert reader.parse_object({**line, "game": "omaha"}).game == "omaha"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match=r"'game' is 'omah', not a game the table deals \(did you mean 'omaha'\?\)"):
        reader.parse_object({**line, "game": "omah"})
