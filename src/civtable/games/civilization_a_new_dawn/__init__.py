"""Sid Meier's Civilization: A New Dawn (FFG 2017, base game) for 2-4 players.

Rules: ``shared/rules/civilization_a_new_dawn.md`` (ids CIV-…); grep the id to find its code and
its test.

>>> from civtable import games
>>> g = games.get("civilization-a-new-dawn")
>>> s = g.new_game(players=3, seed=1)
>>> len(s.view(0)["map"]["spaces"])
131
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from civtable.core.api import JSON, Game
from civtable.games.civilization_a_new_dawn import rules as _rules  # registers the handlers
from civtable.games.civilization_a_new_dawn.actions import ACTION_SPACE
from civtable.games.civilization_a_new_dawn.rules import setup
from civtable.games.civilization_a_new_dawn.state import CivState

del _rules


class CivilizationANewDawn(Game):
    """The game: factory, action space and (de)serialization."""

    id = "civilization-a-new-dawn"
    name = "Sid Meier's Civilization: A New Dawn"
    min_players = 2
    max_players = 4
    #: named option sets the lobby offers (``civtable simulate civilization-a-new-dawn --options
    #: epic-game``): the first-game map (CIV-3.11), a standard map placed by the players (CIV-4) or
    #: at random, and the epic game (CIV-25)
    option_presets: ClassVar[dict[str, JSON]] = {
        "first-game": {"map": "first_game"},
        "standard-map": {"map": "standard"},
        "random-map": {"map": "standard_random"},
        "epic-game": {"map": "standard_random", "epic": True},
    }

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> CivState:
        """A new game after setup (CIV-3)."""
        return setup.new_game(self, players, seed, options)

    def action_space_size(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """The same for every player count (see :mod:`.actions`)."""
        return ACTION_SPACE

    def state_from_json(self, doc: JSON) -> CivState:
        """Inverse of :meth:`CivState.to_json`."""
        return CivState.from_json(self, doc)

    def default_options(self) -> JSON:
        """Map, leaders, epic variant, turn cap, CIV-A13 flag."""
        return dict(setup.DEFAULT_OPTIONS)

    def describe_rules(self) -> str:
        """Where the rules live."""
        return "shared/rules/civilization_a_new_dawn.md (rule ids CIV-…, scenarios CIV-T1…T20)"


GAME = CivilizationANewDawn()
__all__ = ["GAME", "CivState", "CivilizationANewDawn"]
