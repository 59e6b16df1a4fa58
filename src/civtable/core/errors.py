"""Typed errors of the civtable core.

Every error the engine raises for bad input derives from :class:`CivtableError`, so callers (the
CLI, the server) can turn any of them into a clear message without catching unrelated bugs.
An error raised by :meth:`civtable.core.State.apply` guarantees that the state is unchanged.
"""

from __future__ import annotations


class CivtableError(Exception):
    """Base class of every error civtable raises on purpose."""


class UnknownGameError(CivtableError, KeyError):
    """No game with that id is registered (or it is not available yet)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class InvalidOptionsError(CivtableError, ValueError):
    """The player count or an option is not valid for this game."""


class IllegalActionError(CivtableError, ValueError):
    """The action is malformed, not legal now, or the seat may not act. The state is unchanged."""

    def __init__(self, message: str, *, seat: int | None = None, action: object = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action


class NotYourTurnError(IllegalActionError):
    """The seat is not among :meth:`State.to_move` (or the game is over)."""


class SerializationError(CivtableError, ValueError):
    """A JSON document does not describe a valid state or replay."""
