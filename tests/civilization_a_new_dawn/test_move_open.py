"""``CivState.move_open`` (issue 18 item 4): which steps of a turn a table may hold back.

A focus card's resolution (CIV-5.3) is open from the card chosen until it is reset; an attack's
dice (CIV-14.4) and a wonder's next card (CIV-12.5) close it, as does another seat's decision.
Start-of-turn effects (CIV-5.4) are open between the effect chosen and its second step, and a map
tile (CIV-4.6) between the tile chosen and its position.
"""

from __future__ import annotations

from civtable import games
from civtable.bots import make_bot
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import CARD_INDEX
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.state import CivState

GAME = games.get("civilization-a-new-dawn")


def at_choice(players: int = 2, seed: int = 1) -> CivState:
    """A game at its first focus-card choice."""
    s: CivState = GAME.new_game(players, seed, {})
    while s.pending[-1][0] != K.D_CHOOSE:
        s.apply(s.to_move()[0], s.legal_actions(s.to_move()[0])[0])
    return s


def slot_of(s: CivState, seat: int, card_id: str) -> int:
    return A.SLOT + s.row[seat].index(CARD_INDEX[card_id])


def test_civ_5_3_the_choice_itself_is_not_part_of_an_open_move() -> None:
    s = at_choice()
    seat = s.to_move()[0]
    assert not s.move_open(seat)  # nothing begun yet
    assert not s.move_open(1 - seat)  # not that seat's decision


def test_civ_5_3_a_culture_card_stays_open_until_it_is_reset() -> None:
    s = at_choice()
    seat = s.to_move()[0]
    s.apply(seat, slot_of(s, seat, "early_empire"))
    while s.owes_decision(seat) and s.current == seat:
        assert s.pending[-1][0] in (K.D_PLACE, K.D_SPEND)
        assert s.move_open(seat), K.NAMES[s.pending[-1][0]]
        s.apply(seat, s.legal_actions(seat)[-1])
    assert not s.move_open(seat)  # reset: the turn passed on


def test_civ_14_4_rolling_the_attack_dice_closes_the_move() -> None:
    rng = Rng(3)
    bot = make_bot("heuristic", 3)
    s: CivState = GAME.new_game(2, 3, {})
    for _ in range(3000):
        seat = s.to_move()[0]
        top = s.pending[-1]
        if top[0] == K.D_ATTACK and any(a >= A.SPACE for a in s.legal_actions(seat)):
            if s.turn_flags >> C.ATTACKS_SHIFT:
                assert not s.move_open(seat)  # an earlier attack's dice
            target = next(a for a in s.legal_actions(seat) if a >= A.SPACE)
            s.apply(seat, target)
            assert not s.move_open(seat)  # the dice are known now
            if s.owes_decision(seat) and s.current == seat:
                assert not s.move_open(seat)  # and for the rest of the turn
            return
        s.apply(
            seat, bot.choose(s, seat) if rng.randbelow(2) else rng.choice(s.legal_actions(seat))
        )
    raise AssertionError("no attack in 3000 steps")


def test_civ_12_5_building_a_wonder_closes_the_move() -> None:
    for seed in range(1, 20):
        bot = make_bot("heuristic", seed)
        s: CivState = GAME.new_game(3, seed, {})
        while not s.is_terminal():
            seat = s.to_move()[0]
            if s.pending[-1][0] == K.D_WPAY:
                assert s.move_open(seat)  # choosing and paying reveal nothing
            if s.pending[-1][0] == K.D_WCITY:
                assert s.move_open(seat)
                s.apply(seat, s.legal_actions(seat)[0])  # the deck's next card is turned up
                assert not s.move_open(seat)
                return
            s.apply(seat, bot.choose(s, seat))
    raise AssertionError("no wonder built")


def test_civ_5_4_a_start_of_turn_effect_is_open_until_its_last_step() -> None:
    s = at_choice()
    seat = s.to_move()[0]
    # the next turn of this seat, with the Oracle (swap 2 adjacent focus cards)
    s.wonder_owner[C.W["oracle"]] = seat
    while not (s.current == seat and s.pending[-1][0] == K.D_START):
        who = s.to_move()[0]
        s.apply(who, s.legal_actions(who)[0])
    assert not s.move_open(seat)
    s.apply(seat, A.OPT + 2)  # the Oracle's effect (rules/start.py ORACLE)
    assert s.pending[-1][0] == K.D_ORACLE
    assert s.move_open(seat)
    s.apply(seat, A.OPT)
    # back to the start frame (or, with no other effect left, to the card choice): the effect is
    # complete and is stored with its steps
    assert s.pending[-1][0] in (K.D_START, K.D_CHOOSE)
    assert not s.move_open(seat)


def test_civ_4_6_a_map_tile_is_open_until_placed() -> None:
    s: CivState = GAME.new_game(2, 4, {"map": "standard"})
    seat = s.to_move()[0]
    assert s.pending[-1][0] == K.D_MAPTILE
    assert not s.move_open(seat)
    s.apply(seat, s.legal_actions(seat)[0])
    assert s.pending[-1][0] == K.D_MAPORIENT
    assert s.move_open(seat)
    s.apply(seat, s.legal_actions(seat)[0])
    assert s.pending[-1][0] == K.D_MAPPOS
    assert s.move_open(seat)
    s.apply(seat, s.legal_actions(seat)[0])
    assert not s.move_open(seat)


def test_move_open_changes_no_trajectory() -> None:
    """Asking is free: the same game with and without the questions ends the same."""
    a: CivState = GAME.new_game(2, 9, {})
    b: CivState = GAME.new_game(2, 9, {})
    rng_a, rng_b = Rng(9), Rng(9)
    for _ in range(400):
        if a.is_terminal():
            break
        seat = a.to_move()[0]
        a.move_open(seat)
        a.apply(seat, rng_a.choice(a.legal_actions(seat)))
        b.apply(seat, rng_b.choice(b.legal_actions(seat)))
    assert a.state_hash() == b.state_hash()
