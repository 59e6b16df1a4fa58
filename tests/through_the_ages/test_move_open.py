"""TTAState.move_open: the compound moves a table may hold back and withdraw (issue 18), and
only those."""

from __future__ import annotations

import random

from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages import actions as act
from civtable.games.through_the_ages.catalog import BY_ID, CARDS
from civtable.games.through_the_ages.state import P_DISCARD, P_PERFORM, P_SEND, TTAState
from tests.through_the_ages.scenario import action_phase, card, cubes, develop, workers
from tests.through_the_ages.scenario import politics_phase as _politics_phase
from tests.through_the_ages.test_politics import soldiers


def test_tta_7_2_11_an_action_card_keeps_the_move_open_until_its_choice() -> None:
    s = action_phase(2, 3)
    rich = BY_ID["rich_land_a"]
    s.civs[0].hand = [rich]
    s.civs[0].pool = 1
    cubes(s.civs[0], bronze=4)
    s._legal = None
    assert not s.move_open(0)  # nothing begun
    s.apply(0, act.PLAY + rich)
    assert s.pending[0] == P_PERFORM
    assert s.move_open(0)
    assert not s.move_open(1)  # only the seat that began it
    s.apply(0, s.legal_actions(0)[0])  # the building it builds
    assert not s.move_open(0)


def test_tta_7_2_1_single_step_actions_are_final() -> None:
    s = action_phase(2, 3)
    take = next(a for a in s.legal_actions(0) if act.TAKE <= a < act.POP)
    s.apply(0, take)
    assert not s.move_open(0)


def test_tta_8_1_ending_the_turn_stays_open_while_military_cards_are_discarded() -> None:
    s = action_phase(2, 3)
    mil = [c.idx for c in CARDS if c.type == "tactic" and c.age == 1][:4]
    s.civs[0].mhand = list(mil)  # over the limit of 2 (Despotism)
    s._legal = None
    s.apply(0, act.END)
    assert s.pending[0] == P_DISCARD
    assert s.move_open(0)
    hand = len(s.civs[0].mhand)
    s.apply(0, s.legal_actions(0)[0])
    assert s.move_open(0)  # one more to discard
    s.apply(0, s.legal_actions(0)[0])
    assert len(s.civs[0].mhand) <= hand  # production and the draw came after the last discard
    assert not s.move_open(0)
    assert s.current == 1


def test_tta_6_4_a_defence_under_way_is_open_for_the_defender_only() -> None:
    s = _politics_phase(3, 0, round_=2, age=2)
    raid, bonus, spy = BY_ID["raid_ii"], BY_ID["military_bonus_i"], BY_ID["spy"]
    soldiers(s, 0, 3)
    s.civs[0].mhand = [raid]
    s.civs[0].ma = 5
    s.civs[1].mhand = [bonus, spy]
    s._legal = None
    s.apply(0, act.AGGRESS + raid * 4 + 1)
    assert not s.move_open(0)
    assert not s.move_open(1)
    s.apply(1, act.PLAY + bonus)
    assert s.move_open(1)
    assert not s.move_open(0)
    s.apply(1, act.DONE)
    assert not s.move_open(1)


def test_tta_11_3_sending_a_colonizing_force_is_open_until_sent() -> None:
    s = _politics_phase(2, 0, round_=2, age=2)
    territory = next(c.idx for c in CARDS if c.type == "territory" and c.age == 1)
    s.queue.insert(0, [0, P_SEND, territory, 1, 0, 0])
    develop(s.civs[0], "swordsmen")
    workers(s.civs[0], swordsmen=2)
    from civtable.games.through_the_ages.rules import politics

    politics.advance(s)
    assert s.pending[0] == P_SEND
    assert not s.move_open(0)
    s.apply(0, act.SEND + CARDS[card("swordsmen")].slot)
    assert s.move_open(0)
    s.apply(0, act.DONE)
    assert not s.move_open(0)


def test_move_open_never_claims_a_move_after_a_hidden_reveal() -> None:
    """Random games: whenever a seat's move is open, its last action was its own (nothing from
    another seat in between) and was not a step that reveals or draws cards (preparing an event,
    ending the turn without discards, bidding)."""
    for seed, players, mode in ((1, 3, "full"), (2, 4, "full"), (3, 2, "first")):
        rng = random.Random(seed)
        s: TTAState = GAME.new_game(players, seed, {"mode": mode})
        for _ in range(500):
            if s.is_terminal():
                break
            seat = s.to_move()[0]
            legal = [a for a in s.legal_actions(seat) if a != act.RESIGN]
            a = rng.choice(legal)
            s.apply(seat, a)
            if s.is_terminal() or not s.move_open(seat):
                continue
            assert s.decider() == seat
            assert not act.PREPARE <= a < act.AGGRESS  # an event was revealed
            assert not (act.OPTION <= a < act.SEND and s.pending[0] == 7)  # an auction
            if a == act.END:
                assert s.pending[0] == P_DISCARD
