"""Through the Ages: A New Story of Civilization (CGE 2015) for 2-4 players.

The full game (option ``{"mode": "full"}``, the default: ages A-III, Age IV, politics, wars,
colonies, final scoring events; TTA-13) and the first (simplified) game of the rulebook
(``{"mode": "first"}``, TTA-14). Rules: ``shared/rules/through_the_ages.md`` (ids TTA-…); grep the
id to find its code and its test. See ``docs/through-the-ages.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from civtable.core.api import JSON, Game
from civtable.games.through_the_ages.actions import ACTION_SPACE, RESIGN, possible_ids
from civtable.games.through_the_ages.rules import setup
from civtable.games.through_the_ages.state import TTAState


class ThroughTheAges(Game):
    """The Through the Ages game: factory, action space and (de)serialization."""

    id = "through-the-ages"
    name = "Through the Ages: A New Story of Civilization"
    min_players = 2
    max_players = 4
    #: named option sets (``civtable simulate through-the-ages --options first-game``)
    #: TTA-6.8 resignation (random bots do not resign)
    concede_actions: ClassVar[frozenset[int]] = frozenset({RESIGN})
    option_presets: ClassVar[dict[str, JSON]] = {
        "full-game": {"mode": "full"},
        "first-game": {"mode": "first"},
        "shorter-game": {"mode": "shorter"},
        "peaceful-game": {"mode": "full", "peaceful": True},
        "world-wars": {"mode": "full", "peaceful": True, "world_wars": True},
    }

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> TTAState:
        """A new game after setup (TTA-2)."""
        return setup.new_game(self, players, seed, options)

    def action_space_size(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """The same for every player count (see :mod:`.actions`)."""
        return ACTION_SPACE

    def action_ids(self, players: int, options: Mapping[str, Any] | None = None) -> tuple[int, ...]:
        """About 1,000 of the 6,904 ids can be legal (:func:`.actions.possible_ids`): most of
        the table is card-indexed ranges that only a few card types use."""
        self.check_players(players)
        return possible_ids(players)

    def state_from_json(self, doc: JSON) -> TTAState:
        """Inverse of :meth:`TTAState.to_json`."""
        return TTAState.from_json(self, doc)

    def default_options(self) -> JSON:
        """``mode``: ``"full"`` (the default) or ``"first"`` (the first game, TTA-14)."""
        return dict(setup.DEFAULT_OPTIONS)

    def upgrade_options(self, options: Mapping[str, Any] | None) -> JSON:
        """Records without ``mode`` predate the full game, when the first game was the only
        mode (and the default): they are first games."""
        opts = dict(options or {})
        opts.setdefault("mode", "first")
        return opts

    def describe_rules(self) -> str:
        """Where the rules live."""
        return "shared/rules/through_the_ages.md (rule ids TTA-…, scenarios T-01…T-23)"


GAME = ThroughTheAges()
__all__ = ["GAME", "TTAState", "ThroughTheAges"]
