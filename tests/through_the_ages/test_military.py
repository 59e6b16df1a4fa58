"""Politics, aggressions, wars, pacts, colonization and events of the full game (TTA-6, TTA-11,
TTA-12) and the canonical scenarios T-13, T-14, T-15, T-21, by rule id.

Positions are real full games (``action_phase(..., mode="full")``) put into the Politics Phase
of seat 0 and edited through the engine's structures; every move goes through ``apply``.
"""

from __future__ import annotations

import pytest

from civtable.core.errors import IllegalActionError
from civtable.games.through_the_ages.catalog import CARDS, EVENT_CULTURE
from civtable.games.through_the_ages.rules import board, events, politics
from civtable.games.through_the_ages.state import (
    F_RESIGNED,
    P_BID,
    P_DEFEND,
    P_NONE,
    P_OPTION,
    P_SEND,
    PH_ACTION,
    PH_POLITICS,
    PH_SECOND,
    TTAState,
)

from .scenario import act, action_phase, card, develop, politics_phase, workers


def strength(s: TTAState, seat: int) -> int:
    return board.ratings(s.civs[seat])[2]


def give(s: TTAState, seat: int, *ids: str) -> None:
    s.civs[seat].mhand.extend(card(i) for i in ids)
    s._legal = None


def stock(s: TTAState, seat: int) -> tuple[int, int]:
    civ = s.civs[seat]
    return board.stock(civ, False), board.stock(civ, True)


# --- TTA-6.1 / 6.2: the Politics Phase and preparing events -----------------------------------


def test_tta_6_1_political_actions_only_before_the_first_action_phase_action() -> None:
    s = politics_phase()
    event = next(c.idx for c in CARDS if c.type == "event" and c.age == 1)
    s.civs[0].mhand = [event]
    s._legal = None
    assert act.PREPARE + event in s.legal_actions(0)
    civil = next(a for a in s.legal_actions(0) if act.END < a < act.PREPARE)
    s.apply(0, civil)  # an Action-Phase action ends the Politics Phase
    assert s.phase == PH_ACTION
    assert act.PREPARE + event not in s.legal_actions(0)


def test_tta_6_2_prepare_scores_its_level_and_reveals_the_top_current_event() -> None:
    s = politics_phase()
    event = next(c.idx for c in CARDS if c.type == "event" and c.age == 2)
    s.civs[0].mhand = [event]
    top = s.events[-1]
    before = s.civs[0].culture
    s._legal = None
    s.apply(0, act.PREPARE + event)
    assert s.civs[0].culture >= before + EVENT_CULTURE[2]  # culture by level (II: 2)
    assert event in s.future  # face down on the future deck
    assert top not in s.events  # the top current event was revealed
    assert top in s.past or any(top in c.colonies for c in s.civs) or s.pending[0] == P_BID
    assert s.phase == PH_ACTION  # one political action per turn


def test_tta_12_2_the_last_current_event_brings_the_future_deck_lower_ages_on_top() -> None:
    s = politics_phase()
    age1 = [c.idx for c in CARDS if c.type == "event" and c.age == 1]
    age2 = [c.idx for c in CARDS if c.type == "event" and c.age == 2]
    s.events = [card("development_of_science")]  # the last current event
    s.future = [age2[0], age1[0], age2[1], age1[1]]
    prepared = age1[2]
    s.civs[0].mhand = [prepared]
    s._legal = None
    s.apply(0, act.PREPARE + prepared)
    assert not s.future
    assert sorted(s.events) == sorted([age2[0], age1[0], age2[1], age1[1], prepared])
    # the top of the deck is the end of the list: lower ages on top (TTA-12.2)
    assert [CARDS[c].age for c in s.events] == [2, 2, 1, 1, 1]


def test_tta_6_1_first_game_only_prepares_events() -> None:
    s = action_phase(3, 2, mode="first")
    s.round, s.phase = 3, PH_POLITICS
    territory = next(c.idx for c in CARDS if c.type == "territory" and c.age == 1)
    s.civs[0].mhand = [territory]
    s._legal = None
    legal = s.legal_actions(0)
    assert act.PREPARE + territory in legal
    assert act.RESIGN not in legal  # TTA-AMB-25
    assert not [a for a in legal if act.AGGRESS <= a < act.OPTION]  # only preparing


# --- TTA-6.4 aggressions; T-13 -------------------------------------------------------------------


def _t13(target_ma_total: int, hand: list[str]) -> TTAState:
    s = politics_phase(3)
    a, d = s.civs[0], s.civs[1]
    workers(a, warriors=12)  # strength 12 (one per Warriors unit)
    workers(d, warriors=8)
    assert (strength(s, 0), strength(s, 1)) == (12, 8)
    d.mhand = [card(h) for h in hand]
    a.mhand = [card("raid_ii")]
    a.ma = 2
    s.age = 2
    # the target's MA total: its government's red cubes (Despotism 2) plus Warfare-like cards
    extra = target_ma_total - board.totals(d)[1]
    if extra < 0:
        d.gov = card("despotism")
    assert board.totals(d)[1] >= 1
    s._legal = None
    return s


def test_t_13_aggression_defended_with_a_bonus_card_fails() -> None:
    s = _t13(3, ["military_bonus_ii", "military_bonus_i", "enslave", "plunder_i"])
    raid = card("raid_ii")
    assert act.AGGRESS + raid * 4 + 1 in s.legal_actions(0)  # 12 > 8
    s.apply(0, act.AGGRESS + raid * 4 + 1)
    assert s.pending[0] == P_DEFEND
    assert s.to_move() == (1,)
    assert s.civs[0].ma == 0  # 2 MA spent
    s.apply(1, act.PLAY + card("military_bonus_ii"))  # 8 + 4 = 12 >= 12
    workers_before = list(s.civs[1].workers)
    s.apply(1, act.DONE)
    assert s.civs[1].workers == workers_before  # the raid failed: nothing destroyed
    assert raid in s.mil_discards[2]
    assert s.to_move() == (0,)
    assert s.civs[0].ma == 0  # spent MA are not refunded


def test_t_13_aggression_succeeds_when_the_defence_is_short() -> None:
    s = _t13(2, ["military_bonus_i", "enslave", "plunder_i"])
    target = s.civs[1]
    assert board.totals(target)[1] == 2  # Despotism: MA total 2
    temple = CARDS[card("religion")].slot
    target.workers[temple] = 1  # an Age A temple to raid
    s.apply(0, act.AGGRESS + card("raid_ii") * 4 + 1)
    assert act.PLAY + card("military_bonus_i") in s.legal_actions(1)
    s.apply(1, act.PLAY + card("military_bonus_i"))  # 8 + 2 = 10
    s.apply(1, act.DISCARD + card("enslave"))  # + 1 = 11 < 12
    # the cards played plus discarded may not exceed the MA total (TTA-6.4 step 3)
    assert s.legal_actions(1) == [act.DONE]
    res = stock(s, 0)[1]
    s.apply(1, act.DONE)
    assert s.pending[0] == P_OPTION  # the aggressor picks the buildings (Raid, D9)
    assert s.to_move() == (0,)
    assert act.OPTION + temple in s.legal_actions(0)
    s.apply(0, act.OPTION + temple)
    while s.pending[0] == P_OPTION:  # Raid II's second building, if any
        s.apply(0, s.legal_actions(0)[0])
    assert target.workers[temple] == 0
    assert stock(s, 0)[1] > res  # half the printed costs, rounded up (TTA-AMB-11)


def test_t_13_no_aggression_against_an_equal_strength() -> None:
    s = _t13(3, [])
    workers(s.civs[1], warriors=12)
    s._legal = None
    assert act.AGGRESS + card("raid_ii") * 4 + 1 not in s.legal_actions(0)  # 12 vs 12
    assert act.AGGRESS + card("raid_ii") * 4 + 2 in s.legal_actions(0)  # 12 vs 1


def test_tta_6_4_gandhi_cannot_attack_and_doubles_the_cost_against_him() -> None:
    s = _t13(3, [])
    s.civs[1].leader = card("mahatma_gandhi")
    s.civs[0].ma = 3
    s._legal = None
    assert act.AGGRESS + card("raid_ii") * 4 + 1 not in s.legal_actions(0)  # 2 x 2 > 3 MA
    s.civs[0].ma = 4
    s._legal = None
    assert act.AGGRESS + card("raid_ii") * 4 + 1 in s.legal_actions(0)
    s.civs[0].leader = card("mahatma_gandhi")
    s._legal = None
    assert not [a for a in s.legal_actions(0) if act.AGGRESS <= a < act.PACT]


def test_tta_6_4_plunder_takes_the_aggressors_mix() -> None:
    s = _t13(3, [])
    s.civs[0].mhand = [card("plunder_ii")]
    board.gain(s.civs[1], False, 3)
    board.gain(s.civs[1], True, 4)
    food0, res0 = stock(s, 0)
    food1, res1 = stock(s, 1)
    s._legal = None
    s.apply(0, act.AGGRESS + card("plunder_ii") * 4 + 1)
    s.apply(1, act.DONE)
    assert s.to_move() == (0,)
    s.apply(0, act.OPTION + 2)  # 2 food and 3 resources (up to 5)
    assert stock(s, 1) == (food1 - 2, res1 - 3)
    assert stock(s, 0) == (food0 + 2, res0 + 3)


def test_tta_6_4_spy_takes_up_to_five_science() -> None:
    s = _t13(3, [])
    s.civs[0].mhand = [card("spy")]
    s.civs[1].science = 3
    before = s.civs[0].science
    s._legal = None
    s.apply(0, act.AGGRESS + card("spy") * 4 + 1)
    s.apply(1, act.DONE)
    assert (s.civs[1].science, s.civs[0].science) == (0, before + 3)


def test_tta_6_4_annex_needs_a_colony_and_moves_it() -> None:
    s = _t13(3, [])
    s.civs[0].mhand = [card("annex")]
    s._legal = None
    assert act.AGGRESS + card("annex") * 4 + 1 not in s.legal_actions(0)
    vast = card("vast_territory_i")
    events.gain_colony(s, 1, vast)
    yellow1 = s.civs[1].yellow
    s._legal = None
    s.apply(0, act.AGGRESS + card("annex") * 4 + 1)
    s.apply(1, act.DONE)
    s.apply(0, act.OPTION + 0)
    assert vast in s.civs[0].colonies
    assert vast not in s.civs[1].colonies
    assert s.civs[1].yellow == yellow1 - CARDS[vast].in_play[10]  # its permanent cubes left


def test_tta_6_4_infiltrate_removes_the_leader_for_three_culture_per_level() -> None:
    s = _t13(3, [])
    s.civs[0].mhand = [card("infiltrate")]
    s.civs[1].leader = card("christopher_columbus")  # Age I
    before = s.civs[0].culture
    s._legal = None
    s.apply(0, act.AGGRESS + card("infiltrate") * 4 + 1)
    s.apply(1, act.DONE)
    s.apply(0, act.OPTION + 0)
    assert s.civs[1].leader == -1
    assert s.civs[0].culture == before + 3


# --- TTA-6.5 wars; T-14, T-21 -------------------------------------------------------------------


def _war(card_id: str, a_strength: int, d_strength: int) -> TTAState:
    s = politics_phase(3)
    workers(s.civs[0], warriors=a_strength)
    workers(s.civs[1], warriors=d_strength)
    s.civs[0].mhand = [card(card_id)]
    s.civs[0].ma = 3
    s.age = 3
    s._legal = None
    s.apply(0, act.WAR + card(card_id) * 4 + 1)
    assert s.wars == [card(card_id), 0, 1]
    return s


def test_t_14_war_over_culture_won_by_the_defender() -> None:
    s = _war("war_over_culture", 20, 27)
    s.civs[0].culture, s.civs[1].culture = 30, 10
    politics.resolve_wars(s, 0)  # the start of A's next turn (TTA-5.2 step 3)
    assert (s.civs[0].culture, s.civs[1].culture) == (18, 22)  # 5 + 7 moves
    assert not s.wars
    assert card("war_over_culture") in s.mil_discards[3]


def test_t_14_war_loser_pays_only_what_it_has_and_equal_strength_does_nothing() -> None:
    s = _war("war_over_culture", 20, 27)
    s.civs[0].culture, s.civs[1].culture = 9, 10
    politics.resolve_wars(s, 0)
    assert (s.civs[0].culture, s.civs[1].culture) == (0, 19)
    s = _war("war_over_culture", 25, 25)
    s.civs[0].culture, s.civs[1].culture = 9, 10
    politics.resolve_wars(s, 0)
    assert (s.civs[0].culture, s.civs[1].culture) == (9, 10)
    assert not s.wars


@pytest.mark.parametrize(("advantage", "cubes"), [(4, 1), (5, 2), (11, 3)])
def test_t_21_war_over_territory(advantage: int, cubes: int) -> None:
    s = _war("war_over_territory", 5 + advantage, 5)
    y0, y1 = s.civs[0].yellow, s.civs[1].yellow
    politics.resolve_wars(s, 0)
    assert s.civs[0].yellow == y0 + min(cubes, y1)
    assert s.civs[1].yellow == y1 - min(cubes, y1)


def test_tta_6_5_war_resolves_at_the_declarers_next_turn() -> None:
    s = _war("war_over_culture", 20, 10)
    s.civs[1].culture = 30
    s.apply(0, act.END)  # seat 0's turn ends; seats 1 and 2 play
    while s.current != 0:
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        s.apply(seat, act.END if act.END in legal else legal[0])
    assert not s.wars  # resolved at the start of seat 0's turn
    assert s.civs[0].culture >= 15  # 5 + advantage 10


def test_tta_6_5_no_war_in_the_last_round() -> None:
    s = politics_phase(3)
    s.civs[0].mhand = [card("war_over_culture")]
    s.civs[0].ma = 3
    s.last_round = s.round
    s._legal = None
    assert not [a for a in s.legal_actions(0) if act.WAR <= a < act.PACT]


def test_tta_6_5_war_over_technology_steals_a_higher_special() -> None:
    s = _war("war_over_technology", 20, 5)
    develop(s.civs[1], "cartography")  # +1 strength: advantage 20 - 6 = 14
    s.civs[1].science = 10
    politics.resolve_wars(s, 0)
    politics.advance(s)
    assert s.pending[0] == P_OPTION
    assert s.to_move() == (0,)  # the winner chooses
    mask = 1 << CARDS[card("cartography")].special
    s.apply(0, act.OPTION + mask)
    assert s.civs[0].special[CARDS[card("cartography")].special] == card("cartography")
    assert s.civs[1].special[CARDS[card("cartography")].special] == -1
    # the rest of the advantage in science, capped by the loser's points: min(14 - 4, 10)
    assert s.civs[1].science == 0


# --- TTA-6.6 / 6.7 pacts -------------------------------------------------------------------------


def test_tta_6_6_pact_accepted_takes_effect_and_one_per_play_area() -> None:
    s = politics_phase(3)
    give(s, 0, "open_borders_agreement")
    ma = [board.totals(c)[1] for c in s.civs]
    s.apply(0, act.PACT + card("open_borders_agreement") * 8 + 1 * 2)
    assert s.to_move() == (1,)
    s.apply(1, act.OPTION + 1)  # accepted
    assert [board.totals(c)[1] for c in s.civs] == [ma[0] + 1, ma[1] + 1, ma[2]]
    assert s.pacts == [card("open_borders_agreement"), 0, 0, 1]
    assert s.to_move() == (0,)


def test_tta_6_6_pact_refused_goes_back_to_the_hand() -> None:
    s = politics_phase(3)
    give(s, 0, "peace_treaty")
    s.apply(0, act.PACT + card("peace_treaty") * 8 + 2 * 2)
    s.apply(2, act.OPTION)  # refused
    assert card("peace_treaty") in s.civs[0].mhand
    assert not s.pacts
    assert s.phase == PH_ACTION  # the political action is used


def test_tta_6_6_no_pacts_at_two_players_and_peace_forbids_attacks() -> None:
    s = politics_phase(2)
    give(s, 0, "peace_treaty")
    assert not [a for a in s.legal_actions(0) if act.PACT <= a < act.CANCEL]
    s = _t13(3, [])
    s.civs[0].mhand.append(card("peace_treaty"))
    s._legal = None
    s.apply(0, act.PACT + card("peace_treaty") * 8 + 1 * 2)
    s.apply(1, act.OPTION + 1)
    s.phase = PH_POLITICS
    s.civs[0].ma = 2
    s._legal = None
    assert act.AGGRESS + card("raid_ii") * 4 + 1 not in s.legal_actions(0)  # forbidden
    assert act.CANCEL + card("peace_treaty") in s.legal_actions(0)  # TTA-6.7
    s.apply(0, act.CANCEL + card("peace_treaty"))
    assert not s.pacts


def test_tta_6_6_promise_of_protection_ends_on_attack_before_the_strengths_compare() -> None:
    s = _t13(3, [])
    workers(s.civs[1], warriors=10)  # 10 + 4 (side B) = 14 > 12 while the pact holds
    s.civs[0].mhand.append(card("promise_of_military_protection"))
    s._legal = None
    s.apply(0, act.PACT + card("promise_of_military_protection") * 8 + 1 * 2)  # offerer side A
    s.apply(1, act.OPTION + 1)
    assert strength(s, 1) == 14
    s.phase = PH_POLITICS
    s.civs[0].ma = 2
    s._legal = None
    assert act.AGGRESS + card("raid_ii") * 4 + 1 in s.legal_actions(0)  # 12 > 10 without it
    s.apply(0, act.AGGRESS + card("raid_ii") * 4 + 1)
    assert not s.pacts  # removed before the attack resolves


# --- TTA-6.8 resignation, Julius Caesar -------------------------------------------------------


def test_tta_6_8_resign_cancels_wars_with_culture_and_the_last_player_wins() -> None:
    s = politics_phase(2)
    s.wars = [card("war_over_culture"), 0, 1]
    s.current = 1
    s.phase = PH_POLITICS
    s._legal = None
    before = s.civs[0].culture
    s.apply(1, act.RESIGN)
    assert s.civs[1].flags & F_RESIGNED
    assert s.civs[0].culture == before + 7
    assert s.is_terminal()
    assert s.result().winners == (0,)


def test_tta_6_8_no_resignation_in_age_iv_and_resigned_seats_are_skipped() -> None:
    s = politics_phase(3)
    s.age = 4
    s._legal = None
    assert act.RESIGN not in s.legal_actions(0)
    s = politics_phase(3)
    s.apply(0, act.RESIGN)
    assert s.current == 1  # the resigning player's turn ends
    s.apply(1, act.END)
    while s.to_move() != (2,):
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    s.apply(2, act.END)
    while s.pending[0] != P_NONE:
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    assert s.current == 1  # seat 0 is out


def test_julius_caesar_gives_a_second_political_action_once_per_game() -> None:
    s = politics_phase(3)
    s.civs[0].leader = card("julius_caesar")
    evs = [c.idx for c in CARDS if c.type == "event" and c.age == 1][:3]
    s.civs[0].mhand = list(evs)
    s._legal = None
    s.apply(0, act.PREPARE + evs[0])
    politics.advance(s)
    while s.to_move() != (0,) or s.pending[0] != P_NONE:
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    assert s.phase == PH_SECOND
    assert act.PREPARE + evs[1] in s.legal_actions(0)
    s.apply(0, act.PREPARE + evs[1])
    assert s.phase == PH_ACTION
    s.phase = PH_POLITICS  # next turn
    s._legal = None
    while s.to_move() != (0,) or s.pending[0] != P_NONE:
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    s.apply(0, act.PREPARE + evs[2])
    assert s.phase == PH_ACTION  # once per game


# --- TTA-11 colonization; T-15 -------------------------------------------------------------------


def test_t_15_max_bid_and_colonization_force() -> None:
    s = politics_phase(3)
    civ = s.civs[0]
    develop(civ, "cartography", "swordsmen")
    workers(civ, warriors=2, swordsmen=1)
    civ.mhand = [card("military_bonus_i"), card("military_bonus_i")]
    # 1 + 1 + 2 (Swordsmen) + 2 (Cartography) + 1 + 1 (two Age I bonus cards) = 8
    assert events.max_bid(civ) == 8


def test_t_15_seed_example_send_a_warriors_and_a_bonus_card() -> None:
    s = politics_phase(3)
    civ = s.civs[0]
    develop(civ, "cartography")
    workers(civ, warriors=1)
    civ.mhand = [card("military_bonus_i")]
    for other in s.civs[1:]:
        workers(other, warriors=0)  # nobody else can bid (no units)
    territory = card("developed_territory_i")
    yellow = civ.yellow
    events.start_auction(s, territory)
    politics.advance(s)
    assert s.pending[0] == P_BID
    assert s.to_move() == (0,)
    s.apply(0, act.OPTION + 4)  # bid 4; the others cannot bid and pass
    assert s.pending[0] == P_SEND
    assert act.DONE not in s.legal_actions(0)
    s.apply(0, act.SEND + CARDS[card("warriors")].slot)  # 1 + Cartography 2 = 3 < 4
    assert act.DONE not in s.legal_actions(0)
    s.apply(0, act.PLAY + card("military_bonus_i"))  # + 1 = 4
    s.apply(0, act.DONE)
    assert territory in civ.colonies
    assert civ.yellow == yellow + 1 + CARDS[territory].in_play[10]  # the Warriors' cube
    assert card("military_bonus_i") in s.mil_discards[1]


def test_tta_11_2_auction_goes_round_until_all_but_one_pass() -> None:
    s = politics_phase(3)
    for seat in range(3):
        workers(s.civs[seat], warriors=3)
    territory = card("historic_territory_i")
    events.start_auction(s, territory)
    politics.advance(s)
    order = []
    s.apply(0, act.OPTION + 1)
    order.append(0)
    s.apply(1, act.OPTION + 2)
    s.apply(2, act.OPTION)  # pass
    assert s.to_move() == (0,)  # around again, skipping the passed seat
    s.apply(0, act.OPTION)  # pass: seat 1 wins with 2
    assert s.pending[0] == P_SEND
    assert s.to_move() == (1,)
    culture = s.civs[1].culture
    s.apply(1, act.SEND + CARDS[card("warriors")].slot)
    s.apply(1, act.SEND + CARDS[card("warriors")].slot)
    s.apply(1, act.DONE)
    assert territory in s.civs[1].colonies
    assert s.civs[1].culture == culture + 6  # the immediate effect (TTA-11.6)
    assert board.ratings(s.civs[1])[3] >= 1  # +1 happy face while owned


def test_tta_11_2_nobody_bids_the_territory_goes_to_the_past() -> None:
    s = politics_phase(3)
    for seat in range(3):
        workers(s.civs[seat], warriors=0)
    territory = card("historic_territory_i")
    events.start_auction(s, territory)
    politics.advance(s)
    assert territory in s.past
    assert s.pending[0] == P_NONE


def test_columbus_colonizes_from_hand_without_units() -> None:
    s = politics_phase(3)
    s.civs[0].leader = card("christopher_columbus")
    give(s, 0, "wealthy_territory_i")
    res = stock(s, 0)[1]
    s.apply(0, act.COLUMBUS + card("wealthy_territory_i"))
    assert card("wealthy_territory_i") in s.civs[0].colonies
    assert s.civs[0].leader == -1
    assert stock(s, 0)[1] == res + 5


# --- TTA-12 events --------------------------------------------------------------------------


def reveal(s: TTAState, cid: str) -> None:
    events.reveal(s, card(cid))
    politics.advance(s)


def test_tta_12_6_crusades_ties_favour_the_current_player() -> None:
    s = politics_phase(3)
    s.current = 1
    culture = [c.culture for c in s.civs]
    reveal(s, "crusades")  # all equal strength: strongest = seat 1, weakest = seat 0
    assert s.civs[1].culture == culture[1] + 4
    assert s.civs[0].culture == max(0, culture[0] - 4)


def test_tta_12_markets_each_player_chooses_in_turn_order() -> None:
    s = politics_phase(3)
    s.current = 2
    reveal(s, "development_of_markets")
    seen = []
    while s.pending[0] == P_OPTION:
        seat = s.to_move()[0]
        seen.append(seat)
        food, res = stock(s, seat)
        s.apply(seat, act.OPTION + 1)  # resources
        assert stock(s, seat) == (food, res + 2)
    assert seen == [2, 0, 1]


def test_tta_12_rebellion_and_civil_unrest_use_discontent() -> None:
    s = politics_phase(3)
    s.civs[0].yellow = 4  # few cubes left: happiness required
    d = board.discontent(s.civs[0])
    assert d > 0
    s.civs[0].ca = 10
    reveal(s, "rebellion")
    assert s.civs[0].ca == max(0, 10 - 2 * d)  # TTA-AMB-22


def test_tta_12_iconoclasm_removes_leaders_of_other_ages() -> None:
    s = politics_phase(3)
    s.age = 2
    s.civs[0].leader = card("julius_caesar")  # Age A
    s.civs[1].leader = card("james_cook")  # Age II
    reveal(s, "iconoclasm")
    assert s.civs[0].leader == -1
    assert s.civs[1].leader == card("james_cook")


def test_tta_amb_35_ravages_of_time_turns_an_old_wonder_face_down() -> None:
    s = politics_phase(3)
    wonder = next(c.idx for c in CARDS if c.type == "wonder" and c.age == 0)
    s.civs[0].wonders = [wonder]
    before = board.ratings(s.civs[0])[0]
    reveal(s, "ravages_of_time")
    assert s.to_move() == (0,)
    s.apply(0, act.OPTION + 0)
    assert s.civs[0].ruins == [wonder]
    assert not s.civs[0].wonders
    # its effects are gone and it produces 2 culture instead
    assert board.ratings(s.civs[0])[0] == before - CARDS[wonder].in_play[2] + 2


def test_tta_1_10_ravages_of_time_lowers_the_civil_action_total_at_once() -> None:
    """Ravages of Time revealed in its owner's Politics Phase turns Pyramids (+1 CA) face down:
    the CA total drops from 5 to 4 and, none being spent, so do the available CAs; had one
    been spent, that spent cube would go first."""
    for spent in (0, 1):
        s = politics_phase(3)
        c = s.civs[0]
        c.wonders = [card("pyramids")]
        c.ca = board.totals(c)[0] - spent
        assert board.totals(c)[0] == 5
        reveal(s, "ravages_of_time")
        s.apply(0, act.OPTION + 0)
        assert c.ruins == [card("pyramids")]
        assert board.totals(c)[0] == 4
        assert c.ca == 4


def test_tta_1_9_newton_gives_back_only_a_spent_civil_action() -> None:
    """Development of Civilization lets seat 1 develop a technology in seat 0's turn without a
    civil action: Isaac Newton has no spent action to give back (no fifth white cube)."""
    s = politics_phase(3)
    c = s.civs[1]
    c.leader = card("isaac_newton")
    c.science = 9
    c.hand = [card("iron")]
    events.reveal(s, card("development_of_civilization"))
    politics.advance(s)
    while s.actor >= 0:
        seat = s.actor
        legal = s.legal_actions(seat)
        if seat == 1 and act.PLAY + card("iron") in legal:
            s.apply(1, act.PLAY + card("iron"))
        else:
            s.apply(seat, act.OPTION + 2 if seat == 1 else max(legal))  # develop / decline
    assert card("iron") in c.developed
    assert c.ca == board.totals(c)[0] == 4


def test_tta_amb_23_international_agreement_takes_and_gives_up_politics() -> None:
    s = politics_phase(3)
    workers(s.civs[2], warriors=5)  # seat 2 strongest
    s.current = 0
    reveal(s, "international_agreement")
    assert s.to_move() == (2,)
    hand = len(s.civs[2].hand)
    take = next(a for a in s.legal_actions(2) if a != act.DONE)
    s.apply(2, take)
    s.apply(2, act.DONE)
    assert len(s.civs[2].hand) + (1 if s.civs[2].wip >= 0 else 0) >= hand + 1
    assert s.civs[2].flags & 4  # F_NO_POLITICS: its next Politics Phase is given up


def test_tta_12_politics_of_strength_both_branches() -> None:
    s = politics_phase(3)
    workers(s.civs[1], warriors=5)
    s.civs[0].mhand = [card("military_bonus_i")] * 2
    cards = len(s.civs[1].mhand)
    reveal(s, "politics_of_strength")
    while s.pending[0] == P_OPTION:
        seat = s.to_move()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    assert len(s.civs[1].mhand) == cards + 5
    assert not s.civs[2].mhand  # weakest (ties: the later player) discards up to 3
    s = politics_phase(3)
    s.age = 4  # the game-ending age: culture instead
    workers(s.civs[1], warriors=5)
    c1 = s.civs[1].culture
    reveal(s, "politics_of_strength")
    assert s.civs[1].culture == c1 + 5


def test_tta_12_terrorism_least_culture_destroys_an_urban_building_of_each_other() -> None:
    s = politics_phase(3)
    s.civs[2].culture = 0
    s.civs[0].culture = s.civs[1].culture = 10
    temple = CARDS[card("religion")].slot
    for seat in (0, 1):
        s.civs[seat].workers[temple] = 1
    reveal(s, "terrorism")
    chosen = []
    while s.pending[0] == P_OPTION:
        chosen.append(s.to_move()[0])
        s.apply(s.to_move()[0], act.OPTION + temple)
    assert chosen == [2, 2]
    assert s.civs[0].workers[temple] == 0
    assert s.civs[1].workers[temple] == 0


def test_tta_12_7_lose_population_from_a_card_when_no_worker_is_idle() -> None:
    s = politics_phase(3)
    civ = s.civs[0]
    civ.pool = 0
    yellow = civ.yellow
    reveal(s, "pestilence")
    assert s.to_move() == (0,)  # seat 0 chooses the card a worker leaves
    slot = s.legal_actions(0)[0] - act.OPTION
    before = civ.workers[slot]
    s.apply(0, act.OPTION + slot)
    assert civ.workers[slot] == before - 1
    assert civ.yellow == yellow + 1


def test_illegal_political_action_is_refused_and_changes_nothing() -> None:
    s = politics_phase(3)
    doc = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(0, act.AGGRESS + card("raid_ii") * 4 + 1)  # not in hand
    with pytest.raises(IllegalActionError):
        s.apply(0, act.OPTION + 3)  # no decision pending
    assert s.to_json() == doc


def test_turn_finish_keeps_queue_empty() -> None:
    s = politics_phase(3)
    s.apply(0, act.END)
    assert not s.queue
    assert s.current == 1
    assert s.phase == PH_POLITICS  # the next player's Politics Phase opens (TTA-5.2)
