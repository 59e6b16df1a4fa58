"""The ``civtable`` command line, run in-process: every command, its JSON and its bad inputs."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from civtable import compiled, games, present
from civtable.bots.random_bot import RandomBot
from civtable.cli import main
from civtable.core.api import State
from civtable.core.replay import Replay
from civtable.games.seven_wonders.catalog import BOARDS, CARDS
from civtable.sim.simulate import default_bot, game_seed

SW = "seven-wonders"


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at the terminal width; a wide one keeps every label on one line."""
    monkeypatch.setenv("COLUMNS", "220")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, _ = run(capsys, *argv)
    return code, json.loads(out)


def feed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


# --- games and cards ---------------------------------------------------------------------------
def test_games_lists_every_registered_game_with_its_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    for info in games.REGISTRY.values():
        assert info.id in out
    code, rows = run_json(capsys, "games", "--json")
    assert code == 0
    assert [r["id"] for r in rows if r["status"] == "playable"] == games.available()
    assert {r["id"] for r in rows if r["status"] == "planned"} == set(games.ids()) - set(
        games.available()
    )


def test_sw_15_cards_json_lists_every_card_type_by_age(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, "cards", SW, "--json")
    assert code == 0
    assert len(doc["cards"]) == len(CARDS)
    assert len(doc["boards"]) == len(BOARDS) == 7
    assert all(set(b["sides"]) == {"A", "B"} for b in doc["boards"])
    # SW-15.2..15.5: 27 Age I types, 23 Age II, 18 Age III + 10 guilds
    for age, types in ((1, 27), (2, 23), (3, 28)):
        code, doc = run_json(capsys, "cards", SW, "--age", str(age), "--json")
        assert code == 0
        assert len(doc["cards"]) == types
        assert {c["age"] for c in doc["cards"]} == {age}
    lumber = next(c for c in run_json(capsys, "cards", SW, "--json")[1]["cards"])
    assert lumber["name"] == "Lumber Yard"
    assert lumber["copies"] == {"3": 1, "4": 2, "5": 2, "6": 2, "7": 2}  # SW-15.2


def test_sw_15_cards_table_shows_costs_effects_chains_and_boards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "cards", SW)
    assert code == 0
    assert "Baths" in out
    assert "Makes free: Aqueduct" in out  # SW-15.6 chain
    assert "Colossus of Rhodes" in out
    assert "build one structure free of" in out  # Olympia A stage 2, in player words
    assert "produces W" not in out  # not the developer's effect text (issue 18)
    code, out, _ = run(capsys, "cards", SW, "--age", "3")
    assert code == 0
    assert "Scientists Guild" in out
    assert "Baths" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("cards", "planned-game"), "not implemented yet"),
        (("cards", "chess"), "unknown game 'chess'"),
        (("cards", SW, "--age", "4"), "--age must be 1, 2 or 3"),
        (("cards",), "required"),
        (("nonsense",), "invalid choice"),
        ((), "required"),
    ],
)
@pytest.mark.usefixtures("planned_game")
def test_cards_and_parser_bad_inputs_fail_clearly(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "simulate" in out


# --- play ----------------------------------------------------------------------------------------
def _seat_decisions(replay: Replay, seat: int) -> list[tuple[int, list[int]]]:
    """(action, legal actions then) for each decision of ``seat`` in a replay."""
    state = games.get(replay.game).new_game(replay.players, replay.seed, replay.options)
    out = []
    for s, a in replay.actions:
        if s == seat:
            out.append((a, list(state.legal_actions(s))))
        state.apply(s, a)
    return out


def test_play_whole_three_player_game_from_stdin_with_bad_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bad = "abc\n0\n99\n\n"
    script = bad + "2\n" + "1\n" * 400
    feed(monkeypatch, script)
    save = tmp_path / "game.json"
    code, out, err = run(
        capsys,
        "play",
        SW,
        "--players",
        "3",
        "--seed",
        "11",
        "--bots",
        "random",
        "--save",
        str(save),
    )
    assert code == 0, err
    assert "'abc' is not a number" in out
    assert "0 is out of range" in out
    assert "99 is out of range" in out
    assert "nothing typed" in out
    # the game really ran to the end, choosing as typed: option 2 first, then always option 1
    replay = Replay.load(save)
    final = replay.final_state()
    assert final.is_terminal()
    mine = _seat_decisions(replay, 0)
    assert mine[0][0] == mine[0][1][1]
    assert all(action == legal[0] for action, legal in mine[1:])
    # one prompt per decision plus one per rejected line
    assert out.count("your choice [") == len(mine) + 4
    # SW-12.1 / SW-13: the breakdown table and the winners of the replayed game
    assert "final score" in out
    for cat in final.result().categories:  # each category in player words (sw.score.*)
        assert present.translator("en").t(f"sw.score.{cat}") in out
    winners = final.result().winners
    expected = ", ".join(f"Player {s + 1} (seat {s})" for s in winners)
    assert expected in out


def test_sw_3_5_play_shows_age_turn_passing_direction_hand_and_events(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    feed(monkeypatch, "1\n" * 400)
    code, out, _ = run(capsys, "play", SW, "--players", "3", "--seed", "3", "--bots", "random")
    assert code == 0
    assert "Age I · turn 1/6 · hands pass left (clockwise)" in out
    assert "Age II · turn 1/6 · hands pass right (counter-clockwise)" in out
    assert "Age III · turn 6/6 · hands pass left (clockwise)" in out
    for heading in ("your hand", "your options", "cities", "what happened", "your city"):
        assert heading in out
    # SW-11: every conflict says who won which token, then everybody's military points
    assert re.search(r"Conflict: .+ \(\d shields?\) defeats .+: .+ \+1, .+ −1\.", out) or (
        "tie with" in out
    )
    assert "Military points after Age I: Player 1 " in out
    assert "Bot 2 (random) builds" in out or "Bot 2 (random) sells a card" in out


def test_hot_seat_play_hands_over_the_keyboard_with_a_cleared_screen(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18 item 10: two people at one terminal. Every time the decision passes to the other
    person the screen is cleared and the game waits until that person is ready, so nothing of
    the previous player's hand stays on screen; simultaneous 7 Wonders turns ask each seat in
    turn (SW-8.1)."""
    from civtable.cli import CLEAR

    feed(monkeypatch, "1\n" * 600)
    code, out, _ = run(
        capsys,
        "play", SW, "--players", "3", "--humans", "0,1", "--names", "Ann,Bob",
        "--seed", "4", "--bots", "random",
    )  # fmt: skip
    assert code == 0
    assert "Playing here: Ann (seat 0), Bob (seat 1); seat 2: random" in out
    screens = out.split(CLEAR)
    handovers = [s for s in screens if "Pass the keyboard to" in s]
    plays = [s for s in screens if " to play" in s]
    # 3 ages x 6 turns, both people every turn: the keyboard changes hands at least 18 times
    assert len(handovers) >= 18
    for screen in plays:
        players = set(re.findall(r"(Ann|Bob) \(seat \d\) to play", screen))
        assert len(players) == 1, players  # one person's hand and options per screen
    for before, screen in itertools.pairwise(screens):
        if " to play" in screen:
            name = re.search(r"(Ann|Bob) \(seat \d\) to play", screen)
            assert name is not None
            assert f"Pass the keyboard to {name.group(1)}." in before, "no hand-over first"
        if "Pass the keyboard to" in screen:
            assert "your hand" not in screen
            assert "your options" not in screen
    assert "final score" in screens[-1]
    assert "You sold" not in screens[-1]  # the shared end screen shows no private event


def test_hot_seat_bad_arguments_fail_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
        (["--humans", "0,5"], "--humans: seat 5 is not between 0 and 2"),
        (["--humans", "0,0"], "--humans must list distinct seats"),
        (["--humans", "a"], "--humans must be comma-separated seat numbers"),
        (["--names", "A,B,C,D"], "--names: 4 names for 3 players"),
    ):
        code, _, err = run(capsys, "play", SW, "--players", "3", *argv)
        assert code == 2
        assert message in err


def test_sw_14_play_two_player_game_with_the_free_city(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    feed(monkeypatch, "1\n" * 400)
    save = tmp_path / "two.json"
    code, out, _ = run(
        capsys, "play", SW, "--players", "2", "--seed", "8", "--bots", "random", "--save", str(save)
    )
    assert code == 0
    assert "You decide for the Free City now" in out
    assert "Free City" in out.split("final score")[1]
    assert Replay.load(save).final_state().is_terminal()


def test_play_end_of_input_or_q_quits_cleanly(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for script in ("", "q\n", "3\nquit\n"):
        feed(monkeypatch, script)
        code, out, err = run(
            capsys, "play", SW, "--players", "4", "--seed", "1", "--bots", "random"
        )
        assert code == 0
        assert "Game abandoned" in out
        assert "Traceback" not in out + err


def test_play_default_bots(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    feed(monkeypatch, "")
    code, out, _ = run(capsys, "play", SW, "--players", "3", "--seat", "2", "--seed", "1")
    assert code == 0
    assert f"seat 0: {default_bot()}, seat 1: {default_bot()}" in out
    assert "You are seat 2 (Player 3)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("play", "chess", "--players", "3"), "unknown game 'chess'"),
        (("play", "planned-game", "--players", "3"), "not implemented yet"),
        (("play", SW, "--players", "8"), "2 to 7 players, not 8"),
        (("play", SW, "--players", "1"), "2 to 7 players, not 1"),
        (("play", SW, "--players", "3", "--seat", "3"), "--seat must be between 0 and 2"),
        (("play", SW, "--players", "3", "--bots", "random,nobody"), "unknown bot 'nobody'"),
        (
            ("play", "deus", "--players", "2", "--bots", "ismcts:1s:eval=nope"),
            "eval=nope: game 'deus' has no such evaluation",
        ),
        (("play", SW, "--players", "3", "--bots", "random,,random"), "comma-separated"),
        (("play", SW, "--players", "three"), "invalid int value"),
    ],
)
@pytest.mark.usefixtures("planned_game")
def test_play_bad_inputs_fail_clearly(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
    message: str,
) -> None:
    feed(monkeypatch, "")
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


# --- simulate ------------------------------------------------------------------------------------
REQUIRED = {
    "game",
    "players",
    "games",
    "completed",
    "truncated",
    "errors",
    "seconds",
    "games_per_second",
    "mean_decisions",
    "wins_by_seat",
    "mean_score",
    "bots",
    "seed",
}


def test_simulate_json_is_one_object_with_the_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(
        capsys, "simulate", SW, "--players", "4", "--games", "3", "--seed", "5", "--json"
    )
    assert code == 0
    assert set(doc) >= REQUIRED
    assert doc["game"] == SW
    assert (doc["players"], doc["games"], doc["seed"]) == (4, 3, 5)
    assert doc["completed"] + doc["truncated"] + doc["errors"] == 3
    assert doc["completed"] == 3
    assert len(doc["wins_by_seat"]) == len(doc["mean_score"]) == len(doc["bots"]) == 4
    assert sum(doc["wins_by_seat"]) >= 3  # SW-13.3: co-winners each count
    assert doc["mean_decisions"] > 0


def test_simulate_same_seed_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", SW, "--players", "3", "--games", "4", "--seed", "77", "--json")
    _, first = run_json(capsys, *argv)
    _, second = run_json(capsys, *argv)
    timing = {"seconds", "games_per_second", "decisions_per_second"}
    assert {k: v for k, v in first.items() if k not in timing} == {
        k: v for k, v in second.items() if k not in timing
    }
    _, other = run_json(capsys, "simulate", SW, "--players", "3", "--games", "4", "--json")
    assert (other["wins_by_seat"], other["mean_score"]) != (
        first["wins_by_seat"],
        first["mean_score"],
    )


def test_simulate_max_rounds_truncates_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(
        capsys, "simulate", SW, "--players", "3", "--games", "3", "--max-rounds", "5", "--json"
    )
    assert code == 0
    assert doc["truncated"] == 3
    assert doc["completed"] == 0
    assert doc["wins_by_seat"] == [0, 0, 0]


def test_simulate_error_in_one_game_is_reported_and_the_run_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = game_seed(3, 2)
    original = RandomBot.choose

    def choose(self: RandomBot, state: State, seat: int) -> int:
        if state.seed == failing and len(state.history) >= 20:
            raise ValueError("bot exploded")
        return original(self, state, seat)

    monkeypatch.setattr(RandomBot, "choose", choose)
    code, out, err = run(
        capsys,
        "simulate",
        SW,
        "--players",
        "3",
        "--games",
        "4",
        "--seed",
        "3",
        "--bots",
        "random",
        "--json",
    )
    assert code == 1
    doc = json.loads(out)
    assert doc["errors"] == 1
    assert doc["completed"] == 3
    (detail,) = doc["error_details"]
    assert detail["seed"] == failing
    assert detail["error"] == "ValueError: bot exploded"
    assert Path(detail["replay"]).is_file()
    assert f"seed {failing}" in err
    assert detail["replay"] in err
    assert len(Replay.load(detail["replay"]).actions) == 20


def test_simulate_save_and_table_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(
        capsys, "simulate", SW, "--players", "3", "--games", "2", "--save", str(tmp_path)
    )
    assert code == 0
    assert "by seat" in out
    assert "completed" in out
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_simulate_save_to_an_unwritable_place_fails_clearly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    code, out, err = run(
        capsys, "simulate", SW, "--players", "3", "--games", "1", "--save", str(blocker)
    )
    assert code == 1
    assert "civtable simulate: error:" in err
    assert "Traceback" not in out + err


def test_simulate_options_preset_first_game_for_through_the_ages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 7's command: ``--options first-game`` is the game's preset for {"mode": "first"}."""
    argv = ("simulate", "through-the-ages", "--players", "4", "--games", "2", "--bots", "random")
    code, preset = run_json(capsys, *argv, "--options", "first-game", "--json")
    assert code == 0
    assert (preset["completed"], preset["errors"]) == (2, 0)
    _, as_json = run_json(capsys, *argv, "--options", '{"mode": "first"}', "--json")
    timing = {"seconds", "games_per_second", "decisions_per_second"}
    assert {k: v for k, v in preset.items() if k not in timing} == {
        k: v for k, v in as_json.items() if k not in timing
    }


def test_simulate_options_json_object_reaches_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ("simulate", SW, "--players", "3", "--games", "1", "--save", str(tmp_path))
    code, _, _ = run(capsys, *argv, "--options", '{"sides": "B"}')
    assert code == 0
    (path,) = tmp_path.glob("*.json")
    assert Replay.load(path).options["sides"] == "B"


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("through-the-ages", "second-game", "presets: first-game"),
        (SW, "first-game", "presets: none"),
        ("through-the-ages", '{"mode": "short"}', "mode must be one of"),
        ("through-the-ages", "{mode: first}", "--options is not a valid JSON object"),
        ("through-the-ages", '["first"]', "--options must be a JSON object or a preset"),
    ],
)
def test_simulate_bad_options_fail_clearly(
    capsys: pytest.CaptureFixture[str], game: str, options: str, message: str
) -> None:
    code, out, err = run(capsys, "simulate", game, "--players", "3", "--options", options)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_simulate_workers_match_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("simulate", SW, "--players", "3", "--games", "4", "--seed", "4", "--json")
    _, one = run_json(capsys, *argv)
    _, two = run_json(capsys, *argv, "--workers", "2")
    assert (one["wins_by_seat"], one["mean_score"], one["mean_decisions"]) == (
        two["wins_by_seat"],
        two["mean_score"],
        two["mean_decisions"],
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("simulate", "chess", "--players", "3"), "unknown game 'chess'"),
        (("simulate", "planned-game", "--players", "3"), "not implemented yet"),
        (("simulate", SW, "--players", "9"), "2 to 7 players, not 9"),
        (("simulate", SW, "--players", "3", "--bots", "nobody"), "unknown bot 'nobody'"),
        (
            ("simulate", "deus", "--players", "4", "--bots", "ismcts:1s:eval=nope"),
            "no such evaluation (use auto, none, first, lead)",
        ),
        (("simulate", SW, "--players", "3", "--games", "0"), "--games must be at least 1"),
        (("simulate", SW, "--players", "3", "--max-rounds", "0"), "--max-rounds must be at"),
        (("simulate", SW, "--players", "3", "--workers", "0"), "--workers must be at least 1"),
        (("simulate", SW), "--players"),
    ],
)
@pytest.mark.usefixtures("planned_game")
def test_simulate_bad_inputs_fail_clearly(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_tournament_with_an_unknown_evaluation_fails_before_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``ismcts:…:eval=NAME`` names one of the game's evaluations: an unknown name is an error
    listing the known ones when the bots are checked, before any game is played."""
    out_dir = tmp_path / "t"
    code, out, err = run(
        capsys,
        "tournament",
        "deus",
        "--players",
        "4",
        "--bots",
        "ismcts:1s:clock=cpu:eval=nope,heuristic",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        str(out_dir),
    )
    assert code == 2
    assert "ismcts eval=nope: game 'deus' has no such evaluation" in err
    assert "use auto, none, first, lead" in err
    assert "Traceback" not in out + err
    assert not out_dir.exists()


# --- replay --------------------------------------------------------------------------------------
@pytest.fixture
def saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    argv = ["simulate", SW, "--players", "3", "--games", "1", "--seed", "6", "--json"]
    assert main([*argv, "--save", str(tmp_path)]) == 0
    capsys.readouterr()
    (path,) = tmp_path.glob("*.json")
    return path


def test_replay_all_prints_every_step_and_the_final_breakdown(
    capsys: pytest.CaptureFixture[str], saved_game: Path
) -> None:
    code, out, _ = run(capsys, "replay", str(saved_game), "--all")
    assert code == 0
    final = Replay.load(saved_game).final_state()
    assert out.count("Age 1 · turn") == 6
    assert out.count("Age 3 · turn") == 6
    assert "final score" in out
    winners = final.result().winners
    assert ", ".join(f"Player {s + 1} (seat {s})" for s in winners) in out
    for s in range(3):
        assert f"Player {s + 1}: " in out  # every seat's decisions are shown, in player words


def test_sw_3_9_replay_for_one_seat_hides_the_others_private_events(
    capsys: pytest.CaptureFixture[str], saved_game: Path
) -> None:
    _, everything, _ = run(capsys, "replay", str(saved_game), "--all")
    code, mine, _ = run(capsys, "replay", str(saved_game), "--all", "--seat", "1")
    assert code == 0
    assert "Player 1: " not in mine
    assert "Player 3: " not in mine
    assert "Player 2: " in mine
    discarded = re.findall(r"\(seat (\d) only\) You sold", everything)
    assert discarded, "random bots discard; the omniscient replay marks whose secret it is"
    assert mine.count("You sold") == discarded.count("1")


def test_replay_step_mode_waits_for_enter_and_q_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, saved_game: Path
) -> None:
    feed(monkeypatch, "\n\nq\n")
    code, out, _ = run(capsys, "replay", str(saved_game), "--step")
    assert code == 0
    assert out.count("Enter = next, q = quit") == 3
    assert "final score" not in out
    feed(monkeypatch, "")
    code, out, _ = run(capsys, "replay", str(saved_game), "--step")
    assert code == 0
    assert out.count("Enter = next") == 1


def test_replay_of_a_truncated_game_shows_the_score_so_far(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["simulate", SW, "--players", "4", "--games", "1", "--max-rounds", "5", "--json"]
    assert main([*argv, "--save", str(tmp_path)]) == 0
    capsys.readouterr()
    (path,) = tmp_path.glob("*.json")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "ends before the game is over" in out
    assert "score so far" in out


@pytest.mark.usefixtures("planned_game")
def test_replay_bad_files_fail_clearly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, saved_game: Path
) -> None:
    not_json = tmp_path / "a.txt"
    not_json.write_text("hello")
    wrong = tmp_path / "b.json"
    wrong.write_text('{"x": 1}')
    doc = json.loads(saved_game.read_text())
    doc["actions"][3] = [0, 99999]
    illegal = tmp_path / "c.json"
    illegal.write_text(json.dumps(doc))
    doc["game"] = "planned-game"
    planned = tmp_path / "d.json"
    planned.write_text(json.dumps(doc))
    cases = [
        (tmp_path / "missing.json", 1, "cannot read replay"),
        (not_json, 1, "cannot read replay"),
        (wrong, 1, "not a civtable replay"),
        (illegal, 1, "decision 3 (seat 0, action 99999) is not legal"),
        (planned, 2, "not implemented yet"),
    ]
    for path, expected, message in cases:
        code, out, err = run(capsys, "replay", str(path), "--all")
        assert code == expected, path
        assert message in err
        assert "Traceback" not in out + err
    code, _, err = run(capsys, "replay", str(saved_game), "--seat", "5")
    assert code == 2
    assert "--seat must be between 0 and 2" in err


def test_sw_3_9_every_payment_event_names_its_recipient(
    capsys: pytest.CaptureFixture[str], saved_game: Path
) -> None:
    """Coin transfers are public (SW-3.9): a payment event says who receives the coins."""
    _, out, _ = run(capsys, "replay", str(saved_game), "--all")
    pays = [line for line in out.splitlines() if " pays " in line]
    assert pays
    recipient = r"\d+ coins? to (the bank|Player \d|Bot \d \(\w+\)|Free City)"
    for line in pays:
        assert re.search(rf"pays {recipient}( and {recipient})?\.", line), line
    assert any("to the bank" in line for line in pays)


# --- bench ---------------------------------------------------------------------------------------
def test_bench_json_reports_every_measure(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(
        capsys, "bench", "--games", "1", "--warmup", "0", "--players", "3,7", "--json"
    )
    assert code == 0
    assert [r["players"] for r in doc["results"]] == [3, 7]
    assert doc["build"] == compiled.status().label()  # which rules ran: pure or compiled
    for r in doc["results"]:
        for key in (
            "games_per_second",
            "copies_per_second",
            "copy_us",
            "views_per_second",
            "legal_actions_per_second",
            "apply_us",
            "copy_per_apply",
        ):
            assert r[key] > 0, key
        assert r["mean_decisions"] > 0


def test_bench_table_and_bad_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--games", "1", "--warmup", "0", "--players", "4")
    assert code == 0
    assert "copy / apply" in out
    assert f"{compiled.status().label()} build" in out
    code, _, err = run(capsys, "bench", "--players", "3,x")
    assert code == 2
    assert "comma-separated" in err
    code, _, err = run(capsys, "bench", "--players", "9")
    assert code == 2
    assert "2 to 7 players" in err


def test_tta_play_the_full_game_and_the_first_game_by_preset(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``civtable play`` takes ``--options`` like ``simulate``; a full game reaches Age IV
    (TTA-4.4) and ends with the final scoring (TTA-13.2)."""
    feed(monkeypatch, "1\n" * 8000)
    argv = ("play", "through-the-ages", "--players", "3", "--seed", "4", "--bots", "heuristic")
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "Age IV begins" in out
    assert "Event revealed" in out  # the structured log in player words
    assert "TTA-13.2" in out or "Winner" in out
    feed(monkeypatch, "1\n" * 8000)
    code, out, _ = run(capsys, *argv[:-2], "--bots", "random", "--options", "first-game")
    assert code == 0
    assert "Age IV" not in out
    code, _, err = run(capsys, *argv, "--options", '{"mode": "short"}')
    assert code != 0
    assert "mode must be one of" in err
