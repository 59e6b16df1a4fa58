"""The canonical scenarios CIV-T1 … CIV-T20 of shared/rules/civilization_a_new_dawn.md."""

from __future__ import annotations

from civtable.games.civilization_a_new_dawn import GAME
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    CARD_INDEX,
    CS_INDEX,
    CULTURE,
    EVENT_SECTIONS,
    MILITARY,
    RES_INDEX,
    SCIENCE,
    TYPE_INDEX,
    WONDER_INDEX,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import common, events, industry, turn, victory

from .scenario import barbarian, city, make, rig_dice, row, sp, space, token, top

MARBLE, MERCURY, OIL, DIAMOND = (RES_INDEX[r] for r in ("marble", "mercury", "oil", "diamond"))
E = 0  # direction east


def names(s, seat):  # type: ignore[no-untyped-def]
    return list(s.view(seat)["player_state"][seat]["row"])


# --- CIV-T1 / T2 reset ---------------------------------------------------------------------------
def test_civ_t1_reset_from_the_middle() -> None:
    s = GAME.new_game(2, 3, {"leaders": ["rome", "egypt"]})
    seat = s.to_move()[0]
    if s.leader[seat] != common.L["rome"]:  # let Rome be the seat to move
        s = GAME.new_game(2, 3, {"leaders": ["egypt", "rome"]})
    assert s.leader[seat] == common.L["rome"]
    assert names(s, seat) == ["astrology", "foreign_trade", "masonry", "early_empire", "pottery"]
    s.trade[seat][TYPE_INDEX["economy"]] = 1
    if top(s) != "choose a focus card":
        s.apply(seat, act.DONE)
    s.apply(seat, act.SLOT + 2)  # Masonry, slot 3
    s.apply(seat, act.DONE)  # neither reinforce nor attack
    assert names(s, seat) == ["masonry", "astrology", "foreign_trade", "early_empire", "pottery"]
    assert s.trade[seat][TYPE_INDEX["economy"]] == 1  # still on Foreign Trade (now slot 3)
    assert s.current != seat


def test_civ_t2_reset_from_the_ends() -> None:
    s = GAME.new_game(2, 3, {"leaders": ["rome", "egypt"]})
    seat = 0
    row(s, seat, "masonry", "astrology", "foreign_trade", "early_empire", "pottery")
    before = list(s.row[seat])
    turn.reset(s, seat, MILITARY)  # slot 1
    assert s.row[seat] == before
    turn.reset(s, seat, TYPE_INDEX["industry"])  # slot 5
    assert names(s, seat) == ["pottery", "masonry", "astrology", "foreign_trade", "early_empire"]


# --- CIV-T3 culture -------------------------------------------------------------------------------
def _t3():  # type: ignore[no-untyped-def]
    cells = {
        (0, 0): "G",
        (1, 0): "G",
        (0, 1): "H",
        (-1, 1): "F",
        (-1, 0): "W",
        (0, -1): "N",
        (1, -1): "H",
    }
    s = make(
        cells,
        capitals={0: (0, 0)},
        features={(0, 1): "res:marble", (0, -1): "nw:grand_mesa"},
    )
    barbarian(s, "B", (1, -1))
    s.trade[0][CULTURE] = 1
    return s


def test_civ_t3_culture_legality_slot_3() -> None:
    s = _t3()
    row(s, 0, "astrology", "foreign_trade", "early_empire", "masonry", "pottery")
    s.apply(0, act.SLOT + 2)
    assert top(s) == "declare trade tokens"
    s.apply(0, act.OPT)  # spend 1
    legal = s.legal_actions(0)
    assert legal == sorted(space(s, c) for c in [(1, 0), (0, 1), (-1, 1)])  # mandatory: no DONE
    for c in [(1, 0), (0, 1), (-1, 1)]:
        s.apply(0, space(s, c))
    for c in [(1, 0), (0, 1), (-1, 1)]:
        assert s.tok[sp(s, c)] == 0
        assert s.reinf[sp(s, c)] == 0
    assert s.resources[0][MARBLE] == 1
    assert s.tok[sp(s, (0, -1))] == -1
    assert s.tok[sp(s, (1, -1))] == -1
    assert s.trade[0][CULTURE] == 0


def test_civ_t3_culture_legality_slot_2() -> None:
    s = _t3()
    row(s, 0, "astrology", "early_empire", "foreign_trade", "masonry", "pottery")
    s.apply(0, act.SLOT + 1)
    s.apply(0, act.OPT)  # spend 1 -> 3 tokens, but only 2 legal spaces
    assert s.legal_actions(0) == sorted(space(s, c) for c in [(1, 0), (0, 1)])
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (0, 1)))
    assert s.current == 1  # the third token had no legal space; the turn ended
    assert sum(1 for t in s.tok if t == 0) == 2
    assert s.trade[0][CULTURE] == 0  # the spent token is lost


# --- CIV-T4 / T5 tech dial ------------------------------------------------------------------------
def test_civ_t4_passing_two_tier_spaces() -> None:
    s = make({(0, 0): "G", (1, 0): "G"}, capitals={0: (0, 0)})
    row(s, 0, "foreign_trade", "masonry", "early_empire", "astrology", "pottery")
    s.dial[0] = 2
    s.trade[0][SCIENCE] = 1
    s.apply(0, act.SLOT + 3)
    s.apply(0, act.OPT)  # 1 token: advance 4 + 1 = 5
    assert s.dial[0] == 7
    assert top(s) == "tech upgrade"
    assert act.CARD + CARD_INDEX["currency"] in s.legal_actions(0)
    assert act.CARD + CARD_INDEX["steam_power"] not in s.legal_actions(0)  # exactly level II
    s.apply(0, act.CARD + CARD_INDEX["currency"])
    assert top(s) == "tech upgrade"  # the second tier space (6)
    s.apply(0, act.CARD + CARD_INDEX["iron_working"])
    v = s.view(0)["player_state"][0]["row"]
    assert "currency" in v
    assert "iron_working" in v
    assert "foreign_trade" not in v


def test_civ_t5_wrap_around() -> None:
    s = make({(0, 0): "G", (1, 0): "G"}, capitals={0: (0, 0)})
    row(s, 0, "foreign_trade", "masonry", "early_empire", "pottery", "astrology")
    s.dial[0] = 22
    s.apply(0, act.SLOT + 4)
    assert s.dial[0] == 17
    assert top(s) == "tech upgrade"
    s.apply(0, act.CARD + CARD_INDEX["flight"])
    assert s.current == 1  # exactly one upgrade (24), 19 not passed
    assert s.won_capital[0] & victory.REACHED_24


# --- CIV-T6 city range ----------------------------------------------------------------------------
def test_civ_t6_city_placement_range() -> None:
    t = {
        (0, 0): "H", (1, 0): "G", (2, 0): "G", (3, 0): "H", (0, 1): "F", (1, 1): "G",
        (-1, 1): "G", (-1, 2): "H", (0, 2): "G", (-1, 0): "W", (-2, 0): "G", (-2, 1): "G",
        (0, -1): "G", (1, -1): "H", (2, -1): "G", (1, -2): "G", (0, -2): "G", (2, -2): "M",
        (3, -1): "G", (-1, -1): "G",
    }  # fmt: skip
    s = make(t, features={(3, -1): "cs:geneva"})
    token(s, 0, (0, 0))
    s.caravans[1][0] = sp(s, (2, 0))
    barbarian(s, "C", (1, 1))
    token(s, 1, (0, -1))
    row(s, 0, "astrology", "pottery", "foreign_trade", "masonry", "early_empire")
    s.apply(0, act.SLOT + 1)
    assert top(s) == "choose the card's option"
    s.apply(0, act.OPT)  # build a city
    expected = [(0, 0), (1, 0), (-1, 1), (1, -1), (-1, 2), (-2, 1), (1, -2)]
    assert s.legal_actions(0) == sorted(space(s, c) for c in expected)
    s.apply(0, space(s, (0, 0)))
    assert s.city[sp(s, (0, 0))] == 0
    assert s.tok[sp(s, (0, 0))] == -1
    assert s.supply[0] == 31  # the token went back


# --- CIV-T7 wonder --------------------------------------------------------------------------------
def _t7():  # type: ignore[no-untyped-def]
    s = make({(0, 0): "G", (1, 0): "G"}, capitals={0: (0, 0)})
    fc = WONDER_INDEX["forbidden_city"]
    deck = s.wdecks[WONDERS[fc].type]
    deck.remove(fc) if fc in deck else s.wremoved.remove(fc)
    deck.insert(0, fc)
    row(s, 0, "astrology", "foreign_trade", "pottery", "masonry", "early_empire")
    return s, fc


def test_civ_t7_wonder_purchase() -> None:
    s, fc = _t7()
    s.resources[0][MARBLE], s.resources[0][OIL] = 1, 2
    s.res_supply[MARBLE] -= 1
    s.res_supply[OIL] -= 2
    nxt = s.wdecks[WONDERS[fc].type][1]
    s.apply(0, act.SLOT + 2)
    s.apply(0, act.OPT + 1)  # wonder
    s.apply(0, act.WDECK + WONDERS[fc].type)
    assert act.OPT not in s.legal_actions(0)  # 3 < 9: build not yet possible
    s.apply(0, act.RES + MARBLE)
    s.apply(0, act.RES + OIL)
    s.apply(0, act.RES + OIL)
    assert s.legal_actions(0) == [act.OPT]  # 3 + 2 + 4 = 9
    s.apply(0, act.OPT)
    s.apply(0, space(s, (0, 0)))
    assert s.wonder_owner[fc] == 0
    assert s.wtok[sp(s, (0, 0))] == fc
    assert s.resources[0] == [0, 0, 0, 0]
    assert s.res_supply[MARBLE] == 8
    assert s.res_supply[OIL] == 8
    assert s.wdecks[WONDERS[fc].type][0] == nxt


def test_civ_t7_wonder_shortfall_needs_tokens() -> None:
    s, fc = _t7()
    s.resources[0][MARBLE] = s.resources[0][OIL] = s.resources[0][DIAMOND] = 1
    t = WONDERS[fc].type
    assert t not in industry.affordable(s, 0, 3)  # 3 + 2 + 2 = 7 (diamond not eligible)
    assert t in industry.affordable(s, 0, 5)  # with 2 industry tokens: 9


# --- CIV-T8 / T9 / T10 combat --------------------------------------------------------------------
def _t8(spend: int) -> object:
    cells = {(0, 0): "G", (1, 0): "G", (2, 0): "F", (3, 0): "G", (2, 1): "G", (3, -1): "G"}
    s = make(cells, capitals={0: (0, 0)})
    token(s, 1, (2, 0), reinforced=True)
    token(s, 1, (3, 0), reinforced=True)
    token(s, 1, (2, 1), reinforced=True)
    s.trade[0][MILITARY] = 2
    row(s, 0, "astrology", "iron_working", "foreign_trade", "pottery", "early_empire")
    s.apply(0, act.SLOT + 1)  # Iron Working from slot 2
    s.apply(0, act.OPT + 1)  # attack
    s.rng = rig_dice(5, 3)
    s.apply(0, space(s, (2, 0)))
    combat = next(f for f in s.pending if f[0] == turn.K.C_RESOLVE)
    assert combat[3] == 8
    assert combat[4] == 9
    s.apply(0, act.DONE if spend == 0 else act.OPT + spend - 1)
    return s


def test_civ_t8_rulebook_combat() -> None:
    s = _t8(2)
    t = sp(s, (2, 0))  # type: ignore[attr-defined]
    assert s.tok[t] == 0
    assert s.reinf[t] == 0
    assert s.supply[1] == 31 - 2  # type: ignore[attr-defined]


def test_civ_t9_tie_goes_to_defender() -> None:
    s = _t8(1)
    t = sp(s, (2, 0))  # type: ignore[attr-defined]
    assert s.tok[t] == 1
    assert s.reinf[t] == 1
    assert s.trade[0][MILITARY] == 1  # type: ignore[attr-defined]


def _t10(spend: bool):  # type: ignore[no-untyped-def]
    cells = {(0, 0): "G", (1, 0): "G", (2, 0): "M", (3, 0): "G", (2, 1): "G"}
    s = make(cells, capitals={0: (0, 0)})
    city(s, 1, (2, 0))
    token(s, 1, (3, 0), reinforced=True)
    token(s, 1, (2, 1), reinforced=True)
    s.wonder_owner[WONDER_INDEX["terracotta_army"]] = 0
    s.trade[0][MILITARY] = 1 if spend else 0
    row(s, 0, "astrology", "foreign_trade", "pottery", "early_empire", "masonry")
    s.apply(0, act.SLOT + 4)
    s.apply(0, act.OPT + 1)
    s.rng = rig_dice(6, 1)
    s.apply(0, space(s, (2, 0)))
    if spend:
        s.apply(0, act.OPT)
    return s


def test_civ_t10_city_defence_doubles_terrain() -> None:
    s = _t10(False)
    assert s.city[sp(s, (2, 0))] == 1  # 13 vs 13: Blue keeps it
    s = _t10(True)
    assert s.city[sp(s, (2, 0))] == 0
    assert s.cities_left[1] == 7
    assert s.cities_left[0] == 6


# --- CIV-T11 / T12 caravans ----------------------------------------------------------------------
def test_civ_t11_trade_token_cap() -> None:
    s = make({(0, 0): "G", (1, 0): "G"}, capitals={0: (0, 0)}, features={(1, 0): "cs:seoul"})
    s.trade[0][SCIENCE] = 2
    s.cs_owner[CS_INDEX["geneva"]] = 0
    row(s, 0, "foreign_trade", "astrology", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT)
    s.apply(0, act.OPT)  # the caravan
    s.apply(0, space(s, (1, 0)))
    s.apply(0, act.DONE)  # stop on Seoul: visit
    assert s.legal_actions(0) == [act.DONE, act.CSC + CS_INDEX["seoul"]]  # "may take"
    s.apply(0, act.CSC + CS_INDEX["seoul"])
    assert s.trade[0][SCIENCE] == 3
    assert common.cs_tokens_on(s, 0, SCIENCE) == [CS_INDEX["geneva"]]
    assert CS_INDEX["seoul"] in s.cs_cards[0]
    assert s.caravans[0][0] == -1


def _t12():  # type: ignore[no-untyped-def]
    cells = {(0, 0): "G", (1, 0): "G", (2, 0): "F", (3, 0): "G", (1, -1): "M"}
    return make(cells, capitals={0: (0, 0)}, features={(3, 0): "cs:seoul"})


def test_civ_t12_caravan_route_slot_3() -> None:
    s = _t12()
    row(s, 0, "astrology", "masonry", "foreign_trade", "pottery", "early_empire")
    s.apply(0, act.SLOT + 2)
    s.apply(0, act.OPT)
    for c in [(1, 0), (2, 0), (3, 0)]:
        s.apply(0, space(s, c))
    s.apply(0, act.CSC + CS_INDEX["seoul"])
    assert s.caravans[0][0] == -1  # arrived: back on the card
    assert s.trade[0][SCIENCE] == 2
    assert CS_INDEX["seoul"] in s.cs_cards[0]


def test_civ_t12_caravan_route_slot_2() -> None:
    s = _t12()
    row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT + 1)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (1, 0)))
    assert space(s, (2, 0)) not in s.legal_actions(0)  # forest > slot 2


# --- CIV-T13 / T14 / T15 barbarians --------------------------------------------------------------
def test_civ_t13_water_crossing_and_edge() -> None:
    cells = {(0, 0): "G", (1, 0): "W", (2, 0): "W", (3, 0): "F", (3, 1): "G", (2, 1): "H"}
    s = make(cells)
    city(s, 0, (3, 0))
    barbarian(s, "C", (0, 0))
    barbarian(s, "D", (3, 1))
    events.move_barbarian(s, 2, E)
    events.move_barbarian(s, 3, E)
    assert s.barb_pos[2] == sp(s, (3, 0))
    assert s.city[sp(s, (3, 0))] == -1
    assert s.cities_left[0] == 7
    assert s.barb_pos[3] == sp(s, (2, 1))


def test_civ_t14_reinforced_token_pushes_back() -> None:
    s = make({(0, 0): "G", (1, 0): "H"})
    barbarian(s, "A", (0, 0))
    token(s, 0, (1, 0), reinforced=True)
    events.move_barbarian(s, 0, E)
    assert s.tok[sp(s, (1, 0))] == 0
    assert s.reinf[sp(s, (1, 0))] == 0
    assert s.barb_pos[0] == sp(s, (0, 0))


def test_civ_t15_spawn() -> None:
    cells = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (3, 0): "G", (4, 0): "G", (5, 0): "G"}
    s = make(cells, spawns={(0, 0): "E", (2, 0): "F", (4, 0): "G"})
    s.barb_pos[4] = -1  # E defeated
    s.barb_pos[5] = -1  # F defeated
    barbarian(s, "G", (5, 0))
    s.caravans[1][0] = sp(s, (0, 0))
    token(s, 0, (2, 0))
    events.run_spawn(s, [turn.K.E_SPAWN, 0])
    assert s.barb_pos[4] == sp(s, (0, 0))
    assert s.caravans[1][0] == -1
    assert s.barb_pos[5] == -1
    assert s.barb_pos[6] == sp(s, (5, 0))


# --- CIV-T16 / T17 / T18 --------------------------------------------------------------------------
def test_civ_t16_victory_tie_break() -> None:
    s = GAME.new_game(2, 1)
    full = (1 << len(s.victory)) - 1
    s.marks = [full, full]
    ws = [WONDER_INDEX[w] for w in ("oracle", "petra", "colossus", "stonehenge", "alhambra")]
    for w in ws[:2]:
        s.wonder_owner[w] = 0
    for w in ws[2:]:
        s.wonder_owner[w] = 1
    assert victory.win_check(s.copy())
    assert _winners(s) == [1]
    s.wonder_owner[ws[4]] = -1  # both 2 wonders: friendly spaces decide
    for i in range(20):
        s.tok[i] = 0 if i < 16 else -1
    for i in range(20, 40):
        if s.city[i] < 0 and i < 20 + 14:
            s.tok[i] = 1
    assert common.friendly_spaces(s, 0) > common.friendly_spaces(s, 1)
    assert _winners(s) == [0]


def _winners(s) -> list[int]:  # type: ignore[no-untyped-def]
    c = s.copy()
    assert victory.win_check(c)
    return list(c.winners)


def test_civ_t17_event_dial_schedule() -> None:
    s = GAME.new_game(2, 5)
    seen: dict[int, int] = {}
    while s.fp_turns <= 11 and not s.is_terminal():
        seen.setdefault(s.fp_turns, s.section)
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    got = [EVENT_SECTIONS[seen[n]] if n > 1 else "none" for n in range(1, 12)]
    assert got == [
        "none", "", "barbarian_movement", "trade", "barbarian_movement", "barbarian_spawn",
        "", "barbarian_movement", "trade", "barbarian_movement", "barbarian_spawn",
    ]  # fmt: skip


def test_civ_t18_maturity_and_trade_event() -> None:
    cells = {
        (0, 0): "G", (1, 0): "G", (0, 1): "G", (-1, 1): "G", (-1, 0): "G", (0, -1): "G",
        (1, -1): "G", (5, 0): "G", (6, 0): "W", (5, 1): "W", (4, 0): "G", (4, 1): "G",
    }  # fmt: skip
    s = make(cells, capitals={0: (0, 0)})
    city(s, 0, (5, 0))
    for c in [(4, 0), (4, 1)]:
        token(s, 0, c)
    for c in [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]:
        token(s, 0, c)
    assert common.mature(s, 0, sp(s, (5, 0)))
    assert not common.mature(s, 0, sp(s, (0, 0)))
    events.run_trade(s, [turn.K.E_TRADE, 0])
    assert s.pending[-1][:3] == [turn.K.D_TRADE_TOKEN, 0, 1]
    token(s, 1, (1, -1))
    assert not common.mature(s, 0, sp(s, (0, 0)))


# --- CIV-T19 / T20 -------------------------------------------------------------------------------
def test_civ_t19_capital_raid_with_wonder() -> None:
    cells = {(0, 0): "G", (1, 0): "G", (2, 0): "H", (-2, 0): "G", (-1, 0): "G"}
    s = make(cells, capitals={0: (0, 0), 1: (2, 0)})
    city(s, 0, (-2, 0))
    oracle, pyramids = WONDER_INDEX["oracle"], WONDER_INDEX["pyramids"]
    s.wtok[sp(s, (2, 0))], s.wonder_owner[oracle] = oracle, 1
    s.wtok[sp(s, (0, 0))], s.wonder_owner[pyramids] = pyramids, 0
    s.trade[1][MILITARY], s.trade[1][SCIENCE], s.trade[1][CULTURE] = 1, 2, 1
    s.pcard_holder[1][0] = 0  # Red holds Blue's Joint War
    row(s, 0, "astrology", "foreign_trade", "pottery", "masonry", "early_empire")
    s.apply(0, act.SLOT + 3)
    s.apply(0, act.OPT + 1)
    s.rng = rig_dice(4, 1)
    s.apply(0, space(s, (2, 0)))
    assert s.pcard_holder[1][0] == -1  # returned at declaration
    assert s.to_move() == (1,)  # Blue may spend its military token
    s.apply(1, act.OPT)
    assert top(s) == "capital raid: take a trade token"
    s.apply(0, act.TYPE + SCIENCE)
    s.apply(0, act.TYPE + SCIENCE)
    s.apply(0, act.TYPE + SCIENCE)
    s.apply(0, act.TYPE + CULTURE)
    assert s.trade[1] == [1, 0, 0, 0, 0]
    assert s.trade[0][SCIENCE] == 1
    assert s.legal_actions(0) == [space(s, (-2, 0))]
    s.apply(0, space(s, (-2, 0)))
    assert s.wtok[sp(s, (-2, 0))] == oracle
    assert s.wonder_owner[oracle] == 0
    assert s.city[sp(s, (2, 0))] == 1
    assert s.won_capital[0] & victory.WON_CAPITAL


def test_civ_t20_conquering_a_city_state() -> None:
    s = make(
        {(0, 0): "G", (1, 0): "G", (2, 0): "G"}, capitals={0: (0, 0)}, features={(2, 0): "cs:kabul"}
    )
    kabul = CS_INDEX["kabul"]
    s.cs_cards[1].append(kabul)
    s.cs_avail[kabul] = 1
    s.trade[0][MILITARY] = 1
    row(s, 0, "astrology", "foreign_trade", "pottery", "early_empire", "masonry")
    s.apply(0, act.SLOT + 4)
    s.apply(0, act.OPT + 1)
    s.rng = rig_dice(4, 1)
    s.apply(0, space(s, (2, 0)))
    s.apply(0, act.OPT)  # spend 1: 10 vs 9
    assert s.cs_owner[kabul] == 0
    assert common.cs_tokens_on(s, 0, MILITARY) == [kabul]
    assert s.trade[0][MILITARY] == 0
    assert s.city[sp(s, (2, 0))] == 0
    assert kabul not in s.cs_cards[1]
    assert s.cs_avail[kabul] == -1
    # next military resolution: the Kabul token is +1 once that turn and is kept
    s.current = 0
    s.turn_flags, s.nw_used = 0, []
    assert common.usable_cs_tokens(s, 0, MILITARY) == [kabul]
    turn.spend(s, 0, MILITARY, 1)
    assert common.usable_cs_tokens(s, 0, MILITARY) == []
    assert s.cs_owner[kabul] == 0
