"""Rules that scale with the number of players or compare players (issue 20, item 9).

The game has no resignation and no elimination (CIV-23.3): every seat plays to the end. With 2
or 3 players the absent colours simply do not exist: their capital tiles stay in the box (CIV-3.11,
CIV-4.1), so there is no neutral capital to raid (Warmonger counts only seated rivals); their
diplomacy cards are not in the game (CIV-1.3); components whose symbol is not on the smaller map
stay in the box (CIV-3.4, CIV-3.5, CIV-A40); and the wonder decks shrink (CIV-3.7). City-states
are the only neutral parties (CIV-16.1): they are nobody's "rival" and never "the giver" of a
player card, so a bonus that excludes one player never excludes a city-state or a barbarian.
"""

from __future__ import annotations

import pytest

from civtable import games
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    DEFENSIVE_PACT,
    ERAS,
    JOINT_WAR,
    WONDER_INDEX,
    WONDER_TYPES,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.invariants import check
from civtable.games.civilization_a_new_dawn.rules import events, industry, military, victory
from civtable.games.civilization_a_new_dawn.state import CivState

from .scenario import city, make, sp, token

GAME = games.get("civilization-a-new-dawn")
LINE = {(i, 0): "G" for i in range(7)}


def new(players: int, map_: str = "first_game", seed: int = 3) -> CivState:
    s = GAME.new_game(players, seed, {"map": map_})
    assert isinstance(s, CivState)
    return s


@pytest.mark.parametrize(("players", "sizes"), [(2, (1, 1, 2)), (3, (1, 2, 2)), (4, (2, 2, 2))])
def test_civ_3_7_wonder_decks_shrink_with_fewer_players(
    players: int, sizes: tuple[int, int, int]
) -> None:
    s = new(players)
    for t, deck in enumerate(s.wdecks):
        eras = [WONDERS[w].era for w in deck]
        assert tuple(eras.count(e) for e in range(len(ERAS))) == sizes, WONDER_TYPES[t]
    assert len(s.wremoved) == 4 * (6 - sum(sizes))
    assert check(s) == []


@pytest.mark.parametrize("map_", ["first_game", "standard_random"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_civ_3_11_and_4_1_only_seated_players_have_capitals(players: int, map_: str) -> None:
    s = new(players, map_)
    stars = [x for x in range(s.board.size) if s.board.capital_tile[x]]
    assert sorted(s.capital) == sorted(stars)  # no capital of an absent colour on the map
    assert [s.city[c] for c in s.capital] == list(range(players))
    assert len(s.pcard_holder) == players  # CIV-1.3: absent colours' cards are not in play
    if map_ == "first_game":  # D12.2 rows 1-10 / 1-13 / 1-16 (+ the water token)
        assert s.board.size == {2: 100, 3: 131, 4: 161}[players]


@pytest.mark.parametrize("players", [2, 3])
def test_civ_3_5_and_a40_components_of_missing_tiles_stay_in_the_box(players: int) -> None:
    s = new(players)
    on_map = {c for c in s.board.city_state if c >= 0}
    assert len(on_map) < 8
    for c in range(8):
        assert s.cs_avail[c] == (2 if c in on_map else 0)
    for letter, pos in enumerate(s.barb_pos):
        assert (pos == -2) == (letter not in s.board.spawn)
    # a spawn event never brings in a barbarian whose spawn point is not on the map
    for letter, pos in enumerate(s.barb_pos):
        if pos >= 0:
            events.remove_barbarian(s, letter)
    events.run_spawn(s, [0, s.first])
    assert all(p >= 0 for letter, p in enumerate(s.barb_pos) if letter in s.board.spawn)
    assert all(p == -2 for letter, p in enumerate(s.barb_pos) if letter not in s.board.spawn)


def test_civ_22_1_warmonger_needs_a_seated_rivals_capital() -> None:
    # the 2-player first-game map has exactly the two seated capitals: attacking "a rival
    # capital" can only mean the opponent's, and winning it completes Warmonger
    s = new(2)
    rival_capital = s.capital[1]
    assert military.target_kind(s, 0, rival_capital) == military.CAPITAL
    assert military.target_kind(s, 0, s.capital[0]) == -1
    s.won_capital[0] |= victory.WON_CAPITAL
    cond = {"kind": "win_attack_against_rival_capital"}
    assert victory.condition_met(s, 0, cond)
    assert not victory.condition_met(s, 1, cond)


def test_civ_17_joint_war_counts_every_giver_but_the_defender() -> None:
    # D4 Joint War: +2 when attacking unless you attack the giver. With 3 players Red holds
    # Joint War from Blue and from Green; a neutral city-state or a barbarian is nobody's giver
    s = make(LINE, players=3, capitals={0: (0, 0)}, features={(3, 0): "cs:kabul"})
    s.pcard_holder[1][JOINT_WAR] = 0
    s.pcard_holder[2][JOINT_WAR] = 0
    token(s, 1, (1, 0))
    city(s, 2, (5, 0))
    t_blue, t_kabul, t_green = sp(s, (1, 0)), sp(s, (3, 0)), sp(s, (5, 0))
    assert military.attack_bonus(s, 0, t_blue, military.TOKEN, 1) == 2  # Green's card only
    assert military.attack_bonus(s, 0, t_green, military.CITY, 2) == 2  # Blue's card only
    assert military.attack_bonus(s, 0, t_kabul, military.CSTATE, -2) == 4  # both
    assert military.attack_bonus(s, 0, t_kabul, military.BARB, -1) == 4


def test_civ_17_defensive_pact_counts_unless_the_giver_attacks() -> None:
    s = make(LINE, players=3, capitals={0: (0, 0)})
    s.pcard_holder[1][DEFENSIVE_PACT] = 0
    token(s, 0, (2, 0))
    t = sp(s, (2, 0))
    assert military.defence_bonus(s, 0, t, attacker=2) == 2  # Green attacks: Blue's pact helps
    assert military.defence_bonus(s, 0, t, attacker=1) == 0  # the giver attacks


def test_civ_17_kremlin_compares_with_the_defending_player_only() -> None:
    # Kremlin: +4 against a rival space when you have more reinforced tokens than the defender;
    # a neutral city-state is not a rival space, and a third player's tokens do not matter
    s = make(LINE, players=3, capitals={0: (0, 0)}, features={(6, 0): "cs:kabul"})
    s.wonder_owner[WONDER_INDEX["kremlin"]] = 0
    token(s, 0, (1, 0), reinforced=True)
    token(s, 1, (3, 0))
    token(s, 2, (4, 0), reinforced=True)
    token(s, 2, (5, 0), reinforced=True)
    assert military.attack_bonus(s, 0, sp(s, (3, 0)), military.TOKEN, 1) == 4
    assert military.attack_bonus(s, 0, sp(s, (4, 0)), military.TOKEN, 2) == 0
    assert military.attack_bonus(s, 0, sp(s, (6, 0)), military.CSTATE, -2) == 0


def test_civ_17_2_potala_palace_with_two_players_takes_from_the_one_rival() -> None:
    s = make(LINE, players=2, capitals={0: (0, 0), 1: (4, 0)})
    s.pending.append([industry.K.D_POTALA, 0, 3])
    s._legal = {}
    legal = s.legal_actions(0)
    assert legal == [act.DONE] + [act.CARD + 1 * 4 + k for k in range(4)]
    for k in range(3):
        s.apply(0, act.CARD + 4 + k)
    assert s.pcard_holder[1] == [0, 0, 0, -1]
    assert s.pcard_holder[0] == [-1, -1, -1, -1]  # nobody holds a card of their own colour


@pytest.mark.parametrize("players", [2, 3, 4])
def test_civ_a38_trade_event_goes_clockwise_from_the_first_player(players: int) -> None:
    cells = {(i, 0): "G" for i in range(12)}
    caps = {p: (3 * p, 0) for p in range(players)}
    s = make(cells, players=players, capitals=caps, seat=1)
    s.first = 1
    s.pending = []
    events.run_trade(s, [0, s.first])
    assert s.pending == []  # no mature city (CIV-2.9): nothing to place
    for p in range(players):
        if p != 1:  # every capital but the first player's matures
            for n in s.board.adjacent[s.capital[p]]:
                token(s, p, s.board.coords[n])
    events.run_trade(s, [0, s.first])
    order = [f[1] for f in reversed(s.pending)]  # top of the stack decides first
    assert order == [q for q in ((1 + i) % players for i in range(players)) if q != 1]
    assert all(f[2] == 1 for f in s.pending)  # 1 token per mature city (CIV-20.3)


def test_civ_22_3_tie_break_compares_only_players_with_every_mark() -> None:
    s = make(LINE, players=3, capitals={0: (0, 0), 1: (3, 0), 2: (6, 0)})
    full = (1 << len(s.victory)) - 1
    s.marks = [full, full, 0]
    s.wonder_owner[WONDER_INDEX["oracle"]] = 1
    s.wonder_owner[WONDER_INDEX["petra"]] = 2
    s.wonder_owner[WONDER_INDEX["colossus"]] = 2  # seat 2 has most wonders but no full set
    assert victory.win_check(s)
    assert s.winners == [1]
