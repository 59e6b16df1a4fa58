"""Determinization with the memory of passed hands (SW-3.5, SW-3.9).

A seat saw every hand it held earlier in the age; a card it saw there that is not now public
(built) or its own must still be in the hand it passed, or have left it by a hidden play (wonder
stage, discard). Every determinization must respect that, conserve the cards, and leave the
seat's own view unchanged.
"""

from __future__ import annotations

from collections import Counter

import pytest

from civtable import games
from civtable.core.rng import Rng
from civtable.games.seven_wonders.catalog import CARDS, PURPLE
from civtable.games.seven_wonders.invariants import cards_in_play
from civtable.games.seven_wonders.state import MAIN, OVER, SevenWondersState
from civtable.games.seven_wonders.view import remembered_hands

GAME = games.get("seven-wonders")


def _new(players: int, seed: int) -> SevenWondersState:
    state = GAME.new_game(players, seed, {"sides": "random"})
    assert isinstance(state, SevenWondersState)
    return state


def _hand_with_choice(state: SevenWondersState, c: int) -> Counter[int]:
    """A city's cards of this step: its hand plus its unresolved choice."""
    cards = Counter(state.hands[c])
    commit, pending = state.commits[c], state.await_pay[c]
    if commit is not None and state.needs[c]:
        cards[commit[1]] += 1
    if pending is not None:
        cards[pending[1]] += 1
    return cards


def _strip(doc: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in doc.items() if k != "log"}


def _positions(players: int, seed: int, every: int) -> list[SevenWondersState]:
    """Positions of one random game, sampled every ``every`` decisions."""
    rng = Rng(seed)
    state = _new(players, seed)
    out = []
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            out.append(state.copy())
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        k += 1
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (4, 3), (5, 4), (7, 5)])
def test_sw_3_9_determinize_respects_memory_of_passed_hands(players: int, seed: int) -> None:
    rng = Rng(seed + 100)
    remembered = 0
    for state in _positions(players, seed, every=3):
        if state.phase == OVER:
            continue
        seat = rng.randbelow(players)
        memory = remembered_hands(state, seat)
        if state.phase == MAIN and state.turn >= 2:
            # From turn 2 on, the seat remembers the hand it passed (held by its neighbour).
            assert memory, (state.age, state.turn)
        for c, cards in memory.items():
            truth = _hand_with_choice(state, c)
            assert not truth - Counter(cards), "the true hand is not within the memory"
            remembered += 1
        before = _strip(state.view(seat, labels=False))
        total = cards_in_play(state)
        for _ in range(3):
            det = state.determinize(seat, rng)
            assert _strip(det.view(seat, labels=False)) == before
            after = cards_in_play(det)
            if state.age == 3:  # guilds among the unseen cards are re-drawn (SW-2.3)
                assert sum(after.values()) == sum(total.values())
                plain = Counter({t: k for t, k in total.items() if CARDS[t].color != PURPLE})
                plain_after = Counter({t: k for t, k in after.items() if CARDS[t].color != PURPLE})
                assert plain == plain_after
                assert all(k == 1 for t, k in after.items() if CARDS[t].color == PURPLE)
            else:
                assert after == total
            for c, cards in memory.items():
                dealt = _hand_with_choice(det, c)
                assert not dealt - Counter(cards), f"city {c} got a card the seat cannot place"
    assert remembered > 0


def test_sw_3_9_memory_shrinks_by_public_builds_only() -> None:
    """The memory of a passed hand holds its current size plus one card per hidden play."""
    for state in _positions(4, 11, every=1):
        if state.phase != MAIN or state.turn < 3:
            continue
        for seat in range(4):
            for c, cards in remembered_hands(state, seat).items():
                assert len(cards) >= sum(_hand_with_choice(state, c).values())
    # A seat's own hand is never "remembered": it is seen.
    state = _positions(4, 12, every=1)[10]
    for seat in range(4):
        assert seat not in remembered_hands(state, seat)


def test_sw_3_9_unheld_hands_avoid_remembered_cards() -> None:
    """Determinized hands differ from the uniform re-deal: a remembered hand keeps only
    remembered cards, so over many samples each gets at most its memory's card types."""
    state = next(
        s for s in _positions(4, 21, every=1) if s.phase == MAIN and s.turn == 4 and s.age == 1
    )
    seat = 0
    memory = remembered_hands(state, seat)
    assert len(memory) >= 2
    rng = Rng(5)
    seen: dict[int, set[int]] = {c: set() for c in memory}
    for _ in range(200):
        det = state.determinize(seat, rng)
        for c in memory:
            seen[c] |= set(_hand_with_choice(det, c))
    for c, cards in memory.items():
        assert seen[c] <= set(cards)
        assert len(seen[c]) > 1 or len(set(cards)) == 1  # actually sampled, not copied


def _two_player_steps(seed: int) -> list[tuple[SevenWondersState, dict[int, list[int]]]]:
    """Positions of a random 2-player game in the main steps from turn 2 on, each with the hand
    every seat left its opponent (SW-14.4.4), read off the engine's hands when the step began:
    the opponent's hand then, without the card the Free City's controller drew (SW-14.4.1),
    which ``start_step`` appends last."""
    rng = Rng(seed)
    state = _new(2, seed)
    out = []
    key = (0, 0)
    left: dict[int, list[int]] = {}
    while not state.is_terminal():
        if state.phase == MAIN and (state.age, state.turn) != key:
            key = (state.age, state.turn)
            left = {}
            for seat in (0, 1):
                opp = 2 - seat  # seat s plays city s + 1 (SW-14.1)
                hand = state.hands[opp]
                left[seat] = sorted(hand[:-1] if state.controller == opp else hand)
        if state.phase == MAIN and state.turn >= 2:
            out.append((state.copy(), dict(left)))
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sw_14_4_two_player_seat_remembers_the_hand_it_left(seed: int) -> None:
    positions = _two_player_steps(seed)
    assert len(positions) > 30
    for state, left in positions:
        for seat in (0, 1):
            assert remembered_hands(state, seat) == {2 - seat: left[seat]}
    # Turn 1 of an age: the opponent's hand was never seen.
    state = _new(2, seed)
    assert remembered_hands(state, 0) == {}
    assert remembered_hands(state, 1) == {}


def test_sw_14_4_two_player_determinize_keeps_the_remembered_hand() -> None:
    """Determinized opponents hold the remembered cards, plus an unseen card when they drew
    one from the Free City pile; the seat's view and the cards in play are unchanged."""
    rng = Rng(9)
    drawn_seen: set[int] = set()
    checked = 0
    for state, left in _two_player_steps(4)[::3]:
        seat = rng.randbelow(2)
        opp = 2 - seat
        before = _strip(state.view(seat, labels=False))
        total = cards_in_play(state)
        for _ in range(4):
            det = state.determinize(seat, rng)
            assert _strip(det.view(seat, labels=False)) == before
            if state.age != 3:
                assert cards_in_play(det) == total
            dealt = _hand_with_choice(det, opp)
            if det.controller == opp:  # the Free City's choice came from the controller's hand
                dealt += _hand_with_choice(det, 0) - Counter(det.hands[0])
            extra = dealt - Counter(left[seat])
            assert not Counter(left[seat]) - dealt, "a remembered card left the opponent's hand"
            assert sum(extra.values()) == (1 if state.controller == opp else 0)
            drawn_seen |= set(extra)
            checked += 1
    assert checked > 10
    assert len(drawn_seen) > 3  # the drawn card is sampled, not the true one copied


@pytest.mark.parametrize("players", [2, 4])
def test_sw_3_9_seats_that_chose_choose_again_as_the_heuristic_would(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat that chose before the searching seat (hidden until the step resolves) chooses
    again on its re-dealt cards with the heuristic, not at random: a search deciding after
    its opponents must not meet random ones."""
    from civtable.games.seven_wonders import heuristic

    state = _new(players, 31)
    first = state.to_move()[0]
    state.apply(first, heuristic.choose(state, first, Rng(1)))
    searcher = next(s for s in state.to_move() if s != first)
    calls: list[tuple[int, list[int]]] = []
    real = heuristic.choose

    def spy(s: SevenWondersState, seat: int, rng: Rng) -> int:
        calls.append((seat, s.legal_actions(seat)))
        return real(s, seat, rng)

    monkeypatch.setattr(heuristic, "choose", spy)
    det = state.determinize(searcher, Rng(2))
    assert calls
    assert {seat for seat, _ in calls} == {first}
    assert all(legal for _, legal in calls)
    assert det.commits[det.city_of(first)] is not None  # the choice is made again, hidden
