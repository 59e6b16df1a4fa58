"""The rules, views and heuristic decisions are unchanged by speed work (issue 21).

``fingerprints.json`` was written by the engine before the issue 21 speed work
(``python -m tests.fingerprints SPECS.json OUT.json``; ``--again FILE`` records them anew):
random games of the full game at 2, 3 and 4 players, the first game, the shorter game, the
peaceful game (with and without its pacts) and World Wars, and whole heuristic games (the full
game at 2 and 4 players, heuristic against random at 4, the first game at 4 and the shorter game
at 3). Each is replayed here and must give the same digests: legal lists, decisions, state hashes
and views along the way, final state and result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fingerprints import load, replay

RECORDED = load(Path(__file__).with_name("fingerprints.json"))


def _name(g: dict[str, Any]) -> str:
    opts = ",".join(f"{k}={v}" for k, v in g["options"].items())
    return f"{'+'.join(g['bots'])}-{g['players']}p-seed{g['seed']}{'-' + opts if opts else ''}"


@pytest.mark.parametrize("recorded", RECORDED, ids=[_name(g) for g in RECORDED])
def test_issue21_fixed_seed_games_are_unchanged(recorded: dict[str, Any]) -> None:
    assert replay(recorded) == recorded
