"""The Deus heuristic's numbers are unchanged by speed work (issue 21).

``tests/deus/test_fingerprints.py`` proves the heuristic bot's decisions unchanged; the search bot
also uses the heuristic's values themselves (``action_values`` as its move prior, ``evaluate`` at
its cut-off). This file records them on the positions of fixed-seed random games, every
:data:`EVERY`-th decision: the value of every legal action for the seat to move, the projected
score and the evaluation of every seat, and the projected scores of the same position moved to
the overtime round (``OVERTIME_ROUND``, where the end-trigger progress counts). The floats are
digested exactly (``float.hex``).

``heuristic_values.json`` was written by the code before the speed work
(``python -m tests.deus.test_heuristic_values``); the test computes the digests again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from civtable import games
from civtable.bots import make_bot
from civtable.core.rng import Rng
from civtable.games.deus import heuristic
from civtable.games.deus.state import OVER, PICK, DeusState
from civtable.sim.simulate import bot_seed

#: a position is recorded every this many decisions
EVERY = 7
RECORDED_FILE = Path(__file__).with_name("heuristic_values.json")
#: (players, seed, options) of the recorded games
GAMES: tuple[tuple[int, int, dict[str, Any]], ...] = (
    (2, 31, {}),
    (3, 32, {"blind_building": True}),
    (4, 33, {}),
    (4, 34, {"board": "random", "free_start": 8}),
)


def values_digest(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Play the random game and digest the heuristic's values along it."""
    state = games.get("deus").new_game(players, seed, options)
    assert isinstance(state, DeusState)
    bots = [make_bot("random", bot_seed(seed, s)) for s in range(players)]
    h = hashlib.blake2b(digest_size=16)
    decisions = positions = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        if decisions % EVERY == 0 and state.phase not in (PICK, OVER):
            positions += 1
            values = heuristic.action_values(state, seat, Rng(decisions))
            row: list[Any] = [seat, sorted((a, v.hex()) for a, v in values.items())]
            row.append([heuristic.projected_score(state, p).hex() for p in range(players)])
            row.append([heuristic.evaluate(state, p).hex() for p in range(players)])
            late = state.copy()
            late.round = max(late.round, heuristic.OVERTIME_ROUND)
            row.append([heuristic.projected_score(late, p).hex() for p in range(players)])
            h.update(json.dumps(row).encode())
        state.apply(seat, bots[seat].choose(state, seat))
        decisions += 1
    return {
        "players": players,
        "seed": seed,
        "options": options,
        "positions": positions,
        "digest": h.hexdigest(),
    }


def _recorded() -> list[dict[str, Any]]:
    games_: list[dict[str, Any]] = json.loads(RECORDED_FILE.read_text())["games"]
    return games_


@pytest.mark.parametrize("recorded", _recorded(), ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_issue21_heuristic_values_are_unchanged(recorded: dict[str, Any]) -> None:
    now = values_digest(recorded["players"], recorded["seed"], recorded["options"])
    assert now == recorded


def main() -> int:
    """Record the digests of :data:`GAMES` in ``heuristic_values.json``."""
    doc = {"games": [values_digest(p, s, o) for p, s, o in GAMES]}
    RECORDED_FILE.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
