"""Oxford University (D7): "When you replace a focus card other than your science card, the new
card need not be of the same type." Tokens lie on places of the row (CIV-7.5): the new card takes
the place, and the trade tokens on it, of the card it replaces.
"""

from __future__ import annotations

import json

from civtable.games.civilization_a_new_dawn import GAME
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    CARD_INDEX,
    CULTURE,
    ECONOMY,
    INDUSTRY,
    MILITARY,
    SCIENCE,
    WONDER_INDEX,
)
from civtable.games.civilization_a_new_dawn.rules import common, kinds

from .scenario import make, rig_dice, row, space, token, top

LINE = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (3, 0): "G", (4, 0): "G", (5, 0): "G"}
MATHS = CARD_INDEX["mathematics"]
POTTERY = CARD_INDEX["pottery"]
ASTROLOGY = CARD_INDEX["astrology"]
LEVEL_II = sorted(CARD_INDEX[c] for c in ("drama_and_poetry", "mathematics", "currency",
                                          "animal_husbandry", "iron_working"))  # fmt: skip


def _tier_ii(oxford: bool = True):  # type: ignore[no-untyped-def]
    """Seat 0 resolves Astrology from slot 1 with the dial one space before tier II."""
    s = make(LINE, capitals={0: (0, 0)})
    if oxford:
        s.wonder_owner[WONDER_INDEX["oxford_university"]] = 0
    row(s, 0, "astrology", "foreign_trade", "masonry", "pottery", "early_empire")
    s.dial[0] = 2
    s.trade[0][INDUSTRY] = 2  # on Pottery
    s.apply(0, act.SLOT)  # slot 1: advance 1 -> space 3 (tier II)
    assert top(s) == "tech upgrade"
    return s


def _my_turn(s) -> None:  # type: ignore[no-untyped-def]
    s.current = 0
    s.turn_flags, s.nw_used = 0, []
    s.pending = [[kinds.T_END, 0], [kinds.D_CHOOSE, 0]]
    s._legal = {}


def test_d7_oxford_upgrade_into_a_different_type_keeps_the_tokens() -> None:
    s = _tier_ii()
    assert s.legal_actions(0) == [act.DONE] + [act.CARD + c for c in LEVEL_II]
    s.apply(0, act.CARD + MATHS)
    # Mathematics may replace Astrology (same type) or any non-science card
    assert s.legal_actions(0) == [act.TYPE + k for k in range(5)]
    assert s.describe(0, act.TYPE + INDUSTRY) == "industry card"
    s.apply(0, act.TYPE + INDUSTRY)  # Mathematics replaces Pottery
    assert s.row[0] == [ASTROLOGY, CARD_INDEX["foreign_trade"], CARD_INDEX["masonry"], MATHS,
                        CARD_INDEX["early_empire"]]  # fmt: skip
    assert POTTERY not in s.row[0]  # back in the focus deck (CIV-6.4)
    assert common.card_in_row(s, 0, INDUSTRY) == -1
    assert common.trade_on(s, 0, MATHS) == 2  # CIV-7.5: the tokens moved to the new card
    assert common.trade_on(s, 0, ASTROLOGY) == 0
    assert s.view(0)["player_state"][0]["trade"] == [0, 0, 0, 2, 0]
    # the next turn: Mathematics (slot 4) spends its own 2 tokens and is reset to slot 1
    _my_turn(s)
    dial = s.dial[0]
    s.apply(0, act.SLOT + 3)
    assert top(s) == "declare trade tokens"
    assert s.legal_actions(0) == [act.DONE, act.OPT, act.OPT + 1]
    s.apply(0, act.OPT + 1)  # spend 2
    assert top(s) == "place a trade token"  # Mathematics' own token (D6.2)
    assert s.describe(0, act.TYPE + INDUSTRY) == "trade token onto your science card (Mathematics)"
    s.apply(0, act.TYPE + SCIENCE)  # onto Astrology
    assert s.dial[0] == dial + 4 + 2  # CIV-9.1: slot 4, +1 per token
    assert common.trade_on(s, 0, MATHS) == 0
    assert common.trade_on(s, 0, ASTROLOGY) == 1
    assert top(s) == "tech upgrade"  # passed space 6 (tier II)
    s.apply(0, act.DONE)
    assert s.row[0][0] == MATHS  # CIV-5.3: the resolved card (not Astrology) went to slot 1
    assert s.row[0][1] == ASTROLOGY


def test_d7_oxford_science_card_is_replaced_only_by_a_science_card() -> None:
    s = _tier_ii()
    s.apply(0, act.CARD + CARD_INDEX["drama_and_poetry"])
    assert s.legal_actions(0) == [act.TYPE + k for k in (CULTURE, ECONOMY, INDUSTRY, MILITARY)]
    s.apply(0, act.TYPE + MILITARY)
    assert CARD_INDEX["masonry"] not in s.row[0]
    assert CARD_INDEX["early_empire"] in s.row[0]
    assert s.place[0][MILITARY] == CARD_INDEX["drama_and_poetry"]


def test_civ_9_3_without_oxford_the_card_of_the_same_type_is_replaced() -> None:
    s = _tier_ii(oxford=False)
    s.apply(0, act.CARD + MATHS)  # no second question
    assert top(s) != "tech upgrade"
    assert MATHS in s.row[0]
    assert ASTROLOGY not in s.row[0]
    assert common.trade_on(s, 0, POTTERY) == 2


def test_d7_oxford_row_without_an_economy_card_has_no_caravans() -> None:
    s = _tier_ii()
    s.apply(0, act.CARD + MATHS)
    s.apply(0, act.TYPE + ECONOMY)
    assert common.caravans_allowed(s, 0) == 0  # CIV-10.1: no economy card in the row
    assert s.caravans[0] == [-2, -2, -2]


def test_civ_14_6_oxford_military_tokens_are_those_of_the_resolved_card() -> None:
    s = _tier_ii()
    s.apply(0, act.CARD + CARD_INDEX["iron_working"])
    s.apply(0, act.TYPE + CULTURE)  # a second military card in the culture card's place
    _my_turn(s)
    s.trade[0][CULTURE] = 1  # on Iron Working
    s.trade[0][MILITARY] = 3  # on Masonry
    token(s, 1, (1, 0))
    k = s.row[0].index(CARD_INDEX["iron_working"])
    s.apply(0, act.SLOT + k)
    if top(s) == "choose the card's option":
        s.apply(0, max(a for a in s.legal_actions(0) if a < act.TYPE))  # attack
    s.rng = rig_dice(1, 6)
    s.apply(0, space(s, (1, 0)))
    assert top(s) == "attacker: spend military trade tokens"
    assert s.legal_actions(0) == [act.DONE, act.OPT]  # only Iron Working's 1 token
    s.apply(0, act.OPT)
    assert s.trade[0][CULTURE] == 0
    assert s.trade[0][MILITARY] == 3


def test_civ_26_oxford_row_survives_json_round_trip() -> None:
    s = _tier_ii()
    s.apply(0, act.CARD + MATHS)
    s.apply(0, act.TYPE + INDUSTRY)
    doc = json.loads(json.dumps(s.to_json()))
    back = GAME.state_from_json(doc)
    assert back.place == s.place
    assert back.row == s.row
    assert back.trade == s.trade
    fresh = GAME.new_game(2, 3).to_json()
    del fresh["place"]  # older documents (one card per type) still load: place = type
    old = GAME.state_from_json(fresh)
    assert [[c // 4 for c in p] for p in old.place] == [list(range(5))] * 2
