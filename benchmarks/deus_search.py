"""Tune the ISMCTS bot for Deus (issue 22; not part of the tests). Prints one line per game and
a summary.

Quick matches: ISMCTS against the heuristic, two players, seats alternating, game ``i`` on
seed ``seed * 1000 + i``; ``--settings`` replaces Deus's ``ISMCTS_SETTINGS`` for the run
(the spec's own options still win)::

    python benchmarks/deus_search.py match --spec ismcts:300ms:clock=cpu --games 20 --seed 1 \\
        --settings kunit=turn:k=1

Stage scales of ``evaluate`` (``STAGE_SCALE_2P``): heuristic self-play games on seeds
``seed .. seed + games - 1``; at every main-phase position, the projected lead of each seat over
the other and who won; per stage, the logistic scale of the lead that fits the winners best
(maximum likelihood on a grid), against the former fixed scale::

    python benchmarks/deus_search.py scales --games 120 --seed 5000

With ``--players 4`` the same fit for four players: at every main-phase position, each seat's
projected lead over the best other seat and whether that seat won.

Softmax temperatures of ``evaluate_first`` (``STAGE_TEMPERATURE_MANY``, the chance to finish
first from every seat's projected score), the same self-play positions::

    python benchmarks/deus_search.py temperatures --games 60 --seed 5000 --players 4
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

from civtable import games
from civtable.bots import make_bot
from civtable.core.rng import Rng
from civtable.games.deus import heuristic
from civtable.games.deus.state import MAIN, DeusState
from civtable.sim.ratings import wilson_interval


def match(spec: str, count: int, seed: int, settings: str | None) -> None:
    """ISMCTS ``spec`` against the heuristic, ``count`` two-player games."""
    if settings is not None:
        heuristic.ISMCTS_SETTINGS = settings
    game = games.get("deus")
    wins = 0.0
    cpu = 0.0
    mine: list[int] = []
    theirs: list[int] = []
    for i in range(count):
        s_seed = seed * 1000 + i
        me = i % 2
        bots = [make_bot(spec if s == me else "heuristic", s_seed * 7 + s) for s in range(2)]
        state = game.new_game(2, s_seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            start = time.process_time()
            action = bots[seat].choose(state, seat)
            if seat == me:
                cpu += time.process_time() - start
            state.apply(seat, action)
        r = state.result()
        won = 1.0 / len(r.winners) if me in r.winners else 0.0
        wins += won
        mine.append(r.scores[me])
        theirs.append(r.scores[1 - me])
        print(f"game {i} seat {me} won {won:g} scores {list(r.scores)} total {wins:g}/{i + 1}")
    lo, hi = wilson_interval(wins, count)
    print(
        f"{spec} settings={heuristic.ISMCTS_SETTINGS!r}: {wins:g} of {count} "
        f"({wins / count:.1%}, 95 % CI {lo:.1%}-{hi:.1%}), mean score "
        f"{sum(mine) / count:.1f} against {sum(theirs) / count:.1f}, "
        f"ISMCTS CPU {cpu / count:.1f} s per game"
    )


def _self_play(
    count: int, seed: int, players: int
) -> list[tuple[list[tuple[int, list[float]]], list[float]]]:
    """Heuristic self-play games on seeds ``seed .. seed + count - 1``: per game, the stage and
    every seat's projected score at each main-phase position, and each seat's share of the win."""
    game = games.get("deus")
    out = []
    for g in range(seed, seed + count):
        state = game.new_game(players, g)
        assert isinstance(state, DeusState)
        rng = Rng(g)
        rows: list[tuple[int, list[float]]] = []
        while not state.is_terminal():
            seat = state.to_move()[0]
            if state.phase == MAIN:
                proj = [heuristic.projected_score(state, p) for p in range(players)]
                rows.append((heuristic.stage(state), proj))
            state.apply(seat, heuristic.choose(state, seat, rng))
        r = state.result()
        out.append(
            (rows, [1.0 / len(r.winners) if p in r.winners else 0.0 for p in range(players)])
        )
    return out


def scales(count: int, seed: int, players: int = 2) -> None:
    """Fit the logistic scale of the projected lead per stage: with two players the lead over
    the other seat, with more the lead of each seat over the best other one (what
    :func:`heuristic.evaluate` scores) against whether that seat won (a shared win split)."""
    samples: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for positions, won in _self_play(count, seed, players):
        rows = [
            (st, [x - max(proj[:p] + proj[p + 1 :]) for p, x in enumerate(proj)])
            for st, proj in positions
        ]
        for st, leads in rows:
            if players == 2:  # (the same pairs as before: each seat's view of the one lead)
                samples[st] += [(leads[0], won[0]), (-leads[0], 1.0 - won[0])]
            else:
                samples[st] += list(zip(leads, won, strict=True))

    def loss(data: list[tuple[float, float]], scale: float) -> float:
        total = 0.0
        for lead, won in data:
            p = min(max(1.0 / (1.0 + math.exp(-lead / scale)), 1e-6), 1.0 - 1e-6)
            total -= won * math.log(p) + (1.0 - won) * math.log(1.0 - p)
        return total / len(data)

    grid = [2.0 + 0.5 * k for k in range(116)]  # 2 .. 59.5
    for st in sorted(samples):
        data = samples[st]
        best = min(grid, key=lambda x: loss(data, x))
        print(
            f"stage {st}: {len(data)} samples, scale {best:g} (log-loss {loss(data, best):.3f}; "
            f"fixed SCALE {heuristic.SCALE:g}: {loss(data, heuristic.SCALE):.3f})"
        )


def temperatures(count: int, seed: int, players: int = 4) -> None:
    """Fit the softmax temperature of :func:`heuristic.evaluate_first` per stage: at every
    main-phase position of heuristic self-play, the chance it gives each seat to finish first
    against who did (a shared win split); cross-entropy per position, against that of equal
    chances."""
    samples: dict[int, list[tuple[list[float], list[float]]]] = defaultdict(list)
    for positions, won in _self_play(count, seed, players):
        for st, proj in positions:
            samples[st].append((proj, won))

    def loss(data: list[tuple[list[float], list[float]]], temperature: float) -> float:
        total = 0.0
        for proj, won in data:
            top = max(proj)
            weights = [math.exp((x - top) / temperature) for x in proj]
            norm = sum(weights)
            total -= sum(
                w * math.log(max(x / norm, 1e-9)) for x, w in zip(weights, won, strict=True)
            )
        return total / len(data)

    grid = [1.0 + 0.5 * k for k in range(78)]  # 1 .. 39.5
    for st in sorted(samples):
        data = samples[st]
        best = min(grid, key=lambda x: loss(data, x))
        print(
            f"stage {st}: {len(data)} positions, temperature {best:g} (cross-entropy "
            f"{loss(data, best):.3f}; uniform {math.log(players):.3f})"
        )


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("match")
    m.add_argument("--spec", default="ismcts:300ms:clock=cpu")
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--settings", default=None)
    f = sub.add_parser("scales")
    f.add_argument("--games", type=int, default=120)
    f.add_argument("--seed", type=int, default=5000)
    f.add_argument("--players", type=int, default=2)
    t = sub.add_parser("temperatures")
    t.add_argument("--games", type=int, default=60)
    t.add_argument("--seed", type=int, default=5000)
    t.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    if args.cmd == "match":
        match(args.spec, args.games, args.seed, args.settings)
    elif args.cmd == "temperatures":
        temperatures(args.games, args.seed, args.players)
    else:
        scales(args.games, args.seed, args.players)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
