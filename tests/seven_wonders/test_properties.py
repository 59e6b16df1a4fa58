"""Property tests of the 7 Wonders engine under random legal play (hypothesis, fixed derandomized
examples): invariants at every step, determinism, serialization, copying and illegal input.

Rule ids: SW-2.3/SW-2.4 (decks and guilds; ``invariants.check`` after every decision),
SW-4.1 (one action per card), SW-7.10 (coins never negative), SW-12/SW-13 (scoring and
ranking), SW-2.9 (reproducibility from the seed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable import games
from civtable.core.errors import IllegalActionError, NotYourTurnError, SerializationError
from civtable.core.replay import Replay
from civtable.core.rng import Rng
from civtable.games.seven_wonders import invariants
from civtable.games.seven_wonders.actions import ACTION_SPACE, STAGE, kind_of
from civtable.games.seven_wonders.scoring import CATEGORIES
from civtable.games.seven_wonders.state import EXTRA, HALI_PHASE, SevenWondersState

GAME = games.get("seven-wonders")
SIZE = GAME.action_space_size(3)
MAX_DECISIONS = 1500  # far above any real game (7 cities x 3 ages x 6 turns x a few decisions)

SETTINGS = settings(max_examples=50, derandomize=True, database=None, deadline=None)

players_st = st.integers(min_value=2, max_value=7)
seed_st = st.integers(min_value=0, max_value=2**63)
sides_st = st.sampled_from(["A", "B", "random"])
policy_st = st.integers(min_value=0, max_value=2**32)


def new_game(players: int, seed: int, sides: str = "random") -> SevenWondersState:
    """A fresh game (typed as the concrete state)."""
    state = GAME.new_game(players, seed, {"sides": sides})
    assert isinstance(state, SevenWondersState)
    return state


# --- invariants -----------------------------------------------------------------------------------
def check_invariants(state: SevenWondersState) -> None:
    """Everything that must hold after any sequence of legal decisions: the game's invariants
    module (SW-2.2 .. SW-2.4 every card in one place, SW-4.3, SW-4.5, SW-7.10 coins never
    negative, SW-11 tokens, hand sizes) and the decision bookkeeping."""
    problems = invariants.check(state)
    assert not problems, problems
    to_move = state.to_move()
    assert list(to_move) == sorted(set(to_move))
    assert set(to_move) <= set(range(state.players))
    assert state.is_terminal() == (not to_move)
    for seat in range(state.players):
        legal = state.legal_actions(seat)
        assert legal == sorted(set(legal))
        assert bool(legal) == (seat in to_move) == state.owes_decision(seat)
        for action in legal:
            assert 0 <= action < SIZE, "SW-4.1: every action id fits the action space"
            label = state.describe(seat, action)
            assert isinstance(label, str)
            assert label
            assert not label.startswith("unknown")


# --- random play ----------------------------------------------------------------------------------
Hook = Callable[[SevenWondersState, Rng], None]


def random_step(state: SevenWondersState, rng: Rng, stage_bias: bool = False) -> tuple[int, int]:
    """One random legal decision of a random seat that owes one; returns it."""
    seat = rng.choice(state.to_move())
    legal = state.legal_actions(seat)
    stages = [a for a in legal if kind_of(a) == "stage"]
    if stage_bias and stages and rng.randbelow(2):
        action = rng.choice(stages)
    else:
        action = rng.choice(legal)
    state.apply(seat, action)
    return seat, action


def play_random(
    state: SevenWondersState,
    rng: Rng,
    *,
    check: bool = True,
    hook: Hook | None = None,
    stage_bias: bool = False,
    limit: int = MAX_DECISIONS,
) -> list[str]:
    """Random legal play until the end (or ``limit`` decisions); returns the hashes seen."""
    hashes = [state.state_hash()]
    for _ in range(limit):
        if state.is_terminal():
            break
        if hook is not None:
            hook(state, rng)
        random_step(state, rng, stage_bias)
        if check:
            check_invariants(state)
        hashes.append(state.state_hash())
    return hashes


# --- random legal play ----------------------------------------------------------------------------
@SETTINGS
@given(players=players_st, seed=seed_st, sides=sides_st, policy=policy_st)
def test_sw_2_4_random_play_ends_and_keeps_invariants(
    players: int, seed: int, sides: str, policy: int
) -> None:
    state = new_game(players, seed, sides)
    check_invariants(state)
    play_random(state, Rng(policy))
    assert state.is_terminal(), "SW-3.8: the game ends after Age III"
    assert state.age == 3
    assert all(not hand for hand in state.hands)  # every dealt card was used (SW-3.6)


@pytest.mark.parametrize(
    ("players", "boards"),
    [
        (3, ["babylon", "halikarnassus", "olympia"]),
        (2, ["halikarnassus", "babylon", "olympia"]),  # the Free City holds Halikarnassus
        (2, ["babylon", "olympia", "halikarnassus"]),  # the Free City holds Babylon
        (7, ["giza", "rhodes", "babylon", "olympia", "ephesus", "alexandria", "halikarnassus"]),
    ],
)
def test_sw_8_4_sw_8_5_special_steps_keep_invariants(players: int, boards: list[str]) -> None:
    """Babylon B's extra step and Halikarnassus' discard build are reached by stage-heavy random
    play, with every invariant checked at each decision."""
    phases: set[int] = set()

    def record(state: SevenWondersState, rng: Rng) -> None:
        phases.add(state.phase)

    for policy in range(12):
        state = GAME.new_game(players, policy, {"boards": boards, "sides": "B"})
        assert isinstance(state, SevenWondersState)
        play_random(state, Rng(policy), hook=record, stage_bias=True)
        assert state.is_terminal()
    assert EXTRA in phases
    assert HALI_PHASE in phases


@SETTINGS
@given(players=players_st, seed=seed_st, sides=sides_st, policy=policy_st)
def test_sw_12_sw_13_result_breakdown_and_ranking(
    players: int, seed: int, sides: str, policy: int
) -> None:
    state = new_game(players, seed, sides)
    rng = Rng(policy)
    midgame: list[Any] = []
    play_random(
        state,
        rng,
        check=False,
        hook=lambda s, r: midgame.append(s.result()) if r.randbelow(40) == 0 else None,
    )
    final = state.result()
    for result in [*midgame, final]:
        assert len(result.scores) == players
        assert result.categories == CATEGORIES
        for s in range(players):
            breakdown = result.breakdown[s]
            assert tuple(breakdown) == CATEGORIES  # SW-12.1 order
            assert sum(breakdown.values()) == result.scores[s]
            city = state.cities[state.city_of(s)] if result is final else None
            if city is not None:
                assert breakdown["treasury"] == city.coins // 3  # SW-12.3
                assert breakdown["military"] == sum(city.tokens)  # SW-12.2
                assert result.tiebreak[s] == city.coins  # SW-13.2
        keys = [(result.scores[s], result.tiebreak[s]) for s in range(players)]
        for a in range(players):
            assert result.ranking[a] == sum(k > keys[a] for k in keys)  # SW-13.1/13.2
            for b in range(players):
                assert (keys[a] == keys[b]) == (result.ranking[a] == result.ranking[b])
        assert result.winners == tuple(s for s in range(players) if result.ranking[s] == 0)
        assert result.winners
        assert sum(result.rewards()) == pytest.approx(1.0)  # SW-13.3 shared victory
        assert ("free_city" in result.extra) == (players == 2)  # SW-14.9
    doc = state.view(None)["result"]
    assert doc == json.loads(json.dumps(final.to_json()))


# --- determinism ----------------------------------------------------------------------------------
@SETTINGS
@given(players=players_st, seed=seed_st, sides=sides_st, policy=policy_st)
def test_sw_2_9_same_seed_same_actions_same_hashes(
    players: int, seed: int, sides: str, policy: int
) -> None:
    first = new_game(players, seed, sides)
    hashes = play_random(first, Rng(policy), check=False)
    second = new_game(players, seed, sides)
    assert play_random(second, Rng(policy), check=False) == hashes
    assert second.history == first.history
    assert second.result() == first.result()
    rebuilt = GAME.replay(players, seed, first.history, first.options)
    assert rebuilt.state_hash() == hashes[-1]
    replay = Replay.from_json(json.loads(json.dumps(Replay.of(first).to_json())))
    assert replay.final_state().state_hash() == hashes[-1]
    # A prefix of the log rebuilds the matching intermediate position.
    cut = len(first.history) // 3
    assert (
        GAME.replay(players, seed, first.history[:cut], first.options).state_hash() == (hashes[cut])
    )


def test_sw_2_9_different_seeds_give_different_games() -> None:
    digests = {new_game(4, seed).state_hash() for seed in range(30)}
    assert len(digests) == 30


def test_sw_2_9_replay_of_an_illegal_log_names_the_step() -> None:
    state = new_game(3, 8)
    rng = Rng(8)
    for _ in range(5):
        random_step(state, rng)
    log = [*state.history, (0, ACTION_SPACE + 3)]
    with pytest.raises(IllegalActionError, match=r"replay step 5\b"):
        GAME.replay(3, 8, log, state.options)


# --- serialization --------------------------------------------------------------------------------
@SETTINGS
@given(players=players_st, seed=seed_st, sides=sides_st, policy=policy_st)
def test_json_round_trip_at_random_points_continues_identically(
    players: int, seed: int, sides: str, policy: int
) -> None:
    state = new_game(players, seed, sides)
    rng = Rng(policy)
    checked = 0
    while not state.is_terminal():
        if rng.randbelow(25) == 0:
            doc = json.loads(json.dumps(state.to_json()))  # through real JSON text
            twin = GAME.state_from_json(doc)
            assert isinstance(twin, SevenWondersState)
            assert twin.state_hash() == state.state_hash()
            assert twin.to_json() == doc
            assert twin.history == state.history
            for seat in range(players):
                assert twin.legal_actions(seat) == state.legal_actions(seat)
                assert twin.view(seat) == state.view(seat)
            # Both continue identically for a while (same decisions, same randomness).
            a, b = state.copy(), twin
            ra, rb = Rng(checked), Rng(checked)
            for _ in range(40):
                if a.is_terminal():
                    break
                assert random_step(a, ra) == random_step(b, rb)
                assert a.state_hash() == b.state_hash()
            assert a.is_terminal() == b.is_terminal()
            checked += 1
        random_step(state, rng)
    # The final position round-trips as well.
    doc = json.loads(json.dumps(state.to_json()))
    assert GAME.state_from_json(doc).state_hash() == state.state_hash()
    assert GAME.state_from_json(doc).result() == state.result()


def _valid_doc() -> dict[str, Any]:
    state = new_game(3, 4)
    rng = Rng(4)
    for _ in range(30):
        random_step(state, rng)
    return state.to_json()


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("cities"),
        lambda d: d.pop("hands"),
        lambda d: d.pop("rng"),
        lambda d: d.update(phase="lunch"),
        lambda d: d.update(rng=-5),
        lambda d: d.update(rng=2**64),
        lambda d: d.update(players="three"),
        lambda d: d["hands"][0].append("no_such_card"),
        lambda d: d["discard"].append("lumber_yard"),  # discard_known no longer matches
        lambda d: d["hands"].pop(),
        lambda d: d["cities"][0].update(board="atlantis"),
        lambda d: d["cities"][0].update(side="C"),
        lambda d: d["cities"][1].update(structures=["no_such_card"]),
        lambda d: d.update(commits=[[1, "no_such_card", 0, 0, 0], None, None]),
        lambda d: d.update(history=[[0]]),
    ],
)
def test_state_from_json_rejects_malformed_documents(mutate: Callable[[Any], object]) -> None:
    doc = _valid_doc()
    GAME.state_from_json(json.loads(json.dumps(doc)))  # the unmutated document is valid
    mutate(doc)
    with pytest.raises(SerializationError):
        GAME.state_from_json(doc)


@pytest.mark.parametrize("doc", [None, [], "state", 5])
def test_state_from_json_rejects_non_objects(doc: Any) -> None:
    with pytest.raises(SerializationError):
        GAME.state_from_json(doc)


# --- copying --------------------------------------------------------------------------------------
@SETTINGS
@given(players=players_st, seed=seed_st, sides=sides_st, policy=policy_st)
def test_copy_is_independent(players: int, seed: int, sides: str, policy: int) -> None:
    state = new_game(players, seed, sides)
    rng = Rng(policy)
    while not state.is_terminal():
        if rng.randbelow(20) == 0:
            before, history = state.state_hash(), list(state.history)
            legal = {s: list(state.legal_actions(s)) for s in range(players)}
            twin = state.copy()
            assert twin.state_hash() == before
            # Play the copy to the end, then scribble over its containers.
            play_random(twin, Rng(rng.next_u64()), check=False)
            for city in twin.cities:
                city.coins += 5
                city.built.append(0)
                city.stage_cards.append(0)
                city.tokens.append(-1)
                city.science[0] += 1
                city.colors[0] += 1
            for hand in twin.hands:
                hand.append(1)
            twin.discard.append(2)
            twin.discard_known.append(0)
            twin.needs[0] = not twin.needs[0]
            twin.commits[0] = (1, 3, 0, 0, 0)
            twin.rng.next_u64()
            twin.history.append((0, 0))
            assert state.state_hash() == before
            assert state.history == history
            assert {s: state.legal_actions(s) for s in range(players)} == legal
            check_invariants(state)
        random_step(state, rng)


# --- illegal input --------------------------------------------------------------------------------
def check_rejected(
    state: SevenWondersState, seat: Any, action: Any, error: type[IllegalActionError]
) -> None:
    """``apply`` raises ``error`` (a typed civtable error) and changes nothing."""
    before, history = state.state_hash(), list(state.history)
    to_move = state.to_move()
    with pytest.raises(error) as info:
        state.apply(seat, action)
    assert type(info.value) is error
    assert str(info.value)
    assert state.state_hash() == before
    assert state.history == history
    assert state.to_move() == to_move


def check_illegal_inputs(state: SevenWondersState, rng: Rng) -> None:
    """Try every kind of bad input on the current position."""
    players = state.players
    to_move = state.to_move()
    seat = rng.choice(to_move)
    legal = state.legal_actions(seat)
    illegal = [a for a in range(SIZE) if a not in legal]
    for action in rng.sample(illegal, 5):
        check_rejected(state, seat, action, IllegalActionError)  # in range, not legal now
    for action in (-1, SIZE, SIZE + 1, -SIZE, 10**9):
        check_rejected(state, seat, action, IllegalActionError)  # out of range
    for bad_seat in (-1, players, players + 3):
        check_rejected(state, bad_seat, legal[0], IllegalActionError)  # no such seat
    check_rejected(state, True, legal[0], IllegalActionError)  # a bool is not a seat
    check_rejected(state, str(seat), legal[0], IllegalActionError)
    check_rejected(state, float(seat), legal[0], IllegalActionError)
    check_rejected(state, seat, True, IllegalActionError)  # bool action
    check_rejected(state, seat, False, IllegalActionError)
    check_rejected(state, seat, str(legal[0]), IllegalActionError)  # str action
    check_rejected(state, seat, float(legal[0]), IllegalActionError)
    check_rejected(state, seat, None, IllegalActionError)
    for idle in set(range(players)) - set(to_move):
        check_rejected(state, idle, legal[0], NotYourTurnError)  # seat not to move


@SETTINGS
@given(players=players_st, seed=seed_st, sides=sides_st, policy=policy_st)
def test_illegal_actions_raise_typed_errors_and_change_nothing(
    players: int, seed: int, sides: str, policy: int
) -> None:
    state = new_game(players, seed, sides)
    rng = Rng(policy)
    idle_checked = 0

    def maybe_check(s: SevenWondersState, r: Rng) -> None:
        nonlocal idle_checked
        if r.randbelow(15) == 0:
            check_illegal_inputs(s, r)
            idle_checked += len(set(range(s.players)) - set(s.to_move()))

    play_random(state, rng, check=False, hook=maybe_check)
    assert state.is_terminal()
    for seat in range(players):  # after the game ends nobody may act
        assert state.legal_actions(seat) == []
        check_rejected(state, seat, 0, NotYourTurnError)
        check_rejected(state, seat, STAGE, NotYourTurnError)
    check_rejected(state, players, 0, IllegalActionError)


def test_not_your_turn_after_committing_in_a_simultaneous_step() -> None:
    """SW-3.4/SW-8.1: a seat that committed owes nothing until the step resolves."""
    state = new_game(4, 21)
    seat = 2
    action = next(a for a in state.legal_actions(seat) if kind_of(a) == "discard")
    state.apply(seat, action)
    assert seat not in state.to_move()
    assert state.legal_actions(seat) == []
    check_rejected(state, seat, state.legal_actions(0)[0], NotYourTurnError)
    assert issubclass(NotYourTurnError, IllegalActionError)
