"""Speed measurements of a game engine through the core API, on one core.

Used by ``civtable bench`` and ``benchmarks/run.py``. Every measurement runs in the calling
process (one core), starts with a few warm-up games, and uses fixed seeds so two runs time the
same work. Nothing here asserts a speed: the numbers are for people comparing before and after.

The measured operations:

* **full games**: random bots play whole games (``new_game``, ``to_move``, ``legal_actions``,
  bot choice, validated ``apply``) — games/s and decisions/s;
* **apply**: replaying recorded games' action logs, timing only the validated ``apply`` calls;
* **copy**: ``State.copy`` on positions sampled from random games, also as a multiple of one
  ``apply`` (what a search bot pays per node);
* **view**: ``State.view(seat)`` for a seat to move on the sampled positions;
* **legal_actions**: the first (uncached) ``legal_actions`` call of a seat to move, on states
  restored from the sampled positions' JSON (a copy may keep its original's cached lists).

The positions are the states at the start of every decision round of the measured games. The
full games are timed once; the other measurements keep the fastest of a few runs (``rounds``).

:func:`bench_heuristic` times whole games of heuristic bots (``heuristic`` at every seat) in
games per CPU-second. Every timer is wall-clock time (``time.perf_counter``) unless ``clock`` is
given: ``time.process_time`` counts only this process's CPU time, steadier on a shared machine.

>>> doc = run_suite(games=1, warmup=0, player_counts=(3,))
>>> doc["results"][0]["players"], doc["results"][0]["games"]
(3, 1)
"""

from __future__ import annotations

import gc
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial

from civtable import compiled
from civtable.bots import make_bot
from civtable.core.api import JSON, Game, State
from civtable.games import get as get_game
from civtable.sim.simulate import bot_seed, game_seed

#: player counts measured by default
PLAYER_COUNTS = (3, 4, 7)


@dataclass
class BenchResult:
    """Measurements for one player count. Rates are per second, costs in microseconds."""

    game: str
    players: int
    games: int
    games_per_second: float
    decisions_per_second: float
    mean_decisions: float
    apply_us: float
    copies_per_second: float
    copy_us: float
    views_per_second: float
    view_us: float
    legal_actions_per_second: float
    legal_actions_us: float
    positions: int

    @property
    def copy_per_apply(self) -> float:
        """How many validated applies one copy costs."""
        return self.copy_us / self.apply_us if self.apply_us else 0.0

    @property
    def view_per_apply(self) -> float:
        """How many validated applies one view costs."""
        return self.view_us / self.apply_us if self.apply_us else 0.0

    @property
    def legal_per_apply(self) -> float:
        """How many validated applies one uncached ``legal_actions`` call costs."""
        return self.legal_actions_us / self.apply_us if self.apply_us else 0.0

    def to_json(self) -> JSON:
        """JSON-ready form, rounded, with the ratios."""
        doc: JSON = {k: round(v, 3) if isinstance(v, float) else v for k, v in asdict(self).items()}
        doc["copy_per_apply"] = round(self.copy_per_apply, 3)
        doc["view_per_apply"] = round(self.view_per_apply, 3)
        doc["legal_per_apply"] = round(self.legal_per_apply, 3)
        return doc


def random_game(game: Game, players: int, seed: int, positions: list[State] | None = None) -> State:
    """Play one game with random bots and return the final state.

    If ``positions`` is given, a copy of the state at the start of every round is appended to it.
    """
    state = game.new_game(players, seed)
    bots = [make_bot("random", bot_seed(seed, s)) for s in range(players)]
    while not state.is_terminal():
        if positions is not None:
            positions.append(state.copy())
        for seat in state.to_move():
            if state.legal_actions(seat):
                state.apply(seat, bots[seat].choose(state, seat))
    return state


def uncached(game: Game, positions: Sequence[tuple[State, int]]) -> list[tuple[State, int]]:
    """The ``(state, seat)`` positions rebuilt from their JSON: a copy may share its original's
    caches (7 Wonders, Through the Ages and Civilization keep the still-valid legal lists), a
    restored state has none, so its first ``legal_actions`` call does the work."""
    return [(game.state_from_json(p.to_json()), seat) for p, seat in positions]


#: a timer: seconds as a float (``time.perf_counter`` or ``time.process_time``)
Clock = Callable[[], float]


def _timed(fn: Callable[[], int], clock: Clock = time.perf_counter) -> tuple[float, int]:
    """Run ``fn`` once (it returns how many operations it did) with the GC paused."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = clock()
        ops = fn()
        return clock() - start, ops
    finally:
        if enabled:
            gc.enable()


def _best_of(
    rounds: int, make: Callable[[], Callable[[], int]], clock: Clock = time.perf_counter
) -> tuple[float, int]:
    """The fastest of ``rounds`` runs; ``make()`` prepares (untimed) one run's function."""
    return min(_timed(make(), clock) for _ in range(max(1, rounds)))


def bench_players(
    game_id: str = "seven-wonders",
    players: int = 3,
    games: int = 20,
    warmup: int = 2,
    seed: int = 0,
    rounds: int = 3,
    clock: Clock = time.perf_counter,
) -> BenchResult:
    """Measure every operation for one player count (see the module docstring).

    Full games are played once (``games`` of them, after ``warmup`` games); the per-operation
    measurements replay or reuse those games and keep the fastest of ``rounds`` runs, which
    filters out noise from other processes on a shared machine.
    """
    game = get_game(game_id)
    for i in range(warmup):
        random_game(game, players, game_seed(seed, 10_000 + i))
    seeds = [game_seed(seed, i) for i in range(games)]
    full_seconds, decisions = _timed(
        lambda: sum(len(random_game(game, players, g).history) for g in seeds), clock
    )

    # The same games again (untimed), keeping their logs and a position per round.
    positions: list[State] = []
    finals = [random_game(game, players, g, positions) for g in seeds]
    initial = [game.new_game(players, f.seed, f.options) for f in finals]

    def applies() -> Callable[[], int]:
        starts = [s.copy() for s in initial]

        def run() -> int:
            for state, final in zip(starts, finals, strict=True):
                for seat, action in final.history:
                    state.apply(seat, action)
            return sum(len(f.history) for f in finals)

        return run

    def copies() -> Callable[[], int]:
        def run() -> int:
            for p in positions:
                p.copy()
            return len(positions)

        return run

    movers = [(p, p.to_move()[0]) for p in positions if p.to_move()]

    def views() -> Callable[[], int]:
        def run() -> int:
            for p, seat in movers:
                p.view(seat)
            return len(movers)

        return run

    def legal() -> Callable[[], int]:
        fresh = uncached(game, movers)

        def run() -> int:
            for p, seat in fresh:
                p.legal_actions(seat)
            return len(fresh)

        return run

    apply_seconds, n_applies = _best_of(rounds, applies, clock)
    copy_seconds, n_copies = _best_of(rounds, copies, clock)
    view_seconds, n_views = _best_of(rounds, views, clock)
    legal_seconds, n_legal = _best_of(rounds, legal, clock)

    def rate(ops: int, seconds: float) -> float:
        return ops / seconds if seconds > 0 else 0.0

    return BenchResult(
        game=game_id,
        players=players,
        games=games,
        games_per_second=rate(games, full_seconds),
        decisions_per_second=rate(decisions, full_seconds),
        mean_decisions=decisions / games if games else 0.0,
        apply_us=1e6 * apply_seconds / max(1, n_applies),
        copies_per_second=rate(n_copies, copy_seconds),
        copy_us=1e6 * copy_seconds / max(1, n_copies),
        views_per_second=rate(n_views, view_seconds),
        view_us=1e6 * view_seconds / max(1, n_views),
        legal_actions_per_second=rate(n_legal, legal_seconds),
        legal_actions_us=1e6 * legal_seconds / max(1, n_legal),
        positions=len(positions),
    )


@dataclass
class HeuristicResult:
    """Whole games of heuristic bots at one player count, in CPU time."""

    game: str
    players: int
    games: int
    completed: int
    cpu_seconds: float
    decisions: int

    @property
    def games_per_cpu_second(self) -> float:
        """Games played per CPU-second (completed or stopped at the decision cap)."""
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_json(self) -> JSON:
        """JSON-ready form, rounded."""
        doc: JSON = {k: round(v, 3) if isinstance(v, float) else v for k, v in asdict(self).items()}
        doc["games_per_cpu_second"] = round(self.games_per_cpu_second, 3)
        return doc


#: a heuristic game stops after this many decisions (a stalled game still ends the measurement)
HEURISTIC_DECISION_CAP = 20_000


def heuristic_game(game: Game, players: int, seed: int, bot: str = "heuristic") -> State:
    """Play one game with ``bot`` at every seat (seeded as ``civtable simulate`` seeds them),
    stopping after :data:`HEURISTIC_DECISION_CAP` decisions; returns the last state."""
    state = game.new_game(players, seed)
    bots = [make_bot(bot, bot_seed(seed, s)) for s in range(players)]
    decisions = 0
    while not state.is_terminal() and decisions < HEURISTIC_DECISION_CAP:
        movers = state.to_move()
        if not movers:
            break
        for seat in movers:
            if state.legal_actions(seat):
                state.apply(seat, bots[seat].choose(state, seat))
                decisions += 1
    return state


def bench_heuristic(
    game_id: str = "seven-wonders",
    players: int = 3,
    games: int = 3,
    seed: int = 0,
    max_seconds: float = 0.0,
    bot: str = "heuristic",
) -> HeuristicResult:
    """Time whole games of ``bot`` at every seat, in CPU seconds (``time.process_time``).

    Plays ``games`` games (seeds as in :func:`bench_players`); with ``max_seconds`` > 0 it stops
    early once that much CPU time is spent, after at least one game. The first game is not
    excluded: heuristic bots are slow enough that warm-up costs little.
    """
    game = get_game(game_id)
    played = completed = decisions = 0
    spent = 0.0
    finals: list[State] = []

    def one(i: int) -> int:
        finals.append(heuristic_game(game, players, game_seed(seed, i), bot))
        return len(finals[-1].history)

    for i in range(games):
        seconds, n = _timed(partial(one, i), time.process_time)
        spent += seconds
        decisions += n
        played += 1
        completed += finals[-1].is_terminal()
        if max_seconds > 0 and spent >= max_seconds:
            break
    return HeuristicResult(
        game=game_id,
        players=players,
        games=played,
        completed=completed,
        cpu_seconds=spent,
        decisions=decisions,
    )


def run_suite(
    games: int = 20,
    warmup: int = 2,
    seed: int = 0,
    game_id: str = "seven-wonders",
    player_counts: Sequence[int] = PLAYER_COUNTS,
    on_result: Callable[[BenchResult], None] | None = None,
    rounds: int = 3,
) -> JSON:
    """Measure every player count; returns a JSON-ready report (``results`` per player count)."""
    results = []
    for n in player_counts:
        r = bench_players(game_id, n, games=games, warmup=warmup, seed=seed, rounds=rounds)
        results.append(r)
        if on_result is not None:
            on_result(r)
    return {
        "game": game_id,
        "games": games,
        "warmup": warmup,
        "seed": seed,
        "rounds": rounds,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        # which rules ran: "pure" or "compiled (...)" (CIVTABLE_COMPILED=1, civtable.compiled)
        "build": compiled.status().label(),
        "results": [r.to_json() for r in results],
    }
