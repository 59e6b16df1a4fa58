"""The bot ladder (civtable.sim.ladder): schedule, level resolution, files, command line."""

from __future__ import annotations

import argparse
import io
import itertools
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from civtable.core.errors import InvalidOptionsError
from civtable.sim.ladder import (
    DEFAULT_BOTS,
    add_ladder_parser,
    resolve,
    run_ladder,
    rung_name,
    schedule,
)
from civtable.sim.tournament import TournamentConfig, load_results

SW = "seven-wonders"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_two_player_ladder_pairs_neighbours_from_both_seats() -> None:
    bots = schedule(DEFAULT_BOTS, 2)
    config = TournamentConfig(SW, 2, bots, games=len(bots))
    pairs = Counter(config.lineup(i) for i in range(len(bots)))
    rungs = list(DEFAULT_BOTS)
    expected: Counter[tuple[str, ...]] = Counter()
    for lo, hi in itertools.pairwise(rungs):
        expected[(lo, hi)] += 1
        expected[(hi, lo)] += 1
    assert pairs == expected  # one cycle: each neighbouring pair once from each seat


def test_ladder_of_three_or_more_players_rotates_the_rungs() -> None:
    assert schedule(DEFAULT_BOTS, 4) == DEFAULT_BOTS
    assert schedule(("random", "normal"), 2) == ("random", "normal")


def test_cpu_ladder_counts_search_levels_in_cpu_time() -> None:
    assert resolve("hard", cpu=True) == "ismcts:1s:clock=cpu"
    assert resolve("expert", cpu=True) == "ismcts:5s:clock=cpu"
    assert resolve("hard", cpu=False) == "hard"
    assert resolve("normal", cpu=True) == "normal"
    assert resolve("ismcts:200ms", cpu=True) == "ismcts:200ms:clock=cpu"
    assert resolve("ismcts:200ms:clock=wall", cpu=True) == "ismcts:200ms:clock=wall"


def test_scaled_ladder_scales_the_search_levels_only() -> None:
    assert resolve("hard", cpu=True, scale=0.2) == "ismcts:200ms:clock=cpu"
    assert resolve("expert", cpu=False, scale=0.2) == "ismcts:1s"
    assert resolve("normal", cpu=True, scale=0.2) == "normal"
    assert resolve("ismcts:3s", cpu=False, scale=0.2) == "ismcts:3s"  # not a level: as given
    assert rung_name("hard", 0.2) == "hard (budget × 0.2)"
    assert rung_name("easy", 0.2) == "easy"


def test_ladder_writes_report_plot_and_table_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    summary = run_ladder(SW, 2, 4, bots=("random", "easy", "normal"), out_dir=out, command="x")
    assert len(summary.completed) == 4
    assert (out / "ratings.png").read_bytes().startswith(PNG_MAGIC)
    assert "OpenSkill ratings" in (out / "report.html").read_text(encoding="utf-8")
    table = (out / "ladder.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| ") and "`" in line]
    assert [row.split(" | ")[0] for row in rows] == ["| random", "| easy", "| normal"]
    assert "`heuristic:eps=0.3`" in rows[1]
    # a larger --games extends the saved ladder instead of starting again
    first = {i: r.outcome() for i, r in load_results(out)[1].items()}
    summary = run_ladder(SW, 2, 6, bots=("random", "easy", "normal"), out_dir=out)
    assert summary.played == 2
    again = load_results(out)[1]
    assert all(again[i].outcome() == doc for i, doc in first.items())
    with pytest.raises(InvalidOptionsError, match="two different"):
        run_ladder(SW, 2, 2, bots=("random", "random"), out_dir=tmp_path / "x")


def test_cli_ladder_prints_its_table(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="civtable")
    add_ladder_parser(parser.add_subparsers(dest="command"))
    bots = "random,normal,ismcts:3i"
    out = str(tmp_path / "l")
    args = parser.parse_args(
        ["ladder", SW, "--players", "3", "--games", "2", "--bots", bots, "--cpu", "--out", out]
    )
    text = io.StringIO()
    assert args.func(args, Console(file=text, width=80), Console(file=io.StringIO())) == 0
    printed = text.getvalue()
    assert "| ismcts:3i | `ismcts:3i:clock=cpu` |" in printed
    assert "--cpu" in printed
