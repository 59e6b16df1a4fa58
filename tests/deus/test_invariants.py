"""The Deus invariants module (issue 20 item 8): every corruption of a position that breaks the
box's conservation or a structural rule is reported, and every leak of hidden information into a
view is reported, with no false alarm on real positions.

Rule ids: DEUS-2.2 .. 2.4, DEUS-2.8, DEUS-4.3.1, DEUS-4.3.2 (what the box and the supply hold),
DEUS-5.3 / 5.4 (pieces, hand limit), DEUS-7.2, DEUS-7.4.4 .. 7.4.6 (regions), DEUS-9.4, DEUS-18.1,
DEUS-21.3 (blind building), DEUS-20 (hidden information).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from civtable import games
from civtable.core.rng import Rng
from civtable.games.deus import invariants, view
from civtable.games.deus.catalog import ARMY, CARDS, PURPLE, SEA, SHIP
from civtable.games.deus.state import BLIND_MARK, OFFERING, DeusState

GAME = games.get("deus")


def new(players: int = 3, seed: int = 4, **options: object) -> DeusState:
    state = GAME.new_game(players, seed, options)
    assert isinstance(state, DeusState)
    return state


def step(state: DeusState, rng: Rng) -> None:
    seat = rng.choice(state.to_move())
    state.apply(seat, rng.choice(state.legal_actions(seat)))


def every_fifth(state: DeusState, rng: Rng, decisions: int) -> Iterator[DeusState]:
    """Play up to ``decisions`` random decisions, yielding the state at every fifth."""
    for i in range(decisions):
        if state.is_terminal():
            return
        step(state, rng)
        if i % 5 == 0:
            yield state


def played(players: int, decisions: int, seed: int = 4, **options: object) -> DeusState:
    state = new(players, seed, **options)
    rng = Rng(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        step(state, rng)
    return state


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"blind_building": True, "free_start": 8}),
        (4, {"board": "random", "first_player": "random", "blind_building": True}),
    ],
)
def test_deus_2_real_positions_hold_every_invariant_and_leak_nothing(
    players: int, options: dict[str, object]
) -> None:
    state = new(players, players, **options)
    rng = Rng(players)
    phases: set[int] = set()
    while not state.is_terminal():
        assert invariants.check(state) == []
        if len(state.history) % 9 == 0 or state.phase == OFFERING:
            phases.add(state.phase)
            for viewer in [None, *range(players)]:
                assert invariants.leaks(state, viewer) == [], (viewer, state.phase)
        step(state, rng)
    assert invariants.check(state) == []
    assert all(invariants.leaks(state, v) == [] for v in [None, *range(players)])
    assert OFFERING in phases  # an offering in progress was looked at


# --- corrupted positions ------------------------------------------------------------------------
def _land(state: DeusState) -> int:
    b = state.board
    return next(r for r in range(b.size) if b.terrain[r] < SEA and state.owner[r] < 0)


def _piece_without_card(s: DeusState) -> None:
    r = _land(s)
    s.owner[r], s.mask[r] = 0, 1 << ARMY
    s.onboard[0][ARMY] -= 1


def _ship_on_land(s: DeusState) -> None:
    r = _land(s)
    s.owner[r], s.mask[r] = 1, 1 << SHIP
    s.onboard[1][SHIP] -= 1
    blue = next(t for t in s.deck if CARDS[t].color == SHIP)  # colour k builds piece k
    s.deck.remove(blue)
    s.cols[1][SHIP].append(blue)


def _village_piece(s: DeusState) -> None:
    v = s.board.villages[0]
    s.owner[v], s.mask[v] = 0, 1


def _owner_without_pieces(s: DeusState) -> None:
    s.owner[_land(s)] = 2


def _eleven_cards(s: DeusState) -> None:
    while len(s.hands[0]) < 11:
        s.hands[0].append(s.deck.pop())


def _blind_temple(s: DeusState) -> None:
    t = s.hands[0].pop()
    s.cols[0][PURPLE].append(t + BLIND_MARK)


def _all_villages_attacked(s: DeusState) -> None:
    s.vatt = [1] * len(s.vatt)
    s.vvp = [0] * len(s.vvp)


def _attacked_with_vp(s: DeusState) -> None:
    s.vatt[0] = 1


def _extra_turn(s: DeusState) -> None:
    s.turns[1] += 1


CORRUPTIONS: list[tuple[str, Callable[[DeusState], object], str]] = [
    ("lost card", lambda s: s.deck.pop(), "cards in the game"),
    ("copied card", lambda s: s.hands[1].append(s.hands[1][0]), "in the game, the deck holds"),
    ("piece created", lambda s: s.onboard[0].__setitem__(0, s.onboard[0][0] + 1), "the box holds"),
    ("negative piece stock", lambda s: s.personal[2].__setitem__(3, -1), "personal supply -1"),
    ("piece without its card", _piece_without_card, "each construction places one piece"),
    ("temple created", lambda s: setattr(s, "temples", s.temples + 1), "temples: supply"),
    ("resource created", lambda s: s.res[0].__setitem__(1, s.res[0][1] + 1), "were put in the"),
    ("resource lost", lambda s: s.supply.__setitem__(2, s.supply[2] - 1), "were put in the"),
    ("negative gold", lambda s: s.gold.__setitem__(1, -3), "gold -3"),
    ("ship on land", _ship_on_land, "holds a ship"),
    ("piece on a village", _village_piece, "village"),
    ("owner without pieces", _owner_without_pieces, "owner 2 with pieces 0"),
    ("hand over the limit", _eleven_cards, "at most 10"),
    ("blind temple", _blind_temple, "blind card in the temple column"),
    ("end trigger missed", _all_villages_attacked, "end trigger holds"),
    ("attacked village keeps its VP", _attacked_with_vp, "was attacked but holds"),
    ("turn counts", _extra_turn, "has played 1 turns in round 1"),
]


@pytest.mark.parametrize(
    ("what", "corrupt", "expected"), CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS]
)
def test_deus_2_a_corrupted_position_is_reported(
    what: str, corrupt: Callable[[DeusState], None], expected: str
) -> None:
    state = new(3)
    assert invariants.check(state) == []
    corrupt(state)
    problems = invariants.check(state)
    assert any(expected in p for p in problems), problems


def test_deus_8_5_a_temple_card_without_its_temple_while_the_supply_has_one() -> None:
    state = new(3)
    temple_card = next(t for t in state.deck if CARDS[t].color == PURPLE)
    state.deck.remove(temple_card)
    state.cols[0][PURPLE].append(temple_card)  # played, but no temple placed
    assert any("temple card(s) played" in p for p in invariants.check(state))
    state.temples = 0  # DEUS-8.5: with the supply empty the card places nothing
    assert not any("temple card(s) played" in p for p in invariants.check(state))


def test_deus_check_does_not_change_the_state() -> None:
    state = played(3, 120)
    before = state.state_hash()
    invariants.check(state)
    for viewer in (None, 0, 1, 2):
        invariants.leaks(state, viewer)
    assert state.state_hash() == before


# --- leaks (DEUS-20) ----------------------------------------------------------------------------
def _patched_view(
    monkeypatch: pytest.MonkeyPatch, extra: Callable[[DeusState, int | None], Any]
) -> None:
    original = view.view

    def leaky(state: DeusState, seat: int | None, *, labels: bool = True) -> Any:
        doc = original(state, seat, labels=labels)
        doc["extra"] = extra(state, seat)
        return doc

    monkeypatch.setattr(view, "view", leaky)


def _id(t: int) -> str:
    return CARDS[t].id


def test_deus_20_1_another_hand_in_a_view_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    state = played(3, 20)
    _patched_view(monkeypatch, lambda s, seat: [_id(t) for t in s.hands[((seat or 0) + 1) % 3]])
    found = invariants.leaks(state, 0)
    assert any("dealt again" in f for f in found), found


def test_deus_20_1_the_next_card_of_the_deck_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    state = played(2, 10)
    _patched_view(monkeypatch, lambda s, seat: _id(s.deck[-1]))
    for viewer in (None, 0, 1):
        assert invariants.leaks(state, viewer), viewer


def test_deus_20_1_the_discard_pile_under_its_top_is_a_leak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = played(3, 200)
    assert len(state.discard) > 1
    _patched_view(monkeypatch, lambda s, seat: [_id(t) for t in s.discard])
    assert any("dealt again" in f for f in invariants.leaks(state, None))


def test_deus_20_1_other_players_vp_are_hidden_unless_public(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = played(3, 30)
    original = view.view

    def leaky(s: DeusState, seat: int | None, *, labels: bool = True) -> Any:
        doc = original(s, seat, labels=labels)
        for p, row in enumerate(doc["player_states"]):
            row["vp"] = s.vp[p]
        return doc

    monkeypatch.setattr(view, "view", leaky)
    found = invariants.leaks(state, 1)
    assert any("the VP of seat 0 show" in f for f in found), found
    public = played(3, 30, public_vp=True)
    assert invariants.leaks(public, 1) == []  # DEUS-20.3: the observation option


def test_deus_21_3_another_seats_blind_card_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new(2, blind_building=True)
    state.cols[1][0].append(state.hands[1].pop() + BLIND_MARK)  # as if built blind earlier
    state.blind_used[1] = 1
    hidden = state.cols[1][0][-1] - BLIND_MARK
    _patched_view(
        monkeypatch,
        lambda s, seat: [_id(t - BLIND_MARK) for t in s.cols[1][0] if t >= BLIND_MARK],
    )
    assert invariants.leaks(state, 1) == []  # its owner knows it
    if hidden not in invariants.visible_cards(state, 0):
        assert any(f"card {_id(hidden)} appears" in f for f in invariants.leaks(state, 0))
    assert any("dealt again" in f for f in invariants.leaks(state, 0))


def test_deus_20_own_cards_and_public_copies_are_not_flagged() -> None:
    state = played(4, 150)
    for seat in range(4):
        assert invariants.leaks(state, seat) == []
        assert set(state.hands[seat]) <= invariants.visible_cards(state, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deus_20_determinized_states_hold_every_invariant(players: int) -> None:
    """``determinize`` re-deals hidden cards: it must neither create nor lose one (DEUS-2.2),
    and the re-dealt state shows its seat nothing new."""
    state = new(players, 9, blind_building=True, free_start=8)
    rng = Rng(9)
    k = 0
    while not state.is_terminal():
        if k % 11 == 0:
            for seat in range(players):
                twin = state.determinize(seat, Rng(k))
                assert isinstance(twin, DeusState)
                assert invariants.check(twin) == [], (k, seat)
                assert twin.view(seat) == state.view(seat)
        step(state, rng)
        k += 1


def _map_verdict(f: Callable[[DeusState, list[str]], list[list[int]]], state: DeusState) -> Any:
    out: list[str] = []
    try:
        return f(state, out), out
    except Exception as exc:  # a corrupted map may break the check
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("players", [2, 4])
def test_deus_7_4_cheap_map_count_gives_the_region_checks_verdict(players: int) -> None:
    """_check_map counts the pieces from the owned regions only when every region passes; on
    played and on corrupted maps it returns what the region-by-region check returns (pieces and
    messages), and the cheap count is seen to refuse corrupted maps."""
    state = new(players, 20 + players)
    rng = Rng(players)
    refused = found = 0
    for _ in every_fifth(state, rng, 500):
        assert _map_verdict(invariants._check_map, state) == _map_verdict(
            invariants._check_regions, state
        )
        for _ in range(4):
            bad = state.copy()
            bad.mask, bad.owner = bad.mask[:], bad.owner[:]
            r = rng.randbelow(len(bad.mask))
            kind = rng.randbelow(3)
            if kind == 0:
                bad.mask[r] = rng.choice([0, 1 << SHIP, 1 << ARMY, 3, 1 << 7, -1, bad.mask[r] ^ 4])
            elif kind == 1:
                bad.owner[r] = rng.choice([-1, -2, 0, players - 1, players])
            else:  # a piece with an owner on any region: a village, the sea or land
                bad.mask[r] = rng.choice([1 << ARMY, 1 << SHIP, (1 << SHIP) | (1 << ARMY), 1])
                bad.owner[r] = 0
            want = _map_verdict(invariants._check_regions, bad)
            assert _map_verdict(invariants._check_map, bad) == want
            found += bool(want[1]) if isinstance(want[1], list) else 1
            refused += invariants._map_counts(bad) is None
    assert found > 50
    assert refused >= found


def _verdict(state: DeusState) -> Any:
    try:
        return invariants.check(state)
    except Exception as exc:  # a corrupted tableau may break the check
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("players", [2, 4])
def test_deus_21_3_cheap_column_test_gives_the_card_by_card_verdict(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """check() looks at a tableau card by card only when the cheap column test fails: on
    played and corrupted tableaux (cards in another colour's column, blind cards, a wrong
    blind count) it says what the card-by-card check says, and the cheap test refuses them."""
    state = new(players, 30 + players, blind_building=True)
    rng = Rng(players)
    refused = found = 0
    cheap = invariants._columns_ok
    for _ in every_fifth(state, rng, 600):
        for k in range(4):
            bad = state.copy()
            bad.cols = [[col[:] for col in cols] for cols in bad.cols]
            bad.blind_used = bad.blind_used[:]
            s = rng.randbelow(players)
            cols = bad.cols[s]
            if k == 1:
                bad.blind_used[s] = rng.choice([0, 1, 2, -1])
            elif k >= 2:
                col = cols[rng.randbelow(len(cols))]
                t = rng.choice(state.deck or [0])
                col.append(t + BLIND_MARK if k == 3 else t)
            got = _verdict(bad)
            with monkeypatch.context() as m:
                m.setattr(invariants, "_columns_ok", lambda *a: False)
                want = _verdict(bad)
            assert got == want
            found += want != []
            refused += not all(cheap(bad, p, c) for p, c in enumerate(bad.cols))
    assert found > 50
    assert refused >= found
