"""Hidden information (CIV-26.2): only the face-down wonder decks and the removed wonders are
secret; views never name them, and ``determinize`` re-deals exactly those."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import WONDERS

from .test_properties import new_game, random_step

SETTINGS = settings(max_examples=5, derandomize=True, database=None, deadline=None)


def hidden_wonders(s) -> set[str]:  # type: ignore[no-untyped-def]
    """Wonder ids the table cannot see now: removed ones and non-top deck cards."""
    out = {WONDERS[w].id for w in s.wremoved}
    for deck in s.wdecks:
        out |= {WONDERS[w].id for w in deck[1:]}
    return out


@SETTINGS
@given(st.integers(2, 4), st.integers(0, 2**40))
def test_civ_26_2_views_never_leak_face_down_wonders(players: int, seed: int) -> None:
    s = new_game(players, seed)
    rng = Rng(seed)
    for step in range(200):
        if s.is_terminal():
            break
        if step % 20 == 0:
            secret = hidden_wonders(s)
            for seat in [None, *range(players)]:
                text = json.dumps(s.view(seat))
                for wid in secret:
                    assert f'"{wid}"' not in text, (seat, wid)
        random_step(s, rng)


def test_civ_26_2_view_is_json_and_has_map_and_legal() -> None:
    s = new_game(3, 2)
    seat = s.to_move()[0]
    v = s.view(seat)
    json.dumps(v)
    assert len(v["map"]["spaces"]) == 131  # D12.2: 130 tile spaces + the water token (-2, 2)
    assert {"q", "r", "terrain", "difficulty"} <= set(v["map"]["spaces"][0])
    assert [a["id"] for a in v["legal"]] == s.legal_actions(seat)
    assert all(a["label"] for a in v["legal"])
    other = (seat + 1) % 3
    assert s.view(other)["legal"] == []
    assert "legal" not in s.view(None)
    assert all(set(a) == {"id"} for a in s.view(seat, labels=False)["legal"])


@SETTINGS
@given(st.integers(2, 4), st.integers(0, 2**40))
def test_civ_26_2_determinize_keeps_the_view(players: int, seed: int) -> None:
    s = new_game(players, seed)
    rng = Rng(seed)
    for _ in range(100):
        random_step(s, rng)
    seat = s.to_move()[0]
    d = s.determinize(seat, Rng(seed + 1))
    assert json.dumps(d.view(seat), sort_keys=True) == json.dumps(s.view(seat), sort_keys=True)
    before = sorted(w for deck in s.wdecks for w in deck) + sorted(s.wremoved)
    after = sorted(w for deck in d.wdecks for w in deck) + sorted(d.wremoved)
    assert sorted(before) == sorted(after)
    for deck_s, deck_d in zip(s.wdecks, d.wdecks, strict=True):
        assert [WONDERS[w].era for w in deck_s] == [WONDERS[w].era for w in deck_d]
    if players < 4:
        changed = any(a != b for a, b in zip(s.wdecks, d.wdecks, strict=True)) or sorted(
            s.wremoved
        ) != sorted(d.wremoved)
        assert changed or all(len(x) <= 1 for x in s.wdecks)


@pytest.mark.parametrize(("players", "seed", "map_"), [(2, 5, "first_game"), (4, 11, "standard")])
def test_issue21_shared_view_parts_equal_views_built_afresh(
    players: int, seed: int, map_: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parts of views shared between positions (players, tokens on the map, mature cities) are
    the parts a view built from nothing has, at every decision of a game and for every seat."""
    from civtable.games.civilization_a_new_dawn import view as V  # noqa: N812

    s = new_game(players, seed, map_)
    rng = Rng(seed)
    for _ in range(400):
        if s.is_terminal():
            break
        shared = [json.dumps(s.view(v), sort_keys=True) for v in [None, *range(players)]]
        monkeypatch.setattr(V, "SHARE_PARTS", False)
        s.board.mature_memo.clear()
        fresh = [json.dumps(s.view(v), sort_keys=True) for v in [None, *range(players)]]
        monkeypatch.setattr(V, "SHARE_PARTS", True)
        assert shared == fresh
        random_step(s, rng)


@pytest.mark.parametrize(
    ("players", "seeds", "map_"),
    [
        (2, (21, 22), "first_game"),
        (3, (23, 24), "standard"),
        (4, (25, 26), "first_game"),
        (4, (27, 28), "standard"),
    ],
)
def test_issue21_views_equal_views_of_a_fresh_state_with_nothing_shared(
    players: int, seeds: tuple[int, int], map_: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CIV-26.2 views stay what they were when built from nothing: two games are played in
    turn (so what the last view read switches between maps and positions), and at every
    decision each seat's view and a spectator's equal the views of a state rebuilt from the
    position's JSON with no part shared, no mature-city memo and the map geometry built
    again. A shared part whose key misses an input fails here."""
    from civtable.games.civilization_a_new_dawn import view as V  # noqa: N812

    from .test_properties import GAME

    games = [new_game(players, seed, map_) for seed in seeds]
    rngs = [Rng(seed) for seed in seeds]
    viewers = [None, *range(players)]
    compared = 0
    for step in range(250):
        for s, rng in zip(games, rngs, strict=True):
            if s.is_terminal():
                continue
            shared = [json.dumps(s.view(v), sort_keys=True) for v in viewers]
            rebuilt = GAME.state_from_json(s.to_json())
            monkeypatch.setattr(V, "SHARE_PARTS", False)
            rebuilt.board.mature_memo.clear()
            fresh = [json.dumps(rebuilt.view(v), sort_keys=True) for v in viewers]
            monkeypatch.setattr(V, "SHARE_PARTS", True)
            assert shared == fresh, (seeds, step)
            compared += 1
            random_step(s, rng)
    assert compared >= 250
