"""Civilization: A New Dawn in the research interfaces: PettingZoo env, encoder, OpenSpiel game."""

from __future__ import annotations

import warnings
from collections import Counter

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from civtable import games  # noqa: E402
from civtable.core.rng import Rng  # noqa: E402
from civtable.games.civilization_a_new_dawn.catalog import (  # noqa: E402
    LEADERS,
    OPEN_BORDERS,
    VICTORY_CARDS,
    VICTORY_DRAW,
    WATER,
    WONDER_REMOVAL,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: E402, N812
from civtable.rl import openspiel_game, pettingzoo_env  # noqa: E402
from civtable.rl.encoders import encoder_for  # noqa: E402
from civtable.rl.encoders.civilization_a_new_dawn import HIGH  # noqa: E402
from civtable.rl.spiel import CivtableState  # noqa: E402
from tests.rl.helpers import (  # noqa: E402
    check_fast_path_in_any_order,
    play_random,
    random_positions,
    sample_chance,
)

GAME = "civilization-a-new-dawn"
#: a short game for the heavy OpenSpiel checks (the engine stops after these first-player turns)
SHORT = {"turn_limit": 6}


def _finish_setup(state, rs):
    labels = []
    while state.is_chance_node():
        action = sample_chance(state, rs)
        labels.append((state.chance_outcomes(), state.action_to_string(action)))
        state.apply_action(action)
    return labels


# --- PettingZoo ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes(players):
    env = pettingzoo_env(GAME, players=players, seed=players, render_mode="ansi", **SHORT)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env, num_cycles=60)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test_passes(players):
    seed_test(lambda: pettingzoo_env(GAME, players=players, seed=7), num_cycles=10)


def test_civ_26_2_every_env_observation_is_the_encoded_view():
    env = pettingzoo_env(GAME, players=3, seed=5, render_mode="ansi")
    env.reset()
    assert "Civilization: A New Dawn" in env.render()
    rng = Rng(6)
    checked = 0
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if checked < 300:
            for seat, other in enumerate(env.possible_agents):
                obs = env.observe(other)
                view = env.state.view(seat, labels=False)
                assert np.array_equal(obs["observation"], env.encoder.encode(view))
                legal = [a["id"] if isinstance(a, dict) else a for a in view.get("legal", [])]
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
                checked += 1
        env.step(rng.choice(env.state.legal_actions(env.possible_agents.index(agent))))
    assert checked >= 300
    assert env.state.is_terminal()


# --- the encoder ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_encoder_size_and_names_agree(players):
    for options, seed in (({}, 1), ({"map": "standard_random"}, 2)):
        encoder = encoder_for(GAME, players, options)
        names = encoder.feature_names()
        assert len(names) == encoder.size == len(set(names))
        state = games.get(GAME).new_game(players, seed, options)
        vec = encoder.encode(state.view(0))
        assert np.array_equal(vec, encoder.encode_state(state, 0))
        assert vec.shape == (encoder.size,)
        assert vec.dtype == np.float32
        assert len(state.view(0)["map"]["spaces"]) <= encoder.spaces


def test_civ_26_2_features_match_the_view():
    encoder = encoder_for(GAME, 3)
    names = encoder.feature_names()
    for state, seat in random_positions(game=GAME, players=3, seed=4, every=37):
        view = state.view(seat)
        vec = encoder.encode(view)
        control = view["board"]["control"]
        for s in range(len(control)):
            for k in range(3):
                expected = control[s] >= 0 and (control[s] - seat) % 3 == k
                assert vec[names.index(f"space{s}:control_{k}")] == expected
        for doc in view["player_state"]:
            k = (doc["seat"] - seat) % 3
            assert vec[names.index(f"player{k}:dial")] == doc["dial"]
            assert vec[names.index(f"player{k}:leader_{doc['leader']}")] == 1
            for slot, fid in enumerate(doc["row"]):
                assert vec[names.index(f"player{k}:slot{slot + 1}:{fid}")] == 1
        for t, deck in view["wonder_decks"].items():
            assert vec[names.index(f"wonder_deck_{t}_size")] == deck["size"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_civ_26_2_observation_ignores_the_face_down_wonders(players):
    """Re-dealing the face-down wonder cards and the ones removed unseen (determinize) leaves
    every seat's observation unchanged, and it does change the hidden order; the fast path
    ``encode_state`` equals encoding the view."""
    encoder = encoder_for(GAME, players)
    checked = changed = 0
    for state, _ in random_positions(game=GAME, players=players, seed=20 + players, every=7):
        for seat in range(players):
            vec = encoder.encode(state.view(seat, labels=False))
            assert np.array_equal(vec, encoder.encode_state(state, seat))
            if len(state.history) % 42:
                continue
            world = state.determinize(seat, Rng(checked))
            assert np.array_equal(vec, encoder.encode(world.view(seat, labels=False)))
            # the fast path too, with the encoder's memos last filled from the real state
            assert np.array_equal(vec, encoder.encode_state(world, seat))
            assert np.array_equal(vec, encoder.encode_state(state, seat))
            changed += world.wdecks != state.wdecks or world.wremoved != state.wremoved
            checked += 1
    assert checked > 10
    assert changed > 0


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"map": "standard_random"}), (4, {})]
)
def test_civ_26_2_fast_path_equals_the_view_in_any_order(players, options):
    """One encoder keeps what it made for each seat (space blocks, player blocks, mature
    cities) and redoes what changed since: over positions of two games, in play order and
    then shuffled (so each call starts from an unrelated position), every seat's
    ``encode_state`` equals encoding its view."""
    check_fast_path_in_any_order(GAME, players, options, (50 + players, 60 + players), 3, 7)


def test_civ_2_9_fast_path_follows_a_state_changed_in_place():
    """Changing the fields the encoder keeps blocks of in the same state object changes its
    observation like the view's; surrounding a city with its owner's control tokens makes it
    mature (CIV-2.9)."""
    encoder = encoder_for(GAME, 3)
    names = encoder.feature_names()
    states = random_positions(game=GAME, players=3, seed=8)
    state, seat = next(
        (st, seat)
        for st, seat in states[len(states) // 3 :]
        if any(o >= 0 and s not in C.mature_cities(st, o) for s, o in enumerate(st.city))
    )

    def check() -> np.ndarray:
        vec = encoder.encode_state(state, seat)
        assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))
        return vec

    check()
    s, o = next(
        (s, o) for s, o in enumerate(state.city) if o >= 0 and s not in C.mature_cities(state, o)
    )
    entry = names.index(f"player{(o - seat) % 3}:mature_cities")
    before = check()[entry]
    for n in state.board.adjacent[s]:
        if state.board.terrain[n] != WATER:
            state.tok[n] = o
    assert check()[entry] == before + 1
    state.wonder_owner[C.W["sydney_opera_house"]] = (o + 1) % 3
    state.pcard_holder[(o + 2) % 3][OPEN_BORDERS] = o
    check()
    state.cs_owner[0] = seat
    state.row[seat][0], state.row[seat][1] = state.row[seat][1], state.row[seat][0]
    state.reinf[s] = 1
    state.res[s] = 2
    state.wtok[s] = 3
    state.barb_pos[0] = s
    state.caravans[(seat + 1) % 3][0] = s
    check()


def test_civ_fast_path_writes_counts_beyond_a_byte_like_the_view():
    """Counts above 255 (up to HIGH) and below 0 (shown as 0) come out as encoding the view
    gives them."""
    encoder = encoder_for(GAME, 2)
    names = encoder.feature_names()
    state, seat = random_positions(game=GAME, players=2, seed=3)[60]
    assert state.pending
    state.fp_turns = 300
    state.pending[-1][2:4] = [-5, 2000]
    vec = encoder.encode_state(state, seat)
    assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))
    assert vec[names.index("first_player_turns")] == 300
    assert vec[names.index("pending_param_0")] == 0
    assert vec[names.index("pending_param_1")] == HIGH


# --- OpenSpiel -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_passes(players):
    game = openspiel_game(GAME, players=players, **SHORT)
    pyspiel.random_sim_test(game, num_sims=2, serialize=players == 2, verbose=False)


def test_civ_3_1_3_6_3_7_3_8_setup_draws_are_chance_decisions():
    game = openspiel_game(GAME, players=2)
    state = game.new_initial_state()
    rs = np.random.RandomState(2)
    # CIV-3.1: the leaders, an ordered sample without replacement
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / len(LEADERS)] * 8)
    first = sample_chance(state, rs)
    state.apply_action(first)
    second = dict(state.chance_outcomes())
    assert first not in second
    assert list(second.values()) == pytest.approx([1 / (len(LEADERS) - 1)] * 7)
    labels = _finish_setup(state, rs)
    engine = state.engine
    assert engine.leader[0] == first
    texts = [text for _, text in labels]
    # CIV-3.7: for 2 players one ancient and one medieval card per type are removed unseen
    removal = WONDER_REMOVAL[2]
    assert len(engine.wremoved) == 4 * sum(removal.values())
    assert Counter(w for deck in engine.wdecks for w in deck) + Counter(engine.wremoved) == (
        Counter(range(len(WONDERS)))
    )
    assert sum("wonder deck card" in text for text in texts) >= 12
    for deck in engine.wdecks:
        eras = [WONDERS[w].era for w in deck]
        assert eras == sorted(eras)  # ancient on top, then medieval, then modern
    # CIV-3.8: the victory cards, uniform without replacement
    victory = [o for o, text in labels if text.startswith("victory card")]
    assert [len(o) for o in victory] == [5, 4, 3][:VICTORY_DRAW]
    assert all(p == pytest.approx(1 / len(o)) for o in victory for _, p in o)
    assert len(engine.victory) == VICTORY_DRAW <= len(VICTORY_CARDS)
    # CIV-3.6: the first player (1/2) and the barbarian direction offset (1/6)
    setup_dice = [o for o, text in labels if text.startswith("setup:")]
    assert [len(o) for o in setup_dice] == [2, 6]


def test_civ_14_5_21_2_dice_are_chance_decisions_with_one_sixth_each():
    game = openspiel_game(GAME, players=2)
    rs = np.random.RandomState(4)
    state = game.new_initial_state()
    _finish_setup(state, rs)
    dice = 0
    while not state.is_terminal() and dice < 6:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == list(range(6))
            assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)
            assert state.action_to_string(0).startswith("die: 1")
            state.apply_action(sample_chance(state, rs))
            dice += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert dice == 6


@pytest.mark.parametrize("map_option", ["standard", "standard_random"])
def test_civ_4_standard_maps_are_dealt_by_chance_decisions(map_option):
    game = openspiel_game(GAME, players=3, map=map_option, **SHORT)
    state = play_random(game, seed=5, stop=lambda s: not s.is_chance_node())
    assert state.engine is not None
    placed = len(state.engine.board.placements)
    if map_option == "standard":  # CIV-4.4: the core is placed, the hands are the players'
        assert placed == 4
        assert state.engine.view(state.current_player())["pending"]["kind"].startswith("map")
    else:
        assert placed >= 4 + 3 * 2  # the core and the placed hands
    state = play_random(game, seed=5, stop=lambda s: s.move_number() > 120)
    encoder = encoder_for(GAME, 3, {"map": map_option})
    for seat in range(3):
        vec = encoder.encode(state.engine.view(seat, labels=False))
        assert np.array_equal(vec, encoder.encode_state(state.engine, seat))
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.engine.state_hash() == state.engine.state_hash()


def test_civ_the_history_determines_the_state():
    game = openspiel_game(GAME, players=3, turn_limit=12)
    state = play_random(game, seed=6)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.is_terminal()
    assert str(replay) == str(state)
    assert replay.engine.state_hash() == state.engine.state_hash()
    assert replay.returns() == state.returns()


def test_civ_26_2_resampling_keeps_the_information_state():
    game = openspiel_game(GAME, players=3)
    changed = 0
    for seed in range(2):
        state = play_random(game, seed=seed, stop=lambda s: s.move_number() > 150)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        seat = state.current_player()
        key = state.information_state_string(seat)
        for k in range(3):
            world = state.resample_from_infostate(
                seat, pyspiel.UniformProbabilitySampler(10 * seed + k, 0.0, 1.0)
            )
            assert isinstance(world, CivtableState)
            assert world.current_player() == seat
            assert world.information_state_string(seat) == key
            assert world.legal_actions() == state.legal_actions()
            changed += world.engine.wdecks != state.engine.wdecks
            world.apply_action(world.legal_actions()[-1])
    assert changed > 0


def test_openspiel_ismcts_plays_complete_games():
    game = openspiel_game(GAME, players=2, turn_limit=4)
    seeds = iter(range(10**6))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
        uct_c=2.0,
        max_simulations=3,
        random_state=np.random.RandomState(5),
    )
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
                state.apply_action(sample_chance(state, rs))
            else:
                action = int(bot.step(state))
                assert action in state.legal_actions()
                state.apply_action(action)
                decisions += 1
        assert 0 < decisions <= game.max_game_length()
        assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_civ_3_every_engine_setup_is_a_chance_history(players, seed):
    """Feeding the engine's own setup draws as chance outcomes (leaders, each wonder pile from
    the bottom up with the removed cards last, the victory cards, the first player and the
    barbarian token) rebuilds exactly the engine's setup: the chance model covers it."""
    dealt = games.get(GAME).new_game(players, seed)
    outcomes = list(dealt.leader)
    removed = list(dealt.wremoved)
    for t, deck in enumerate(dealt.wdecks):
        for era in range(3):
            pile = [w for w in removed if WONDERS[w].type == t and WONDERS[w].era == era]
            pile += [w for w in deck if WONDERS[w].era == era]
            outcomes += pile[::-1][:-1]  # the last card of a pile is forced
    outcomes += [*sorted(dealt.victory), dealt.first, dealt.barb_offset]
    state = openspiel_game(GAME, players=players).new_initial_state()
    for outcome in outcomes:
        assert state.is_chance_node()
        assert outcome in dict(state.chance_outcomes())
        state.apply_action(outcome)
    assert not state.is_chance_node()
    engine = state.engine
    assert engine.leader == dealt.leader
    assert engine.wdecks == dealt.wdecks
    assert engine.wremoved == dealt.wremoved
    assert engine.victory == dealt.victory
    assert (engine.first, engine.barb_offset) == (dealt.first, dealt.barb_offset)
    assert engine.view(0)["pending"] == dealt.view(0)["pending"]


def test_registered_name_and_load_game():
    openspiel_game(GAME, players=2)
    game = pyspiel.load_game(
        "python_civtable_civilization_a_new_dawn", {"players": 3, "leaders": "aztec,rome,egypt"}
    )
    assert game.num_players() == 3
    assert game.observation_tensor_size() == encoder_for(GAME, 3).size
    state = game.new_initial_state()
    # leaders are fixed: the first chance decisions are the wonder piles (CIV-3.7)
    assert "wonder deck card" in state.action_to_string(state.chance_outcomes()[0][0])
