"""The game-agnostic core: the seeded generator, ranking, the game registry and replay files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable import games
from civtable.core.api import Game, rank_by
from civtable.core.errors import (
    CivtableError,
    InvalidOptionsError,
    SerializationError,
    UnknownGameError,
)
from civtable.core.replay import Replay
from civtable.core.rng import Rng

SETTINGS = settings(max_examples=60, derandomize=True, database=None, deadline=None)


def draws(rng: Rng, k: int = 16) -> list[int]:
    """The next ``k`` 64-bit outputs of ``rng``."""
    return [rng.next_u64() for _ in range(k)]


# --- Rng -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 42, -1, -(2**70), 2**64 + 5, 2**200])
def test_rng_same_seed_same_stream(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    assert draws(a) == draws(b)
    assert a.state == b.state
    assert all(0 <= x < 2**64 for x in draws(a))


def test_rng_nearby_seeds_give_unrelated_streams() -> None:
    firsts = [Rng(seed).next_u64() for seed in range(200)]
    assert len(set(firsts)) == 200
    # Adjacent seeds differ in about half of the 64 bits of their first output.
    flips = [bin(firsts[i] ^ firsts[i + 1]).count("1") for i in range(199)]
    assert 24 <= sum(flips) / len(flips) <= 40


@SETTINGS
@given(seed=st.integers(), items=st.lists(st.integers(-5, 5), max_size=40))
def test_rng_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)
    again = list(items)
    Rng(seed).shuffle(again)
    assert again == shuffled  # deterministic


def test_rng_shuffle_moves_things_and_reaches_every_order() -> None:
    rng = Rng(2024)
    orders = set()
    for _ in range(600):
        deck = [0, 1, 2]
        rng.shuffle(deck)
        orders.add(tuple(deck))
    assert len(orders) == 6
    big = list(range(50))
    rng.shuffle(big)
    assert big != sorted(big)


@SETTINGS
@given(seed=st.integers(), n=st.integers(1, 2**70))
def test_rng_randbelow_in_range(seed: int, n: int) -> None:
    rng = Rng(seed)
    for _ in range(8):
        assert 0 <= rng.randbelow(n) < n


@pytest.mark.parametrize("n", [1, 2, 6, 7, 10])
def test_rng_randbelow_roughly_uniform(n: int) -> None:
    rng = Rng(12345)
    trials = 6000 * n
    counts = Counter(rng.randbelow(n) for _ in range(trials))
    assert set(counts) == set(range(n))
    expected = trials / n
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(n))
    # With n - 1 <= 9 degrees of freedom, chi2 > 35 has probability < 1e-4.
    assert chi2 < 35, counts


def test_rng_randbelow_large_bound_uses_high_values() -> None:
    rng = Rng(7)
    bound = 3 * 2**62  # not a power of two, close to 2**64: rejection is exercised
    values = [rng.randbelow(bound) for _ in range(2000)]
    assert all(0 <= v < bound for v in values)
    assert sum(v >= 2 * 2**62 for v in values) > 500  # the top third is reached


@pytest.mark.parametrize("n", [0, -1, -100])
def test_rng_randbelow_rejects_non_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng(1).randbelow(n)


def test_rng_random_in_unit_interval() -> None:
    rng = Rng(99)
    values = [rng.random() for _ in range(5000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55


@SETTINGS
@given(
    seed=st.integers(),
    population=st.lists(st.integers(), unique=True, max_size=30),
    data=st.data(),
)
def test_rng_sample_distinct_members(seed: int, population: list[int], data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(population)))
    picked = Rng(seed).sample(population, k)
    assert len(picked) == k
    assert len(set(picked)) == k
    assert set(picked) <= set(population)
    assert Rng(seed).sample(population, k) == picked


def test_rng_sample_full_population_is_a_permutation_and_input_untouched() -> None:
    population = tuple(range(10))
    picked = Rng(3).sample(population, 10)
    assert sorted(picked) == list(population)
    items = [5, 6, 7]
    Rng(3).sample(items, 2)
    assert items == [5, 6, 7]


@pytest.mark.parametrize("k", [-1, 4])
def test_rng_sample_rejects_bad_size(k: int) -> None:
    with pytest.raises(ValueError, match="sample"):
        Rng(1).sample([1, 2, 3], k)


def test_rng_choice() -> None:
    rng = Rng(8)
    seen = {rng.choice("abc") for _ in range(200)}
    assert seen == {"a", "b", "c"}
    with pytest.raises(IndexError):
        rng.choice([])


def test_rng_fork_is_independent_of_the_parent() -> None:
    parent = Rng(11)
    twin = parent.copy()
    child = parent.fork()
    twin_child = twin.fork()
    # Forking is deterministic and advances the parent the same way.
    assert parent.state == twin.state
    child_draws = draws(child, 32)
    assert child_draws == draws(twin_child, 32)
    # Drawing from the child did not move the parent.
    assert draws(parent) == draws(twin)
    # The child's stream is not the parent's stream.
    fresh = Rng(11)
    fresh_child = fresh.fork()
    assert not set(draws(fresh_child, 32)) & set(draws(fresh, 32))
    # Two forks in a row are different streams.
    r = Rng(5)
    first, second = r.fork(), r.fork()
    assert draws(first) != draws(second)


def test_rng_copy_is_independent() -> None:
    rng = Rng(21)
    draws(rng, 3)
    twin = rng.copy()
    assert draws(rng) == draws(twin)
    draws(twin, 5)
    assert rng.state != twin.state


@SETTINGS
@given(seed=st.integers(), skip=st.integers(0, 20))
def test_rng_from_state_round_trip(seed: int, skip: int) -> None:
    rng = Rng(seed)
    draws(rng, skip)
    doc = json.loads(json.dumps({"rng": rng.state}))  # survives JSON exactly
    rebuilt = Rng.from_state(doc["rng"])
    assert rebuilt.state == rng.state
    assert draws(rebuilt) == draws(rng)


@pytest.mark.parametrize("bad", [-1, 2**64, 2**100, "5", 1.5, None, [1]])
def test_rng_from_state_rejects_bad_input(bad: object) -> None:
    with pytest.raises(ValueError, match="Rng state"):
        Rng.from_state(bad)  # type: ignore[arg-type]


def _plain_shuffle(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates spelled with ``randbelow``: what ``Rng.shuffle`` draws, inlined or not."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


def _plain_sample(rng: Rng, items: list[int], k: int) -> list[int]:
    pool = list(items)
    for i in range(k):
        j = i + rng.randbelow(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5, -7])
def test_rng_shuffle_and_sample_draw_what_randbelow_draws(seed: int) -> None:
    """``shuffle`` and ``sample`` run ``randbelow``'s steps inline (speed); the orders and the
    generator afterwards are exactly those of the plain spelling, so stored games replay."""
    for n in [*range(40), 64, 100, 130, 255, 256, 300]:
        a, b = list(range(n)), list(range(n))
        r1, r2 = Rng(seed + n), Rng(seed + n)
        r1.shuffle(a)
        _plain_shuffle(r2, b)
        assert a == b
        assert r1.state == r2.state
        for k in sorted({0, min(1, n), n // 2, n}):
            assert r1.sample(a, k) == _plain_sample(r2, a, k)
            assert r1.state == r2.state


def _state_before(value: int) -> int:
    """The generator state whose next ``next_u64`` is ``value`` (SplitMix64 inverted)."""
    mask = (1 << 64) - 1
    z = value ^ (value >> 31) ^ (value >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    z = z ^ (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    z = z ^ (z >> 30) ^ (z >> 60)
    return (z - 0x9E3779B97F4A7C15) & mask


def test_rng_a_rejected_draw_is_drawn_again_in_shuffle_and_sample() -> None:
    """``randbelow(n)`` rejects values at or above ``2**64 - 1 - (2**64 - 1) % n``: from a state
    whose next value is the largest one, the first draw of a 3-item shuffle and of a sample from
    5 are redrawn, as ``randbelow`` redraws them."""
    mask = (1 << 64) - 1
    start = _state_before(mask)
    assert Rng.from_state(start).next_u64() == mask
    a, b = [0, 1, 2], [0, 1, 2]
    r1, r2 = Rng.from_state(start), Rng.from_state(start)
    r1.shuffle(a)
    _plain_shuffle(r2, b)
    assert a == b
    assert r1.state == r2.state
    assert r1.state == (start + 3 * 0x9E3779B97F4A7C15) & mask  # three draws, not two
    r1, r2 = Rng.from_state(start), Rng.from_state(start)
    assert r1.sample(list(range(5)), 2) == _plain_sample(r2, list(range(5)), 2)
    assert r1.state == r2.state


# --- rank_by (the SW-13 ranking) ------------------------------------------------------------------
def test_sw_13_rank_by_score_then_coins() -> None:
    assert rank_by([(58, 7), (58, 9), (57, 20)]) == ((1, 0, 2), (1,))


def test_sw_13_3_rank_by_full_tie_shares_victory_and_skips_places() -> None:
    ranking, winners = rank_by([(40, 3), (40, 3), (39, 9), (40, 3)])
    assert ranking == (0, 0, 3, 0)
    assert winners == (0, 1, 3)
    ranking, winners = rank_by([(50, 1), (40, 3), (40, 3), (30, 0)])
    assert ranking == (0, 1, 1, 3)
    assert winners == (0,)


def test_sw_14_9_rank_by_ineligible_seat_never_ranks_or_wins() -> None:
    # The Free City (index 0) has the best score but is not eligible.
    ranking, winners = rank_by([(90, 9), (40, 3), (41, 0)], eligible=[1, 2])
    assert ranking == (3, 1, 0)
    assert winners == (2,)


def test_rank_by_empty() -> None:
    assert rank_by([]) == ((), ())


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3)), min_size=1, max_size=8))
def test_sw_13_rank_by_place_counts_strictly_better_seats(keys: list[tuple[int, int]]) -> None:
    ranking, winners = rank_by(keys)
    for s, key in enumerate(keys):
        assert ranking[s] == sum(other > key for other in keys)
    best = max(keys)
    assert winners == tuple(s for s, key in enumerate(keys) if key == best)


# --- the game registry ----------------------------------------------------------------------------
def test_games_get_known_id() -> None:
    game = games.get("seven-wonders")
    assert isinstance(game, Game)
    assert game.id == "seven-wonders"
    assert game.name == "7 Wonders"
    assert (game.min_players, game.max_players) == (2, 7)
    assert games.get("seven-wonders") is game
    assert "seven-wonders" in games.available()
    assert set(games.available()) <= set(games.ids())


def test_games_get_unknown_id_raises_clear_error() -> None:
    with pytest.raises(UnknownGameError) as info:
        games.get("seven-blunders")
    err = info.value
    assert isinstance(err, CivtableError)
    assert isinstance(err, KeyError)  # callers catching KeyError keep working
    message = str(err)
    assert "seven-blunders" in message
    assert "seven-wonders" in message  # lists the known games
    assert not message.startswith(("'", '"'))  # not KeyError's quoted repr


def test_games_get_planned_game_raises(planned_game: str) -> None:
    assert planned_game in games.ids()
    assert planned_game not in games.available()
    with pytest.raises(UnknownGameError, match="planned"):
        games.get(planned_game)


def test_the_four_games_are_playable() -> None:
    assert games.available() == [
        "seven-wonders",
        "through-the-ages",
        "civilization-a-new-dawn",
        "deus",
    ]
    for game_id in games.available():
        assert games.get(game_id).id == game_id


# --- replays -------------------------------------------------------------------------------------
def _played(players: int, seed: int, steps: int) -> tuple[Game, Replay, str]:
    game = games.get("seven-wonders")
    state = game.new_game(players, seed, {"sides": "B"})
    pick = Rng(seed + 1)
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = pick.choice(state.to_move())
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    return game, Replay.of(state, note="test"), state.state_hash()


def test_replay_save_load_round_trip(tmp_path: Path) -> None:
    game, replay, digest = _played(4, 17, 40)
    path = replay.save(tmp_path / "nested" / "dir" / "game.json")
    assert path.exists()
    loaded = Replay.load(path)
    assert loaded == replay
    assert loaded.to_json() == replay.to_json()
    assert loaded.meta == {"note": "test"}
    assert loaded.options == {"boards": "random", "sides": "B"}
    assert len(loaded.actions) == 40
    assert loaded.final_state().state_hash() == digest
    assert game.replay(
        loaded.players, loaded.seed, loaded.actions, loaded.options
    ).state_hash() == (digest)
    states = loaded.states()
    assert len(states) == len(loaded.actions) + 1
    assert states[-1].state_hash() == digest
    assert states[0].state_hash() == game.new_game(4, 17, {"sides": "B"}).state_hash()


def test_replay_of_a_finished_game(tmp_path: Path) -> None:
    _, replay, digest = _played(3, 5, 10_000)
    loaded = Replay.load(replay.save(tmp_path / "done.json"))
    final = loaded.final_state()
    assert final.is_terminal()
    assert final.state_hash() == digest


def _good_doc() -> dict[str, object]:
    return Replay("seven-wonders", 3, 1, {}, [(0, 1), (1, 2)], {}).to_json()


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("format"),
        lambda d: d.update(format="something-else"),
        lambda d: d.pop("actions"),
        lambda d: d.pop("game"),
        lambda d: d.pop("players"),
        lambda d: d.pop("seed"),
        lambda d: d.update(players="three"),
        lambda d: d.update(seed=None),
        lambda d: d.update(actions=[[0]]),
        lambda d: d.update(actions=[5]),
        lambda d: d.update(actions=[["a", "b"]]),
        lambda d: d.update(actions=None),
        lambda d: d.update(options=5),
        lambda d: d.update(meta=[1]),
    ],
    ids=[
        "no-format",
        "wrong-format",
        "no-actions",
        "no-game",
        "no-players",
        "no-seed",
        "players-text",
        "seed-null",
        "action-short",
        "action-int",
        "action-text",
        "actions-null",
        "options-int",
        "meta-list",
    ],
)
def test_replay_malformed_document_raises_serialization_error(
    tmp_path: Path, mutate: object
) -> None:
    doc = _good_doc()
    Replay.from_json(doc)  # the unmutated document is valid
    mutate(doc)  # type: ignore[operator]
    with pytest.raises(SerializationError):
        Replay.from_json(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SerializationError):
        Replay.load(path)


@pytest.mark.parametrize("doc", [None, [], "civtable-replay", 3])
def test_replay_non_object_document_raises_serialization_error(doc: object) -> None:
    with pytest.raises(SerializationError, match="not a civtable replay"):
        Replay.from_json(doc)


def test_replay_load_unreadable_file_raises_serialization_error(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="cannot read"):
        Replay.load(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "civtable-replay", ', encoding="utf-8")
    with pytest.raises(SerializationError, match="cannot read"):
        Replay.load(broken)


def test_game_check_players_rejects_bad_counts_with_a_clear_message() -> None:
    game = games.get("seven-wonders")
    for ok in (2, 3, 7):
        game.check_players(ok)
    for bad in (1, 8, True, "4", 3.0):
        with pytest.raises(InvalidOptionsError, match="2 to 7 players"):
            game.check_players(bad)  # type: ignore[arg-type]


def test_load_plugin_imports_the_named_class_and_rejects_unknown_games() -> None:
    from civtable.core.plugins import load_plugin
    from civtable.core.rng import Rng

    assert load_plugin({"g": "civtable.core.rng:Rng"}, "g", "thing") is Rng
    with pytest.raises(UnknownGameError, match="no thing for game 'h'; games with one: g"):
        load_plugin({"g": "civtable.core.rng:Rng"}, "h", "thing")
