"""Per-game plug-ins named as ``"package.module:Class"`` strings, imported on first use.

The RL wrappers keep one table per kind of plug-in (observation encoders, chance drivers), so a
new game plugs in by adding a line to a table, and nothing is imported until it is needed.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from civtable.core.errors import UnknownGameError


def load_plugin(table: Mapping[str, str], game_id: str, kind: str) -> type:
    """The class registered for ``game_id`` in ``table``.

    Raises :class:`UnknownGameError` naming ``kind`` and the games that have one.

    >>> load_plugin({"x": "civtable.core.rng:Rng"}, "x", "generator").__name__
    'Rng'
    """
    target = table.get(game_id)
    if target is None:
        raise UnknownGameError(
            f"no {kind} for game {game_id!r}; games with one: {', '.join(table)}"
        )
    module_name, _, class_name = target.partition(":")
    cls: type = getattr(importlib.import_module(module_name), class_name)
    return cls
