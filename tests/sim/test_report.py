"""HTML balance reports (civtable.sim.report): factor win rates, plots, loading saved results."""

from __future__ import annotations

import argparse
import base64
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from civtable.core.errors import InvalidOptionsError
from civtable.sim.report import (
    add_report_parser,
    build_report,
    factor_level,
    factor_win_rates,
    load_summary,
)
from civtable.sim.tournament import GameResult, TournamentConfig, run_tournament

SW = "seven-wonders"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _images(page: str) -> list[bytes]:
    return [base64.b64decode(b) for b in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]


def test_factor_win_rates_by_board_and_side_by_hand() -> None:
    def result(boards: list[str], rewards: tuple[float, ...]) -> GameResult:
        return GameResult(
            0, 0, ("h",) * 3, (1, 1, 1), (0, 0, 0), (0,), rewards, factors={"board": boards}
        )

    results = [
        result(["giza", "rhodes", "babylon"], (1.0, 0.0, 0.0)),
        result(["rhodes", "giza", "ephesus"], (0.5, 0.5, 0.0)),  # SW-13.3 shared victory
        result(["giza", "ephesus", "rhodes"], (0.0, 0.0, 1.0)),
    ]
    rows = {row["level"]: row for row in factor_win_rates(results, "board")}
    assert rows["giza"]["seats"] == 3
    assert rows["giza"]["win_rate"] == pytest.approx(1.5 / 3)
    assert rows["rhodes"]["win_rate"] == pytest.approx(1.5 / 3)
    assert rows["babylon"]["win_rate"] == 0.0
    assert rows["ephesus"]["seats"] == 2
    lo, hi = rows["giza"]["ci95"]
    assert lo < 0.5 < hi
    assert factor_win_rates(results, "leader") == []


def test_report_of_a_small_tournament_has_every_section(tmp_path: Path) -> None:
    config = TournamentConfig(SW, players=3, bots=("heuristic", "random"), games=4, seed=2)
    summary = run_tournament(config, out_dir=tmp_path / "t")
    page = build_report(summary)
    for heading in (
        "OpenSkill ratings",
        "Win rate by seat",
        "Score distributions",
        "Win rate by wonder board</h2>",
        "Win rate by board side",
        "Win rate by wonder board and side",
    ):
        assert heading in page
    images = _images(page)
    assert len(images) == 6  # ratings, seats, scores, three factors
    assert all(img.startswith(PNG_MAGIC) for img in images)
    for r in summary.results:  # each board and side by its player name ("Colossus of Rhodes B")
        for level in r.factors["board_side"]:
            assert f"<td>{factor_level(SW, 'board_side', level)}</td>" in page
            assert f"<td>{level}</td>" not in page
    # the same report from the saved results
    loaded = load_summary(SW, [tmp_path / "t"])
    assert [r.outcome() for r in loaded.results] == [r.outcome() for r in summary.results]
    assert _images(build_report(loaded))[0] == images[0]


def test_cli_report_from_saved_results_and_from_new_games(tmp_path: Path) -> None:
    config = TournamentConfig(SW, players=3, bots=("random",), games=2)
    run_tournament(config, out_dir=tmp_path / "t")
    parser = argparse.ArgumentParser(prog="civtable")
    add_report_parser(parser.add_subparsers(dest="command"))
    out, err = Console(file=io.StringIO()), Console(file=io.StringIO())

    args = parser.parse_args(["report", SW, "--from", str(tmp_path / "t"), "--out", "a.html"])
    args.out = str(tmp_path / "a.html")
    assert args.func(args, out, err) == 0
    assert len(_images((tmp_path / "a.html").read_text())) == 5  # one bot: no ratings plot

    args = parser.parse_args(
        ["report", SW, "--players", "4", "--games", "2", "--out", str(tmp_path / "b.html")]
    )
    assert args.func(args, out, err) == 0
    assert "4 players, 2 completed games" in (tmp_path / "b.html").read_text()

    args = parser.parse_args(["report", SW, "--out", str(tmp_path / "c.html")])
    with pytest.raises(InvalidOptionsError, match="--players"):
        args.func(args, out, err)
