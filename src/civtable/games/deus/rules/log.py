"""The Deus event log: structured entries, never English.

Each entry is ``{"round": R, "kind": <kind>, ...args}`` with ids and numbers only (seats, card
spec ids such as ``BRN-01``, region indices of the board, resource / piece / colour indices of
the catalog). :mod:`civtable.games.deus.words` turns every kind into player words with the
catalogue template ``deus.log.<kind>``. Entries are written only when ``state.log`` is a list
(the server, the terminal, replays), so simulations pay nothing for them; callers whose
arguments cost something to build check ``state.log is not None`` first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState


def event(state: DeusState, kind: str, **args: Any) -> None:
    """Append one public event (no-op when the log is off)."""
    if state.log is not None:
        state.log.append({"round": state.round, "kind": kind, **args})
