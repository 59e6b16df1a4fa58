"""How well ISMCTS chooses in Through the Ages, one decision at a time (not part of the tests).

Positions are sampled from two-player heuristic games (a seat's decisions with more than three
legal actions, from round 2 on). In each, the heuristic's ``top`` best-valued moves
(``action_values``) are each played out to the end of the game by the heuristic player for
everybody on the same ``deals`` determinizations (common random numbers); a move's *truth* is
its mean final margin over the other seat (and its share of wins). Every ISMCTS spec given then
chooses once per position, and the table shows the truth of its choices against the
heuristic's own move: the mean margin gained per decision with its standard error, and how
often it chose better, the same or worse. A choice outside the ``top`` moves is valued as the
worst of them. ``oracle`` is the best move by the truth itself (an upper bound, optimistic since
it is chosen on the same playouts)::

    python benchmarks/tta_search.py --positions 24 --deals 3 \\
        --spec 1s:clock=cpu:k=0 --spec 1s:clock=cpu:k=1 --spec 1s:clock=cpu:k=end:top=4

Specs are the part after ``ismcts:``. Playouts of the full game cost about 0.1 CPU-second
each at two players; a position costs ``top * deals`` of them plus one search per spec.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from civtable import games
from civtable.bots.ismcts import IsmctsBot, parse_spec
from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.through_the_ages import heuristic as tta


def sample_positions(count: int, seed: int) -> list[State]:
    """``count`` positions of two-player heuristic games, three per game."""
    game = games.get("through-the-ages")
    positions: list[State] = []
    while len(positions) < count:
        state = game.new_game(2, seed)
        seed += 1
        rng = Rng(seed)
        candidates: list[State] = []
        while not state.is_terminal():
            seat = state.to_move()[0]
            if len(state.legal_actions(seat)) > 3 and getattr(state, "round", 0) >= 2:
                candidates.append(state.copy())
            state.apply(seat, tta.choose(state, seat, rng))
        positions += [candidates[rng.randbelow(len(candidates))] for _ in range(3)]
    return positions[:count]


def playout(state: State, seat: int, rng: Rng) -> tuple[float, float]:
    """Play the heuristic for everybody to the end: (``seat``'s win share, its margin)."""
    while not state.is_terminal():
        s = state.to_move()[0]
        state._apply(s, tta.choose(state, s, rng))
    result = state.result()
    margin = result.scores[seat] - max(x for o, x in enumerate(result.scores) if o != seat)
    win = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return win, float(margin)


def main() -> None:
    """Run the comparison and print a table and one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--top", type=int, default=6)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--spec", action="append", default=[])
    args = parser.parse_args()
    specs: list[str] = args.spec or ["1s:clock=cpu"]
    positions = sample_positions(args.positions, args.seed)
    gains: dict[str, list[float]] = {name: [] for name in [*specs, "oracle"]}
    wins: dict[str, float] = dict.fromkeys(["heuristic", *specs, "oracle"], 0.0)
    cpu = dict.fromkeys(specs, 0.0)
    for i, state in enumerate(positions):
        seat = state.to_move()[0]
        values = tta.action_values(state, seat)
        top = sorted(values, key=lambda a: -values[a])[: args.top]
        truth = {a: [0.0, 0.0] for a in top}
        for k in range(args.deals):
            deal = state.determinize(seat, Rng(1000 + k))
            for a in top:
                d = deal.copy()
                d._apply(seat, a)
                win, margin = playout(d, seat, Rng(2000 + k))
                truth[a][0] += win / args.deals
                truth[a][1] += margin / args.deals
        worst = min(t[1] for t in truth.values())
        picks = {"heuristic": tta.choose(state, seat, Rng(5))}
        for spec in specs:
            start = time.process_time()
            picks[spec] = IsmctsBot(parse_spec(spec), seed=i).choose(state, seat)
            cpu[spec] += time.process_time() - start
        picks["oracle"] = max(top, key=lambda a: truth[a][1])
        base = truth[picks["heuristic"]][1]
        for name, a in picks.items():
            wins[name] += truth[a][0] if a in truth else 0.0
            if name != "heuristic":
                gains[name].append((truth[a][1] if a in truth else worst) - base)
    rows = {}
    for name, diffs in gains.items():
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
        rows[name] = {
            "gain": round(mean, 2),
            "se": round(sd / math.sqrt(n), 2),
            "better": sum(x > 0 for x in diffs),
            "same": sum(x == 0 for x in diffs),
            "worse": sum(x < 0 for x in diffs),
            "win_share": round(wins[name] / n, 3),
            "cpu_per_decision": round(cpu.get(name, 0.0) / n, 2),
        }
        r = rows[name]
        print(
            f"{name:36s} {r['gain']:+6.2f} ± {r['se']:.2f}  better/same/worse "
            f"{r['better']}/{r['same']}/{r['worse']}  cpu {r['cpu_per_decision']:.2f} s"
        )
    print(json.dumps({"positions": len(positions), "deals": args.deals, "rows": rows}))


if __name__ == "__main__":
    main()
