"""The view's remembered parts (issue 21) never show a stale board or label.

A state remembers, per seat, the last :func:`~civtable.games.through_the_ages.view.civ_public`
document and the civilization's content it came from; a view reuses it while the content is
equal. Action labels are remembered by id (those depending on the id alone) or by row slot and
card (the takes); the view works out the seat's take costs, effects and legal set once for
every move and reason. ``memo=False`` does none of this. These tests walk seeded random games
of every preset (every seat and a spectator after every decision, the log on in some) and
compare each view with the same view worked out afresh (``memo=False``) and, every few
decisions, with the view of the state rebuilt from its JSON (no remembered part, no cached
legal list): equal, keys in the same order (TTA-6.1: a seat sees the public boards and its own
secret cards, as they are now).
"""

from __future__ import annotations

import json

import pytest

from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME, actions
from civtable.games.through_the_ages import view as tta_view
from civtable.games.through_the_ages.actions import RESIGN
from civtable.games.through_the_ages.state import TTAState

PRESETS = sorted(GAME.option_presets)


def _same(got: object, want: object) -> None:
    """Equal documents, keys in the same order (what a client or a digest reads)."""
    assert got == want
    assert json.dumps(got) == json.dumps(want)


def _walk(state: TTAState, rng: Rng, steps: int) -> TTAState:
    """Random legal play without resigning, ``steps`` decisions or to the end."""
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a != RESIGN]))
    return state


def _check_views(state: TTAState, rebuilt: bool) -> None:
    other = GAME.state_from_json(state.to_json()) if rebuilt else None
    for viewer in [*range(state.players), None]:
        got = state.view(viewer)
        _same(got, tta_view.view(state, viewer, memo=False))
        if other is not None:
            _same(got, other.view(viewer))


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [(p, n, 31 + i) for i, p in enumerate(PRESETS) for n in (2, 3, 4)],
)
def test_tta_6_1_views_with_remembered_boards_equal_views_worked_out_afresh(
    preset: str, players: int, seed: int
) -> None:
    state = GAME.new_game(players, seed, GAME.option_presets[preset])
    if players == 3:
        state.log = []  # the log's private entries are filtered per seat too
    rng = Rng(seed)
    step = 0
    while not state.is_terminal() and step < 250:
        _check_views(state, rebuilt=step % 23 == 0)
        seat = state.to_move()[0]
        legal = [a for a in state.legal_actions(seat) if a != RESIGN]  # a long walk
        state.apply(seat, rng.choice(legal))
        step += 1
    _check_views(state, rebuilt=True)
    assert step > 100  # the walk went through many boards


def test_tta_6_1_a_board_changed_outside_the_rules_shows_in_the_next_view() -> None:
    state = GAME.new_game(4, 7)
    _walk(state, Rng(7), 120)
    assert not state.is_terminal()
    before = state.view(None)
    civ = state.civs[2]
    civ.culture += 5
    civ.workers[0] += 1  # a list changed in place
    civ.hand.append(civ.hand[0] if civ.hand else 0)
    after = state.view(None)
    assert after["civs"][2]["culture"] == before["civs"][2]["culture"] + 5
    assert after["civs"][2]["hand"] != before["civs"][2]["hand"]
    _same(after, tta_view.view(state, None, memo=False))


def test_tta_6_1_copies_share_nothing_visible() -> None:
    state = GAME.new_game(3, 11)
    _walk(state, Rng(11), 150)
    assert not state.is_terminal()
    state.view(0)
    copy = state.copy()
    copy.civs[0].culture += 9
    copy.civs[0].hand.clear()
    for s in (state, copy, state):  # each one after the other has remembered its own board
        for viewer in (0, 1, None):
            _same(s.view(viewer), tta_view.view(s, viewer, memo=False))


def test_tta_6_1_changing_a_returned_view_changes_no_later_view() -> None:
    state = GAME.new_game(4, 5)
    _walk(state, Rng(5), 200)
    assert not state.is_terminal()
    first = state.view(1)
    for civ in first["civs"]:
        for value in civ.values():
            if isinstance(value, list):
                value.append("x")
            elif isinstance(value, dict):
                value["x"] = 1
        civ["culture"] = -1
    _same(state.view(1), tta_view.view(state, 1, memo=False))


def test_tta_6_1_every_container_of_a_public_board_is_copied_for_each_view() -> None:
    state = GAME.new_game(4, 9)
    _walk(state, Rng(9), 160)
    doc = tta_view.civ_public(state, 0)
    containers = {k for k, v in doc.items() if isinstance(v, (list, dict))}
    assert containers == set(tta_view._CIV_CONTAINERS)
    again = tta_view.civ_public(state, 0)  # from the remembered document
    for k in containers:
        assert again[k] == doc[k]
        assert again[k] is not doc[k]


@pytest.mark.parametrize(("preset", "seed"), [("full-game", 3), ("world-wars", 4)])
def test_tta_6_1_remembered_labels_and_moves_equal_those_worked_out_afresh(
    preset: str, seed: int
) -> None:
    # whole 4-player games (the politics of later ages), every decision: every legal action's
    # label, and the view of the seat to move (labels, moves, reasons) with memo=False's
    state = GAME.new_game(4, seed, GAME.option_presets[preset])
    rng = Rng(seed)
    labels = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        for a in legal:
            assert actions.describe(state, seat, a) == actions.describe(state, seat, a, memo=False)
        labels += len(legal)
        _same(state.view(seat), tta_view.view(state, seat, memo=False))
        state.apply(seat, rng.choice([a for a in legal if a != RESIGN] or legal))
    assert labels > 3_000
