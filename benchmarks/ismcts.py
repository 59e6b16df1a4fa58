"""Measure the ISMCTS bot: search speed and strength in any game (not part of the tests).

Speed: iterations per second on positions sampled from heuristic games (start, middle and end of
each age), one core::

    python benchmarks/ismcts.py speed --spec ismcts:1s --positions 12

It reports iterations per wall-clock second (what a time budget gets) and per second of the
process's CPU time, which other jobs on a busy machine hardly change; an iteration budget
(``ismcts:300i``) makes the work itself independent of the machine's load.

Strength: ISMCTS in one seat against ``players - 1`` copies of an opponent bot in any game
(``--game``, default 7 Wonders; ``--players``, default 4), seats rotated, win rate with a 95 %
Wilson interval (chance ``1 / players``); results are saved and resumable with ``--out``. It is
a thin wrapper over ``civtable tournament`` (the same games, seeds and files; the JSON names
the equivalent command), which is its successor for anything else (several bots, ratings)::

    python benchmarks/ismcts.py strength --game seven-wonders --players 2 \\
        --opponent heuristic --spec ismcts:1s:clock=cpu --games 100 --out runs/sw2-vs-heuristic
    civtable tournament seven-wonders --players 2 --bots ismcts:1s:clock=cpu,heuristic \\
        --games 100 --seed 0 --out runs/sw2-vs-heuristic        # the same tournament

Search budgets of strength rows are counted in CPU time (``clock=cpu``), so that a row measured
beside other jobs searches as much as on an idle core.

Root-move analysis (how the defaults were chosen): ``roots`` plays the ranking's ``top`` moves of
sampled positions out on the same ``deals`` determinizations (paired, tree depth 1, with the
given playout policy) and saves every final score; ``rules`` replays root rules on those
rollouts: a rule chooses on a random subset of the deals (at most ``--budget`` rollouts) and the
choice is valued on the other deals, as the chance to win gained over the ranking's favourite
(the heuristic's move). With ``--truth`` the choices made on one file are valued on another
(the same positions, rolled out with another policy)::

    python benchmarks/ismcts.py roots --policy auto --out /tmp/roots-choose.json
    python benchmarks/ismcts.py roots --policy fast --out /tmp/roots-fast.json
    python benchmarks/ismcts.py rules /tmp/roots-choose.json
    python benchmarks/ismcts.py rules /tmp/roots-fast.json --truth /tmp/roots-choose.json

All print one JSON object. The targets (issues 4 and 22): at 1 CPU-second per decision, at least
90 % of games won against random bots, 60 % against three heuristic bots (4 players) and 65 %
against the heuristic (2 players); at least 5,000 iterations per second.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from civtable import games
from civtable.bots import make_bot
from civtable.bots.ismcts import IsmctsBot, _Race, parse_spec
from civtable.core.api import State
from civtable.sim.simulate import bot_seed, game_seed
from civtable.sim.tournament import TournamentConfig, run_tournament

GAME = "seven-wonders"


def sample_positions(count: int, players: int = 4, seed: int = 0) -> list[tuple[State, int]]:
    """Positions (and a seat to move) from heuristic games, spread over the three ages."""
    out: list[tuple[State, int]] = []
    g = 0
    while len(out) < count:
        gs = game_seed(seed, g)
        state = games.get(GAME).new_game(players, gs)
        bots = [make_bot("heuristic", bot_seed(gs, s)) for s in range(players)]
        step = 0
        while not state.is_terminal() and len(out) < count:
            movers = state.to_move()
            if step % 5 == g % 5 and len(movers) == players:
                out.append((state.copy(), movers[step % len(movers)]))
            for seat in movers:
                if state.legal_actions(seat):
                    state.apply(seat, bots[seat].choose(state, seat))
            step += 1
        g += 1
    return out


def speed(spec: str, positions: int, seed: int) -> dict[str, Any]:
    """Iterations per second of one search per sampled position."""
    rates = []
    iterations = 0
    seconds = 0.0
    cpu = 0.0
    for i, (state, seat) in enumerate(sample_positions(positions, seed=seed)):
        bot = make_bot(spec, seed + i)
        assert isinstance(bot, IsmctsBot)
        start = time.process_time()
        bot.explain(state, seat)
        cpu += time.process_time() - start
        rates.append(bot.last.iterations_per_second)
        iterations += bot.last.iterations
        seconds += bot.last.seconds
    return {
        "spec": spec,
        "config": make_bot(spec, 0).config.describe(),  # type: ignore[attr-defined]
        "positions": positions,
        "iterations_per_second": round(iterations / seconds, 1),
        # per second of this process's CPU time: hardly affected by other jobs on the machine
        "iterations_per_cpu_second": round(iterations / cpu, 1),
        "iterations": iterations,
        "median_per_position": round(statistics.median(rates), 1),
        "min": round(min(rates), 1),
        "max": round(max(rates), 1),
    }


def strength(
    spec: str,
    opponent: str,
    games_: int,
    seed: int,
    workers: int,
    out: str | None,
    game: str = GAME,
    players: int = 4,
) -> dict[str, Any]:
    """``spec`` in one seat against ``players - 1`` ``opponent`` bots, seats rotated."""
    if spec == opponent:
        raise SystemExit("--spec and --opponent must differ (their results would merge)")
    bots = (spec,) + (opponent,) * (players - 1)
    config = TournamentConfig(game, players, bots, games_, seed)
    start = time.perf_counter()

    def progress(r: Any) -> None:
        sys.stderr.write(f"\rgame {r.index} done")
        sys.stderr.flush()

    summary = run_tournament(config, workers=workers, out_dir=out, on_result=progress)
    sys.stderr.write("\n")
    doc = summary.to_json()
    me = next(b for b in doc["bots"] if b["bot"] == spec)
    decisions = sum(r.decisions for r in summary.completed) / max(1, len(summary.completed))
    command = (
        f"civtable tournament {game} --players {players} --bots {','.join(bots)} "
        f"--games {games_} --seed {seed}" + (f" --out {out}" if out else "")
    )
    return {
        "game": game,
        "players": players,
        "command": command,
        "spec": spec,
        "opponent": opponent,
        "games": doc["completed"],
        "chance": doc["chance"],
        "errors": doc["errors"],
        "win_rate": me["win_rate"],
        "ci95": me["ci95"],
        "mean_score": me["mean_score"],
        "opponent_mean_score": next(b for b in doc["bots"] if b["bot"] == opponent)["mean_score"],
        "ismcts_think_seconds_per_game": round(me["think_seconds"] / max(1, me["seat_games"]), 2),
        "decisions_per_game": round(decisions, 1),
        "wall_seconds": round(time.perf_counter() - start, 1),
        "commit": _commit(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def _commit() -> str:
    """The checkout's commit (short hash, ``+`` if the tree has changes), or ``"?"``."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], check=False).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return head + ("+" if dirty else "")


class _Recorder(IsmctsBot):
    """An ISMCTS bot that records the root move and final scores of every rollout."""

    def __init__(self, spec: str, seed: int) -> None:
        super().__init__(parse_spec(spec), seed)
        self.records: list[tuple[int | None, tuple[float, ...], tuple[float, ...]]] = []
        self._first: int | None = None

    def _iterate(self, root: Any, d: State, seat: int, rng: Any, first: int | None = None) -> float:
        self._first = first
        return super()._iterate(root, d, seat, rng, first)

    def _reward(self, d: State, seat: int) -> float:
        result = d.result()
        self.records.append((self._first, tuple(result.scores), tuple(result.rewards())))
        return super()._reward(d, seat)


def roots(positions: int, deals: int, top: int, policy: str, seed: int) -> dict[str, Any]:
    """Final scores of the ``top`` ranked root moves of sampled positions on shared deals."""
    out = []
    start = time.process_time()
    for i, (state, seat) in enumerate(sample_positions(positions, seed=seed)):
        spec = f"{deals * top}i:d=1:top={top}:race=off:policy={policy}"
        bot = _Recorder(spec, 1000 + i)
        bot.explain(state, seat)
        moves: list[int] = []
        for first, _, _ in bot.records:
            if first in moves:
                break
            assert first is not None
            moves.append(first)
        k = len(moves)
        n = len(bot.records) // k
        out.append(
            {
                "seat": seat,
                "moves": moves,  # ranking order: moves[0] is the heuristic's favourite
                "scores": [[list(bot.records[j * k + m][1]) for m in range(k)] for j in range(n)],
                "wins": [[bot.records[j * k + m][2][seat] for m in range(k)] for j in range(n)],
            }
        )
        sys.stderr.write(f"\rposition {i + 1}/{positions}")
    sys.stderr.write("\n")
    return {
        "policy": policy,
        "deals": deals,
        "top": top,
        "seed": seed,
        "positions": out,
        "cpu_seconds": round(time.process_time() - start, 1),
    }


def _margin_reward(scores: list[float], seat: int) -> float:
    best_other = max(x for s, x in enumerate(scores) if s != seat)
    return 1.0 / (1.0 + math.exp(-(scores[seat] - best_other) / 5.0))


#: root rules replayed by ``rules``: (top, keep, kz, race z or None, budget in rollouts)
RULES: dict[str, tuple[int, float, float, float | None, int]] = {
    "heuristic (favourite)": (1, 0.0, 0.0, None, 300),
    "top3 keep0.01 (former default)": (3, 0.01, 0.0, None, 300),
    "top6 race2 kz0.5 (default)": (6, 0.0, 0.5, 2.0, 300),
    "top6 race2 kz0.5, 150 rollouts": (6, 0.0, 0.5, 2.0, 150),
    "top6 race2 kz0.5, 600 rollouts": (6, 0.0, 0.5, 2.0, 600),
    "top6 kz0.5, no racing": (6, 0.0, 0.5, None, 300),
}


def _decide(rewards: list[list[float]], deals: list[int], rule: tuple[Any, ...]) -> int:
    """The move index a paired root rule plays, given per-deal rewards (as the bot does)."""
    top, keep, kz, race_z, budget = rule
    race = _Race(list(range(min(top, len(rewards[0])))))
    used = 0
    totals = [0.0] * len(rewards[0])
    for j in deals:
        if used + len(race.active) > budget or (race_z is not None and len(race.active) == 1):
            break
        used += len(race.active)
        race.add({m: rewards[j][m] for m in race.active})
        for m in race.active:
            totals[m] += rewards[j][m]
        if race_z is not None and race.deals >= 8:
            race.eliminate(race_z)
    best = max(race.active, key=lambda m: (totals[m], -m))
    if best != 0 and 0 in race.active:
        gap, se = race.difference(best, 0)
        if gap <= keep + kz * se:
            return 0
    return best


def _load(path: str) -> Any:
    with open(path) as f:
        return json.load(f)


def rules(path: str, truth: str | None, reps: int, seed: int) -> dict[str, Any]:
    """Chance to win gained per decision over the favourite, for each rule in :data:`RULES`."""
    data = _load(path)["positions"]
    valued = _load(truth)["positions"] if truth else data
    rnd = random.Random(seed)
    gains: dict[str, list[float]] = {name: [] for name in RULES}
    for pos, val in zip(data, valued, strict=True):
        if pos["moves"] != val["moves"] or len(pos["moves"]) < 2:
            continue
        seat = pos["seat"]
        rewards = [[_margin_reward(sc, seat) for sc in deal] for deal in pos["scores"]]
        wins = val["wins"]
        n = len(rewards)
        per_rule: dict[str, float] = dict.fromkeys(RULES, 0.0)
        for _ in range(reps):
            order = list(range(n))
            rnd.shuffle(order)
            chosen, held_out = order[: n * 3 // 5], order[n * 3 // 5 :]
            if truth:
                held_out = list(range(len(wins)))  # other rollouts: all of them are independent
            for name, rule in RULES.items():
                m = _decide(rewards, chosen, rule)
                per_rule[name] += sum(wins[j][m] - wins[j][0] for j in held_out) / len(held_out)
        for name in RULES:
            gains[name].append(per_rule[name] / reps)
    base = gains["top3 keep0.01 (former default)"]
    out = {}
    for name, g in gains.items():
        diffs = [a - b for a, b in zip(g, base, strict=True)]
        out[name] = {
            "win_chance_gain_pct": round(100 * statistics.mean(g), 2),
            "vs_former_default_pct": round(100 * statistics.mean(diffs), 2),
            "se_pct": round(100 * statistics.stdev(diffs) / math.sqrt(len(diffs)), 2),
        }
    return {"file": path, "truth": truth, "positions": len(base), "reps": reps, "rules": out}


def main(argv: list[str] | None = None) -> int:
    """Command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("speed", help="iterations per second")
    p.add_argument("--spec", default="ismcts:1s")
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("strength", help="win rate against players - 1 copies of a bot")
    p.add_argument("--game", default=GAME, help=f"game id (default {GAME})")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--spec", default="ismcts:1s:clock=cpu")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", help="result directory (resumable)")
    p = sub.add_parser("roots", help="paired rollouts of the top root moves of sampled positions")
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--deals", type=int, default=500)
    p.add_argument("--top", type=int, default=6)
    p.add_argument("--policy", default="auto", help="ismcts playout policy (auto, fast, ...)")
    p.add_argument("--seed", type=int, default=77)
    p.add_argument("--out", required=True, help="JSON file to write")
    p = sub.add_parser("rules", help="replay root rules on the rollouts of `roots`")
    p.add_argument("file")
    p.add_argument("--truth", help="value the choices on this file's rollouts instead")
    p.add_argument("--reps", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.what == "speed":
        doc = speed(args.spec, args.positions, args.seed)
    elif args.what == "strength":
        doc = strength(
            args.spec,
            args.opponent,
            args.games,
            args.seed,
            args.workers,
            args.out,
            game=args.game,
            players=args.players,
        )
    elif args.what == "roots":
        doc = roots(args.positions, args.deals, args.top, args.policy, args.seed)
        with open(args.out, "w") as f:
            json.dump(doc, f)
        doc = {
            "out": args.out,
            "positions": len(doc["positions"]),
            "cpu_seconds": doc["cpu_seconds"],
        }
    else:
        doc = rules(args.file, args.truth, args.reps, args.seed)
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
