"""Balance reports: one self-contained HTML page with matplotlib plots (embedded PNGs).

``civtable report GAME`` either plays games (a tournament of ``--bots`` over ``--games`` games,
by default the heuristic bot in every seat, which measures the game rather than the bots) or reads
saved tournament results (``--from DIR``). The page shows:

* the bots' win rates with 95 % Wilson intervals, mean scores and OpenSkill ratings;
* the win rate by seat (chance level ``1/players`` drawn as a line);
* score distributions by seat and by bot;
* the win rate by each per-game factor recorded in the results (7 Wonders: wonder board, side,
  and board with side; later games: leader, first player…), with the number of seat-games.

A shared victory counts as a fraction of a win (SW-13.3). Factor win rates mix the bots that sat
at those seats, so they measure balance best when every seat runs the same bot.

Every word of the page (title, headings, table headers, plot labels) comes from the ``common``
catalogue in the report's language (``civtable --lang ru report …``; ``report.*`` keys).

Plots are drawn with matplotlib's Agg backend on :class:`matplotlib.figure.Figure` objects (no
pyplot, no display), so reports can be written from worker processes and servers.
"""

from __future__ import annotations

import argparse
import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from civtable import games, present
from civtable.core.api import JSON
from civtable.core.errors import InvalidOptionsError
from civtable.sim.ratings import wilson_interval
from civtable.sim.tournament import (
    GameResult,
    TournamentConfig,
    TournamentError,
    TournamentSummary,
    load_results,
    run_tournament,
    summarize,
    validate,
)

#: the factors recorded by tournaments that have a name in the catalogue (``report.factor.<f>``)
FACTOR_TITLES = ("board", "side", "board_side", "leader", "first_player")


def factor_title(factor: str, tr: present.Translator | None = None) -> str:
    """A factor's name in the reader's language (an unnamed one: its id with spaces)."""
    tr = tr or present.translator()
    key = f"report.factor.{factor}"
    return tr.t(key) if tr.has(key) else factor.replace("_", " ")


#: content-key prefixes (``games/<pkg>/data/i18n``) that may name a factor's levels
_LEVEL_CONTENT = {"board": ("wonder", "board"), "leader": ("leader", "civilization")}


def factor_level(
    game_id: str, factor: str, level: str, tr: present.Translator | None = None
) -> str:
    """A factor's level as the reader reads it: ``first``/``not first`` from the catalogue, a
    wonder board or a leader by its content name (the game's ``words.content_english()`` and
    its content data), a board with its side as both; else the recorded id."""
    tr = tr or present.translator()
    if factor == "first_player" and tr.has(f"report.level.{level.replace(' ', '_')}"):
        return tr.t(f"report.level.{level.replace(' ', '_')}")
    if factor == "board_side" and " " in level:
        board, side = level.rsplit(" ", 1)
        return f"{factor_level(game_id, 'board', board, tr)} {side}"
    module = present.words_module(game_id)
    english_of = getattr(module, "content_english", None) if module is not None else None
    english: dict[str, str] = english_of() if callable(english_of) else {}
    pkg = game_id.replace("-", "_")
    for prefix in _LEVEL_CONTENT.get(factor, ()):
        key = f"{prefix}.{level}"
        if key in english:
            return tr.content(pkg, key, english[key])
    return level


# --- aggregation ----------------------------------------------------------------------------------
def factor_win_rates(results: Sequence[GameResult], factor: str) -> list[JSON]:
    """Win rate per level of a per-seat factor over the completed games, best first.

    Each row: ``level``, ``seats`` (seat-games with that level), ``wins`` (shares),
    ``win_rate`` and ``ci95``.
    """
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    for r in results:
        if not r.completed or factor not in r.factors:
            continue
        for s, level in enumerate(r.factors[factor]):
            if not level:
                continue
            wins[level] = wins.get(level, 0.0) + r.rewards[s]
            seats[level] = seats.get(level, 0) + 1
    rows: list[JSON] = []
    for level, n in seats.items():
        lo, hi = wilson_interval(wins[level], n)
        rows.append(
            {
                "level": level,
                "seats": n,
                "wins": wins[level],
                "win_rate": wins[level] / n,
                "ci95": [lo, hi],
            }
        )
    rows.sort(key=lambda row: (-float(row["win_rate"]), str(row["level"])))
    return rows


def factors_of(results: Sequence[GameResult]) -> list[str]:
    """The factor names recorded in the results, in a stable order."""
    names: list[str] = []
    for r in results:
        for k in r.factors:
            if k not in names:
                names.append(k)
    return names


# --- plots ----------------------------------------------------------------------------------------
def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _rate_bars(
    ax: Any,
    labels: list[str],
    rows: list[JSON],
    chance: float,
    horizontal: bool,
    tr: present.Translator,
) -> None:
    rates = [100 * row["win_rate"] for row in rows]
    lo = [max(0.0, 100 * (row["win_rate"] - row["ci95"][0])) for row in rows]
    hi = [max(0.0, 100 * (row["ci95"][1] - row["win_rate"])) for row in rows]
    pos = list(range(len(rows)))
    if horizontal:
        ax.barh(pos, rates, xerr=[lo, hi], color="#4c78a8", capsize=3)
        ax.set_yticks(pos, labels)
        ax.invert_yaxis()
        ax.axvline(100 * chance, color="#e45756", linestyle="--", label=tr.t("report.chance"))
        ax.set_xlabel(tr.t("report.rate_axis"))
    else:
        ax.bar(pos, rates, yerr=[lo, hi], color="#4c78a8", capsize=4)
        ax.set_xticks(pos, labels)
        ax.axhline(100 * chance, color="#e45756", linestyle="--", label=tr.t("report.chance"))
        ax.set_ylabel(tr.t("report.rate_axis"))
    ax.legend(loc="best")


def plot_ratings(
    summary: TournamentSummary,
    tr: present.Translator | None = None,
    labels: dict[str, str] | None = None,
) -> str:
    """PNG (base64) of the bots' OpenSkill ratings: the mean with two deviations either side,
    in the order of the config (a ladder: easiest first). ``labels`` renames bot specs."""
    tr = tr or present.translator()
    ratings = summary.ratings()
    specs = [b for b in dict.fromkeys(summary.config.bots) if b in ratings]
    fig = _figure(6.0, 1.0 + 0.35 * max(2, len(specs)))
    ax = fig.subplots()
    pos = list(range(len(specs)))
    mus = [ratings[b].mu for b in specs]
    ax.errorbar(
        mus, pos, xerr=[2 * ratings[b].sigma for b in specs], fmt="o", color="#4c78a8", capsize=3
    )
    ax.set_yticks(pos, [(labels or {}).get(b, b) for b in specs])
    ax.invert_yaxis()
    ax.set_xlabel(tr.t("report.rating_axis"))
    ax.set_title(tr.t("report.ratings"))
    return _png(fig)


def plot_seat_win_rates(summary: TournamentSummary, tr: present.Translator | None = None) -> str:
    """PNG (base64) of the win rate by seat."""
    tr = tr or present.translator()
    rows = summary.seat_stats()
    fig = _figure(6.0, 3.5)
    ax = fig.subplots()
    labels = [tr.t("report.seat", n=r["seat"]) for r in rows]
    _rate_bars(ax, labels, rows, 1 / summary.config.players, False, tr)
    ax.set_title(tr.t("report.win_by_seat"))
    return _png(fig)


def plot_scores(summary: TournamentSummary, tr: present.Translator | None = None) -> str:
    """PNG (base64) of the score distributions by seat (box plots) and by bot (histograms)."""
    tr = tr or present.translator()
    done = summary.completed
    players = summary.config.players
    fig = _figure(11.0, 4.0)
    left, right = fig.subplots(1, 2)
    by_seat = [[r.scores[s] for r in done] for s in range(players)]
    left.boxplot(by_seat, tick_labels=[tr.t("report.seat", n=s) for s in range(players)])
    left.set_title(tr.t("report.final_by_seat"))
    left.set_ylabel(tr.t("report.score"))
    by_bot: dict[str, list[int]] = {}
    for r in done:
        for s, spec in enumerate(r.lineup):
            by_bot.setdefault(spec, []).append(r.scores[s])
    all_scores = [x for xs in by_bot.values() for x in xs]
    if all_scores:
        lo, hi = min(all_scores), max(all_scores)
        bins = list(range(lo, hi + 3, max(1, math.ceil((hi - lo + 2) / 30))))
        for spec, xs in by_bot.items():
            right.hist(xs, bins=bins, histtype="step", linewidth=1.8, label=spec, density=True)
        right.legend(loc="best")
    right.set_title(tr.t("report.final_by_bot"))
    right.set_xlabel(tr.t("report.score"))
    right.set_ylabel(tr.t("report.share"))
    return _png(fig)


def plot_factor(
    rows: list[JSON], title: str, chance: float, tr: present.Translator | None = None
) -> str:
    """PNG (base64) of the win rate by one factor's levels."""
    tr = tr or present.translator()
    fig = _figure(7.0, 1.2 + 0.32 * max(2, len(rows)))
    ax = fig.subplots()
    labels = [
        tr.t("report.level", level=row.get("label", row["level"]), n=row["seats"]) for row in rows
    ]
    _rate_bars(ax, labels, rows, chance, True, tr)
    ax.set_title(tr.t("report.win_by", factor=title))
    return _png(fig)


# --- HTML -----------------------------------------------------------------------------------------
_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
img { max-width: 100%; display: block; margin: 0.5em 0 1.5em; }
.note { color: #555; font-size: 0.9em; }
"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _img(png: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{png}">'


def build_report(
    summary: TournamentSummary,
    title: str | None = None,
    source: str = "",
    lang: str = present.SOURCE_LANGUAGE,
) -> str:
    """The HTML report of a tournament summary (a complete page) in the language ``lang``."""
    tr = present.translator(lang)
    cfg = summary.config
    game = games.get(cfg.game)
    name = present.game_name(game.id, tr, game.name)
    done = summary.completed
    chance = 1.0 / cfg.players
    heading = title or tr.t("report.title", game=name)
    intro = tr.t(
        "report.intro",
        game=name,
        players=tr.tn("n.player", cfg.players),
        completed=tr.tn("n.completed_game", len(done)),
        errors=tr.tn("n.error", len(summary.errors)),
        bots=", ".join(cfg.bots),
        seed=cfg.seed,
    )
    if cfg.options:
        intro += "; " + tr.t("report.options", options=str(cfg.options))
    if source:
        intro += f"; {source}"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{html.escape(tr.lang)}"><head><meta charset="utf-8">',
        f"<title>{html.escape(heading)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(heading)}</h1>",
        f"<p>{html.escape(intro)}.</p>",
        f'<p class="note">{html.escape(tr.t("report.note", chance=_pct(chance)))}</p>',
    ]
    if not done:
        parts.append(f"<p>{html.escape(tr.t('report.no_games'))}</p></body></html>")
        return "\n".join(parts)

    def col(*keys: str) -> list[str]:
        return [tr.t(f"report.col.{k}") for k in keys]

    parts.append(f"<h2>{html.escape(tr.t('report.bots'))}</h2>")
    bot_rows = []
    for b in summary.bot_stats():
        if not b.seat_games:
            continue
        lo, hi = b.interval
        r = b.rating
        bot_rows.append(
            [
                b.bot,
                b.seat_games,
                _pct(b.win_rate),
                f"{_pct(lo)} – {_pct(hi)}",
                f"{b.score_sum / b.seat_games:.1f}",
                f"{b.place_sum / b.seat_games:.2f}",
                "-" if r is None else f"{r.mu:.1f} ± {r.sigma:.1f}",
            ]
        )
    parts.append(
        _table(
            col("bot", "seat_games", "win_rate", "ci", "mean_score", "mean_place", "rating"),
            bot_rows,
        )
    )

    if len(summary.ratings()) > 1:
        ratings = tr.t("report.ratings")
        parts.append(f"<h2>{html.escape(ratings)}</h2>")
        parts.append(_img(plot_ratings(summary, tr), ratings))

    by_seat = tr.t("report.win_by_seat")
    parts.append(f"<h2>{html.escape(by_seat)}</h2>")
    parts.append(_img(plot_seat_win_rates(summary, tr), by_seat))
    seat_rows = []
    for s in summary.seat_stats():
        scores = [r.scores[s["seat"]] for r in done]
        mean = sum(scores) / len(scores)
        sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(1, len(scores) - 1))
        seat_rows.append(
            [
                tr.t("report.seat", n=s["seat"]),
                _pct(s["win_rate"]),
                f"{_pct(s['ci95'][0])} – {_pct(s['ci95'][1])}",
                f"{mean:.1f}",
                f"{sd:.1f}",
                min(scores),
                max(scores),
            ]
        )
    parts.append(_table(col("seat", "win_rate", "ci", "mean_score", "sd", "min", "max"), seat_rows))

    distributions = tr.t("report.score_distributions")
    parts.append(f"<h2>{html.escape(distributions)}</h2>")
    parts.append(_img(plot_scores(summary, tr), distributions))

    for factor in factors_of(done):
        rows = [
            {**row, "label": factor_level(cfg.game, factor, str(row["level"]), tr)}
            for row in factor_win_rates(done, factor)
        ]
        factor_name = factor_title(factor, tr)
        by_factor = tr.t("report.win_by", factor=factor_name)
        parts.append(f"<h2>{html.escape(by_factor)}</h2>")
        parts.append(_img(plot_factor(rows, factor_name, chance, tr), by_factor))
        parts.append(
            _table(
                [factor_name, *col("seat_games", "win_rate", "ci")],
                [
                    [
                        row["label"],
                        row["seats"],
                        _pct(row["win_rate"]),
                        f"{_pct(row['ci95'][0])} – {_pct(row['ci95'][1])}",
                    ]
                    for row in rows
                ],
            )
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(path: str | Path, summary: TournamentSummary, **kwargs: Any) -> Path:
    """Write :func:`build_report` to ``path``; returns the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(build_report(summary, **kwargs), encoding="utf-8")
    return out


def load_summary(game_id: str, dirs: Sequence[str | Path]) -> TournamentSummary:
    """A summary of the saved tournament results in ``dirs`` (same game and player count).

    Several directories are merged as one set of games (renumbered in the order given).
    """
    config: TournamentConfig | None = None
    merged: list[GameResult] = []
    for d in dirs:
        saved, results = load_results(d)
        if saved is None:
            raise TournamentError(f"{d} holds no tournament ({d}/tournament.json is missing)")
        if saved.game != game_id:
            raise InvalidOptionsError(f"{d} holds a {saved.game} tournament, not {game_id}")
        if config is not None and saved.players != config.players:
            raise InvalidOptionsError("the tournaments to merge have different player counts")
        if config is None:
            config = saved
        else:
            bots = config.bots + tuple(b for b in saved.bots if b not in config.bots)
            config = TournamentConfig(config.game, config.players, bots, 0, config.seed)
        for i in sorted(results):
            r = results[i]
            r.index = len(merged)
            merged.append(r)
    assert config is not None
    config = TournamentConfig(
        config.game, config.players, config.bots, len(merged), config.seed, config.options
    )
    return summarize(config, merged)


# --- command line ---------------------------------------------------------------------------------
def add_report_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``report`` command to the ``civtable`` sub-command parsers."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "report", help="write an HTML balance report (plays games or reads tournament results)"
    )
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument(
        "--from",
        dest="sources",
        metavar="DIR",
        nargs="+",
        help="tournament result directories (civtable tournament --out) instead of playing",
    )
    p.add_argument("--players", type=int, help="number of players (when playing games)")
    p.add_argument("--bots", default="heuristic", help="bots rotated over the seats (heuristic)")
    p.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel games (default 1)")
    p.add_argument("--sides", choices=("A", "B", "random"), help="7 Wonders board sides")
    p.add_argument("--save", metavar="DIR", help="also save the played games as a tournament")
    p.add_argument("--title", help="page title")
    p.add_argument("--out", default="report.html", help="HTML file (default report.html)")
    p.set_defaults(func=cmd_report)
    return p


def cmd_report(args: argparse.Namespace, out: Any, err: Any) -> int:
    """``civtable report GAME``: play or load games, write the HTML report."""
    games.get(args.game)
    lang = getattr(args, "lang", None) or present.SOURCE_LANGUAGE
    tr = present.translator(lang)
    if args.sources:
        summary = load_summary(args.game, args.sources)
        source = tr.t("report.source_results", dirs=", ".join(str(s) for s in args.sources))
    else:
        if args.players is None:
            raise InvalidOptionsError("--players is needed to play games (or give --from DIR)")

        config = TournamentConfig(
            game=args.game,
            players=args.players,
            bots=tuple(b.strip() for b in args.bots.split(",")),
            games=args.games,
            seed=args.seed,
            options=None if args.sides is None else {"sides": args.sides},
        )
        validate(config)
        progress = games_progress(tr.t("report.progress"), err)
        with progress:
            task = progress.add_task("games", total=config.games)
            summary = run_tournament(
                config,
                workers=args.workers,
                out_dir=args.save,
                on_result=lambda r: progress.advance(task),
            )
        source = tr.t("report.source_played")
    path = write_report(args.out, summary, title=args.title, source=source, lang=lang)
    written = tr.t("report.written", games=tr.tn("n.game", len(summary.completed)), path=path)
    out.print(written, markup=False)
    return 1 if summary.errors else 0


__all__ = [
    "add_report_parser",
    "build_report",
    "cmd_report",
    "factor_level",
    "factor_title",
    "factor_win_rates",
    "factors_of",
    "load_summary",
    "plot_ratings",
    "write_report",
]


def games_progress(label: str, err: Any) -> Any:
    """A transient ``rich`` progress bar of games (``label``, bar, done/total) on the console
    ``err``, shown only when it is a terminal (the report and ladder commands)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
