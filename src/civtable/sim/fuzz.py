"""Random legal play with every check after every decision: the engine's fuzzer (``civtable fuzz``).

Game ``i`` of a run seeded ``S`` is dealt with the seed ``S + i`` and played by a random policy
seeded from that game seed, so a failing game is reproduced by ``--seed S+i --games 1`` with the
same players and options (every failure carries that command line). The policy picks a random
seat among those that owe a decision and a uniformly random legal action for it; like the random
bot it takes a game's concede actions (:attr:`~civtable.core.api.Game.concede_actions`, e.g.
resigning) only when nothing else is legal, so random games are whole games.

After **every** ``apply`` (and once after setup) the fuzzer checks:

* ``invariants.check(state)`` of the game's invariants module, found by convention as
  ``civtable.games.<package>.invariants`` (component conservation and other cheap structural
  invariants); a game without one is reported (``invariants: false``) and gets only the generic
  checks below;
* ``invariants.leaks(state, viewer)`` for every seat and for a spectator (``None``): nothing
  hidden from the viewer appears in its view. Views are the expensive part, so this runs every
  ``leaks_every`` decisions (1 = every decision, the default; 0 = never);
* illegal input: an action id that is not legal (and ids just outside the action space), a seat
  that owes no decision, a seat that does not exist and an action that is not an int each raise
  the typed error (:class:`~civtable.core.errors.IllegalActionError`, or
  :class:`~civtable.core.errors.NotYourTurnError` for a seat that owes nothing) and leave the
  history unchanged, and ``state_hash()`` too (compared right away at round-trip steps; any
  other change shows in the continuation and replay checks, whose failure report tells a
  changed original from a restored copy that went astray). Every kind is tried every
  ``probes_every`` decisions (1 = every decision, the default) and always after setup, at
  round-trip steps and at the end; at the decisions between, one kind is tried, the next in
  turn, so every kind still runs in every game (deterministic: the same game tries the same
  inputs again);
* serialization (every ``round_trip_every`` decisions, 1 = every decision, the default):
  ``game.state_from_json`` of ``state.to_json()``, through real JSON text, has the same
  ``state_hash()``; one restored copy at a time is played on with the same decisions for at
  least ``follow`` steps and must reach the same hash as the original (restored states continue
  identically);
* at the end, ``game.replay(players, seed, history, options)`` reproduces the final hash (on a
  mismatch the first differing step is located), and ``result()`` answers.

With ``log`` on, every game keeps its event log as the CLI and the server do, so the leak checks
read the log lines of the views too (hashes are then compared without the log).

A game stops at its first failing step; the failure names the check, the step (decisions applied
before it broke; 0 = right after setup) and every message of that check.

>>> summary = fuzz(FuzzConfig("seven-wonders", players=3, games=2, seed=5))
>>> summary.to_json()["failures"], summary.completed
([], 2)
"""

from __future__ import annotations

import hashlib
import importlib
import json
import multiprocessing
import shlex
import time
import traceback
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from civtable import games
from civtable.core.api import JSON, Game, State
from civtable.core.errors import (
    CivtableError,
    IllegalActionError,
    InvalidOptionsError,
    NotYourTurnError,
)
from civtable.core.replay import Replay
from civtable.core.rng import Rng

#: default cap on the decisions of one game (far above any whole random game of the four games)
DEFAULT_MAX_STEPS = 20_000
#: decisions a restored copy is played on before its hash is compared with the original's
DEFAULT_FOLLOW = 3
#: the kinds of check, in the order the summary lists them
CHECK_KINDS = (
    "invariants",
    "leaks",
    "illegal_actions",
    "round_trip",
    "continuation",
    "replay",
    "play",
)


class NoInvariantsError(CivtableError, ValueError):
    """A game's invariants module exists but does not define ``check`` and ``leaks``."""


_MODULES: dict[str, ModuleType | None] = {}


def invariants_module(game_id: str) -> ModuleType | None:
    """The invariants module of ``game_id`` (``civtable.games.<package>.invariants``), or
    ``None`` if the game has none yet. Raises :class:`NoInvariantsError` if the module lacks
    ``check(state)`` or ``leaks(state, viewer)``."""
    if game_id in _MODULES:
        return _MODULES[game_id]
    name = f"civtable.games.{game_id.replace('-', '_')}.invariants"
    module: ModuleType | None
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise  # the module exists but imports something missing: a real error
        module = None
    if module is not None:
        for attr in ("check", "leaks"):
            if not callable(getattr(module, attr, None)):
                raise NoInvariantsError(f"{name} does not define {attr}()")
    _MODULES[game_id] = module
    return module


def module_name(game_id: str) -> str:
    """Where the invariants module of ``game_id`` is looked for."""
    return f"civtable.games.{game_id.replace('-', '_')}.invariants"


@dataclass(frozen=True)
class FuzzConfig:
    """What to fuzz. Game ``i`` uses the seed ``seed + i``."""

    game: str
    players: int
    games: int = 100
    seed: int = 0
    options: JSON | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    leaks_every: int = 1
    round_trip_every: int = 1
    #: every kind of illegal input every K decisions (and after setup, at round trips and at
    #: the end); at the decisions between, one kind in turn (1 = every kind at every decision)
    probes_every: int = 1
    follow: int = DEFAULT_FOLLOW
    #: keep each game's event log (as the CLI and the server do), so the leak checks read it too
    log: bool = False

    def command(self, seed: int) -> str:
        """The command line that replays the game dealt with ``seed`` alone."""
        parts = [
            "civtable",
            "fuzz",
            self.game,
            "--players",
            str(self.players),
            "--seed",
            str(seed),
            "--games",
            "1",
        ]
        if self.options:
            parts += ["--options", json.dumps(self.options, separators=(",", ":"))]
        if self.max_steps != DEFAULT_MAX_STEPS:
            parts += ["--max-steps", str(self.max_steps)]
        if self.leaks_every != 1:
            parts += ["--leaks-every", str(self.leaks_every)]
        if self.round_trip_every != 1:
            parts += ["--round-trip-every", str(self.round_trip_every)]
        if self.probes_every != 1:
            parts += ["--probes-every", str(self.probes_every)]
        if self.follow != DEFAULT_FOLLOW:
            parts += ["--follow", str(self.follow)]
        if self.log:
            parts.append("--log")
        return shlex.join(parts)


def validate(config: FuzzConfig) -> Game:
    """Check a config before running it; raises a :class:`~civtable.core.CivtableError`
    (:class:`~civtable.core.UnknownGameError`, :class:`~civtable.core.InvalidOptionsError`)."""
    game = games.get(config.game)
    game.check_players(config.players)
    for name, value, least in (
        ("games", config.games, 1),
        ("max_steps", config.max_steps, 1),
        ("leaks_every", config.leaks_every, 0),
        ("round_trip_every", config.round_trip_every, 1),
        ("probes_every", config.probes_every, 1),
        ("follow", config.follow, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise InvalidOptionsError(f"{name} must be an integer of at least {least}, not {value}")
    if isinstance(config.seed, bool) or not isinstance(config.seed, int) or config.seed < 0:
        raise InvalidOptionsError(f"the seed must be a non-negative integer, not {config.seed}")
    if config.options is not None and not isinstance(config.options, dict):
        raise InvalidOptionsError("the options must be a JSON object")
    game.new_game(config.players, config.seed, config.options)  # validates the options
    invariants_module(game.id)  # a broken module is an error before the run
    return game


@dataclass
class Failure:
    """The first failing check of one game, with what reproduces it."""

    game: str
    players: int
    seed: int
    step: int
    check: str
    messages: list[str]
    command: str
    options: JSON | None = None
    replay_path: str | None = None

    def to_json(self) -> JSON:
        """JSON-ready form (``what`` = the first message, ``messages`` = all of them)."""
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "step": self.step,
            "check": self.check,
            "what": self.messages[0] if self.messages else self.check,
            "messages": list(self.messages),
            "command": self.command,
            "replay": self.replay_path,
        }


@dataclass
class GameOutcome:
    """What fuzzing one game did."""

    index: int
    seed: int
    moves: int = 0
    checks: Counter[str] = field(default_factory=Counter)
    completed: bool = False
    truncated: bool = False
    failure: Failure | None = None
    replay: Replay | None = None


class _CheckFailedError(Exception):
    """Raised inside a game's loop to stop it at a failed check."""

    def __init__(self, check: str, messages: list[str]) -> None:
        super().__init__(check)
        self.check = check
        self.messages = messages


def _derive(*parts: int) -> int:
    blob = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "big") >> 1


def policy_seed(game_seed: int) -> int:
    """The seed of the random policy playing the game dealt with ``game_seed``."""
    return _derive(game_seed, 0xF022)


def _exception_text(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


class _Game:
    """The checks of one game (a small object so the loop stays readable)."""

    def __init__(self, config: FuzzConfig, index: int) -> None:
        self.config = config
        self.seed = config.seed + index
        self.outcome = GameOutcome(index=index, seed=self.seed)
        self.game = games.get(config.game)
        self.module = invariants_module(self.game.id)
        self.policy = Rng(policy_seed(self.seed))
        self.checker = Rng(_derive(self.seed, 0xC4EC))  # the checks' own randomness
        self.size = 0
        self.hashes: dict[int, str] = {}  # decisions applied -> hash, at round-trip steps
        self.twin: State | None = None
        self.twin_left = 0
        self.twin_from = 0
        self.turn = 0  # the kind of illegal input tried last between full probes

    def count(self, kind: str, n: int = 1) -> None:
        self.outcome.checks[kind] += n

    def hash(self, state: State) -> str:
        """``state_hash()``; with the event log on, of the position without its log (a replay
        or a restored state need not carry the log)."""
        if not self.config.log:
            return state.state_hash()
        log = getattr(state, "log", None)
        if log is None:
            return state.state_hash()
        state.log = None  # type: ignore[attr-defined]
        try:
            return state.state_hash()
        finally:
            state.log = log  # type: ignore[attr-defined]

    # --- the checks of one position ----------------------------------------------------------
    def check_position(self, state: State, step: int) -> None:
        """Everything checked after a decision (or after setup, ``step`` 0)."""
        over = state.is_terminal()
        round_trip = over or step % self.config.round_trip_every == 0
        before = ""
        if round_trip:
            before = self.hash(state)
            self.hashes[step] = before
            twin = self.twin
            if twin is not None and (self.twin_left <= 0 or over):
                self.count("continuation")
                self.twin = None
                twin_hash = self.hash(twin)
                if twin_hash != before:
                    raise _CheckFailedError(
                        "continuation", [self._diverged(state, step, twin_hash, before)]
                    )
        if self.module is not None:
            self.run_invariants(state)
            every = self.config.leaks_every
            if every and step % every == 0:
                self.run_leaks(state)
        self.illegal_inputs(state, every_kind=round_trip or step % self.config.probes_every == 0)
        if round_trip:
            restored = self.round_trip(state, before)
            if self.twin is None and not over:
                self.twin, self.twin_left, self.twin_from = restored, self.config.follow, step

    def _diverged(self, state: State, step: int, twin_hash: str, now: str) -> str:
        """Why a restored copy and the original differ: a clean replay of the history (never
        serialized, no illegal input tried) tells which of the two went astray."""
        k = self.twin_from
        head = (
            f"the state restored from JSON after decision {k}, played on with the same "
            f"{step - k} decision(s), has hash {twin_hash}, the original {now}"
        )
        try:
            clean = self.hash(
                self.game.replay(state.players, self.seed, state.history[:step], state.options)
            )
        except Exception as exc:  # the replay itself breaks: report both
            return f"{head}; a clean replay raised {_exception_text(exc)}"
        if clean == twin_hash:
            return (
                f"{head}; a clean replay agrees with the restored copy: a refused illegal input "
                f"changed the original between decisions {k} and {step}"
            )
        if clean == now:
            return (
                f"{head}; a clean replay agrees with the original: the restored state does not "
                "continue identically"
            )
        return f"{head}; a clean replay has a third hash {clean}"

    def run_invariants(self, state: State) -> None:
        assert self.module is not None
        self.count("invariants")
        try:
            messages = list(self.module.check(state))
        except Exception as exc:
            raise _CheckFailedError(
                "invariants", [f"check() raised {_exception_text(exc)}"]
            ) from exc
        if messages:
            raise _CheckFailedError("invariants", [str(m) for m in messages])

    def run_leaks(self, state: State) -> None:
        assert self.module is not None
        out: list[str] = []
        for viewer in [None, *range(state.players)]:
            self.count("leaks")
            who = "a spectator" if viewer is None else f"seat {viewer}"
            try:
                found = list(self.module.leaks(state, viewer))
            except Exception as exc:
                raise _CheckFailedError(
                    "leaks", [f"leaks() for {who} raised {_exception_text(exc)}"]
                ) from exc
            out += [f"view of {who}: {m}" for m in found]
        if out:
            raise _CheckFailedError("leaks", out)

    def illegal_inputs(self, state: State, every_kind: bool = True) -> None:
        """Bad decisions raise the typed error and change nothing (hash and history). With
        ``every_kind`` off only one of them is tried, the next kind in turn (``probes_every``)."""
        rng = self.checker
        players = state.players
        movers = state.to_move()
        history = len(state.history)
        # (seat, action, the error expected, what was tried: a format and its argument, put
        # into words only for a failure)
        attempts: list[tuple[Any, Any, type[IllegalActionError], str, Any]] = []
        if not movers:
            for seat in range(players):
                attempts.append((seat, 0, NotYourTurnError, "a decision after the end", None))
        else:
            seat = rng.choice(movers)
            legal = state.legal_actions(seat)
            if self.size == 0:
                self.size = self.game.action_space_size(players, state.options)
            legal_set = set(legal)
            for _ in range(4):  # an id in range that is not legal now (if there is one)
                a = rng.randbelow(self.size)
                if a not in legal_set:
                    attempts.append((seat, a, IllegalActionError, "action {} (not legal)", a))
                    break
            attempts.append((seat, -1, IllegalActionError, "action {}", -1))
            attempts.append((seat, self.size, IllegalActionError, "action {}", self.size))
            some = legal[0] if legal else 0
            # rng.choice([str(some), float(some), None, True]), building only the one chosen
            k = rng.randbelow(4)
            odd: Any = str(some) if k == 0 else float(some) if k == 1 else None if k == 2 else True
            attempts.append((seat, odd, IllegalActionError, "action {!r} (not an int)", odd))
            attempts.append((players, some, IllegalActionError, "seat {} (no such seat)", players))
            idle = [s for s in range(players) if s not in movers]
            if idle:
                other = rng.choice(idle)
                attempts.append((other, some, NotYourTurnError, "seat {} (owes nothing)", other))
        if not every_kind and movers:
            self.turn = (self.turn + 1) % len(attempts)
            attempts = [attempts[self.turn]]
        tried = 0
        try:
            for seat, action, expected, what, arg in attempts:
                tried += 1
                try:
                    state.apply(seat, action)
                except IllegalActionError as exc:
                    wrong = not isinstance(exc, expected) or (
                        expected is IllegalActionError and isinstance(exc, NotYourTurnError)
                    )
                    if wrong:
                        raise _CheckFailedError(
                            "illegal_actions",
                            [
                                f"{what.format(arg)} for seat {seat} raised "
                                f"{type(exc).__name__}, expected {expected.__name__}: {exc}"
                            ],
                        ) from exc
                except Exception as exc:
                    raise _CheckFailedError(
                        "illegal_actions",
                        [
                            f"{what.format(arg)} for seat {seat} raised {_exception_text(exc)}, "
                            f"expected {expected.__name__}"
                        ],
                    ) from exc
                else:
                    raise _CheckFailedError(
                        "illegal_actions", [f"{what.format(arg)} for seat {seat} was accepted"]
                    )
                if len(state.history) != history:
                    raise _CheckFailedError(
                        "illegal_actions",
                        [f"{what.format(arg)} for seat {seat} was added to the history"],
                    )
        finally:
            self.count("illegal_actions", tried)

    def round_trip(self, state: State, before: str) -> State:
        """``state_from_json(to_json())`` through JSON text has the hash of the original (taken
        before the illegal inputs, so a state they changed is caught here too)."""
        self.count("round_trip")
        try:
            text = json.dumps(state.to_json())
            restored = self.game.state_from_json(json.loads(text))
            after = self.hash(restored)
        except Exception as exc:
            raise _CheckFailedError("round_trip", [f"raised {_exception_text(exc)}"]) from exc
        if after != before:
            now = self.hash(state)
            if now != before:
                raise _CheckFailedError(
                    "illegal_actions",
                    [
                        f"the state changed although every illegal input was refused "
                        f"(hash {before} -> {now}; the invariants module's check() and "
                        f"leaks(), which must only read, ran in between too)"
                    ],
                )
            raise _CheckFailedError(
                "round_trip",
                [f"state_from_json(to_json()) has hash {after}, the state {before}"],
            )
        return restored

    # --- the game ---------------------------------------------------------------------------
    def choose(self, state: State) -> tuple[int, int]:
        movers = state.to_move()
        if not movers:
            raise _CheckFailedError("play", ["the game is not over but no seat owes a decision"])
        seat = self.policy.choice(movers)
        legal = state.legal_actions(seat)
        if not legal:
            raise _CheckFailedError(
                "play", [f"seat {seat} owes a decision but has no legal action"]
            )
        concede = self.game.concede_actions
        if concede:
            legal = [a for a in legal if a not in concede] or legal
        return seat, self.policy.choice(legal)

    def play(self) -> GameOutcome:
        config = self.config
        outcome = self.outcome
        state: State | None = None
        step = 0
        try:
            state = self.game.new_game(config.players, self.seed, config.options)
            if config.log and hasattr(state, "log"):
                state.log = []
            self.check_position(state, 0)
            while not state.is_terminal():
                if step >= config.max_steps:
                    outcome.truncated = True
                    break
                seat, action = self.choose(state)
                try:
                    state.apply(seat, action)
                except Exception as exc:
                    raise _CheckFailedError(
                        "play",
                        [f"legal action {action} of seat {seat} raised {_exception_text(exc)}"],
                    ) from exc
                step += 1
                if self.twin is not None:
                    self.count("continuation")
                    try:
                        self.twin.apply(seat, action)
                    except Exception as exc:
                        raise _CheckFailedError(
                            "continuation",
                            [
                                f"a state restored from JSON after decision {self.twin_from} "
                                f"refused decision {step} (seat {seat}, action {action}): "
                                f"{_exception_text(exc)}"
                            ],
                        ) from exc
                    self.twin_left -= 1
                self.check_position(state, step)
            outcome.moves = step
            self.final(state)
            outcome.completed = not outcome.truncated
        except _CheckFailedError as broken:
            outcome.moves = step
            self.fail(state, step, broken.check, broken.messages)
        except Exception as exc:  # setup itself, or a check helper, raised
            outcome.moves = step
            self.fail(state, step, "play", [f"raised {_exception_text(exc)}"])
        return outcome

    def final(self, state: State) -> None:
        """``replay`` reproduces the final hash; ``result()`` answers."""
        self.count("replay")
        history = list(state.history)
        final = self.hash(state)
        try:
            rebuilt = self.game.replay(state.players, self.seed, history, state.options)
            got = self.hash(rebuilt)
        except Exception as exc:
            raise _CheckFailedError(
                "replay", [f"replay of the history raised {_exception_text(exc)}"]
            ) from exc
        if got != final:
            raise _CheckFailedError("replay", [self._first_divergence(state, history, got, final)])
        self.count("play")
        try:
            state.result()
        except Exception as exc:
            raise _CheckFailedError("play", [f"result() raised {_exception_text(exc)}"]) from exc

    def _first_divergence(
        self, state: State, history: list[tuple[int, int]], got: str, final: str
    ) -> str:
        head = f"replay of the history ends at hash {got}, the game at {final}"
        twin = self.game.new_game(state.players, self.seed, state.options)
        last = 0
        for i, (seat, action) in enumerate(history):
            seen = self.hashes.get(i)
            if seen is not None:
                if self.hash(twin) != seen:
                    return f"{head}; they first differ after decision {i} (equal after {last})"
                last = i
            twin.apply(seat, action)
        if self.hash(twin) == final:
            return (
                f"{head}; applying the history step by step does reproduce the game: "
                "replay() differs"
            )
        return head

    def fail(self, state: State | None, step: int, check: str, messages: list[str]) -> None:
        config = self.config
        self.outcome.failure = Failure(
            game=config.game,
            players=config.players,
            seed=self.seed,
            step=step,
            check=check,
            messages=messages,
            command=config.command(self.seed),
            options=config.options,
        )
        if state is not None:
            self.outcome.replay = Replay.of(
                state,
                source="civtable fuzz",
                check=check,
                step=step,
                error=messages[0] if messages else check,
            )


def play_one(config: FuzzConfig, index: int) -> GameOutcome:
    """Fuzz game ``index`` of ``config`` (seed ``config.seed + index``); never raises for a
    failure inside the game: the outcome carries it."""
    return _Game(config, index).play()


def _play_chunk(config: FuzzConfig, indices: Sequence[int]) -> list[GameOutcome]:
    return [play_one(config, i) for i in indices]


def iter_outcomes(
    config: FuzzConfig, workers: int = 1, start: int = 0
) -> Generator[GameOutcome, None, None]:
    """Fuzz the games ``start``, ``start + 1``, ... of ``config`` and yield the outcomes in game
    order (the same with any number of worker processes; each process plays disjoint runs of
    game indices, so disjoint seeds)."""
    left = config.games - start
    if workers <= 1 or left <= 1:
        for i in range(start, config.games):
            yield play_one(config, i)
        return
    chunk = max(1, min(16, left // (workers * 4)))
    chunks = [
        list(range(s, min(s + chunk, config.games))) for s in range(start, config.games, chunk)
    ]
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(workers)
    try:
        for outcomes in pool.imap(_play_chunk_of, [(config, c) for c in chunks]):
            yield from outcomes
        pool.close()
    finally:
        # Stopped early (an interrupted run, a consumer that stops reading): the games in
        # flight are dropped, not waited for; a resumed run plays them again.
        pool.terminate()
        pool.join()


def _play_chunk_of(job: tuple[FuzzConfig, Sequence[int]]) -> list[GameOutcome]:
    return _play_chunk(*job)


@dataclass
class FuzzSummary:
    """What a run found. Every field except ``seconds`` is a function of the config."""

    config: FuzzConfig
    invariants: bool
    outcomes: list[GameOutcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def moves(self) -> int:
        """Decisions applied in all games."""
        return sum(o.moves for o in self.outcomes)

    @property
    def checks(self) -> Counter[str]:
        """Checks run, by kind."""
        total: Counter[str] = Counter()
        for o in self.outcomes:
            total.update(o.checks)
        return total

    @property
    def completed(self) -> int:
        """Games played to the end with every check passing."""
        return sum(o.completed for o in self.outcomes)

    @property
    def truncated(self) -> int:
        """Games stopped by ``max_steps`` before their end."""
        return sum(o.truncated and o.failure is None for o in self.outcomes)

    def failures(self) -> list[Failure]:
        """The first failure of every game that had one, in game order."""
        return [o.failure for o in self.outcomes if o.failure is not None]

    def notes(self) -> list[str]:
        """Plain remarks about what was (not) checked."""
        return run_notes(self.config, self.invariants)

    def to_json(self) -> JSON:
        """The one JSON object ``civtable fuzz --json`` prints."""
        return summary_doc(
            self.config,
            invariants=self.invariants,
            games=len(self.outcomes),
            moves=self.moves,
            checks=self.checks,
            completed=self.completed,
            truncated=self.truncated,
            failures=[f.to_json() for f in self.failures()],
            seconds=self.seconds,
        )


def run_notes(config: FuzzConfig, invariants: bool) -> list[str]:
    """Plain remarks about what a run with ``config`` did (not) check."""
    out = []
    if not invariants:
        out.append(
            f"{games.get(config.game).name} has no invariants module "
            f"({module_name(config.game)}) yet: only the generic checks ran "
            "(illegal actions, JSON round trip, replay), no conservation or leak checks"
        )
    elif config.leaks_every == 0:
        out.append("leak checks were off (--leaks-every 0)")
    elif config.leaks_every > 1:
        out.append(f"leak checks ran every {config.leaks_every} decisions")
    if config.round_trip_every > 1:
        out.append(
            f"JSON round trips (and the hash check of illegal input) ran every "
            f"{config.round_trip_every} decisions"
        )
    if config.probes_every > 1:
        out.append(
            f"every kind of illegal input was tried every {config.probes_every} decisions "
            "(and after setup, at round trips and at the end), one kind in turn in between"
        )
    return out


def summary_doc(
    config: FuzzConfig,
    *,
    invariants: bool,
    games: int,
    moves: int,
    checks: Counter[str],
    completed: int,
    truncated: int,
    failures: list[JSON],
    seconds: float,
) -> dict[str, Any]:
    """The summary object of a run (``civtable fuzz --json``) from its totals."""
    return {
        "game": config.game,
        "players": config.players,
        "seed": config.seed,
        "options": config.options,
        "games": games,
        "moves": moves,
        "checks": sum(checks.values()),
        "checks_by_kind": {k: checks[k] for k in CHECK_KINDS},
        "completed": completed,
        "truncated": truncated,
        "failures": failures,
        "invariants": invariants,
        "leaks_every": config.leaks_every,
        "round_trip_every": config.round_trip_every,
        "probes_every": config.probes_every,
        "log": config.log,
        "max_steps": config.max_steps,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 3) if seconds > 0 else 0.0,
        "notes": run_notes(config, invariants),
    }


def replay_name(outcome: GameOutcome) -> str:
    """File name of a failing game's replay."""
    return f"fuzz-game-{outcome.index:05d}-seed-{outcome.seed}.json"


def fuzz(
    config: FuzzConfig,
    *,
    workers: int = 1,
    save_dir: str | Path | None = None,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> FuzzSummary:
    """Fuzz every game of ``config`` and summarize. ``save_dir``: write the replay of every
    failing game there (``civtable replay FILE`` steps through it). ``on_outcome`` is called
    after each game, in game order."""
    game = validate(config)
    summary = FuzzSummary(config, invariants=invariants_module(game.id) is not None)
    start = time.perf_counter()
    for outcome in iter_outcomes(config, workers):
        if outcome.failure is not None and outcome.replay is not None and save_dir is not None:
            path = outcome.replay.save(Path(save_dir) / replay_name(outcome))
            outcome.failure.replay_path = str(path)
        outcome.replay = None
        summary.outcomes.append(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
    summary.seconds = time.perf_counter() - start
    return summary
