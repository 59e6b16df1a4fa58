"""Ratings and win-rate statistics for tournaments: OpenSkill ratings, Wilson intervals.

:func:`rate_games` rates bot specs with the OpenSkill Plackett-Luce model (Weng and Lin, 2011;
the ``openskill`` package), one free-for-all match per game with every seat a one-player team
ranked by its final place. Games are rated in the order given (tournaments pass them by game
index), so the ratings are a function of the results, not of the order in which they arrived.

When the same bot plays several seats of one game (``heuristic`` in three seats), each seat is
rated as a separate copy of the bot's current rating and the bot's new mean is its old mean plus
the sum of its seats' changes (games among copies of itself cancel out); its new deviation is the
mean of the seats' new deviations.

>>> lo, hi = wilson_interval(5, 10)
>>> round(lo, 4), round(hi, 4)
(0.2366, 0.7634)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: two-sided 95 % normal quantile
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    ``successes`` may be fractional (shared victories count as fractions of a win). For
    ``trials == 0`` the interval is ``(0, 1)``.
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes} not within [0, {trials}]")
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2.0 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating: mean ``mu``, deviation ``sigma``, and ``ordinal = mu - 3 sigma``."""

    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate (``mu - 3 sigma``), used to order the table."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, float | int]:
        """JSON-ready form, rounded."""
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
        }


def rate_games(games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> dict[str, Rating]:
    """Rate bots from ``(lineup, ranking)`` pairs in order.

    ``lineup[s]`` is the bot spec at seat ``s`` and ``ranking[s]`` its place (0 = first, shared
    places for ties), as in :class:`civtable.core.Result`.

    >>> r = rate_games([(["a", "b"], [0, 1])] * 5)
    >>> r["a"].mu > r["b"].mu
    True
    """
    model = PlackettLuce()
    state: dict[str, tuple[float, float, int]] = {}
    default = model.rating()
    for lineup, ranking in games:
        if len(lineup) != len(ranking):
            raise ValueError("a lineup and its ranking must have one entry per seat")
        if len(lineup) < 2:
            continue
        teams = []
        for spec in lineup:
            mu, sigma, _ = state.get(spec, (default.mu, default.sigma, 0))
            teams.append([model.rating(mu=mu, sigma=sigma, name=spec)])
        new = model.rate(teams, ranks=[float(r) for r in ranking])
        delta: dict[str, float] = {}
        sigmas: dict[str, list[float]] = {}
        for spec, before, after in zip(lineup, teams, new, strict=True):
            delta[spec] = delta.get(spec, 0.0) + after[0].mu - before[0].mu
            sigmas.setdefault(spec, []).append(after[0].sigma)
        for spec, d in delta.items():
            mu, _, played = state.get(spec, (default.mu, default.sigma, 0))
            sig = sigmas[spec]
            state[spec] = (mu + d, sum(sig) / len(sig), played + 1)
    return {spec: Rating(mu, sigma, n) for spec, (mu, sigma, n) in state.items()}


__all__ = ["Z95", "Rating", "rate_games", "wilson_interval"]
