"""The reliability harness at CI size: the dealer and noise models against the real rules core, by profile.

The full size (10,000 clean and 1,000 error hands per profile) runs from `bench/`.
"""

from __future__ import annotations

import random

import pytest

from firmware_py.profiles import load_profiles
from firmware_py.session import load_deck
from firmware_py.simulation import harness
from firmware_py.simulation.dealer import DealerBot
from firmware_py.simulation.noise import NoiseKind, NoiseModel

PROFILES = harness.PROFILES
CLEAN_HANDS = 200
ERROR_HANDS = 50
QUIET = NoiseModel(rates=dict.fromkeys(NoiseKind, 0.0))


@pytest.fixture(scope="module")
def noisy_scores() -> dict[str, harness.ProfileScore]:
    return {s.profile: s for s in harness.run(clean=CLEAN_HANDS, errors=ERROR_HANDS, seed=1)}


@pytest.mark.parametrize("profile", PROFILES)
def test_clean_hands_draw_no_false_ruling_under_sensing_noise(noisy_scores, profile: str) -> None:
    score = noisy_scores[profile]
    assert score.clean_hands == CLEAN_HANDS
    assert sum(score.noise.values()) > 0
    assert score.false_rulings == 0, [f.to_json() for f in score.failures if f.error is None]
    assert score.crashes == 0


@pytest.mark.parametrize("profile", PROFILES)
def test_every_dealer_error_draws_the_ruling_its_rulebook_gives(profile: str) -> None:
    score = harness.play_profile(profile, clean=0, errors=ERROR_HANDS * 2, seed=2, noise=QUIET)
    assert score.error_hands == ERROR_HANDS * 2
    assert score.ruled_right == score.error_hands, [f.to_json() for f in score.failures]
    assert len(score.by_error) >= 8  # (nearly) every kind of error was made


@pytest.mark.parametrize("profile", PROFILES)
def test_dealer_errors_are_ruled_right_under_sensing_noise(noisy_scores, profile: str) -> None:
    score = noisy_scores[profile]
    assert score.crashes == 0
    assert score.ruled_right == score.error_hands, [f.to_json() for f in score.failures]


def test_the_harness_is_reproducible_from_its_seed() -> None:
    first = harness.play_profile("robert", clean=30, errors=10, seed=5)
    second = harness.play_profile("robert", clean=30, errors=10, seed=5)
    assert first.to_json() == second.to_json()


def test_noise_is_reproducible_and_keeps_time_monotonic() -> None:
    bot = DealerBot(rng=random.Random(4), deck=load_deck(harness.DECKS / "test-red.json"),
                    profile=load_profiles()["wfp"], seats=(1, 2, 3, 4, 5, 6), button=1)
    hand = bot.hand(t=1.0)
    loud = NoiseModel(rates=dict.fromkeys(NoiseKind, 1.0))
    a = loud.apply(hand.events, rng=random.Random(9))
    b = loud.apply(hand.events, rng=random.Random(9))
    assert a == b
    times = [e.t for e in a.events]
    assert times == sorted(times)
    assert set(a.injected) == set(NoiseKind)
    assert len(a.marks) == len(a.events)
    assert times[-1] == hand.events[-1].t  # noise never spills past the hand's end
