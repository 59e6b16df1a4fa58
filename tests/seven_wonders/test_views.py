"""Hidden information (SW-3.9, AMB-25): what ``view(seat)`` reveals, and ``determinize``.

The leak checks scan the JSON text of a view for every card id the seat may not know. A card
type can legitimately appear because another copy of it is public (two Lumber Yards in a
4-player game), so the ids checked are those of card types the seat cannot see anywhere.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from civtable import games
from civtable.core.rng import Rng
from civtable.games.seven_wonders.catalog import BOARDS, CARDS, COLORS, GUILDS, SCIENCE
from civtable.games.seven_wonders.invariants import cards_in_play
from civtable.games.seven_wonders.rules.turn import hand_of
from civtable.games.seven_wonders.scoring import CATEGORIES
from civtable.games.seven_wonders.state import (
    HALI_PHASE,
    MAIN,
    OVER,
    PHASE_NAMES,
    SevenWondersState,
)
from civtable.games.seven_wonders.words import render
from civtable.present import Ctx

from .test_properties import (
    check_invariants,
    new_game,
    play_random,
    random_step,
)

SETTINGS = settings(max_examples=30, derandomize=True, database=None, deadline=None)

players_st = st.integers(min_value=2, max_value=7)
seed_st = st.integers(min_value=0, max_value=2**63)
policy_st = st.integers(min_value=0, max_value=2**32)

ALL_IDS = {c.id for c in CARDS}
ALL_NAMES = {c.name for c in CARDS}


def test_card_ids_do_not_collide_with_other_view_strings() -> None:
    """The text scan below is only sound if no other string of a view equals a card id."""
    others = set(CATEGORIES) | set(COLORS) | set(SCIENCE) | set(PHASE_NAMES)
    others |= {b.id for b in BOARDS} | {b.wonder for b in BOARDS} | {"build", "stage", "discard"}
    assert not ALL_IDS & others


# --- what a seat may know -------------------------------------------------------------------------
def legitimate_cards(state: SevenWondersState, seat: int | None) -> set[int]:
    """Card types ``seat`` may see now (SW-3.9); ``None`` = a spectator."""
    known = {t for city in state.cities for t in city.built}  # public structures
    if seat is None:
        return known
    own = state.city_of(seat)
    known.update(state.hands[own])  # own hand
    known.update(state.cities[own].stage_cards)  # own stage markers
    known.update(t for t, k in zip(state.discard, state.discard_known, strict=True) if k == seat)
    deciding = state.current_city(seat)
    if deciding >= 0:
        known.update(hand_of(state, deciding))  # the hand the seat chooses from now
    for c in state.seat_cities(seat) if state.phase != OVER else [own]:
        commit, pending = state.commits[c], state.await_pay[c]
        if commit is not None:
            known.add(commit[1])  # own (or own Free City) choice
        if pending is not None:
            known.add(pending[1])
    if state.phase == HALI_PHASE and deciding == state.hali_city:
        known.update(state.discard)  # SW-10.11: the Halikarnassus player sees the pile
    if state.two_player and state.phase != OVER and state.controller == own:
        # The engine shows the Free City's stage markers to the seat controlling it this turn.
        known.update(state.cities[0].stage_cards)
    return known


def leaked_ids(doc: Any, hidden: set[str]) -> set[str]:
    """Hidden card ids that occur as a JSON string anywhere in ``doc``."""
    return set(re.findall(r'"([^"\\]*)"', json.dumps(doc))) & hidden


NAME_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(n) for n in sorted(ALL_NAMES, key=len, reverse=True)) + r")\b"
)


def leaked_names(texts: list[str], hidden_names: set[str]) -> set[str]:
    """Hidden card names mentioned in free texts (labels, log). Longer names are matched first,
    so "Siege Workshop" is not read as a mention of "Workshop". Wonder names are public and are
    left out first ("Statue of Zeus" mentions no card Statue)."""
    text = "\n".join(texts)
    for board in BOARDS:
        text = text.replace(board.wonder, "")
    return set(NAME_RE.findall(text)) & hidden_names


def free_texts(doc: dict[str, Any], log_from: int = 0) -> list[str]:
    """The human-readable texts of a view: the developer's action labels, and the player words
    made from it (action labels, log lines from ``log_from``, prompt, reasons)."""
    texts = [a["label"] for a in doc.get("legal", [])]
    words = render(doc, Ctx())
    texts += list(words["legal"].values()) + words["log"][log_from:] + [words["prompt"]]
    texts += list(words["reasons"].values()) + list(words["chosen"].values())
    return texts


def check_view(state: SevenWondersState, seat: int | None, log_from: int = 0) -> int:
    """The view of ``seat`` names no card the seat may not know, and is complete for its own.

    Log lines before ``log_from`` were checked earlier; returns the log length for next time.
    """
    doc = state.view(seat)
    legit = legitimate_cards(state, seat)
    legit_names = {CARDS[t].name for t in legit}
    texts = free_texts(doc, log_from)
    assert not leaked_names(texts, ALL_NAMES - legit_names), texts
    log_size = len(doc.pop("log", []))
    hidden = ALL_IDS - {CARDS[t].id for t in legit}
    assert not leaked_ids(doc, hidden), (seat, leaked_ids(doc, hidden))
    # Public facts are all there (SW-3.9).
    for c, city in enumerate(state.cities):
        public = doc["cities"][c]
        assert public["structures"] == [CARDS[t].id for t in city.built]
        assert public["coins"] == city.coins
        assert public["tokens"] == city.tokens
        assert public["stages_built"] == city.stages
        is_fc = state.two_player and c == 0
        # Public hand size = cards held at the start of the step, chosen cards included, so it
        # does not reveal hidden choices (the Free City's card comes from its controller).
        chosen = [x for x in hidden_commit_cities(state, -1) if x == c]
        if state.two_player and state.phase == MAIN and state.controller == c:
            chosen += [x for x in hidden_commit_cities(state, -1) if x == 0]
        assert public["hand_size"] == (0 if is_fc else len(state.hands[c]) + len(chosen))
    assert doc["discard_size"] == len(state.discard)
    private = ("hand", "stage_cards", "my_discards", "commitments", "discard_pile", "legal")
    if seat is None:
        assert not set(private) & set(doc), "a spectator has no hand or private data"
        return log_size
    own = state.city_of(seat)
    # The seat's own private facts are all there.
    assert doc["hand"] == [CARDS[t].id for t in state.hands[own]]
    assert doc["stage_cards"] == [CARDS[t].id for t in state.cities[own].stage_cards]
    mine = [
        CARDS[t].id for t, k in zip(state.discard, state.discard_known, strict=True) if k == seat
    ]
    assert doc["my_discards"] == mine
    assert [a["id"] for a in doc["legal"]] == state.legal_actions(seat)
    if state.phase != OVER:
        for c in state.seat_cities(seat):
            commit = state.commits[c] if state.needs[c] else None
            pending = state.await_pay[c]
            if commit is not None or pending is not None:
                card = commit[1] if commit is not None else pending[1]  # type: ignore[index]
                assert doc["commitments"][str(c)]["card"] == CARDS[card].id
    if state.phase == HALI_PHASE and state.current_city(seat) == state.hali_city:
        assert doc["discard_pile"] == [CARDS[t].id for t in state.discard]
    return log_size


def check_all_views(state: SevenWondersState, rng: Rng | None = None) -> None:
    """Check the views of every seat and of a spectator (log lines from scratch)."""
    for seat in [None, *range(state.players)]:
        check_view(state, seat)


# --- leak tests -----------------------------------------------------------------------------------
@SETTINGS
@given(players=players_st, seed=seed_st, policy=policy_st)
def test_sw_3_9_views_reveal_only_what_the_seat_may_know(
    players: int, seed: int, policy: int
) -> None:
    state = new_game(players, seed, "B")
    state.log = []  # the log is part of the view too
    checked = dict.fromkeys([None, *range(players)], 0)

    def check_views(s: SevenWondersState, r: Rng) -> None:
        for seat, log_from in checked.items():
            checked[seat] = check_view(s, seat, log_from)

    play_random(state, Rng(policy), check=False, hook=check_views)
    check_views(state, Rng(0))
    assert "result" in state.view(None)
    assert len(state.log) >= 3 * 6 * state.n  # at least one line per action


def test_sw_3_9_leak_checker_detects_a_leak() -> None:
    """The checker is not vacuous: another seat's hand, commitment and discards are caught."""
    state = new_game(4, 3, "A")
    state.log = []
    other = state.hands[1]
    other_only = {CARDS[t].id for t in other} - {CARDS[t].id for t in legitimate_cards(state, 0)}
    assert other_only
    assert leaked_ids(state.view(1), other_only) == other_only  # seat 1 sees its own hand
    assert not leaked_ids(state.view(0), other_only)
    assert leaked_names([f"build {CARDS[other[0]].name}"], {CARDS[other[0]].name})
    assert not leaked_names(["build Siege Workshop"], {"Workshop"})
    assert leaked_names(["build Siege Workshop"], {"Siege Workshop"}) == {"Siege Workshop"}
    # After seat 1 commits, its choice is hidden from seat 0 but shown to seat 1.
    action = state.legal_actions(1)[0]
    state.apply(1, action)
    card = CARDS[action % len(CARDS)].id
    assert state.view(1)["commitments"]["1"]["card"] == card
    assert state.view(0)["commitments"] == {}
    check_all_views(state)


def test_sw_3_9_discards_known_only_to_the_discarding_seat() -> None:
    state = new_game(3, 12, "A")
    state.log = []
    for seat in range(3):
        discard = next(a for a in state.legal_actions(seat) if a >= 2 * len(CARDS))
        state.apply(seat, discard)
    assert len(state.discard) == 3
    for seat in range(3):
        doc = state.view(seat)
        assert doc["my_discards"] == [CARDS[state.discard[seat]].id]
        assert "discard_pile" not in doc
        check_view(state, seat)
    assert "my_discards" not in state.view(None)


def test_sw_14_free_city_pile_never_shown() -> None:
    """SW-14.2: the Free City draw pile is face down; only the drawn card reaches the controller."""
    state = new_game(2, 30, "A")
    rng = Rng(30)
    while not state.is_terminal():
        pile = {CARDS[t].id for t in state.hands[0]}
        for seat in (None, 0, 1):
            doc = state.view(seat)
            visible = {CARDS[t].id for t in legitimate_cards(state, seat)}
            assert not leaked_ids(doc, pile - visible)
            assert doc["free_city_pile_size"] == len(state.hands[0])
        random_step(state, rng)


# --- determinize ----------------------------------------------------------------------------------
def hidden_commit_cities(state: SevenWondersState, seat: int) -> list[int]:
    """Cities (not decided by ``seat``) with a commitment or payment choice ``seat`` cannot see."""
    if seat < 0:
        own: set[int] = set()
    else:
        own = set(state.seat_cities(seat)) if state.phase != OVER else {state.city_of(seat)}
    return [
        c
        for c in range(state.n)
        if c not in own
        and ((state.commits[c] is not None and state.needs[c]) or state.await_pay[c] is not None)
    ]


def expected_view_after_determinize(state: SevenWondersState, seat: int) -> dict[str, Any]:
    """``determinize``'s contract: the seat's view is exactly the same. Others' hidden choices
    are re-dealt and re-made, so who has chosen and the public hand sizes do not change."""
    return state.view(seat)


def guild_free(counter: Counter[int]) -> Counter[int]:
    """The non-guild part of a card multiset."""
    return Counter({t: k for t, k in counter.items() if not CARDS[t].is_guild})


def check_determinize(state: SevenWondersState, seat: int, rng_seed: int) -> SevenWondersState:
    """One determinization of ``state`` for ``seat``, checked against its contract."""
    before = state.state_hash()
    det = state.determinize(seat, Rng(rng_seed))
    assert state.state_hash() == before, "determinize leaves the original alone"
    assert det.view(seat) == expected_view_after_determinize(state, seat)
    # The same generator gives the same determinization.
    assert state.determinize(seat, Rng(rng_seed)).state_hash() == det.state_hash()
    # Cards: same multiset except the guilds, which may be re-drawn (same number, distinct).
    orig, new = cards_in_play(state), cards_in_play(det)
    assert guild_free(new) == guild_free(orig)
    assert sum(new.values()) == sum(orig.values())
    new_guilds = [t for t in new.elements() if CARDS[t].is_guild]
    assert len(new_guilds) == len(set(new_guilds)), "SW-2.3: each guild exists once"
    assert set(new_guilds) <= set(GUILDS)
    # What the seat sees stays in place.
    own = state.city_of(seat)
    assert det.hands[own] == state.hands[own]
    assert det.cities[own].stage_cards == state.cities[own].stage_cards
    for c in range(state.n):
        assert det.cities[c].built == state.cities[c].built
    check_invariants(det)
    return det


@SETTINGS
@given(players=players_st, seed=seed_st, policy=policy_st)
def test_sw_3_9_determinize_keeps_the_view_and_conserves_cards(
    players: int, seed: int, policy: int
) -> None:
    state = new_game(players, seed, "B")
    checked = 0

    def maybe_determinize(s: SevenWondersState, r: Rng) -> None:
        nonlocal checked
        if r.randbelow(12) == 0:
            seat = r.randbelow(s.players)
            det = check_determinize(s, seat, r.next_u64())
            if checked % 4 == 0:  # random play goes on to the end from the sampled state
                play_random(det, Rng(r.next_u64()))
                assert det.is_terminal()
            checked += 1

    play_random(state, Rng(policy), check=False, hook=maybe_determinize)
    for seat in range(players):
        check_determinize(state, seat, seat)


def test_sw_3_9_determinize_redeals_hidden_cards() -> None:
    """Other hands are actually re-sampled (not copied), own hand kept."""
    state = new_game(4, 44, "A")
    others = {
        tuple(tuple(d.hands[c]) for c in (1, 2, 3))
        for d in (state.determinize(0, Rng(k)) for k in range(20))
    }
    assert len(others) > 10
    assert all(state.determinize(0, Rng(k)).hands[0] == state.hands[0] for k in range(20))


def test_sw_2_3_determinize_redraws_unseen_guilds_in_age_3() -> None:
    state = new_game(3, 45, "A")
    rng = Rng(45)
    while state.age < 3:
        random_step(state, rng)
    in_play = {t for t in cards_in_play(state) if CARDS[t].is_guild}
    own_guilds = {t for t in state.hands[0] if CARDS[t].is_guild}
    seen_sets = set()
    for k in range(30):
        det = check_determinize(state, 0, k)
        guilds = frozenset(t for t in cards_in_play(det) if CARDS[t].is_guild)
        assert own_guilds <= guilds
        assert len(guilds) == len(in_play)
        seen_sets.add(guilds)
    assert len(seen_sets) > 1, "the unseen guilds are re-drawn from all ten"


def test_view_labels_are_the_describe_labels_in_every_phase() -> None:
    """The view builds its labels in one pass (sharing the stage payment); each must be
    ``describe``'s label, in main steps, payment choices, Babylon's extra step, Halikarnassus
    and for the Free City (SW-14)."""
    seen: Counter[str] = Counter()
    for players, seed in ((2, 3), (3, 4), (4, 5), (7, 6), (7, 7)):
        state = games.get("seven-wonders").new_game(players, seed, {"sides": "B"})
        rng = Rng(seed)
        while not state.is_terminal():
            seat = rng.choice(state.to_move())
            legal = state.legal_actions(seat)
            labels = {e["id"]: e["label"] for e in state.view(seat)["legal"]}
            assert labels == {a: state.describe(seat, a) for a in legal}
            seen.update(label.split(" ")[0] for label in labels.values())
            state.apply(seat, rng.choice(legal))
    assert {"build", "discard", "pay", "Free"} <= set(seen), seen
