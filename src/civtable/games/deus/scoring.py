"""Final scoring and the winner (DEUS-17, DEUS-19).

Categories: VP tokens gathered during the game, the temple cards (each capped at 12, DEUS-8.8),
and the five majority bonuses of DEUS-19.2 (wheat, clay, stone, wood, gold: 2 VP to every
player tied for the most, at least 1 needed). Ties for first place share the victory (AMB-29).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.core.api import Result, rank_by
from civtable.games.deus.catalog import (
    CARDS,
    CNT_OCCUPIED_LAND,
    CNT_PAIRS_MIN,
    CNT_PROD_LAND,
    CNT_REGIONS_MIN,
    CNT_VILLAGES_ARMIES,
    MAJORITY_VP,
    PURPLE,
    RES_INDEX,
    Counter,
)
from civtable.games.deus.rules.effects import count, temple_value

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState

MAJORITIES: tuple[str, ...] = ("wheat", "clay", "stone", "wood", "gold")
CATEGORIES: tuple[str, ...] = ("vp_tokens", "temples", *(f"majority_{m}" for m in MAJORITIES))


def temples_score(state: DeusState, s: int) -> int:
    """DEUS-17: the sum of the temple cards' values (each capped)."""
    return sum(temple_value(state, s, CARDS[t]) for t in state.cols[s][PURPLE] if t < len(CARDS))


def _amount(state: DeusState, s: int, item: str) -> int:
    return state.gold[s] if item == "gold" else state.res[s][RES_INDEX[item]]


def breakdown(state: DeusState) -> list[dict[str, int]]:
    """Per seat: points per category (sums to the score)."""
    out = [
        {"vp_tokens": state.vp[s], "temples": temples_score(state, s)} for s in range(state.players)
    ]
    for item in MAJORITIES:  # DEUS-19.2
        amounts = [_amount(state, s, item) for s in range(state.players)]
        top = max(amounts)
        for s in range(state.players):
            out[s][f"majority_{item}"] = MAJORITY_VP if top >= 1 and amounts[s] == top else 0
    return out


# seat_score counts a majority of every resource and of gold
assert sorted(MAJORITIES) == sorted([*RES_INDEX, "gold"])


#: the counters of temple cards (DEUS-17) that read nothing but the map (regions, pieces,
#: villages): their values may be kept while the map is unchanged (see :func:`seat_score`)
MAP_COUNTERS = frozenset(
    {CNT_OCCUPIED_LAND, CNT_REGIONS_MIN, CNT_PAIRS_MIN, CNT_PROD_LAND, CNT_VILLAGES_ARMIES}
)


def seat_score(state: DeusState, s: int, map_counts: dict[Counter, int] | None = None) -> int:
    """The score of seat ``s`` alone: ``sum(breakdown(state)[s].values())``, without the other
    seats' temple cards (bots evaluate one seat many times per decision).

    ``map_counts`` (optional) holds the values of :data:`MAP_COUNTERS` for ``s`` on this
    position's map; the missing ones are counted and added. A caller may pass the same dict for
    another position of ``s`` with an equal map (owners, pieces, villages).
    """
    score = state.vp[s]
    temples = state.cols[s][PURPLE]
    if temples:
        if map_counts is None:
            score += temples_score(state, s)
        else:
            for t in temples:
                if t >= len(CARDS):
                    continue  # a blind card (DEUS-21.3), as in temples_score
                e = CARDS[t].effect
                per = e.per
                assert per is not None
                if per.kind in MAP_COUNTERS:
                    n = map_counts.get(per)
                    if n is None:
                        n = map_counts[per] = count(state, s, per)
                else:
                    n = count(state, s, per)
                score += min(e.cap, e.amount * n)  # temple_value
    # DEUS-19.2: the majorities of the four resources and of gold (2 VP to every seat tied
    # for the most, at least 1 needed): ``s`` has one when no seat has more
    gold = state.gold[s]
    if gold >= 1 and gold == max(state.gold):
        score += MAJORITY_VP
    res = state.res
    mine = res[s]
    for r in range(len(mine)):
        m = mine[r]
        if m >= 1:
            for other in res:
                if other[r] > m:
                    break
            else:
                score += MAJORITY_VP
    return score


def result(state: DeusState) -> Result:
    """DEUS-19.1 / 19.3: the scores, ranking with shared first places."""
    bd = breakdown(state)
    scores = tuple(sum(b.values()) for b in bd)
    ranking, winners = rank_by([(x,) for x in scores])
    return Result(
        scores=scores,
        breakdown=tuple(bd),
        categories=CATEGORIES,
        ranking=ranking,
        winners=winners,
        extra={"round": state.round},
    )
