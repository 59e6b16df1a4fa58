"""The payment search's memo tables are pure caches (SW-7): bounding them changes nothing."""

from __future__ import annotations

import pytest

from civtable import games
from civtable.core import Rng
from civtable.games.seven_wonders.rules import trade


def _play(players: int, seed: int) -> tuple[str, list[int]]:
    state = games.get("seven-wonders").new_game(players, seed)
    rng = Rng(seed)
    sizes = []
    while not state.is_terminal():
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            sizes.append(len(legal))
            state.apply(seat, rng.choice(legal))
    return state.state_hash(), sizes


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (7, 13), (2, 14)])
def test_sw_7_payment_cache_bound_does_not_change_play(
    monkeypatch: pytest.MonkeyPatch, players: int, seed: int
) -> None:
    expected = _play(players, seed)
    monkeypatch.setattr(trade, "_CACHE_LIMIT", 3)  # tables are cleared almost every insert
    for table in (trade._own_info, trade._split_cache, trade._project_cache):
        table.clear()
    assert _play(players, seed) == expected
    assert len(trade._split_cache) <= 4
