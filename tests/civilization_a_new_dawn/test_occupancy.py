"""The map's kept bitsets (issue 21): updated in step by placements and barbarian moves, they
always equal bitsets derived afresh from the state's lists."""

from __future__ import annotations

import pytest

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.state import CivState

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


def _within_by_search(s: CivState, sources: list[int], dist: int) -> set[int]:
    """Breadth-first search over the adjacency lists (water reached, not crossed)."""
    seen, frontier = set(sources), list(sources)
    for _ in range(dist):
        nxt = []
        for x in frontier:
            for n in s.board.adjacent[x]:
                if n not in seen:
                    seen.add(n)
                    if not s.board.water[n]:
                        nxt.append(n)
        frontier = nxt
    return seen


def test_issue21_within_on_bitsets_equals_the_search() -> None:
    """Mass Media's reach and the Carthage card's count (``culture.within``) on bitsets give
    the spaces a breadth-first search gives."""
    from civtable.games.civilization_a_new_dawn.rules import culture, military

    s = new_game(4, 8, "standard")
    rng = Rng(8)
    for _ in range(300):
        random_step(s, rng)
    for x in range(s.board.size):
        for dist in (1, 2, 3):
            assert culture.within(s, [x], dist) == _within_by_search(s, [x], dist)
        for seat in range(4):
            near = _within_by_search(s, [x], 2)
            expect = sum(1 for n in near if s.cs[n] >= 0 or s.city[n] == seat)
            assert military._carthage(s, seat, x) == expect
    friendly = [x for x in range(s.board.size) if s.tok[x] == 0 or s.city[x] == 0]
    assert culture.within(s, friendly, 2) == _within_by_search(s, friendly, 2)


@pytest.mark.parametrize(("players", "seed", "map_"), [(3, 4, "first_game"), (4, 9, "standard")])
def test_issue21_drama_and_poetry_sources_on_bitsets_equal_the_space_checks(
    players: int, seed: int, map_: str
) -> None:
    """Drama and Poetry's tokens to move (CIV-A13) found on bitsets are the tokens with an
    adjacent empty land space (of difficulty within the slot, if limited), space by space."""
    from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
    from civtable.games.civilization_a_new_dawn.rules import culture

    s = new_game(players, seed, map_)
    rng = Rng(seed)
    for _ in range(600):
        if s.is_terminal():
            break
        empty = [x for x in range(s.board.size) if not s.board.water[x] and C.empty(s, x)]
        assert s.board.spaces_of(culture.empty_land_bits(s)) == empty
        for seat in range(players):
            for limit in (0, 2, 5):
                srcs = [
                    A.SPACE + x
                    for x, t in enumerate(s.tok)
                    if t == seat and culture._dp_dests(s, seat, x, limit)
                ]
                expect = [A.DONE, *srcs] if srcs else []
                assert culture.legal_dp_from(s, [0, seat, limit]) == expect
        random_step(s, rng)
