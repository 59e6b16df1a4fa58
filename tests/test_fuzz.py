"""``civtable fuzz`` (issue 20 item 8): random legal play with every check after every decision.

The clean runs below are the CI share of the fuzzing (a few hundred games over the four games,
sized to stay near a minute of CPU; the 100,000-game runs are a benchmark, not CI). The other
tests break one thing on purpose (an invariant, a view, the JSON round trip, a restored state,
the replay, the refusal of illegal input) and check that the failure is reported with a command
line that reproduces it.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from civtable import games
from civtable.cli import main
from civtable.core.api import State
from civtable.core.replay import Replay
from civtable.games.seven_wonders import invariants as sw_invariants
from civtable.games.seven_wonders import view as sw_view
from civtable.games.seven_wonders.catalog import CARDS
from civtable.games.seven_wonders.state import SevenWondersState
from civtable.sim import fuzz as fuzz_module
from civtable.sim.fuzz import FuzzConfig, fuzz, invariants_module

SW = "seven-wonders"


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "220")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert out, err
    return code, json.loads(out)


def rerun(capsys: pytest.CaptureFixture[str], command: str) -> tuple[int, Any]:
    """Run a reproduction command line as printed (``civtable fuzz ...``)."""
    argv = shlex.split(command)
    assert argv[:2] == ["civtable", "fuzz"]
    return run_json(capsys, *argv[1:])


# --- clean runs: the CI share ---------------------------------------------------------------------
CLEAN = [
    # (game, players, games, extra options): a few hundred games in all
    (SW, 2, 60, ["--leaks-every", "2"]),
    (SW, 3, 60, ["--leaks-every", "2"]),
    (SW, 4, 25, ["--leaks-every", "3"]),
    (SW, 5, 12, ["--leaks-every", "4"]),
    (SW, 6, 8, ["--leaks-every", "5"]),
    (SW, 7, 8, ["--leaks-every", "6"]),
    ("deus", 2, 12, ["--leaks-every", "10"]),
    ("deus", 3, 6, ["--leaks-every", "15", "--options", '{"blind_building": true}']),
    ("deus", 4, 4, ["--leaks-every", "20", "--options", '{"free_start": 8, "board": "random"}']),
    ("through-the-ages", 2, 6, ["--leaks-every", "10"]),
    ("through-the-ages", 3, 3, ["--leaks-every", "20", "--round-trip-every", "2"]),
    ("through-the-ages", 4, 2, ["--leaks-every", "20", "--round-trip-every", "3"]),
    ("civilization-a-new-dawn", 2, 2, ["--leaks-every", "25", "--round-trip-every", "8"]),
    ("civilization-a-new-dawn", 3, 1, ["--leaks-every", "40", "--round-trip-every", "10"]),
    ("civilization-a-new-dawn", 4, 1, ["--leaks-every", "50", "--round-trip-every", "12"]),
]


@pytest.mark.parametrize(
    ("game", "players", "count", "extra"),
    CLEAN,
    ids=[f"{c[0]}-{c[1]}p" for c in CLEAN],
)
def test_fuzz_runs_clean(
    capsys: pytest.CaptureFixture[str], game: str, players: int, count: int, extra: list[str]
) -> None:
    code, doc = run_json(
        capsys,
        "fuzz",
        game,
        "--players",
        str(players),
        "--games",
        str(count),
        "--seed",
        "7",
        *extra,
    )
    assert doc["failures"] == [], doc["failures"][:2]
    assert code == 0
    assert doc["games"] == count
    assert doc["completed"] + doc["truncated"] == count
    assert doc["moves"] >= count
    kinds = doc["checks_by_kind"]
    assert doc["checks"] == sum(kinds.values())
    assert kinds["replay"] == doc["completed"]
    assert kinds["illegal_actions"] > doc["moves"]  # several bad inputs per position
    assert kinds["round_trip"] > 0
    assert kinds["continuation"] > 0
    has_module = invariants_module(game) is not None
    assert doc["invariants"] is has_module
    if has_module:
        assert kinds["invariants"] == doc["moves"] + count  # after every decision and setup
        assert kinds["leaks"] > 0
    else:
        assert kinds["invariants"] == kinds["leaks"] == 0
        assert any("no invariants module" in note for note in doc["notes"])


def test_fuzz_table_output_says_what_ran(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fuzz", SW, "--players", "3", "--games", "2", "--seed", "3")
    assert code == 0
    assert "2 games, 3 players, seeds 3..4" in out
    assert "no failure" in out
    for kind in ("invariants", "leaks", "illegal actions", "round trip", "continuation"):
        assert kind in out


def test_fuzz_the_same_seed_gives_the_same_run(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("fuzz", SW, "--players", "4", "--games", "3", "--seed", "11")
    _, first = run_json(capsys, *args)
    _, again = run_json(capsys, *args)
    _, pooled = run_json(capsys, *args, "--workers", "2")
    for key in ("moves", "checks", "checks_by_kind", "completed"):
        assert first[key] == again[key] == pooled[key], key


def test_fuzz_game_i_is_seed_plus_i_and_the_leak_cadence_does_not_change_the_moves() -> None:
    whole = fuzz(FuzzConfig(SW, players=3, games=3, seed=20))
    third = fuzz(FuzzConfig(SW, players=3, games=1, seed=22, leaks_every=7))
    assert whole.outcomes[2].moves == third.outcomes[0].moves
    assert whole.outcomes[2].seed == third.outcomes[0].seed == 22


# --- deliberate breakage is reported with a reproduction ------------------------------------------
def _failure(doc: Any) -> Any:
    assert doc["failures"], doc
    return doc["failures"][0]


def _check_failure(doc: Any, check: str, players: int) -> Any:
    f = _failure(doc)
    assert f["check"] == check
    assert f["game"] == SW
    assert f["players"] == players
    assert isinstance(f["seed"], int)
    assert isinstance(f["step"], int)
    assert f["what"]
    assert f["messages"][0] == f["what"]
    assert f"--seed {f['seed']}" in f["command"]
    assert "--games 1" in f["command"]
    return f


def test_a_broken_invariant_is_reported_with_a_reproduction(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = sw_invariants.check

    def broken(state: SevenWondersState) -> list[str]:
        out = real(state)
        if state.age == 2 and state.turn == 3 and state.cities[1].coins >= 4:
            out.append(f"coins of city 1: {state.cities[1].coins} (planted)")
        return out

    monkeypatch.setattr(sw_invariants, "check", broken)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "3", "--games", "6", "--seed", "40")
    assert code == 1
    f = _check_failure(doc, "invariants", 3)
    assert "(planted)" in f["what"]
    assert len(doc["failures"]) == sum(1 for x in doc["failures"] if x["check"] == "invariants")
    # The command alone reproduces that failure, at the same step.
    code, again = rerun(capsys, f["command"])
    assert code == 1
    assert again["games"] == 1
    g = _failure(again)
    assert (g["seed"], g["step"], g["check"], g["what"]) == (
        f["seed"],
        f["step"],
        f["check"],
        f["what"],
    )


def test_a_real_conservation_bug_is_caught(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that loses a card (a leftover of Age I vanishes instead of going to the discard
    pile, SW-3.6) breaks card conservation at the end of Age I.

    The bug is planted in ``SevenWondersState.apply``, which is Python in both builds: in the
    compiled build (``CIVTABLE_COMPILED=1``) the rules call their own functions directly, so
    replacing a function of ``rules.turn`` would not reach them.
    """
    real = SevenWondersState.apply

    def lossy(self: SevenWondersState, seat: int, action: int) -> None:
        age = self.age
        real(self, seat, action)
        if age == 1 and self.age == 2:  # the Age I leftovers have just been discarded
            self.discard.pop()
            self.discard_known.pop()

    monkeypatch.setattr(SevenWondersState, "apply", lossy)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "4", "--games", "2")
    assert code == 1
    f = _check_failure(doc, "invariants", 4)
    assert "in play" in " ".join(f["messages"])


@pytest.mark.parametrize("step", [1, 30, 31])
def test_a_civ_component_created_between_two_checks_is_caught_at_once(
    monkeypatch: pytest.MonkeyPatch, step: int
) -> None:
    """Civilization's check() skips the groups whose inputs did not change since the previous
    decision's check: a rule that hands seat 0 its own diplomacy card (CIV-17.2), the only
    change of that group's inputs, is still reported at the decision that did it."""
    from civtable.games.civilization_a_new_dawn.state import CivState

    real = CivState.apply

    def gives_own_card(self: CivState, seat: int, action: int) -> None:
        real(self, seat, action)
        if len(self.history) == step:
            self.pcard_holder[0][0] = 0

    monkeypatch.setattr(CivState, "apply", gives_own_card)
    summary = fuzz(
        FuzzConfig("civilization-a-new-dawn", players=2, games=1, seed=3, round_trip_every=40)
    )
    [f] = summary.failures()
    assert (f.check, f.step) == ("invariants", step)
    assert f.messages == ["diplomacy card 0 of seat 0 held by 0"]


def test_an_injected_leak_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = sw_view.view

    def leaky(state: SevenWondersState, seat: int | None, *, labels: bool = True) -> Any:
        doc = real(state, seat, labels=labels)
        if state.turn == 4:
            doc["rumour"] = [CARDS[t].id for t in state.hands[(state.city_of(seat or 0) + 1) % 4]]
        return doc

    monkeypatch.setattr(sw_view, "view", leaky)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "4", "--games", "2")
    assert code == 1
    f = _check_failure(doc, "leaks", 4)
    assert "view of" in f["what"]
    assert any("rumour" in m for m in f["messages"])
    # With leak checks every 1000 decisions the leak goes unseen: the cadence is honoured.
    _, sparse = run_json(
        capsys, "fuzz", SW, "--players", "4", "--games", "2", "--leaks-every", "1000"
    )
    assert sparse["failures"] == []
    assert any("every 1000 decisions" in n for n in sparse["notes"])


def test_with_the_log_on_a_log_line_naming_a_hidden_card_is_a_leak(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Planted in SevenWondersState.apply, Python in both builds (see the conservation test).
    real = SevenWondersState.apply

    def gossip(self: SevenWondersState, seat: int, action: int) -> None:
        real(self, seat, action)
        if self.log is not None and self.hands[2]:
            self.log.append({"text": f"rumour: someone holds {CARDS[self.hands[2][0]].name}"})

    monkeypatch.setattr(SevenWondersState, "apply", gossip)
    args = ("fuzz", SW, "--players", "3", "--games", "2")
    _, quiet = run_json(capsys, *args)
    assert quiet["failures"] == []  # without the log nothing shows
    code, doc = run_json(capsys, *args, "--log")
    assert code == 1
    f = _check_failure(doc, "leaks", 3)
    assert "rumour" in " ".join(f["messages"])
    assert f["command"].endswith("--log")
    assert doc["log"] is True


def test_a_lossy_json_round_trip_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = games.get(SW)
    real = type(game).state_from_json

    def lossy(self: Any, doc: Any) -> State:
        state = real(self, doc)
        assert isinstance(state, SevenWondersState)
        if state.age == 2:
            state.cities[0].free_used = not state.cities[0].free_used
        return state

    monkeypatch.setattr(type(game), "state_from_json", lossy)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "3", "--games", "1")
    assert code == 1
    f = _check_failure(doc, "round_trip", 3)
    assert "state_from_json(to_json())" in f["what"]


def test_a_restored_state_that_does_not_continue_identically_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restored state with the same hash but a stale legal-action cache refuses the next
    decision of the original: the continuation check reports it."""
    game = games.get(SW)
    real = type(game).state_from_json

    def stale(self: Any, doc: Any) -> State:
        state = real(self, doc)
        assert isinstance(state, SevenWondersState)
        state._legal = {seat: [] for seat in range(state.players)}
        return state

    monkeypatch.setattr(type(game), "state_from_json", stale)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "3", "--games", "1")
    assert code == 1
    f = _check_failure(doc, "continuation", 3)
    assert "restored from JSON" in f["what"]


def test_a_replay_that_does_not_reproduce_the_game_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = games.get(SW)
    real = type(game).replay

    def short(self: Any, players: int, seed: int, actions: Any, options: Any = None) -> State:
        return real(self, players, seed, list(actions)[:-1], options)

    monkeypatch.setattr(type(game), "replay", short)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "3", "--games", "1")
    assert code == 1
    f = _check_failure(doc, "replay", 3)
    assert "replay of the history" in f["what"]
    assert "step by step does reproduce the game: replay() differs" in f["what"]


def test_the_first_step_where_a_rebuild_differs_is_located() -> None:
    game = fuzz_module._Game(FuzzConfig(SW, players=3, games=1, seed=5), 0)
    state = game.game.new_game(3, 5)
    for _ in range(4):
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    rebuilt = game.game.new_game(3, 5)
    game.hashes = {0: rebuilt.state_hash(), 1: "recorded-but-different", 3: "later"}
    text = game._first_divergence(state, list(state.history), "x", "y")
    assert "first differ after decision 1 (equal after 0)" in text


def test_an_illegal_input_that_changes_the_state_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SevenWondersState.apply

    def sloppy(self: SevenWondersState, seat: int, action: int) -> None:
        if not isinstance(action, int) or isinstance(action, bool):
            self.cities[0].coins += 1  # a change before the refusal
        real(self, seat, action)

    monkeypatch.setattr(SevenWondersState, "apply", sloppy)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "3", "--games", "1")
    assert code == 1
    f = _check_failure(doc, "illegal_actions", 3)
    assert "changed although every illegal input was refused" in f["what"]


def test_an_accepted_illegal_input_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = SevenWondersState.apply

    def lax(self: SevenWondersState, seat: int, action: int) -> None:
        if action == -1:
            return  # silently ignored instead of refused
        real(self, seat, action)

    monkeypatch.setattr(SevenWondersState, "apply", lax)
    code, doc = run_json(capsys, "fuzz", SW, "--players", "3", "--games", "1")
    assert code == 1
    f = _check_failure(doc, "illegal_actions", 3)
    assert f["step"] == 0
    assert "action -1" in f["what"]
    assert "accepted" in f["what"]


def test_with_probes_in_turn_every_kind_still_runs_and_a_late_accepted_input_is_caught(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--probes-every K``: one kind of illegal input per decision, every kind at the K-th;
    a refusal that breaks only in Age II (an action id past the action space accepted) is
    still found, with a reproduction that names the setting."""
    args = (
        "fuzz",
        SW,
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "12",
        "--round-trip-every",
        "50",
    )
    _, full = run_json(capsys, *args)
    _, turns = run_json(capsys, *args, "--probes-every", "1000")
    assert turns["failures"] == []
    assert turns["moves"] == full["moves"]
    tried = turns["checks_by_kind"]["illegal_actions"]
    assert turns["moves"] <= tried < full["checks_by_kind"]["illegal_actions"] / 3
    assert any("one kind in turn" in n for n in turns["notes"])
    real = SevenWondersState.apply
    size = games.get(SW).action_space_size(3, None)

    def lax(self: SevenWondersState, seat: int, action: int) -> None:
        if action == size and self.age == 2:
            return  # accepted instead of refused, in Age II only
        real(self, seat, action)

    monkeypatch.setattr(SevenWondersState, "apply", lax)
    code, doc = run_json(capsys, *args, "--probes-every", "1000")
    assert code == 1
    f = _check_failure(doc, "illegal_actions", 3)
    assert f"action {size} for seat" in f["what"]
    assert "accepted" in f["what"]
    assert "--probes-every 1000" in f["command"]
    code, again = rerun(capsys, f["command"])
    assert code == 1
    assert _failure(again)["step"] == f["step"] > 0
    assert f["step"] % 50  # found between the full probes (and round trips) of every 50th


def test_an_exception_in_a_rule_is_reported_and_the_failing_game_saved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from civtable.games.seven_wonders.rules import military

    def crash(state: SevenWondersState) -> None:
        raise RuntimeError("conflicts exploded")

    monkeypatch.setattr(military, "resolve_conflicts", crash)
    code, doc = run_json(
        capsys, "fuzz", SW, "--players", "3", "--games", "2", "--save", str(tmp_path)
    )
    assert code == 1
    assert len(doc["failures"]) == 2
    f = _check_failure(doc, "play", 3)
    assert "RuntimeError: conflicts exploded" in f["what"]
    replay = Replay.load(f["replay"])
    assert replay.game == SW
    assert len(replay.actions) == f["step"]
    assert replay.meta["check"] == "play"


def test_a_game_without_an_invariants_module_still_gets_the_generic_checks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(fuzz_module._MODULES, "deus", None)
    code, doc = run_json(capsys, "fuzz", "deus", "--players", "2", "--games", "1")
    assert code == 0
    assert doc["invariants"] is False
    assert doc["checks_by_kind"]["invariants"] == doc["checks_by_kind"]["leaks"] == 0
    assert doc["checks_by_kind"]["round_trip"] > 0
    assert "Deus has no invariants module (civtable.games.deus.invariants)" in doc["notes"][0]
    code, out, _ = run(capsys, "fuzz", "deus", "--players", "2", "--games", "1")
    assert "no invariants module" in out


def test_an_invariants_module_without_leaks_is_an_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(fuzz_module._MODULES, SW, raising=False)
    monkeypatch.delattr(sw_invariants, "leaks")
    code, _, err = run(capsys, "fuzz", SW, "--players", "3", "--games", "1")
    assert code == 1
    assert "does not define leaks()" in err


# --- bad arguments --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fuzz", "chess", "--players", "2"], "unknown game 'chess'"),
        (["fuzz", SW, "--players", "9"], "is for 2 to 7 players, not 9"),
        (["fuzz", SW], "--players"),
        (["fuzz", SW, "--players", "3", "--games", "0"], "--games must be at least 1"),
        (["fuzz", SW, "--players", "3", "--max-steps", "0"], "--max-steps must be at least 1"),
        (["fuzz", SW, "--players", "3", "--leaks-every", "-1"], "--leaks-every must be 0"),
        (["fuzz", SW, "--players", "3", "--round-trip-every", "0"], "--round-trip-every must"),
        (["fuzz", SW, "--players", "3", "--follow", "0"], "--follow must be at least 1"),
        (["fuzz", SW, "--players", "3", "--probes-every", "0"], "--probes-every must be at"),
        (["fuzz", SW, "--players", "3", "--batch", "0", "--out", "x"], "--batch must be at"),
        (["fuzz", SW, "--players", "3", "--seed", "-4"], "--seed must be 0 or more"),
        (["fuzz", SW, "--players", "3", "--games", "x"], "invalid int value: 'x'"),
        (["fuzz", SW, "--players", "3", "--options", "{bad"], "not a valid JSON object"),
        (["fuzz", SW, "--players", "3", "--options", '{"colour": 1}'], "unknown 7 Wonders option"),
        (["fuzz", SW, "--players", "3", "--options", "[1]"], "preset"),
        (["fuzz", SW, "--players", "3", "--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_fuzz_bad_arguments_fail_clearly(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert out == ""


def test_fuzz_config_validation_is_typed() -> None:
    from civtable.core.errors import InvalidOptionsError, UnknownGameError

    with pytest.raises(UnknownGameError):
        fuzz(FuzzConfig("chess", players=2, games=1))
    with pytest.raises(InvalidOptionsError):
        fuzz(FuzzConfig(SW, players=3, games=0))
    with pytest.raises(InvalidOptionsError):
        fuzz(FuzzConfig(SW, players=3, games=1, leaks_every=-1))
    with pytest.raises(InvalidOptionsError):
        fuzz(FuzzConfig(SW, players=3, games=1, options={"sides": "C"}))
