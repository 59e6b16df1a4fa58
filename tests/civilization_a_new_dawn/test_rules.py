"""Rule tests by rule id (CIV-…) on small hand-made positions."""

from __future__ import annotations

from civtable.games.civilization_a_new_dawn import GAME
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    CARD_INDEX,
    CS_INDEX,
    CULTURE,
    ECONOMY,
    MILITARY,
    SCIENCE,
    WONDER_INDEX,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import (
    common,
    events,
    industry,
    military,
    science,
    turn,
    victory,
)

from .scenario import barbarian, city, make, rig_dice, row, sp, space, token, top

LINE = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (3, 0): "G", (4, 0): "G", (5, 0): "G"}


def test_civ_7_2_trade_cap_excess_returns() -> None:
    s = make(LINE)
    s.trade[0][CULTURE] = 2
    assert common.add_trade(s, 0, CULTURE, 2) == 1
    assert s.trade[0][CULTURE] == 3


def test_civ_8_5_empty_supply_takes_a_token_from_the_map() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 0, (4, 0))
    token(s, 0, (5, 0))
    s.supply[0] = 0
    row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT + 4)
    s.apply(0, space(s, (1, 0)))
    assert top(s) == "empty supply: token to take back from the map"
    assert s.legal_actions(0) == [space(s, (4, 0)), space(s, (5, 0))]
    s.apply(0, space(s, (5, 0)))
    assert s.tok[sp(s, (1, 0))] == 0
    assert s.tok[sp(s, (5, 0))] == -1
    assert s.tok[sp(s, (4, 0))] == 0
    assert s.supply[0] == 0


def test_civ_9_3_upgrade_offers_exact_level_only() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    opts = science.upgrade_options(s, 0, 3)
    assert {c % 4 for c in opts} == {2}  # level III only
    science.replace_card(s, 0, CARD_INDEX["capitalism"])  # CIV-9.4 skipping levels
    assert CARD_INDEX["capitalism"] in s.row[0]


def test_civ_10_2_economy_upgrade_unlocks_caravans() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    assert s.caravans[0] == [-1, -2, -2]
    science.replace_card(s, 0, CARD_INDEX["capitalism"])
    assert s.caravans[0] == [-1, -1, -1]
    s.caravans[0][2] = sp(s, (3, 0))
    science.replace_card(s, 0, CARD_INDEX["foreign_trade"])  # CIV-A47: on-map figure stays
    # the figure on the map counts toward the 1 usable caravan: both card figures set aside
    assert s.caravans[0] == [-2, -2, sp(s, (3, 0))]
    common.caravan_home(s, 0, 2)
    assert s.caravans[0] == [-2, -2, -1]


def test_civ_11_3_c_not_adjacent_to_a_city() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    city(s, 1, (3, 0))
    spaces = industry.city_spaces(s, 0, CARD_INDEX["pottery"], 5, 2)
    assert sp(s, (2, 0)) not in spaces
    assert sp(s, (4, 0)) not in spaces
    assert sp(s, (1, 0)) not in spaces  # next to the own capital
    assert spaces == []


def test_civ_12_1_no_city_without_wonder_means_no_wonder() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.resources[0] = [4, 4, 4, 4]
    assert industry.affordable(s, 0, 5)
    s.wtok[sp(s, (0, 0))] = WONDER_INDEX["oracle"]
    assert industry.affordable(s, 0, 5) == []


def test_civ_12_4_egypt_cost_reduction() -> None:
    s = make(LINE, leaders=("egypt", "rome"), capitals={0: (0, 0)})
    w = WONDER_INDEX["forbidden_city"]
    assert industry.wonder_cost(s, 0, w) == WONDERS[w].cost - 1
    assert industry.wonder_cost(s, 1, w) == WONDERS[w].cost


def test_civ_13_2_reinforce_up_to_slot() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    for c in [(1, 0), (2, 0), (3, 0)]:
        token(s, 0, c)
    row(s, 0, "astrology", "masonry", "foreign_trade", "pottery", "early_empire")
    s.apply(0, act.SLOT + 1)
    s.apply(0, act.OPT)  # reinforce (slot 2)
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))
    assert s.current == 1
    assert s.reinf[sp(s, (3, 0))] == 0


def test_civ_14_2_target_reach_not_through_rival_spaces() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 1, (1, 0))
    token(s, 1, (2, 0))
    assert military.targets(s, 0, 2, 0) == [sp(s, (1, 0))]
    assert military.targets(s, 0, 2, military.THROUGH_ANY) == [sp(s, (1, 0)), sp(s, (2, 0))]


def test_civ_14_4_and_15_1_barbarian_and_city_state_card_return() -> None:
    s = make(LINE, capitals={0: (0, 0)}, features={(2, 0): "cs:seoul"})
    seoul = CS_INDEX["seoul"]
    s.cs_cards[0].append(seoul)
    s.cs_avail[seoul] = 1
    row(s, 0, "astrology", "foreign_trade", "pottery", "early_empire", "masonry")
    s.apply(0, act.SLOT + 4)
    s.apply(0, act.OPT + 1)
    s.rng = rig_dice(1, 6)
    s.apply(0, space(s, (2, 0)))
    assert seoul not in s.cs_cards[0]
    assert s.cs_avail[seoul] == 2
    assert s.cs[sp(s, (2, 0))] == seoul  # lost: nothing changes


def test_civ_15_1_defeating_a_barbarian_gives_a_trade_token() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    barbarian(s, "A", (1, 0))
    row(s, 0, "astrology", "foreign_trade", "pottery", "early_empire", "masonry")
    s.apply(0, act.SLOT + 4)
    s.apply(0, act.OPT + 1)
    s.rng = rig_dice(6, 1)
    s.apply(0, space(s, (1, 0)))
    assert s.barb_pos[0] == -1
    assert s.barb[sp(s, (1, 0))] == -1
    assert top(s) == "place a trade token"
    s.apply(0, act.TYPE + SCIENCE)
    assert s.trade[0][SCIENCE] == 1


def test_civ_15_7_taken_space_cannot_be_attacked_from() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 0, (2, 0))
    s.taken.append(sp(s, (2, 0)))
    token(s, 1, (4, 0))
    assert military.targets(s, 0, 2, 0) == []


def test_civ_16_4_liberate() -> None:
    s = make(LINE, capitals={0: (0, 0)}, features={(2, 0): "cs:kabul"})
    kabul = CS_INDEX["kabul"]
    s.cs[sp(s, (2, 0))] = -1
    s.cs_owner[kabul] = 1
    s.cs_avail[kabul] = -1
    city(s, 1, (2, 0))
    s.pending.append([military.K.D_CONQLIB, 0, sp(s, (2, 0)), 1])
    s._legal = {}
    s.apply(0, act.OPT + 1)
    assert s.cs[sp(s, (2, 0))] == kabul
    assert s.cs_owner[kabul] == -1
    assert s.city[sp(s, (2, 0))] == -1
    assert s.cities_left[1] == 7
    assert kabul in s.cs_cards[0]
    assert s.cs_avail[kabul] == 1


def test_civ_17_2_one_card_per_rival() -> None:
    s = make(LINE, capitals={0: (0, 0), 1: (3, 0)})
    s.pcard_holder[1][2] = 0
    s.pending.append([military.K.D_PCARD, 0, 1])
    s._legal = {}
    legal = s.legal_actions(0)
    assert act.PCARD + 0 in legal
    s.apply(0, act.PCARD + 0)
    assert s.pcard_holder[1] == [0, -1, -1, -1]  # the old card went back first


def test_civ_21_4_barbarian_raids_capital() -> None:
    s = make({(0, 0): "G", (1, 0): "G"}, capitals={1: (1, 0)})
    barbarian(s, "A", (0, 0))
    s.trade[1][SCIENCE] = 1
    s.trade[1][CULTURE] = 2
    events.move_barbarian(s, 0, 0)
    assert s.barb_pos[0] == sp(s, (1, 0))
    assert s.city[sp(s, (1, 0))] == 1
    assert s.pending[-1][:3] == [military.K.D_DISCARD, 1, 2]


def test_civ_21_5_stacks_are_split() -> None:
    s = GAME.new_game(2, 11)
    on_map = [b for b, p in enumerate(s.barb_pos) if p >= 0]
    a, b = on_map[:2]
    s.barb[s.barb_pos[b]] = -1
    s.barb_pos[b] = s.barb_pos[a]
    assert events.stacked(s) == sorted([a, b])
    events.move_barbarian(s, b, 0)
    events.move_barbarian(s, b, 3) if events.stacked(s) else None
    assert len({s.barb_pos[a], s.barb_pos[b]}) == 2 or events.stacked(s)


def test_civ_22_2_marks_are_permanent() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.victory = [4]  # v5: Populous / Preservationist
    s.nw_held[0] = [0, 1]
    victory.check_agendas(s)
    assert s.marks[0] == 1
    assert s.supply[0] == 30
    s.nw_held[0] = []
    victory.check_agendas(s)
    assert s.marks[0] == 1


def test_civ_24_scythia_bonus_on_grassland() -> None:
    s = make(LINE, leaders=("scythia", "rome"), capitals={0: (0, 0)})
    token(s, 1, (1, 0))
    assert military.attack_bonus(s, 0, sp(s, (1, 0)), military.TOKEN, 1) == 3
    assert military.defence_bonus(s, 1, sp(s, (1, 0)), 0) == 0


def test_civ_5_2_first_turn_has_no_event() -> None:
    s = GAME.new_game(3, 8)
    assert s.fp_turns == 1
    assert s.section == 0
    assert s.current == s.first


def test_machu_picchu_shifts_slots() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.wonder_owner[WONDER_INDEX["machu_picchu"]] = 0
    assert turn.effective_slot(s, 0, 1) == 3
    assert turn.effective_slot(s, 0, 5) == 5
    assert turn.effective_slot(s, 1, 1) == 1


def test_civ_10_4_caravan_starts_from_mature_city_or_capital() -> None:
    s = make(LINE, leaders=("egypt", "rome"), capitals={0: (0, 0)})
    city(s, 0, (3, 0))
    from civtable.games.civilization_a_new_dawn.rules.economy import start_cities

    assert start_cities(s, 0) == [sp(s, (0, 0))]
    s.leader[1] = common.L["rome"]
    city(s, 1, (5, 0))
    assert start_cities(s, 1) == [sp(s, (5, 0))]  # Rome: any city
    assert ECONOMY == 2
    assert MILITARY == 4


def test_civ_4_6_players_place_their_tiles() -> None:
    from civtable.core.rng import Rng
    from civtable.games.civilization_a_new_dawn.catalog import DIR_VECTORS, MIN_CONTACT
    from civtable.games.civilization_a_new_dawn.hexes import holes, placed_cells

    s = GAME.new_game(3, 21, {"map": "standard"})
    assert top(s) == "map set-up: choose a tile to place"
    assert s.to_move() == (s.map_start,)
    assert len(s.board.placements) == 4  # the core (CIV-4.4)
    order = []
    rng = Rng(21)
    while s.pending and s.pending[-1][0] in (143, 144, 145):
        seat = s.to_move()[0]
        if s.pending[-1][0] == 143:
            order.append(seat)
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert order[:3] == [(s.map_start + i) % 3 for i in range(3)]  # clockwise (CIV-4.6)
    assert len(s.board.placements) == 4 + 3 * 3
    occupied: set[tuple[int, int]] = set()
    for i, p in enumerate(s.board.placements):
        cells = placed_cells(p)
        if i >= 4:
            touched = {
                (q + a, r + b)
                for q, r in cells
                for a, b in DIR_VECTORS
                if (q + a, r + b) in occupied
            }
            assert len(touched) >= MIN_CONTACT
        occupied |= set(cells)
    assert holes(occupied | set(s.board.water_tokens)) == []
    assert all(c >= 0 for c in s.capital)
    assert len(set(s.capital)) == 3
    assert top(s) in ("start-of-turn effects", "choose a focus card")
    assert s.current == s.first


def _start(s, seat: int = 0) -> None:  # type: ignore[no-untyped-def]
    """Put the seat at the start of its turn (start-of-turn effects first, CIV-5.4)."""
    s.pending = [[military.K.T_END, seat], [military.K.D_CHOOSE, seat], [military.K.D_START, seat]]
    s._legal = {}


def test_civ_5_4_oracle_and_forbidden_city() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 1, (1, 0))
    s.wonder_owner[WONDER_INDEX["oracle"]] = 0
    s.wonder_owner[WONDER_INDEX["forbidden_city"]] = 0
    _start(s)
    assert s.legal_actions(0) == [act.DONE, act.OPT + 1, act.OPT + 2]
    s.apply(0, act.OPT + 1)  # Forbidden City
    s.apply(0, space(s, (1, 0)))
    assert s.tok[sp(s, (1, 0))] == -1
    assert s.supply[1] == 31
    first_two = s.row[0][:2]
    s.apply(0, act.OPT + 2)  # Oracle
    s.apply(0, act.OPT)  # swap slots 1 and 2
    assert s.row[0][:2] == first_two[::-1]
    assert top(s) == "choose a focus card"  # nothing left to use


def test_civ_17_geneva_card_exchanges_a_player_card() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.cs_cards[0].append(CS_INDEX["geneva"])
    s.pcard_holder[1][0] = 0
    _start(s)
    s.apply(0, act.OPT + 4)
    s.apply(0, act.CARD + 1 * 4 + 0)  # return Blue's Joint War
    assert act.PCARD + 0 not in s.legal_actions(0)  # a different card
    s.apply(0, act.PCARD + 3)
    assert s.pcard_holder[1] == [-1, -1, -1, 0]


def test_civ_26_3_eiffel_tower_victim_chooses() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.wonder_owner[WONDER_INDEX["eiffel_tower"]] = 0
    token(s, 1, (2, 0))
    token(s, 1, (4, 0), reinforced=True)
    _start(s)
    s.apply(0, act.OPT + 5)
    s.apply(0, space(s, (2, 0)))
    s.apply(0, space(s, (4, 0)))
    assert s.to_move() == (1,)  # the rival decides
    s.apply(1, space(s, (4, 0)))
    assert s.tok[sp(s, (4, 0))] == 0
    assert s.reinf[sp(s, (4, 0))] == 0
    assert s.tok[sp(s, (2, 0))] == 1


def test_great_zimbabwe_stores_and_releases_tokens() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.wonder_owner[WONDER_INDEX["great_zimbabwe"]] = 0
    s.pending.append([military.K.D_TRADE_TOKEN, 0, 2])
    s._legal = {}
    assert turn.GZ in s.legal_actions(0)
    s.apply(0, turn.GZ)
    s.apply(0, turn.GZ)
    assert s.gz == 2
    assert s.trade[0] == [0, 0, 0, 0, 0]
    _start(s)
    s.apply(0, act.OPT + 6)
    s.apply(0, act.TYPE + SCIENCE)
    s.apply(0, act.DONE)
    assert s.gz == 1
    assert s.trade[0][SCIENCE] == 1


def test_civ_24_america_natural_wonder_on_focus_card() -> None:
    cells = {(0, 0): "G", (1, 0): "N", (2, 0): "G"}
    s = make(
        cells, leaders=("america", "rome"), capitals={0: (0, 0)}, features={(1, 0): "nw:grand_mesa"}
    )
    row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT + 4)  # Early Empire from slot 5
    s.apply(0, space(s, (1, 0)))
    assert top(s) == "America: focus card for the natural-wonder token"
    s.apply(0, act.TYPE + SCIENCE)
    n = s.nw_held[0][0]
    assert s.nw_card[n] == SCIENCE
    # next turn: resolve science spending the natural wonder as a trade token; it is kept
    s.current = 0
    s.pending = [[military.K.T_END, 0], [military.K.D_CHOOSE, 0]]
    s.nw_used = []
    s._legal = {}
    k = s.row[0].index(CARD_INDEX["astrology"])
    dial = s.dial[0]
    s.apply(0, act.SLOT + k)
    assert top(s) == "declare trade tokens"
    s.apply(0, act.OPT)  # 1 token: the natural wonder
    assert top(s) == "America: focus card for the natural-wonder token"
    s.apply(0, act.TYPE + CULTURE)
    assert s.nw_card[n] == CULTURE
    assert n in s.nw_held[0]
    assert s.dial[0] == dial + (k + 1) + 1


def test_petra_blocks_barbarians_and_errata_turns_them_around() -> None:
    cells = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (-1, 0): "G"}
    for errata, expected in ((False, (1, 0)), (True, (0, 0))):
        s = make(cells, capitals={0: (2, 0)})
        s.options = {**s.options, "errata_petra": errata}
        s.wonder_owner[WONDER_INDEX["petra"]] = 0
        barbarian(s, "A", (1, 0))
        events.move_barbarian(s, 0, 0)  # east into the Petra owner's capital
        assert s.board.coords[s.barb_pos[0]] == expected


def test_maracana_offers_the_economy_card() -> None:
    for errata in (False, True):
        s = make(LINE, capitals={0: (0, 0)})
        s.options = {**s.options, "errata_maracana": errata}
        s.wonder_owner[WONDER_INDEX["estadio_do_maracana"]] = 0
        row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
        s.apply(0, act.SLOT)  # Astrology from slot 1
        if errata:
            assert top(s) == "swap / extra resolution"  # offered before the science card
            assert s.dial[0] == 0
        else:
            assert s.dial[0] == 1
            assert top(s) == "swap / extra resolution"  # offered after it
