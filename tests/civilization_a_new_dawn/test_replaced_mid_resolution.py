"""CIV-9.6 / CIV-A46: a card replaced while it resolves hands its place to the new card, which is
reset to slot 1 and stands in for it in the "after you resolve" triggers (Venetian Arsenal, D7:
"after you resolve the card in slot 5, you may resolve it again as though it were in slot 1").

Regression: the trigger used to look the replaced card up in the row and raised ``ValueError``
(found by random play, 2 players, seed 222, step 695).
"""

from __future__ import annotations

import random

from civtable.games.civilization_a_new_dawn import GAME
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    CARD_INDEX,
    ECONOMY,
    FOCUS_CARDS,
    MILITARY,
    SCIENCE,
    WONDER_INDEX,
)
from civtable.games.civilization_a_new_dawn.rules import kinds
from civtable.games.civilization_a_new_dawn.state import CivState

from .scenario import make, row, top

LINE = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (3, 0): "G", (4, 0): "G", (5, 0): "G"}
SWAP = "swap / extra resolution"


def _venetian_slot5_astrology() -> CivState:
    """Seat 0 owns Venetian Arsenal and resolves Astrology from slot 5 across tier II."""
    s = make(LINE, capitals={0: (0, 0)})
    s.wonder_owner[WONDER_INDEX["venetian_arsenal"]] = 0
    row(s, 0, "foreign_trade", "masonry", "pottery", "early_empire", "astrology")
    s.apply(0, act.SLOT + 4)  # slot 5: dial 0 -> 5, passing tier II at 3
    assert s.dial[0] == 5
    assert top(s) == "tech upgrade"
    return s


def test_civ_9_6_venetian_arsenal_resolves_the_upgraded_science_card() -> None:
    s = _venetian_slot5_astrology()
    maths = CARD_INDEX["mathematics"]
    assert act.CARD + maths in s.legal_actions(0)
    s.apply(0, act.CARD + maths)  # Astrology is replaced by Mathematics while resolving
    assert s.row[0][0] == maths  # the new card is the one reset (CIV-A46)
    assert CARD_INDEX["astrology"] not in s.row[0]
    assert top(s) == SWAP  # the Venetian Arsenal offer, answerable
    assert s.pending[-1][:4] == [kinds.D_SWAP1, 0, 2, SCIENCE]
    assert s.legal_actions(0) == [act.DONE, act.OPT]
    s.apply(0, act.OPT)  # resolve it again as though in slot 1: Mathematics
    assert top(s) == "place a trade token"  # Mathematics' first step
    s.apply(0, act.TYPE + ECONOMY)
    assert s.dial[0] == 6  # + slot 1
    assert s.trade[0][ECONOMY] == 1


def test_civ_9_6_venetian_arsenal_declined_after_an_upgrade() -> None:
    s = _venetian_slot5_astrology()
    s.apply(0, act.CARD + CARD_INDEX["mathematics"])
    s.apply(0, act.DONE)
    assert s.dial[0] == 5
    assert s.current == 1  # the turn ended normally


def test_civ_9_6_oxford_replacement_of_the_capitalism_card_keeps_its_place() -> None:
    """Capitalism from slot 5 resolves Astrology, whose upgrade (Oxford University) replaces
    Capitalism itself by a military card: the Venetian Arsenal offer concerns that new card."""
    s = make(LINE, capitals={0: (0, 0)})
    s.wonder_owner[WONDER_INDEX["venetian_arsenal"]] = 0
    s.wonder_owner[WONDER_INDEX["oxford_university"]] = 0
    row(s, 0, "astrology", "masonry", "pottery", "early_empire", "capitalism")
    s.dial[0] = 2
    s.apply(0, act.SLOT + 4)  # Capitalism from slot 5
    while top(s) == "choose a caravan to move":
        s.apply(0, act.DONE)
    assert top(s) == "Capitalism: resolve another card from slot 1"
    s.apply(0, act.TYPE + SCIENCE)  # Astrology from slot 1: dial 2 -> 3 (tier II)
    assert top(s) == "tech upgrade"
    iron = CARD_INDEX["iron_working"]
    s.apply(0, act.CARD + iron)
    s.apply(0, act.TYPE + ECONOMY)  # Iron Working takes Capitalism's place
    assert s.place[0][ECONOMY] == iron
    assert CARD_INDEX["capitalism"] not in s.row[0]
    assert top(s) == SWAP
    assert s.pending[-1][:4] == [kinds.D_SWAP1, 0, 2, ECONOMY]
    s.apply(0, act.OPT)
    assert top(s) == "choose the card's option"  # Iron Working (military) as though in slot 1
    assert s.pending[-1][2] == iron
    assert s.pending[-1][3] == 1
    assert sum(1 for c in s.row[0] if FOCUS_CARDS[c].type == MILITARY) == 2


def test_civ_9_6_random_play_seed_222_does_not_crash() -> None:
    """The original failure: random legal play, 2 players, seed 222, past step 695."""
    s = GAME.new_game(2, 222)
    rng = random.Random(222)
    for _ in range(800):
        if s.is_terminal():
            break
        seat = min(s.to_move())
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert s.is_terminal() or s.legal_actions(min(s.to_move()))
