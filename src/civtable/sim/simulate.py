"""Play many bot-vs-bot games of any civtable game and summarize them.

This is the engine behind ``civtable simulate`` and the building block of tournaments. A run is
described by a :class:`SimConfig`; :func:`play_one` plays game ``i`` of it and :func:`simulate`
plays them all (optionally in a process pool) and folds the records into a :class:`SimSummary`.

Everything except the timing fields is a function of the config: game ``i`` uses the seed
:func:`game_seed(config.seed, i) <game_seed>`, its bots are seeded from that game seed and their
seat, and the summary is computed from the records in game order, so a run with several worker
processes gives exactly the results of a run with one.

>>> summary = simulate(SimConfig("seven-wonders", players=3, games=2, seed=1, bots=("random",)))
>>> summary.completed, summary.errors
(2, 0)
"""

from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from civtable import games
from civtable.bots import make_bot
from civtable.bots.base import Bot, bot_names
from civtable.core.api import JSON, Game, State
from civtable.core.errors import InvalidOptionsError
from civtable.core.replay import Replay

#: the bot used when none is named: the heuristic bot once it is registered, else random
PREFERRED_DEFAULT_BOT = "heuristic"


def default_bot() -> str:
    """``"heuristic"`` if that bot is registered, else ``"random"``."""
    return PREFERRED_DEFAULT_BOT if PREFERRED_DEFAULT_BOT in bot_names() else "random"


def _derive(*parts: int) -> int:
    blob = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed`` (63-bit, stable everywhere).

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
    """
    return _derive(seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the bot playing ``seat`` in a game with seed ``seed_of_game``."""
    return _derive(seed_of_game, seat, 0xB07)


@dataclass(frozen=True)
class SimConfig:
    """What to simulate. ``bots`` are bot specs cycled over the seats (seat s: bots[s % len])."""

    game: str
    players: int
    games: int
    seed: int = 0
    bots: tuple[str, ...] = ("random",)
    max_rounds: int | None = None
    options: JSON | None = None
    keep_replays: bool = False

    def bot_for(self, seat: int) -> str:
        """The bot spec playing ``seat``."""
        return self.bots[seat % len(self.bots)]

    def seat_bots(self) -> list[str]:
        """The bot spec of every seat."""
        return [self.bot_for(s) for s in range(self.players)]


def validate(config: SimConfig) -> Game:
    """Check a config before running it; raises a :class:`~civtable.core.CivtableError`.

    Unknown or planned games raise :class:`~civtable.core.UnknownGameError`, a bad player count
    or number of games :class:`~civtable.core.InvalidOptionsError`, an unknown bot
    :class:`~civtable.bots.UnknownBotError`.
    """
    game = games.get(config.game)
    game.check_players(config.players)
    if config.games < 1:
        raise InvalidOptionsError(f"the number of games must be at least 1, not {config.games}")
    if config.max_rounds is not None and config.max_rounds < 1:
        raise InvalidOptionsError(f"--max-rounds must be at least 1, not {config.max_rounds}")
    if not config.bots:
        raise InvalidOptionsError("at least one bot is needed")
    for spec in config.bots:
        make_bot(spec, 0, game=config.game, players=config.players)  # fails before play
    game.new_game(config.players, config.seed, config.options)  # validates the options
    return game


@dataclass
class GameRecord:
    """The outcome of one simulated game."""

    index: int
    seed: int
    completed: bool = False
    truncated: bool = False
    error: str | None = None
    decisions: int = 0
    rounds: int = 0
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    rewards: tuple[float, ...] = ()
    replay: Replay | None = None
    replay_path: str | None = None

    def to_json(self) -> JSON:
        """JSON-ready form (without the replay itself)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "completed": self.completed,
            "truncated": self.truncated,
            "error": self.error,
            "decisions": self.decisions,
            "rounds": self.rounds,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "replay": self.replay_path,
        }


def play_one(config: SimConfig, index: int) -> GameRecord:
    """Play game ``index`` of ``config``; never raises for an error inside the game.

    An exception raised by a bot or the engine ends the game: the record carries the error text
    and the replay of the game up to that point (with the traceback in its ``meta``).
    """
    seed = game_seed(config.seed, index)
    record = GameRecord(index=index, seed=seed)
    game = games.get(config.game)
    state: State | None = None
    try:
        state = game.new_game(config.players, seed, config.options)
        bots: list[Bot] = [
            make_bot(config.bot_for(s), bot_seed(seed, s)) for s in range(config.players)
        ]
        cap = config.max_rounds
        decisions = rounds = 0
        while not state.is_terminal():
            if cap is not None and rounds >= cap:
                record.truncated = True
                break
            rounds += 1
            for seat in state.to_move():
                if not state.legal_actions(seat):
                    continue  # an earlier decision of this round settled this seat's
                state.apply(seat, bots[seat].choose(state, seat))
                decisions += 1
        record.decisions, record.rounds = decisions, rounds
        if not record.truncated and state.result().extra.get("unfinished"):
            record.truncated = True  # stopped by the game's own turn cap, not by its rules
        if not record.truncated:
            result = state.result()
            record.completed = True
            record.scores, record.winners = result.scores, result.winners
            record.rewards = result.rewards()
        if config.keep_replays:
            record.replay = _replay_of(config, state, record)
    except Exception as exc:
        record.completed = record.truncated = False
        record.error = f"{type(exc).__name__}: {exc}"
        if state is not None:
            record.decisions = len(state.history)
            record.replay = _replay_of(config, state, record, traceback=traceback.format_exc())
    return record


def _replay_of(config: SimConfig, state: State, record: GameRecord, **extra: Any) -> Replay:
    return Replay.of(
        state,
        source="civtable simulate",
        run_seed=config.seed,
        index=record.index,
        bots=config.seat_bots(),
        completed=record.completed,
        truncated=record.truncated,
        error=record.error,
        **extra,
    )


def _play_chunk(config: SimConfig, indices: Sequence[int]) -> list[GameRecord]:
    return [play_one(config, i) for i in indices]


def iter_records(config: SimConfig, workers: int = 1) -> Iterator[GameRecord]:
    """Play every game of ``config`` and yield the records in game order.

    With ``workers > 1`` the games are spread over a process pool in small chunks; the records
    are the same as with one worker.
    """
    if workers <= 1 or config.games == 1:
        for i in range(config.games):
            yield play_one(config, i)
        return
    chunk = max(1, min(16, config.games // (workers * 4)))
    starts = range(0, config.games, chunk)
    chunks = [list(range(s, min(s + chunk, config.games))) for s in starts]
    # "spawn": workers start clean, never inheriting locks held by threads of this process (a
    # progress bar's refresh thread, for instance), on every platform alike.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for records in pool.map(_play_chunk, [config] * len(chunks), chunks):
            yield from records


@dataclass
class SimSummary:
    """What a run produced. Every field except ``seconds`` is deterministic in the config."""

    config: SimConfig
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def completed(self) -> int:
        """Games played to the end."""
        return sum(r.completed for r in self.records)

    @property
    def truncated(self) -> int:
        """Games stopped by ``max_rounds``."""
        return sum(r.truncated for r in self.records)

    @property
    def errors(self) -> int:
        """Games ended by an exception."""
        return sum(r.error is not None for r in self.records)

    @property
    def decisions(self) -> int:
        """Decisions applied in all games (completed, truncated or not)."""
        return sum(r.decisions for r in self.records)

    def wins_by_seat(self) -> list[int]:
        """Completed games each seat won (co-winners each count a win, SW-13.3)."""
        wins = [0] * self.config.players
        for r in self.records:
            for s in r.winners:
                wins[s] += 1
        return wins

    def wins_by_bot(self) -> dict[str, float]:
        """Win shares per bot spec: a shared victory is split among the co-winners."""
        out = dict.fromkeys(self.config.seat_bots(), 0.0)
        for r in self.records:
            for s, share in enumerate(r.rewards):
                out[self.config.bot_for(s)] += share
        return out

    def mean_score(self) -> list[float | None]:
        """Mean final score per seat over the completed games (``None`` if there are none)."""
        done = [r for r in self.records if r.completed]
        if not done:
            return [None] * self.config.players
        return [
            round(sum(r.scores[s] for r in done) / len(done), 4) for s in range(self.config.players)
        ]

    def mean_decisions(self) -> float | None:
        """Mean number of decisions (applied actions) per completed game."""
        done = [r for r in self.records if r.completed]
        return round(sum(r.decisions for r in done) / len(done), 4) if done else None

    def mean_rounds(self) -> float | None:
        """Mean number of decision rounds per completed game."""
        done = [r for r in self.records if r.completed]
        return round(sum(r.rounds for r in done) / len(done), 4) if done else None

    def error_records(self) -> list[GameRecord]:
        """The records of the games that raised."""
        return [r for r in self.records if r.error is not None]

    def _rate(self, count: int) -> float:
        return count / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> JSON:
        """The one JSON object ``civtable simulate --json`` prints."""
        cfg = self.config
        return {
            "game": cfg.game,
            "players": cfg.players,
            "games": cfg.games,
            "seed": cfg.seed,
            "bots": cfg.seat_bots(),
            "max_rounds": cfg.max_rounds,
            "completed": self.completed,
            "truncated": self.truncated,
            "errors": self.errors,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self._rate(len(self.records)), 3),
            "decisions": self.decisions,
            "decisions_per_second": round(self._rate(self.decisions), 1),
            "mean_decisions": self.mean_decisions(),
            "mean_rounds": self.mean_rounds(),
            "wins_by_seat": self.wins_by_seat(),
            "wins_by_bot": {k: round(v, 4) for k, v in self.wins_by_bot().items()},
            "mean_score": self.mean_score(),
            "error_details": [
                {"index": r.index, "seed": r.seed, "error": r.error, "replay": r.replay_path}
                for r in self.error_records()
            ],
        }


def replay_name(record: GameRecord) -> str:
    """File name of a game's replay inside the save directory."""
    return f"game-{record.index:05d}-seed-{record.seed}.json"


def simulate(
    config: SimConfig,
    *,
    workers: int = 1,
    save_dir: str | Path | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
) -> SimSummary:
    """Play every game of ``config`` and summarize.

    ``save_dir``: write every game's replay there. Replays of games that raised are always
    written, to ``save_dir`` or else to a new temporary directory; their paths are in
    :attr:`GameRecord.replay_path`. ``on_record`` is called after each game (in game order),
    e.g. to advance a progress bar.
    """
    validate(config)
    if save_dir is not None and not config.keep_replays:
        config = dataclasses.replace(config, keep_replays=True)
    error_dir: Path | None = Path(save_dir) if save_dir is not None else None
    summary = SimSummary(config)
    start = time.perf_counter()
    for record in iter_records(config, workers):
        if record.replay is not None and (save_dir is not None or record.error is not None):
            if error_dir is None:
                error_dir = Path(tempfile.mkdtemp(prefix="civtable-errors-"))
            record.replay_path = str(record.replay.save(error_dir / replay_name(record)))
        record.replay = None  # keep memory flat on long runs
        summary.records.append(record)
        if on_record is not None:
            on_record(record)
    summary.seconds = time.perf_counter() - start
    return summary
