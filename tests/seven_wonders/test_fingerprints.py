"""The rules, views and bot decisions of 7 Wonders are unchanged by speed work (issue 21).

``fingerprints.json`` was written by the engine before the speed work
(``python -m tests.fingerprints SPECS.json OUT.json``; ``--again FILE`` records them anew, only
when a rule change is intended): random games at 2 to 7 players with random boards and sides,
all A sides and all B sides at 3, 4 and 7 players, seven-player games with every board (Babylon
B's extra step, Halikarnassus, Olympia's free build), heuristic games at 2, 3, 4 and 7 players
and heuristic against random bots. Each is replayed here and must give the same digests: legal
lists, decisions, state hashes and views along the way, final state and result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fingerprints import load, replay

RECORDED = load(Path(__file__).with_name("fingerprints.json"))


def _name(g: dict[str, Any]) -> str:
    opts = ",".join(f"{k}={'all' if isinstance(v, list) else v}" for k, v in g["options"].items())
    return f"{'+'.join(g['bots'])}-{g['players']}p-seed{g['seed']}{'-' + opts if opts else ''}"


@pytest.mark.parametrize("recorded", RECORDED, ids=[_name(g) for g in RECORDED])
def test_issue21_fixed_seed_games_are_unchanged(recorded: dict[str, Any]) -> None:
    assert replay(recorded) == recorded
