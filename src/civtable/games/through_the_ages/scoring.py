"""Final scoring and the result: the full game (TTA-13: culture after the Age III events) and
the first game (TTA-14: culture plus the first-game bonuses)."""

from __future__ import annotations

from civtable.core.api import Result, rank_by
from civtable.games.through_the_ages.catalog import CARDS, FIRST_GAME
from civtable.games.through_the_ages.rules import board, effects
from civtable.games.through_the_ages.state import F_RESIGNED, Civ, TTAState

FULL_CATEGORIES = ("culture", "impact_events")

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
        "colonies": len(civ.colonies) * int(FIRST_GAME["culture_per_colony"]),
        "wonders": wonders * int(FIRST_GAME["culture_per_completed_age_II_wonder"]),
    }


def full_breakdown(state: TTAState) -> list[dict[str, int]]:
    """TTA-13.2 by category: culture, and what the Age III events still in the event decks
    will score (a projection while the game runs; 0 at the end, when they are scored)."""
    from civtable.games.through_the_ages.rules import impact

    extra = [0] * state.players
    if not state.over and state.options.get("mode") == "shorter":
        from civtable.games.through_the_ages.rules import shorter

        extra = shorter.projection(state)
    elif not state.over:
        for deck in (state.events, state.future):
            for card in deck:
                if impact.is_impact(card):
                    gains = impact.impact_culture(state, card, first_as_current=True)
                    for seat, g in enumerate(gains):
                        extra[seat] += g
    return [
        {"culture": c.culture, "impact_events": max(-c.culture, extra[seat])}
        for seat, c in enumerate(state.civs)
    ]


def result(state: TTAState) -> Result:
    """Scores with breakdown; most culture wins, ties share the win (TTA-13.2, TTA-14); a
    player who resigned ranks below everybody still in the game (TTA-6.8)."""
    full = state.options.get("mode", "first") != "first"
    rows = full_breakdown(state) if full else [breakdown(c) for c in state.civs]
    scores = tuple(sum(r.values()) for r in rows)
    keys = [(0 if c.flags & F_RESIGNED else 1, s) for c, s in zip(state.civs, scores, strict=True)]
    ranking, winners = rank_by(keys)
    return Result(
        scores=scores,
        breakdown=tuple(rows),
        categories=FULL_CATEGORIES if full else CATEGORIES,
        ranking=ranking,
        winners=winners,
        tiebreak=(),
        extra={
            "terminal": state.is_terminal(),
            "round": state.round,
            "resigned": [s for s, c in enumerate(state.civs) if c.flags & F_RESIGNED],
        },
    )
