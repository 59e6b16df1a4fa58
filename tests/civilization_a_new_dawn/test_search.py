"""What the ISMCTS bot uses of the Civilization heuristic (issue 22): the move values it ranks
its root moves by (``action_values``, the scores ``choose`` maximises), the decisions it searches
(``search_worthy``: the focus-card choice of CIV-5.2), the win-chance ``evaluate`` of its cut-off
playouts and the game's search defaults (``ISMCTS_SETTINGS``)."""

from __future__ import annotations

import pytest

from civtable.bots import UnknownBotError, make_bot
from civtable.bots.ismcts import IsmctsBot, parse_spec
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import heuristic
from civtable.games.civilization_a_new_dawn.actions import SLOT
from civtable.games.civilization_a_new_dawn.state import CivState

from .test_properties import new_game


def _positions(players: int, seed: int, decisions: int) -> list[CivState]:
    """Copies of the positions of a heuristic game where the mover has a choice."""
    s = new_game(players, seed)
    rng = Rng(seed)
    out = []
    for _ in range(decisions):
        if s.is_terminal():
            break
        seat = s.to_move()[0]
        if len(s.legal_actions(seat)) > 1:
            out.append(s.copy())
        s.apply(seat, heuristic.choose(s, seat, rng))
    return out


def _is_focus_choice(s: CivState) -> bool:
    """CIV-5.2: the turn's first decision picks one of the five focus-card slots."""
    legal = s.legal_actions(s.to_move()[0])
    return all(SLOT <= a < SLOT + 5 for a in legal)


def test_civ_5_2_action_values_rank_the_heuristics_own_choice_first() -> None:
    positions = _positions(2, 11, 60)
    assert any(_is_focus_choice(s) for s in positions)
    assert any(not _is_focus_choice(s) for s in positions)
    for i, s in enumerate(positions):
        seat = s.to_move()[0]
        values = heuristic.action_values(s, seat, Rng(i))
        assert sorted(values) == s.legal_actions(seat)
        best = max(values, key=values.__getitem__)
        assert heuristic.choose(s, seat, Rng(i)) == best  # the same generator, the same dice
        assert s.state_hash() == positions[i].state_hash()  # nothing applied to the position
    default = heuristic.action_values(positions[0], positions[0].to_move()[0])
    assert default == heuristic.action_values(positions[0], positions[0].to_move()[0])


def test_civ_5_2_only_the_focus_card_choice_is_search_worthy() -> None:
    for s in _positions(3, 4, 50):
        assert heuristic.search_worthy(s, s.to_move()[0]) == _is_focus_choice(s)


def test_ismcts_searches_focus_choices_and_plays_the_heuristic_elsewhere() -> None:
    positions = _positions(2, 5, 40)
    focus = next(s for s in positions if _is_focus_choice(s))
    sub = next(s for s in positions if not _is_focus_choice(s))
    bot = make_bot("ismcts:10i", 1)
    assert isinstance(bot, IsmctsBot)
    seat = focus.to_move()[0]
    assert bot.choose(focus, seat) in focus.legal_actions(seat)
    assert bot.last.iterations == 10
    assert len(bot.last.moves) == 5  # paired root rollouts over the five slots (ranked)
    assert bot.cfg.reward == "win"  # ISMCTS_SETTINGS: a game is won, not scored by margin
    seat = sub.to_move()[0]
    before = sub.state_hash()
    assert bot.choose(sub, seat) in sub.legal_actions(seat)
    assert bot.last.iterations == 0  # not searched: the policy's move
    assert sub.state_hash() == before
    every = make_bot("ismcts:4i:sd=all", 1)
    assert isinstance(every, IsmctsBot)
    assert every.choose(sub, seat) in sub.legal_actions(seat)
    assert every.last.iterations == 4


def test_search_worthy_option_spec() -> None:
    assert parse_spec("10i").searched == "auto"
    assert parse_spec("10i:sd=all").searched == "all"
    with pytest.raises(UnknownBotError, match="sd"):
        make_bot("ismcts:10i:sd=some", 0)


def test_civ_22_evaluate_is_a_win_chance_that_rises_with_agenda_marks() -> None:
    for s in _positions(3, 8, 40)[::5]:
        values = [heuristic.evaluate(s, q) for q in range(3)]
        assert sum(values) == pytest.approx(1.0)
        assert all(0.0 < v < 1.0 for v in values)
        unmarked = [i for i in range(len(s.victory)) if not s.marks[1] >> i & 1]
        if not unmarked:
            continue
        marked = s.copy()
        marked.marks[1] |= 1 << unmarked[0]  # CIV-22.2: seat 1 marks a victory card
        assert heuristic.evaluate(marked, 1) > values[1]
        assert heuristic.evaluate(marked, 0) < values[0]


def test_civ_22_3_evaluate_is_exact_at_the_end() -> None:
    s = new_game(2, 6)
    rng = Rng(6)
    while not s.is_terminal():
        seat = s.to_move()[0]
        s.apply(seat, heuristic.choose(s, seat, rng))
    rewards = s.result().rewards()
    assert [heuristic.evaluate(s, q) for q in range(2)] == list(rewards)


def test_civ_5_2_playout_policy_is_legal_seeded_and_the_heuristic_off_focus_choices() -> None:
    positions = _positions(2, 13, 60)
    focus = [s for s in positions if _is_focus_choice(s)]
    assert focus
    differs = False
    for i, s in enumerate(positions):
        seat = s.to_move()[0]
        a = heuristic.playout_policy(s, seat, Rng(i))
        assert a in s.legal_actions(seat)
        assert heuristic.playout_policy(s, seat, Rng(i)) == a  # the same generator, the same move
        assert s.state_hash() == positions[i].state_hash()  # nothing applied to the position
        if not _is_focus_choice(s):  # sub-decisions: the heuristic's own one-ply move
            assert a == heuristic.choose(s, seat, Rng(i))
        else:
            fast = heuristic._values(s, seat, Rng(i), heuristic.PLAYOUT_SAMPLE)
            assert a == max(fast, key=fast.__getitem__)
            differs |= fast != heuristic._values(s, seat, Rng(i))
    assert differs  # the cheaper simulation is not the heuristic's own


def test_ismcts_policy_fast_uses_the_playout_policy_and_is_seeded() -> None:
    focus = next(s for s in _positions(2, 5, 40) if _is_focus_choice(s))
    seat = focus.to_move()[0]
    assert parse_spec("10i:policy=fast").policy == "fast"
    moves = []
    for _ in range(2):
        bot = make_bot("ismcts:10i:policy=fast", 3)
        assert isinstance(bot, IsmctsBot)
        moves.append(bot.choose(focus, seat))
        assert bot._policy is heuristic.playout_policy
        assert bot.last.iterations == 10
        assert [m.visits for m in bot.last.moves] == [2] * 5  # paired: two deals of each card
    assert moves[0] == moves[1]
    assert moves[0] in focus.legal_actions(seat)
