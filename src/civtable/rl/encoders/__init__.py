"""Observation encoders: a seat's view turned into a fixed-size ``float32`` vector.

An encoder is the only game-specific piece the PettingZoo environment needs, and one of the two
the OpenSpiel game needs (with a :mod:`chance model <civtable.rl.chance>`). Its vector is defined
on :meth:`civtable.core.State.view` (the engine's single visibility gate), so an observation never
contains hidden information. The environments call :meth:`ObservationEncoder.encode_state`, which
is ``encode(state.view(seat))`` unless the game's encoder overrides it with a fast path that reads
the same fields straight from the state (all four games do; tests in ``tests/rl`` check the two are
equal for every seat on many positions).

A new game plugs in by adding a module here with an :class:`ObservationEncoder` subclass and an
entry in :data:`ENCODERS`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from civtable.core.api import JSON, State
from civtable.core.plugins import load_plugin

#: game id -> "module:class" of its encoder
ENCODERS: dict[str, str] = {
    "seven-wonders": "civtable.rl.encoders.seven_wonders:SevenWondersEncoder",
    "deus": "civtable.rl.encoders.deus:DeusEncoder",
    "civilization-a-new-dawn": ("civtable.rl.encoders.civilization_a_new_dawn:CivilizationEncoder"),
    "through-the-ages": "civtable.rl.encoders.through_the_ages:ThroughTheAgesEncoder",
}

Vector = npt.NDArray[np.float32]


class ObservationEncoder(ABC):
    """Encodes :meth:`State.view(seat) <civtable.core.State.view>` for one player count.

    Every vector has :attr:`size` entries, all in ``[0, high]``.
    """

    #: the length of every encoded vector
    size: int
    #: an upper bound of every entry (the lower bound is 0)
    high: float

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        self.players = players
        self.options = dict(options or {})

    @abstractmethod
    def encode(self, view: JSON) -> Vector:
        """The observation vector of a seat's view (``view["seat"]`` must be a seat)."""

    def encode_state(self, state: State, seat: int) -> Vector:
        """The observation vector of ``seat`` in ``state``: by definition
        ``encode(state.view(seat, labels=False))``.

        A game's encoder may override this with a fast path that reads the state directly; the
        override must read only what ``view(seat)`` shows and must be tested equal to
        ``encode(view(seat))`` on many positions (as ``tests/rl`` does for 7 Wonders).
        """
        return self.encode(state.view(seat, labels=False))

    def text(self, view: JSON) -> str:
        """A canonical one-line string of the view (for OpenSpiel observation strings).

        The default is the view as sorted, compact JSON with the legal actions reduced to their
        ids and any event log dropped; equal views give equal strings.
        """
        doc = {k: v for k, v in view.items() if k not in ("legal", "log")}
        doc["legal"] = [a["id"] for a in view.get("legal", [])]
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))

    def render(self, view: JSON) -> str:
        """A readable multi-line rendering of a view (spectator or seat)."""
        return json.dumps(view, sort_keys=True, indent=1)

    def feature_names(self) -> list[str]:
        """One name per vector entry (for inspection and debugging)."""
        return [f"f{i}" for i in range(self.size)]


def encoder_for(
    game_id: str, players: int, options: Mapping[str, Any] | None = None
) -> ObservationEncoder:
    """The observation encoder of ``game_id`` for ``players`` players.

    Raises :class:`~civtable.core.UnknownGameError` if the game has no encoder yet.
    """
    cls = load_plugin(ENCODERS, game_id, "observation encoder")
    encoder: ObservationEncoder = cls(players, options)
    return encoder


__all__ = ["ENCODERS", "ObservationEncoder", "Vector", "encoder_for"]
