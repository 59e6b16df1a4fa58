"""The single-seat Gymnasium environment and the policy bot (civtable.rl.gym_env, policy_bot)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from civtable import games  # noqa: E402
from civtable.bots import UnknownBotError, make_bot  # noqa: E402
from civtable.bots import base as bot_base  # noqa: E402
from civtable.core.errors import IllegalActionError, InvalidOptionsError  # noqa: E402
from civtable.core.rng import Rng  # noqa: E402
from civtable.rl.gym_env import SingleSeatEnv  # noqa: E402
from civtable.rl.policy_bot import PolicyBot  # noqa: E402
from civtable.sim.simulate import SimConfig, simulate  # noqa: E402
from tests.rl.helpers import SW  # noqa: E402


def _episode(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    steps, total, info_end = 0, 0.0, info
    while True:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"])
        legal = np.flatnonzero(mask).tolist()
        assert legal == env.state.legal_actions(env.seat)
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        steps += 1
        total += reward
        assert not truncated
        if terminated:
            info_end = info
            break
        assert reward == 0.0
    return steps, total, info_end


@pytest.mark.parametrize("players", [2, 3, 7])
def test_sw_13_3_episodes_end_with_the_learners_win_share(players):
    env = SingleSeatEnv(SW, players=players, opponents=("random", "heuristic"), seed=4)
    rng = Rng(1)
    for _ in range(2):
        steps, total, info = _episode(env, rng)
        result = env.state.result()
        assert env.state.is_terminal()
        assert steps == sum(1 for seat, _ in env.state.history if seat == env.seat)
        share = 1.0 / len(result.winners)
        assert total == pytest.approx(share if env.seat in result.winners else 0.0)
        assert info["winners"] == list(result.winners)
        assert not env.action_masks().any()


def test_the_learner_seat_rotates_and_can_be_fixed():
    env = SingleSeatEnv(SW, players=3, seed=0)
    seats = []
    for _ in range(4):
        _, info = env.reset()
        seats.append(info["seat"])
    assert seats == [0, 1, 2, 0]
    fixed = SingleSeatEnv(SW, players=3, seat=2)
    assert [fixed.reset()[1]["seat"] for _ in range(2)] == [2, 2]


def test_same_seed_same_episode_and_score_rewards():
    a = SingleSeatEnv(SW, players=4, seat=1, reward="score", opponents=("heuristic",))
    b = SingleSeatEnv(SW, players=4, seat=1, reward="score", opponents=("heuristic",))
    ra = _episode(a, Rng(3), seed=77)
    rb = _episode(b, Rng(3), seed=77)
    assert ra[:2] == rb[:2]
    assert a.state.state_hash() == b.state.state_hash()
    assert ra[1] == a.state.result().scores[1]


def test_illegal_actions_raise_and_bad_arguments_are_rejected():
    env = SingleSeatEnv(SW, players=3, seat=0)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(InvalidOptionsError):
        SingleSeatEnv(SW, players=3, seat=3)
    with pytest.raises(UnknownBotError):
        SingleSeatEnv(SW, players=3, opponents=("nobody",))


def _first_legal(obs, mask):
    return int(np.flatnonzero(mask)[0])


def test_policy_bot_plays_whole_games_from_the_encoded_view():
    bot = PolicyBot(_first_legal)
    state = games.get(SW).new_game(3, 5)
    other = make_bot("random", 1)
    while not state.is_terminal():
        for seat in state.to_move():
            action = bot.choose(state, seat) if seat == 0 else other.choose(state, seat)
            if seat == 0:
                assert action == state.legal_actions(0)[0]
            state.apply(seat, action)
            break
    assert state.is_terminal()


def test_policy_bot_refuses_an_illegal_policy():
    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))
    state = games.get(SW).new_game(3, 5)
    with pytest.raises(InvalidOptionsError, match="illegal"):
        bot.choose(state, 0)


def test_sb3_bot_spec_is_registered_and_needs_a_path():
    from civtable.bots import bot_names

    assert "sb3" in bot_names()
    with pytest.raises(InvalidOptionsError, match="path"):
        make_bot("sb3", 0)


def test_a_registered_policy_bot_runs_in_simulate(monkeypatch):
    factory = lambda arg, seed: PolicyBot(_first_legal, seed)  # noqa: E731
    monkeypatch.setitem(bot_base._FACTORIES, "first-legal", factory)
    summary = simulate(SimConfig(SW, players=3, games=2, seed=3, bots=("first-legal", "random")))
    assert summary.completed == 2
    assert summary.errors == 0
