"""Rule scenarios of events and territories (TTA-6.2, TTA-11, TTA-12, cards file C-9)."""

from __future__ import annotations

from civtable.games.through_the_ages.catalog import CARDS, EVENT_CULTURE, YELLOW
from civtable.games.through_the_ages.rules import board, politics
from civtable.games.through_the_ages.state import P_NONE, P_OPTION, PH_ACTION, PH_POLITICS, TTAState

from .scenario import act, action_phase, card, develop, workers

FILLER = "developed_territory_i"  # an Age I card to prepare (it goes to the future deck)


def position(players: int = 3, seed: int = 0) -> TTAState:
    """A full game, round 2, Age II, seat 0 in its Politics Phase; strengths 5 / 3 / 1 (/ 1)."""
    s = action_phase(players, seed, mode="full")
    s.phase = PH_POLITICS
    s.age = 2
    for seat, c in enumerate(s.civs):
        c.mhand = []
        if seat < 2:
            develop(c, "swordsmen")
            workers(c, swordsmen=2 - seat)
    s._legal = None
    return s


def answer(s: TTAState, pick: int = 0) -> list[int]:
    """Answer every open decision with its ``pick``-th legal action (or the last);
    return the seats that decided, in order."""
    seats = []
    while not s.over and (s.actor >= 0 or s.pending[0] != P_NONE):
        who = s.to_move()[0]
        legal = s.legal_actions(who)
        seats.append(who)
        s.apply(who, legal[min(pick, len(legal) - 1)])
    return seats


def reveal(s: TTAState, cid: str, pick: int = 0) -> list[int]:
    """Seat 0 prepares a filler card; ``cid`` is the top current event and is revealed."""
    s.events.append(card(cid))
    s.civs[0].mhand.append(card(FILLER))
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(0, act.PREPARE + card(FILLER))
    return answer(s, pick)


def test_tta_6_2_prepare_scores_culture_by_level_and_feeds_the_future_deck() -> None:
    s = position()
    ev = card("development_of_markets")
    s.events = [card("barbarians"), ev]
    s.future = []
    s.future_by = []
    culture = s.civs[0].culture
    s.civs[0].mhand = [card("raiders")]
    s.apply(0, act.PREPARE + card("raiders"))
    assert s.civs[0].culture == culture + EVENT_CULTURE[CARDS[card("raiders")].age]
    assert s.future == [card("raiders")]
    assert s.future_by == [0]
    assert s.events == [card("barbarians")]
    assert ev in s.past


def test_tta_12_2_refill_lower_ages_on_top() -> None:
    s = position()
    s.events = [card("development_of_markets")]
    s.future = [card("civil_unrest"), card("barbarians"), card("emigration")]
    s.future_by = [1, 1, 1]
    s.civs[0].mhand = [card("raiders")]
    s.apply(0, act.PREPARE + card("raiders"))
    answer(s)
    assert s.future == []
    assert sorted(s.events) == sorted(
        [card("civil_unrest"), card("barbarians"), card("emigration"), card("raiders")]
    )
    ages = [CARDS[c].age for c in s.events]
    assert ages == sorted(ages, reverse=True)  # the top (end) holds the lowest age


def test_c_9_development_of_markets_each_chooses_food_or_resources() -> None:
    s = position()
    before = [(board.stock(c, False), board.stock(c, True)) for c in s.civs]
    seats = reveal(s, "development_of_markets")
    assert sorted(seats) == [0, 1, 2]
    for c, (f, r) in zip(s.civs, before, strict=True):
        assert board.stock(c, False) + board.stock(c, True) == f + r + 2


def test_c_9_barbarians_most_culture_loses_a_worker_if_among_the_two_weakest() -> None:
    s = position()
    s.civs[0].culture, s.civs[1].culture, s.civs[2].culture = 10, 50, 5
    pops = [c.yellow for c in s.civs]
    total = [sum(c.workers) + c.pool for c in s.civs]
    reveal(s, "barbarians")
    after = [sum(c.workers) + c.pool for c in s.civs]
    assert after == [total[0], total[1] - 1, total[2]]
    assert s.civs[1].yellow == pops[1] + 1
    # the most culture in the strongest civilization: nothing happens
    s.civs[0].culture = 99
    reveal(s, "barbarians")
    assert [sum(c.workers) + c.pool for c in s.civs] == after


def test_c_9_border_conflict_and_uncertain_borders() -> None:
    s = position()
    r0 = board.stock(s.civs[0], True)
    total2 = sum(s.civs[2].workers)
    reveal(s, "border_conflict")
    assert board.stock(s.civs[0], True) == r0 + 3
    assert sum(s.civs[2].workers) == total2 - 1  # the weakest loses a building
    y = [c.yellow for c in s.civs]
    reveal(s, "uncertain_borders")
    assert s.civs[0].yellow == y[0] + 1
    assert s.civs[2].yellow == y[2] - 1


def test_c_9_foray_and_raiders() -> None:
    s = position()
    st = [board.stock(c, False) + board.stock(c, True) for c in s.civs]
    reveal(s, "foray")
    now = [board.stock(c, False) + board.stock(c, True) for c in s.civs]
    assert now == [st[0] + 3, st[1] + 3, st[2]]
    for c in s.civs:
        board.gain(c, True, 1)
    st = [board.stock(c, False) + board.stock(c, True) for c in s.civs]
    reveal(s, "raiders")
    now = [board.stock(c, False) + board.stock(c, True) for c in s.civs]
    assert now[0] == st[0]
    assert now[1] == max(0, st[1] - 2)
    assert now[2] == max(0, st[2] - 2)


def test_c_9_rebellion_civil_unrest_emigration() -> None:
    s = position()
    c = s.civs[1]
    c.yellow = 4  # a big population with no happiness: discontent workers
    c.pool = 6
    d = board.discontent(c)
    assert d > 0
    c.ca = 9
    reveal(s, "rebellion")
    assert c.ca == max(0, 9 - 2 * d)
    c.culture = 30
    blue = c.blue
    reveal(s, "civil_unrest")
    assert c.culture == max(0, 30 - 4 * d)
    assert c.blue == blue - 1
    workers_before = sum(c.workers) + c.pool
    reveal(s, "emigration")
    assert sum(c.workers) + c.pool == workers_before - (d + 1) // 2


def test_c_9_iconoclasm_removes_leaders_of_earlier_ages() -> None:
    s = position()
    s.civs[1].leader = card("julius_caesar")  # Age A
    board.enter_play(s.civs[1], s.civs[1].leader)
    reveal(s, "iconoclasm")
    assert s.civs[1].leader == -1


def test_c_9_ravages_of_time_flips_an_old_wonder_tta_amb_35() -> None:
    s = position()
    c = s.civs[2]
    c.wonders = [card("pyramids")]
    board.enter_play(c, c.wonders[0])
    reveal(s, "ravages_of_time")
    assert c.wonders == []
    assert c.ruins == [card("pyramids")]


def test_c_9_politics_of_strength_both_branches() -> None:
    s = position()
    n0 = len(s.civs[0].mhand)
    s.civs[2].mhand = [card("spy")] * 4
    culture = s.civs[0].culture
    reveal(s, "politics_of_strength")
    gained = len(s.civs[0].mhand) - n0
    assert gained == 5
    assert len(s.civs[2].mhand) == 1
    assert s.civs[0].culture == culture + EVENT_CULTURE[1]  # no culture before the last age


def test_c_9_terrorism_least_culture_chooses_a_building_of_the_others() -> None:
    s = position()
    s.civs[2].culture = 0
    s.civs[0].culture = s.civs[1].culture = 9
    urban = [sum(c.workers[8:]) for c in s.civs]
    seats = reveal(s, "terrorism")
    assert set(seats) == {2}
    after = [sum(c.workers[8:]) for c in s.civs]
    assert after[2] == urban[2]
    assert after[0] == urban[0] - 1
    assert after[1] == urban[1] - 1


def test_c_9_independence_declaration_weakest_loses_a_colony() -> None:
    s = position()
    col = card("vast_territory_i")
    s.civs[2].colonies = [col]
    reveal(s, "independence_declaration")
    assert s.civs[2].colonies == []
    assert col in s.past


def test_tta_11_2_auction_from_the_revealer_clockwise_no_units_cannot_bid() -> None:
    s = position(4)
    s.current = 1  # seat 1 reveals the territory
    workers(s.civs[3], warriors=0)  # no units: cannot bid
    develop(s.civs[2], "swordsmen")
    workers(s.civs[2], swordsmen=1)
    terr = card("wealthy_territory_i")
    s.events.append(terr)
    s.civs[1].mhand = [card(FILLER)]
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(1, act.PREPARE + card(FILLER))
    assert s.to_move() == (1,)
    s.apply(1, act.OPTION + 1)
    assert s.to_move() == (2,)
    assert min(s.legal_actions(2)) == act.OPTION  # pass
    assert act.OPTION + 1 not in s.legal_actions(2)  # a bid must be higher
    s.apply(2, act.OPTION)
    assert s.to_move() == (0,)  # seat 3 is skipped
    s.apply(0, act.OPTION + 2)
    assert s.to_move() == (1,)
    s.apply(1, act.OPTION)
    assert s.to_move() == (0,)  # the winner sends his force
    assert act.DONE not in s.legal_actions(0)
    s.apply(0, act.SEND + CARDS[card("swordsmen")].slot)
    s.apply(0, act.DONE)
    answer(s)
    assert s.civs[0].colonies == [terr]
    assert terr not in s.past


def test_tta_12_6_ties_broken_from_the_current_player() -> None:
    s = position(4)
    s.current = 2
    assert politics.ranked(s, [3, 3, 3, 3])[:2] == [2, 3]
    assert politics.order_from(s, 2) == [2, 3, 0, 1]
    assert P_OPTION != P_NONE


def test_t_15_colonization_seed_example_bid_4_cartography_warriors_and_bonus() -> None:
    s = position(3)
    c = s.civs[0]
    develop(c, "cartography")
    workers(c, swordsmen=0, warriors=1)
    bonus = card("military_bonus_i")
    c.mhand = [bonus]
    for other in s.civs[1:]:
        workers(other, swordsmen=0, warriors=0)  # no units: cannot bid (TTA-11.2)
    terr = card("vast_territory_i")
    s.events.append(terr)
    s.civs[0].mhand.append(card(FILLER))
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(0, act.PREPARE + card(FILLER))
    assert s.to_move() == (0,)  # the revealer bids first
    assert max(s.legal_actions(0)) == act.OPTION + 1 + 2 + 1  # Warriors + Cartography + bonus
    s.apply(0, act.OPTION + 4)
    assert s.to_move() == (0,)
    assert act.DONE not in s.legal_actions(0)
    yellow, strength = c.yellow, politics.strength(c)
    s.apply(0, act.SEND + CARDS[card("warriors")].slot)
    assert act.DONE not in s.legal_actions(0)  # 1 + 2 = 3 < 4
    s.apply(0, act.PLAY + bonus)
    s.apply(0, act.DONE)
    answer(s)
    assert c.colonies == [terr]
    # the Warriors cube goes to the yellow bank (TTA-11.5); the permanent +3 yellow (TTA-11.6)
    assert c.yellow == yellow + 1 + CARDS[terr].in_play[YELLOW]
    assert bonus in s.mil_discards[1]
    assert politics.strength(c) == strength - 1
    assert board.stock(c, False) >= 3  # the immediate effect: 3 food (TTA-11.6)


def test_t_15_max_bid_example_is_8() -> None:
    from civtable.games.through_the_ages.rules import events

    s = position(3)
    c = s.civs[0]
    develop(c, "cartography")
    workers(c, swordsmen=1, warriors=2)
    c.mhand = [card("military_bonus_i"), card("military_bonus_i")]
    assert events.max_bid(c) == 8
    workers(c, swordsmen=0, warriors=0)
    assert events.max_bid(c) == 0


def test_tta_12_6_weakest_tie_goes_to_the_later_player() -> None:
    s = position(3)
    workers(s.civs[0], swordsmen=0)
    workers(s.civs[1], swordsmen=0)  # all strength 1
    y = [c.yellow for c in s.civs]
    reveal(s, "uncertain_borders")  # current player 0: strongest 0, weakest 2
    assert [c.yellow for c in s.civs] == [y[0] + 1, y[1], y[2] - 1]


def test_c_9_international_agreement_takes_cards_for_the_next_political_action() -> None:
    s = position(3)
    workers(s.civs[1], swordsmen=4)  # seat 1 is the strongest
    s.events.append(card("international_agreement"))
    s.civs[0].mhand.append(card(FILLER))
    s.apply(0, act.PREPARE + card(FILLER))
    assert s.to_move() == (1,)
    legal = s.legal_actions(1)
    assert act.DONE in legal
    takes = [a - act.TAKE for a in legal if act.TAKE <= a < act.TAKE + 13]
    assert takes
    from civtable.games.through_the_ages.rules import civil

    assert all(civil.take_cost(s, s.civs[1], slot) <= 5 for slot in takes)
    hand = len(s.civs[1].hand)
    ca = s.civs[1].ca
    s.apply(1, act.TAKE + takes[0])
    s.apply(1, act.DONE)
    assert len(s.civs[1].hand) == hand + 1
    assert s.civs[1].ca == ca
    s.apply(0, act.END)
    answer(s)
    assert s.current == 1
    assert s.phase == PH_ACTION
    assert not any(act.PREPARE <= a < act.ALEXANDER for a in s.legal_actions(1))
    assert act.DONE not in s.legal_actions(1)


def test_c_9_politics_of_strength_in_the_game_ending_age() -> None:
    from civtable.games.through_the_ages.rules import row

    s = position()
    s.age = row.game_end_age(s)
    s.civs[2].culture = 2
    c0 = s.civs[0].culture
    hand = len(s.civs[0].mhand)
    reveal(s, "politics_of_strength")
    assert s.civs[0].culture == c0 + EVENT_CULTURE[1] + 5
    assert s.civs[2].culture == 0  # -3, capped
    assert len(s.civs[0].mhand) == hand


def test_c_9_development_of_religion_builds_a_temple_free() -> None:
    s = position()
    for c in s.civs:
        c.pool = 1
    s.civs[2].pool = 0
    rel = CARDS[card("religion")].slot
    before = [c.workers[rel] for c in s.civs]
    res = [board.stock(c, True) for c in s.civs]
    seats = reveal(s, "development_of_religion", pick=10**6)  # accept
    assert 2 not in seats  # no unused worker: nothing to decide
    assert [c.workers[rel] for c in s.civs] == [before[0] + 1, before[1] + 1, before[2]]
    assert [board.stock(c, True) for c in s.civs] == res  # free


def test_c_9_development_of_civilization_is_optional() -> None:
    s = position()
    snapshot = [(c.pool, c.yellow, sum(c.workers), c.science) for c in s.civs]
    seats = reveal(s, "development_of_civilization", pick=10**6)  # the last value: decline
    assert sorted(seats) == [0, 1, 2]
    assert [(c.pool, c.yellow, sum(c.workers), c.science) for c in s.civs] == snapshot
