"""The PHH export writes each hand exactly as the table played it, or leaves it out with the reason.

pokerkit reads every exported hand back from the file text, plays it to its end and must pay exactly
the seats the table ruled the winners (the check in `firmware_py.simulation.export_check`)."""

from __future__ import annotations

import warnings

import pytest
from pokerkit import HandHistory

from firmware_py.core import Button, ButtonName, Event, Read, Setup
from firmware_py.daemon.export import NotExportable, hand_history, hand_records
from firmware_py.profiles import load_profiles
from firmware_py.simulation.export_check import check_events, run, session_events
from firmware_py.simulation.harness import PROFILES
from tests.rules.table_driver import BLUE, RED

UID = {card: uid for uid, card in RED.cards.items()}


class Hand:
    """Three seats (1, 2, 3), button 1: seat 2 posts the small blind, seat 3 the big blind."""

    def __init__(self) -> None:
        self.t = 0.0
        self.events: list[Event] = [Setup(t=0.0, profile="robert", seats=(1, 2, 3), button=1, decks=(RED, BLUE),
                                          in_play=RED.name)]
        self.press("new_hand")
        for card in ("Ah", "2c", "Kd", "As", "7d", "Kc"):  # seats 2, 3, 1, 2, 3, 1
            self.shoe(card)

    def tick(self) -> float:
        self.t = round(self.t + 0.5, 3)
        return self.t

    def shoe(self, card: str) -> None:
        self.events.append(Read(t=self.tick(), antenna="shoe", uid=UID[card]))

    def press(self, name: str, seat: int | None = None) -> None:
        self.events.append(Button(t=self.tick(), name=ButtonName(name), seat=seat))

    def street(self, burn: str, *cards: str, first: int) -> None:
        self.shoe(burn)
        for card in cards:
            self.shoe(card)
        for position, card in enumerate(cards, start=first):
            self.events.append(Read(t=self.tick(), antenna=f"board{position}", uid=UID[card]))


def only_hand(events: list[Event]):
    records = hand_records(events, load_profiles())
    assert len(records) == 1
    return records[0]


def test_big_blind_folding_with_nothing_to_call_is_exported_as_a_fold():
    """The issue's hand: the big blind folds though it could check. pokerkit (cash-game mode, as it
    reads PHH) takes the fold; the old exporter checked instead and then paid the wrong seat."""
    hand = Hand()
    hand.press("call", 1)
    hand.press("call", 2)
    hand.press("fold", 3)  # nothing to call: a legal (if odd) fold at the table
    hand.street("3h", "9c", "5s", "Jd", first=1)
    hand.press("check", 2)
    hand.press("bet", 1)
    hand.press("fold", 2)
    hand.press("hand_end")
    history = hand_history(only_hand(hand.events))
    # pokerkit's order: seat 2 (small blind) p1, seat 3 (big blind) p2, seat 1 (button) p3
    assert history.actions[3:6] == ["p3 cc", "p1 cc", "p2 f"]
    assert history.actions[6:] == ["d db 9c5sJd", "p1 cc", "p3 cbr 2", "p1 f"]  # the minimum bet: one big blind
    text = history.dumps()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(HandHistory.loads(text))[-1]
    assert final.payoffs[2] > 0 and final.payoffs[0] < 0 and final.payoffs[1] < 0  # seat 1 takes the pot
    assert history.user_defined_fields["_winners"] == [1]


def test_an_action_out_of_turn_is_exported_where_the_table_took_it():
    """Robert's Betting and Raising 10: seat 2's call out of turn is held; seat 1's fold changes
    nothing, so the call is taken at seat 2's turn, and the history has it there, in pokerkit's turn."""
    hand = Hand()
    hand.press("call", 2)  # seat 1 (the button) is first to act three-handed
    hand.press("fold", 1)
    hand.press("check", 3)
    hand.street("3h", "9c", "5s", "Jd", first=1)
    hand.press("bet")  # seat 2
    hand.press("fold")  # seat 3
    hand.press("hand_end")
    history = hand_history(only_hand(hand.events))
    assert history.actions[3:6] == ["p3 f", "p1 cc", "p2 cc"]
    assert history.user_defined_fields["_winners"] == [2]


def test_a_check_facing_a_bet_is_refused_not_turned_into_a_call():
    hand = Hand()
    hand.press("raise", 1)
    hand.press("check", 2)
    hand.press("fold", 3)
    hand.press("hand_end")
    with pytest.raises(NotExportable, match="seat 2 checked on the preflop facing a bet"):
        hand_history(only_hand(hand.events))


def test_a_hand_without_a_ruled_winner_is_refused():
    hand = Hand()
    hand.press("call", 1)
    hand.press("hand_end")  # the dealer ends the hand mid-round: nobody was given the pot
    with pytest.raises(NotExportable):
        hand_history(only_hand(hand.events))


@pytest.mark.parametrize("profile", PROFILES)
def test_exported_hands_replay_in_pokerkit_and_pay_the_table_winners(profile):
    """The quick version of `python -m firmware_py.simulation.export_check` (README: 1,000 hands)."""
    profiles = load_profiles()
    result = check_events(session_events(profile, (1, 2, 3, 4, 5, 6), 24, seed=7, error_rate=0.4,
                                         profiles=profiles), profiles)
    assert result.mismatches == []
    assert result.exported >= 12 and result.replayed_right == result.exported
    assert result.hands == result.not_played + result.exported + sum(result.refused.values())


def test_the_check_counts_every_table_size():
    result = run(4, profile_names=("wfp",))
    assert result.hands == 4 and not result.mismatches


def test_a_hand_with_a_card_the_table_could_not_read_is_refused():
    hand = Hand()
    hand.events.insert(3, Read(t=0.7, antenna="shoe", uid="04AA55AA55AA01"))  # seat 3 gets an unknown card first
    hand.events.pop()  # the deal counts the unknown card: seven known cards complete it
    hand.press("call", 1)
    hand.press("call", 2)
    hand.press("check", 3)
    hand.press("hand_end")
    with pytest.raises(NotExportable, match="could not read"):
        hand_history(only_hand(hand.events))


def test_a_hand_the_journal_ends_during_is_refused_as_unfinished_not_blamed_on_a_betting_round():
    hand = Hand()
    hand.press("call", 1)
    hand.press("call", 2)  # the journal ends here: the big blind has not acted, no hand_end
    record = only_hand(hand.events)
    with pytest.raises(NotExportable, match=r"^the hand did not finish: the journal ends during it$"):
        hand_history(record)


def test_the_players_are_the_configured_seat_names_and_pokerkit_reads_them_back():
    hand = Hand()
    hand.press("call", 1)
    hand.press("call", 2)
    hand.press("check", 3)
    hand.street("3h", "9c", "5s", "Jd", first=1)
    hand.press("bet", 2)
    hand.press("fold", 3)
    hand.press("fold", 1)
    hand.press("hand_end")
    history = hand_history(only_hand(hand.events), table="t07", names={1: "Ada", 2: "Bruno Ñúñez"})
    assert history.players == ["Bruno Ñúñez", "Seat 3", "Ada"]  # pokerkit's order: small blind, big blind, button
    back = HandHistory.loads(history.dumps())
    assert back.players == ["Bruno Ñúñez", "Seat 3", "Ada"] and back.table == "t07"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert not list(back)[-1].status
