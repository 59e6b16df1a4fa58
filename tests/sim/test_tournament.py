"""Tournaments (civtable.sim.tournament): seat rotation, determinism across workers, resumable
result files, shared victories (SW-13.3), errors, and the command-line handler."""

from __future__ import annotations

import argparse
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from civtable.bots import base as bot_base
from civtable.bots.base import Bot
from civtable.core.api import State
from civtable.core.errors import InvalidOptionsError, UnknownGameError
from civtable.sim.tournament import (
    RESULTS_FILE,
    GameResult,
    TournamentConfig,
    TournamentError,
    add_tournament_parser,
    load_results,
    run_tournament,
    summarize,
)

SW = "seven-wonders"


def _outcomes(results: list[GameResult]) -> list[dict[str, object]]:
    return [r.outcome() for r in sorted(results, key=lambda r: r.index)]


# --- seat rotation ----------------------------------------------------------------------------
def test_rotation_puts_every_bot_in_every_seat() -> None:
    config = TournamentConfig(SW, players=4, bots=("a", "b", "c", "d"), games=4)
    seats = Counter((s, spec) for i in range(4) for s, spec in enumerate(config.lineup(i)))
    assert seats == Counter({(s, spec): 1 for s in range(4) for spec in "abcd"})


def test_rotation_with_a_bot_listed_for_three_seats() -> None:
    config = TournamentConfig(SW, players=4, bots=("x", "h", "h", "h"), games=8)
    lineups = [config.lineup(i) for i in range(8)]
    assert all(lineup.count("x") == 1 for lineup in lineups)
    assert [lineup.index("x") for lineup in lineups] == [0, 3, 2, 1, 0, 3, 2, 1]


def test_fewer_bots_than_seats_cycle() -> None:
    config = TournamentConfig(SW, players=3, bots=("p", "q"), games=2)
    assert config.lineup(0) == ("p", "q", "p")
    assert config.lineup(1) == ("q", "p", "q")


# --- playing ----------------------------------------------------------------------------------
def test_sw_13_results_are_complete_and_consistent() -> None:
    config = TournamentConfig(SW, players=3, bots=("heuristic", "random"), games=3, seed=5)
    summary = run_tournament(config)
    assert summary.played == 3
    assert len(summary.completed) == 3
    for r in summary.results:
        best = max(r.scores)
        assert r.winners  # SW-13.3: ties on score are broken by coins, then shared
        assert set(r.winners) <= {s for s in range(3) if r.scores[s] == best}
        assert all(r.ranking[s] == 0 for s in r.winners)  # SW-13: winners share place 0
        assert sum(r.rewards) == pytest.approx(1.0)
        assert set(r.factors) == {"board", "side", "board_side"}
        assert r.think[0] >= 0.0
        assert r.decisions > 0


def test_civ_24_and_deus_4_7_tournaments_record_leaders_and_first_players() -> None:
    """Report factors of the other games: Civilization's leaders, everyone's first player."""
    from civtable import games

    civ = run_tournament(
        TournamentConfig("civilization-a-new-dawn", players=2, bots=("random",), games=2, seed=3)
    )
    leaders = {ld["id"] for ld in _leader_ids()}
    for r in civ.results:
        assert set(r.factors) == {"leader", "first_player"}
        assert set(r.factors["leader"]) <= leaders
        state = games.get("civilization-a-new-dawn").new_game(2, r.seed)
        first = state.view(None)["first_player"]
        assert r.factors["first_player"][first] == "first"
        assert r.factors["first_player"].count("first") == 1
    deus = run_tournament(TournamentConfig("deus", players=2, bots=("random",), games=1, seed=4))
    assert set(deus.results[0].factors) == {"first_player"}


def _leader_ids() -> list[dict[str, object]]:
    from importlib import resources

    doc = json.loads(
        (
            resources.files("civtable.games.civilization_a_new_dawn") / "data" / "leaders.json"
        ).read_text(encoding="utf-8")
    )
    leaders: list[dict[str, object]] = doc["leaders"]
    return leaders


def test_workers_do_not_change_the_results() -> None:
    config = TournamentConfig(SW, players=3, bots=("heuristic", "random"), games=4, seed=8)
    one = run_tournament(config, workers=1)
    two = run_tournament(config, workers=2)
    assert _outcomes(one.results) == _outcomes(two.results)


def test_other_seed_other_games() -> None:
    a = run_tournament(TournamentConfig(SW, players=3, bots=("random",), games=2, seed=1))
    b = run_tournament(TournamentConfig(SW, players=3, bots=("random",), games=2, seed=2))
    assert [r.scores for r in a.results] != [r.scores for r in b.results]


# --- result files and resuming ----------------------------------------------------------------
def test_results_are_saved_and_a_rerun_resumes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    small = TournamentConfig(SW, players=3, bots=("heuristic", "random"), games=3, seed=4)
    run_tournament(small, out_dir=out)
    lines = (out / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 3
    # an interrupted writer leaves a torn line: it is ignored and the file stays appendable
    with (out / RESULTS_FILE).open("a") as fh:
        fh.write('{"index": 4, "seed": 1, "lin')
    seen: list[int] = []
    bigger = TournamentConfig(SW, players=3, bots=("heuristic", "random"), games=5, seed=4)
    resumed = run_tournament(bigger, out_dir=out, on_result=lambda r: seen.append(r.index))
    assert resumed.played == 2  # games 3 and 4 only
    assert sorted(seen) == [0, 1, 2, 3, 4]
    fresh = run_tournament(bigger)
    assert _outcomes(resumed.results) == _outcomes(fresh.results)
    saved_config, saved = load_results(out)
    assert saved_config == bigger
    assert sorted(saved) == [0, 1, 2, 3, 4]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["completed"] == 5
    # nothing left to play
    again = run_tournament(bigger, out_dir=out)
    assert again.played == 0
    assert _outcomes(again.results) == _outcomes(fresh.results)


def test_a_directory_of_another_tournament_is_refused(tmp_path: Path) -> None:
    run_tournament(TournamentConfig(SW, players=3, bots=("random",), games=1), out_dir=tmp_path)
    other = TournamentConfig(SW, players=3, bots=("random",), games=1, seed=99)
    with pytest.raises(TournamentError, match="another tournament"):
        run_tournament(other, out_dir=tmp_path)


class _Crash(Bot):
    name = "crash"

    def choose(self, state: State, seat: int) -> int:
        raise RuntimeError("boom")


def test_a_crashing_bot_is_recorded_and_replayed_on_resume(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(bot_base._FACTORIES, "crash", lambda arg, seed: _Crash(seed))
    config = TournamentConfig(SW, players=3, bots=("crash", "random", "random"), games=2)
    summary = run_tournament(config, out_dir=tmp_path)
    assert len(summary.errors) == 2
    assert summary.errors[0].error is not None
    assert "RuntimeError: boom" in summary.errors[0].error
    assert not summary.completed
    # a game that ended with an error is not "finished": a rerun plays it again
    rerun = run_tournament(config, out_dir=tmp_path)
    assert rerun.played == 2


def test_invalid_configs_are_rejected() -> None:
    with pytest.raises(InvalidOptionsError):
        run_tournament(TournamentConfig(SW, players=9, bots=("random",), games=1))
    with pytest.raises(InvalidOptionsError):
        run_tournament(TournamentConfig(SW, players=3, bots=("random",), games=0))
    with pytest.raises(UnknownGameError):
        run_tournament(TournamentConfig("chess", players=2, bots=("random",), games=1))
    with pytest.raises(InvalidOptionsError):
        run_tournament(TournamentConfig(SW, players=3, bots=("random",), games=1), backend="mpi")


# --- summary ----------------------------------------------------------------------------------
def _result(index: int, lineup: tuple[str, ...], scores: tuple[int, ...]) -> GameResult:
    best = max(scores)
    winners = tuple(s for s, x in enumerate(scores) if x == best)
    ranking = tuple(sum(1 for y in scores if y > x) for x in scores)
    rewards = tuple(1 / len(winners) if s in winners else 0.0 for s in range(len(scores)))
    return GameResult(index, index, lineup, scores, ranking, winners, rewards, think=(0.0,) * 3)


def test_sw_13_3_shared_victory_is_split_in_win_rates() -> None:
    config = TournamentConfig(SW, players=3, bots=("a", "b", "c"), games=2)
    results = [
        _result(0, ("a", "b", "c"), (50, 50, 40)),  # a and b share the victory
        _result(1, ("b", "c", "a"), (45, 44, 60)),  # a wins alone
    ]
    stats = {b.bot: b for b in summarize(config, results).bot_stats()}
    assert stats["a"].wins == pytest.approx(1.5)
    assert stats["a"].win_rate == pytest.approx(0.75)
    assert stats["b"].wins == pytest.approx(0.5)
    assert stats["c"].wins == 0.0
    assert stats["a"].score_sum == 110
    assert stats["a"].rating is not None
    assert stats["b"].rating is not None
    assert stats["a"].rating.mu > stats["b"].rating.mu
    seats = summarize(config, results).seat_stats()
    assert [s["win_rate"] for s in seats] == [0.25, 0.25, 0.5]  # by hand: .5+0, .5+0, 0+1


# --- command line -----------------------------------------------------------------------------
def _cli(argv: list[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="civtable")
    add_tournament_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    buf = io.StringIO()
    out = Console(file=buf, width=120)
    err = Console(file=io.StringIO(), stderr=True)
    code: int = args.func(args, out, err)
    return code, buf.getvalue()


def test_cli_tournament_json_and_table(tmp_path: Path) -> None:
    argv = ["tournament", SW, "--players", "3", "--bots", "heuristic,random", "--games", "2"]
    code, text = _cli([*argv, "--json", "--out", str(tmp_path / "t")])
    assert code == 0
    doc = json.loads(text)
    assert doc["completed"] == 2
    assert {b["bot"] for b in doc["bots"]} == {"heuristic", "random"}
    assert all(len(b["ci95"]) == 2 for b in doc["bots"])
    code, text = _cli([*argv, "--out", str(tmp_path / "t")])  # resumed: nothing to play
    assert code == 0
    assert "0 played now" in text
    assert "heuristic" in text
