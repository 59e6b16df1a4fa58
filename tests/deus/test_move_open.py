"""Which steps of a Deus move can be withdrawn (``DeusState.move_open``, the server's tentative
steps): a construction's card, payment, region and effect choices until a card is drawn, an
offering's cards until it is finished, the free-start picks until the last one."""

from __future__ import annotations

from civtable.core.rng import Rng
from civtable.games.deus import GAME
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import CARDS, P_INDEX
from civtable.games.deus.state import GAIN, MAIN, OFFERING, PAY_PH, PICK, PLACE, TARGET

from .scenario import (
    add_action,
    build_action,
    hand,
    new,
    offer_action,
    put,
    region_action,
    resources,
)


def test_deus_10_1_offering_open_until_finished_then_closed_by_the_refill() -> None:
    s = new(2)
    hand(s, 0, "RED-01", "BRN-01", "YEL-01")
    assert not s.move_open(0)  # nothing begun
    s.apply(0, offer_action("RED-01"))
    assert s.phase == OFFERING
    assert s.move_open(0)
    assert not s.move_open(1)
    s.apply(0, add_action("BRN-01"))
    assert s.move_open(0)
    s.apply(0, act.DONE)  # DEUS-10.5: the refill draws cards (hidden) and the turn ends
    assert not s.move_open(0)
    assert not s.move_open(1)


def test_deus_10_3_3_ceres_choices_stay_open_when_nothing_was_drawn() -> None:
    """An offering from a hand of 7 draws nothing (DEUS-10.5): Ceres' resources can still be
    withdrawn with it; from a small hand the refill closes the move first."""
    s = new(2)
    hand(s, 0, "GRN-01", "GRN-02", "BRN-01", "BRN-02", "BRN-03", "BRN-04", "YEL-01")
    s.apply(0, offer_action("GRN-01"))
    s.apply(0, act.DONE)
    assert s.phase == GAIN
    assert s.move_open(0)
    t = new(2)
    hand(t, 0, "GRN-01", "BRN-01")
    t.apply(0, offer_action("GRN-01"))
    t.apply(0, act.DONE)
    assert t.phase == GAIN
    assert not t.move_open(0)


def test_deus_7_construction_open_through_payment_and_region() -> None:
    s = new(2)
    hand(s, 0, "BRN-01")
    resources(s, 0, wood=1)
    s.gold[0] = 9  # the wood may also be paid with 4 gold: a payment choice
    s._legal.clear()
    s.apply(0, build_action("BRN-01"))
    assert s.phase == PAY_PH
    assert s.move_open(0)
    s.apply(0, s.legal_actions(0)[0])
    assert s.phase == PLACE
    assert s.move_open(0)
    before = s.state_hash()
    assert s.copy().move_open(0)  # a copy keeps it (the server's tentative states are copies)
    assert GAME.state_from_json(s.to_json()).state_hash() == before  # not part of the position
    assert not GAME.state_from_json(s.to_json()).move_open(0)  # a stored state is committed
    s.apply(0, s.legal_actions(0)[0])  # the region: Lumberjacks' Guild acts, the turn ends
    assert s.phase == MAIN
    assert s.cur == 1
    assert not s.move_open(0)


def test_deus_7_6_effect_choices_open_until_a_card_is_drawn() -> None:
    """A Siege Tower's village is chosen after the army is placed; nothing hidden has been seen,
    so the whole construction may still be withdrawn. A School in the same column draws cards
    (DEUS-14.1) before it: then the move is closed."""
    s = new(2)
    put(s, 0, "S0.NE", "civ")
    hand(s, 0, "RED-06")
    resources(s, 0, wood=1, stone=1, clay=1, wheat=1)
    s.gold[0] = 0  # one way to pay: no payment step
    s.onboard[0][P_INDEX["army"]] = 1
    s._legal.clear()
    s.apply(0, build_action("RED-06"))
    s.apply(0, region_action(s, "S0.NW"))  # next to the village S0.C and to S3.SW
    assert s.phase == TARGET
    assert s.move_open(0)
    t = new(2)
    put(t, 0, "S0.NE", "civ", "sci")  # a region with 2 buildings: School draws 1 card
    t.cols[0][1] = [CARDS.index(next(c for c in CARDS if c.id == "YEL-01"))]
    hand(t, 0, "YEL-07")  # a Laboratory (blue) on top of the School: nothing to activate
    resources(t, 0, wood=1, stone=1, clay=1, wheat=1)
    t.gold[0] = 0
    t._legal.clear()
    deck = len(t.deck)
    t.apply(0, build_action("YEL-07"))
    assert t.move_open(0)
    t.apply(0, t.legal_actions(0)[0])
    assert len(t.deck) < deck  # the School drew
    assert not t.move_open(0)


def test_deus_21_1_free_start_picks_open_until_the_last_one() -> None:
    s = GAME.new_game(2, 3, {"free_start": 6})
    assert s.phase == PICK
    assert not s.move_open(0)
    for k in range(5):
        s.apply(0, act.PIECE + k)
        assert s.move_open(0)
    s.apply(0, act.PIECE)
    assert not s.move_open(0)  # the sixth and last pick completes the move


def test_deus_move_open_never_changes_the_game() -> None:
    """Random games: the flag is never open for a seat that does not owe the decision, and
    states equal by hash whatever it says."""
    for seed in range(4):
        s = GAME.new_game(3, seed, {"blind_building": True})
        rng = Rng(seed)
        while not s.is_terminal() and len(s.history) < 600:
            seat = s.to_move()[0]
            for other in range(3):
                if s.move_open(other):
                    assert other in s.to_move()
            s.apply(seat, rng.choice(s.legal_actions(seat)))
