"""The bot ladder: the difficulty levels of a game rated against each other with OpenSkill.

``civtable ladder GAME --players P --games N --out DIR`` plays a tournament of the levels
(``random``, ``easy``, ``normal``, ``hard``, ``expert``: :data:`civtable.bots.levels.LEVELS`),
saved and resumable in ``DIR`` like ``civtable tournament --out``, and writes there:

* ``report.html``: the ``civtable report`` page of the games (ratings, win rates with 95 %
  Wilson intervals, seats, scores, per-game factors);
* ``ratings.png``: the OpenSkill ratings, easiest level first (small, for the docs);
* ``ladder.md``: a Markdown table (level, bot spec, rating, games, win rate with its interval,
  mean score) and the command that made it.

Who plays whom (:func:`schedule`): with three or more players the levels are rotated over the
seats as ``civtable tournament`` does (every game seats ``P`` of them, each level every seat
equally often). With two players a plain rotation would always seat the same level first in
each pairing; the ladder instead runs up the levels and back down (``random, easy, normal,
hard, expert, hard, normal, easy``), so every game pairs neighbouring levels and each pairing is
played from both seats once per cycle: the games are spent where a rating is uncertain, not on
``expert`` against ``random``.

``--cpu`` counts the search levels' budgets in CPU time (``hard`` becomes
``ismcts:1s:clock=cpu``), for ladders played on a machine shared with other jobs. ``--scale F``
multiplies the search levels' time budgets by ``F`` (``--scale 0.2``: ``hard`` searches 200 ms,
``expert`` 1 s), a cheaper ladder whose table names those rungs ``hard (budget × 0.2)``, so a
reduced run stays labelled as one. ``--bots`` replaces the rungs with any bot specs.

>>> schedule(("random", "easy", "normal", "hard", "expert"), 2)
('random', 'easy', 'normal', 'hard', 'expert', 'hard', 'normal', 'easy')
>>> schedule(("random", "easy", "normal", "hard", "expert"), 4)
('random', 'easy', 'normal', 'hard', 'expert')
"""

from __future__ import annotations

import argparse
import base64
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from civtable.bots.ismcts import parse_spec
from civtable.bots.levels import LEVELS
from civtable.core.api import JSON
from civtable.core.errors import InvalidOptionsError
from civtable.sim.report import plot_ratings, write_report
from civtable.sim.tournament import TournamentConfig, TournamentSummary, run_tournament, validate

#: the ladder's rungs by default, easiest first
DEFAULT_BOTS = ("random", *LEVELS)


def schedule(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot list a ladder tournament rotates over the seats (see the module docstring)."""
    bots = tuple(bots)
    if players == 2 and len(bots) > 2:
        return bots + bots[-2:0:-1]
    return bots


def resolve(bot: str, cpu: bool, scale: float = 1.0) -> str:
    """The spec a ladder plays for ``bot``: a level name stays as it is, unless ``cpu`` asks for
    CPU-time budgets (a search level becomes its spec counted in CPU time) or ``scale`` scales
    the search levels' time budgets (``hard`` with ``scale=0.2``: ``ismcts:200ms``).

    >>> resolve("expert", cpu=True, scale=0.2)
    'ismcts:1s:clock=cpu'
    """
    spec = LEVELS.get(bot, bot)
    if bot not in LEVELS or not spec.startswith("ismcts"):
        if cpu and spec.startswith("ismcts") and "clock=" not in spec:
            return f"{spec}:clock=cpu"
        return bot
    if scale != 1.0:
        seconds = parse_spec(spec.partition(":")[2]).seconds
        if seconds is None:
            raise InvalidOptionsError(f"level {bot} has no time budget to scale")
        ms = seconds * scale * 1000.0
        budget = f"{ms / 1000.0:g}s" if ms >= 1000.0 else f"{ms:g}ms"
        spec = f"ismcts:{budget}"
    if cpu:
        return f"{spec}:clock=cpu"
    return spec if scale != 1.0 else bot


def rung_name(bot: str, scale: float = 1.0) -> str:
    """A rung's name in the ladder's table: a search level with a scaled budget says so."""
    if scale != 1.0 and LEVELS.get(bot, "").startswith("ismcts"):
        return f"{bot} (budget × {scale:g})"
    return bot


def ladder_rows(summary: TournamentSummary, names: dict[str, str]) -> list[JSON]:
    """One row per rung, easiest first: its name, spec, rating and results."""
    stats = {b.bot: b for b in summary.bot_stats()}
    rows: list[JSON] = []
    for spec in dict.fromkeys(summary.config.bots):
        b = stats[spec]
        lo, hi = b.interval
        r = b.rating
        rows.append(
            {
                "name": names.get(spec, spec),
                "spec": LEVELS.get(spec, spec),
                "games": b.seat_games,
                "mu": None if r is None else round(r.mu, 2),
                "sigma": None if r is None else round(r.sigma, 2),
                "ordinal": None if r is None else round(r.ordinal, 2),
                "win_rate": round(b.win_rate, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_score": round(b.score_sum / b.seat_games, 1) if b.seat_games else None,
            }
        )
    return rows


def ladder_markdown(summary: TournamentSummary, names: dict[str, str], command: str) -> str:
    """The ladder as a Markdown table, with the command that made it."""
    cfg = summary.config
    lines = [
        f"{cfg.game}, {cfg.players} players, {len(summary.completed)} games "
        f"({len(summary.errors)} errors), seed {cfg.seed}; `{command}`",
        "",
        "| level | bot | OpenSkill μ ± σ | ordinal (μ − 3σ) | games | win rate (95 % CI) "
        "| mean score |",
        "|---|---|---:|---:|---:|---|---:|",
    ]
    for row in ladder_rows(summary, names):
        rating = "–" if row["mu"] is None else f"{row['mu']:.1f} ± {row['sigma']:.1f}"
        ordinal = "–" if row["ordinal"] is None else f"{row['ordinal']:.1f}"
        lo, hi = row["ci95"]
        score = "–" if row["mean_score"] is None else f"{row['mean_score']:.1f}"
        lines.append(
            f"| {row['name']} | `{row['spec']}` | {rating} | {ordinal} | {row['games']} | "
            f"{100 * row['win_rate']:.1f} % ({100 * lo:.1f} – {100 * hi:.1f} %) | {score} |"
        )
    return "\n".join(lines) + "\n"


def run_ladder(
    game: str,
    players: int,
    games_: int,
    *,
    bots: Sequence[str] = DEFAULT_BOTS,
    cpu: bool = False,
    scale: float = 1.0,
    seed: int = 0,
    workers: int = 1,
    out_dir: str | Path,
    command: str = "",
    on_result: Any = None,
) -> TournamentSummary:
    """Play (or resume) the ladder tournament in ``out_dir`` and write its report, ratings plot
    and Markdown table there."""
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise InvalidOptionsError("a ladder needs at least two different bots")
    if not 0.0 < scale <= 100.0:
        raise InvalidOptionsError(f"the budget scale must be in (0, 100], not {scale:g}")
    specs = [resolve(b, cpu, scale) for b in bots]
    names = {spec: rung_name(bot, scale) for bot, spec in zip(bots, specs, strict=True)}
    config = TournamentConfig(game, players, schedule(specs, players), games_, seed)
    validate(config)
    summary = run_tournament(config, workers=workers, out_dir=out_dir, on_result=on_result)
    root = Path(out_dir)
    write_report(root / "report.html", summary)
    (root / "ratings.png").write_bytes(base64.b64decode(plot_ratings(summary, labels=names)))
    (root / "ladder.md").write_text(ladder_markdown(summary, names, command), encoding="utf-8")
    return summary


# --- command line ---------------------------------------------------------------------------------
def add_ladder_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``ladder`` command to the ``civtable`` sub-command parsers."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "ladder", help="rate the difficulty levels against each other (OpenSkill), with plots"
    )
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument(
        "--bots",
        default=",".join(DEFAULT_BOTS),
        help=f"the rungs, easiest first (default {','.join(DEFAULT_BOTS)})",
    )
    p.add_argument("--cpu", action="store_true", help="count search budgets in CPU time")
    p.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply the search levels' time budgets (a cheaper, labelled ladder; default 1)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel games (default 1)")
    p.add_argument("--out", metavar="DIR", required=True, help="results and plots; reruns resume")
    p.set_defaults(func=cmd_ladder)
    return p


def cmd_ladder(args: argparse.Namespace, out: Any, err: Any) -> int:
    """``civtable ladder GAME``: play the ladder, write its files, print its table."""
    from civtable.sim.report import games_progress

    bots = [b.strip() for b in args.bots.split(",")]
    if not all(bots):
        raise InvalidOptionsError(f"--bots must be comma-separated bot specs, got {args.bots!r}")
    command = shlex.join(
        ["civtable", "ladder", args.game, "--players", str(args.players), "--games"]
        + [str(args.games), "--bots", args.bots, "--seed", str(args.seed)]
        + (["--cpu"] if args.cpu else [])
        + (["--scale", f"{args.scale:g}"] if args.scale != 1.0 else [])
    )
    progress = games_progress("ladder", err)
    with progress:
        task = progress.add_task("games", total=args.games)
        summary = run_ladder(
            args.game,
            args.players,
            args.games,
            bots=bots,
            cpu=args.cpu,
            scale=args.scale,
            seed=args.seed,
            workers=args.workers,
            out_dir=args.out,
            command=command,
            on_result=lambda r: progress.advance(task),
        )
    table = (Path(args.out) / "ladder.md").read_text(encoding="utf-8")
    out.print(table, markup=False, highlight=False, soft_wrap=True)
    out.print(f"report, ratings.png and ladder.md in {args.out}", markup=False)
    for e in summary.errors:
        err.print(f"game {e.index} (seed {e.seed}) failed: {str(e.error).splitlines()[0]}")
    return 1 if summary.errors else 0


__all__ = [
    "DEFAULT_BOTS",
    "add_ladder_parser",
    "cmd_ladder",
    "ladder_markdown",
    "ladder_rows",
    "resolve",
    "run_ladder",
    "rung_name",
    "schedule",
]
