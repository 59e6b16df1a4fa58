"""The OpenSpiel game (civtable.rl.spiel) of 7 Wonders, with explicit chance nodes."""

from __future__ import annotations

from collections import Counter

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from civtable.games.seven_wonders.catalog import DECKS, GUILDS, GUILDS_DRAWN  # noqa: E402
from civtable.rl import openspiel_game  # noqa: E402
from civtable.rl.spiel import CivtableState, short_name  # noqa: E402
from tests.rl.helpers import SW  # noqa: E402


def _sample_chance(state, rs):
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return int(rs.choice(actions, p=np.asarray(probs) / sum(probs)))


def _play_random(game, seed, stop=None):
    """Random play (chance by its probabilities); stop early when ``stop(state)`` is true."""
    rs = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            state.apply_action(_sample_chance(state, rs))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", range(2, 8))
def test_openspiel_random_sim_test_passes(players):
    game = openspiel_game(SW, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 3, verbose=False)


def test_registered_name_and_load_game():
    assert short_name(SW) == "python_civtable_seven_wonders"
    openspiel_game(SW, players=3)
    game = pyspiel.load_game("python_civtable_seven_wonders", {"players": 4, "sides": "A"})
    assert game.num_players() == 4
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    state = game.new_initial_state()
    # sides are fixed: the first chance decisions choose the boards
    assert state.is_chance_node()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 7] * 7)


def test_sw_2_5_sw_2_6_fixed_boards_and_sides_skip_their_chance_nodes():
    boards = "alexandria,babylon,ephesus"
    game = openspiel_game(SW, players=3, boards=boards, sides="B")
    state = game.new_initial_state()
    # straight to the Age I deal: 21 cards, the first from the whole age deck
    outcomes = dict(state.chance_outcomes())
    deck = Counter(DECKS[(1, 3)])
    assert outcomes == pytest.approx({t: k / 21 for t, k in deck.items()})
    view = state.engine.view(None)
    assert [c["board"] for c in view["cities"]] == boards.split(",")
    assert {c["side"] for c in view["cities"]} == {"B"}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_sw_2_3_sw_3_2_deals_are_the_age_decks_with_the_drawn_guilds(players):
    game = openspiel_game(SW, players=players)
    deck_players = 3 if players == 2 else players
    cities = 3 if players == 2 else players
    for age in (1, 2, 3):
        state = _play_random(
            game,
            seed=age,
            stop=lambda s, age=age: (
                s.engine is not None and s.engine.age == age and not s.is_chance_node()
            ),
        )
        dealt = Counter(t for hand in state.engine.hands for t in hand)
        guilds = Counter({t: k for t, k in dealt.items() if t in GUILDS})
        assert dealt - guilds == Counter(DECKS[(age, deck_players)])
        assert sum(guilds.values()) == (GUILDS_DRAWN[deck_players] if age == 3 else 0)
        assert max(guilds.values(), default=1) == 1
        sizes = sorted(len(h) for h in state.engine.hands)
        # SW-14.4.1: in the 2-player game the controller holds the Free City's card
        assert sizes == ([6, 7, 8] if players == 2 else [7] * cities)


def test_chance_probabilities_sum_to_one_during_the_age_3_deal():
    game = openspiel_game(SW, players=4)
    state = _play_random(game, seed=9, stop=lambda s: s.engine is not None and s.engine.age == 3)
    seen = 0
    rs = np.random.RandomState(0)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(p > 0 for _, p in outcomes)
        assert [a for a, _ in outcomes] == sorted(a for a, _ in outcomes)
        state.apply_action(_sample_chance(state, rs))
        seen += 1
    assert seen == 28


def test_the_history_determines_the_state():
    game = openspiel_game(SW, players=3)
    state = _play_random(game, seed=4)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.is_terminal()
    assert str(replay) == str(state)
    assert replay.returns() == state.returns()


def test_sw_13_3_returns_split_the_win():
    game = openspiel_game(SW, players=3)
    state = _play_random(game, seed=6)
    result = state.engine.result()
    share = 1.0 / len(result.winners)
    assert state.returns() == [share if s in result.winners else 0.0 for s in range(3)]
    assert sum(state.returns()) == pytest.approx(1.0)


def test_sw_3_9_strings_and_tensors_come_from_the_seat_view():
    game = openspiel_game(SW, players=3)
    state = _play_random(game, seed=2, stop=lambda s: s.move_number() > 80)
    assert not state.is_chance_node()
    seat = state.current_player()
    other = (seat + 1) % 3
    own = state.engine.view(seat)["hand"]
    text = state.observation_string(seat)
    assert all(cid in text for cid in own)
    assert state.information_state_string(seat).startswith(text)
    assert "recall:" in state.information_state_string(seat)
    assert state.observation_string(seat) != state.observation_string(other)
    tensor = np.asarray(state.observation_tensor(seat))
    assert tensor.shape == tuple(game.observation_tensor_shape())
    assert np.asarray(state.information_state_tensor(seat)).shape == tensor.shape


def test_sw_3_9_resampling_keeps_the_information_state_and_redeals_hidden_cards():
    game = openspiel_game(SW, players=4)
    changed = 0
    for seed in range(3):
        state = _play_random(game, seed=seed, stop=lambda s: s.move_number() > 150)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        seat = state.current_player()
        key = state.information_state_string(seat)
        for k in range(4):
            sampler = pyspiel.UniformProbabilitySampler(100 * seed + k, 0.0, 1.0)
            world = state.resample_from_infostate(seat, sampler)
            assert isinstance(world, CivtableState)
            assert world.current_player() == seat
            assert world.information_state_string(seat) == key
            assert world.legal_actions() == state.legal_actions()
            other = (seat + 1) % 4
            if world.engine.view(other)["hand"] != state.engine.view(other)["hand"]:
                changed += 1
    assert changed > 0


def test_openspiel_ismcts_plays_complete_games():
    game = openspiel_game(SW, players=3)
    seeds = iter(range(10**6))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
        uct_c=2.0,
        max_simulations=4,
        random_state=np.random.RandomState(5),
    )
    # a seeded resampler keeps the test deterministic (the default sampler is not seeded)
    bot.set_resampler(
        lambda s, p: s.resample_from_infostate(
            p, pyspiel.UniformProbabilitySampler(next(seeds), 0.0, 1.0)
        )
    )
    rs = np.random.RandomState(7)
    for _ in range(2):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(state, rs))
            else:
                action = int(bot.step(state))
                assert action in state.legal_actions()
                state.apply_action(action)
                decisions += 1
        assert decisions <= game.max_game_length()
        assert sum(state.returns()) == pytest.approx(1.0)
