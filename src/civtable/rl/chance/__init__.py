"""Explicit chance for OpenSpiel: a game's random draws turned into chance decisions.

A civtable engine draws its randomness from the state's own :class:`~civtable.core.Rng` (board
assignment, deck shuffles). OpenSpiel algorithms that reason about chance want those draws as
*chance nodes* with listed outcomes and probabilities. A :class:`ChanceDriver` wraps an engine
state and replaces each random draw by a sequence of explicit chance decisions (for 7 Wonders:
each wonder board, each side, then every card of every age deal, one at a time), so that an
OpenSpiel history of chance outcomes and player actions determines the state exactly.

A new game plugs in by adding a driver module here and an entry in :data:`DRIVERS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from civtable.core.api import Game, State
from civtable.core.plugins import load_plugin

#: game id -> "module:class" of its chance driver
DRIVERS: dict[str, str] = {
    "seven-wonders": "civtable.rl.chance.seven_wonders:SevenWondersChance",
    "deus": "civtable.rl.chance.deus:DeusChance",
    "civilization-a-new-dawn": "civtable.rl.chance.civilization_a_new_dawn:CivilizationChance",
    "through-the-ages": "civtable.rl.chance.through_the_ages:ThroughTheAgesChance",
}


class ChanceDriver(ABC):
    """Owns an engine state and feeds it explicit chance outcomes.

    Life cycle: while :meth:`pending` is true the OpenSpiel state is a chance node and
    :meth:`outcomes` lists ``(outcome, probability)`` pairs (sorted, probabilities > 0, summing
    to 1); :meth:`apply` records one. :attr:`state` is ``None`` until setup's chance decisions are
    done. After every player move the caller invokes :meth:`after_move`, which may open new
    chance decisions (a new deal).
    """

    #: the engine state, once setup's chance decisions are done
    state: State | None
    #: chance outcomes are integers in ``[0, max_outcomes)``
    max_outcomes: int
    #: an upper bound of the chance decisions in one game
    max_chance_nodes: int
    #: an upper bound of the player decisions in one game
    max_game_length: int

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None) -> None:
        self.game = game
        self.players = players
        self.options = dict(options or {})

    @abstractmethod
    def pending(self) -> bool:
        """Is a chance decision due now?"""

    @abstractmethod
    def outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the due chance decision with their probabilities, sorted."""

    @abstractmethod
    def apply(self, outcome: int) -> None:
        """Record the outcome of the due chance decision (``ValueError`` if impossible)."""

    @abstractmethod
    def after_move(self) -> None:
        """Called after each player move on :attr:`state`: opens new chance decisions if due."""

    @abstractmethod
    def label(self, outcome: int) -> str:
        """A readable label of ``outcome`` for the due chance decision."""

    @abstractmethod
    def copy(self) -> ChanceDriver:
        """An independent copy (the engine state copied too)."""

    @abstractmethod
    def with_state(self, state: State) -> ChanceDriver:
        """A copy driving ``state`` instead (used after determinization; no chance pending)."""

    def progress(self) -> str:
        """A short description of the chance decisions in progress (for ``str(state)``)."""
        return ""


def driver_for(game_id: str, players: int, options: Mapping[str, Any] | None) -> ChanceDriver:
    """A fresh chance driver for a new game of ``game_id`` (setup decisions pending)."""
    from civtable import games

    cls = load_plugin(DRIVERS, game_id, "chance driver")
    driver: ChanceDriver = cls(games.get(game_id), players, options)
    return driver


__all__ = ["DRIVERS", "ChanceDriver", "driver_for"]
