"""Bad options always get a clear error: any JSON in any option of any game either makes a
game or raises InvalidOptionsError — never TypeError, OverflowError or anything else."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable import games
from civtable.core.errors import InvalidOptionsError

GAMES = ["seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["random", "A", "B", "reference", "first", "full", "rome"]),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
)


def _try(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = games.get(game_id)
    try:
        game.new_game(players, 1, options)
    except InvalidOptionsError as exc:
        message = str(exc)
        assert message, "an options error says what is wrong"


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_json_option_is_accepted_or_clearly_refused(game_id: str, data: Any) -> None:
    game = games.get(game_id)
    keys = [*game.default_options(), "unknown"]
    key = data.draw(st.sampled_from(keys))
    value = data.draw(json_values)
    players = data.draw(st.integers(game.min_players, game.max_players))
    _try(game_id, players, {key: value})


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [
        ("seven-wonders", 3, {"boards": [["a"], ["b"], ["c"]]}),
        ("seven-wonders", 3, {"boards": [{"a": 1}, {}, {}]}),
        ("civilization-a-new-dawn", 2, {"leaders": [["x"], ["y"]]}),
        ("civilization-a-new-dawn", 2, {"map": ["x"]}),
        ("deus", 2, {"board": [[math.inf, "a", 0]]}),
        ("deus", 2, {"board": [[0, "a", math.nan]]}),
        ("deus", 2, {"board": [[True, "a", 0]]}),
    ],
)
def test_reported_malformed_options_are_refused(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    with pytest.raises(InvalidOptionsError):
        games.get(game_id).new_game(players, 1, options)
