"""Win-rate intervals and OpenSkill ratings (civtable.sim.ratings)."""

from __future__ import annotations

import pytest

from civtable.sim.ratings import rate_games, wilson_interval


@pytest.mark.parametrize(
    ("wins", "n", "lo", "hi"),
    [
        # reference values of the 95 % Wilson score interval (Newcombe 1998, table I)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_reference_values(wins: int, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(wins, n)
    assert got[0] == pytest.approx(lo, abs=1e-4)
    assert got[1] == pytest.approx(hi, abs=1e-4)


def test_wilson_interval_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(2.5, 10)  # shared victories give fractional wins
    assert lo < 0.25 < hi
    with pytest.raises(ValueError, match="not within"):
        wilson_interval(11, 10)


def test_a_bot_that_always_wins_rates_highest_and_sigma_shrinks() -> None:
    games = [(("a", "b", "c"), (0, 1, 2)), (("c", "a", "b"), (2, 0, 1))] * 6
    ratings = rate_games(games)
    assert ratings["a"].mu > ratings["b"].mu > ratings["c"].mu
    assert ratings["a"].games == 12
    one = rate_games(games[:1])
    assert ratings["a"].sigma < one["a"].sigma < 25 / 3  # the OpenSkill default sigma is 25/3


def test_sw_13_3_tied_places_get_equal_ratings() -> None:
    ratings = rate_games([(("a", "b", "c"), (0, 0, 2))])
    assert ratings["a"].mu == pytest.approx(ratings["b"].mu)
    assert ratings["a"].mu > 25 > ratings["c"].mu


def test_copies_of_one_bot_playing_each_other_cancel_out() -> None:
    # "h" in three seats against itself with all places swapped around: no net change of mean
    games = [(("h", "h", "h"), (0, 1, 2)), (("h", "h", "h"), (2, 1, 0))]
    ratings = rate_games(games)
    assert ratings["h"].mu == pytest.approx(25.0, abs=1e-6)
    # a bot beating the copies gains what they lose in total
    mixed = rate_games([(("x", "h", "h"), (0, 1, 2))])
    assert mixed["x"].mu > 25 > mixed["h"].mu
