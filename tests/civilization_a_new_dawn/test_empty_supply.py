"""CIV-8.5 (and CIV-A27): with an empty supply the player chooses which token to take back.

The spec says "take one of your control tokens from the map (any)": every case that needs a
token from an empty supply asks the owner which one (a ``D_RECLAIM`` decision).
"""

from __future__ import annotations

from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import WONDER_INDEX
from civtable.games.civilization_a_new_dawn.rules import kinds, victory

from .scenario import city, make, rig_dice, row, sp, space, token, top

LINE = {(0, 0): "G", (1, 0): "G", (2, 0): "G", (3, 0): "G", (4, 0): "G", (5, 0): "G"}
RECLAIM = "empty supply: token to take back from the map"
ATTACK_ROW = ("astrology", "foreign_trade", "pottery", "early_empire", "masonry")


def _attack(s, target: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """Resolve Masonry from slot 5 and win an attack on ``target`` (6 against 1)."""
    row(s, 0, *ATTACK_ROW)
    s.apply(0, act.SLOT + 4)  # slot 5
    s.apply(0, act.OPT + 1)
    s.rng = rig_dice(6, 1)
    s.apply(0, space(s, target))


def test_civ_8_5_won_attack_on_a_token_asks_which_token_to_take_back() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 1, (1, 0))
    token(s, 0, (4, 0))
    token(s, 0, (5, 0), reinforced=True)
    s.supply[0] = 0
    _attack(s, (1, 0))
    assert top(s) == RECLAIM
    assert s.to_move() == (0,)
    assert s.legal_actions(0) == [space(s, (4, 0)), space(s, (5, 0))]
    assert s.tok[sp(s, (1, 0))] == -1  # the rival token is already back in its supply
    s.apply(0, space(s, (5, 0)))  # the player may take back a reinforced token
    assert s.tok[sp(s, (1, 0))] == 0
    assert s.reinf[sp(s, (1, 0))] == 0  # CIV-15.3: unreinforced side up
    assert s.tok[sp(s, (5, 0))] == -1
    assert s.tok[sp(s, (4, 0))] == 0
    assert s.supply[0] == 0


def test_civ_8_5_won_attack_with_no_token_anywhere_leaves_the_space_empty() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 1, (1, 0))
    s.supply[0] = 0
    _attack(s, (1, 0))
    assert top(s) != RECLAIM
    assert s.tok[sp(s, (1, 0))] == -1
    assert s.supply[0] == 0


def test_civ_8_5_stand_in_token_without_cities_asks_which_token() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    city(s, 1, (1, 0))
    token(s, 0, (4, 0))
    token(s, 0, (5, 0))
    s.cities_left[0] = 0
    s.supply[0] = 0
    s.victory = [4]  # agendas not met here (no mark would need a token)
    _attack(s, (1, 0))
    assert top(s) == RECLAIM
    s.apply(0, space(s, (4, 0)))
    assert s.city[sp(s, (1, 0))] == -1
    assert s.tok[sp(s, (1, 0))] == 0
    assert s.reinf[sp(s, (1, 0))] == 1  # CIV-23.4: a reinforced stand-in token
    assert s.tok[sp(s, (4, 0))] == -1
    assert s.tok[sp(s, (5, 0))] == 0


def test_civ_8_5_mass_media_asks_which_token_to_take_back() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    token(s, 1, (3, 0))
    token(s, 0, (5, 0))
    s.supply[0] = 1
    row(s, 0, "mass_media", "astrology", "foreign_trade", "masonry", "pottery")
    s.apply(0, act.SLOT)
    s.apply(0, space(s, (1, 0)))  # the last token of the supply
    s.apply(0, space(s, (3, 0)))  # Mass Media: the rival token within 2
    assert top(s) == RECLAIM
    assert s.legal_actions(0) == [space(s, (1, 0)), space(s, (5, 0))]
    s.apply(0, space(s, (1, 0)))
    assert s.tok[sp(s, (3, 0))] == 0
    assert s.tok[sp(s, (1, 0))] == -1
    assert s.tok[sp(s, (5, 0))] == 0
    assert s.supply[0] == 0
    assert s.supply[1] == 31


def test_civ_d7_eiffel_tower_needs_an_unused_token() -> None:
    """D7: the replacement is "1 of your unused [...] control tokens" (from the supply), so with
    an empty supply the optional start-of-turn effect is not offered and CIV-8.5 never applies."""
    s = make(LINE, capitals={0: (0, 0)})
    s.wonder_owner[WONDER_INDEX["eiffel_tower"]] = 0
    token(s, 1, (2, 0))
    token(s, 1, (4, 0))
    token(s, 0, (1, 0))
    s.pending = [[kinds.T_END, 0], [kinds.D_CHOOSE, 0], [kinds.D_START, 0]]
    s._legal = {}
    assert act.OPT + 5 in s.legal_actions(0)
    s.supply[0] = 0
    s._legal = {}
    assert act.OPT + 5 not in s.legal_actions(0)


def test_civ_a27_agenda_marker_from_an_empty_supply_is_chosen() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.victory = [4]  # v5: Populous / Preservationist (2 natural wonders)
    token(s, 0, (3, 0))
    token(s, 0, (5, 0))
    s.supply[0] = 0
    s.nw_held[0] = [0, 1]
    victory.check_agendas(s)
    assert s.marks[0] == 1  # the mark is made at once
    s._legal = {}
    assert top(s) == RECLAIM
    assert s.legal_actions(0) == [space(s, (3, 0)), space(s, (5, 0))]
    s.apply(0, space(s, (3, 0)))
    assert s.tok[sp(s, (3, 0))] == -1
    assert s.tok[sp(s, (5, 0))] == 0
    assert s.supply[0] == 0  # the token taken back became the marker
    assert top(s) == "choose a focus card"


def test_civ_a27_agenda_marker_with_no_token_anywhere() -> None:
    s = make(LINE, capitals={0: (0, 0)})
    s.victory = [4]
    s.supply[0] = 0
    s.nw_held[0] = [0, 1]
    victory.check_agendas(s)
    assert s.marks[0] == 1
    assert top(s) != RECLAIM
    assert s.supply[0] == 0
