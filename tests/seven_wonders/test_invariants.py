"""The 7 Wonders invariants module (issue 20 item 8): every corruption of a position that breaks
the box's conservation or a structural rule is reported, and every leak of hidden information
into a view is reported, with no false alarm on real positions.

Rule ids: SW-2.2 .. SW-2.4 and SW-14.2 (the cards of the decks), SW-3.2 .. SW-3.6 and SW-14.4
(hand sizes), SW-4.3, SW-4.5, SW-7.10, SW-11 (tokens), SW-3.9 (hidden information).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from civtable import games
from civtable.core.rng import Rng
from civtable.games.seven_wonders import invariants, view
from civtable.games.seven_wonders.catalog import CARD_INDEX, CARDS, GUILDS
from civtable.games.seven_wonders.state import SevenWondersState

from .scenario import play_until
from .test_properties import random_step

GAME = games.get("seven-wonders")


def new(players: int, seed: int = 3) -> SevenWondersState:
    state = GAME.new_game(players, seed, {"sides": "random"})
    assert isinstance(state, SevenWondersState)
    return state


def midgame(players: int, decisions: int, seed: int = 3) -> SevenWondersState:
    state = new(players, seed)
    rng = Rng(seed)
    for _ in range(decisions):
        random_step(state, rng)
    return state


def test_sw_2_4_real_positions_hold_every_invariant_and_leak_nothing() -> None:
    for players in (2, 3, 5, 7):
        state = new(players, players)
        rng = Rng(players)
        while not state.is_terminal():
            assert invariants.check(state) == []
            if len(state.history) % 7 == 0:
                for viewer in [None, *range(players)]:
                    assert invariants.leaks(state, viewer) == [], (players, viewer)
            random_step(state, rng)
        assert invariants.check(state) == []
        assert all(invariants.leaks(state, v) == [] for v in [None, *range(players)])


# --- corrupted positions ------------------------------------------------------------------------
def _lose_a_card(s: SevenWondersState) -> None:
    s.hands[1].pop()


def _copy_a_card(s: SevenWondersState) -> None:
    s.discard.append(s.hands[0][0])
    s.discard_known.append(0)


def _swap_for_an_unused_card(s: SevenWondersState) -> None:
    unused = next(t for t in range(len(CARDS)) if CARDS[t].age == 1 and not CARDS[t].copies[3])
    s.hands[2][0] = unused


def _move_between_hands(s: SevenWondersState) -> None:
    s.hands[0].append(s.hands[1].pop())


def _negative_coins(s: SevenWondersState) -> None:
    s.cities[1].coins = -1


def _duplicate_structure(s: SevenWondersState) -> None:
    t = s.hands[0].pop()
    s.cities[0].add_structure(t)
    s.cities[0].built.append(t)  # the same name twice (and one card too many in play)


def _stage_without_marker(s: SevenWondersState) -> None:
    s.cities[0].stages += 1


def _token_before_the_conflicts(s: SevenWondersState) -> None:
    s.cities[0].tokens.append(1)
    s.cities[1].tokens.append(-1)
    s.cities[1].defeats += 1


def _defeat_not_counted(s: SevenWondersState) -> None:
    play_until(s, 2)
    s.cities[0].tokens.append(-1)


def _unpaired_victory(s: SevenWondersState) -> None:
    play_until(s, 2)
    s.cities[0].tokens.append(1)


def _wrong_shields(s: SevenWondersState) -> None:
    s.cities[2].shields += 1


def _age_three_guild_twice(s: SevenWondersState) -> None:
    play_until(s, 3)
    guild = next(t for h in s.hands for t in h if t in GUILDS)
    s.discard.append(guild)
    s.discard_known.append(-1)


CORRUPTIONS: list[tuple[str, Callable[[SevenWondersState], None], str]] = [
    ("lost card", _lose_a_card, "in play"),
    ("copied card", _copy_a_card, "in play"),
    ("card of another player count", _swap_for_an_unused_card, "hold 0"),
    ("hand sizes", _move_between_hands, "hand of city"),
    ("negative coins", _negative_coins, "never negative"),
    ("duplicate structure", _duplicate_structure, "two structures named"),
    ("stage without marker", _stage_without_marker, "stage markers"),
    ("token before any conflict", _token_before_the_conflicts, "after 0 finished age"),
    ("defeat not counted", _defeat_not_counted, "defeats counted"),
    ("victory without defeat", _unpaired_victory, "victory tokens but"),
    ("derived shields", _wrong_shields, "derived shields"),
    ("guild twice", _age_three_guild_twice, "is in play 2 times"),
]


@pytest.mark.parametrize(
    ("what", "corrupt", "expected"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS]
)
def test_sw_2_4_a_corrupted_position_is_reported(
    what: str, corrupt: Callable[[SevenWondersState], None], expected: str
) -> None:
    state = new(4)
    corrupt(state)
    problems = invariants.check(state)
    assert any(expected in p for p in problems), problems


def test_sw_14_2_free_city_pile_of_the_wrong_size_is_reported() -> None:
    state = new(2)
    state.hands[0].append(state.hands[1].pop())  # a player's card slipped into the pile
    problems = invariants.check(state)
    assert any("the Free City pile" in p for p in problems), problems


def test_sw_2_4_check_does_not_change_the_state() -> None:
    state = midgame(3, 40)
    before = state.state_hash()
    invariants.check(state)
    for viewer in (None, 0, 1, 2):
        invariants.leaks(state, viewer)
    assert state.state_hash() == before


# --- leaks (SW-3.9) -----------------------------------------------------------------------------
def _patched_view(
    monkeypatch: pytest.MonkeyPatch, extra: Callable[[SevenWondersState, int | None], Any]
) -> None:
    original = view.view

    def leaky(state: SevenWondersState, seat: int | None, *, labels: bool = True) -> Any:
        doc = original(state, seat, labels=labels)
        doc["extra"] = extra(state, seat)
        return doc

    monkeypatch.setattr(view, "view", leaky)


def test_sw_3_9_another_seats_hand_in_a_view_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    state = midgame(4, 6)
    _patched_view(monkeypatch, lambda s, seat: [CARDS[t].id for t in s.hands[(seat or 0) + 1]])
    found = invariants.leaks(state, 0)
    assert found
    assert any("dealt again" in f for f in found), found


def test_sw_3_9_a_hidden_card_id_is_a_leak_even_when_the_view_does_not_depend_on_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new(3)
    hidden = next(t for t in state.hands[1] if t not in invariants.visible_cards(state, 0))
    _patched_view(monkeypatch, lambda s, seat: CARDS[hidden].id)
    assert any(f"card {CARDS[hidden].id} appears" in f for f in invariants.leaks(state, 0))


def test_sw_3_9_a_label_naming_a_hidden_card_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new(3)
    hidden = next(t for t in state.hands[2] if t not in invariants.visible_cards(state, 0))
    name = CARDS[hidden].name
    original = view.view

    def leaky(s: SevenWondersState, seat: int | None, *, labels: bool = True) -> Any:
        doc = original(s, seat, labels=labels)
        if doc.get("legal"):
            doc["legal"][0]["label"] += f" (your neighbour holds {name})"
        return doc

    monkeypatch.setattr(view, "view", leaky)
    assert any(f"names {name}" in f for f in invariants.leaks(state, 0))


def test_sw_3_9_a_count_derived_from_hidden_cards_is_a_leak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = midgame(3, 3)
    _patched_view(monkeypatch, lambda s, seat: sum(s.hands[0]) + sum(s.discard))
    assert any("dealt again" in f for f in invariants.leaks(state, None))


def test_sw_2_3_which_guilds_are_in_play_is_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new(3)
    play_until(state, 3)
    _patched_view(
        monkeypatch,
        lambda s, seat: sorted(g for g in GUILDS if invariants.cards_in_play(s)[g]),
    )
    assert invariants.leaks(state, None)


def test_sw_14_the_free_city_pile_is_hidden_from_both_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = new(2)
    _patched_view(monkeypatch, lambda s, seat: [CARDS[t].id for t in s.hands[0]])
    for seat in (None, 0, 1):
        assert invariants.leaks(state, seat), seat


def test_sw_3_9_own_cards_and_public_copies_are_not_flagged() -> None:
    state = midgame(4, 30)
    for seat in range(4):
        assert invariants.leaks(state, seat) == []
        own = state.city_of(seat)
        assert set(state.hands[own]) <= invariants.visible_cards(state, seat)
    assert CARD_INDEX  # the catalogue the scan reads
