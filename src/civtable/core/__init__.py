"""Game-agnostic core: the Game/State contract, errors, the seeded generator and replays."""

from civtable.core.api import JSON, CachedLegalState, Game, Result, State, rank_by
from civtable.core.errors import (
    CivtableError,
    IllegalActionError,
    InvalidOptionsError,
    NotYourTurnError,
    SerializationError,
    UnknownGameError,
)
from civtable.core.replay import Replay
from civtable.core.rng import Rng

__all__ = [
    "JSON",
    "CachedLegalState",
    "CivtableError",
    "Game",
    "IllegalActionError",
    "InvalidOptionsError",
    "NotYourTurnError",
    "Replay",
    "Result",
    "Rng",
    "SerializationError",
    "State",
    "UnknownGameError",
    "rank_by",
]
