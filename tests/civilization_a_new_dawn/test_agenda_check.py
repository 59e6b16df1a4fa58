"""The agenda check (CIV-22.2, CIV-A53) evaluates a condition again only when what it reads
changed (issue 21: the map counts as changed only for the seats whose own tokens or cities
changed, or who read others' through the Sydney Opera House or Open Borders). Whatever it
skips, no agenda of an unmarked victory card may be fulfilled after any decision."""

from __future__ import annotations

import pytest

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import OPEN_BORDERS, VICTORY_CARDS
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import victory
from civtable.games.civilization_a_new_dawn.state import CivState

from .scenario import city, make, sp, token
from .test_properties import new_game


def _fulfilled_unmarked(s: CivState) -> list[tuple[int, int]]:
    """(seat, card) pairs of an unmarked victory card with a fulfilled agenda."""
    out = []
    for seat in range(s.players):
        for i, v in enumerate(s.victory):
            if s.marks[seat] >> i & 1:
                continue
            if any(victory.condition_met(s, seat, a.condition) for a in VICTORY_CARDS[v].agendas):
                out.append((seat, v))
    return out


def _plant_sharing(s: CivState) -> None:
    """Seat 0 controls the Sydney Opera House (any control token matures its cities) and seat
    1 holds seat 0's Open Borders card (seat 0's tokens and cities mature seat 1's cities),
    CIV-A26; every victory card is one with a mature-cities agenda where possible."""
    s.wonder_owner[C.SYDNEY] = 0
    s.pcard_holder[0][OPEN_BORDERS] = 1
    mature = [
        v
        for v, card in enumerate(VICTORY_CARDS)
        if any(victory._reads(a.condition) & victory.G_MAP for a in card.agendas)
    ]
    for i in range(min(len(s.victory), len(mature))):
        s.victory[i] = mature[i]
    s.agenda_seen = None  # the planted position: evaluate everything at the next check


@pytest.mark.parametrize(
    ("players", "map_", "planted"),
    [(2, "first_game", False), (3, "standard_random", True), (4, "first_game", True)],
)
def test_civ_22_2_no_unmarked_agenda_is_fulfilled_after_any_decision(
    players: int, map_: str, planted: bool
) -> None:
    for seed in (0, 1):
        s = new_game(players, seed, map_)
        if planted:
            _plant_sharing(s)
            victory.check_agendas(s)
        rng = Rng(seed + 7)
        decisions = 0
        while not s.is_terminal() and decisions < 1200:
            seat = s.to_move()[0]
            s.apply(seat, rng.choice(s.legal_actions(seat)))
            decisions += 1
            assert _fulfilled_unmarked(s) == [], (seed, decisions)
        assert decisions >= 100


@pytest.mark.parametrize("sharing", ["sydney_opera_house", "open_borders"])
def test_civ_a26_a_rivals_token_that_matures_a_city_marks_the_agenda(sharing: str) -> None:
    # Red has five cities on a line, every space between them holds a red token but the last;
    # a Blue token there matures Red's fifth city when Red controls the Sydney Opera House or
    # holds Blue's Open Borders card (CIV-A26): "control 5 mature cities" is fulfilled although
    # Red's own tokens and cities did not change
    s = make({(i, 0): "G" for i in range(10)}, capitals={0: (0, 0)})
    for x in (2, 4, 6, 8):
        city(s, 0, (x, 0))
    for x in (1, 3, 5, 7):
        token(s, 0, (x, 0))
    if sharing == "sydney_opera_house":
        s.wonder_owner[C.SYDNEY] = 0
    else:
        s.pcard_holder[1][OPEN_BORDERS] = 0
    populous = next(
        v
        for v, card in enumerate(VICTORY_CARDS)
        if any(a.condition["kind"] == "control_mature_cities" for a in card.agendas)
    )
    s.victory = [populous]
    s.marks = [0] * s.players
    s.agenda_seen = None
    victory.check_agendas(s)
    assert s.marks[0] == 0  # four mature cities
    C.set_token(s, sp(s, (9, 0)), 1)
    victory.check_agendas(s)
    assert s.marks == [1, 0]
