"""The component checks (issue 20 item 8): :func:`invariants.check` finds a created cube or
worker, a duplicated or vanished card and a broken structure, and :func:`invariants.leaks`
finds a hidden card shown to a seat; a real game passes both."""

from __future__ import annotations

from typing import Any

import pytest

from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME, invariants
from civtable.games.through_the_ages import view as view_module
from civtable.games.through_the_ages.actions import RESIGN
from civtable.games.through_the_ages.catalog import CARDS
from civtable.games.through_the_ages.state import TTAState


def midgame(players: int = 3, seed: int = 5, preset: str = "full-game") -> TTAState:
    """A real game after 250 random decisions (no resignation)."""
    s = GAME.new_game(players, seed, GAME.option_presets[preset])
    rng = Rng(seed)
    for _ in range(250):
        seat = s.to_move()[0]
        legal = [a for a in s.legal_actions(seat) if a != RESIGN]
        s.apply(seat, legal[rng.randbelow(len(legal))])
    assert not s.is_terminal()
    return s


@pytest.mark.parametrize("preset", tuple(GAME.option_presets))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_holds_every_invariant_and_leaks_nothing(preset: str, players: int) -> None:
    s = GAME.new_game(players, 11, GAME.option_presets[preset])
    assert invariants.check(s) == []
    for viewer in (None, *range(players)):
        assert invariants.leaks(s, viewer) == []


def test_a_game_in_progress_holds_every_invariant_and_leaks_nothing() -> None:
    s = midgame()
    assert invariants.check(s) == []
    for viewer in (None, 0, 1, 2):
        assert invariants.leaks(s, viewer) == []


def test_check_finds_a_created_blue_cube() -> None:
    s = midgame()
    s.civs[1].cubes[0] += 1  # a cube on Agriculture out of nowhere
    (msg,) = invariants.check(s)
    assert msg.startswith("blue cubes of seat 1")


def test_check_finds_a_created_worker() -> None:
    s = midgame()
    s.civs[2].pool += 1
    (msg,) = invariants.check(s)
    assert msg.startswith("yellow cubes of seat 2")


def test_check_finds_a_duplicated_civil_card() -> None:
    s = midgame()
    c = next(c for c in s.row if c >= 0)
    s.civs[0].hand.append(c)
    assert any("civil" in m and "in places" in m for m in invariants.check(s))


def test_check_finds_a_duplicated_military_card() -> None:
    s = midgame()
    c = s.events[0]
    s.civs[1].mhand.append(c)
    msgs = invariants.check(s)
    assert any(m.startswith("military A deck") for m in msgs)


def test_check_finds_a_card_that_vanished_and_one_out_of_place() -> None:
    s = midgame()
    slot = next(i for i, c in enumerate(s.row) if c >= 0)
    s.row[slot] = -1  # dropped, not swept to the box
    assert any("in the box" in m for m in invariants.check(s))
    s = midgame()
    s.row[slot] = s.mil_decks[s.age].pop()  # a military card in the card row
    assert "the card row holds" in " ".join(invariants.check(s))


def test_check_finds_negative_stocks_and_a_broken_structure() -> None:
    s = midgame()
    s.civs[0].culture = -1
    s.civs[1].workers[CARDS[next(c.idx for c in CARDS if c.id == "computers")].slot] = 1
    s.civs[1].pool -= 1
    s.civs[2].ca = 9
    msgs = invariants.check(s)
    assert "culture of seat 0 is -1" in msgs
    assert any(m.startswith("1 workers of seat 1 on Computers") for m in msgs)
    assert any(m.startswith("seat 2 has 9 civil actions available") for m in msgs)


def test_check_never_changes_the_state() -> None:
    s = midgame()
    s.civs[0].blue += 3
    h = s.state_hash()
    assert invariants.check(s)
    assert s.state_hash() == h


def _leaky(extra: dict[str, Any]) -> Any:
    real = view_module.view

    def leaky_view(state: TTAState, seat: int | None, *, labels: bool = True) -> JSON:
        doc = real(state, seat, labels=labels)
        doc.update(extra)
        return doc

    return leaky_view


def test_leaks_finds_another_seats_military_card(monkeypatch: pytest.MonkeyPatch) -> None:
    s = midgame()
    other = next(c for c in s.civs[1].mhand if c not in s.civs[0].mhand and c not in s.past)
    monkeypatch.setattr(view_module, "view", _leaky({"oops": [CARDS[other].id]}))
    msgs = invariants.leaks(s, 0)
    assert msgs == [f"view.oops[0] names {CARDS[other].name}, hidden from seat 0"]
    assert invariants.leaks(s, 1) == []  # its owner may see it


def test_leaks_finds_a_deck_card_and_ignores_a_copy_seen_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = midgame()
    hidden = s.civil_decks[s.age][-1]
    monkeypatch.setattr(view_module, "view", _leaky({"next_card": CARDS[hidden].id}))
    assert len(invariants.leaks(s, None)) == 1
    s.row[next(i for i, c in enumerate(s.row) if c >= 0)] = hidden  # a copy face up
    assert invariants.leaks(s, None) == []


def test_leaks_finds_a_hidden_card_named_in_a_label(monkeypatch: pytest.MonkeyPatch) -> None:
    from civtable.games.through_the_ages import actions

    s = midgame()
    seat = s.to_move()[0]
    top = s.events[-1]
    assert not any(CARDS[c].name == CARDS[top].name for c in s.past)
    monkeypatch.setattr(actions, "describe", lambda st, se, a: f"do it before {CARDS[top].name}")
    assert any(CARDS[top].name in m for m in invariants.leaks(s, seat))
