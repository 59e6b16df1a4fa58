"""CIV-10.6 / CIV-10.7 / CIV-A31: one arrival per destination per turn; a caravan may pass
through a city-state or rival city another caravan already reached this turn, but never stop
there (issue 20, bug 1)."""

from __future__ import annotations

import pytest

from civtable.core.errors import IllegalActionError
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import CS_INDEX, SCIENCE
from civtable.games.civilization_a_new_dawn.state import CivState

from .scenario import city, make, row, sp, space, top

LINE = {(i, 0): "G" for i in range(7)}
SEOUL = {(2, 0): "cs:seoul"}


def _two_caravans(cells: dict[tuple[int, int], str] = LINE) -> CivState:
    """Red (Rome) capital at (0,0), Seoul at (2,0); Currency (2 caravans, move 4) in slot 1."""
    s = make(cells, capitals={0: (0, 0)}, features=SEOUL)
    row(s, 0, "currency", "astrology", "masonry", "pottery", "early_empire")
    s.caravans[0] = [-1, -1, -2]
    return s


def _first_caravan_arrives(s: CivState) -> None:
    s.apply(0, act.SLOT)  # Currency from slot 1
    s.apply(0, act.OPT)  # caravan 0
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))
    s.apply(0, act.DONE)  # ends its movement on Seoul: arrival (CIV-10.6)
    s.apply(0, act.DONE)  # declines the Seoul card
    assert s.caravans[0][0] == -1
    assert s.trade[0][SCIENCE] == 2
    assert top(s) == "choose a caravan to move"


def test_civ_10_7_second_caravan_may_pass_but_not_stop() -> None:
    s = _two_caravans()
    _first_caravan_arrives(s)
    s.apply(0, act.OPT + 1)  # caravan 1
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))  # passing through Seoul is allowed (CIV-10.5, CIV-A31)
    assert s.legal_actions(0) == [space(s, (1, 0)), space(s, (3, 0))]  # no "stop here"
    h = s.state_hash()
    with pytest.raises(IllegalActionError):
        s.apply(0, act.DONE)
    assert s.state_hash() == h
    s.apply(0, space(s, (3, 0)))
    s.apply(0, act.DONE)
    assert s.caravans[0][1] == sp(s, (3, 0))
    assert s.trade[0][SCIENCE] == 2  # still only the first arrival's reward


def test_civ_10_7_last_step_may_not_end_on_a_reached_city_state() -> None:
    s = _two_caravans()
    s.caravans[0][1] = sp(s, (6, 0))
    _first_caravan_arrives(s)
    s.apply(0, act.OPT + 1)
    for c in [(5, 0), (4, 0), (3, 0)]:
        s.apply(0, space(s, c))
    # one step left: entering Seoul would end the movement there
    assert s.legal_actions(0) == [act.DONE, space(s, (4, 0))]


def test_civ_10_7_no_way_out_means_no_entry() -> None:
    # Seoul is a dead end: the only space next to it is the capital, on hills (slot 1 allows
    # grassland only); once caravan 0 has arrived, caravan 1 could enter Seoul but never leave
    s = make({(0, 0): "H", (1, 0): "G"}, capitals={0: (0, 0)}, features={(1, 0): "cs:seoul"})
    row(s, 0, "currency", "astrology", "masonry", "pottery", "early_empire")
    s.caravans[0] = [-1, -1, -2]
    s.apply(0, act.SLOT)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (1, 0)))  # nowhere further: stops and arrives (CIV-10.6)
    s.apply(0, act.DONE)  # declines the Seoul card
    assert s.trade[0][SCIENCE] == 2
    # caravan 1 is not offered: the turn is over
    assert s.caravans[0][1] == -1
    assert s.current == 1
    assert top(s) == "choose a focus card"


def test_civ_10_7_passing_a_reached_rival_city() -> None:
    s = make(LINE, capitals={0: (0, 0), 1: (4, 0)})
    city(s, 1, (2, 0))
    row(s, 0, "currency", "astrology", "masonry", "pottery", "early_empire")
    s.caravans[0] = [-1, -1, -2]
    s.apply(0, act.SLOT)
    s.apply(0, act.OPT)
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))
    s.apply(0, act.DONE)  # arrival at the rival city
    while top(s) != "choose a caravan to move":
        s.apply(0, s.legal_actions(0)[0])
    s.apply(0, act.OPT + 1)
    s.apply(0, space(s, (1, 0)))
    s.apply(0, space(s, (2, 0)))
    assert act.DONE not in s.legal_actions(0)
    s.apply(0, space(s, (3, 0)))
    # the rival capital next door was not reached this turn: stopping there is an arrival
    s.apply(0, space(s, (4, 0)))
    assert s.caravans[0][1] == -1


def test_civ_10_6_standing_still_is_not_an_arrival() -> None:
    # a caravan already standing on a city-state (e.g. a liberation put the token back under
    # it) does not "end its movement" there by not moving: no reward (issue 20 knock-on)
    s = _two_caravans()
    s.caravans[0] = [sp(s, (2, 0)), -2, -2]
    s.apply(0, act.SLOT)
    s.apply(0, act.OPT)
    s.apply(0, act.DONE)
    assert s.caravans[0][0] == sp(s, (2, 0))
    assert s.trade[0][SCIENCE] == 0
    assert CS_INDEX["seoul"] not in s.cs_cards[0]
