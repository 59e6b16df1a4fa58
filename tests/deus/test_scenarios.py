"""The canonical scenarios T1 .. T21 of shared/rules/deus.md section T, one test each.

Scenarios that state a card cost use a card of the catalog with exactly that cost, or set the
stocks so the outcome does not depend on the SUBSTITUTE cost table.
"""

from __future__ import annotations

import pytest

from civtable import games
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import C_INDEX, CARDS, P_INDEX, RES_INDEX, card_by_id
from civtable.games.deus.rules import board as board_rules
from civtable.games.deus.rules import construct, effects
from civtable.games.deus.rules.board import destinations, normal_targets
from civtable.games.deus.state import GAIN, MAIN, OVER, PAY_PH, PLACE, SELL_PH, DeusState

from .scenario import (
    add_action,
    build_action,
    card,
    changed,
    column,
    edge_action,
    hand,
    ids,
    legal_regions,
    new,
    offer_action,
    personal,
    pieces_on_board,
    put,
    region,
    region_action,
    resources,
)

BROWN, YELLOW, BLUE, RED, GREEN, PURPLE = (
    C_INDEX[c] for c in ("brown", "yellow", "blue", "red", "green", "purple")
)
WOOD, STONE, CLAY, WHEAT = (RES_INDEX[r] for r in ("wood", "stone", "clay", "wheat"))


def card_with_cost(**cost: int) -> int:
    """A non-temple card type whose printed cost is exactly ``cost`` (the scenario's cost)."""
    want = tuple(cost.get(r, 0) for r in ("wood", "stone", "clay", "wheat"))
    for c in CARDS:
        if c.cost == want and c.cost_gold == 0 and c.color != PURPLE:
            return c.index
    pytest.skip(f"no card costs exactly {cost} in the current data")


def finish_turn(state: DeusState) -> None:
    """Let the active seat end its turn by offering its first card (DONE whenever possible)."""
    seat = state.cur
    state.apply(seat, act.OFFER + state.hands[seat][0])
    while state.phase not in (MAIN, OVER) or state.cur == seat:
        legal = state.legal_actions(seat)
        state.apply(seat, act.DONE if act.DONE in legal else legal[0])


def test_t1_setup_three_players() -> None:
    s = games.get("deus").new_game(3, 11)
    assert isinstance(s, DeusState)
    b = s.board
    assert b.size == 42
    assert len(b.villages) == 6
    assert s.temples == 6
    assert s.supply == [12, 12, 12, 12]
    for p in range(3):
        assert s.gold[p] == 5
        assert s.vp[p] == 5
        assert s.res[p] == [1, 1, 1, 1]
        assert len(s.hands[p]) == 5
        assert s.onboard[p] == [2] * 5
        assert s.personal[p] == [3] * 5
    assert len(s.deck) == 81
    assert s.discard == []
    got = {b.ids[v]: vp for v, vp in zip(b.villages, s.vvp, strict=True)}
    assert got == {"S0.C": 6, "S1.W": 5, "S2.E": 3, "S3.SW": 6, "S4.SW": 4, "S5.W": 3}  # [SUB]


def test_t2_column_activation_order() -> None:
    s = new(2)
    put(s, 0, "S1.NW", "prod")
    put(s, 0, "S2.SE", "civ", "prod")
    put(s, 0, "S1.C", "army")
    column(s, 0, BROWN, "BRN-03", "BRN-08")
    hand(s, 0, "BRN-09", "GRN-01")
    resources(s, 0, wheat=1)
    gold0, vp0, wheat0 = s.gold[0], s.vp[0], s.res[0][WHEAT]
    s.apply(0, build_action("BRN-09"))
    if s.phase == PAY_PH:  # 1 wheat or 4 gold
        s.apply(0, act.PAY + 0)
    assert s.phase == PLACE
    s.apply(0, region_action(s, "S1.C"))
    assert s.res[0][WHEAT] == wheat0 - CARDS[card("BRN-09")].cost[WHEAT]
    assert s.vp[0] - vp0 == 2  # Bakers' Guild: 2 fields
    assert s.gold[0] - gold0 == 6 + 6  # Trading Post (field) 6, Brewery 6
    assert s.cols[0][BROWN] == [card("BRN-03"), card("BRN-08"), card("BRN-09")]


def test_t3_paying_with_gold() -> None:
    t = card_with_cost(wood=1, stone=1)
    s = new(2)
    resources(s, 0, wood=0, stone=1)
    s.gold[0] = 5
    codes = construct.payments(s, 0, t)
    assert codes == [act.pay_code((1, 0, 0, 0))]
    construct.pay(s, 0, t, codes[0])
    assert (s.res[0][WOOD], s.res[0][STONE], s.gold[0]) == (0, 0, 1)
    resources(s, 0, wood=1, stone=1)
    s.gold[0] = 9
    plans = {tuple(act.pay_units(c)) for c in construct.payments(s, 0, t)}
    assert plans == {(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0), (1, 1, 0, 0)}
    resources(s, 0, wood=0, stone=0)
    s.gold[0] = 7
    assert construct.payments(s, 0, t) == []
    hand(s, 0, CARDS[t].id)
    assert build_action(CARDS[t].id) not in s.legal_actions(0)


def test_t4_no_piece_no_card() -> None:
    s = new(2)
    pieces_on_board(s, 0, prod=0)
    personal(s, 0, prod=3)
    resources(s, 0, wood=10, stone=10, clay=10, wheat=10)
    hand(s, 0, "GRN-02", "GRN-01")
    assert build_action("GRN-02") not in s.legal_actions(0)
    s.apply(0, offer_action("GRN-01"))
    s.apply(0, act.DONE)
    assert s.phase == GAIN  # Ceres: 1 resource of P's choice
    s.apply(0, act.RES + WOOD)
    assert s.res[0][WOOD] == 11
    assert s.onboard[0][P_INDEX["prod"]] == 1
    assert card("GRN-02") in s.hands[0]
    assert construct.can_construct(s, 0, card("GRN-02"))


def test_t5_first_building_distance() -> None:
    s = new(2)
    put(s, 0, "S0.SW", "prod")
    land = ids(s, normal_targets(s, 1, P_INDEX["civ"]))
    assert land == {"S1.SE", "S1.SW", "S2.NW", "S2.SE", "S3.E", "S3.W"}
    ships = ids(s, normal_targets(s, 1, P_INDEX["ship"]))
    assert ships == {"S1.E", "S1.NE", "S2.NE", "S3.NE", "S3.NW"}
    assert "S0.NW" not in land
    assert "S1.C" not in land


def test_t6_later_placements() -> None:
    s = new(2)
    put(s, 0, "S0.SW", "prod")
    put(s, 1, "S3.W", "civ")
    hand(s, 0, "BRN-05", "GRN-01")
    resources(s, 0, wood=1, stone=0, clay=0, wheat=0)
    s.gold[0] = 0
    s.apply(0, build_action("BRN-05"))  # one payment: 1 wood
    normal, edge = legal_regions(s, 0)
    assert normal == {"S0.SW", "S0.SE"}
    assert edge == {"S0.NW", "S1.SE", "S1.SW", "S2.NW", "S2.SE", "S3.E"}
    from civtable.games.deus.rules.board import edge_targets

    prod_normal = normal_targets(s, 0, P_INDEX["prod"])
    assert ids(s, prod_normal) == {"S0.SE"}
    assert ids(s, edge_targets(s, 0, P_INDEX["prod"], prod_normal)) == edge
    s.apply(0, edge_action(s, "S1.SE"))
    assert s.vp[0] == 2
    assert edge_targets(s, 0, P_INDEX["prod"], normal_targets(s, 0, P_INDEX["prod"])) == []


def test_t7_ships() -> None:
    s = new(2)
    put(s, 0, "S0.SW", "prod")
    put(s, 0, "S0.W", "ship")
    put(s, 1, "S0.NW", "civ")
    from civtable.games.deus.rules.board import edge_targets

    ship = P_INDEX["ship"]
    normal = normal_targets(s, 0, ship)
    assert normal == []
    assert ids(s, edge_targets(s, 0, ship, normal)) == {"S1.E", "S1.NE", "S2.NE", "S3.NE", "S3.NW"}
    assert "S0.W" not in ids(s, normal_targets(s, 1, ship))
    seas = {s.board.ids[r] for r in range(s.board.size) if s.board.terrain[r] == 4}
    for seat in (0, 1):
        for piece in ("civ", "sci", "army", "prod"):
            assert not ids(s, normal_targets(s, seat, P_INDEX[piece])) & seas


def test_t8_offering_to_minerva() -> None:
    s = new(2)
    hand(s, 0, "YEL-01", "YEL-01", "RED-01", "GRN-01", "BLU-13")
    deck0, sci0 = len(s.deck), s.onboard[0][P_INDEX["sci"]]
    s.apply(0, offer_action("YEL-01"))
    s.apply(0, add_action("RED-01"))
    s.apply(0, add_action("GRN-01"))
    s.apply(0, act.DONE)
    assert len(s.hands[0]) == 8
    assert len(s.deck) == deck0 - 6
    assert len(s.discard) == 3
    assert CARDS[s.discard[-1]].color == YELLOW
    assert s.onboard[0][P_INDEX["sci"]] == sci0 + 1
    assert s.personal[0][P_INDEX["sci"]] == 2


def test_t9_offering_with_a_big_hand() -> None:
    s = new(2)
    hand(s, 0, "BRN-01", "BRN-02", *(["YEL-01"] * 7))
    gold0 = s.gold[0]
    deck0 = len(s.deck)
    s.apply(0, offer_action("BRN-01"))
    s.apply(0, add_action("BRN-02"))
    s.apply(0, act.DONE)
    assert len(s.hands[0]) == 7
    assert len(s.deck) == deck0
    assert s.onboard[0][P_INDEX["civ"]] == 3
    assert s.gold[0] == gold0 + 6  # [SUB] Vesta 3 gold per card


def test_t9b_offerings_to_neptune_and_ceres() -> None:
    # (a) Neptune
    s = new(2)
    s.gold[0] = 3
    hand(s, 0, "BLU-13", "BLU-01", "BLU-02", "YEL-01", "YEL-01", "RED-01")
    s.apply(0, offer_action("BLU-13"))
    s.apply(0, add_action("BLU-01"))
    s.apply(0, add_action("BLU-02"))
    s.apply(0, act.DONE)
    assert s.gold[0] == 9
    assert s.res[0] == [1, 1, 1, 1]
    assert s.onboard[0][P_INDEX["ship"]] == 3
    assert len(s.hands[0]) == 5
    # (b) Ceres, 2 clay
    s = new(2)
    hand(s, 0, "GRN-01", "GRN-02", "YEL-01", "YEL-01", "RED-01", "RED-01")
    s.apply(0, offer_action("GRN-01"))
    s.apply(0, add_action("GRN-02"))
    s.apply(0, act.DONE)
    s.apply(0, act.RES + CLAY)
    s.apply(0, act.RES + CLAY)
    assert s.res[0][CLAY] == 3
    assert s.gold[0] == 5
    assert s.onboard[0][P_INDEX["prod"]] == 3
    assert len(s.hands[0]) == 5
    # (c) only 1 clay left in the supply
    s = new(2)
    hand(s, 0, "GRN-01", "GRN-02", "YEL-01", "YEL-01", "RED-01", "RED-01")
    s.supply[CLAY] = 1
    s.apply(0, offer_action("GRN-01"))
    s.apply(0, add_action("GRN-02"))
    s.apply(0, act.DONE)
    s.apply(0, act.RES + CLAY)
    assert act.RES + CLAY not in s.legal_actions(0)
    s.apply(0, act.RES + WHEAT)
    assert (s.res[0][CLAY], s.res[0][WHEAT], s.supply[CLAY]) == (2, 2, 0)


def test_t10_hand_cap() -> None:
    s = new(2)
    hand(s, 0, *(["YEL-01"] * 2 + ["YEL-02"] * 2 + ["YEL-11"] * 2))
    deck0 = len(s.deck)
    s.apply(0, offer_action("YEL-01"))
    for c in ("YEL-01", "YEL-02", "YEL-02", "YEL-11", "YEL-11"):
        s.apply(0, add_action(c))
    assert len(s.hands[0]) == 10
    assert len(s.deck) == deck0 - 10


def test_t11_empty_hand_after_constructing() -> None:
    s = new(2)
    hand(s, 0, "BRN-05")
    resources(s, 0, wood=1, stone=0, clay=0, wheat=0)
    s.gold[0] = 0
    s.apply(0, build_action("BRN-05"))
    s.apply(0, s.legal_actions(0)[0])
    assert s.cur == 1
    assert len(s.hands[0]) == 5


def test_t12_temple_prerequisites_and_cost() -> None:
    s = new(2)
    column(s, 0, PURPLE, "PUR-01")
    column(s, 0, BROWN, "BRN-01")
    column(s, 0, YELLOW, "YEL-01")
    column(s, 0, BLUE)
    column(s, 0, RED, "RED-01", "RED-01")
    column(s, 0, GREEN, "GRN-01")
    assert not construct.temple_prerequisite(s, 0)
    column(s, 0, BLUE, "BLU-01")
    assert construct.temple_prerequisite(s, 0)
    column(s, 0, PURPLE, "PUR-01", "PUR-02")
    assert not construct.temple_prerequisite(s, 0)
    resources(s, 0, wood=1, stone=0, clay=0, wheat=1)
    s.gold[0] = 9
    temple = card("PUR-03")
    codes = construct.payments(s, 0, temple)
    assert [act.pay_units(c) for c in codes] == [[0, 1, 1, 0]]
    construct.pay(s, 0, temple, codes[0])
    assert s.gold[0] == 1
    assert s.res[0] == [0, 0, 0, 0]
    resources(s, 0, wood=1, stone=0, clay=0, wheat=1)
    s.gold[0] = 7
    assert construct.payments(s, 0, temple) == []


def test_t13_attack_won_by_a_non_active_player() -> None:
    s = new(2)
    put(s, 0, "S2.C", "army")
    put(s, 1, "S2.NE", "ship")
    put(s, 1, "S2.NW", "civ")
    put(s, 1, "S1.NE", "ship")
    s.cur = 1
    hand(s, 1, "GRN-01", "YEL-01")
    resources(s, 1, wood=1, stone=0, clay=0, wheat=1)
    s.gold[1] = 0
    vp0, vp1 = s.vp[0], s.vp[1]
    s.apply(1, build_action("GRN-01"))
    s.apply(1, region_action(s, "S2.SE"))
    i = s.board.villages.index(region(s, "S2.E"))
    assert s.vp[0] == vp0 + 3
    assert s.vp[1] == vp1
    assert s.vatt[i] == 1
    assert s.vvp[i] == 0
    assert s.res[1][WHEAT] == 2  # then the green column: the field produced 1 wheat


@pytest.mark.parametrize("variant", ["a", "b"])
def test_t14_attack_tie_breaks(variant: str) -> None:
    s = new(2)
    put(s, 0, "S0.NW", "army", *(["civ"] if variant == "a" else []))
    put(s, 0, "S3.SE", "prod")
    put(s, 1, "S3.C", "army")
    vp0, vp1 = s.vp[0], s.vp[1]
    board_rules.place(s, 1, region(s, "S3.W"), 1 << P_INDEX["civ"])
    if variant == "a":
        assert (s.vp[0] - vp0, s.vp[1] - vp1) == (4, 0)
    else:
        assert (s.vp[0] - vp0, s.vp[1] - vp1) == (2, 2)


def test_t15_army_movement_range() -> None:
    s = new(2)
    put(s, 0, "S0.NW", "army")
    put(s, 0, "S0.W", "ship")
    put(s, 1, "S3.SE", "civ")
    put(s, 1, "S0.NE", "prod")
    put(s, 1, "S2.SW", "ship")
    start = region(s, "S0.NW")
    assert ids(s, destinations(s, 0, start, 1)) == {"S0.NW", "S0.W"}
    assert ids(s, destinations(s, 0, start, 2)) == {
        "S0.NW",
        "S0.SE",
        "S0.SW",
        "S0.W",
        "S2.W",
        "S3.C",
        "S3.E",
        "S3.W",
    }
    far = ids(s, destinations(s, 0, start, 4))
    assert far == {
        "S0.NW",
        "S0.SE",
        "S0.SW",
        "S0.W",
        "S1.C",
        "S1.NW",
        "S1.SW",
        "S2.C",
        "S2.NW",
        "S2.SE",
        "S2.W",
        "S3.C",
        "S3.E",
        "S3.W",
    }
    assert not far & {"S0.NE", "S3.SE", "S0.C", "S3.SW", "S1.W", "S0.E", "S2.SW", "S1.E"}


@pytest.mark.parametrize("trigger_seat", [1, 2])
def test_t16_end_game_timing(trigger_seat: int) -> None:
    s = new(3)
    s.round = 9
    s.cur = trigger_seat
    s.turns = [9] * trigger_seat + [8] * (3 - trigger_seat)
    s.temples = 1
    put(s, trigger_seat, "S1.C", "civ")
    hand(s, trigger_seat, "PUR-05", "YEL-01")
    s.apply(trigger_seat, build_action("PUR-05"))
    if s.phase == PAY_PH:
        s.apply(trigger_seat, act.PAY + 0)
    s.apply(trigger_seat, region_action(s, "S1.C"))
    assert s.temples == 0
    assert s.end_round == 10
    while not s.is_terminal():
        assert s.round <= 10
        finish_turn(s)
    assert s.turns == [10, 10, 10]
    # (c) a second trigger in the final round changes nothing
    s2 = new(3)
    s2.end_round = 10
    s2.round = 10
    s2.vatt = [1] * len(s2.vatt)
    board_rules.check_end_trigger(s2)
    assert s2.end_round == 10


def test_t17_final_scoring_with_majorities_and_caps() -> None:
    s = new(2)
    s.vp = [30, 32]
    column(s, 0, PURPLE, "PUR-07")
    resources(s, 0, wheat=7, clay=0, stone=2, wood=2)
    resources(s, 1, wheat=1, clay=0, stone=2, wood=3)
    s.gold = [10, 10]
    r = s.result()
    assert r.breakdown[0]["temples"] == 12
    assert r.breakdown[0]["majority_wheat"] == 2
    assert r.breakdown[1]["majority_wheat"] == 0
    assert r.breakdown[0]["majority_clay"] == 0
    assert r.breakdown[1]["majority_clay"] == 0
    assert r.breakdown[0]["majority_stone"] == 2
    assert r.breakdown[1]["majority_stone"] == 2
    assert r.breakdown[1]["majority_wood"] == 2
    assert r.breakdown[0]["majority_wood"] == 0
    assert r.breakdown[0]["majority_gold"] == 2
    assert r.breakdown[1]["majority_gold"] == 2
    assert r.scores == (48, 38)
    assert r.winners == (0,)


def _t18_state() -> DeusState:
    s = new(2)
    put(s, 0, "S0.SW", "civ")
    put(s, 0, "S0.SE", "civ", "sci")
    put(s, 0, "S1.C", "civ", "prod")
    put(s, 0, "S1.NW", "civ", "sci", "prod")
    put(s, 0, "S2.C", "civ", "sci", "army", "prod")
    hand(s, 0)
    return s


@pytest.mark.parametrize(
    ("card_id", "gold", "vp", "cards"),
    [
        ("BRN-09", 12, 0, 0),
        ("BRN-10", 10, 0, 0),
        ("BRN-11", 8, 0, 0),
        ("BRN-12", 0, 0, 0),
        ("BRN-13", 0, 2, 0),
        ("BRN-14", 0, 2, 0),
        ("BRN-15", 0, 2, 0),
        ("BRN-16", 0, 0, 0),
        ("YEL-01", 0, 0, 4),
        ("YEL-02", 0, 0, 4),
    ],
)
def test_t18_region_count_effects(card_id: str, gold: int, vp: int, cards: int) -> None:
    s = _t18_state()
    g0, v0 = s.gold[0], s.vp[0]
    assert not effects.resolve_card(s, 0, card(card_id))
    assert (s.gold[0] - g0, s.vp[0] - v0, len(s.hands[0])) == (gold, vp, cards)


def test_t18_region_temples_at_game_end() -> None:
    s = _t18_state()
    got = [effects.temple_value(s, 0, card_by_id(f"PUR-0{i}")) for i in range(1, 6)]
    assert got == [0, 4, 6, 8, 5]


def test_t19a_laboratory() -> None:
    s = new(2)
    put(s, 0, "S1.NW", "prod")
    put(s, 0, "S2.SE", "prod")
    put(s, 0, "S1.C", "prod")
    column(s, 0, YELLOW, "YEL-08")
    column(s, 0, GREEN, "GRN-02")
    hand(s, 0, "YEL-05", "RED-01")
    academy = CARDS[card("YEL-05")]
    for r, name in enumerate(("wood", "stone", "clay", "wheat")):
        resources(s, 0, **{name: academy.cost[r]})
    s.gold[0] = 0
    wheat0, vp0 = s.res[0][WHEAT] - academy.cost[WHEAT], s.vp[0]
    s.apply(0, build_action("YEL-05"))
    s.apply(0, region_action(s, "S1.C"))
    assert s.res[0][WHEAT] - wheat0 == 4
    assert s.vp[0] - vp0 == 1
    assert s.cols[0][GREEN] == [card("GRN-02")]


def _sell_state(card_id: str, **res: int) -> DeusState:
    s = new(2)
    resources(s, 0, **res)
    hand(s, 0, "YEL-01")
    assert effects.resolve_card(s, 0, card(card_id))
    assert s.phase == SELL_PH
    changed(s)
    return s


def test_t19b_small_port() -> None:
    s = _sell_state("BLU-05", clay=7)
    assert s.legal_actions(0) == [act.AMOUNT + k for k in range(7)]
    supply0, vp0 = s.supply[CLAY], s.vp[0]
    s.apply(0, act.AMOUNT + 6)
    assert (s.vp[0] - vp0, s.res[0][CLAY], s.supply[CLAY] - supply0) == (6, 1, 6)


def test_t19c_commercial_port() -> None:
    s = _sell_state("BLU-11", clay=3, stone=1)
    assert s.legal_actions(0) == [act.AMOUNT, act.AMOUNT + 1]
    vp0 = s.vp[0]
    s.apply(0, act.AMOUNT + 1)
    assert s.vp[0] - vp0 == 3


def test_t19d_commercial_sailing_ship() -> None:
    s = _sell_state("BLU-01", wheat=3)
    gold0 = s.gold[0]
    s.apply(0, act.AMOUNT + 3)
    assert s.gold[0] - gold0 == 12
    assert s.res[0][WHEAT] == 0


def test_t19e_galley() -> None:
    s = new(2)
    s.gold[0] = 2
    hand(s, 0, "YEL-01")
    assert effects.resolve_card(s, 0, card("BLU-13"))
    changed(s)
    s.apply(0, act.RES + WOOD)
    s.apply(0, act.RES + STONE)
    assert s.gold[0] == 0
    assert s.res[0][WOOD] == 2
    assert s.res[0][STONE] == 2
    assert s.cur == 1  # nothing more can be bought: the effect (and the turn) ended


def test_t20_centurion_and_legion() -> None:
    s = new(4)
    put(s, 0, "S0.NW", "army")
    put(s, 1, "S0.NE", "civ")
    put(s, 2, "S3.SE", "civ")
    put(s, 3, "S2.C", "civ")
    s.gold = [0, 1, 5, 9]
    s.vp = [0, 0, 4, 5]
    assert not effects.resolve_card(s, 0, card("RED-01"))
    assert s.gold == [3, 0, 3, 9]
    assert not effects.resolve_card(s, 0, card("RED-04"))
    assert s.vp == [1, 0, 3, 5]


def _t21_state() -> DeusState:
    s = new(2)
    put(s, 0, "S1.NW", "civ", "sci", "prod")
    put(s, 0, "S2.C", "civ", "sci", "prod")
    put(s, 0, "S1.C", "civ", "prod")
    personal(s, 0, civ=1, sci=0, ship=0, army=2, prod=0)
    return s


@pytest.mark.parametrize("card_id", ["YEL-12", "YEL-11"])
def test_t21_workshop_limited_by_supply(card_id: str) -> None:
    s = _t21_state()
    before = s.onboard[0][:]
    assert not effects.resolve_card(s, 0, card(card_id))
    gained = [a - b for a, b in zip(s.onboard[0], before, strict=True)]
    assert gained == [1, 0, 0, 2, 0]
    assert s.personal[0] == [0, 0, 0, 0, 0]
