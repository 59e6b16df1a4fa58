"""The rules, views and heuristic decisions of Deus are unchanged by speed work (issue 21).

``fingerprints.json`` was written by the engine before the speed work
(``python -m tests.fingerprints SPECS.json OUT.json``; ``--again FILE`` records them anew):
random games at 2, 3 and 4 players on the reference boards, the option presets (random board
with a random first player, free start at 10, 8 and 6 pieces, blind building, open scores), and
heuristic games (whole games at 2 and 4 players, heuristic against random at 4, and the first
150 decisions of a free-start game with blind building). Each is replayed here and must give
the same digests: legal lists, decisions, state hashes and views along the way, final state and
result. Eight more whole heuristic games were recorded before the heuristic's speed work
(3 players; 4 players on a random board, with open scores, with a free start and blind building,
against random bots, and two more on the reference board; 2 players with blind building).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fingerprints import case_id, load, replay

RECORDED = load(Path(__file__).with_name("fingerprints.json"))


@pytest.mark.parametrize("recorded", RECORDED, ids=[case_id(g) for g in RECORDED])
def test_issue21_fixed_seed_games_are_unchanged(recorded: dict[str, Any]) -> None:
    assert replay(recorded) == recorded
