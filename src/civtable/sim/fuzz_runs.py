"""Long fuzz runs that can be stopped at any moment and resumed (``civtable fuzz --out DIR``).

A run directory holds:

* ``run.json``: what is fuzzed (game, players, first seed, options and every check setting;
  everything of :class:`~civtable.sim.fuzz.FuzzConfig` but the number of games) and when the
  run started. A later command on the same directory must fuzz the same thing, or it is refused
  with the settings that differ; it may ask for more (or fewer) games.
* ``batches.jsonl``: one JSON object per line, appended (and flushed to disk) after every batch
  of games: ``first`` and ``end`` (the game indices ``first <= i < end``, so the seeds ``seed +
  first`` to ``seed + end - 1``), ``moves``, ``checks_by_kind``, ``completed``, ``truncated``,
  ``failures`` (each as in ``--json``, plus ``actions``: the ``[seat, action]`` list that
  reproduces the game up to the failing step), ``seconds`` (wall clock) and ``cpu_seconds``
  (CPU time of the run's process; ``null`` with worker processes) and ``finished`` (UTC).
  Batches cover the games in order without gaps. A line cut short by a kill is dropped when the
  run resumes.
* ``summary.json``: the summary of every finished batch, the same object as ``civtable fuzz
  --json`` prints (plus ``out``, ``batches`` and ``cpu_seconds``), rewritten after each batch.
* ``replays/``: the replay of every failing game (``civtable replay FILE``).

A resumed run starts at the first game no batch covers. Games are dealt by their index alone
(game ``i`` uses the seed ``seed + i``), so a run stopped and resumed any number of times plays
and checks exactly the games of one uninterrupted run. When the run is stopped (a signal, Ctrl-C)
the games finished since the last batch are written as a last, shorter batch; a game in progress
is played again on resume.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from dataclasses import asdict
from pathlib import Path
from typing import Any

from civtable.core.api import JSON
from civtable.core.errors import InvalidOptionsError
from civtable.sim.fuzz import (
    CHECK_KINDS,
    FuzzConfig,
    GameOutcome,
    invariants_module,
    iter_outcomes,
    replay_name,
    summary_doc,
    validate,
)

RUN_FILE = "run.json"
BATCHES_FILE = "batches.jsonl"
SUMMARY_FILE = "summary.json"
REPLAYS_DIR = "replays"
#: a batch is written after this many games ...
DEFAULT_BATCH_GAMES = 100
#: ... or after this many seconds, whichever comes first
DEFAULT_BATCH_SECONDS = 60.0


class RunDirError(InvalidOptionsError):
    """A run directory that cannot be resumed by this command (other settings, a damaged file)."""


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def run_settings(config: FuzzConfig) -> dict[str, Any]:
    """What a run directory fixes: the config without the number of games."""
    settings = asdict(config)
    del settings["games"]
    return settings


class FuzzRun:
    """One run directory: its finished batches, and appending new ones."""

    def __init__(self, out: str | Path, config: FuzzConfig) -> None:
        self.dir = Path(out)
        self.config = config
        self.batches: list[dict[str, Any]] = []
        self._open()

    # --- reading ----------------------------------------------------------------------------
    def _open(self) -> None:
        if self.dir.exists() and not self.dir.is_dir():
            raise RunDirError(f"{self.dir} exists and is not a directory")
        self.dir.mkdir(parents=True, exist_ok=True)
        run_file = self.dir / RUN_FILE
        want = run_settings(self.config)
        if run_file.exists():
            try:
                doc = json.loads(run_file.read_text())
                # a setting added to the fuzzer after the run began ran at its default
                have = {**run_settings(FuzzConfig(self.config.game, 2)), **doc["settings"]}
            except (ValueError, KeyError, TypeError) as exc:
                raise RunDirError(f"{run_file} is not a fuzz run description: {exc}") from exc
            if have != want:
                diff = ", ".join(
                    f"{k}: {have.get(k)!r} in the directory, {want.get(k)!r} now"
                    for k in sorted(set(have) | set(want))
                    if have.get(k) != want.get(k)
                )
                raise RunDirError(f"{self.dir} holds a run with other settings ({diff})")
        else:
            run_file.write_text(json.dumps({"settings": want, "started": _now()}, indent=2) + "\n")
        self._read_batches()

    def _read_batches(self) -> None:
        path = self.dir / BATCHES_FILE
        if not path.exists():
            return
        data = path.read_bytes()
        good = 0  # bytes of whole, valid lines
        for raw in data.splitlines(keepends=True):
            if not raw.endswith(b"\n"):
                break  # a line cut short by a kill: dropped below
            try:
                batch = json.loads(raw)
            except ValueError as exc:
                if good + len(raw) == len(data):
                    break  # the last line is damaged: dropped below
                raise RunDirError(f"{path}: a damaged line in the middle ({exc})") from exc
            if batch.get("first") != self.done:
                raise RunDirError(
                    f"{path}: a batch starts at game {batch.get('first')}, "
                    f"the batches before it end at {self.done}"
                )
            self.batches.append(batch)
            good += len(raw)
        if good != len(data):
            with path.open("r+b") as f:
                f.truncate(good)

    @property
    def done(self) -> int:
        """Games finished (the batches cover the games ``0 <= i < done``)."""
        return int(self.batches[-1]["end"]) if self.batches else 0

    # --- writing ----------------------------------------------------------------------------
    def append(self, outcomes: list[GameOutcome], seconds: float, cpu: float | None) -> None:
        """Write one batch: ``outcomes`` are the next games in order."""
        if not outcomes:
            return
        first = outcomes[0].index
        if first != self.done or any(o.index != first + k for k, o in enumerate(outcomes)):
            raise ValueError("a batch must continue the run's games in order")
        checks: Counter[str] = Counter()
        failures: list[JSON] = []
        for o in outcomes:
            checks.update(o.checks)
            if o.failure is not None:
                doc = o.failure.to_json()
                assert isinstance(doc, dict)
                if o.replay is not None:
                    path = o.replay.save(self.dir / REPLAYS_DIR / replay_name(o))
                    doc["replay"] = str(path)
                    doc["actions"] = [[s, a] for s, a in o.replay.actions]
                failures.append(doc)
        batch = {
            "first": first,
            "end": first + len(outcomes),
            "moves": sum(o.moves for o in outcomes),
            "checks_by_kind": {k: checks[k] for k in CHECK_KINDS},
            "completed": sum(o.completed for o in outcomes),
            "truncated": sum(o.truncated and o.failure is None for o in outcomes),
            "failures": failures,
            "seconds": round(seconds, 3),
            "cpu_seconds": None if cpu is None else round(cpu, 3),
            "finished": _now(),
        }
        with (self.dir / BATCHES_FILE).open("a") as f:
            f.write(json.dumps(batch, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.batches.append(batch)
        self.write_summary()

    def summary(self) -> dict[str, Any]:
        """The merged summary of every finished batch (the object ``--json`` prints)."""
        checks: Counter[str] = Counter()
        failures: list[JSON] = []
        cpu: float | None = 0.0
        for b in self.batches:
            checks.update(b["checks_by_kind"])
            failures += b["failures"]
            cpu = None if cpu is None or b["cpu_seconds"] is None else cpu + b["cpu_seconds"]
        doc = summary_doc(
            self.config,
            invariants=invariants_module(self.config.game) is not None,
            games=self.done,
            moves=sum(b["moves"] for b in self.batches),
            checks=checks,
            completed=sum(b["completed"] for b in self.batches),
            truncated=sum(b["truncated"] for b in self.batches),
            failures=failures,
            seconds=sum(b["seconds"] for b in self.batches),
        )
        doc["out"] = str(self.dir)
        doc["batches"] = len(self.batches)
        doc["cpu_seconds"] = None if cpu is None else round(cpu, 3)
        return doc

    def write_summary(self) -> None:
        """Rewrite ``summary.json`` (through a temporary file, so it is never half written)."""
        tmp = self.dir / (SUMMARY_FILE + ".tmp")
        tmp.write_text(json.dumps(self.summary(), indent=2) + "\n")
        tmp.replace(self.dir / SUMMARY_FILE)


def fuzz_to_dir(
    config: FuzzConfig,
    out: str | Path,
    *,
    workers: int = 1,
    batch_games: int = DEFAULT_BATCH_GAMES,
    batch_seconds: float = DEFAULT_BATCH_SECONDS,
    on_start: Callable[[int], None] | None = None,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> dict[str, Any]:
    """Fuzz the games of ``config`` that the run directory ``out`` has not finished yet,
    writing a batch every ``batch_games`` games or ``batch_seconds`` seconds, and return the
    summary of the whole directory. ``on_start(done)`` is told how many games were finished
    before. Interrupted (``KeyboardInterrupt``, ``SystemExit``), it writes the games finished
    so far as a batch and re-raises."""
    validate(config)
    if batch_games < 1 or batch_seconds <= 0:
        raise InvalidOptionsError("a batch needs at least one game and a positive duration")
    run = FuzzRun(out, config)
    if on_start is not None:
        on_start(run.done)
    if run.done >= config.games:
        run.write_summary()
        return run.summary()
    pending: list[GameOutcome] = []
    wall, cpu = time.perf_counter(), time.process_time()

    def flush() -> None:
        nonlocal wall, cpu
        now_wall, now_cpu = time.perf_counter(), time.process_time()
        run.append(pending, now_wall - wall, now_cpu - cpu if workers <= 1 else None)
        pending.clear()
        wall, cpu = now_wall, now_cpu

    try:
        with closing(iter_outcomes(config, workers, start=run.done)) as outcomes:
            for outcome in outcomes:
                pending.append(outcome)
                if on_outcome is not None:
                    on_outcome(outcome)
                if len(pending) >= batch_games or time.perf_counter() - wall >= batch_seconds:
                    flush()
    finally:
        flush()  # also when stopped: what finished is kept
    return run.summary()
