"""Deus in the research interfaces: PettingZoo env, observation encoder, OpenSpiel game."""

from __future__ import annotations

import pickle
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
from civtable.games.deus.catalog import (  # noqa: E402
    BY_PLAYERS,
    CARDS,
    DECK,
    START_HAND,
    villages_adjacent,
)
from civtable.games.deus.state import BLIND_MARK, COLUMN_PH, PAY_PH, PLACE  # noqa: E402
from civtable.rl import openspiel_game, pettingzoo_env  # noqa: E402
from civtable.rl.chance import driver_for  # noqa: E402
from civtable.rl.encoders import encoder_for  # noqa: E402
from civtable.rl.spiel import CivtableState  # noqa: E402
from tests.rl.helpers import (  # noqa: E402
    check_fast_path_in_any_order,
    play_random,
    random_positions,
    sample_chance,
)

GAME = "deus"


def _cards_everywhere(engine):
    """Every card of the game wherever it is (hands, deck, discard, tableaux, offering, the card
    being built)."""
    cards = Counter()
    for hand in engine.hands:
        cards.update(hand)
    cards.update(engine.deck)
    cards.update(engine.discard)
    cards.update(engine.offer)
    if engine.phase in (COLUMN_PH, PAY_PH, PLACE):
        cards[engine.ctx[0]] += 1  # the card being built
    for cols in engine.cols:
        for col in cols:
            cards.update(t - BLIND_MARK if t >= BLIND_MARK else t for t in col)
    return cards


# --- PettingZoo ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes(players):
    env = pettingzoo_env(GAME, players=players, seed=players, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env, num_cycles=60)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test_passes(players):
    seed_test(lambda: pettingzoo_env(GAME, players=players, seed=7), num_cycles=10)


def test_deus_20_every_env_observation_is_the_encoded_view():
    env = pettingzoo_env(GAME, players=3, seed=5, blind_building=True)
    env.reset()
    rng = Rng(6)
    checked = 0
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if checked < 400:
            for seat, other in enumerate(env.possible_agents):
                obs = env.observe(other)
                view = env.state.view(seat, labels=False)
                assert np.array_equal(obs["observation"], env.encoder.encode(view))
                legal = [a["id"] for a in view["legal"]]
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
                checked += 1
        env.step(rng.choice(env.state.legal_actions(env.possible_agents.index(agent))))
    assert checked >= 400
    assert env.state.is_terminal()


def test_deus_19_score_rewards_and_render():
    env = pettingzoo_env(GAME, players=2, seed=3, reward="score", render_mode="ansi")
    env.reset()
    assert "Deus · round 1" in env.render()
    assert "Player 1's hand" in env.render()
    rng = Rng(3)
    final = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        env.step(rng.choice(env.state.legal_actions(env.possible_agents.index(agent))))
    scores = env.state.result().scores
    assert [final[a] for a in env.possible_agents] == [float(s) for s in scores]


# --- the encoder ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_encoder_size_and_names_agree(players):
    encoder = encoder_for(GAME, players)
    names = encoder.feature_names()
    assert len(names) == encoder.size == len(set(names))
    state = games.get(GAME).new_game(players, 1)
    vec = encoder.encode(state.view(0))
    assert vec.shape == (encoder.size,)
    assert vec.dtype == np.float32
    # a random board has the same number of regions (7 per tile, DEUS-3.1)
    other = games.get(GAME).new_game(players, 2, {"board": "random"})
    assert encoder.encode(other.view(1)).shape == (encoder.size,)
    assert encoder.regions == 7 * len(BY_PLAYERS[players].slots)


def test_deus_20_features_match_the_view():
    encoder = encoder_for(GAME, 3)
    names = encoder.feature_names()
    for state, seat in random_positions(game=GAME, players=3, seed=4, every=23):
        view = state.view(seat)
        vec = encoder.encode(view)
        hand = Counter(view["hand"])
        for c in CARDS:
            assert vec[names.index(f"hand:{c.id}")] == hand.get(c.id, 0)
        for doc in view["player_states"]:
            k = (doc["seat"] - seat) % 3
            assert vec[names.index(f"player{k}:gold")] == doc["gold"]
            assert vec[names.index(f"player{k}:hand_size")] == doc["hand_size"]
            assert vec[names.index(f"player{k}:vp_known")] == (doc["vp"] is not None)
            assert vec[names.index(f"player{k}:vp_known")] == (k == 0)
        assert vec[names.index("deck_size")] == view["deck_size"]
        for r, doc in enumerate(view["regions"]):
            owner = doc["owner"]
            for k in range(3):
                expected = owner is not None and (owner - seat) % 3 == k
                assert vec[names.index(f"region{r}:owner_{k}")] == expected


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"blind_building": True}), (4, {"free_start": 8, "blind_building": True})],
)
def test_deus_20_1_observation_ignores_what_the_seat_cannot_see(players, options):
    """Re-dealing everything the seat cannot see (others' hands and blind cards, the deck, the
    discard pile under its top card, free-start picks) leaves its observation unchanged; the
    fast path ``encode_state`` equals encoding the view."""
    encoder = encoder_for(GAME, players, options)
    checked = 0
    for state, _ in random_positions(
        game=GAME, players=players, seed=10 + players, every=3, **options
    ):
        for seat in range(players):
            vec = encoder.encode(state.view(seat, labels=False))
            assert np.array_equal(vec, encoder.encode_state(state, seat))
            if len(state.history) % 9:
                continue
            for k in range(2):
                world = state.determinize(seat, Rng(100 * checked + k))
                assert np.array_equal(vec, encoder.encode(world.view(seat, labels=False)))
                # the fast path too, with the encoder's memos last filled from the real state
                assert np.array_equal(vec, encoder.encode_state(world, seat))
                assert np.array_equal(vec, encoder.encode_state(state, seat))
            checked += 1
    assert checked > 60


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"public_vp": True}),
        (3, {"board": "random", "blind_building": True}),
        (4, {"free_start": 6, "blind_building": True}),
    ],
)
def test_deus_20_fast_path_equals_the_view_in_any_order(players, options):
    """One encoder keeps what it made for each seat (region blocks, built cards) and redoes
    what changed since: over positions of two games, in play order and then shuffled (so
    each call starts from an unrelated position), every seat's ``encode_state`` equals
    encoding its view."""
    check_fast_path_in_any_order(GAME, players, options, (30 + players, 40 + players), 2, 5)


def test_deus_20_fast_path_follows_a_state_changed_in_place():
    """Changing the fields the encoder keeps blocks of (owners, pieces, villages, columns,
    hands) in the same state object changes its observation like the view's."""
    encoder = encoder_for(GAME, 3, {"blind_building": True})
    state, seat = random_positions(game=GAME, players=3, seed=9, blind_building=True)[120]
    names = encoder.feature_names()

    def check() -> np.ndarray:
        vec = encoder.encode_state(state, seat)
        assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))
        return vec

    before = check()
    r = state.owner.index(-1)
    state.owner[r], state.mask[r] = (seat + 1) % 3, 0b100001  # a civ piece and a temple
    vec = check()
    assert vec[names.index(f"region{r}:owner_1")] == 1
    assert vec[names.index(f"region{r}:piece_temple")] == 1
    state.vvp[0] += 3
    state.vatt[0] = 1 - state.vatt[0]
    check()
    other = (seat + 2) % 3
    state.cols[other][0].append(BLIND_MARK + 5)  # a blind card: counted per colour only
    vec = check()
    assert vec[names.index("player2:blind_brown")] == before[names.index("player2:blind_brown")] + 1
    state.cols[seat][1].append(7)
    vec = check()
    assert vec[names.index(f"player0:built:{CARDS[7].id}")] >= 1
    state.hands[seat].append(state.hands[seat][0])
    vec = check()
    assert vec[names.index(f"hand:{CARDS[state.hands[seat][0]].id}")] >= 2


def test_deus_20_fast_path_memos_follow_in_place_edits_for_every_seat():
    """Every field a memo of ``encode_state`` is kept with (owners, pieces, village VP and
    attacks, columns, hands, the decision's ``ctx``, the offering) changed in place is seen by
    every seat, the memos having been filled for all seats just before; VP below 0 reads 0."""
    encoder = encoder_for(GAME, 4, {"blind_building": True})
    names = encoder.feature_names()
    positions = random_positions(game=GAME, players=4, seed=12, blind_building=True)
    state, seat = next((st, s) for st, s in positions[40:] if st.phase == PLACE)

    def check_all() -> list[np.ndarray]:
        vecs = [encoder.encode_state(state, s) for s in range(4)]
        for s, vec in enumerate(vecs):
            assert np.array_equal(vec, encoder.encode(state.view(s, labels=False)))
        return vecs

    before = check_all()
    r = state.owner.index(-1)
    state.owner[r] = 2
    after = check_all()
    for s in range(4):  # the region's owner, relative to each seat
        assert after[s][names.index(f"region{r}:owner_{(2 - s) % 4}")] == 1
        assert before[s][names.index(f"region{r}:owner_{(2 - s) % 4}")] == 0
    state.mask[r] |= 0b000010
    check_all()
    state.vvp[1] += 2
    check_all()
    state.vatt[1] = 1 - state.vatt[1]
    check_all()
    state.cols[3][2].append(BLIND_MARK + 9)
    check_all()
    state.hands[seat].pop()
    check_all()
    blind = names.index("pending_blind")
    state.ctx[2] = 1 - state.ctx[2]  # the piece being placed comes from a blind build or not
    vec = check_all()[seat]
    assert vec[blind] == state.ctx[2] != before[seat][blind]
    state.vp[seat] = -5
    assert check_all()[seat][names.index("player0:vp")] == 0


def test_deus_20_fast_path_after_pickling():
    """A pickled encoder (its packers are remade) encodes like the original."""
    encoder = encoder_for(GAME, 3)
    positions = random_positions(game=GAME, players=3, seed=6, every=17)
    for state, seat in positions[:5]:
        encoder.encode_state(state, seat)
    copy = pickle.loads(pickle.dumps(encoder))
    for state, seat in positions:
        assert np.array_equal(copy.encode_state(state, seat), encoder.encode_state(state, seat))
        assert np.array_equal(copy.encode_state(state, seat), encoder.encode(state.view(seat)))


def test_deus_20_1_another_seats_hand_changes_only_its_own_observation():
    encoder = encoder_for(GAME, 2)
    state = games.get(GAME).new_game(2, 8)
    before = [encoder.encode(state.view(s)) for s in range(2)]
    hands = state.hands
    hands[1][0] = next(t for t in range(len(CARDS)) if t not in hands[1])
    assert np.array_equal(before[0], encoder.encode(state.view(0)))
    assert not np.array_equal(before[1], encoder.encode(state.view(1)))


def test_deus_20_fast_path_clips_like_the_view():
    """Entries beyond a byte (gold above 255, a negative VP) are clipped to [0, 255] as
    encoding the view clips them."""
    encoder = encoder_for(GAME, 2, {"public_vp": True})
    names = encoder.feature_names()
    state, seat = random_positions(game=GAME, players=2, seed=5, public_vp=True)[40]
    state.gold[seat] = 300
    state.vp[1 - seat] = -4
    vec = encoder.encode_state(state, seat)
    assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))
    assert vec[names.index("player0:gold")] == 255
    assert vec[names.index("player1:vp")] == 0
    assert vec[names.index("player1:vp_known")] == 1


# --- OpenSpiel -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_passes(players):
    game = openspiel_game(GAME, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 2, verbose=False)


def test_deus_4_6_the_deck_is_dealt_card_by_card_with_its_copies_as_weights():
    game = openspiel_game(GAME, players=3)
    state = game.new_initial_state()
    copies = Counter(DECK)
    assert dict(state.chance_outcomes()) == pytest.approx(
        {t: k / len(DECK) for t, k in copies.items()}
    )
    rs = np.random.RandomState(1)
    drawn = []
    while state.is_chance_node():
        outcomes = dict(state.chance_outcomes())
        left = copies - Counter(drawn)
        assert outcomes == pytest.approx({t: k / left.total() for t, k in left.items()})
        action = sample_chance(state, rs)
        state.apply_action(action)
        drawn.append(action)
    engine = state.engine
    # seat 0 gets the first five cards drawn, seat 1 the next five, ... (DEUS-4.6)
    for seat in range(3):
        assert engine.hands[seat] == drawn[START_HAND * seat : START_HAND * (seat + 1)]
    assert Counter(engine.deck) == copies - Counter(drawn[: 3 * START_HAND])
    assert len(drawn) >= len(DECK) - 10  # the last cards are forced when one kind is left


def test_deus_4_7_3_5_random_first_player_and_board_are_chance_decisions():
    game = openspiel_game(GAME, players=4, board="random", first_player="random")
    rs = np.random.RandomState(3)
    state = game.new_initial_state()
    # the board's tiles first: an ordered sample of the seven physical tiles
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 7] * 7)
    labels = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        if len(outcomes) == 4 and "first player" in state.action_to_string(outcomes[0][0]):
            assert [p for _, p in outcomes] == pytest.approx([0.25] * 4)
        action = sample_chance(state, rs)
        labels.append(state.action_to_string(action))
        state.apply_action(action)
    assert any(lab.startswith("first player: seat") for lab in labels)
    assert any("rotation" in lab for lab in labels)
    engine = state.engine
    assert not villages_adjacent(engine.board)
    assert (
        engine.cur
        == engine.first
        == int(next(lab for lab in labels if lab.startswith("first player")).split()[3])
    )


def test_deus_7_8_reshuffles_are_chance_decisions_and_no_card_is_lost():
    game = openspiel_game(GAME, players=4)
    rs = np.random.RandomState(11)
    state = game.new_initial_state()
    reshuffles = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if state.engine is not None:  # mid-game: a reshuffle of the discard pile
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert "reshuffled deck" in state.action_to_string(outcomes[0][0])
                if state.engine.discard:
                    reshuffles += 1
            state.apply_action(sample_chance(state, rs))
            continue
        assert _cards_everywhere(state.engine) == Counter(DECK)
        state.apply_action(int(rs.choice(state.legal_actions())))
    assert reshuffles > 0


def test_deus_the_history_determines_the_state():
    game = openspiel_game(GAME, players=2, blind_building=True)
    state = play_random(game, seed=4)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.is_terminal()
    assert str(replay) == str(state)
    assert replay.engine.state_hash() == state.engine.state_hash()
    assert replay.returns() == state.returns()
    assert sum(state.returns()) == pytest.approx(1.0)


def test_deus_20_resampling_keeps_the_information_state():
    game = openspiel_game(GAME, players=3)
    changed = 0
    for seed in range(2):
        state = play_random(game, seed=seed, stop=lambda s: s.move_number() > 200)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        seat = state.current_player()
        key = state.information_state_string(seat)
        tensor = state.observation_tensor(seat)
        for k in range(3):
            world = state.resample_from_infostate(
                seat, pyspiel.UniformProbabilitySampler(10 * seed + k, 0.0, 1.0)
            )
            assert isinstance(world, CivtableState)
            assert world.current_player() == seat
            assert world.information_state_string(seat) == key
            assert world.observation_tensor(seat) == tensor
            assert world.legal_actions() == state.legal_actions()
            other = (seat + 1) % 3
            changed += world.engine.hands[other] != state.engine.hands[other]
            # the resampled world plays on with explicit chance
            world.apply_action(world.legal_actions()[0])
    assert changed > 0


def test_driver_copy_is_independent():
    driver = driver_for(GAME, 2, {})
    rs = np.random.RandomState(0)
    while driver.pending():
        actions, probs = zip(*driver.outcomes(), strict=True)
        driver.apply(int(rs.choice(actions, p=probs)))
    twin = driver.copy()
    seat = driver.state.cur
    twin.state.apply(seat, twin.state.legal_actions(seat)[0])
    twin.after_move()
    assert driver.state.history == []
    with pytest.raises(ValueError, match="no chance decision"):
        driver.apply(0)  # no chance decision is due


class _UniformEvaluator(mcts.Evaluator):
    """No rollouts (Deus games are long): value 0, uniform priors."""

    def evaluate(self, state):
        return np.zeros(state.num_players())

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def test_openspiel_ismcts_plays_a_complete_game():
    game = openspiel_game(GAME, players=2)
    seeds = iter(range(10**6))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=_UniformEvaluator(),
        uct_c=2.0,
        max_simulations=2,
        random_state=np.random.RandomState(5),
    )
    bot.set_resampler(
        lambda s, p: s.resample_from_infostate(
            p, pyspiel.UniformProbabilitySampler(next(seeds), 0.0, 1.0)
        )
    )
    rs = np.random.RandomState(7)
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


@pytest.mark.parametrize("seed", [0, 1])
def test_deus_4_6_every_engine_deal_is_a_chance_history(seed):
    """Feeding the engine's own deal (hands, then the deck from the top) as chance outcomes
    gives exactly the engine's hands and deck: the chance model covers the engine's setup."""
    dealt = games.get(GAME).new_game(3, seed)
    order = [t for hand in dealt.hands for t in hand] + dealt.deck[::-1]
    state = openspiel_game(GAME, players=3).new_initial_state()
    for t in order:
        if not state.is_chance_node():
            break  # the rest was forced (a single card type left)
        assert t in dict(state.chance_outcomes())
        state.apply_action(t)
    assert state.engine.hands == dealt.hands
    assert state.engine.deck == dealt.deck


def test_registered_name_and_load_game():
    openspiel_game(GAME, players=2)
    game = pyspiel.load_game("python_civtable_deus", {"players": 4, "blind_building": True})
    assert game.num_players() == 4
    assert game.num_distinct_actions() == games.get(GAME).action_space_size(4)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.observation_tensor_size() == encoder_for(GAME, 4).size
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.engine is None  # the deck is still to be shuffled (DEUS-4.6)
