"""Bot tournaments: seat rotation, resumable result files, ratings and win rates.

A :class:`TournamentConfig` names a game, a player count, a list of bot specs and a number of
games. Game ``i`` seats the bots in rotation (seat ``s`` plays ``bots[(i + s) % len(bots)]``), so
over ``len(bots)`` consecutive games every bot plays every seat equally often; list a bot several
times to give it several seats (``ismcts:1s,heuristic,heuristic,heuristic``). Game ``i`` uses the
seed :func:`~civtable.sim.simulate.game_seed` ``(seed, i)`` and its bots are seeded from that seed
and their seat, so a game's result depends only on the config and its index: the local and the
Ray backends, any number of workers and a resumed run all give the same records (except timings,
and except bots with a time budget, whose play depends on the machine's speed).

With an output directory, the config is written to ``tournament.json`` and every finished game is
appended to ``games.jsonl`` as soon as it arrives. Running the same tournament again skips the
games already in the file (a torn last line from an interrupted run is ignored; games that ended
with an error are played again); running it with a larger ``--games`` extends it.

The summary (:class:`TournamentSummary`) rates the bots with OpenSkill and gives each bot's win
rate (a shared victory is split among the co-winners, SW-13.3) with a 95 % Wilson interval.

>>> config = TournamentConfig("seven-wonders", players=3, bots=("heuristic", "random"), games=2)
>>> config.lineup(0), config.lineup(1)
(('heuristic', 'random', 'heuristic'), ('random', 'heuristic', 'random'))
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from civtable import games
from civtable.bots import make_bot
from civtable.bots.base import Bot
from civtable.core.api import JSON, State
from civtable.core.errors import CivtableError, InvalidOptionsError
from civtable.sim.ratings import Rating, rate_games, wilson_interval
from civtable.sim.simulate import bot_seed, game_seed

CONFIG_FILE = "tournament.json"
RESULTS_FILE = "games.jsonl"
FORMAT = "civtable-tournament"
VERSION = 1


class TournamentError(CivtableError):
    """A tournament could not run (e.g. its output directory holds another tournament)."""


# --- configuration --------------------------------------------------------------------------------
@dataclass(frozen=True)
class TournamentConfig:
    """What to play. Everything but ``games`` identifies the tournament for resuming."""

    game: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    options: JSON | None = None

    def lineup(self, index: int) -> tuple[str, ...]:
        """The bot spec of every seat in game ``index`` (seat rotation)."""
        m = len(self.bots)
        return tuple(self.bots[(index + s) % m] for s in range(self.players))

    def identity(self) -> JSON:
        """The fields that must match to resume a tournament."""
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "options": self.options,
        }

    def to_json(self) -> JSON:
        """JSON-ready form."""
        return {"format": FORMAT, "version": VERSION, **self.identity(), "games": self.games}

    @classmethod
    def from_json(cls, doc: JSON) -> TournamentConfig:
        """Inverse of :meth:`to_json`."""
        try:
            return cls(
                game=str(doc["game"]),
                players=int(doc["players"]),
                bots=tuple(str(b) for b in doc["bots"]),
                games=int(doc["games"]),
                seed=int(doc["seed"]),
                options=doc.get("options"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TournamentError(f"not a tournament config: {exc!r}") from exc


def validate(config: TournamentConfig) -> None:
    """Check a config before playing: game, player count, games, bot specs and options."""
    game = games.get(config.game)
    game.check_players(config.players)
    if config.games < 1:
        raise InvalidOptionsError(f"the number of games must be at least 1, not {config.games}")
    if not config.bots or not all(config.bots):
        raise InvalidOptionsError("at least one bot is needed (comma-separated specs)")
    for spec in config.bots:
        make_bot(spec, 0, game=config.game, players=config.players)  # fails before play
    game.new_game(config.players, config.seed, config.options)


# --- one game -------------------------------------------------------------------------------------
@dataclass
class GameResult:
    """The outcome of one tournament game (JSON line of ``games.jsonl``)."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    rewards: tuple[float, ...] = ()
    decisions: int = 0
    #: per seat: the game's factors (7 Wonders: wonder board and side), for reports
    factors: dict[str, list[str]] = field(default_factory=dict)
    #: per seat: seconds the bot spent choosing
    think: tuple[float, ...] = ()
    seconds: float = 0.0
    error: str | None = None

    @property
    def completed(self) -> bool:
        """Did the game reach its end?"""
        return self.error is None and bool(self.scores)

    def outcome(self) -> JSON:
        """Everything except the timings: equal across backends for deterministic bots."""
        doc = self.to_json()
        for key in ("think", "seconds"):
            doc.pop(key)
        return doc

    def to_json(self) -> JSON:
        """JSON-ready form."""
        return {
            "index": self.index,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "rewards": [round(r, 6) for r in self.rewards],
            "decisions": self.decisions,
            "factors": {k: list(v) for k, v in self.factors.items()},
            "think": [round(t, 4) for t in self.think],
            "seconds": round(self.seconds, 4),
            "error": self.error,
        }

    @classmethod
    def from_json(cls, doc: JSON) -> GameResult:
        """Inverse of :meth:`to_json`."""
        return cls(
            index=int(doc["index"]),
            seed=int(doc["seed"]),
            lineup=tuple(str(b) for b in doc["lineup"]),
            scores=tuple(int(x) for x in doc["scores"]),
            ranking=tuple(int(x) for x in doc["ranking"]),
            winners=tuple(int(x) for x in doc["winners"]),
            rewards=tuple(float(x) for x in doc["rewards"]),
            decisions=int(doc["decisions"]),
            factors={str(k): [str(x) for x in v] for k, v in doc.get("factors", {}).items()},
            think=tuple(float(x) for x in doc.get("think", ())),
            seconds=float(doc.get("seconds", 0.0)),
            error=doc.get("error"),
        )


def _seven_wonders_factors(state: State) -> dict[str, list[str]]:
    """Wonder board and side of every seat's city (the Free City has no seat, SW-14)."""
    boards = [""] * state.players
    sides = [""] * state.players
    for city in state.view(None)["cities"]:
        seat = city["seat"]
        if seat is not None:
            boards[seat] = str(city["board"])
            sides[seat] = str(city["side"])
    return {
        "board": boards,
        "side": sides,
        "board_side": [f"{b} {s}" for b, s in zip(boards, sides, strict=True)],
    }


def _civilization_factors(state: State) -> dict[str, list[str]]:
    """Each seat's leader (CIV-24)."""
    return {"leader": [str(p["leader"]) for p in state.view(None)["player_state"]]}


def _first_player(state: State) -> dict[str, list[str]]:
    """Whether each seat starts the game, for games whose view names a first player."""
    first = state.view(None).get("first_player")
    if not isinstance(first, int):
        return {}
    return {"first_player": ["first" if s == first else "not first" for s in range(state.players)]}


#: per game id: the per-seat factors recorded for reports (board and side, leaders…); every
#: game whose view names a ``first_player`` also gets that factor
FACTORS: dict[str, Callable[[State], dict[str, list[str]]]] = {
    "seven-wonders": _seven_wonders_factors,
    "civilization-a-new-dawn": _civilization_factors,
}


def game_factors(state: State) -> dict[str, list[str]]:
    """The per-seat factors of a game at its start."""
    factors = FACTORS.get(state.game.id)
    out = factors(state) if factors is not None else {}
    out.update(_first_player(state))
    return out


def play_game(config: TournamentConfig, index: int) -> GameResult:
    """Play game ``index`` of a tournament; an exception inside the game becomes ``error``."""
    seed = game_seed(config.seed, index)
    lineup = config.lineup(index)
    result = GameResult(index=index, seed=seed, lineup=lineup)
    think = [0.0] * config.players
    start = time.perf_counter()
    try:
        state = games.get(config.game).new_game(config.players, seed, config.options)
        result.factors = game_factors(state)
        bots: list[Bot] = [make_bot(lineup[s], bot_seed(seed, s)) for s in range(config.players)]
        decisions = 0
        while not state.is_terminal():
            for seat in state.to_move():
                if not state.legal_actions(seat):
                    continue  # an earlier decision of this round settled it
                t0 = time.perf_counter()
                action = bots[seat].choose(state, seat)
                think[seat] += time.perf_counter() - t0
                state.apply(seat, action)
                decisions += 1
        outcome = state.result()
        result.scores, result.ranking = outcome.scores, outcome.ranking
        result.winners, result.rewards = outcome.winners, outcome.rewards()
        result.decisions = decisions
    except Exception as exc:
        result.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    result.think = tuple(think)
    result.seconds = time.perf_counter() - start
    return result


def play_game_json(config_doc: JSON, index: int) -> JSON:
    """:func:`play_game` on JSON in and out (for remote workers)."""
    return play_game(TournamentConfig.from_json(config_doc), index).to_json()


# --- result files ---------------------------------------------------------------------------------
def load_results(out_dir: str | Path) -> tuple[TournamentConfig | None, dict[int, GameResult]]:
    """The config and the finished games saved in ``out_dir`` (empty if there are none).

    Lines that do not parse (a torn last line after a crash) are skipped.
    """
    root = Path(out_dir)
    config: TournamentConfig | None = None
    cfg_path = root / CONFIG_FILE
    if cfg_path.exists():
        try:
            doc = json.loads(cfg_path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise TournamentError(f"cannot read {cfg_path}: {exc}") from exc
        config = TournamentConfig.from_json(doc)
    results: dict[int, GameResult] = {}
    path = root / RESULTS_FILE
    if path.exists():
        with path.open() as fh:
            for line in fh:
                if not line.strip():
                    continue
                try:
                    r = GameResult.from_json(json.loads(line))
                except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                    continue
                results[r.index] = r
    return config, results


def _prepare_dir(config: TournamentConfig, out_dir: Path) -> dict[int, GameResult]:
    """Create or check the output directory; the finished games of this tournament in it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    saved, results = load_results(out_dir)
    if saved is not None and saved.identity() != config.identity():
        raise TournamentError(
            f"{out_dir} holds another tournament ({json.dumps(saved.identity())}); "
            "use another --out directory"
        )
    (out_dir / CONFIG_FILE).write_text(json.dumps(config.to_json(), indent=1) + "\n")
    path = out_dir / RESULTS_FILE
    if path.exists() and path.stat().st_size:
        with path.open("rb+") as fh:  # end a torn last line so that new lines stay separate
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
    return {
        i: r
        for i, r in results.items()
        if i < config.games and r.lineup == config.lineup(i) and r.error is None
    }


# --- backends -------------------------------------------------------------------------------------
def iter_local(
    config: TournamentConfig, indices: Sequence[int], workers: int = 1
) -> Iterator[GameResult]:
    """Play the games ``indices`` in this process or a process pool, yielding as they finish."""
    if workers <= 1 or len(indices) <= 1:
        for i in indices:
            yield play_game(config, i)
        return
    # "spawn": forking a process that runs threads (the progress bar's) can deadlock
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        queue = list(reversed(indices))
        running: set[Future[GameResult]] = set()
        while queue or running:
            while queue and len(running) < 2 * workers:
                running.add(pool.submit(play_game, config, queue.pop()))
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for fut in sorted(done, key=lambda f: f.result().index):
                yield fut.result()


BACKENDS = ("local", "ray")


# --- summary --------------------------------------------------------------------------------------
@dataclass
class BotStats:
    """One bot spec's results over a tournament."""

    bot: str
    seat_games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    place_sum: float = 0.0
    think: float = 0.0
    decisions_seats: int = 0
    rating: Rating | None = None

    @property
    def win_rate(self) -> float:
        """Win share per seat played (a shared victory counts as a fraction)."""
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.seat_games)

    def to_json(self) -> JSON:
        """JSON-ready form."""
        lo, hi = self.interval
        n = self.seat_games
        return {
            "bot": self.bot,
            "seat_games": n,
            "wins": round(self.wins, 4),
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(self.score_sum / n, 3) if n else None,
            "mean_place": round(self.place_sum / n, 3) if n else None,
            "think_seconds": round(self.think, 3),
            "rating": self.rating.to_json() if self.rating else None,
        }


@dataclass
class TournamentSummary:
    """Results of a tournament, folded in game order."""

    config: TournamentConfig
    results: list[GameResult]
    seconds: float = 0.0
    played: int = 0  # games played by this run (the others were loaded)

    @property
    def completed(self) -> list[GameResult]:
        """Games that reached their end, in index order."""
        return [r for r in self.results if r.completed]

    @property
    def errors(self) -> list[GameResult]:
        """Games that raised."""
        return [r for r in self.results if r.error is not None]

    def ratings(self) -> dict[str, Rating]:
        """OpenSkill ratings of the bot specs, from the completed games in index order."""
        return rate_games((r.lineup, r.ranking) for r in self.completed)

    def bot_stats(self) -> list[BotStats]:
        """Per bot spec, in the order of the config (duplicates merged)."""
        stats: dict[str, BotStats] = {}
        for spec in self.config.bots:
            stats.setdefault(spec, BotStats(spec))
        for r in self.completed:
            for s, spec in enumerate(r.lineup):
                b = stats.setdefault(spec, BotStats(spec))
                b.seat_games += 1
                b.wins += r.rewards[s]
                b.score_sum += r.scores[s]
                b.place_sum += r.ranking[s] + 1
                b.think += r.think[s] if s < len(r.think) else 0.0
        for spec, rating in self.ratings().items():
            stats[spec].rating = rating
        return list(stats.values())

    def seat_stats(self) -> list[JSON]:
        """Win rate per seat with its 95 % interval, and the mean score per seat."""
        done = self.completed
        out = []
        for s in range(self.config.players):
            wins = sum(r.rewards[s] for r in done)
            lo, hi = wilson_interval(wins, len(done))
            out.append(
                {
                    "seat": s,
                    "games": len(done),
                    "win_rate": round(wins / len(done), 4) if done else 0.0,
                    "ci95": [round(lo, 4), round(hi, 4)],
                    "mean_score": round(sum(r.scores[s] for r in done) / len(done), 3)
                    if done
                    else None,
                }
            )
        return out

    def to_json(self) -> JSON:
        """The JSON summary (``summary.json``, ``--json``)."""
        return {
            "tournament": self.config.to_json(),
            "games": len(self.results),
            "completed": len(self.completed),
            "errors": len(self.errors),
            "played_now": self.played,
            "seconds": round(self.seconds, 3),
            "chance": round(1.0 / self.config.players, 4),
            "bots": [b.to_json() for b in self.bot_stats()],
            "seats": self.seat_stats(),
            "error_details": [
                {"index": r.index, "seed": r.seed, "lineup": list(r.lineup), "error": r.error}
                for r in self.errors
            ],
        }


def summarize(config: TournamentConfig, results: Iterable[GameResult]) -> TournamentSummary:
    """A summary of already played games (e.g. loaded with :func:`load_results`)."""
    return TournamentSummary(config, sorted(results, key=lambda r: r.index))


# --- the runner -----------------------------------------------------------------------------------
def run_tournament(
    config: TournamentConfig,
    *,
    workers: int = 1,
    backend: str = "local",
    out_dir: str | Path | None = None,
    ray_address: str | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> TournamentSummary:
    """Play every game of ``config`` not already saved in ``out_dir``; return the summary.

    ``on_result`` is called for every game as it arrives (also for games loaded from
    ``out_dir``, first, so a progress bar starts at the right count).
    """
    validate(config)
    if backend not in BACKENDS:
        raise InvalidOptionsError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if workers < 1:
        raise InvalidOptionsError(f"--workers must be at least 1, not {workers}")
    start = time.perf_counter()
    results: dict[int, GameResult] = {}
    path: Path | None = None
    if out_dir is not None:
        results = _prepare_dir(config, Path(out_dir))
        path = Path(out_dir) / RESULTS_FILE
        if on_result is not None:
            for i in sorted(results):
                on_result(results[i])
    todo = [i for i in range(config.games) if i not in results]
    stream: Iterator[GameResult]
    if backend == "ray":
        from civtable.sim.ray_backend import iter_ray

        stream = iter_ray(config, todo, workers=workers, address=ray_address)
    else:
        stream = iter_local(config, todo, workers)
    played = 0
    with open(path, "a") if path is not None else contextlib.nullcontext() as fh:
        for r in stream:
            results[r.index] = r
            played += 1
            if fh is not None:
                fh.write(json.dumps(r.to_json(), separators=(",", ":")) + "\n")
                fh.flush()
            if on_result is not None:
                on_result(r)
    summary = summarize(config, results.values())
    summary.seconds = time.perf_counter() - start
    summary.played = played
    if out_dir is not None:
        (Path(out_dir) / "summary.json").write_text(json.dumps(summary.to_json(), indent=1) + "\n")
    return summary


# --- command line ---------------------------------------------------------------------------------
def _specs(text: str) -> tuple[str, ...]:
    specs = tuple(b.strip() for b in text.split(","))
    if not all(specs):
        raise InvalidOptionsError(f"--bots must be comma-separated bot specs, got {text!r}")
    return specs


def _options(sides: str | None) -> JSON | None:
    return None if sides is None else {"sides": sides}


def add_tournament_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``tournament`` command to the ``civtable`` sub-command parsers."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "tournament", help="play bots against each other with seat rotation; ratings, win rates"
    )
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs, rotated over the seats (e.g. ismcts:1s,heuristic,random)",
    )
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel games (default 1)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="local processes or Ray")
    p.add_argument("--ray-address", help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--out", metavar="DIR", help="save results in DIR; rerunning resumes")
    p.add_argument("--sides", choices=("A", "B", "random"), help="7 Wonders board sides")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_tournament)
    return p


def cmd_tournament(args: argparse.Namespace, out: Any, err: Any) -> int:
    """``civtable tournament GAME``: play, save as results arrive, print ratings and win rates.

    ``out`` and ``err`` are rich consoles. Exit code 1 if a game crashed.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    config = TournamentConfig(
        game=args.game,
        players=args.players,
        bots=_specs(args.bots),
        games=args.games,
        seed=args.seed,
        options=_options(args.sides),
    )
    validate(config)
    progress = Progress(
        TextColumn("tournament"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=args.json or not err.is_terminal,
    )
    with progress:
        task = progress.add_task("games", total=config.games)
        summary = run_tournament(
            config,
            workers=args.workers,
            backend=args.backend,
            out_dir=args.out,
            ray_address=args.ray_address,
            on_result=lambda r: progress.advance(task),
        )
    doc = summary.to_json()
    if args.json:
        out.print_json(data=doc)
    else:
        out.print(summary_table(doc))
        seats = ", ".join(
            f"{s['seat']}: {100 * s['win_rate']:.1f}%" for s in doc["seats"] if s["games"]
        )
        out.print(f"win rate by seat: {seats}")
        out.print(
            f"{doc['completed']} games completed ({doc['played_now']} played now) "
            f"in {doc['seconds']:.1f} s" + (f"; results in {args.out}" if args.out else "")
        )
    for e in doc["error_details"]:
        first = str(e["error"]).splitlines()[0]
        err.print(f"game {e['index']} (seed {e['seed']}) failed: {first}", markup=False)
    return 1 if summary.errors else 0


def summary_table(doc: JSON) -> Any:
    """A rich table of the bots: seats played, win rate with its interval, score, rating."""
    from rich.table import Table

    t = doc["tournament"]
    table = Table(
        title=f"{t['game']}, {t['players']} players, {doc['completed']} games "
        f"(chance {100 * doc['chance']:.0f}%)"
    )
    table.add_column("bot", overflow="fold")
    for col in ("seats", "win rate", "95% CI", "score", "place", "OpenSkill"):
        table.add_column(col, justify="right", no_wrap=True)
    rows = sorted(
        doc["bots"],
        key=lambda b: -(b["rating"]["ordinal"] if b["rating"] else -1e9),
    )
    for b in rows:
        r = b["rating"]
        table.add_row(
            b["bot"],
            str(b["seat_games"]),
            f"{100 * b['win_rate']:.1f}%",
            f"{100 * b['ci95'][0]:.0f}-{100 * b['ci95'][1]:.0f}%",
            "-" if b["mean_score"] is None else f"{b['mean_score']:.1f}",
            "-" if b["mean_place"] is None else f"{b['mean_place']:.2f}",
            "-" if r is None else f"{r['mu']:.1f}±{r['sigma']:.1f}",
        )
    return table


__all__ = [
    "FACTORS",
    "BotStats",
    "GameResult",
    "TournamentConfig",
    "TournamentError",
    "TournamentSummary",
    "add_tournament_parser",
    "cmd_tournament",
    "iter_local",
    "load_results",
    "play_game",
    "play_game_json",
    "run_tournament",
    "summarize",
]
