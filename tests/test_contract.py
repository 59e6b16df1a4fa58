"""The core contract, checked on every registered game at every player count.

Random legal play from a fixed seed to the end, with, along the way: who moves and what is legal
agree with the view; the view keys every client relies on (docs/adding-a-game.md); the view does
not change when what the seat cannot see is re-dealt (so it cannot show any of it); copies are
independent; JSON round trips exactly; bad input is refused without changing the state; replay
reproduces the final hash; the result's breakdown sums to the scores. A game that registers itself
is covered here without any further test code.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from civtable import games
from civtable.core.api import State
from civtable.core.errors import IllegalActionError, NotYourTurnError
from civtable.core.rng import Rng

MAX_STEPS = 30_000
DEEP_CHECKS = 30  # determinize/JSON checks per game, spread over its length

CASES = [
    (game_id, players)
    for game_id in games.available()
    for players in range(games.get(game_id).min_players, games.get(game_id).max_players + 1)
]


def _strip(view: Any) -> Any:
    """A view without the event log (not kept by re-dealt copies)."""
    if isinstance(view, dict):
        return {k: v for k, v in view.items() if k != "log"}
    return view


def _check_decisions(state: State, players: int, space: int) -> None:
    movers = state.to_move()
    assert list(movers) == sorted(set(movers))
    for seat in range(players):
        legal = state.legal_actions(seat)
        assert (seat in movers) == bool(legal), (seat, movers, legal)
        assert legal == sorted(set(legal))
        assert all(0 <= a < space for a in legal)


def _check_view_keys(state: State, seat: int | None) -> None:
    view = state.view(seat)
    json.dumps(view)  # JSON-ready
    assert view["game"] == state.game.id
    assert view["players"] == state.players
    assert view["seat"] == seat
    assert list(view["to_move"]) == list(state.to_move())
    if seat is not None:
        legal = state.legal_actions(seat)
        assert [a["id"] for a in view["legal"]] == legal
        assert all(isinstance(a["label"], str) and a["label"] for a in view["legal"])
        assert [a["id"] for a in state.view(seat, labels=False)["legal"]] == legal
    if state.is_terminal():
        assert view["result"]["scores"] == list(state.result().scores)


def _check_hidden(state: State, players: int, rng: Rng) -> None:
    """Re-dealing what a seat cannot see leaves that seat's view (and the public one) alone."""
    public = _strip(state.view(None, labels=False))
    for seat in range(players):
        mine = _strip(state.view(seat, labels=False))
        other = state.determinize(seat, rng)
        assert _strip(other.view(seat, labels=False)) == mine, f"seat {seat} view leaks"
        assert _strip(other.view(None, labels=False)) == public, "spectator view leaks"
        assert other.to_move() == state.to_move()


def _check_json_and_copy(state: State, game: Any) -> None:
    doc = state.to_json()
    text = json.dumps(doc)
    back = game.state_from_json(json.loads(text))
    assert back.state_hash() == state.state_hash()
    assert json.dumps(back.to_json(), sort_keys=True) == json.dumps(doc, sort_keys=True)
    if not state.is_terminal():
        before = state.state_hash()
        twin = state.copy()
        seat = twin.to_move()[0]
        twin.apply(seat, twin.legal_actions(seat)[0])
        assert state.state_hash() == before, "a copy shares mutable data with its original"


def _check_refusals(state: State, players: int, space: int) -> None:
    before = state.state_hash()
    movers = state.to_move()
    idle = [s for s in range(players) if s not in movers]
    if idle:
        with pytest.raises(NotYourTurnError):
            state.apply(idle[0], 0)
    if movers:
        seat = movers[0]
        legal = set(state.legal_actions(seat))
        bad = next((a for a in range(space) if a not in legal), None)
        for action in (bad, -1, space, "1", True):
            if action is None:
                continue
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)  # type: ignore[arg-type]
    assert state.state_hash() == before


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_contract_random_play_to_the_end(game_id: str, players: int) -> None:
    game = games.get(game_id)
    seed = 1000 + players
    state = game.new_game(players, seed)
    space = game.action_space_size(players, state.options)
    pick = random.Random(seed)
    rng = Rng(seed)
    steps = 0
    deep = 0
    every = 1
    while not state.is_terminal():
        _check_decisions(state, players, space)
        if steps % every == 0 and deep < DEEP_CHECKS:
            _check_view_keys(state, state.to_move()[0])
            _check_view_keys(state, None)
            _check_hidden(state, players, rng)
            _check_json_and_copy(state, game)
            _check_refusals(state, players, space)
            deep += 1
            every = max(1, every * 2 if deep > 8 else every + 1)
        seat = pick.choice(state.to_move())
        action = pick.choice(state.legal_actions(seat))
        assert isinstance(state.describe(seat, action), str)
        state.apply(seat, action)
        steps += 1
        assert steps < MAX_STEPS, f"{game_id}: not over after {MAX_STEPS} random moves"
    assert state.to_move() == ()
    assert all(state.legal_actions(s) == [] for s in range(players))
    for seat in [None, *range(players)]:
        _check_view_keys(state, seat)
    _check_hidden(state, players, rng)
    _check_json_and_copy(state, game)
    _check_refusals(state, players, space)

    result = state.result()
    assert len(result.scores) == len(result.ranking) == players
    for seat in range(players):
        assert sum(result.breakdown[seat].values()) == result.scores[seat]
    assert result.winners
    assert all(result.ranking[w] == 0 for w in result.winners)
    assert min(result.ranking) == 0

    again = game.replay(players, seed, list(state.history), state.options)
    assert again.state_hash() == state.state_hash()
