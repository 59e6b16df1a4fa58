"""The map's kept bitsets (issue 21): updated in step by placements and barbarian moves, they
always equal bitsets derived afresh from the state's lists."""

from __future__ import annotations

import pytest

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812

from .test_properties import new_game, random_step


def _masks(occ: C.Occupancy) -> tuple[object, ...]:
    return (occ.tokens, occ.cities, occ.barbs, occ.cstates, occ.friendly, occ.occupied)


@pytest.mark.parametrize(("players", "seed", "map_"), [(2, 3, "first_game"), (4, 8, "standard")])
def test_issue21_kept_bitsets_equal_bitsets_derived_afresh(
    players: int, seed: int, map_: str
) -> None:
    s = new_game(players, seed, map_)
    rng = Rng(seed)
    kept = 0
    for _ in range(1500):
        if s.is_terminal():
            break
        occ = C._in_step(s)
        if occ is not None:
            kept += 1
            assert _masks(occ) == _masks(C.Occupancy(s))
        C.occupancy(s)  # derive them again if a change was not kept in step
        random_step(s, rng)
    assert kept > 100
