"""Views leak nothing hidden (DEUS-20): other hands, the deck order, the discard pile under its
top card, others' blind-built cards and others' VP totals; determinize keeps the view."""

from __future__ import annotations

import json

import pytest

from civtable.core.rng import Rng
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import CARDS
from civtable.games.deus.state import DeusState

from .scenario import hand, new
from .test_properties import new_game


def _views_equal_after_redeal(state: DeusState, seat: int, rng: Rng) -> None:
    other = state.determinize(seat, rng)
    assert json.dumps(state.view(seat), sort_keys=True) == json.dumps(
        other.view(seat), sort_keys=True
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deus_20_views_do_not_depend_on_hidden_cards(players: int) -> None:
    """Over a whole random game: each seat's view of the real state equals its view of a
    state where everything it cannot see was re-dealt (determinize)."""
    state = new_game(players, 40 + players, {"blind_building": True, "free_start": 7})
    rng = Rng(players)
    steps = 0
    while not state.is_terminal() and steps < 3000:
        if steps % 7 == 0:
            for seat in range(players):
                _views_equal_after_redeal(state, seat, rng)
        seat = state.to_move()[rng.randbelow(len(state.to_move()))]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    assert state.is_terminal()


def test_deus_20_1_other_hands_not_in_view() -> None:
    s = new(3)
    hand(s, 0, "BRN-01", "BRN-02")
    hand(s, 1, "PUR-11", "RED-06")
    hand(s, 2, "YEL-12")
    for seat, secret in ((0, ("PUR-11", "RED-06", "YEL-12")), (2, ("BRN-01", "PUR-11"))):
        text = json.dumps(s.view(seat))
        for cid in secret:
            assert cid not in text
    spectator = json.dumps(s.view(None))
    for cid in ("BRN-01", "PUR-11", "YEL-12"):
        assert cid not in spectator
    v = s.view(1)
    assert v["hand"] == ["PUR-11", "RED-06"]
    assert [p["hand_size"] for p in v["player_states"]] == [2, 2, 1]


def test_deus_20_1_vp_hidden_unless_public_option() -> None:
    s = new(3)
    s.vp = [7, 8, 9]
    v = s.view(1)
    assert [p["vp"] for p in v["player_states"]] == [None, 8, None]
    s2 = new(3, public_vp=True)
    assert [p["vp"] for p in s2.view(0)["player_states"]] == [5, 5, 5]


def test_deus_21_3_blind_card_hidden_from_others() -> None:
    s = new(2, blind_building=True)
    hand(s, 0, "PUR-14", "BRN-01")
    s.apply(0, act.BLIND + CARDS.index(next(c for c in CARDS if c.id == "PUR-14")))
    s.apply(0, s.legal_actions(0)[0])  # a column
    s.apply(0, s.legal_actions(0)[0])  # a region
    assert "PUR-14" not in json.dumps(s.view(1))
    own = s.view(0)["player_states"][0]["columns"]
    assert any("PUR-14*" in col for col in own.values())
    assert any("blind" in col for col in s.view(1)["player_states"][0]["columns"].values())


def test_deus_20_discard_only_top_visible() -> None:
    s = new(2)
    hand(s, 0, "YEL-01", "RED-05", "GRN-09", "BRN-01", "BRN-02")
    s.apply(0, act.OFFER + CARDS.index(next(c for c in CARDS if c.id == "YEL-01")))
    s.apply(0, act.ADD + CARDS.index(next(c for c in CARDS if c.id == "GRN-09")))
    assert "GRN-09" not in json.dumps(s.view(1))  # an offering in progress: hidden cards
    s.apply(0, act.DONE)
    v = json.dumps(s.view(1))
    assert "GRN-09" not in v
    assert s.view(1)["discard_top"] == "YEL-01"
    assert s.view(1)["last_offering"] == {"seat": 0, "cards": 2}


def test_deus_view_is_json_friendly_with_legal_actions() -> None:
    s = new_game(3, 5)
    v = s.view(s.cur)
    assert json.loads(json.dumps(v)) == v
    assert [x["id"] for x in v["legal"]] == s.legal_actions(s.cur)
    assert all(isinstance(x["label"], str) for x in v["legal"])
    assert s.view(s.cur, labels=False)["legal"] == [{"id": a} for a in s.legal_actions(s.cur)]
    with pytest.raises(ValueError, match="no seat"):
        s.view(3)


def test_deus_view_pending_decision_in_words() -> None:
    s = new(2)
    hand(s, 0, "GRN-01", "YEL-01")
    s.apply(0, act.OFFER + CARDS.index(next(c for c in CARDS if c.id == "GRN-01")))
    s.apply(0, act.DONE)
    p = s.view(0)["pending"]
    assert p == {"decision": "gain_choice", "resources_left": 1, "pieces_left": 0}
    assert "pending" not in s.view(1)


def test_deus_20_views_taken_earlier_do_not_change_as_the_game_goes_on() -> None:
    """Views share the unchanging parts of their region entries (issue 21): a view taken before
    some moves still says what it said then, and a copy's view equals the original's."""
    from typing import Any

    from civtable.bots import make_bot

    s = new_game(4, 11)
    bot = make_bot("random", 11)
    taken: list[tuple[Any, str]] = []
    while not s.is_terminal():
        seat = s.to_move()[0]
        if len(s.history) % 25 == 0:
            for viewer in (seat, None):
                v = s.view(viewer)
                text = json.dumps(v, sort_keys=True)
                assert json.dumps(s.copy().view(viewer), sort_keys=True) == text
                taken.append((v, text))
        s.apply(seat, bot.choose(s, seat))
    assert len(taken) > 20
    for v, text in taken:
        assert json.dumps(v, sort_keys=True) == text
