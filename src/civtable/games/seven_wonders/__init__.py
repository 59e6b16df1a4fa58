"""7 Wonders (first edition, base game) for 2-7 players.

Rules: ``shared/rules/seven_wonders.md`` (ids SW-…); grep the id to find its code and its test.

>>> from civtable import games
>>> g = games.get("seven-wonders")
>>> s = g.new_game(players=4, seed=3, options={"sides": "A"})
>>> len(s.view(0)["hand"])
7
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civtable.core.api import JSON, Game
from civtable.games.seven_wonders.actions import ACTION_SPACE
from civtable.games.seven_wonders.rules import setup
from civtable.games.seven_wonders.state import SevenWondersState


class SevenWonders(Game):
    """The 7 Wonders game: factory, action space and (de)serialization."""

    id = "seven-wonders"
    name = "7 Wonders"
    min_players = 2
    max_players = 7

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> SevenWondersState:
        """A new game after setup (SW-2; 2 players = the Free City variant, SW-14)."""
        return setup.new_game(self, players, seed, options)

    def action_space_size(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """The same for every player count (see :mod:`.actions`)."""
        return ACTION_SPACE

    def state_from_json(self, doc: JSON) -> SevenWondersState:
        """Inverse of :meth:`SevenWondersState.to_json`."""
        return SevenWondersState.from_json(self, doc)

    def default_options(self) -> JSON:
        """``boards`` and ``sides``, both ``"random"``."""
        return dict(setup.DEFAULT_OPTIONS)

    def describe_rules(self) -> str:
        """Where the rules live."""
        return "shared/rules/seven_wonders.md (rule ids SW-…, scenarios T-01…T-35)"


GAME = SevenWonders()
__all__ = ["GAME", "SevenWonders", "SevenWondersState"]
