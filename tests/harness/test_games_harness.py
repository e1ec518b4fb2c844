"""The reliability harness for each other game (core/game.py), at CI size: PLO with four and five hole cards and
fixed-limit hold'em dealt by the seeded bot, under sensing noise, with amounts, in every profile; a seed the
hold'em harness does not use. No clean hand may draw a ruling; every dealer error draws its rulebook's."""

from __future__ import annotations

import pytest

from firmware_py.simulation import harness

CLEAN_HANDS = 60
ERROR_HANDS = 30


@pytest.mark.parametrize("game", ["omaha", "omaha5", "limit_holdem"])
def test_each_game_is_ruled_right_under_noise_in_every_profile(game: str) -> None:
    scores = harness.run(clean=CLEAN_HANDS, errors=ERROR_HANDS, seed=21, stack=10000, game=game)
    for score in scores:
        failures = [f.to_json() for f in score.failures]
        assert (score.clean_hands, score.error_hands) == (CLEAN_HANDS, ERROR_HANDS), score.profile
        assert score.false_rulings == 0 and score.crashes == 0, (score.profile, failures)
        assert score.ruled_right == score.error_hands, (score.profile, failures)
        assert sum(score.noise.values()) > 0
