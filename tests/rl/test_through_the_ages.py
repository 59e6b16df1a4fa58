"""Through the Ages in the research interfaces: PettingZoo env, observation encoder, OpenSpiel."""

from __future__ import annotations

import shutil
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
from civtable.games.through_the_ages.actions import RESIGN  # noqa: E402
from civtable.games.through_the_ages.catalog import (  # noqa: E402
    BY_ID,
    CARDS,
    INITIAL_EVENTS,
    ROW_SLOTS,
    civil_deck,
    military_deck,
)
from civtable.games.through_the_ages.state import F_RESIGNED  # noqa: E402
from civtable.rl import openspiel_game, pettingzoo_env  # noqa: E402
from civtable.rl.chance import driver_for  # noqa: E402
from civtable.rl.chance.through_the_ages import setup_with  # noqa: E402
from civtable.rl.encoders import encoder_for  # noqa: E402
from civtable.rl.encoders.through_the_ages import CIVIL, MILITARY  # noqa: E402
from civtable.rl.spiel import CivtableState  # noqa: E402
from tests.rl.helpers import play_random, random_positions, sample_chance  # noqa: E402

GAME = "through-the-ages"
FIRST = {"mode": "first"}  # the chance-model tests that follow the first game's decks
#: encode_state's two ways to assemble the vector: the C extension and the pure-Python path
PATHS = ("c", "python")


def _encoder(players, path):
    """A Through the Ages encoder whose ``encode_state`` takes ``path`` (``"c"`` is skipped
    only on a machine without a C compiler, where the install cannot build the extension)."""
    encoder = encoder_for(GAME, players)
    if path == "python":
        encoder.plan = None
    elif encoder.plan is None:
        if not any(map(shutil.which, ("cc", "gcc", "clang"))):
            pytest.skip("no C compiler: the install could not build the C extension _tta_fast")
        pytest.fail("the C extension _tta_fast was not built (see the install's output)")
    return encoder


def _military_everywhere(engine, age):
    """Every military card of ``age`` wherever it can be (deck, discards, hands, in play as a
    tactic)."""
    cards = Counter(engine.mil_decks[age])
    cards.update(engine.mil_discards[age])
    for civ in engine.civs:
        cards.update(c for c in civ.mhand if CARDS[c].age == age)
    return cards


# --- PettingZoo ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes(players):
    env = pettingzoo_env(GAME, players=players, seed=players, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env, num_cycles=40)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test_passes(players):
    seed_test(lambda: pettingzoo_env(GAME, players=players, seed=7), num_cycles=10)


def test_tta_3_3_every_env_observation_is_the_encoded_view():
    env = pettingzoo_env(GAME, players=3, seed=5)
    env.reset()
    rng = Rng(6)
    checked = 0
    for agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if checked < 150:
            for seat, other in enumerate(env.possible_agents):
                obs = env.observe(other)
                view = env.state.view(seat, labels=False)
                assert np.array_equal(obs["observation"], env.encoder.encode(view))
                legal = [env.actions.to_env(a["id"]) for a in view["legal"]]
                assert np.flatnonzero(obs["action_mask"]).tolist() == legal
                checked += 1
        seat = env.possible_agents.index(agent)
        env.step(env.actions.to_env(rng.choice(env.state.legal_actions(seat))))
    assert checked >= 150
    assert env.state.is_terminal()


def test_tta_14_score_rewards_and_render():
    env = pettingzoo_env(GAME, players=2, seed=3, reward="score", render_mode="ansi")
    env.reset()
    text = env.render()
    assert "Through the Ages · round 1 · Age A" in text
    assert f"Player {env.state.current}'s military hand" in text
    rng = Rng(3)
    final = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        env.step(env.actions.to_env(rng.choice(env.state.legal_actions(seat))))
    scores = env.state.result().scores
    assert [final[a] for a in env.possible_agents] == [float(s) for s in scores]
    assert "winners" in env.render()


# --- the encoder ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_encoder_size_names_and_bounds(players):
    encoder = encoder_for(GAME, players)
    names = encoder.feature_names()
    assert len(names) == encoder.size == len(set(names))
    for state, seat in random_positions(game=GAME, players=players, seed=players, every=17):
        vec = encoder.encode(state.view(seat))
        assert vec.shape == (encoder.size,)
        assert vec.dtype == np.float32
        assert vec.min() >= 0.0
        assert vec.max() <= encoder.high


def test_tta_2_3_3_3_features_match_the_view():
    encoder = encoder_for(GAME, 3)
    names = encoder.feature_names()
    for state, seat in random_positions(game=GAME, players=3, seed=4, every=19):
        view = state.view(seat)
        vec = encoder.encode(view)
        for slot, card in enumerate(view["row"]):
            row = vec[names.index(f"row{slot}:{CIVIL.ids[0]}") :][: CIVIL.size]
            assert row.sum() == (card is not None)
            if card is not None:
                assert vec[names.index(f"row{slot}:{card}")] == 1
                assert vec[names.index(f"row_cost_{slot}")] == view["row_costs"][slot]
        mine = Counter(view["military_hand"])
        assert set(mine) <= set(MILITARY.ids)
        for c in MILITARY.ids:
            assert vec[names.index(f"military_hand:{c}")] == mine.get(c, 0)
        for doc in view["civs"]:
            k = (doc["seat"] - seat) % 3
            assert vec[names.index(f"civ{k}:culture")] == doc["culture"]
            assert vec[names.index(f"civ{k}:military_hand_size")] == doc["military_hand_size"]
            assert vec[names.index(f"civ{k}:play:{doc['government']}")] >= 1
            hand = Counter(doc["hand"])  # civil hands are public (TTA-3.3)
            assert set(hand) <= set(CIVIL.ids)
            for c in CIVIL.ids:
                assert vec[names.index(f"civ{k}:hand:{c}")] == hand.get(c, 0)
        assert vec[names.index("current_events")] == view["current_events"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tta_3_3_observation_ignores_what_the_seat_cannot_see(players):
    """Re-dealing what the seat cannot see (others' military hands, the deck orders, the face-down
    discards, the current events) leaves its observation unchanged; ``encode_state`` equals
    encoding the view."""
    encoder = encoder_for(GAME, players)
    checked = 0
    positions = random_positions(
        game=GAME, players=players, seed=10 + players, every=5, avoid=frozenset({RESIGN})
    )
    for state, _ in positions:
        for seat in range(players):
            vec = encoder.encode(state.view(seat, labels=False))
            assert np.array_equal(vec, encoder.encode_state(state, seat))
            for k in range(2):
                world = state.determinize(seat, Rng(100 * checked + k))
                assert np.array_equal(vec, encoder.encode(world.view(seat, labels=False)))
            checked += 1
    assert checked > 40


def test_tta_6_politics_block_reads_the_view_and_survives_unknown_pending_kinds():
    """The deciding seat (``actor``), Joan of Arc's peek (TTA-6.1), a pact offer's side
    (TTA-6.6) and the pending kinds: a kind the encoder does not know lands in "other"."""
    encoder = encoder_for(GAME, 3)
    names = encoder.feature_names()
    state, seat = next(iter(random_positions(game=GAME, players=3, seed=2)))
    view = state.view(seat, labels=False)
    vec = encoder.encode(view)
    actor = (view["actor"] - seat) % 3
    assert [vec[names.index(f"decider_{k}")] for k in range(3)] == [k == actor for k in range(3)]
    assert vec[names.index("pending2_other")] == 0
    card = next(c.id for c in CARDS if c.type == "event")
    detail = {"kind": "accept", "seat": seat, "offerer": (seat + 2) % 3, "offerer_side": "B"}
    vec = encoder.encode({**view, "pending_detail": detail, "top_current_event": card})
    assert vec[names.index("pending2_accept")] == 1
    assert vec[names.index("pending_offer_side")] == 2
    assert vec[names.index("pending_other_2")] == 1
    assert vec[names.index(f"top_current_event:{card}")] == 1
    vec = encoder.encode({**view, "pending_detail": {"kind": "something new", "seat": seat}})
    assert vec[names.index("pending2_other")] == 1
    assert sum(vec[names.index(f"pending_{p}")] for p in ("none", "perform", "discard")) == 0


def test_tta_3_3_another_seats_military_hand_changes_only_its_own_observation():
    encoder = encoder_for(GAME, 2)
    state, _ = next(
        (s, seat)
        for s, seat in random_positions(game=GAME, players=2, seed=8)
        if s.civs[1].mhand and s.civs[0].mhand
    )
    before = [encoder.encode(state.view(s)) for s in range(2)]
    hand = state.civs[1].mhand
    hand[0] = next(c.idx for c in CARDS if c.deck == "military" and c.idx not in hand)
    state._legal = None
    assert np.array_equal(before[0], encoder.encode(state.view(0)))
    assert not np.array_equal(before[1], encoder.encode(state.view(1)))


def _positions_in_order(players, seed, mode):
    """(state copy, seat to move) at every decision of one random game that never resigns."""
    return random_positions(
        game=GAME, players=players, seed=seed, avoid=frozenset({RESIGN}), mode=mode
    )


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("mode", ["first", "full", "shorter"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tta_3_3_encode_state_is_the_encoded_view_at_every_decision(players, mode, path):
    """``encode_state`` (the environments' path, which keeps blocks between calls) equals
    encoding ``view(seat)`` for every seat at every decision of a game, one encoder seeing
    the positions in game order as an environment does (TTA-3.3: what the seat may see),
    with the vector assembled in C and in Python."""
    encoder = _encoder(players, path)
    positions = _positions_in_order(players, 20 + players, mode)
    assert len(positions) > 150
    for state, to_move in positions:
        for seat in (to_move, *(s for s in range(players) if s != to_move)):
            expected = encoder.encode(state.view(seat, labels=False))
            assert np.array_equal(encoder.encode_state(state, seat), expected)


@pytest.mark.parametrize("path", PATHS)
def test_tta_card_blocks_hold_only_their_cards_and_refuse_others(path):
    """Each per-card block lists only the cards that can appear in it (the row and civil hands:
    civil cards; the military hand: military cards; past and face-up events: events and
    territories...); a card that cannot appear is an error on both paths, never a silently
    wrong entry."""
    assert set(CIVIL.ids) == {c.id for c in CARDS if c.deck == "civil"}
    assert set(MILITARY.ids) == {c.id for c in CARDS if c.deck == "military"}
    assert encoder_for(GAME, 4).size < 4300  # 14 404 with a block per card index before
    encoder = _encoder(2, path)
    state, seat = _positions_in_order(2, 5, "full")[10]
    board_tech = next(c for c in CARDS if c.deck == "board")
    view = state.view(seat, labels=False)
    doc = {**view["civs"][0], "hand": [*view["civs"][0]["hand"], board_tech.id]}
    with pytest.raises(KeyError):
        encoder.encode({**view, "civs": [doc, *view["civs"][1:]]})
    state.civs[seat].hand.append(board_tech.idx)
    with pytest.raises(TypeError):
        encoder.encode_state(state, seat)


@pytest.mark.parametrize("path", PATHS)
def test_tta_encode_state_keeps_nothing_stale_between_games_and_in_place_changes(path):
    """One encoder alternating between two games, and in-place changes of a civilization's
    lists and ints (the engine's way), still gives the encoded view."""
    encoder = _encoder(3, path)
    a = _positions_in_order(3, 31, "full")
    b = _positions_in_order(3, 32, "full")
    for (sa, seat_a), (sb, seat_b) in zip(a[::3], b[::3], strict=False):
        for state, seat in ((sa, seat_a), (sb, seat_b), (sa, (seat_a + 1) % 3)):
            expected = encoder.encode(state.view(seat, labels=False))
            assert np.array_equal(encoder.encode_state(state, seat), expected)
    state, seat = a[len(a) // 2]
    civ = state.civs[seat]

    def first(kind, tech_type=None, deck=None):
        return next(
            c.idx
            for c in CARDS
            if c.type == kind and tech_type in (None, c.tech_type) and deck in (None, c.deck)
        )

    wonder = first("wonder")
    edits = [  # every field the kept blocks depend on, one at a time
        lambda: civ.hand.append(first("technology", "urban", "civil")),
        lambda: civ.workers.__setitem__(0, civ.workers[0] + 1),
        lambda: civ.developed.append(first("technology", "unit")),
        lambda: civ.cubes.__setitem__(4, civ.cubes[4] + 2),
        lambda: setattr(civ, "ca", civ.ca + 1),
        lambda: setattr(civ, "yellow", civ.yellow + 1),
        lambda: civ.wonders.append(wonder),
        lambda: civ.ruins.append(first("wonder")),
        lambda: setattr(civ, "homer_wonder", wonder),
        lambda: setattr(civ, "tactic", first("tactic")),
        lambda: civ.colonies.append(BY_ID["strategic_territory_i"]),  # strength
        lambda: civ.pside.append(2 * BY_ID["international_tourism"]),  # culture = xculture
        lambda: setattr(civ, "xculture", civ.xculture + 2),
        lambda: setattr(civ, "leader", first("leader")),
        lambda: civ.special.__setitem__(0, first("technology", "special")),
        lambda: setattr(civ, "gov", first("technology", "government")),
        lambda: setattr(civ, "replaced_leader", 1),
        lambda: state.row.__setitem__(3, -1),
        lambda: state.row.__setitem__(5, wonder),
        # Taj Mahal is cheaper to take after a leader replacement: the row costs change
        lambda: state.row.__setitem__(7, BY_ID["taj_mahal"]),
        lambda: setattr(civ, "replaced_leader", 0),
        lambda: setattr(civ, "replaced_leader", 1),
        lambda: civ.ruins.append(wonder),  # a wonder costs more per wonder built (TTA-3.2)
    ]
    for edit in edits:
        encoder.encode_state(state, seat)  # kept blocks of the state before the edit
        edit()
        for s in range(3):
            expected = encoder.encode(state.view(s, labels=False))
            assert np.array_equal(encoder.encode_state(state, s), expected)


@pytest.mark.parametrize("players", [2, 4])
def test_tta_14_encode_state_at_the_end_of_the_game_is_the_encoded_view(players):
    """After the last decision (game over: no seat decides, the turn block's game-over
    flag), the observation every seat gets is still its encoded view."""
    env = pettingzoo_env(GAME, players=players, seed=11)
    env.reset()
    rng = Rng(12)
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            break
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    state = env.state
    assert state.is_terminal()
    names = env.encoder.feature_names()
    for seat, agent in enumerate(env.possible_agents):
        vec = env.observe(agent)["observation"]
        assert vec[names.index("terminal")] == 1
        assert not vec[[names.index(f"decider_{k}") for k in range(players)]].any()
        assert np.array_equal(vec, env.encoder.encode(state.view(seat, labels=False)))


@pytest.mark.parametrize("path", PATHS)
def test_tta_encode_state_clips_like_encode(path):
    """Entries past HIGH are clipped as ``encode`` clips them, whether the civilization block
    (culture) or another block (the round) holds them."""
    encoder = _encoder(2, path)
    state, seat = _positions_in_order(2, 40, "first")[60]
    names = encoder.feature_names()
    state.civs[1 - seat].culture = 300
    vec = encoder.encode_state(state, seat)
    assert vec[names.index("civ1:culture")] == encoder.high
    assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))
    state.round = 256
    vec = encoder.encode_state(state, seat)
    assert vec[names.index("round")] == encoder.high
    assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))
    # workers on a technology: a kept block cannot hold 300, the call takes the reference path
    civ = state.civs[seat]
    tech = CARDS[civ.developed[0]]
    civ.workers[tech.kind * 4 + tech.age] = 300
    vec = encoder.encode_state(state, seat)
    assert vec[names.index(f"civ0:workers:{tech.id}")] == encoder.high
    assert np.array_equal(vec, encoder.encode(state.view(seat, labels=False)))


def test_tta_c_entries_equal_the_python_entries():
    """The C assembly keeps each civilization's entry (its snapshot, blocks and the parts
    reused while their inputs are unchanged) and rebuilds it itself; after every call each
    entry equals the one the Python path builds from nothing for that civilization."""
    from civtable.rl.encoders.through_the_ages import _civ_fields

    c, python = _encoder(3, "c"), _encoder(3, "python")
    positions = _positions_in_order(3, 33, "full")
    for state, seat in positions:
        c.encode_state(state, seat)
        for o, civ in enumerate(state.civs):
            assert c._last[o] == python._civ_entry(civ, _civ_fields(civ), None), (state, o)


def test_tta_c_plan_refuses_a_wrong_layout_buffer_or_seat():
    """The C plan checks its layout against the encoder's when it is made, and what it is
    given to write into; bad input is a clear error that writes nothing."""
    from civtable.rl.encoders import _tta_fast

    encoder = _encoder(2, "c")
    spec = encoder._plan_spec()
    with pytest.raises(ValueError, match="layout"):
        _tta_fast.Plan({**spec, "civ_at": spec["civ_at"] + 1})
    with pytest.raises(KeyError, match="pol_at"):
        _tta_fast.Plan({k: v for k, v in spec.items() if k != "pol_at"})
    state, seat = _positions_in_order(2, 42, "first")[30]
    out = np.full(encoder.size, 7, np.float32)
    with pytest.raises(ValueError, match="float32"):
        encoder.plan.encode(encoder, state, seat, np.zeros(encoder.size, np.float64))
    with pytest.raises(ValueError, match="float32"):
        encoder.plan.encode(encoder, state, seat, out[:-1])
    with pytest.raises(ValueError, match="no seat 2"):
        encoder.plan.encode(encoder, state, 2, out)
    with pytest.raises(RuntimeError, match="not set up"):
        _tta_fast.Plan.__new__(_tta_fast.Plan).encode(encoder, state, seat, out)
    with pytest.raises(RuntimeError, match="already set up"):
        encoder.plan.__init__(spec)
    assert (out == 7).all()
    assert encoder.plan.encode(encoder, state, seat, out)
    assert np.array_equal(out, encoder.encode(state.view(seat, labels=False)))


def test_tta_c_plan_takes_the_reference_path_on_unexpected_fields_and_keeps_nothing():
    """A state field of an unexpected type (a tuple where the engine keeps a list) sends the
    call to the reference path, with the same vector; the abandoned C call releases what it
    held (the civilizations' entries' reference counts are unchanged)."""
    import sys

    encoder = _encoder(2, "c")
    state, seat = _positions_in_order(2, 44, "full")[120]
    expected = encoder.encode(state.view(seat, labels=False))
    assert np.array_equal(encoder.encode_state(state, seat), expected)
    entries = list(encoder._last)
    counts = [sys.getrefcount(e) for e in entries]
    state.past = tuple(state.past)
    for _ in range(3):
        assert np.array_equal(encoder.encode_state(state, seat), expected)
    assert [sys.getrefcount(e) for e in entries] == counts


def test_tta_encoder_copies_make_their_own_c_plan():
    """A pickled or deep-copied encoder (OpenSpiel's serialization, Ray workers) gets a plan
    of its own and encodes as the original; an encoder on the Python path stays on it."""
    import copy
    import pickle

    encoder = _encoder(2, "c")
    state, seat = _positions_in_order(2, 43, "full")[80]
    expected = encoder.encode(state.view(seat, labels=False))
    assert np.array_equal(encoder.encode_state(state, seat), expected)
    for other in (pickle.loads(pickle.dumps(encoder)), copy.deepcopy(encoder)):
        assert other.plan is not None
        assert other.plan is not encoder.plan
        assert np.array_equal(other.encode_state(state, seat), expected)
    python = _encoder(2, "python")
    assert pickle.loads(pickle.dumps(python)).plan is None


def test_encode_state_reads_every_field_of_a_civilization():
    """The fast path notices a change of any field: its field tuple is every ``Civ`` slot,
    the ints first."""
    from civtable.rl.encoders.through_the_ages import _NSCALARS, _civ_fields

    state, _ = _positions_in_order(4, 41, "full")[200]
    for civ in state.civs:
        fields = _civ_fields(civ)
        assert fields == tuple(getattr(civ, name) for name in type(civ).__slots__)
        assert all(isinstance(x, int) for x in fields[:_NSCALARS])
        assert all(isinstance(x, list) for x in fields[_NSCALARS:])


def test_tta_1_9_3_2_the_observer_helpers_equal_the_rules_functions():
    """``board.ratings`` (remembered) is ``board.compute_ratings`` (TTA-1.9), and
    ``civil.take_costs`` and the encoder's table-driven ``_take_costs`` are ``civil.take_cost``
    per row slot (TTA-3.1/3.2), on every other decision of random games."""
    from civtable.games.through_the_ages.rules import board, civil, effects
    from civtable.rl.encoders.through_the_ages import _take_costs

    checked = wonders = 0
    for players, mode in ((2, "full"), (4, "shorter")):
        for state, _ in _positions_in_order(players, 50 + players, mode)[::2]:
            for civ in state.civs:
                assert board.ratings(civ) == board.compute_ratings(civ)
                costs = [
                    civil.take_cost(state, civ, slot) if card >= 0 else 0
                    for slot, card in enumerate(state.row)
                ]
                assert civil.take_costs(state, civ) == costs
                assert _take_costs(state, civ, effects.fx(civ)) == costs
                wonders += any(card >= 0 and CARDS[card].type == "wonder" for card in state.row)
                checked += 1
    assert checked > 400
    assert wonders > 50  # the row's wonders, priced by the rules, were compared too


def test_env_observations_are_new_arrays_equal_to_the_encoded_view():
    """Every ``observe``/``last`` returns new arrays (a caller may change them) equal to the
    encoded view and the legal ids."""
    env = pettingzoo_env(GAME, players=2, seed=4)
    env.reset()
    rng = Rng(4)
    seen = 0
    for agent in env.agent_iter(max_iter=120):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        again = env.observe(agent)
        assert not np.shares_memory(obs["observation"], again["observation"])
        assert not np.shares_memory(obs["action_mask"], again["action_mask"])
        obs["observation"][:] = 7
        obs["action_mask"][:] = 1
        view = env.state.view(seat, labels=False)
        assert np.array_equal(env.observe(agent)["observation"], env.encoder.encode(view))
        legal = [env.actions.to_env(a["id"]) for a in view["legal"]]
        assert np.flatnonzero(env.observe(agent)["action_mask"] == 1).tolist() == legal
        env.step(rng.choice(legal))
        seen += 1
    assert seen > 50


# --- the chance model ----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["first", "full", "shorter"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tta_2_the_setup_with_a_generator_is_the_engines(players, mode):
    game = games.get(GAME)
    for seed in range(5):
        engine = game.new_game(players, seed, {"mode": mode}).to_json()
        ours = setup_with(game, players, {"mode": mode}, Rng(seed)).to_json()
        engine.pop("seed")
        ours.pop("seed")
        assert ours == engine


@pytest.mark.parametrize("seed", [0, 1])
def test_tta_2_2_every_engine_deal_is_a_chance_history(seed):
    """Feeding the engine's own setup (first player, then each deck from the top, then the
    events) as chance outcomes gives exactly the engine's position: the chance model covers
    the engine's setup."""
    dealt = games.get(GAME).new_game(3, seed, FIRST)
    # reconstruct the full decks: the row was dealt from the top of civil A
    civil_a = dealt.civil_decks[0] + dealt.row[::-1]
    decks = [civil_a, dealt.civil_decks[1], dealt.mil_decks[1]]
    decks += [dealt.civil_decks[2], dealt.mil_decks[2]]
    # the events: the kept ones are the first positions of the shuffled Age A military deck
    # (drawn last), the rest (back to the box) in any order
    kept = dealt.events
    decks.append(kept + sorted((Counter(military_deck(0, 3, True)) - Counter(kept)).elements()))
    state = openspiel_game(GAME, players=3, **FIRST).new_initial_state()
    assert dict(state.chance_outcomes()) == pytest.approx(dict.fromkeys(range(3), 1 / 3))
    state.apply_action(dealt.first)
    for deck in decks:
        for j in reversed(range(len(deck))):
            left = Counter(deck[: j + 1])
            if len(left) == 1:
                break  # the rest of this deck is forced: no decision
            outcomes = dict(state.chance_outcomes())
            assert outcomes == pytest.approx({c: k / left.total() for c, k in left.items()})
            state.apply_action(deck[j])
    assert not state.is_chance_node()
    engine = state.engine
    assert engine.first == engine.current == dealt.first
    assert engine.row == dealt.row
    assert engine.civil_decks == dealt.civil_decks
    assert engine.mil_decks == dealt.mil_decks
    assert engine.events == kept
    assert len(kept) == INITIAL_EVENTS[3]


def test_tta_2_2_decks_are_drawn_card_by_card_with_copies_as_weights():
    game = openspiel_game(GAME, players=4, **FIRST)
    state = game.new_initial_state()
    state.apply_action(2)  # the first player
    copies = Counter(civil_deck(0, 4))
    rs = np.random.RandomState(1)
    drawn = []
    while sum(copies.values()) > len(drawn):
        left = copies - Counter(drawn)
        outcomes = dict(state.chance_outcomes())
        if len(left) == 1:
            break
        assert outcomes == pytest.approx({c: k / left.total() for c, k in left.items()})
        action = sample_chance(state, rs)
        assert state.action_to_string(action).startswith("civil deck card")
        state.apply_action(action)
        drawn.append(action)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rs))
    engine = state.engine
    # the row is the first 13 cards drawn (the top of the deck, TTA-2.3)
    assert engine.row == drawn[:ROW_SLOTS]
    assert Counter(engine.mil_decks[1]) == Counter(military_deck(1, 4, True))
    assert engine.first == engine.current == 2


def test_tta_8_8_military_reshuffles_are_chance_decisions():
    """The first game (its military decks run out within a random game)."""
    game = openspiel_game(GAME, players=4, **FIRST)
    full = {age: Counter(military_deck(age, 4, True)) for age in (1, 2)}
    reshuffles = 0
    for seed in range(3, 9):  # random games until one runs a military deck out
        rs = np.random.RandomState(seed)
        state = game.new_initial_state()
        moved = False
        while not state.is_terminal():
            if state.is_chance_node():
                if moved:  # mid-game: a discard pile or the future events become a deck
                    outcomes = state.chance_outcomes()
                    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                    label = state.action_to_string(outcomes[0][0])
                    driver = state._core.driver
                    if label.startswith("new current events deck card"):  # TTA-12.2
                        state.apply_action(sample_chance(state, rs))
                        continue
                    assert label.startswith("reshuffled military deck card")
                    if not driver.partial:  # the first card of the new deck
                        pile = Counter(driver.request[1])  # the discard pile being shuffled
                        (age,) = {CARDS[c].age for c in pile}
                        assert not pile - full[age]
                        assert dict(outcomes) == pytest.approx(
                            {c: k / pile.total() for c, k in pile.items()}
                        )
                        reshuffles += 1
                state.apply_action(sample_chance(state, rs))
                continue
            engine = state.engine
            for age in (1, 2):
                # no card is duplicated by a reshuffle (played cards leave the piles)
                assert not _military_everywhere(engine, age) - full[age]
            state.apply_action(int(rs.choice(state.legal_actions())))
            moved = True
        if reshuffles:
            break
    assert reshuffles > 0


def test_tta_the_history_determines_the_state():
    game = openspiel_game(GAME, players=3)
    state = play_random(game, seed=4)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.is_terminal()
    assert str(replay) == str(state)
    assert replay.engine.state_hash() == state.engine.state_hash()
    assert replay.returns() == state.returns()
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tta_12_2_13_random_full_games_without_resigning_reach_the_end(players):
    """Uniformly random seats that never resign (``play_random`` may resign, TTA-6.8, which
    ends a 2-player game at once) play the full game to its end through OpenSpiel, and the
    history replays to the same position."""
    game = openspiel_game(GAME, players=players)
    rs = np.random.RandomState(players)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rs))
        else:
            legal = [a for a in state.legal_actions() if a != RESIGN]
            state.apply_action(int(rs.choice(legal)))
    engine = state.engine
    assert engine.options["mode"] == "full"
    assert engine.age == 4  # past Age III: the full game's end (TTA-4.4)
    assert not any(civ.flags & F_RESIGNED for civ in engine.civs)
    assert state.move_number() <= game.max_game_length()
    assert sum(state.returns()) == pytest.approx(1.0)
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    assert replay.engine.state_hash() == engine.state_hash()


def test_tta_12_2_the_future_events_deck_shuffle_is_a_chance_decision():
    """When the future events deck becomes the current one it is shuffled (TTA-12.2): chance
    decisions card by card over the future deck's cards (plus the one just prepared), named
    as such; random players rarely prepare events, so a few 4-player games are tried."""
    game = openspiel_game(GAME, players=4)
    seen = 0
    for seed in range(20):
        rs = np.random.RandomState(seed)
        state = game.new_initial_state()
        moved = False
        while not state.is_terminal() and not seen:
            if not state.is_chance_node():
                legal = [a for a in state.legal_actions() if a != RESIGN]
                state.apply_action(int(rs.choice(legal)))
                moved = True
                continue
            outcomes = state.chance_outcomes()
            label = state.action_to_string(outcomes[0][0])
            driver = state._core.driver
            if moved and label.startswith("new current events deck card 1:"):
                deck = Counter(driver.request[1])
                assert {CARDS[c].type for c in deck} <= {"event", "territory"}
                assert (deck - Counter(driver.state.future)).total() <= 1  # + the prepared one
                assert dict(outcomes) == pytest.approx(
                    {c: k / deck.total() for c, k in deck.items()}
                )
                seen += 1
            elif moved:
                assert not label.startswith("new current events deck card 1:")
            state.apply_action(sample_chance(state, rs))
        if seen:
            break
    assert seen


def test_driver_copy_is_independent():
    driver = driver_for(GAME, 2, {})
    rs = np.random.RandomState(0)
    while driver.pending():
        actions, probs = zip(*driver.outcomes(), strict=True)
        driver.apply(int(rs.choice(actions, p=probs)))
    twin = driver.copy()
    seat = driver.state.current
    twin.state.apply(seat, twin.state.legal_actions(seat)[0])
    twin.after_move()
    assert driver.state.history == []
    with pytest.raises(ValueError, match="no chance decision"):
        driver.apply(0)


# --- OpenSpiel -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_random_sim_test_passes(players):
    """The full game; OpenSpiel's random player may resign (TTA-6.8): a 2-player game then ends."""
    game = openspiel_game(GAME, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=players == 2, verbose=False)


def test_tta_3_3_resampling_keeps_the_information_state():
    game = openspiel_game(GAME, players=3)
    changed = 0
    for seed in range(2):
        state = play_random(game, seed=seed, stop=lambda s: s.move_number() > 300)
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
            changed += world.engine.civil_decks != state.engine.civil_decks
            world.apply_action(world.legal_actions()[0])
    assert changed > 0


class _UniformEvaluator(mcts.Evaluator):
    """No rollouts: value 0, uniform priors."""

    def evaluate(self, state):
        return np.zeros(state.num_players())

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_ismcts_plays_a_complete_game(players):
    """The full game (the default mode). The bot (2 simulations, uniform priors) may resign
    (TTA-6.8), which ends a 2-player game at once; whole games without resigning are
    ``test_tta_12_2_13_random_full_games_without_resigning_reach_the_end``."""
    game = openspiel_game(GAME, players=players)
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


def test_registered_name_and_load_game():
    openspiel_game(GAME, players=2)
    game = pyspiel.load_game("python_civtable_through_the_ages", {"players": 4})
    assert game.num_players() == 4
    assert game.num_distinct_actions() == games.get(GAME).action_space_size(4)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.observation_tensor_size() == encoder_for(GAME, 4).size
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.engine is None  # the first player and the decks are still to be drawn
