"""The game registry: ``civtable.games.get(game_id)``.

Each game lives in its own package and is imported lazily on first use, so importing civtable
stays cheap. Games whose issue has not landed are listed as planned and cannot be started.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from civtable.core.api import Game
from civtable.core.errors import UnknownGameError


@dataclass(frozen=True)
class GameInfo:
    """A registry entry."""

    id: str
    name: str
    module: str | None  # None: planned, not implemented yet
    players: str


REGISTRY: dict[str, GameInfo] = {
    info.id: info
    for info in (
        GameInfo("seven-wonders", "7 Wonders", "civtable.games.seven_wonders", "2-7"),
        GameInfo(
            "through-the-ages",
            "Through the Ages: A New Story of Civilization",
            "civtable.games.through_the_ages",
            "2-4",
        ),
        GameInfo(
            "civilization-a-new-dawn",
            "Sid Meier's Civilization: A New Dawn",
            "civtable.games.civilization_a_new_dawn",
            "2-4",
        ),
        GameInfo("deus", "Deus", "civtable.games.deus", "2-4"),
    )
}

_loaded: dict[str, Game] = {}


def ids() -> list[str]:
    """All known game ids, playable or planned."""
    return list(REGISTRY)


def available() -> list[str]:
    """Ids of the games that can be played now."""
    return [i for i, info in REGISTRY.items() if info.module is not None]


def get(game_id: str) -> Game:
    """The :class:`~civtable.core.Game` registered under ``game_id``.

    >>> get("seven-wonders").name
    '7 Wonders'
    """
    info = REGISTRY.get(game_id)
    if info is None:
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {', '.join(REGISTRY)}")
    if info.module is None:
        raise UnknownGameError(f"{info.name} ({game_id!r}) is planned but not implemented yet")
    game = _loaded.get(game_id)
    if game is None:
        game = importlib.import_module(info.module).GAME
        _loaded[game_id] = game
    return game
