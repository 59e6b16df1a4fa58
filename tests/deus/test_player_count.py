"""Rules that compare players or scale with the player count (issue 20 item 9), at every count.

Deus has no neutral or resigned seat: every seat plays to the end. What must hold is that the
comparisons take exactly the players the rule names - every player for the majorities (DEUS-19.2),
the players next to the village for an attack and, for its tie-breaks, only the players tied on
armies (DEUS-9.3), the opponents next to the army for Centurion and Legion (DEUS-16.7) - and
that everything scaled by the player count follows D.1: tiles, temples and resources in the
supply (DEUS-3.5, DEUS-4.3), the deck after dealing (DEUS-4.6), and the final round that gives
every player the same number of turns whoever started (DEUS-18.2).
"""

from __future__ import annotations

import pytest

from civtable import games
from civtable.games.deus.catalog import P_INDEX
from civtable.games.deus.rules import board as board_rules
from civtable.games.deus.rules import effects
from civtable.games.deus.state import MAIN, OVER, DeusState

from .scenario import card, new, put, region, resources
from .test_scenarios import finish_turn

GAME = games.get("deus")


@pytest.mark.parametrize(
    ("players", "regions", "villages", "temples", "supply", "deck"),
    [
        (2, 28, 4, 4, 8, 86),  # D.1: 4 tiles, 10 of each resource less 2 handed out
        (3, 42, 6, 6, 12, 81),
        (4, 49, 7, 7, 16, 76),
    ],
)
def test_deus_4_3_setup_scales_with_the_player_count(
    players: int, regions: int, villages: int, temples: int, supply: int, deck: int
) -> None:
    for board in ("reference", "random"):
        s = GAME.new_game(players, 5, {"board": board})
        assert isinstance(s, DeusState)
        assert s.board.size == regions  # DEUS-3.5: 4 / 6 / 7 tiles of 7 regions
        assert len(s.board.villages) == villages
        assert s.temples == temples  # DEUS-4.3.1: one per tile
        assert s.supply == [supply] * 4  # DEUS-4.3.2 then DEUS-4.5
        assert len(s.deck) == deck  # DEUS-4.6
        assert all(len(h) == 5 for h in s.hands)


def test_deus_19_2_majorities_compare_every_player_and_ties_all_score() -> None:
    s = new(4, "REF4")
    resources(s, 0, wheat=3, clay=0, stone=0, wood=2)
    resources(s, 1, wheat=3, clay=0, stone=0, wood=2)
    resources(s, 2, wheat=1, clay=0, stone=0, wood=2)
    resources(s, 3, wheat=0, clay=0, stone=1, wood=2)
    s.gold = [5, 5, 9, 5]
    b = s.result().breakdown
    assert [x["majority_wheat"] for x in b] == [2, 2, 0, 0]  # a tie for the most: both
    assert [x["majority_clay"] for x in b] == [0, 0, 0, 0]  # nobody has any (at least 1)
    assert [x["majority_stone"] for x in b] == [0, 0, 0, 2]  # the only one with stone
    assert [x["majority_wood"] for x in b] == [2, 2, 2, 2]  # all four tied
    assert [x["majority_gold"] for x in b] == [0, 0, 2, 0]


def test_deus_9_3_only_players_next_to_the_village_compete() -> None:
    s = new(3)
    put(s, 0, "S2.C", "army")
    put(s, 1, "S2.NE", "ship")
    put(s, 2, "S0.NW", "army")  # two armies elsewhere: not next to the village S2.E
    put(s, 2, "S1.C", "army")
    i = s.board.villages.index(region(s, "S2.E"))
    vp0 = s.vp[:]
    board_rules.place(s, 1, region(s, "S2.SE"), 1 << P_INDEX["prod"])
    assert s.vatt[i] == 1
    assert [a - b for a, b in zip(s.vp, vp0, strict=True)] == [3, 0, 0]


def test_deus_9_3_1_the_piece_tie_break_is_only_among_players_tied_on_armies() -> None:
    s = new(3)
    put(s, 0, "S0.NW", "army")
    put(s, 1, "S3.C", "army")
    put(s, 2, "S3.SE", "civ", "sci", "prod")  # the most pieces, but no army
    i = s.board.villages.index(region(s, "S3.SW"))
    assert s.vvp[i] == 4
    vp0 = s.vp[:]
    board_rules.place(s, 2, region(s, "S3.W"), 1 << P_INDEX["civ"])
    assert s.vatt[i] == 1
    # Armies 1-1-0: seats 0 and 1 are tied, one piece each: they share (DEUS-9.3.2).
    assert [a - b for a, b in zip(s.vp, vp0, strict=True)] == [2, 2, 0]


def test_deus_16_7_legion_of_the_last_seat_takes_from_adjacent_opponents_only() -> None:
    """3 players; T20 has the 4-player Centurion of seat 0. Seat 2's army at S0.NW: seat 0 is
    next to it, seat 1 is not."""
    s = new(3)
    put(s, 2, "S0.NW", "army")
    put(s, 0, "S0.NE", "civ")  # adjacent
    put(s, 1, "S2.C", "civ")  # not adjacent
    s.vp = [4, 4, 0]
    s.cur = 2
    assert not effects.resolve_card(s, 2, card("RED-04"))
    assert s.vp == [3, 4, 1]


@pytest.mark.parametrize(("trigger_seat", "turns_left"), [(1, 5), (3, 7)])
def test_deus_18_2_every_player_gets_the_same_turns_whoever_starts(
    trigger_seat: int, turns_left: int
) -> None:
    """4 players, seat 2 first (order 2, 3, 0, 1): a trigger in seat 1's turn ends the round at
    once (DEUS-18.2.1), one in seat 3's turn lets seats 0 and 1 finish it; then the final round."""
    s = new(4, "REF4", first_player=2)
    s.round = 6
    s.cur = trigger_seat
    order = [2, 3, 0, 1]
    done = order[: order.index(trigger_seat)]
    s.turns = [6 if p in done else 5 for p in range(4)]
    s.temples = 0
    board_rules.check_end_trigger(s)
    assert s.end_round == 7
    for _ in range(turns_left):
        assert s.phase == MAIN
        finish_turn(s)
    assert s.phase == OVER
    assert s.turns == [7, 7, 7, 7]
