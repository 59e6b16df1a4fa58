"""Every focus card level above I (CIV-6.3, D6.1-D6.5): the extra effects beyond level I."""

from __future__ import annotations

from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    CARD_INDEX,
    CULTURE,
    ECONOMY,
    RES_INDEX,
)
from civtable.games.civilization_a_new_dawn.rules import common, industry

from .scenario import barbarian, make, row, sp, space, token, top

LINE = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (3, 0): "G", (4, 0): "G", (5, 0): "G"}
HEX = {
    (0, 0): "G", (1, 0): "G", (0, 1): "G", (-1, 1): "G", (-1, 0): "G", (0, -1): "G",
    (1, -1): "G", (2, 0): "G", (3, 0): "G", (2, -1): "G",
}  # fmt: skip
OTHERS = ["astrology", "foreign_trade", "masonry", "pottery", "early_empire"]


def with_card(s, card: str, slot: int) -> None:  # type: ignore[no-untyped-def]
    """Row with ``card`` in ``slot`` (1..5), level-I cards of the other types elsewhere."""
    t = CARD_INDEX[card] // 4
    rest = [c for c in OTHERS if CARD_INDEX[c] // 4 != t]
    rest.insert(slot - 1, card)
    row(s, 0, *rest)


def test_civ_d6_1_drama_and_poetry_moves_a_token() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 0, (3, 0))
    with_card(s, "drama_and_poetry", 1)
    s.apply(0, act.SLOT)
    s.apply(0, space(s, (1, 0)))  # 2 tokens, only 1 legal space
    assert top(s) == "Drama and Poetry: token to move"
    s.apply(0, space(s, (3, 0)))
    s.apply(0, space(s, (4, 0)))
    assert s.tok[sp(s, (4, 0))] == 0
    assert s.tok[sp(s, (3, 0))] == -1


def test_civ_d6_1_civil_service_places_next_to_any_friendly_space() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 0, (3, 0))
    with_card(s, "civil_service", 2)
    s.apply(0, act.SLOT + 1)
    s.apply(0, space(s, (1, 0)))  # the only space next to a city
    assert s.legal_actions(0) == sorted(space(s, c) for c in [(2, 0), (4, 0)])
    s.apply(0, space(s, (4, 0)))
    assert s.tok[sp(s, (4, 0))] == 0


def test_civ_d6_1_mass_media_converts_a_rival_token() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 1, (3, 0))
    with_card(s, "mass_media", 1)
    s.apply(0, act.SLOT)
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (3, 0)))  # within 2 of the new token at (1, 0)
    assert s.tok[sp(s, (3, 0))] == 0
    assert s.supply[1] == 31


def test_civ_d6_2_mathematics_and_replaceable_parts() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    with_card(s, "mathematics", 1)
    s.apply(0, act.SLOT)
    assert top(s) == "place a trade token"
    s.apply(0, act.TYPE + CULTURE)
    assert s.trade[0][CULTURE] == 1
    assert s.dial[0] == 1
    s = make(LINE, capitals={0: (0, 0)})
    s.resources[0][RES_INDEX["oil"]] = 1
    with_card(s, "replaceable_parts", 1)
    s.apply(0, act.SLOT)
    assert act.RES + RES_INDEX["oil"] not in s.legal_actions(0)  # a type you have none of
    s.apply(0, act.RES + RES_INDEX["marble"])
    assert s.resources[0][RES_INDEX["marble"]] == 1


def test_civ_d6_2_nuclear_power_from_slot_5() -> None:
    s = make(HEX, capitals={0: (3, 0)})
    token(s, 1, (0, 0))
    token(s, 1, (1, 0), reinforced=True)
    token(s, 1, (-1, 0))
    with_card(s, "nuclear_power", 5)
    s.apply(0, act.SLOT + 4)
    assert top(s) == "Nuclear Power: target space"
    s.apply(0, space(s, (0, 0)))
    assert s.tok[sp(s, (0, 0))] == -1
    assert s.tok[sp(s, (-1, 0))] == -1
    assert s.tok[sp(s, (1, 0))] == 1
    assert s.reinf[sp(s, (1, 0))] == 0
    s = make(HEX, capitals={0: (3, 0)})
    with_card(s, "nuclear_power", 4)
    s.apply(0, act.SLOT + 3)
    assert top(s) != "Nuclear Power: target space"


def test_civ_d6_3_currency_removes_a_barbarian() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    barbarian(s, "A", (2, 0))
    with_card(s, "currency", 3)
    s.apply(0, act.SLOT + 2)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))  # enters the barbarian: removed, movement ends
    assert s.barb_pos[0] == -1
    assert s.caravans[0][0] == sp(s, (2, 0))
    assert s.trade[0] == [0, 0, 0, 0, 0]


def test_civ_d6_3_steam_power_crosses_water_and_exchanges() -> None:
    cells = {(0, 0): "G", (1, 0): "W", (2, 0): "G"}
    s = make(cells, capitals={0: (0, 0)})
    s.resources[0][RES_INDEX["oil"]] = 1
    s.res_supply[RES_INDEX["oil"]] -= 1
    with_card(s, "steam_power", 1)
    s.apply(0, act.SLOT)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))
    s.apply(0, act.DONE)
    assert top(s) in ("choose a caravan to move", "Steam Power: resource to give")
    while top(s) == "choose a caravan to move":
        s.apply(0, act.DONE)
    s.apply(0, act.RES + RES_INDEX["oil"])
    s.apply(0, act.RES + RES_INDEX["diamond"])
    assert s.resources[0][RES_INDEX["diamond"]] == 1
    assert s.resources[0][RES_INDEX["oil"]] == 0


def test_civ_d6_3_capitalism_resolves_another_card_from_slot_1() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    with_card(s, "capitalism", 1)
    s.apply(0, act.SLOT)
    s.apply(0, act.DONE)  # no caravan moves
    assert top(s) == "Capitalism: resolve another card from slot 1"
    before = list(s.row[0])
    s.apply(0, act.TYPE + 1)  # science from slot 1
    assert s.dial[0] == 1
    assert s.row[0] == before  # that card is not reset
    assert s.current == 1


def test_civ_d6_4_animal_husbandry_builds_on_a_caravan() -> None:
    cells = {**LINE, (6, 0): "G", (7, 0): "G", (8, 0): "G"}
    s = make(cells, capitals={0: (0, 0)})
    s.caravans[0][0] = sp(s, (7, 0))
    card = CARD_INDEX["animal_husbandry"]
    assert sp(s, (7, 0)) in industry.city_spaces(s, 0, card, 2, 3)
    assert sp(s, (7, 0)) not in industry.city_spaces(s, 0, CARD_INDEX["pottery"], 2, 3)
    with_card(s, "animal_husbandry", 2)
    s.apply(0, act.SLOT + 1)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (7, 0)))
    assert s.city[sp(s, (7, 0))] == 0
    assert s.caravans[0][0] == -1


def test_civ_d6_4_nationalism_counts_through_water_and_builds_from_7() -> None:
    cells = {(0, 0): "G", (1, 0): "W", (2, 0): "W", (3, 0): "G", (4, 0): "G"}
    s = make(cells, capitals={0: (0, 0)})
    expected = [sp(s, (3, 0)), sp(s, (4, 0))]
    assert industry.city_spaces(s, 0, CARD_INDEX["nationalism"], 3, 4) == expected
    assert industry.city_spaces(s, 0, CARD_INDEX["pottery"], 3, 4) == []
    with_card(s, "nationalism", 5)
    from civtable.games.civilization_a_new_dawn.catalog import FOCUS_CARDS

    eff = FOCUS_CARDS[CARD_INDEX["nationalism"]].effects[4]
    assert [st.base_production for st in eff.steps if st.op == "build_wonder"] == [7]


def test_civ_d6_4_urbanization_adds_tokens_around_the_new_city() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    with_card(s, "urbanization", 3)
    s.apply(0, act.SLOT + 2)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (3, 0)))
    assert top(s) == "place a control token"
    assert act.DONE in s.legal_actions(0)  # "up to 2"
    s.apply(0, space(s, (4, 0)))
    s.apply(0, space(s, (2, 0)))
    assert s.tok[sp(s, (4, 0))] == 0
    assert s.tok[sp(s, (2, 0))] == 0


def test_civ_d6_5_mass_production_reinforces_less_after_attacks() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    for c in [(1, 0), (2, 0), (3, 0)]:
        token(s, 0, c)
    barbarian(s, "A", (4, 0))
    with_card(s, "mass_production", 3)
    s.apply(0, act.SLOT + 2)
    assert top(s) == "attack a target"
    s.apply(0, space(s, (4, 0)))
    while top(s) != "reinforce a control token":
        s.apply(0, s.legal_actions(0)[0])
    assert s.pending[-1][2] == 3 - 1


def test_civ_d6_5_mass_production_counts_only_its_own_attacks() -> None:
    # "then reinforce up to ([slot] - number of attacks made)": an attack made earlier this turn
    # (e.g. by the first resolution of a Venetian Arsenal pair) does not reduce it
    s = make(LINE, capitals={0: (0, 0)})
    for c in [(1, 0), (2, 0), (3, 0)]:
        token(s, 0, c)
    barbarian(s, "A", (4, 0))
    with_card(s, "mass_production", 3)
    s.turn_flags = 1 << common.ATTACKS_SHIFT  # one attack already declared this turn
    s.apply(0, act.SLOT + 2)
    assert top(s) == "attack a target"
    s.apply(0, act.DONE)  # no attack this time
    assert top(s) == "reinforce a control token"
    assert s.pending[-1][2] == 3


def test_civ_d6_5_flight_reinforces_then_attacks_far() -> None:
    cells = {(i, 0): "G" for i in range(8)}
    s = make(cells, capitals={0: (0, 0)})
    token(s, 0, (1, 0))
    token(s, 1, (2, 0))
    barbarian(s, "A", (6, 0))
    with_card(s, "flight", 1)
    s.apply(0, act.SLOT)
    assert top(s) == "reinforce a control token"
    s.apply(0, act.DONE)
    legal = s.legal_actions(0)
    assert space(s, (6, 0)) in legal  # range 5 through the rival token
    assert ECONOMY == 2


def test_civ_10_6_caravan_with_nowhere_to_go_still_visits() -> None:
    s = make({(0, 0): "H", (1, 0): "G"}, capitals={0: (0, 0)}, features={(1, 0): "cs:seoul"})
    row(s, 0, "foreign_trade", "astrology", "masonry", "pottery", "early_empire")
    s.apply(0, act.SLOT)  # Foreign Trade from slot 1: hills (the capital) cannot be re-entered
    s.apply(0, act.OPT)
    s.apply(0, space(s, (1, 0)))  # 2 steps left but nowhere to go: the caravan stops and visits
    assert s.caravans[0][0] == -1
    assert s.trade[0][1] == 2  # Seoul is a science city-state
    assert ECONOMY == 2
