"""The rules, views and heuristic decisions are unchanged by speed work (issue 21).

``fingerprints.json`` was written by the engine before the speed work
(``python -m tests.fingerprints SPECS.json OUT.json``; ``--again FILE`` records them anew):
random games at 2, 3 and 4 players on the first-game map, a standard map placed by the players,
a random standard map and an epic game, and heuristic games (the first 200 decisions at 3-4
players, a whole 2-player game). Six whole heuristic games were added before the heuristic's
look-ahead was made cheaper (4 players on the first-game map and a random standard map, 3
players, 2 players on a standard map, an epic 3-player game against random bots), recorded on
main's code. Each is replayed here and must give the same digests: legal lists, decisions, state
hashes and views along the way, final state and result.
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
