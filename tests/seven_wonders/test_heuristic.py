"""The heuristic bot and the static evaluation of 7 Wonders.

Strength is measured against the uniform random bot on fixed seeds; single decisions are checked
in positions where the right play is clear, named by the rule that makes it right
(shared/rules/seven_wonders.md). Positions are built with :mod:`.scenario`.
"""

from __future__ import annotations

import math
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from civtable import games
from civtable.bots import bot_names, make_bot
from civtable.bots.heuristic import HeuristicBot, NoHeuristicError, evaluation_for
from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.seven_wonders import heuristic
from civtable.games.seven_wonders.actions import decode_pay, kind_of
from civtable.games.seven_wonders.state import EXTRA, HALI_PHASE, SevenWondersState

from .scenario import act, build, card, coins, hand, new, pay

GAME = games.get("seven-wonders")
BOARDS7 = ["olympia", "halikarnassus", "babylon", "giza", "rhodes", "ephesus", "alexandria"]


def _play(
    players: int, seed: int, specs: list[str], options: dict[str, Any] | None = None
) -> SevenWondersState:
    """A full game, each seat played by the bot ``specs[seat]`` (seeded from the game seed)."""
    state = GAME.new_game(players, seed, options)
    assert isinstance(state, SevenWondersState)
    bots = [make_bot(spec, seed * 10 + i) for i, spec in enumerate(specs)]
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def _wilson_lower(wins: float, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def _choose(state: SevenWondersState, seat: int) -> int:
    return heuristic.choose(state, seat, Rng(0))


# --- registry and dispatch ---------------------------------------------------------------------
def test_heuristic_bot_is_registered() -> None:
    assert "heuristic" in bot_names()
    assert isinstance(make_bot("heuristic", seed=1), HeuristicBot)


def test_evaluation_for_dispatches_by_game_id() -> None:
    assert evaluation_for("seven-wonders") is heuristic.evaluate


@pytest.mark.parametrize("game_id", ["no-such-game", "seven-wonders-x"])
def test_unknown_game_is_a_clear_error(game_id: str) -> None:
    with pytest.raises(NoHeuristicError, match=game_id):
        evaluation_for(game_id)
    stub: Any = SimpleNamespace(game=SimpleNamespace(id=game_id))
    with pytest.raises(NoHeuristicError, match=game_id):
        make_bot("heuristic").choose(stub, 0)


# --- strength ------------------------------------------------------------------------------------
def test_beats_random_in_four_player_games() -> None:
    """One heuristic seat (rotating) against three random seats, 60 fixed seeds."""
    n = 60
    wins = 0.0
    for seed in range(n):
        hero = seed % 4
        specs = ["random"] * 4
        specs[hero] = "heuristic"
        state = _play(4, 1000 + seed, specs)
        wins += state.result().rewards()[hero]
    assert wins / n >= 0.85  # measured: 60/60
    assert _wilson_lower(wins, n) > 0.25


def test_random_seat_scores_least_against_three_heuristics() -> None:
    n = 12
    random_scores: list[int] = []
    heuristic_scores: list[int] = []
    for seed in range(n):
        villain = seed % 4
        specs = ["heuristic"] * 4
        specs[villain] = "random"
        scores = _play(4, 2000 + seed, specs).result().scores
        random_scores.append(scores[villain])
        heuristic_scores.extend(s for i, s in enumerate(scores) if i != villain)
    random_mean = sum(random_scores) / n
    heuristic_mean = sum(heuristic_scores) / len(heuristic_scores)
    assert random_mean + 10 < heuristic_mean


# --- legality, coverage of every decision kind, determinism --------------------------------------
@pytest.mark.parametrize("players", range(2, 8))
def test_sw_8_8_every_decision_point_legal_for_2_to_7_players(players: int) -> None:
    """All seats heuristic; boards with Olympia, Halikarnassus and Babylon on both sides, so the
    free build (SW-10.8), the discard build (SW-10.11), the seventh card (SW-10.7), payments
    and, with 2 players, the Free City decisions (SW-14.4) come up."""
    n = 3 if players == 2 else players
    kinds: Counter[str] = Counter()
    for sides in ("A", "B"):
        options = {"boards": BOARDS7[:n], "sides": sides}
        state = GAME.new_game(players, 100 + players, options)
        assert isinstance(state, SevenWondersState)
        bots = [make_bot("heuristic", i) for i in range(players)]
        while not state.is_terminal():
            seat = state.to_move()[0]
            action = bots[seat].choose(state, seat)
            assert action in state.legal_actions(seat)
            c = state.current_city(seat)
            kind = kind_of(action)
            if state.phase == EXTRA:
                kinds["extra"] += 1
            if state.two_player and c == 0:
                kinds["free_city"] += 1
            kinds[kind] += 1
            state.apply(seat, action)
        assert all(score > 0 for score in state.result().scores)
    assert kinds["build"] > 0
    assert kinds["stage"] > 0
    assert kinds["pay"] > 0
    assert kinds["hali"] + kinds["hali_pass"] > 0
    if players == 2:
        assert kinds["free_city"] > 0


def test_sw_10_7_sw_10_8_seventh_card_and_free_build_are_decided() -> None:
    """With Babylon and Olympia on the table, the heuristic actually plays Babylon B's extra step
    and uses Olympia A's free build."""
    kinds: Counter[str] = Counter()
    for players in (3, 7):
        for sides in ("A", "B"):
            options = {"boards": BOARDS7[:players], "sides": sides}
            state = GAME.new_game(players, 100 + players, options)
            assert isinstance(state, SevenWondersState)
            bots = [make_bot("heuristic", i) for i in range(players)]
            while not state.is_terminal():
                seat = state.to_move()[0]
                action = bots[seat].choose(state, seat)
                kinds["extra" if state.phase == EXTRA else kind_of(action)] += 1
                state.apply(seat, action)
    assert kinds["extra"] > 0
    assert kinds["free"] > 0


def test_deterministic_for_a_seed() -> None:
    specs = ["heuristic", "random", "heuristic"]
    a = _play(3, 77, specs)
    b = _play(3, 77, specs)
    assert a.history == b.history
    assert a.result().scores == b.result().scores


def test_sw_3_9_decisions_use_only_what_the_seat_may_know() -> None:
    """Re-dealing everything the seat cannot see (others' hands and choices, unknown discards,
    hidden stage markers) never changes its action values."""
    state = GAME.new_game(4, 31, {"boards": BOARDS7[:4], "sides": "B"})
    assert isinstance(state, SevenWondersState)
    bots = [make_bot("heuristic", i) for i in range(4)]
    checked = 0
    rng = Rng(5)
    while not state.is_terminal():
        seat = state.to_move()[0]
        if state.history and len(state.history) % 3 == 0:
            other = state.determinize(seat, rng)
            assert heuristic.action_values(other, seat) == heuristic.action_values(state, seat)
            checked += 1
        state.apply(seat, bots[seat].choose(state, seat))
    assert checked > 20


# --- clear decisions -----------------------------------------------------------------------------
def test_sw_5_5_prefers_the_free_chain_build_over_paying() -> None:
    """Temple is free through Altar (3 VP); Statue (4 VP) costs 6 coins to the neighbours."""
    s = new(3, ["giza", "rhodes", "olympia"], age=2)
    build(s, 0, "altar")
    build(s, 1, "ore_vein")  # LEFT(0) sells O O, RIGHT(0) sells W: Statue = W + O×2 for 6
    coins(s, 0, 6)
    hand(s, 0, "temple", "statue", "statue", "statue", "statue", "statue", "statue")
    legal = s.legal_actions(0)
    assert act("build", "statue") in legal
    assert act("stage", "temple") not in legal  # Giza A stage 1 (S×2) is out of reach
    assert _choose(s, 0) == act("build", "temple")


def test_sw_12_6_completes_a_science_set() -> None:
    """With a compass and a gear, the tablet adds 1 + 7 points: better than Pawnshop's 3 VP."""
    s = new(3, ["giza", "rhodes", "olympia"], turn=2)
    build(s, 0, "apothecary", "workshop", "press_age1")
    hand(s, 0, "scriptorium", "pawnshop", "pawnshop", "pawnshop", "pawnshop", "pawnshop")
    assert act("build", "pawnshop") in s.legal_actions(0)
    assert _choose(s, 0) == act("build", "scriptorium")


def test_sw_11_3_takes_the_decisive_shields_at_the_last_conflict() -> None:
    """Age III, last step: 3 more shields turn two defeats into two victories (+12 VP)."""
    s = new(3, ["giza", "rhodes", "olympia"], age=3, turn=6)
    build(s, 0, "stone_pit", "foundry", "ore_vein", "lumber_yard", "brickyard", "barracks")
    build(s, 0, "stockade")
    build(s, 1, "walls")
    build(s, 2, "stables", "guard_tower")
    assert [c.shields for c in s.cities] == [2, 2, 3]
    hand(s, 0, "fortifications", "gardens")
    assert act("build", "gardens") in s.legal_actions(0)
    assert _choose(s, 0) == act("build", "fortifications")


def test_sw_4_6_discards_a_worthless_card_for_coins() -> None:
    """Last step of the game: Workers Guild scores 0 (no brown next door), 3 coins give +1 VP."""
    s = new(3, ["giza", "rhodes", "olympia"], age=3, turn=6)
    build(s, 0, "lumber_yard", "clay_pool", "foundry")
    coins(s, 0, 3)
    hand(s, 0, "workers_guild", "workers_guild")
    legal = s.legal_actions(0)
    assert act("build", "workers_guild") in legal
    assert act("stage", "workers_guild") not in legal
    assert _choose(s, 0) == act("discard", "workers_guild")


def test_sw_4_6_builds_rather_than_discards_when_the_card_scores() -> None:
    """Same position with Gardens (5 VP, own production): building beats 3 coins."""
    s = new(3, ["giza", "rhodes", "olympia"], age=3, turn=6)
    build(s, 0, "lumber_yard", "clay_pool", "brickyard")
    coins(s, 0, 3)
    hand(s, 0, "gardens", "workers_guild")
    assert _choose(s, 0) == act("build", "gardens")


def test_sw_7_6_pays_the_cheapest_option() -> None:
    """Stockade needs W: 2 coins from LEFT or 1 from RIGHT through East Trading Post."""
    s = new(3, ["giza", "olympia", "rhodes"])
    build(s, 0, "east_trading_post")
    build(s, 2, "lumber_yard")
    hand(s, 0, "stockade", "stockade", "stockade", "stockade", "stockade", "stockade", "stockade")
    s.apply(0, act("build", "stockade"))
    assert s.legal_actions(0) == sorted([pay(2, 0), pay(0, 1)])
    assert _choose(s, 0) == pay(0, 1)


@pytest.mark.parametrize("leader", [1, 2])
def test_sw_7_8_equal_prices_pay_the_opponent_further_behind(leader: int) -> None:
    """Both neighbours sell W for 2; the one with more VP on the table is not paid."""
    s = new(3, ["giza", "olympia", "rhodes"])
    build(s, 2, "lumber_yard")
    build(s, leader, "pawnshop", "baths", "theater")
    hand(s, 0, "stockade", "stockade", "stockade", "stockade", "stockade", "stockade", "stockade")
    s.apply(0, act("build", "stockade"))
    assert s.legal_actions(0) == sorted([pay(2, 0), pay(0, 2)])
    left, _ = decode_pay(_choose(s, 0))
    paid = s.left(0) if left else s.right(0)
    assert paid != leader


@pytest.mark.parametrize("controller", [1, 2])
def test_sw_14_4_free_city_buys_from_its_controller(controller: int) -> None:
    """The Free City needs W, sold by both players for 2: the controller pays itself."""
    s = new(2, ["giza", "rhodes", "ephesus"])
    build(s, 1, "lumber_yard")
    build(s, 2, "lumber_yard")
    s.controller = controller
    seat = s.seat_of(controller)
    hand(s, controller, "stockade", "stockade", "altar", "altar", "altar", "altar", "altar")
    s.apply(seat, act("discard", "altar"))  # the controller's own city first
    assert s.current_city(seat) == 0
    s.apply(seat, act("build", "stockade"))
    assert s.legal_actions(seat) == sorted([pay(2, 0), pay(0, 2)])
    left, _ = decode_pay(_choose(s, seat))
    assert (s.left(0) if left else s.right(0)) == controller


def test_sw_10_11_halikarnassus_takes_the_best_card_from_the_pile() -> None:
    """Age III Halikarnassus build: Palace (8 VP) rather than a Lumber Yard or nothing."""
    s = new(3, ["halikarnassus", "rhodes", "olympia"], age=3, turn=6)
    for t in ("lumber_yard", "palace", "altar"):
        s.discard.append(card(t))
        s.discard_known.append(-1)
    s.phase = HALI_PHASE
    s.hali_city = 0
    s.needs = [True, False, False]
    s._legal.clear()
    s._plans = None
    assert _choose(s, 0) == act("hali", "palace")


# --- evaluation ----------------------------------------------------------------------------------
def test_evaluate_is_a_distribution_over_seats() -> None:
    for players in (2, 4, 7):
        state: State = GAME.new_game(players, 5)
        bots = [make_bot("heuristic", i) for i in range(players)]
        steps = 0
        while not state.is_terminal():
            if steps % 10 == 0:
                values = [heuristic.evaluate(state, s) for s in range(players)]
                assert all(0.0 <= v <= 1.0 for v in values)
                assert math.isclose(sum(values), 1.0)
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state, seat))
            steps += 1
        final = [heuristic.evaluate(state, s) for s in range(players)]
        assert final == list(state.result().rewards())


def test_evaluate_even_start_is_one_over_players() -> None:
    s = new(4, BOARDS7[:4])
    assert all(math.isclose(heuristic.evaluate(s, seat), 0.25) for seat in range(4))


def test_sw_12_3_evaluate_rises_with_the_treasury() -> None:
    s = new(4, BOARDS7[:4], age=3, turn=3)
    before = [heuristic.evaluate(s, seat) for seat in range(4)]
    coins(s, 2, 30)  # +9 VP of treasury for seat 2
    after = [heuristic.evaluate(s, seat) for seat in range(4)]
    assert after[2] > before[2] + 0.3
    assert all(after[i] < before[i] for i in (0, 1, 3))


def test_sw_11_evaluate_counts_the_coming_conflicts() -> None:
    """Before the Age III conflicts, more shields than both neighbours is worth a lot."""
    s = new(3, BOARDS7[:3], age=3, turn=6)
    build(s, 1, "fortifications", "walls")
    values = [heuristic.evaluate(s, seat) for seat in range(3)]
    assert values[1] > 0.6
    assert math.isclose(values[0], values[2])


def test_action_values_cover_exactly_the_legal_actions() -> None:
    state = GAME.new_game(5, 9)
    assert isinstance(state, SevenWondersState)
    for seat in range(5):
        values = heuristic.action_values(state, seat)
        assert sorted(values) == state.legal_actions(seat)
        assert all(math.isfinite(v) for v in values.values())
    assert heuristic.action_values(state.copy(), 0) == heuristic.action_values(state, 0)


# --- playout policy (the ISMCTS hook) ------------------------------------------------------------
def _decisions(players: int, seed: int) -> list[tuple[SevenWondersState, int]]:
    """Every decision (state copy, seat) of a heuristic game."""
    state = GAME.new_game(players, seed)
    assert isinstance(state, SevenWondersState)
    out = []
    while not state.is_terminal():
        for seat in state.to_move():
            if state.legal_actions(seat):
                out.append((state.copy(), seat))
                state.apply(seat, _choose(state, seat))
    return out


@pytest.mark.parametrize("players", [2, 4, 7])
def test_sw_8_8_playout_policy_is_legal_and_deterministic(players: int) -> None:
    for state, seat in _decisions(players, 40 + players):
        a = heuristic.playout_policy(state, seat, Rng(3))
        assert a in state.legal_actions(seat)
        assert a == heuristic.playout_policy(state, seat, Rng(3))


def test_sw_3_6_playout_policy_equals_choose_when_no_hand_is_passed() -> None:
    """The playout policy only leaves out the denial term (the card's value to the player who
    receives the hand, SW-3.5). On an age's last turn no hand is passed on (SW-3.6), so it makes
    exactly the heuristic's choice; on other turns it differs only sometimes."""
    last = other = differ = 0
    for state, seat in _decisions(4, 11) + _decisions(5, 12):
        if len(state.legal_actions(seat)) < 2:
            continue
        same = heuristic.playout_policy(state, seat, Rng(1)) == heuristic.choose(
            state, seat, Rng(1)
        )
        if state.turn == 6:
            last += 1
            assert same
        else:
            other += 1
            differ += not same
    assert last >= 8
    assert other >= 50
    assert 0 < differ < 0.3 * other
