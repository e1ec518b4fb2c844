"""Issue 39 item 4: deals. ICM (Malmuth-Harville) equals the published worked examples and an independent
brute-force computation over every finishing order; chip-chop and custom splits; the shares add up to the money split
(rounded to the house's unit, the rest to the biggest stack); the director records a deal only with every player
left agreeing, pays the places by it, and resumes it from its journal."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from firmware_py.tournament.deals import chip_chop, icm, make_deal


def brute_force_icm(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Every finishing order's Harville probability (the product, place by place, of the stack over the chips of
    those not yet placed), times the prize each player's place pays: written from the model, not from `icm`."""
    n = len(stacks)
    equity = [Fraction(0)] * n
    for order in itertools.permutations(range(n)):
        chance = Fraction(1)
        left = sum(stacks)
        for who in order:
            chance *= Fraction(stacks[who], left)
            left -= stacks[who]
        for place, who in enumerate(order):
            equity[who] += chance * (prizes[place] if place < len(prizes) else 0)
    return equity


def test_icm_equals_wikipedias_worked_example() -> None:
    """en.wikipedia.org "Independent Chip Model", Model: A, B, C hold 50%, 30%, 20% of the chips, first pays 70 and
    second 30: ICM(A) ~ 45, ICM(B) ~ 32, ICM(C) ~ 22 (the article's working: P[A=1,B=2,C=3] = 0.5 x 0.3/0.5 ...)."""
    a, b, c = icm([50, 30, 20], [70, 30])
    assert (round(float(a)), round(float(b)), int(float(c))) == (45, 32, 22)
    assert (a, b, c) == (Fraction(1265, 28), Fraction(129, 4), Fraction(158, 7))  # exact: 45.18, 32.25, 22.57


def test_icm_equals_a_published_calculators_figures() -> None:
    """pailiku.com "ICM Calculator (Independent Chip Model)", its worked table: stacks 5000, 3000, 2000 for a
    50/30/20 payout: 38.39, 32.75, 28.86."""
    assert [round(float(x), 2) for x in icm([5000, 3000, 2000], [50, 30, 20])] == [38.39, 32.75, 28.86]


def test_icm_equals_the_brute_force_over_every_finishing_order() -> None:
    rng = random.Random(39)
    for n in range(2, 7):
        for _ in range(5):
            stacks = [rng.randint(1, 50_000) for _ in range(n)]
            prizes = sorted((rng.randint(0, 10_000) for _ in range(rng.randint(1, n))), reverse=True)
            assert icm(stacks, prizes) == brute_force_icm(stacks, prizes)
            assert sum(icm(stacks, prizes)) == sum(prizes[:n])


def test_equal_stacks_share_equally_and_chip_chop_keeps_the_smallest_prize_for_each() -> None:
    assert icm([100, 100, 100], [50, 30, 20]) == [Fraction(100, 3)] * 3
    assert chip_chop([6000, 3000, 1000], [5000, 3000, 2000]) == [2000 + 2400, 2000 + 1200, 2000 + 400]


def test_a_deal_shares_the_money_less_what_is_played_for_rounded_to_the_unit() -> None:
    deal = make_deal("icm", players=["a", "b", "c"], stacks=[60_000, 30_000, 10_000], prizes=[5000, 3000, 2000],
                     play_for=500, unit=25)
    assert sum(deal.shares) == 10_000 - 500 and all(s % 25 == 0 for s in deal.shares[1:])
    assert deal.shares[0] > deal.shares[1] > deal.shares[2] > 2000 - 25
    custom = make_deal("custom", players=["a", "b"], stacks=[10, 5], prizes=[700, 300], custom={"a": 600, "b": 400})
    assert custom.shares == (600, 400)
    with pytest.raises(ValueError, match="the amounts add up to 900; the money split is 1,000"):
        make_deal("custom", players=["a", "b"], stacks=[10, 5], prizes=[700, 300], custom={"a": 600, "b": 300})
    with pytest.raises(ValueError, match="at most what first place pays more than second"):
        make_deal("icm", players=["a", "b"], stacks=[10, 5], prizes=[700, 300], play_for=500)
    with pytest.raises(ValueError, match="one of icm, chip-chop, custom"):
        make_deal("even", players=["a", "b"], stacks=[10, 5], prizes=[700, 300])


def test_the_director_records_a_deal_only_when_every_player_left_agrees_and_pays_the_places_by_it() -> None:
    from firmware_py.room.director import Director  # noqa: PLC0415
    from tests.tournament.test_money import _director  # noqa: PLC0415
    from tests.tournament.test_registration import Hands  # noqa: PLC0415

    d = _director()
    assert isinstance(d, Director)
    hands = Hands(d)
    while len(d.tournament.in_play()) > 3:
        table = max(d.tournament.tables.values(), key=lambda t: len(t.seats))
        hands.seq.setdefault(table.id, d.acked.get(table.id, 0))
        chips = d.tournament.players
        hands.play(table.id, losers=[min(table.seats, key=lambda s: chips[table.seats[s]].chips)])
    left = sorted(d.tournament.in_play(), key=lambda p: (-p.chips, p.id))
    with pytest.raises(ValueError, match=f"every player left to agree: not {left[2].name}"):
        d.make_deal("chip-chop", agreed=[left[0].id, left[1].id])
    payouts = list(d.payouts)  # 10 entries: 65/35 of 2,000; third place pays nothing
    deal = d.make_deal("chip-chop", agreed=[p.id for p in left])
    assert [s.player for s in deal.shares] == [p.id for p in left]
    assert sum(s.share for s in deal.shares) == sum(payouts[:3])
    assert any(x.kind == "deal" and x.text.startswith("Deal (chip-chop) agreed by all 3 players left") for x in
               d.state().decisions)
    with pytest.raises(ValueError, match="a deal has been made already"):
        d.make_deal("icm", agreed=[p.id for p in left])
    # the places are played out; each dealt player is paid its share whatever its place
    while len(d.tournament.in_play()) > 1:
        table = next(t for t in d.tournament.tables.values() if len(t.seats) > 1)
        hands.seq.setdefault(table.id, d.acked.get(table.id, 0))
        chips = d.tournament.players
        hands.play(table.id, losers=[min(table.seats, key=lambda s: chips[table.seats[s]].chips)])
    prize = {p.player: p.prize for p in d.state().places}
    assert [prize[s.player] for s in deal.shares] == [s.share for s in deal.shares]
    assert sum(prize.values()) == d.pool
