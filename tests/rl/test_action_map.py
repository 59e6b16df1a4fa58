"""The environments' action numbering (civtable.rl.action_map) and Through the Ages' compact
list of the ids that can be legal (``Game.action_ids``, ``actions.possible_ids``)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from civtable import games  # noqa: E402
from civtable.bots import make_bot  # noqa: E402
from civtable.core.errors import IllegalActionError, InvalidOptionsError  # noqa: E402
from civtable.games.through_the_ages import actions as ax  # noqa: E402
from civtable.games.through_the_ages.catalog import CARDS  # noqa: E402
from civtable.rl import pettingzoo_env  # noqa: E402
from civtable.rl.action_map import ActionMap  # noqa: E402
from civtable.rl.gym_env import SingleSeatEnv  # noqa: E402
from civtable.rl.policy_bot import PolicyBot  # noqa: E402

TTA = "through-the-ages"
#: every Through the Ages mode (the presets of the web lobby)
PRESETS = list(games.get(TTA).option_presets.values())


def _play(players, seed, options, bots):
    """A whole game; yields every position with the seats owing a decision."""
    game = games.get(TTA)
    state = game.new_game(players, seed, options)
    seated = [make_bot(bots[s % len(bots)], seed * 10 + s) for s in range(players)]
    while not state.is_terminal():
        yield state
        seat = state.to_move()[0]
        state.apply(seat, seated[seat].choose(state, seat))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tta_6_the_compact_ids_hold_every_action_legal_in_whole_games(players):
    """Random and heuristic games of every mode (politics, wars, pacts, the shorter game's
    shared war, TTA-6 and TTA-15.1) never make an id legal outside ``action_ids``; the list is
    what the environments use, and random play does reach the political ranges."""
    game = games.get(TTA)
    allowed = set(game.action_ids(players))
    seen: set[int] = set()
    plays = [
        (options, seed, bots)
        for k, options in enumerate(PRESETS)
        for seed, bots in ((k, ["random"]), (100 + k, ["heuristic", "random"]))
    ]
    if players == 2:  # one more shorter game, whose heuristic declares a shared war (TTA-15.1)
        plays.append(({"mode": "shorter"}, 205, ["heuristic", "random"]))
    for options, seed, bots in plays:
        for state in _play(players, seed, options, bots):
            for seat in state.to_move():
                legal = state.legal_actions(seat)
                assert set(legal) <= allowed, sorted(set(legal) - allowed)
                seen.update(legal)
    # the card-indexed ranges (start, end) the games reach
    ranges = {
        "PLAY": (ax.PLAY, ax.REVOLT),
        "REVOLT": (ax.REVOLT, ax.WONDER),
        "DISCARD": (ax.DISCARD, ax.HAMMURABI),
        "COPY": (ax.COPY, ax.PREPARE),
        "PREPARE": (ax.PREPARE, ax.AGGRESS),
        "AGGRESS": (ax.AGGRESS, ax.WAR),
        "WAR": (ax.WAR, ax.PACT),
        "PACT": (ax.PACT, ax.CANCEL),
        "CANCEL": (ax.CANCEL, ax.RESIGN),
        "COLUMBUS": (ax.COLUMBUS, ax.OPTION),
        "SHARED": (ax.SHARED, ax.ACTION_SPACE),
    }
    reached = {name for name, (lo, hi) in ranges.items() if any(lo <= a < hi for a in seen)}
    # (these games offer no pact to 2 players, TTA-6.6, and no shared war at 3)
    unreached = {2: {"PACT", "CANCEL", "COLUMBUS"}, 3: {"SHARED"}, 4: set()}[players]
    expected = set(ranges) - unreached
    assert reached >= expected, sorted(expected - reached)


def test_tta_possible_ids_follow_the_card_types():
    ids = games.get(TTA).action_ids(4)
    assert list(ids) == sorted(set(ids))
    assert 900 < len(ids) < 1100 < ax.ACTION_SPACE
    id_set = set(ids)
    for c in CARDS:
        assert (ax.REVOLT + c.idx in id_set) == (c.tech_type == "government")
        assert (ax.COPY + c.idx in id_set) == (c.type == "tactic")
        assert (ax.DISCARD + c.idx in id_set) == (c.deck == "military")
        for t in range(4):
            assert (ax.AGGRESS + 4 * c.idx + t in id_set) == (c.type == "aggression")
            assert (ax.PACT + 8 * c.idx + 2 * t + 1 in id_set) == (
                c.type == "pact" and not c.symmetric
            )
    # the non-card ranges are whole: every row slot, building slot, option and J. S. Bach move
    assert all(a in id_set for a in range(ax.END, ax.PLAY))
    assert all(a in id_set for a in range(ax.OPTION, ax.SHARED))
    assert all(a in id_set for a in range(ax.BACH, ax.COPY))
    # seats beyond the player count are never targets
    two = set(games.get(TTA).action_ids(2))
    war = next(c.idx for c in CARDS if c.type == "war")
    assert ax.WAR + 4 * war + 1 in two
    assert ax.WAR + 4 * war + 2 not in two
    with pytest.raises(InvalidOptionsError):
        games.get(TTA).action_ids(5)


def test_action_map_is_the_identity_for_games_without_an_id_list():
    game = games.get("seven-wonders")
    amap = ActionMap(game, 3)
    assert amap.engine_ids is None
    assert amap.size == game.action_space_size(3)
    assert amap.to_engine(17) == 17
    assert amap.to_env(17) == 17
    assert np.flatnonzero(amap.mask([2, 5])).tolist() == [2, 5]


def test_tta_action_map_round_trips_and_masks():
    game = games.get(TTA)
    amap = ActionMap(game, 3)
    assert amap.size == len(game.action_ids(3))
    for k in range(amap.size):
        assert amap.to_env(amap.to_engine(k)) == k
    legal = [ax.END, ax.PLAY + next(c.idx for c in CARDS if c.type == "leader")]
    assert [amap.to_engine(k) for k in np.flatnonzero(amap.mask(legal))] == legal
    for bad in (-1, amap.size):
        with pytest.raises(IllegalActionError, match="outside the action space"):
            amap.to_engine(bad)
    never = next(a for a in range(ax.ACTION_SPACE) if a not in set(game.action_ids(3)))
    with pytest.raises(ValueError, match="no environment id"):
        amap.to_env(never)
    with pytest.raises(RuntimeError, match=rf"engine actions \[{never}\] are legal"):
        amap.mask([ax.END, never])


class _Listed:
    """A game whose action list is given (to test the checks)."""

    id = "listed"

    def __init__(self, ids):
        self.ids = ids

    def action_space_size(self, players, options=None):
        return 10

    def action_ids(self, players, options=None):
        return self.ids


@pytest.mark.parametrize("ids", [[], [3, 3], [4, 2], [-1, 2], [2, 10]])
def test_action_map_rejects_a_bad_id_list(ids):
    with pytest.raises(ValueError, match="action_ids"):
        ActionMap(_Listed(ids), 2)  # type: ignore[arg-type]


def test_tta_env_steps_by_compact_id_and_refuses_bad_ones_without_change():
    env = pettingzoo_env(TTA, players=2, seed=9, render_mode="ansi")
    env.reset()
    assert env.action_space(env.agent_selection).n == env.n_actions == env.actions.size < 1100
    obs = env.last()[0]
    assert obs["action_mask"].shape == (env.n_actions,)
    before = env.state.state_hash()
    for bad in (-1, env.n_actions, 5000):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.state.state_hash() == before
    seat = env.possible_agents.index(env.agent_selection)
    engine = env.state.legal_actions(seat)[-1]
    label = env.state.describe(seat, engine)
    # the text picture lists the legal actions by the ids the agent steps with
    assert f"[{env.actions.to_env(engine)}] {label}" in env.render()
    env.step(env.actions.to_env(engine))
    assert env.state.history[-1] == (seat, engine)


def test_tta_single_seat_env_and_policy_bot_use_the_compact_ids():
    env = SingleSeatEnv(TTA, players=2, opponents=["random"], seat=0, seed=3)
    _obs, _info = env.reset()
    mask = env.action_masks()
    assert mask.shape == (env.action_space.n,) == (env.actions.size,)
    legal = [env.actions.to_env(a) for a in env.state.legal_actions(0)]
    assert np.flatnonzero(mask).tolist() == legal
    done = len(env.state.history)
    env.step(legal[-1])
    assert env.state.history[done] == (0, env.actions.to_engine(legal[-1]))

    chosen = []

    def first_legal(_obs, m):
        chosen.append(int(np.flatnonzero(m)[-1]))
        return chosen[-1]

    bot = PolicyBot(first_legal)
    state = games.get(TTA).new_game(2, 4)
    seat = state.to_move()[0]
    while len(state.legal_actions(seat)) < 2:
        state.apply(seat, state.legal_actions(seat)[0])
        seat = state.to_move()[0]
    assert bot.choose(state, seat) == state.legal_actions(seat)[-1]
    assert chosen[-1] == ActionMap(state.game, 2).to_env(state.legal_actions(seat)[-1])
    with pytest.raises(InvalidOptionsError, match="illegal action"):
        PolicyBot(lambda _o, _m: -3).choose(state, seat)
