"""Result (CIV-22): agenda marks, world wonders and friendly spaces.

The game has no points: the winner is the player with a mark on every victory card, ties broken
by world wonders, then friendly spaces (CIV-22.3). The score reported is the number of marked
victory cards; ``tiebreak`` encodes wonders × 1000 + friendly spaces. A game stopped by the
optional turn cap (CIV-22.4, not a rule) is ``extra["unfinished"]`` and ranked by the same keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.core.api import Result, rank_by
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

CATEGORIES = ("agendas",)


def result(state: CivState) -> Result:
    """Scores, breakdown and ranking (winners per CIV-22.3 once the game is over)."""
    n = state.players
    marks = [bin(state.marks[s]).count("1") for s in range(n)]
    wonders = [len(C.wonders_of(state, s)) for s in range(n)]
    spaces = [C.friendly_spaces(state, s) for s in range(n)]
    keys = [(marks[s], wonders[s], spaces[s]) for s in range(n)]
    if state.over and state.winners:
        others = [s for s in range(n) if s not in state.winners]
        ranking_l = [0] * n
        if others:
            sub, _ = rank_by([keys[s] for s in others])
            for i, s in enumerate(others):
                ranking_l[s] = 1 + sub[i]
        ranking, winners = tuple(ranking_l), tuple(sorted(state.winners))
    else:
        ranking, winners = rank_by(keys)
    return Result(
        scores=tuple(marks),
        breakdown=tuple({"agendas": marks[s]} for s in range(n)),
        categories=CATEGORIES,
        ranking=ranking,
        winners=winners,
        tiebreak=tuple(wonders[s] * 1000 + spaces[s] for s in range(n)),
        extra={"unfinished": state.unfinished, "over": state.over},
    )
