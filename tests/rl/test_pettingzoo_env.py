"""The PettingZoo AEC environment (civtable.rl.aec_env) on 7 Wonders."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from civtable import games  # noqa: E402
from civtable.core.errors import IllegalActionError, InvalidOptionsError  # noqa: E402
from civtable.core.rng import Rng  # noqa: E402
from civtable.rl import pettingzoo_env  # noqa: E402
from tests.rl.helpers import SW  # noqa: E402


def _play_out(env, seed):
    """Play one whole episode with random legal actions; return (decisions, final rewards)."""
    rng = Rng(seed)
    env.reset(seed=seed)
    decisions = 0
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        decisions += 1
    return decisions, final


@pytest.mark.parametrize("players", range(2, 8))
def test_pettingzoo_api_test_passes(players):
    env = pettingzoo_env(SW, players=players, seed=players, render_mode="ansi")
    with warnings.catch_warnings():
        # dict observations (observation + action_mask) are the documented PettingZoo pattern
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        # enough cycles to play a whole game, terminations and dead steps included
        api_test(env, num_cycles=60)


@pytest.mark.parametrize("players", range(2, 8))
def test_pettingzoo_seed_test_passes(players):
    seed_test(lambda: pettingzoo_env(SW, players=players, seed=7), num_cycles=10)


@pytest.mark.parametrize("players", [2, 3, 7])
def test_sw_13_3_win_rewards_are_split_among_the_winners(players):
    env = pettingzoo_env(SW, players=players)
    decisions, final = _play_out(env, seed=players)
    result = env.state.result()
    assert env.agents == []
    assert decisions == len(env.state.history)
    assert set(final) == set(env.possible_agents)
    share = 1.0 / len(result.winners)
    for s, agent in enumerate(env.possible_agents):
        assert final[agent] == pytest.approx(share if s in result.winners else 0.0)


def test_score_rewards_are_the_final_scores():
    env = pettingzoo_env(SW, players=4, reward="score")
    _, final = _play_out(env, seed=12)
    scores = env.state.result().scores
    assert [final[a] for a in env.possible_agents] == [float(x) for x in scores]
    assert len(set(scores)) > 1


def test_sw_8_1_simultaneous_picks_are_asked_seat_by_seat():
    env = pettingzoo_env(SW, players=4, sides="A")
    env.reset(seed=3)
    order = []
    step = (env.state.age, env.state.turn)
    while (env.state.age, env.state.turn) == step:
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        assert seat == min(env.state.to_move())
        order.append(seat)
        mask = env.observe(agent)["action_mask"]
        assert np.flatnonzero(mask).tolist() == env.state.legal_actions(seat)
        env.step(int(np.flatnonzero(mask)[-1]))
    assert sorted(set(order)) == [0, 1, 2, 3]
    assert order == sorted(order), "each seat finishes (payment included) before the next"


def test_reset_with_a_seed_deals_the_engines_game():
    env = pettingzoo_env(SW, players=3, seed=100)
    env.reset()
    assert env.game_seed == 100
    assert env.state.state_hash() == games.get(SW).new_game(3, 100).state_hash()
    env.reset()
    assert env.game_seed == 101
    env.reset(seed=5)
    assert env.state.state_hash() == games.get(SW).new_game(3, 5).state_hash()
    env.reset()
    assert env.game_seed == 6


def test_observation_is_in_space_and_masks_only_seats_owing_a_decision():
    env = pettingzoo_env(SW, players=3, seed=1)
    env.reset()
    env.step(env.state.legal_actions(0)[0])  # a single-payment build: seat 0 is done
    assert env.agent_selection == "player_1"
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert obs["action_mask"].any() == (seat != 0)


@pytest.mark.parametrize("players", [2, 4])
def test_sw_3_9_every_observation_is_the_encoded_view(players):
    """The environment's fast path gives, for every agent at every turn of a game, exactly the
    encoder's vector of ``view(seat)`` and a mask that is 1 on the view's legal ids only."""
    env = pettingzoo_env(SW, players=players, seed=3)
    env.reset()
    encoder = env.encoder
    rng = Rng(4)
    checked = 0
    for agent in env.agent_iter():
        for seat, other in enumerate(env.possible_agents):
            if other not in env.agents:
                continue
            obs = env.observe(other)
            view = env.state.view(seat, labels=False)
            assert np.array_equal(obs["observation"], encoder.encode(view))
            legal = [a["id"] for a in view["legal"]]
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
            assert obs["action_mask"].dtype == np.int8
            checked += 1
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(env.state.legal_actions(env.possible_agents.index(agent))))
    assert checked > 40 * players


def test_illegal_action_raises_and_leaves_the_game_unchanged():
    env = pettingzoo_env(SW, players=3, seed=1)
    env.reset()
    before = env.state.state_hash()
    illegal = next(a for a in range(env.n_actions) if a not in env.state.legal_actions(0))
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.state.state_hash() == before
    assert env.agent_selection == "player_0"


def test_render_ansi_shows_the_table_and_the_selected_hand():
    env = pettingzoo_env(SW, players=3, seed=1, render_mode="ansi")
    env.reset()
    text = env.render()
    assert "Age 1" in text
    assert "Player 1's hand" in text
    assert "Player 3" in text
    first = env.state.view(0)["legal"][0]
    assert f"[{first['id']}] {first['label']}" in text


def test_bad_arguments_are_rejected():
    with pytest.raises(InvalidOptionsError):
        pettingzoo_env(SW, players=8)
    with pytest.raises(InvalidOptionsError):
        pettingzoo_env(SW, players=3, reward="elo")
    with pytest.raises(InvalidOptionsError):
        pettingzoo_env(SW, players=3, sides="C")
    with pytest.raises(InvalidOptionsError):
        pettingzoo_env(SW, players=3, render_mode="rgb_array")
