"""The fast paths of search (ISMCTS, determinization, the static evaluation) against plain
spellings of the same rules: determinization (SW-3.9, re-dealing what a seat cannot see,
computed once per position and seat) and the score without the treasury (SW-12) that the
evaluation projects, at decisions of random games with 2 to 7 players."""

from __future__ import annotations

import pytest

from civtable import games
from civtable.core.rng import Rng
from civtable.games.seven_wonders import heuristic, scoring, view
from civtable.games.seven_wonders.actions import DISCARD, STAGE
from civtable.games.seven_wonders.catalog import CARDS, PURPLE, Per
from civtable.games.seven_wonders.rules import turn
from civtable.games.seven_wonders.state import SevenWondersState

GAME = games.get("seven-wonders")


def _fresh_determinize(state: SevenWondersState, seat: int, rng: Rng) -> SevenWondersState:
    """``determinize`` on a copy of the position, which holds no stored plan: the plan is made
    anew for this call. (What a determinization may deal is tested by rule in
    ``test_determinize_memory.py``; here, that a stored plan gives what a fresh one gives.)"""
    twin = state.copy()
    assert twin._plans is None
    return view.determinize(twin, seat, rng)


def _positions(players: int, seed: int, sides: str = "random") -> list[SevenWondersState]:
    """Every position of a random game (seats committing one by one, so many positions have
    hidden choices of other seats pending)."""
    state = GAME.new_game(players, seed, {"sides": sides})
    assert isinstance(state, SevenWondersState)
    rng = Rng(seed)
    out = []
    while not state.is_terminal():
        out.append(state.copy())
        seat = rng.choice(state.to_move())
        legal = state.legal_actions(seat)
        stages = [a for a in legal if STAGE <= a < DISCARD]
        state.apply(seat, stages[0] if stages and rng.random() < 0.4 else rng.choice(legal))
    out.append(state)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (4, 4), (5, 5), (7, 6)])
def test_sw_3_9_a_stored_plan_deals_what_a_fresh_one_deals(players: int, seed: int) -> None:
    """Same sample, same generator afterwards, for every seat, on the first call (which stores
    the plan) and the second (which uses it: a call must not change the plan); the seat's
    legal actions stored with the plan are the rules'."""
    ages, pending = set(), 0
    for i, state in enumerate(_positions(players, seed)):
        for seat in range(players):
            fast_rng, plain_rng = Rng(i * 10 + seat), Rng(i * 10 + seat)
            for _ in range(2):  # the second call uses the stored plan
                fast = state.determinize(seat, fast_rng)
                plain = _fresh_determinize(state, seat, plain_rng)
                assert fast.to_json() == plain.to_json()
                assert fast_rng.state == plain_rng.state
                for other in range(players):  # the seat's are stored with the plan
                    assert fast.legal_actions(other) == turn.legal_actions(plain, other)
        ages.add(state.age)
        pending += any(c is not None for c in state.commits)  # others' hidden choices re-made
    assert ages == {1, 2, 3}
    assert pending > 10


def test_sw_3_9_a_stored_plan_is_dropped_when_the_state_moves_on() -> None:
    state = _positions(4, 8)[9]
    seat = state.to_move()[0]
    before = state.determinize(seat, Rng(1)).to_json()
    state.apply(seat, state.legal_actions(seat)[0])
    after = state.determinize(seat, Rng(1)).to_json()
    assert after == _fresh_determinize(state, seat, Rng(1)).to_json()
    assert after != before


@pytest.mark.parametrize(("players", "seed", "sides"), [(3, 1, "B"), (4, 2, "random"), (7, 3, "B")])
def test_sw_12_points_without_treasury_equal_the_breakdown(
    players: int, seed: int, sides: str
) -> None:
    """SW-12: every category but the treasury, Olympia B's guild copy included (SW-10.10)."""
    checked = 0
    for state in _positions(players, seed, sides):
        for c in range(state.n):
            b = scoring.city_breakdown(state, c)
            assert scoring.points_without_treasury(state, c) == sum(b.values()) - b["treasury"]
            checked += b["commercial"] + b["guilds"] + b["science"]
    assert checked > 0


def _plain_count(state: SevenWondersState, c: int, per: Per, extra_purple: int = 0) -> int:
    total = 0
    for bit, i in ((1, c), (2, (c + 1) % state.n), (4, (c - 1) % state.n)):
        if per.cities & bit:
            city = state.cities[i]
            total += sum(city.colors[k] for k in range(7) if per.colors >> k & 1)
            total += city.stages if per.wonder_stages else 0
            total += city.defeats if per.defeat_tokens else 0
            total += extra_purple if bit == 1 and per.colors >> PURPLE & 1 else 0
    return total * per.amount


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (5, 7)])
def test_sw_9_7_counts_and_the_heuristics_count_bonus_equal_plain_spellings(
    players: int, seed: int
) -> None:
    """SW-9.6 .. SW-9.8 counting effects (commercial cards, guilds), and the heuristic's bonus
    of one more card of a colour for the owner's counting cards, read from a cache keyed by the
    counting cards owned."""
    pers = [CARDS[t].effect.vp_per for t in range(len(CARDS))]
    pers += [CARDS[t].effect.coins_per for t in range(len(CARDS))]
    counted = 0
    for state in _positions(players, seed, "B")[::3]:
        for c in range(state.n):
            for per in pers:
                if per is not None:
                    assert turn.count(state, c, per) == _plain_count(state, c, per)
                    assert turn.count(state, c, per, 1) == _plain_count(state, c, per, 1)
            ctx = heuristic._Ctx(state, c, c)
            bonus = [heuristic._owned_count_bonus(ctx, k) for k in range(7)]
            assert bonus == list(heuristic._count_bonus(state.cities[c].built)[:7])
            counted += sum(bonus) > 0
    assert counted > 0
