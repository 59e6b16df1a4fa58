"""Rule tests by rule id (shared/rules/deus.md), beyond the canonical scenarios."""

from __future__ import annotations

import pytest

from civtable.games.deus import actions as act
from civtable.games.deus.catalog import C_INDEX, CARDS, P_INDEX, RES_INDEX, TEMPLE_BIT
from civtable.games.deus.rules import board as board_rules
from civtable.games.deus.rules import construct, effects
from civtable.games.deus.rules.board import destinations, normal_targets, temple_targets
from civtable.games.deus.state import (
    BLIND_MARK,
    GAIN,
    LAB,
    MAIN,
    OVER,
    PICK,
    TARGET,
    DeusState,
)

from .scenario import (
    build_action,
    card,
    changed,
    column,
    hand,
    ids,
    new,
    offer_action,
    personal,
    put,
    region,
    region_action,
    resources,
)
from .test_scenarios import finish_turn

BROWN, YELLOW, BLUE, RED, GREEN, PURPLE = (
    C_INDEX[c] for c in ("brown", "yellow", "blue", "red", "green", "purple")
)
WOOD, STONE, CLAY, WHEAT = (RES_INDEX[r] for r in ("wood", "stone", "clay", "wheat"))


def test_deus_4_7_first_player_and_clockwise_order() -> None:
    s = new(4, "REF4", first_player=2)
    order = []
    for _ in range(5):
        order.append(s.cur)
        finish_turn(s)
    assert order == [2, 3, 0, 1, 2]
    assert s.round == 2


def test_deus_6_2_1_offering_is_always_legal() -> None:
    s = new(3, "REF3")
    for t in set(s.hands[0]):
        assert act.OFFER + t in s.legal_actions(0)


def test_deus_7_4_4_and_7_4_5_never_others_regions_nor_villages() -> None:
    s = new(2)
    put(s, 0, "S0.NW", "civ")
    put(s, 1, "S0.NE", "civ")
    targets = ids(s, normal_targets(s, 0, P_INDEX["prod"]))
    assert "S0.NE" not in targets
    assert "S0.C" not in targets
    assert "S3.SW" not in targets
    assert targets == {"S0.NW", "S3.SE"}  # own region + empty land next to it


def test_deus_7_4_1_amb_8_first_building_fallback_without_distance() -> None:
    s = new(2)
    # Every empty edge land region is within distance 2 of the other player: fallback.
    for rid in ("S0.SW", "S1.SE", "S2.NW", "S3.W"):
        put(s, 1, rid, "army")
    cands = board_rules.first_targets(s, 0, P_INDEX["civ"])
    b = s.board
    edge_land = {r for r in range(b.size) if b.edge[r] and s.owner[r] < 0 and b.terrain[r] < 4}
    far = {r for r in edge_land if all(b.dist[r][o] >= 3 for o in range(b.size) if s.owner[o] == 1)}
    assert set(cands) == (far or edge_land)


def test_deus_7_7_amb_26_no_empty_hand_draw_after_a_school_refill() -> None:
    s = new(2)
    put(s, 0, "S1.NW", "civ", "prod")
    put(s, 0, "S2.SE", "civ", "prod")
    hand(s, 0, "YEL-01")
    resources(s, 0, clay=1, wood=0, stone=0, wheat=0)
    s.gold[0] = 0
    deck0 = len(s.deck)
    s.apply(0, build_action("YEL-01"))
    s.apply(0, region_action(s, "S1.NW"))
    assert len(s.hands[0]) == 2  # School: 2 regions with >= 2, no extra 5
    assert len(s.deck) == deck0 - 2


def test_deus_7_8_empty_deck_reshuffles_discard_and_stops_when_both_empty() -> None:
    s = new(2)
    s.discard = s.deck[:3]
    s.deck = []
    hand(s, 0)
    assert effects.draw(s, 0, 5) == 3
    assert len(s.hands[0]) == 3
    assert s.discard == []
    assert s.deck == []


def test_deus_8_4_temple_only_on_own_land_without_temple() -> None:
    s = new(2)
    put(s, 0, "S0.W", "ship")
    put(s, 0, "S0.SW", "civ", "temple")
    put(s, 0, "S0.SE", "civ")
    put(s, 1, "S0.NW", "civ")
    assert ids(s, temple_targets(s, 0)) == {"S0.SE"}


def test_deus_8_5_temple_card_without_supply_places_nothing() -> None:
    s = new(2)
    s.temples = 0
    hand(s, 0, "PUR-04", "BRN-01")
    resources(s, 0, wood=1, stone=1, clay=1, wheat=1)
    s.gold[0] = 0
    assert build_action("PUR-04") in s.legal_actions(0)  # no region needed
    s.apply(0, build_action("PUR-04"))
    assert s.cols[0][PURPLE] == [card("PUR-04")]
    assert not any(m & TEMPLE_BIT for m in s.mask)
    assert s.cur == 1
    # With temples left but no region of one's own: not playable (AMB-12).
    s2 = new(2)
    hand(s2, 0, "PUR-04")
    assert build_action("PUR-04") not in s2.legal_actions(0)


def test_deus_8_7_temple_pins_the_army() -> None:
    s = new(2)
    put(s, 0, "S1.C", "army", "temple")
    assert destinations(s, 0, region(s, "S1.C"), 4) == [region(s, "S1.C")]
    put(s, 0, "S1.C", "civ")
    assert len(destinations(s, 0, region(s, "S1.C"), 1)) > 1


def test_deus_9_1_no_attack_without_army_or_with_an_empty_neighbour() -> None:
    s = new(2)
    i = s.board.villages.index(region(s, "S2.E"))
    put(s, 0, "S2.C", "civ")
    put(s, 1, "S2.NE", "ship")
    board_rules.place(s, 1, region(s, "S2.SE"), 1 << P_INDEX["civ"])
    assert s.vatt[i] == 0  # surrounded, but no army
    s2 = new(2)
    put(s2, 0, "S2.C", "army")
    board_rules.place(s2, 1, region(s2, "S2.SE"), 1 << P_INDEX["civ"])
    assert s2.vatt[i] == 0  # S2.NE is empty


def test_deus_9_5_village_emptied_by_siege_tower_is_still_attacked() -> None:
    s = new(2)
    put(s, 0, "S2.C", "army")
    put(s, 1, "S2.NE", "ship")
    i = s.board.villages.index(region(s, "S2.E"))
    vp0 = s.vp[0]
    assert not effects.resolve_card(s, 0, card("RED-06"))  # one village: no choice
    assert s.vvp[i] == 1
    assert s.vp[0] == vp0 + 2
    assert not effects.resolve_card(s, 0, card("RED-06"))
    assert s.vvp[i] == 0
    assert s.vp[0] == vp0 + 3
    assert s.vatt[i] == 0
    board_rules.place(s, 1, region(s, "S2.SE"), 1 << P_INDEX["civ"])
    assert s.vatt[i] == 1


def test_deus_9_4_attacked_village_gives_nothing_to_ballista() -> None:
    s = new(2)
    put(s, 0, "S2.C", "army")
    put(s, 0, "S0.NW", "army")
    gold0 = s.gold[0]
    effects.resolve_card(s, 0, card("RED-05"))
    assert s.gold[0] - gold0 == 4 * 3  # S2.E, S0.C, S3.SW
    s.vatt[s.board.villages.index(region(s, "S0.C"))] = 1
    gold1 = s.gold[0]
    effects.resolve_card(s, 0, card("RED-05"))
    assert s.gold[0] - gold1 == 4 * 2


def test_deus_10_3_4_mars_vp_and_jupiter_pieces() -> None:
    s = new(2)
    hand(s, 0, "RED-01", "RED-02", "BRN-01", "BRN-02", "BRN-03")
    vp0 = s.vp[0]
    s.apply(0, offer_action("RED-01"))
    s.apply(0, act.ADD + card("RED-02"))
    s.apply(0, act.DONE)
    assert s.vp[0] == vp0 + 2  # [SUB] Mars 1 VP per card
    assert s.onboard[0][P_INDEX["army"]] == 3
    s.cur = 0
    s.phase = MAIN
    hand(s, 0, "PUR-01", "PUR-02", "BRN-01")
    personal(s, 0, civ=1, sci=1, ship=0, army=0, prod=0)
    before = s.onboard[0][:]
    s.apply(0, offer_action("PUR-01"))
    s.apply(0, act.ADD + card("PUR-02"))
    s.apply(0, act.DONE)
    # [SUB] Jupiter: 2 pieces of any type; exactly the 2 available -> taken without asking
    assert [a - b for a, b in zip(s.onboard[0], before, strict=True)] == [1, 1, 0, 0, 0]
    assert s.cur == 1


def test_deus_10_3_4_jupiter_asks_when_there_is_a_choice() -> None:
    s = new(2)
    hand(s, 0, "PUR-01", "BRN-01", "BRN-02")
    s.apply(0, offer_action("PUR-01"))
    s.apply(0, act.DONE)
    assert s.phase == GAIN
    assert s.legal_actions(0) == [act.PIECE + p for p in range(5)]
    s.apply(0, act.PIECE + P_INDEX["ship"])
    assert s.onboard[0][P_INDEX["ship"]] == 3
    assert s.personal[0][P_INDEX["ship"]] == 2


def test_deus_10_4_no_piece_when_the_personal_supply_is_empty() -> None:
    s = new(2)
    personal(s, 0, civ=0)
    hand(s, 0, "BRN-01", "YEL-01")
    s.apply(0, offer_action("BRN-01"))
    s.apply(0, act.DONE)
    assert s.onboard[0][P_INDEX["civ"]] == 2
    assert s.personal[0][P_INDEX["civ"]] == 0


def test_deus_12_2_small_production_building_chooses_a_land() -> None:
    s = new(2)
    put(s, 0, "S1.NW", "prod")  # field
    put(s, 0, "S1.C", "prod")  # forest
    put(s, 0, "S3.C", "prod")  # field again: one option per land
    assert effects.resolve_card(s, 0, card("GRN-01"))
    assert s.phase == TARGET
    changed(s)
    assert len(s.legal_actions(0)) == 2
    wood0 = s.res[0][WOOD]
    s.apply(0, region_action(s, "S1.C"))
    assert s.res[0][WOOD] == wood0 + 1


def test_deus_12_2_sawmill_counts_every_piece_and_the_temple() -> None:
    s = new(2)
    put(s, 0, "S1.C", "prod", "civ", "temple")  # forest, 3 pieces
    wood0 = s.res[0][WOOD]
    assert not effects.resolve_card(s, 0, card("GRN-06"))
    assert s.res[0][WOOD] == wood0 + 3


def test_deus_11_6_resource_gain_is_limited_by_the_supply() -> None:
    s = new(2)
    put(s, 0, "S1.NW", "prod")
    put(s, 0, "S2.SE", "prod")
    s.supply[WHEAT] = 3
    wheat0 = s.res[0][WHEAT]
    effects.resolve_card(s, 0, card("GRN-02"))  # entitled to 4
    assert s.res[0][WHEAT] == wheat0 + 3
    assert s.supply[WHEAT] == 0


def test_deus_14_4_laboratory_asks_among_several_targets_and_none_does_nothing() -> None:
    s = new(2)
    column(s, 0, BROWN, "BRN-05", "BRN-01")
    put(s, 0, "S1.C", "civ")  # a forest
    assert effects.resolve_card(s, 0, card("YEL-10"))
    assert s.phase == LAB
    changed(s)
    assert s.legal_actions(0) == sorted(act.CARD + card(c) for c in ("BRN-05", "BRN-01"))
    gold0 = s.gold[0]
    s.apply(0, act.CARD + card("BRN-05"))
    assert s.gold[0] == gold0 + 3
    s2 = new(2)
    before = s2.to_json()
    assert not effects.resolve_card(s2, 0, card("YEL-07"))  # no blue card
    assert s2.to_json() == before


def test_deus_16_4_war_elephants_move_each_army_once() -> None:
    s = new(2)
    put(s, 0, "S1.C", "army")
    put(s, 0, "S3.C", "army")
    assert effects.resolve_card(s, 0, card("RED-03"))
    changed(s)
    legal = s.legal_actions(0)
    assert act.DONE in legal
    assert {region_action(s, "S1.C"), region_action(s, "S3.C")} <= set(legal)
    s.apply(0, region_action(s, "S1.C"))
    s.apply(0, region_action(s, "S1.NW"))
    assert s.owner[region(s, "S1.C")] == -1  # AMB-37: the region is empty again
    legal = s.legal_actions(0)
    assert region_action(s, "S1.NW") not in legal  # moved already
    assert region_action(s, "S3.C") in legal
    s.apply(0, act.DONE)
    assert s.cur == 1


def test_deus_16_6_attack_checked_after_a_move() -> None:
    s = new(2)
    put(s, 0, "S2.C", "civ")
    put(s, 0, "S1.NW", "army")
    put(s, 1, "S2.NE", "ship")
    put(s, 1, "S2.SE", "civ")
    i = s.board.villages.index(region(s, "S2.E"))
    assert s.vatt[i] == 0
    board_rules.move_army(s, 0, region(s, "S1.NW"), region(s, "S2.C"))
    assert s.vatt[i] == 1


def test_deus_18_2_1_trigger_in_the_last_players_turn() -> None:
    s = new(3)
    s.round = 4
    s.cur = 2
    s.temples = 0
    board_rules.check_end_trigger(s)
    assert s.end_round == 5
    finish_turn(s)
    assert s.round == 5
    assert s.phase == MAIN
    for _ in range(3):
        finish_turn(s)
    assert s.phase == OVER


def test_deus_19_3_tie_is_a_shared_victory() -> None:
    s = new(2)
    r = s.result()
    assert r.scores[0] == r.scores[1]
    assert r.winners == (0, 1)


def test_deus_21_1_free_start_secret_picks() -> None:
    s = new(3, "REF3", free_start=6)
    assert s.phase == PICK
    assert s.to_move() == (0, 1, 2)
    for _ in range(5):
        s.apply(0, act.PIECE + P_INDEX["army"])
    assert act.PIECE + P_INDEX["army"] not in s.legal_actions(0)  # at most 5 of a type
    s.apply(0, act.PIECE + P_INDEX["civ"])
    assert s.to_move() == (1, 2)
    assert s.view(1)["player_states"][0]["picked"] == 6
    assert "my_picks" not in s.view(1) or s.view(1)["my_picks"]["army"] == 0
    for p in ["prod"] * 5 + ["civ"]:
        s.apply(1, act.PIECE + P_INDEX[p])
    for p in ["civ", "sci", "ship", "army", "prod", "civ"]:
        s.apply(2, act.PIECE + P_INDEX[p])
    assert s.phase == MAIN
    assert s.onboard[0] == [1, 0, 0, 5, 0]
    assert s.personal[0] == [4, 5, 5, 0, 5]
    assert s.onboard[1][P_INDEX["prod"]] == 5
    assert s.onboard[1][P_INDEX["civ"]] == 1


def test_deus_21_3_blind_building() -> None:
    s = new(2, blind_building=True)
    hand(s, 0, "PUR-10", "BRN-01")
    column(s, 0, RED, "RED-01")
    put(s, 0, "S0.NW", "army")
    s.gold[0] = 5
    s.apply(0, act.BLIND + card("PUR-10"))
    assert act.COLUMN + RED in s.legal_actions(0)
    assert act.COLUMN + PURPLE not in s.legal_actions(0)
    s.apply(0, act.COLUMN + RED)
    assert s.gold[0] == 3  # second card of the column: 2 gold
    s.apply(0, region_action(s, "S3.SE"))
    assert s.cols[0][RED] == [card("RED-01"), card("PUR-10") + BLIND_MARK]
    assert s.gold[0] == 3  # Centurion activated; no opponent next to the armies
    assert s.blind_used[0] == 1
    s.cur, s.phase = 0, MAIN
    changed(s)
    assert not any(act.BLIND <= a < act.DONE for a in s.legal_actions(0))  # once per game
    assert effects.count(s, 0, CARDS[card("YEL-04")].effect.per) == 2  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deus_7_3_2_paid_resources_return_to_the_supply(players: int) -> None:
    s: DeusState = new(players, {2: "REF2", 3: "REF3", 4: "REF4"}[players])
    supply0 = s.supply[:]
    construct.pay(s, 0, card("BRN-10"), 0)  # wood + wheat
    assert s.supply[WOOD] == supply0[WOOD] + 1
    assert s.supply[WHEAT] == supply0[WHEAT] + 1
    assert s.res[0][WOOD] == 0
    assert s.res[0][WHEAT] == 0
    assert s.supply[STONE] == supply0[STONE]
    assert s.supply[CLAY] == supply0[CLAY]


def test_deus_21_2_free_board_from_a_tile_list() -> None:
    from civtable import games
    from civtable.core.errors import InvalidOptionsError

    game = games.get("deus")
    tiles = [[0, "1A", 0], [1, "2A", 0], [2, "3A", 0], [3, "4A", 0]]
    s = game.new_game(2, 3, {"board": tiles})
    assert isinstance(s, DeusState)
    assert s.board.tiles == tuple(tuple(t) for t in tiles)
    assert game.state_from_json(s.to_json()).state_hash() == s.state_hash()
    for bad in (
        tiles[:3],
        [[0, "1A", 0], [1, "1B", 0], [2, "3A", 0], [3, "4A", 0]],  # tile 1 twice
        [[0, "1A", 0], [1, "2A", 0], [2, "3A", 0], [3, "4A", 7]],
    ):
        with pytest.raises(InvalidOptionsError):
            game.new_game(2, 3, {"board": bad})


def test_deus_7_8_amb_27_empty_hand_and_no_cards_left_only_passes() -> None:
    s = new(2)
    hand(s, 0)
    s.deck = []
    s.discard = []
    assert s.legal_actions(0) == [act.DONE]
    s.apply(0, act.DONE)
    assert s.cur == 1
    assert s.turns[0] == 1
    assert s.hands[0] == []


def test_deus_9_3_2_amb_15_shared_vp_rounded_down() -> None:
    s = new(3)
    put(s, 0, "S1.C", "army")
    put(s, 0, "S0.E", "ship")
    put(s, 1, "S1.NW", "army")
    put(s, 1, "S0.SE", "civ")
    vp0 = s.vp[:]
    i = s.board.villages.index(region(s, "S1.W"))
    assert s.vvp[i] == 5
    board_rules.place(s, 2, region(s, "S1.SW"), 1 << P_INDEX["civ"])
    assert [a - b for a, b in zip(s.vp, vp0, strict=True)] == [2, 2, 0]
    assert s.vatt[i] == 1
    assert s.vvp[i] == 0


def test_deus_16_7_temporary_camps_through_the_decisions() -> None:
    s = new(2)
    put(s, 0, "S0.NW", "army")
    put(s, 0, "S1.C", "army")
    hand(s, 0, "RED-02", "BRN-01")
    column(s, 0, RED)
    resources(s, 0, wood=0, stone=0, clay=0, wheat=1)
    s.gold[0] = 0
    s.apply(0, build_action("RED-02"))
    s.apply(0, region_action(s, "S1.SW"))  # the new army, next to S1.C
    assert s.phase == TARGET
    assert set(s.legal_actions(0)) == {
        region_action(s, r) for r in ("S0.NW", "S1.C", "S1.SW")
    }  # choose the army
    s.apply(0, region_action(s, "S0.NW"))
    dests = {s.board.ids[a - act.REGION] for a in s.legal_actions(0)}
    assert "S0.NW" in dests
    assert "S3.C" in dests
    assert "S0.C" not in dests
    assert "S0.W" not in dests
    s.apply(0, region_action(s, "S3.C"))
    assert s.owner[region(s, "S0.NW")] == -1
    assert s.mask[region(s, "S3.C")] == 1 << P_INDEX["army"]
    assert s.cur == 1
