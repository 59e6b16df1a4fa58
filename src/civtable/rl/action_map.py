"""The learning environments' action numbering: engine ids, or a compact renumbering of them.

An engine's action ids are a fixed table (:meth:`Game.action_space_size
<civtable.core.Game.action_space_size>`). Where most of the table can never be legal (Through the
Ages: about 1,000 of 6,904 ids), the game lists the ids that can
(:meth:`Game.action_ids <civtable.core.Game.action_ids>`) and the environments number those
``0 .. len - 1`` in the same order; otherwise an environment's action is the engine's id itself.
:class:`ActionMap` converts both ways and builds the action mask. The OpenSpiel games keep the
engine's ids (those of the server, the move logs and ``civtable replay``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from civtable.core.api import JSON, Game
from civtable.core.errors import IllegalActionError

Mask = npt.NDArray[np.int8]
_INT8 = np.dtype(np.int8)


class ActionMap:
    """The environment action ids of one game, player count and options (see the module doc).

    ``size`` is the size of the environments' ``Discrete`` action space; ``engine_ids`` lists
    the engine id of each environment action (``None``: the two numberings are the same).
    """

    __slots__ = ("_index", "engine_ids", "size")

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None = None) -> None:
        total = game.action_space_size(players, options)
        ids = game.action_ids(players, options)
        self.engine_ids: tuple[int, ...] | None = None
        self._index: list[int | None] | None = None
        self.size = total
        if ids is None:
            return
        engine_ids = tuple(int(a) for a in ids)
        if not engine_ids or any(b <= a for a, b in pairwise(engine_ids)):
            raise ValueError(f"{game.id}: action_ids must be non-empty and strictly ascending")
        if engine_ids[0] < 0 or engine_ids[-1] >= total:
            raise ValueError(f"{game.id}: action_ids must lie in 0..{total - 1}")
        index: list[int | None] = [None] * total
        for k, a in enumerate(engine_ids):
            index[a] = k
        self.engine_ids = engine_ids
        self._index = index
        self.size = len(engine_ids)

    def mask(self, legal: Sequence[int]) -> Mask:
        """A new ``int8`` mask of ``size``: 1 on the environment ids of the engine's ``legal``."""
        m = bytearray(self.size)
        index = self._index
        if index is None:
            for a in legal:
                m[a] = 1
        else:
            try:
                for a in legal:
                    m[index[a]] = 1  # type: ignore[index]  # None: caught below
            except TypeError:
                missing = [a for a in legal if index[a] is None]
                raise RuntimeError(
                    f"engine actions {missing} are legal but not in the game's action_ids "
                    "(a bug in Game.action_ids)"
                ) from None
        return np.frombuffer(m, _INT8)

    def to_engine(self, action: int) -> int:
        """The engine id of environment action ``action`` (:class:`IllegalActionError` when it
        is outside ``0 .. size - 1``; whether it is legal now is the engine's to say)."""
        ids = self.engine_ids
        if ids is None:
            return action
        if not 0 <= action < len(ids):
            raise IllegalActionError(
                f"action {action} is outside the action space 0..{len(ids) - 1}", action=action
            )
        return ids[action]

    def to_env(self, engine_id: int) -> int:
        """The environment id of engine action ``engine_id`` (ValueError if it has none)."""
        index = self._index
        if index is None:
            return engine_id
        k = index[engine_id] if 0 <= engine_id < len(index) else None
        if k is None:
            raise ValueError(f"engine action {engine_id} has no environment id")
        return k

    def env_view(self, view: JSON) -> JSON:
        """``view`` with its legal actions' ids in this numbering (for text rendering)."""
        if self._index is None or "legal" not in view:
            return view
        return {**view, "legal": [{**a, "id": self.to_env(a["id"])} for a in view["legal"]]}


__all__ = ["ActionMap", "Mask"]
