"""``civtable fuzz --out DIR``: long fuzz runs that can be stopped at any moment and resumed.

A run split into pieces (stopped by a signal, by a smaller ``--games``, by a kill in the middle
of a write) must play and check exactly the games of one uninterrupted run, and report the same
totals as ``--json`` without ``--out``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from civtable.cli import main
from civtable.games.seven_wonders import invariants as sw_invariants
from civtable.games.seven_wonders.state import SevenWondersState
from civtable.sim.fuzz import FuzzConfig, GameOutcome
from civtable.sim.fuzz_runs import BATCHES_FILE, SUMMARY_FILE, FuzzRun, fuzz_to_dir

SW = "seven-wonders"


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")


TOTALS = ("games", "moves", "checks", "checks_by_kind", "completed", "truncated", "failures")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert captured.out, captured.err
    return code, json.loads(captured.out)


def batches(out: Path) -> list[Any]:
    return [json.loads(line) for line in (out / BATCHES_FILE).read_text().splitlines()]


def test_a_run_in_pieces_equals_one_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ("fuzz", SW, "--players", "3", "--seed", "31", "--leaks-every", "5")
    _, whole = run_json(capsys, *args, "--games", "7")
    out = tmp_path / "run"
    _, first = run_json(capsys, *args, "--games", "3", "--out", str(out), "--batch", "2")
    assert first["games"] == 3
    assert [(b["first"], b["end"]) for b in batches(out)] == [(0, 2), (2, 3)]
    code, doc = run_json(capsys, *args, "--games", "7", "--out", str(out), "--batch", "2")
    assert code == 0
    assert [(b["first"], b["end"]) for b in batches(out)] == [(0, 2), (2, 3), (3, 5), (5, 7)]
    for key in TOTALS:
        assert doc[key] == whole[key], key
    assert doc["batches"] == 4
    assert json.loads((out / SUMMARY_FILE).read_text())["moves"] == whole["moves"]
    # Asking again for games already finished plays nothing and reports the same.
    _, again = run_json(capsys, *args, "--games", "7", "--out", str(out))
    assert again["games"] == 7
    assert again["moves"] == whole["moves"]
    assert len(batches(out)) == 4


def test_an_interrupted_run_keeps_its_finished_games_and_resumes(tmp_path: Path) -> None:
    config = FuzzConfig(SW, players=3, games=6, seed=44, leaks_every=4)
    seen: list[int] = []

    def stop_after_four(outcome: GameOutcome) -> None:
        seen.append(outcome.index)
        if len(seen) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fuzz_to_dir(config, tmp_path, batch_games=3, on_outcome=stop_after_four)
    assert [(b["first"], b["end"]) for b in batches(tmp_path)] == [(0, 3), (3, 4)]
    resumed = fuzz_to_dir(config, tmp_path, batch_games=3)
    whole = fuzz_to_dir(config, tmp_path / "whole", workers=2)
    for key in TOTALS:
        assert resumed[key] == whole[key], key
    assert resumed["games"] == 6


def test_a_line_cut_short_by_a_kill_is_dropped_and_its_games_played_again(
    tmp_path: Path,
) -> None:
    config = FuzzConfig(SW, players=2, games=4, seed=8, leaks_every=5)
    fuzz_to_dir(config, tmp_path, batch_games=2)
    path = tmp_path / BATCHES_FILE
    text = path.read_text()
    path.write_text(text[: len(text) - 25])  # the second batch half written
    run = FuzzRun(tmp_path, config)
    assert run.done == 2
    assert path.read_text().count("\n") == 1
    again = fuzz_to_dir(config, tmp_path, batch_games=2)
    assert again["games"] == 4
    assert [(b["first"], b["end"]) for b in batches(tmp_path)] == [(0, 2), (2, 4)]


def test_a_damaged_line_in_the_middle_is_an_error(tmp_path: Path) -> None:
    config = FuzzConfig(SW, players=2, games=4, seed=8, leaks_every=5)
    fuzz_to_dir(config, tmp_path, batch_games=1)
    path = tmp_path / BATCHES_FILE
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = "{not json\n"
    path.write_text("".join(lines))
    with pytest.raises(ValueError, match="damaged line in the middle"):
        FuzzRun(tmp_path, config)


def test_a_directory_of_another_run_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ("fuzz", SW, "--players", "3", "--games", "1", "--out", str(tmp_path))
    assert main([*base, "--seed", "3"]) == 0
    assert f"results of 1 batches in {tmp_path}" in capsys.readouterr().out
    code = main([*base, "--seed", "4", "--leaks-every", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "holds a run with other settings" in err
    assert "leaks_every: 1 in the directory, 2 now" in err
    assert "seed: 3 in the directory, 4 now" in err
    assert main([*base, "--seed", "3", "--save", str(tmp_path / "x")]) == 2
    assert "--save and --out do not go together" in capsys.readouterr().err


def test_a_failure_in_a_run_directory_carries_the_moves_that_reproduce_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = sw_invariants.check

    def broken(state: SevenWondersState) -> list[str]:
        out = real(state)
        if state.age == 2 and state.turn == 2:
            out.append("planted")
        return out

    monkeypatch.setattr(sw_invariants, "check", broken)
    code, doc = run_json(
        capsys, "fuzz", SW, "--players", "3", "--games", "2", "--seed", "9", "--out", str(tmp_path)
    )
    assert code == 1
    assert len(doc["failures"]) == 2
    failure = batches(tmp_path)[0]["failures"][0]
    assert failure["check"] == "invariants"
    assert len(failure["actions"]) == failure["step"]
    assert Path(failure["replay"]).parent == tmp_path / "replays"
    # The moves lead to a position where the planted check fires.
    from civtable import games

    state = games.get(SW).replay(3, failure["seed"], [tuple(x) for x in failure["actions"]])
    assert "planted" in broken(state)  # type: ignore[arg-type]


def test_a_signal_stops_the_command_and_the_same_command_continues(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [
        sys.executable,
        "-m",
        "civtable",
        "fuzz",
        SW,
        "--players",
        "2",
        "--games",
        "400",
        "--seed",
        "70",
        "--leaks-every",
        "10",
        "--batch",
        "2",
        "--out",
        str(out),
    ]
    env = {**os.environ, "COLUMNS": "400"}
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out / BATCHES_FILE).exists():
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)  # a batch was written; the next one is in progress
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "the same command continues the run" in err
    done = FuzzRun(out, FuzzConfig(SW, players=2, games=400, seed=70, leaks_every=10)).done
    assert 2 <= done < 400, err
    assert os.path.exists(out / SUMMARY_FILE)


def test_a_directory_from_before_a_new_setting_resumes_at_its_default(tmp_path: Path) -> None:
    config = FuzzConfig(SW, players=2, games=2, seed=8, leaks_every=5)
    fuzz_to_dir(config, tmp_path)
    run_file = tmp_path / "run.json"
    doc = json.loads(run_file.read_text())
    del doc["settings"]["probes_every"]  # as written before the setting existed
    run_file.write_text(json.dumps(doc))
    assert (
        fuzz_to_dir(FuzzConfig(SW, players=2, games=3, seed=8, leaks_every=5), tmp_path)["games"]
        == 3
    )
    with pytest.raises(ValueError, match="probes_every: 1 in the directory, 4 now"):
        FuzzRun(tmp_path, FuzzConfig(SW, players=2, games=3, seed=8, leaks_every=5, probes_every=4))
