"""The simulation runner (civtable.sim.simulate): seeding, truncation, errors, replays, workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from civtable import games
from civtable.bots import UnknownBotError, bot_names
from civtable.bots import base as bot_base
from civtable.bots.base import Bot
from civtable.bots.random_bot import RandomBot
from civtable.core.api import State
from civtable.core.errors import InvalidOptionsError, UnknownGameError
from civtable.core.replay import Replay
from civtable.sim.simulate import (
    SimConfig,
    default_bot,
    game_seed,
    play_one,
    simulate,
    validate,
)

SW = "seven-wonders"


def _fingerprint(config: SimConfig, workers: int = 1) -> list[tuple[object, ...]]:
    summary = simulate(config, workers=workers)
    return [
        (r.index, r.seed, r.completed, r.truncated, r.decisions, r.rounds, r.scores, r.winners)
        for r in summary.records
    ]


def test_game_seeds_are_stable_and_distinct() -> None:
    seeds = [game_seed(123, i) for i in range(200)]
    assert seeds == [game_seed(123, i) for i in range(200)]
    assert len(set(seeds)) == 200
    assert all(0 <= s < 2**63 for s in seeds)
    assert game_seed(124, 0) not in seeds


def test_same_seed_same_games_other_seed_other_games() -> None:
    config = SimConfig(SW, players=4, games=4, seed=11, bots=("random",))
    first = _fingerprint(config)
    assert first == _fingerprint(config)
    other = _fingerprint(SimConfig(SW, players=4, games=4, seed=12, bots=("random",)))
    assert [f[6] for f in first] != [f[6] for f in other]


def test_every_game_completes_with_a_winner_sw_13() -> None:
    summary = simulate(SimConfig(SW, players=3, games=5, seed=2))
    assert summary.completed == 5
    assert summary.truncated == summary.errors == 0
    for r in summary.records:
        assert r.winners, "SW-13: every finished game has at least one winner"
        best = max(r.scores)
        assert all(r.scores[s] == best for s in r.winners)
        assert sum(r.rewards) == pytest.approx(1.0)
    assert sum(summary.wins_by_seat()) >= summary.completed
    assert sum(summary.wins_by_bot().values()) == pytest.approx(summary.completed)


def test_max_rounds_caps_every_game_as_truncated() -> None:
    summary = simulate(SimConfig(SW, players=3, games=3, seed=5, max_rounds=5))
    assert summary.truncated == 3
    assert summary.completed == 0
    for r in summary.records:
        assert r.rounds == 5
        assert not r.scores
        assert not r.winners
        # a round is one pass over to_move(): at least one and at most one decision per seat
        assert 5 <= r.decisions <= 15
    doc = summary.to_json()
    assert doc["mean_score"] == [None, None, None]
    assert doc["wins_by_seat"] == [0, 0, 0]


def test_civ_22_4_a_game_stopped_by_its_own_turn_cap_is_truncated_not_completed() -> None:
    """Civilization's ``turn_limit`` (a simulation aid, not a rule) ends the game "unfinished":
    simulate reports that as truncated, never as a completed game."""
    config = SimConfig(
        "civilization-a-new-dawn",
        players=2,
        games=2,
        seed=3,
        bots=("random",),
        options={"turn_limit": 2},
    )
    summary = simulate(config)
    assert summary.truncated == 2
    assert summary.completed == 0
    assert all(not r.winners for r in summary.records)


def test_a_cap_above_the_game_length_does_not_truncate() -> None:
    uncapped = _fingerprint(SimConfig(SW, players=3, games=2, seed=5))
    capped = _fingerprint(SimConfig(SW, players=3, games=2, seed=5, max_rounds=1000))
    assert capped == uncapped
    assert all(f[2] and not f[3] for f in capped)


def test_error_in_one_game_is_recorded_with_a_replay_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    failing = game_seed(7, 1)
    original = RandomBot.choose

    def choose(self: RandomBot, state: State, seat: int) -> int:
        if state.seed == failing and len(state.history) >= 10:
            raise RuntimeError("boom")
        return original(self, state, seat)

    monkeypatch.setattr(RandomBot, "choose", choose)
    summary = simulate(SimConfig(SW, players=3, games=3, seed=7, bots=("random",)))
    assert summary.errors == 1
    assert summary.completed == 2
    (bad,) = summary.error_records()
    assert bad.index == 1
    assert bad.seed == failing
    assert bad.error == "RuntimeError: boom"
    assert bad.replay_path is not None
    replay = Replay.load(bad.replay_path)
    assert replay.seed == failing
    assert len(replay.actions) == 10
    assert replay.meta["error"] == "RuntimeError: boom"
    assert "RuntimeError" in replay.meta["traceback"]
    # the replay rebuilds the position where the bot failed
    assert len(replay.final_state().history) == 10
    doc = summary.to_json()
    assert doc["error_details"] == [
        {"index": 1, "seed": failing, "error": "RuntimeError: boom", "replay": bad.replay_path}
    ]


def test_save_dir_replays_reproduce_every_score(tmp_path: Path) -> None:
    summary = simulate(SimConfig(SW, players=4, games=3, seed=9), save_dir=tmp_path)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    finals = [Replay.load(f).final_state() for f in files]
    for record, final in zip(summary.records, finals, strict=True):
        assert final.is_terminal()
        assert final.result().scores == record.scores
        assert record.replay_path is not None
        assert Path(record.replay_path) in files
    means = [sum(f.result().scores[s] for f in finals) / 3 for s in range(4)]
    assert summary.mean_score() == pytest.approx(means, abs=1e-4)


def test_workers_give_the_results_of_one_process() -> None:
    config = SimConfig(SW, players=3, games=6, seed=21, bots=("random",))
    assert _fingerprint(config, workers=2) == _fingerprint(config, workers=1)


def test_bots_are_cycled_over_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    class FirstBot(Bot):
        name = "first"

        def choose(self, state: State, seat: int) -> int:
            return state.legal_actions(seat)[0]

    monkeypatch.setitem(bot_base._FACTORIES, "first", lambda arg, seed: FirstBot(seed))
    config = SimConfig(SW, players=3, games=1, seed=4, bots=("first", "random"), keep_replays=True)
    assert config.seat_bots() == ["first", "random", "first"]
    record = play_one(config, 0)
    assert record.completed
    assert record.replay is not None
    state = games.get(SW).new_game(3, record.seed)
    firsts = {0: 0, 1: 0, 2: 0}
    for seat, action in record.replay.actions:
        if action == state.legal_actions(seat)[0]:
            firsts[seat] += 1
        state.apply(seat, action)
    moves = {s: sum(1 for a in record.replay.actions if a[0] == s) for s in range(3)}
    assert firsts[0] == moves[0]
    assert firsts[2] == moves[2]
    assert firsts[1] < moves[1]


@pytest.mark.usefixtures("planned_game")
def test_validate_rejects_bad_configs() -> None:
    with pytest.raises(UnknownGameError, match="unknown game"):
        validate(SimConfig("chess", players=2, games=1))
    with pytest.raises(UnknownGameError, match="not implemented yet"):
        validate(SimConfig("planned-game", players=3, games=1))
    for players in (1, 8):
        with pytest.raises(InvalidOptionsError, match="2 to 7 players"):
            validate(SimConfig(SW, players=players, games=1))
    with pytest.raises(InvalidOptionsError, match="at least 1"):
        validate(SimConfig(SW, players=3, games=0))
    with pytest.raises(InvalidOptionsError, match="max-rounds"):
        validate(SimConfig(SW, players=3, games=1, max_rounds=0))
    with pytest.raises(UnknownBotError, match="nobody"):
        validate(SimConfig(SW, players=3, games=1, bots=("random", "nobody")))


def test_default_bot_is_registered() -> None:
    assert default_bot() in bot_names()
    assert default_bot() == ("heuristic" if "heuristic" in bot_names() else "random")
