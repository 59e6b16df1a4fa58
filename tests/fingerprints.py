"""Fingerprints of fixed-seed games: proof that speed work changes neither rules nor bots.

A fingerprint plays one seeded game with seeded bots through the core API and digests what it
saw: every seat's legal-action list before each decision, the decision sequence, the state hash
and every seat's view (and a spectator's) at regular intervals, and the final state hash. Before
a speed change the fingerprints are written to a JSON file in the game's test folder
(``python -m tests.fingerprints SPECS.json OUT.json``, see :func:`main`); the game's test
replays the same games and compares, so a different legal list, rule outcome, view or bot
decision shows up as a different digest.

Any game can reuse it: :func:`fingerprint` takes a game id, players, seed, options and bot specs.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from civtable.bots import make_bot
from civtable.games import get as get_game
from civtable.sim.simulate import bot_seed

#: a snapshot (state hash and views) is taken every this many decisions
SNAPSHOT_EVERY = 40


def _digest(h: Any, value: object) -> None:
    h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())


def fingerprint(
    game_id: str,
    players: int,
    seed: int,
    bots: Sequence[str] = ("random",),
    options: dict[str, Any] | None = None,
    max_decisions: int = 0,
    views: bool = True,
) -> dict[str, Any]:
    """Play one game and return its digests.

    ``bots`` are bot specs cycled over the seats, seeded as ``civtable simulate`` seeds them.
    ``max_decisions`` > 0 stops the game early (slow bots); ``views`` adds the views to the
    snapshots.
    """
    game = get_game(game_id)
    state = game.new_game(players, seed, options or {})
    seats = [make_bot(bots[s % len(bots)], bot_seed(seed, s)) for s in range(players)]
    legal_h = hashlib.blake2b(digest_size=16)
    moves_h = hashlib.blake2b(digest_size=16)
    snap_h = hashlib.blake2b(digest_size=16)
    decisions = 0
    while not state.is_terminal() and (not max_decisions or decisions < max_decisions):
        if decisions % SNAPSHOT_EVERY == 0:
            _digest(snap_h, state.state_hash())
            if views:
                for viewer in [*range(players), None]:
                    _digest(snap_h, state.view(viewer))
        movers = state.to_move()
        if not movers:
            break
        seat = movers[0]
        legal = state.legal_actions(seat)
        _digest(legal_h, [seat, legal])
        action = seats[seat].choose(state, seat)
        _digest(moves_h, [seat, action])
        state.apply(seat, action)
        decisions += 1
    result = state.result().to_json() if state.is_terminal() else None
    return {
        "game": game_id,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "options": options or {},
        "max_decisions": max_decisions,
        "views": views,
        "decisions": decisions,
        "terminal": state.is_terminal(),
        "legal": legal_h.hexdigest(),
        "moves": moves_h.hexdigest(),
        "snapshots": snap_h.hexdigest(),
        "final": state.state_hash(),
        "result": hashlib.blake2b(
            json.dumps(result, sort_keys=True).encode(), digest_size=8
        ).hexdigest(),
    }


def spec_of(recorded: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :func:`fingerprint` that produced ``recorded``."""
    return {
        "game_id": recorded["game"],
        "players": recorded["players"],
        "seed": recorded["seed"],
        "bots": recorded["bots"],
        "options": recorded["options"],
        "max_decisions": recorded["max_decisions"],
        "views": recorded["views"],
    }


def replay(recorded: dict[str, Any]) -> dict[str, Any]:
    """The fingerprint of the game ``recorded`` describes, computed now."""
    return fingerprint(**spec_of(recorded))


def load(path: Path) -> list[dict[str, Any]]:
    """The recorded fingerprints in ``path``."""
    doc = json.loads(path.read_text())
    games: list[dict[str, Any]] = doc["games"]
    return games


def case_id(recorded: dict[str, Any]) -> str:
    """A short test id of a recorded game: bots, players, seed and options (a list option,
    such as 7 Wonders' boards, shown as ``all``)."""
    opts = ",".join(
        f"{k}={'all' if isinstance(v, list) else v}" for k, v in recorded["options"].items()
    )
    bots = "+".join(recorded["bots"])
    return f"{bots}-{recorded['players']}p-seed{recorded['seed']}{'-' + opts if opts else ''}"


def write(path: Path, specs: Sequence[dict[str, Any]]) -> None:
    """Compute the fingerprints of ``specs`` (keyword arguments of :func:`fingerprint`) and
    write them to ``path``."""
    games = [fingerprint(**spec) for spec in specs]
    path.write_text(json.dumps({"games": games}, indent=1) + "\n")


def main(argv: Sequence[str]) -> int:
    """``python -m tests.fingerprints SPECS.json OUT.json``: SPECS is a JSON list of keyword
    argument objects for :func:`fingerprint`. ``python -m tests.fingerprints --again FILE``
    records the games of an existing file again (only when a rule change is intended)."""
    if len(argv) != 2:
        print(main.__doc__)
        return 2
    if argv[0] == "--again":
        path = Path(argv[1])
        write(path, [spec_of(g) for g in load(path)])
        return 0
    write(Path(argv[1]), json.loads(Path(argv[0]).read_text()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
