"""The Deus greedy policy: legal choices, a value in [0, 1], and clearly better than random."""

from __future__ import annotations

from typing import Any

import pytest

from civtable import games
from civtable.bots import make_bot
from civtable.core.rng import Rng
from civtable.games.deus import heuristic
from civtable.games.deus.state import MAIN, DeusState

from .test_properties import new_game


def test_deus_heuristic_choices_are_legal_and_evaluate_is_bounded() -> None:
    state = new_game(3, 9)
    rng = Rng(1)
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        a = heuristic.choose(state, seat, rng)
        assert a in state.legal_actions(seat)
        state.apply(seat, a)
        for s in range(3):
            assert 0.0 <= heuristic.evaluate(state, s) <= 1.0


def test_deus_heuristic_beats_random_players() -> None:
    game = games.get("deus")
    wins = 0.0
    n = 6
    for i in range(n):
        hseat = i % 3
        bots = [make_bot("heuristic" if p == hseat else "random", 100 * i + p) for p in range(3)]
        state = game.new_game(3, 500 + i)
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state, seat))
        r = state.result()
        if hseat in r.winners:
            wins += 1 / len(r.winners)
    assert wins >= 5  # random seats would win about 1/3 of the games each


def test_deus_18_1_heuristic_ends_the_game_that_stalled() -> None:
    """Game 134 of ``civtable simulate deus --players 4 --games 200 --bots heuristic`` (seed 0)
    never ended: past round 60 every seat offered to Mars each turn for VP while a building
    column stayed empty, so no second temple (DEUS-8.2) and no end trigger (DEUS-18.1) came.
    With the overtime push it ends by the rules well within 3,000 decision rounds."""
    from civtable.sim.simulate import SimConfig, play_one

    config = SimConfig("deus", players=4, games=200, seed=0, bots=("heuristic",), max_rounds=3000)
    record = play_one(config, 134)
    assert record.error is None
    assert record.completed
    assert not record.truncated
    assert record.rounds < 1500


def test_deus_heuristic_overtime_changes_nothing_before_its_round() -> None:
    state = new_game(4, 3)
    rng = Rng(3)
    for _ in range(300):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.round < heuristic.OVERTIME_ROUND
    before = [heuristic.projected_score(state, s) for s in range(4)]
    state.round = heuristic.OVERTIME_ROUND
    after = [heuristic.projected_score(state, s) for s in range(4)]
    for s in range(4):
        progress = heuristic.end_progress(state, s)
        assert progress > 0
        assert after[s] == pytest.approx(before[s] + heuristic.W_END * progress)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deus_19_seat_score_is_the_sum_of_the_seats_breakdown(players: int) -> None:
    """``scoring.seat_score`` (what the heuristic evaluates) equals the seat's breakdown total
    (DEUS-19: VP tokens, temple cards, majorities) at every position of random games; so does
    it with the map counters of the temple cards kept per seat while the map is unchanged, as
    the heuristic keeps them (issue 21)."""
    from civtable.games.deus.scoring import breakdown, seat_score

    game = games.get("deus")
    temple_positions = 0
    for seed in range(4):
        state = game.new_game(players, seed, {})
        assert isinstance(state, DeusState)
        bot = make_bot("random", seed)
        kept: dict[int, tuple[list[int], list[int], list[int], dict[Any, int]]] = {}
        while not state.is_terminal():
            bd = breakdown(state)
            totals = [sum(b.values()) for b in bd]
            assert [seat_score(state, p) for p in range(players)] == totals
            for p in range(players):
                entry = kept.get(p)
                if entry is None or entry[:3] != (state.owner, state.mask, state.vatt):
                    entry = kept[p] = (state.owner[:], state.mask[:], state.vatt[:], {})
                assert seat_score(state, p, entry[3]) == totals[p]
                temple_positions += bool(bd[p]["temples"])
            seat = state.to_move()[0]
            state.apply(seat, bot.choose(state, seat))
    assert temple_positions > 0  # the temple cards were scored


# --- the search's evaluation and settings (issue 22) ------------------------------------------
def _positions(players: int, seed: int) -> list[DeusState]:
    """Copies of the main-phase positions of a heuristic game, then its end."""
    state = new_game(players, seed)
    rng = Rng(seed)
    out = []
    while not state.is_terminal():
        seat = state.to_move()[0]
        if state.phase == MAIN:
            out.append(state.copy())
        state.apply(seat, heuristic.choose(state, seat, rng))
    out.append(state)
    return out


def test_deus_two_player_evaluation_is_a_win_chance_of_one_seat_against_the_other() -> None:
    """DEUS-19.3: the two seats' chances add up to one; a finished game gives its result; the
    stage goes from 3 (far from the trigger) to 0 (DEUS-18.1 triggered)."""
    positions = _positions(2, 7)
    stages = [heuristic.stage(p) for p in positions[:-1]]
    assert stages[0] == 3
    assert stages[-1] == 0
    assert sorted(stages, reverse=True) == stages  # the end only comes nearer
    for p in positions:
        a, b = heuristic.evaluate(p, 0), heuristic.evaluate(p, 1)
        assert 0.0 <= a <= 1.0
        assert a + b == pytest.approx(1.0)
    final = positions[-1].result()
    assert [heuristic.evaluate(positions[-1], s) for s in (0, 1)] == [
        1.0 / len(final.winners) if s in final.winners else 0.0 for s in (0, 1)
    ]


def test_deus_evaluation_rises_with_points_and_trusts_a_lead_more_near_the_end() -> None:
    """Points gained (DEUS-19.1) raise a seat's evaluation at every stage, and the same lead is
    worth more once the end is triggered (DEUS-18.1) than at the start."""
    positions = _positions(2, 11)
    for p in positions[:-1]:
        richer = p.copy()
        richer.vp[0] += 5
        assert heuristic.evaluate(richer, 0) > heuristic.evaluate(p, 0)
        assert heuristic.evaluate(richer, 1) < heuristic.evaluate(p, 1)
    scales = list(heuristic.STAGE_SCALE_2P)
    assert scales == sorted(scales)
    start = positions[0]
    triggered = next(p for p in positions if heuristic.stage(p) == 0)
    for p in (start, triggered):  # the same projected lead of 10 points at both
        gap = heuristic.projected_score(p, 0) - heuristic.projected_score(p, 1)
        p.vp[0] += round(10 - gap) + 20  # leaves the projected lead between 9.5 and 10.5
        p.vp[1] += 20
    assert heuristic.evaluate(triggered, 0) > heuristic.evaluate(start, 0) > 0.5


def test_deus_19_3_four_player_first_place_chances_add_up_and_an_ended_game_is_its_result() -> None:
    """``evaluate_first``: every seat's chance is in [0, 1], the four add up to one, the same
    position gives the same values (a pure function), and a finished game (DEUS-19.3) gives
    its winner(s) 1 (split when shared) and the others 0, whatever the margins."""
    positions = _positions(4, 21)
    assert len(positions) > 20
    for p in positions[:-1:5]:
        chances = [heuristic.evaluate_first(p, s) for s in range(4)]
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0)
        assert chances == [heuristic.evaluate_first(p.copy(), s) for s in range(4)]
        # the seat projected highest gets the highest chance
        proj = [heuristic.projected_score(p, s) for s in range(4)]
        assert chances.index(max(chances)) == proj.index(max(proj))
    final = positions[-1].result()
    assert [heuristic.evaluate_first(positions[-1], s) for s in range(4)] == [
        1.0 / len(final.winners) if s in final.winners else 0.0 for s in range(4)
    ]


def test_deus_19_1_four_player_first_place_chance_moves_when_behind_and_with_any_opponent() -> None:
    """Points (DEUS-19.1) raise a seat's chance to finish first even far behind, where the
    logistic of the lead over the best other seat (``evaluate``) is nearly flat; points of
    the *second* seat lower the leader's chance too (``evaluate`` ignores them)."""
    p = _positions(4, 23)[10]
    assert heuristic.stage(p) == 3
    proj = [heuristic.projected_score(p, s) for s in range(4)]
    last = proj.index(min(proj))
    p.vp[last] -= 40  # far behind
    richer = p.copy()
    richer.vp[last] += 5
    gain_first = heuristic.evaluate_first(richer, last) - heuristic.evaluate_first(p, last)
    gain_lead = heuristic.evaluate(richer, last) - heuristic.evaluate(p, last)
    assert gain_first > 0.0
    assert gain_first > 3 * gain_lead
    leader = proj.index(max(proj))
    second = sorted(range(4), key=lambda s: proj[s])[-2]
    stronger_second = p.copy()
    stronger_second.vp[second] += 3
    assert heuristic.evaluate_first(stronger_second, leader) < heuristic.evaluate_first(p, leader)


def test_deus_search_settings_by_player_count() -> None:
    """With four players the search scores its cut-offs with ``evaluate_first``; with two and
    three the settings and the evaluation are the former ones; a spec's ``eval`` wins."""
    from civtable.bots.ismcts import IsmctsBot, game_config, parse_spec

    two = game_config(parse_spec("4i"), heuristic, 2)
    assert two == game_config(parse_spec("4i"), heuristic)
    assert two == game_config(parse_spec("4i"), heuristic, 3)
    assert two.evaluation == "auto"
    assert game_config(parse_spec("4i"), heuristic, 4).evaluation == "first"
    assert game_config(parse_spec("4i:eval=auto"), heuristic, 4).evaluation == "auto"
    for players, expected in ((2, heuristic.evaluate), (4, heuristic.evaluate_first)):
        state = new_game(players, 5)
        bot = IsmctsBot(parse_spec("3i"), seed=1)
        while heuristic.search_worthy(state, state.to_move()[0]) is False:
            seat = state.to_move()[0]
            state.apply(seat, heuristic.choose(state, seat, Rng(0)))
        bot.choose(state, state.to_move()[0])
        assert bot._evaluation is expected
    named = IsmctsBot(parse_spec("3i:eval=lead"), seed=1)
    state = new_game(4, 5)
    named._bind("deus", 4)
    assert named._evaluation is heuristic.evaluate


def test_deus_search_settings_are_applied_and_only_main_choices_are_searched() -> None:
    """``ISMCTS_SETTINGS`` are the bot's defaults for Deus; the search runs on main choices
    only (``search_worthy``) and plays follow-up decisions with the heuristic."""
    from dataclasses import replace

    from civtable.bots.ismcts import IsmctsBot, game_config, parse_spec

    cfg = game_config(parse_spec("4i"), heuristic)
    assert cfg.cutoff_unit == "turn"
    assert cfg.searched == "auto"
    spelled_out = parse_spec(f"4i:{heuristic.ISMCTS_SETTINGS}")
    assert cfg == replace(spelled_out, explicit=frozenset())
    positions = _positions(2, 3)
    assert all(heuristic.search_worthy(p, p.to_move()[0]) for p in positions[:-1])
    state = positions[5]
    seat = state.to_move()[0]
    state.apply(seat, heuristic.choose(state, seat, Rng(0)))
    while state.phase == MAIN or len(state.legal_actions(state.to_move()[0])) < 2:
        seat = state.to_move()[0]
        state.apply(seat, heuristic.choose(state, seat, Rng(0)))
    seat = state.to_move()[0]
    assert not heuristic.search_worthy(state, seat)
    bot = IsmctsBot(parse_spec("4i"), seed=2)
    rng = bot.rng.copy().fork()
    assert bot.choose(state, seat) == heuristic.choose(state.determinize(seat, rng), seat, rng)
    assert bot.last.iterations == 0


def test_deus_heuristic_decides_the_same_on_a_logged_position_and_leaves_its_log_alone() -> None:
    """Look-ahead copies (``DeusState.branch``) keep no event log (issue 21): the rules only
    write it, so a position with a log (the server's) gets the same values and decisions as the
    same position without one, and its log is not touched."""
    state = new_game(4, 12)
    state.log = []
    plain = new_game(4, 12)
    rng = Rng(3)
    for _ in range(80):
        seat = state.to_move()[0]
        a = rng.choice(state.legal_actions(seat))
        state.apply(seat, a)
        plain.apply(seat, a)
        mover = state.to_move()[0]
        log = [dict(e) for e in state.log]
        assert heuristic.action_values(state, mover, Rng(7)) == heuristic.action_values(
            plain, mover, Rng(7)
        )
        assert state.log == log
    assert state.log
    assert state.branch().log is None
