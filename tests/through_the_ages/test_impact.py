"""Age III scoring events (TTA-12.8, cards file C-12) and the full game's final scoring
(TTA-13.2): :mod:`civtable.games.through_the_ages.rules.impact`."""

from __future__ import annotations

import pytest

from civtable.games.through_the_ages.catalog import CARDS
from civtable.games.through_the_ages.rules import board, impact
from civtable.games.through_the_ages.state import F_RESIGNED, Civ, TTAState

from .scenario import action_phase, card, develop, workers

_EMPTY = {"warriors": 0, "agriculture": 0, "bronze": 0, "philosophy": 0, "religion": 0}


def _bare(players: int = 4) -> TTAState:
    """A game in Age III with every worker unused (nothing produced, no ratings but 0)."""
    s = action_phase(players)
    s.age = 3
    for c in s.civs:
        workers(c, **_EMPTY)
    return s


def _score(s: TTAState, cid: str, seat: int = 0) -> int:
    return impact.impact_culture(s, card(cid))[seat]


def _place(c: Civ, **counts: int) -> None:
    """Develop the (non-board) building technologies and set their workers."""
    for cid in counts:
        if CARDS[card(cid)].deck != "board" and card(cid) not in c.developed:
            develop(c, cid)
    workers(c, **counts)


def _pact_side(cid: str, side: int) -> int:
    return card(cid) * 2 + side


# --- the events' set ----------------------------------------------------------------------------


def test_tta_12_8_age_iii_events_are_the_fifteen_impacts() -> None:
    ids = {CARDS[i].id for i in impact.IMPACT_EVENTS}
    assert len(ids) == 15
    assert all(i.startswith("impact_of_") for i in ids)
    assert not impact.is_impact(card("ravages_of_time"))
    with pytest.raises(ValueError, match="not an Age III scoring event"):
        impact.impact_culture(_bare(), card("ravages_of_time"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c_12_every_event_evaluates_at_setup(players: int) -> None:
    """Every op and quantity of the 15 events is understood; a new civilization (Despotism,
    initial workers) scores only what its board gives."""
    s = action_phase(players)
    for e in sorted(impact.IMPACT_EVENTS):
        out = impact.impact_culture(s, e)
        assert len(out) == players
    # initial board: 2 food, 2 resources, science 1, culture 0 -> Balance 0; Government 4 CA 2 MA
    assert _score(s, "impact_of_balance") == 0
    assert _score(s, "impact_of_government") == 2 * 4 + 2


# --- one test per event (C-12) ------------------------------------------------------------------


def test_c_12_impact_of_agriculture() -> None:
    s = _bare()
    c = s.civs[0]
    _place(c, agriculture=2, irrigation=2)  # 2*1 + 2*2 = 6 food
    c.yellow = 18  # consumption 0
    assert _score(s, "impact_of_agriculture") == 6 + 4
    c.yellow = 0  # consumption 6: not exceeded
    assert board.consumption(0) == 6
    assert _score(s, "impact_of_agriculture") == 6
    # the pact bonus counts (International Trade Agreement side B: +1 food)
    c.pside = [_pact_side("international_trade_agreement", 1)]
    assert _score(s, "impact_of_agriculture") == 7 + 4
    # mines, labs and the other pact side do not
    c.pside = [_pact_side("international_trade_agreement", 0)]
    _place(c, bronze=3)
    assert _score(s, "impact_of_agriculture") == 6


def test_c_12_impact_of_architecture() -> None:
    s = _bare()
    c = s.civs[0]
    _place(c, religion=1, philosophy=1, drama=2, opera=1, swordsmen=3, iron=2)
    assert _score(s, "impact_of_architecture") == 0 + 0 + 2 * 1 + 1 * 2
    _place(c, computers=1)
    assert _score(s, "impact_of_architecture") == 4 + 3


def test_c_12_impact_of_balance() -> None:
    s = _bare()
    c = s.civs[0]
    # food 4, resources 3, science 5, culture 2 -> 2 * 2
    _place(c, irrigation=2, coal=1, computers=1, drama=1)
    assert board.ratings(c)[:2] == (2, 5)
    assert _score(s, "impact_of_balance") == 4
    # resources the lowest (1); then Bill Gates' lab (level 3) makes them 4
    _place(c, coal=0, bronze=1, drama=2)
    assert _score(s, "impact_of_balance") == 2
    c.leader = card("bill_gates")
    assert _score(s, "impact_of_balance") == 2 * 4


def test_c_12_impact_of_colonies() -> None:
    s = _bare()
    assert _score(s, "impact_of_colonies") == 0
    s.civs[1].colonies = [card("vast_territory_i"), card("historic_territory_ii")]
    assert impact.impact_culture(s, card("impact_of_colonies")) == [0, 6, 0, 0]


def test_c_12_impact_of_competition() -> None:
    s = _bare()
    c = s.civs[0]
    _place(c, warriors=1, swordsmen=2, cannon=1, bread_and_circuses=1, team_sports=1)
    _place(c, organized_religion=2, computers=1)  # other urban buildings do not count
    assert _score(s, "impact_of_competition") == 0 + 2 * 1 + 2 + 1 + 2
    _place(c, air_forces=1)
    assert _score(s, "impact_of_competition") == 7 + 3


def test_c_12_impact_of_government() -> None:
    s = _bare()
    c = s.civs[0]
    assert _score(s, "impact_of_government") == 2 * 4 + 2  # Despotism 4 CA, 2 MA
    develop(c, "monarchy", "code_of_laws")  # 5 + 1 CA, 3 MA
    c.ca = 0  # totals, not available actions
    assert _score(s, "impact_of_government") == 2 * 6 + 3


def test_c_12_impact_of_happiness() -> None:
    s = _bare()
    c = s.civs[0]
    c.yellow = 18  # no happiness required
    _place(c, organized_religion=2)  # 6 happy faces
    assert _score(s, "impact_of_happiness") == 12
    _place(c, organized_religion=3)  # 9 faces: rating 8, max 16
    assert _score(s, "impact_of_happiness") == 16
    _place(c, organized_religion=0, religion=1)  # 1 face
    c.yellow = 1  # 7 required: 6 discontent workers
    assert board.discontent(c) == 6
    assert _score(s, "impact_of_happiness") == 2 - 12


def test_tta_amb_30_negative_impact_of_happiness_floors_culture_at_zero() -> None:
    s = _bare()
    c, d = s.civs[0], s.civs[1]
    _place(c, religion=1)
    c.yellow = 1  # -10
    c.culture = 4
    _place(d, religion=1)
    d.yellow = 1
    d.culture = 15
    got = impact.apply_impact(s, card("impact_of_happiness"))
    assert (c.culture, d.culture) == (0, 5)
    assert got[:2] == [-4, -10]


def test_c_12_impact_of_industry() -> None:
    s = _bare()
    c = s.civs[0]
    _place(c, bronze=2, coal=1)  # 2 + 3
    assert _score(s, "impact_of_industry") == 5
    c.wonders = [card("transcontinental_railroad")]  # the best mine produces again
    assert _score(s, "impact_of_industry") == 5 + 3
    # Bill Gates' labs, farms and the pacts' resource bonus do not count
    c.leader = card("bill_gates")
    c.pside = [_pact_side("international_trade_agreement", 0)]
    _place(c, computers=2, irrigation=2)
    assert _score(s, "impact_of_industry") == 8
    assert impact.resource_production(c) == 8 + 2 * 3 + 1


def test_c_12_impact_of_population() -> None:
    s = _bare()
    c = s.civs[0]
    c.yellow = 18
    c.pool = 4
    _place(c, agriculture=3, bronze=3)  # 10 workers: nothing beyond 10
    assert _score(s, "impact_of_population") == 0
    _place(c, warriors=4)  # 14 workers, units and unused ones included
    assert _score(s, "impact_of_population") == 2 * 4
    c.yellow = 11  # 2 faces required, 0 happy: 2 discontent (TTA-AMB-31)
    assert board.discontent(c) == 2
    assert _score(s, "impact_of_population") == 2 * 2


def test_c_12_impact_of_progress() -> None:
    s = _bare()
    c = s.civs[0]
    assert _score(s, "impact_of_progress") == 0  # Despotism, level 0
    develop(c, "democracy", "code_of_laws", "navigation")
    assert _score(s, "impact_of_progress") == 2 * (3 + 1 + 2)
    develop(c, "civil_service")  # replaces Code of Laws
    assert _score(s, "impact_of_progress") == 2 * (3 + 3 + 2)


def _science_rates(s: TTAState, rates: list[int]) -> None:
    for c, r in zip(s.civs, rates, strict=True):
        workers(c, philosophy=r)  # 1 science per worker, nothing else gives science
        assert board.ratings(c)[1] == r


def test_t_19_impact_of_science_at_final_scoring_4_players() -> None:
    s = _bare(4)
    s.first, s.current = 0, 2  # P1 first player; P3 would win the tie if current counted
    _science_rates(s, [8, 10, 8, 5])
    assert impact.impact_culture(s, card("impact_of_science"), first_as_current=True) == [
        10,
        15,
        5,
        0,
    ]


def test_t_19_impact_of_science_at_final_scoring_3_players() -> None:
    s = _bare(3)
    s.first, s.current = 0, 1
    _science_rates(s, [8, 10, 8])
    assert impact.impact_culture(s, card("impact_of_science"), first_as_current=True) == [
        7,
        14,
        0,
    ]


def test_tta_12_6_impact_of_science_revealed_ties_favour_current_then_clockwise() -> None:
    s = _bare(4)
    s.first, s.current = 0, 2
    _science_rates(s, [8, 10, 8, 5])
    assert impact.impact_culture(s, card("impact_of_science")) == [5, 15, 10, 0]
    _science_rates(s, [3, 3, 3, 3])  # all tied: current, then clockwise
    assert impact.impact_culture(s, card("impact_of_science")) == [5, 0, 15, 10]


def test_c_12_impact_of_science_2_players() -> None:
    s = _bare(2)
    s.first, s.current = 1, 1
    _science_rates(s, [4, 4])
    assert impact.impact_culture(s, card("impact_of_science")) == [0, 10]
    assert impact.impact_culture(s, card("impact_of_science"), first_as_current=True) == [0, 10]
    s.first = 0
    assert impact.impact_culture(s, card("impact_of_science"), first_as_current=True) == [10, 0]


def test_c_12_impact_of_strength() -> None:
    s = _bare(3)
    s.current = 1
    workers(s.civs[0], warriors=2)
    _place(s.civs[1], swordsmen=1)  # 2, tied with seat 0; seat 1 is current
    _place(s.civs[2], cannon=1)  # 3
    assert [board.ratings(c)[2] for c in s.civs] == [2, 2, 3]
    assert impact.impact_culture(s, card("impact_of_strength")) == [0, 7, 14]


def test_tta_6_8_resigned_players_score_nothing_and_shrink_the_ranking() -> None:
    s = _bare(3)
    _science_rates(s, [8, 10, 8])
    s.civs[1].flags |= F_RESIGNED
    assert impact.impact_culture(s, card("impact_of_science")) == [10, 0, 0]  # 2-player table
    assert impact.impact_culture(s, card("impact_of_government"))[1] == 0


def test_c_12_impact_of_technology() -> None:
    s = _bare()
    c = s.civs[0]
    develop(c, "iron", "coal", "navigation", "republic")  # earlier ages: nothing
    assert _score(s, "impact_of_technology") == 0
    develop(c, "oil", "computers", "engineering", "democracy")  # the government counts
    assert _score(s, "impact_of_technology") == 4 * 4
    s.options = {**s.options, "mode": "shorter"}  # TTA-15.1: Age II technologies instead
    assert _score(s, "impact_of_technology") == 4 * 2  # coal, navigation (Republic replaced)


def test_c_12_impact_of_variety() -> None:
    s = _bare()
    c = s.civs[0]
    assert _score(s, "impact_of_variety") == 0
    _place(c, warriors=2, swordsmen=1, knights=1)  # 2 unit types
    _place(c, philosophy=1, alchemy=1, religion=1, drama=1)  # 3 urban types
    _place(c, agriculture=2, bronze=2)  # farms and mines are not urban buildings
    develop(c, "code_of_laws", "navigation")  # 2 special technologies
    assert _score(s, "impact_of_variety") == 2 * (2 + 3 + 2)


def test_c_12_impact_of_wonders() -> None:
    s = _bare()
    c = s.civs[0]
    c.wonders = [card(w) for w in ("pyramids", "great_wall", "kremlin", "internet")]
    c.wip = card("first_space_flight")  # unfinished: no
    assert _score(s, "impact_of_wonders") == 5 + 4 + 3 + 2
    c.ruins = [card("colossus")]  # flipped by Ravages of Time: still completed (TTA-AMB-35)
    assert _score(s, "impact_of_wonders") == 14 + 5


# --- final scoring (TTA-13.2) -------------------------------------------------------------------


def test_tta_13_2_final_scoring_evaluates_both_decks_and_ignores_earlier_events() -> None:
    s = _bare(3)
    s.first, s.current = 0, 2
    _science_rates(s, [8, 8, 8])  # tie: first player wins
    s.civs[2].colonies = [card("vast_territory_i")]
    for c, culture in zip(s.civs, (30, 20, 10), strict=True):
        c.culture = culture
    s.events = [card("impact_of_science"), card("ravages_of_time"), card("rebellion")]
    s.future = [card("impact_of_colonies"), card("crusades")]
    s.past = [card("impact_of_government")]  # already out of the game
    gov = impact.impact_culture(s, card("impact_of_government"))
    assert gov[0] > 0
    got = impact.final_scoring(s)
    expected = [14 + 0, 7 + 0, 0 + 3]
    assert got == expected
    assert [c.culture for c in s.civs] == [30 + 14, 20 + 7, 10 + 3]


def test_tta_13_2_final_scoring_matches_the_sum_of_the_events() -> None:
    s = _bare(4)
    s.first, s.current = 1, 3
    for i, c in enumerate(s.civs):
        _place(c, irrigation=i, drama=i + 1, swordsmen=2 - i % 2, bronze=i)
        c.culture = 50
    events = [card("impact_of_agriculture"), card("impact_of_architecture")]
    future = [card("impact_of_strength"), card("impact_of_balance"), card("impact_of_variety")]
    s.events, s.future = events[:], future[:]
    want = [0] * 4
    for e in events + future:
        for seat, v in enumerate(impact.impact_culture(s, e, first_as_current=True)):
            want[seat] += v
    assert impact.final_scoring(s) == want
    assert [c.culture for c in s.civs] == [50 + w for w in want]


def test_tta_13_2_bill_gates_scores_his_labs_at_game_end() -> None:
    s = _bare(2)
    c = s.civs[1]
    c.leader = card("bill_gates")
    _place(c, alchemy=2, computers=1, philosophy=3)  # levels 1+1+3, Age A labs 0
    s.events, s.future = [], []
    assert impact.game_end_culture(s, 1) == 5
    assert impact.game_end_culture(s, 0) == 0
    assert impact.final_scoring(s) == [0, 5]
    assert c.culture == 5


def test_tta_13_2_final_scoring_happiness_floor_then_later_events() -> None:
    s = _bare(2)
    c = s.civs[0]
    _place(c, religion=1)
    c.yellow = 1  # Impact of Happiness: -10
    c.culture = 3
    s.events = [card("impact_of_happiness")]
    s.future = [card("impact_of_government")]  # +10 (Despotism)
    got = impact.final_scoring(s)
    assert c.culture == 10  # floored at 0 first (TTA-AMB-30), then +10
    assert got[0] == 7
