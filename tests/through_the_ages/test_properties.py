"""Hypothesis invariants of random legal play (TTA-1.3 cube counts, TTA-1.9 limits, TTA-4.4 end,
TTA-14 breakdown, determinism, JSON round trip, illegal actions), and the component checks of
:mod:`civtable.games.through_the_ages.invariants` after every move of every mode and variant."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable.core.errors import IllegalActionError, NotYourTurnError, SerializationError
from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages.actions import RESIGN
from civtable.games.through_the_ages.catalog import BLUE, CARDS, YELLOW
from civtable.games.through_the_ages.invariants import check as components
from civtable.games.through_the_ages.rules import board, effects
from civtable.games.through_the_ages.state import TTAState

FIRST = {"mode": "first"}  # these tests are of the first game (TTA-14)

SETTINGS = settings(max_examples=12, derandomize=True, database=None, deadline=None)
players_st = st.integers(min_value=2, max_value=4)
seed_st = st.integers(min_value=0, max_value=10_000)


def play(state: TTAState, rng: Rng, limit: int = 5000, check: bool = False) -> TTAState:
    """Random legal play to the end (or ``limit`` steps), checking invariants if asked."""
    for _ in range(limit):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        assert legal, "a seat to move always has a legal action"
        state.apply(seat, rng.choice(legal))
        if check:
            invariants(state)
    return state


def invariants(state: TTAState) -> None:
    """Cube conservation and non-negative stocks; every component check."""
    assert components(state) == []
    for civ in state.civs:
        extra_blue = sum(c.in_play[BLUE] for c in effects.active_cards(civ))
        # 16 cubes plus those cards in play add; events may return some to the box (TTA-12)
        assert civ.blue + sum(civ.cubes) + max(0, civ.wip_stages) <= 16 + extra_blue
        assert min(civ.cubes) >= 0
        assert civ.blue >= 0
        assert civ.yellow >= 0
        assert civ.pool >= 0
        assert min(civ.workers) >= 0
        assert civ.ca >= 0
        assert civ.ma >= 0
        assert civ.science >= 0
        assert civ.culture >= 0
        assert 0 <= board.ratings(civ)[3] <= 8
        # TTA-1.3: 25 yellow cubes minus the ones returned to the box at age ends, plus the
        # ones colonies add (TTA-11.6) and events move between civilizations (TTA-12)
        extra_yellow = sum(max(0, c.in_play[YELLOW]) for c in effects.active_cards(civ))
        moved = sum(1 for e in state.past if CARDS[e].id == "uncertain_borders")
        assert civ.yellow + civ.pool + sum(civ.workers) <= 25 + extra_yellow + moved
    assert sum(1 for c in state.row if c >= 0) <= 13


@SETTINGS
@given(players=players_st, seed=seed_st)
def test_tta_4_4_random_play_ends_and_keeps_invariants(players: int, seed: int) -> None:
    s = play(GAME.new_game(players, seed, FIRST), Rng(seed), check=True)
    assert s.is_terminal()
    assert s.age == 3
    assert s.current == (s.first - 1) % players  # the player right of the first player
    assert s.round == s.last_round


#: the modes and variants (the game's presets, TTA-2, TTA-14, TTA-15)
PRESETS = tuple(GAME.option_presets)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=4, derandomize=True, database=None, deadline=None)
@given(players=players_st, seed=seed_st)
def test_issue_20_components_are_conserved_after_every_move(
    preset: str, players: int, seed: int
) -> None:
    """Cubes, workers and every card of every deck stay in exactly one place after every
    apply (invariants.check), with a resignation now and then at 3-4 players (TTA-6.8)."""
    s = GAME.new_game(players, seed, GAME.option_presets[preset])
    rng = Rng(seed)
    assert components(s) == []
    while not s.is_terminal():
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        calm = [a for a in legal if a != RESIGN] or legal
        pick = legal if players > 2 and rng.randbelow(400) == 0 else calm
        s.apply(seat, pick[rng.randbelow(len(pick))])
        assert components(s) == [], (preset, players, seed, len(s.history))


@SETTINGS
@given(players=players_st, seed=seed_st)
def test_tta_14_result_breakdown_sums(players: int, seed: int) -> None:
    s = play(GAME.new_game(players, seed, FIRST), Rng(seed + 1))
    r = s.result()
    for seat in range(players):
        assert sum(r.breakdown[seat].values()) == r.scores[seat]
        assert set(r.breakdown[seat]) == set(r.categories)
    best = max(r.scores)
    assert set(r.winners) == {i for i, x in enumerate(r.scores) if x == best}


@SETTINGS
@given(players=players_st, seed=seed_st)
def test_same_seed_same_actions_same_hashes(players: int, seed: int) -> None:
    a = play(GAME.new_game(players, seed, FIRST), Rng(7), limit=300)
    b = GAME.replay(players, seed, a.history, FIRST)
    assert a.state_hash() == b.state_hash()


def test_different_seeds_give_different_games() -> None:
    assert GAME.new_game(3, 1, FIRST).state_hash() != GAME.new_game(3, 2, FIRST).state_hash()


@SETTINGS
@given(players=players_st, seed=seed_st, cut=st.integers(min_value=0, max_value=400))
def test_json_round_trip_continues_identically(players: int, seed: int, cut: int) -> None:
    s = play(GAME.new_game(players, seed, FIRST), Rng(seed), limit=cut)
    doc = json.loads(json.dumps(s.to_json()))
    t = GAME.state_from_json(doc)
    assert t.state_hash() == s.state_hash()
    assert t.to_json() == s.to_json()
    play(s, Rng(3), limit=200)
    play(t, Rng(3), limit=200)
    assert t.state_hash() == s.state_hash()


def test_state_from_json_rejects_malformed_documents() -> None:
    doc = GAME.new_game(2, 0, FIRST).to_json()
    del doc["civs"]
    with pytest.raises(SerializationError):
        GAME.state_from_json(doc)


@SETTINGS
@given(players=players_st, seed=seed_st, cut=st.integers(min_value=0, max_value=300))
def test_copy_is_independent(players: int, seed: int, cut: int) -> None:
    s = play(GAME.new_game(players, seed, FIRST), Rng(seed), limit=cut)
    h = s.state_hash()
    c = s.copy()
    assert c.to_json() == s.to_json()
    play(c, Rng(5), limit=100)
    assert s.state_hash() == h


@SETTINGS
@given(players=players_st, seed=seed_st, cut=st.integers(min_value=0, max_value=300))
def test_illegal_actions_raise_typed_errors_and_change_nothing(
    players: int, seed: int, cut: int
) -> None:
    s = play(GAME.new_game(players, seed, FIRST), Rng(seed), limit=cut)
    if s.is_terminal():
        return
    h = s.state_hash()
    seat = s.to_move()[0]
    legal = set(s.legal_actions(seat))
    bad = next(a for a in range(GAME.action_space_size(players)) if a not in legal)
    with pytest.raises(IllegalActionError):
        s.apply(seat, bad)
    with pytest.raises(IllegalActionError):
        s.apply(seat, GAME.action_space_size(players))
    with pytest.raises(IllegalActionError):
        s.apply(seat, "1")  # type: ignore[arg-type]
    with pytest.raises(NotYourTurnError):
        s.apply((seat + 1) % players, next(iter(legal)))
    assert s.state_hash() == h


def test_action_ids_stay_below_the_space() -> None:
    s = play(GAME.new_game(4, 9, FIRST), Rng(9), limit=400)
    size = GAME.action_space_size(4)
    assert all(0 <= a < size for _, a in s.history)
    assert all(CARDS[c].deck == "civil" for civ in s.civs for c in civ.hand)


def reference_legal(state: TTAState) -> list[int]:
    """The normal Action Phase's legal actions by brute force over every id (TTA-7)."""
    from civtable.games.through_the_ages import actions as ax
    from civtable.games.through_the_ages.rules import civil

    civ = state.civs[state.current]
    out = [ax.END]
    out += [ax.TAKE + i for i in range(13) if civil.can_take(state, civ, i)]
    if state.round == 1:
        return out
    if civil.can_pop(civ, False):
        out.append(ax.POP)
    out += [ax.BUILD + b for b in range(44) if civil.can_build(civ, b, False, 0)]
    for k in range(11):
        for lo, hi in ax.PAIRS:
            if civil.can_upgrade(civ, k, lo, hi, False, 0):
                out.append(ax.upgrade_id(k, lo, hi))
    for b in range(44):
        if civ.workers[b] and (civ.ma + civ.temp_ma if b // 4 >= 7 else civ.ca) >= 1:
            out.append(ax.DESTROY + b)
    return out


@SETTINGS
@given(players=players_st, seed=seed_st)
def test_tta_7_fast_legal_actions_match_the_reference(players: int, seed: int) -> None:
    from civtable.games.through_the_ages import actions as ax
    from civtable.games.through_the_ages.state import P_NONE

    s = GAME.new_game(players, seed, FIRST)
    rng = Rng(seed)
    checked = 0
    while not s.is_terminal():
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        if s.pending[0] == P_NONE:
            core = [a for a in legal if a < ax.PLAY]
            assert core == sorted(reference_legal(s))
            checked += 1
        s.apply(seat, rng.choice(legal))
    assert checked > 10


def test_log_is_kept_out_of_the_hash_and_private_discards_carry_the_seat() -> None:
    from civtable.games.through_the_ages import actions as ax

    a = GAME.new_game(3, 4, FIRST)
    b = GAME.new_game(3, 4, FIRST)
    a.log = []
    play(a, Rng(4), limit=200)
    play(b, Rng(4), limit=200)
    assert a.state_hash() == b.state_hash()
    assert a.log
    private = [e for e in a.log if e["kind"] in ("discard_military", "event_discard")]
    assert len(private) == sum(1 for _, x in a.history if ax.DISCARD <= x < ax.HAMMURABI) > 0
    assert all("seat" in e for e in private)
    assert GAME.state_from_json(a.to_json()).log == a.log
