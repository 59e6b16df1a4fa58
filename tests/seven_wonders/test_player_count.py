"""Rules that compare players or scale with the player count (issue 20 item 9), at every count.

7 Wonders has no resignation; its one neutral seat is the 2-player Free City (SW-14). The spec
decides each case: the Free City is a full neighbour - it sells and is paid (SW-7.1, SW-7.3),
its structures and tokens count for the players' cards, guilds and Olympia's copy (SW-14.9), it
fights both players and takes tokens (SW-14.8) - but it never ranks: only the two players win,
and only their coins break a tie (SW-14.9, AMB-21). What scales with the player count: the decks
(SW-2.2, 7n cards per age; the 2-player game uses the 3-player decks, SW-14.2) with n + 2 guilds
(5 in the 2-player game, AMB-33), and one conflict per pair of neighbouring cities (SW-11.1).
"""

from __future__ import annotations

import pytest

from civtable.games.seven_wonders import scoring
from civtable.games.seven_wonders.catalog import CARDS, PURPLE
from civtable.games.seven_wonders.invariants import cards_in_play
from civtable.games.seven_wonders.state import SevenWondersState

from .scenario import act, build, city, coins, hand, new, play_step, play_until, stages, tokens

#: SW-2.3 / SW-14.2 / AMB-33: guilds in Age III by player count, as the spec states them
GUILDS_IN_PLAY = {2: 5, 3: 5, 4: 6, 5: 7, 6: 8, 7: 9}
#: structures giving 0, 1, 2, 3 and 4 shields
RED: tuple[list[str], ...] = (
    [],
    ["barracks"],
    ["barracks", "stockade"],
    ["barracks", "stockade", "guard_tower"],
    ["barracks", "stockade", "walls"],
)
BOARDS = ["giza", "rhodes", "babylon", "olympia", "ephesus", "alexandria", "halikarnassus"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_sw_2_3_sw_14_2_decks_and_guilds_scale_with_the_player_count(players: int) -> None:
    cities = 3 if players == 2 else players
    s = new(players, BOARDS[:cities], seed=players)
    assert sum(len(h) for h in s.hands) + sum(1 for c in s.commits if c) == 7 * cities
    play_until(s, 3)
    held = cards_in_play(s)
    assert sum(held.values()) == 3 * 7 * cities  # SW-2.4: 7n cards per age, all dealt
    guilds = [t for t, k in held.items() for _ in range(k) if CARDS[t].color == PURPLE]
    assert len(guilds) == len(set(guilds)) == GUILDS_IN_PLAY[players]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_sw_11_1_one_conflict_per_pair_of_neighbouring_cities(players: int) -> None:
    cities = 3 if players == 2 else players
    s = new(players, BOARDS[:cities], seed=1)
    for c in range(cities):
        hand(s, c, *["altar"] * len(s.hands[c]))  # nobody builds a shield in Age I
        build(s, c, *RED[c])  # distinct strengths 0, 1, 2, ...
    play_until(s, 2)
    # every pair has a winner: one victory and one defeat per pair, the Free City included
    assert sum(len(city(s, c).tokens) for c in range(cities)) == 2 * cities
    assert [len(city(s, c).tokens) for c in range(cities)] == [2] * cities


def _two_players() -> SevenWondersState:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=1)
    for c in range(3):
        hand(s, c, *["altar"] * len(s.hands[c]))
    return s


def test_sw_14_9_only_the_players_coins_break_a_tie() -> None:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=1)
    build(s, 1, "altar")  # seat 0
    build(s, 2, "altar")  # seat 1
    coins(s, 1, 5)  # treasury 1
    coins(s, 2, 4)  # treasury 1: the same total, fewer coins
    coins(s, 0, 40)  # the Free City's coins play no part
    build(s, 0, "palace")
    r = s.result()
    assert r.scores[0] == r.scores[1]
    assert r.tiebreak == (5, 4)
    assert r.winners == (0,)
    assert r.ranking == (0, 1)
    coins(s, 2, 5)
    r = s.result()
    assert r.winners == (0, 1)  # SW-13.3 shared victory, between the two players only
    assert sum(r.rewards()) == pytest.approx(1.0)


def test_sw_7_3_buying_from_the_free_city_pays_the_free_city() -> None:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=1)  # Giza (Free City) produces stone
    assert s.controller == 1  # SW-14.3: Age I starts with LEFT(FC), seat 0
    hand(s, 1, "baths", "lumber_yard", *["altar"] * 6)
    hand(s, 2, *["altar"] * 7)
    for c in range(3):
        coins(s, c, 3)
    # Seat 0 builds Baths (1 stone) buying it from the Free City (RIGHT of city 1), then has the
    # Free City build the free Lumber Yard; seat 1 discards.
    play_step(s, {0: [act("build", "baths"), act("build", "lumber_yard")]})
    assert "baths" in [CARDS[t].id for t in city(s, 1).built]
    assert [city(s, c).coins for c in range(3)] == [5, 1, 6]


def test_sw_14_9_the_free_city_counts_for_the_players_guilds() -> None:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=1)
    build(s, 0, "lumber_yard", "stone_pit")  # Free City: 2 brown cards
    build(s, 2, "clay_pool")  # seat 1: 1 brown card
    build(s, 1, "workers_guild", "strategists_guild")  # seat 0
    tokens(s, 0, -1, -1)
    tokens(s, 2, -1)
    assert scoring.city_breakdown(s, 1)["guilds"] == 3 + 3  # brown 2 + 1, defeats 2 + 1


def test_sw_10_10_olympia_copies_a_guild_of_the_free_city() -> None:
    s = new(2, ["giza", "olympia", "babylon"], ["A", "B", "A"], seed=1)
    stages(s, 1, 3)  # Olympia B stage 3: copy a neighbour's guild
    build(s, 0, "workers_guild", "lumber_yard")  # the Free City's guild
    build(s, 2, "clay_pool", "ore_vein")
    assert scoring.city_breakdown(s, 1)["guilds"] == 3  # counted from Olympia's neighbours


def test_sw_14_8_the_free_city_fights_and_keeps_its_tokens() -> None:
    s = _two_players()
    build(s, 0, *RED[3])
    build(s, 2, *RED[1])
    play_until(s, 2)
    assert city(s, 0).tokens == [1, 1]
    assert sorted(city(s, 2).tokens) == [-1, 1]
    assert city(s, 1).tokens == [-1, -1]
    r = s.result()
    assert len(r.scores) == 2  # the Free City scores only in ``extra`` (SW-14.9)
    assert r.extra["free_city"]["breakdown"]["military"] == 2
