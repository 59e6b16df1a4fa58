"""Per-game extras for the web UI, looked up in one table.

A game's extras module (``EXTRAS[game_id]``, e.g. :mod:`civtable.server.seven_wonders`) may
define:

* ``catalog(lang) -> JSON``: the static data its table view draws (card names, texts, costs,
  board geometry…) in the language ``lang``, served at ``/api/game-types/{id}/catalog?lang=``;
* ``hints(view) -> JSON | None``: explanations for a seat's decision computed from that seat's
  view alone (never from the full state).

A playable game without extras still gets a generic catalogue, and the browser falls back to its
generic table view (``web/static/js/generic.js``), which draws the view and the labelled legal
actions every game's ``view()`` provides.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from civtable import games
from civtable.core.api import JSON

#: game id -> module with ``catalog()`` and optionally ``hints(view)``
EXTRAS: dict[str, str] = {
    "seven-wonders": "civtable.server.seven_wonders",
    "deus": "civtable.server.deus",
    "civilization-a-new-dawn": "civtable.server.civilization_a_new_dawn",
    "through-the-ages": "civtable.server.through_the_ages",
}

Hints = Callable[[JSON], JSON | None]


def extras_module(game_id: str) -> ModuleType | None:
    """The extras module of ``game_id``, or ``None`` when the game has none."""
    name = EXTRAS.get(game_id)
    return importlib.import_module(name) if name else None


def catalog(game_id: str, lang: str = "en") -> JSON:
    """The UI catalogue of a playable game in ``lang`` (raises ``UnknownGameError`` otherwise)."""
    game = games.get(game_id)
    module = extras_module(game_id)
    if module is not None:
        doc: JSON = module.catalog(lang)
        return doc
    return {
        "game": game_id,
        "name": game.name,
        "generic": True,
        "min_players": game.min_players,
        "max_players": game.max_players,
    }


#: extras module name -> its hint function (None: none), looked up once: a payload is built
#: after every change and each lookup went through ``importlib.import_module`` (issue 23)
_HINTS: dict[str, Hints | None] = {}


def hints(game_id: str) -> Hints | None:
    """The hint function of ``game_id`` (``None`` when it has none)."""
    name = EXTRAS.get(game_id)
    if name is None:
        return None
    try:
        return _HINTS[name]
    except KeyError:
        pass
    fn: Hints | None = getattr(importlib.import_module(name), "hints", None)
    _HINTS[name] = fn
    return fn
