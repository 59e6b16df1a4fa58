"""The heuristic player (choose/evaluate) is legal, deterministic, beats random play and pursues
agendas it can complete (issue 20, item 10)."""

from __future__ import annotations

import pytest

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import heuristic
from civtable.sim.simulate import SimConfig, play_one

from .scenario import city, make, row, sp, token
from .test_properties import new_game

HEX = {
    (0, 0): "G",
    (1, 0): "G",
    (0, 1): "G",
    (-1, 1): "G",
    (-1, 0): "G",
    (0, -1): "G",
    (1, -1): "G",
    (2, 0): "G",
    (3, 0): "G",
    (2, -1): "G",
    (1, 1): "G",
    (2, 1): "G",
}


def test_heuristic_choices_are_legal_and_evaluate_in_unit_interval() -> None:
    s = new_game(3, 5)
    rng = Rng(5)
    for _ in range(60):
        seat = s.to_move()[0]
        a = heuristic.choose(s, seat, rng)
        assert a in s.legal_actions(seat)
        v = heuristic.evaluate(s, seat)
        assert 0.0 <= v <= 1.0
        s.apply(seat, a)


def test_heuristic_beats_random_in_two_player_games() -> None:
    wins = 0.0
    for g in range(2):
        s = new_game(2, 300 + g)
        rng, rnd = Rng(g), Rng(g + 99)
        while not s.is_terminal():
            seat = s.to_move()[0]
            acts = s.legal_actions(seat)
            s.apply(seat, heuristic.choose(s, seat, rng) if seat == g % 2 else rnd.choice(acts))
        wins += s.result().rewards()[g % 2]
    assert wins == 2.0


# --- issue 20 item 10: the bot pursues agendas it can complete ---------------------------------
def _culture_row(s, slot: int) -> None:  # type: ignore[no-untyped-def]
    rest = ["astrology", "foreign_trade", "masonry", "pottery"]
    rest.insert(slot - 1, "early_empire")
    row(s, 0, *rest)


def test_populous_progress_counts_nearly_mature_cities() -> None:
    # CIV-2.9 / CIV-22.1 Populous: a city whose neighbours fill up with friendly tokens is closer
    # to maturing; a city next to a city-state can never mature (CIV-A37), so it counts nothing
    s = make(HEX, capitals={0: (0, 0)}, features={(3, 0): "cs:kabul"})
    s.victory = [4]  # v5: Populous / Preservationist
    city(s, 0, (2, 0))  # next to Kabul
    f = heuristic._features(s, 0)
    before = heuristic._populous(s, 0, f)
    token(s, 0, (1, 0))
    token(s, 0, (0, 1))
    after = heuristic._populous(s, 0, heuristic._features(s, 0))
    assert after > before
    assert heuristic._ripeness(s, 0, sp(s, (2, 0))) == -1.0


def test_preservationist_progress_counts_natural_wonders_in_reach() -> None:
    s = make(HEX, capitals={0: (0, 0)}, features={(1, -1): "nw:mt_everest"})
    assert heuristic._preservationist(s, 0) > 0  # free, next to the capital
    far = make(HEX, capitals={0: (0, 0)}, features={(2, -1): "nw:mt_everest"})
    assert heuristic._preservationist(far, 0) == 0


def test_culture_card_is_worth_more_where_it_reaches_the_wanted_spaces() -> None:
    # mountains next to an immature capital need the culture card in slot 5 (CIV-8.2): the bot
    # values letting the card slide right instead of resolving it early
    cells = dict.fromkeys(HEX, "M")
    cells[(0, 0)] = "G"
    s = make(cells, capitals={0: (0, 0)})
    s.victory = [4]
    wanted = {"control_mature_cities"}
    values = []
    for slot in range(1, 6):
        _culture_row(s, slot)
        values.append(heuristic._culture_option(s, 0, wanted))
    assert values == sorted(values)
    assert values[4] > values[0]
    assert heuristic._culture_option(s, 0, set()) == 0.0


def test_civ_22_heuristic_games_that_stalled_now_finish() -> None:
    # seed 7 games 6 and 13 (2 players) stalled on Populous/Preservationist until the turn cap:
    # the bots resolved their culture card from low slots and never reached the mountains and
    # natural wonders next to their cities
    config = SimConfig(
        "civilization-a-new-dawn", players=2, games=20, seed=7, bots=("heuristic",), max_rounds=3000
    )
    record = play_one(config, 13)
    assert record.completed
    assert record.rounds < 1000


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (4, 13)])
def test_issue21_remembered_scores_equal_scores_computed_afresh(
    players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo of ``own_score`` (keyed by what it reads, the map only around the seat's
    cities) never answers a value that computing it again would not give: checked on every
    position the look-ahead scores in games on random standard maps (the 3-player game draws
    Populous and Preservationist, whose terms read the spaces around the cities)."""
    remembered = heuristic._memo_own_score
    checked = 0

    def checking(state, seat, shared):  # type: ignore[no-untyped-def]
        nonlocal checked
        checked += 1
        v = remembered(state, seat, shared)
        assert v == heuristic.own_score(state, seat)
        return v

    monkeypatch.setattr(heuristic, "_memo_own_score", checking)
    s = new_game(players, seed, "standard_random")
    rng = Rng(seed)
    for _ in range(150):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        s.apply(seat, heuristic.choose(s, seat, rng))
    assert checked > 1000


def test_issue21_memos_kept_across_decisions_follow_the_map(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The memos kept from one decision to the next are those of one map: two games on
    different random standard maps, their decisions interleaved, never get a remembered score
    that computing it again would not give (a memo keyed by a map another game had used would)."""
    remembered = heuristic._memo_own_score
    checked = switches = 0
    last: object = None

    def checking(state, seat, shared):  # type: ignore[no-untyped-def]
        nonlocal checked, switches, last
        checked += 1
        v = remembered(state, seat, shared)
        assert heuristic._MEMO_BOARD[0] is state.board
        heuristic._MEMO_BOARD[0] = None  # computed afresh: no memo of the culture option
        try:
            assert v == heuristic.own_score(state, seat)
        finally:
            heuristic._MEMO_BOARD[0] = state.board
        switches += last is not state.board
        last = state.board
        return v

    monkeypatch.setattr(heuristic, "_memo_own_score", checking)
    states = [new_game(3, 0, "standard_random"), new_game(3, 5, "standard_random")]
    assert states[0].board is not states[1].board
    rng = Rng(4)
    for _ in range(60):
        for s in states:
            if not s.is_terminal():
                seat = s.to_move()[0]
                s.apply(seat, heuristic.choose(s, seat, rng))
    assert checked > 1000
    assert switches > 20  # the memos went from one map to the other and back, many times


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (2, 11)])
def test_issue21_culture_option_by_difficulty_counts_equals_space_by_space(
    players: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CIV-8.2: the culture card's option, counted per difficulty on the map's bitsets, is
    exactly (the same float) the value computed space by space, for Populous, Preservationist
    and both, on every position the look-ahead scores (games on random standard maps)."""
    fast = heuristic._culture_option
    compared = nonzero = 0
    kinds = ({"control_mature_cities"}, {"control_natural_wonders"})
    wanted_sets = (*kinds, kinds[0] | kinds[1])

    def checking(state, seat, wanted, f=None):  # type: ignore[no-untyped-def]
        nonlocal compared, nonzero
        for w in wanted_sets:
            v = fast(state, seat, w, f)
            assert v == heuristic._culture_option_by_space(state, seat, w, f)
            compared += 1
            nonzero += v > 0
        return fast(state, seat, wanted, f)

    monkeypatch.setattr(heuristic, "_culture_option", checking)
    s = new_game(players, seed, "standard_random")
    rng = Rng(seed)
    for _ in range(120):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        s.apply(seat, heuristic.choose(s, seat, rng))
    assert compared > 1000
    assert nonzero > 100


def test_issue21_kept_lookahead_position_is_the_position_the_apply_gives() -> None:
    """Inside a simulated turn the heuristic keeps the look-ahead position of the chosen
    sub-decision instead of applying it again, only when that apply drew no random number:
    that position must then be exactly the one applying the action gives (every field, the
    legal actions owed next), and the apply must indeed leave the generator where it was."""
    from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812

    s = new_game(4, 11)
    rng = Rng(3)
    kept = 0
    for _ in range(200):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        if s.current == seat and s.pending[-1][0] not in (K.D_CHOOSE, K.D_START):
            probe = s.branch(s.rng.copy())
            action, after = heuristic._greedy_step(probe, seat, Rng(7), heuristic.SAMPLE)
            if after is not None:
                probe.apply(seat, action)
                assert probe.rng.state == s.rng.state
                got, want = after.to_json(), probe.to_json()
                for key in ("rng", "history", "log"):
                    del got[key], want[key]
                assert got == want
                assert [after.legal_actions(q) for q in range(4)] == [
                    probe.legal_actions(q) for q in range(4)
                ]
                kept += 1
        s.apply(seat, heuristic.choose(s, seat, rng))
    assert kept > 20
