"""First-game final scoring (TTA-14) and the result."""

from __future__ import annotations

from civtable.core.api import Result, rank_by
from civtable.games.through_the_ages.catalog import CARDS, FIRST_GAME
from civtable.games.through_the_ages.rules import board, effects
from civtable.games.through_the_ages.state import Civ, TTAState

CATEGORIES = (
    "culture",
    "technologies",
    "government",
    "science_rate",
    "strength",
    "happiness",
    "production",
    "colonies",
    "wonders",
)


def breakdown(civ: Civ, rates: tuple[int, int, int, int] | None = None) -> dict[str, int]:
    """TTA-14.4 (TTA-AMB-26): culture + each first-game bonus, by category (``rates``: the
    civilization's current :func:`~.rules.board.ratings`, if the caller has them)."""
    per_age = {
        1: int(FIRST_GAME["culture_per_age_I_technology"]),
        2: int(FIRST_GAME["culture_per_age_II_technology"]),
    }
    techs = [c for c in civ.developed if CARDS[c].deck == "civil"]
    techs += [c for c in civ.special if c >= 0]
    tech_points = sum(per_age.get(CARDS[c].age, 0) for c in techs)
    gov_age = CARDS[civ.gov].age
    gov_points = per_age.get(gov_age, 0) * (2 if FIRST_GAME["government_counts_double"] else 1)
    _culture, science, strength, happy = board.ratings(civ) if rates is None else rates
    food, res = board.production(civ)
    # "what your workers produce in the production phase" (rulebook): the Transcontinental
    # Railroad's doubled worker counts (the data's mine_production quantity, TTA-8.7)
    res += effects.production_bonus(civ, best_only=True)
    wonders = sum(1 for w in civ.wonders if CARDS[w].age == 2)
    return {
        "culture": civ.culture,
        "technologies": tech_points,
        "government": gov_points,
        "science_rate": science,
        "strength": strength,
        "happiness": happy,
        "production": food + res,
        "colonies": 0,  # no colonies before part 2 (3 each, TTA-14)
        "wonders": wonders * int(FIRST_GAME["culture_per_completed_age_II_wonder"]),
    }


def result(state: TTAState) -> Result:
    """Scores with breakdown; most culture wins, ties share the win (TTA-14)."""
    rows = [breakdown(c) for c in state.civs]
    scores = tuple(sum(r.values()) for r in rows)
    ranking, winners = rank_by([(s,) for s in scores])
    return Result(
        scores=scores,
        breakdown=tuple(rows),
        categories=CATEGORIES,
        ranking=ranking,
        winners=winners,
        tiebreak=(),
        extra={"terminal": state.is_terminal(), "round": state.round},
    )
