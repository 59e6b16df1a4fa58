"""Deus (Pearl Games, 2014, base game) for 2-4 players.

Rules: ``shared/rules/deus.md`` (ids DEUS-…, resolutions AMB-…, scenarios T…); data:
``data/*.json`` (copies of ``shared/data/deus``). Grep a rule id to find its code and its test.

>>> from civtable import games
>>> g = games.get("deus")
>>> s = g.new_game(players=3, seed=3)
>>> len(s.view(0)["hand"])
5
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from civtable.core.api import JSON, Game
from civtable.games.deus.actions import ACTION_SPACE
from civtable.games.deus.rules import setup
from civtable.games.deus.state import DeusState


class Deus(Game):
    """The Deus game: factory, action space and (de)serialization."""

    id = "deus"
    name = "Deus"
    min_players = 2
    max_players = 4
    #: named option sets, the variants the lobby offers (``civtable play deus --options
    #: free-start``); their names and descriptions are catalogue keys ``deus.preset.<name>``
    option_presets: ClassVar[dict[str, JSON]] = {
        "standard": {},
        "random-board": {"board": "random"},  # DEUS-3.5, DEUS-21.2
        "free-start": {"free_start": 10},  # DEUS-21.1
        "free-start-experienced": {"free_start": 8},
        "free-start-expert": {"free_start": 6},
        "blind-building": {"blind_building": True},  # DEUS-21.3
        "open-scores": {"public_vp": True},  # DEUS-20.3
    }

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> DeusState:
        """A new game after setup (DEUS-4; variants DEUS-21 as options)."""
        return setup.new_game(self, players, seed, options)

    def action_space_size(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """The same for every player count (see :mod:`.actions`)."""
        return ACTION_SPACE

    def state_from_json(self, doc: JSON) -> DeusState:
        """Inverse of :meth:`DeusState.to_json`."""
        return DeusState.from_json(self, doc)

    def default_options(self) -> JSON:
        """``board``, ``first_player``, ``free_start``, ``blind_building``, ``public_vp``."""
        return dict(setup.DEFAULT_OPTIONS)

    def describe_rules(self) -> str:
        """Where the rules live."""
        return "shared/rules/deus.md (rule ids DEUS-…, resolutions AMB-…, scenarios T1…T21)"


GAME = Deus()
__all__ = ["GAME", "Deus", "DeusState"]
