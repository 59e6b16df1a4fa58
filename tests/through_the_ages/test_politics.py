"""Rule scenarios of the Politics Phase (TTA-6): aggressions (T-13), wars (T-14, T-21), pacts,
cancellation, resignation and Julius Caesar's second political action."""

from __future__ import annotations

from civtable.games.through_the_ages.catalog import CARDS
from civtable.games.through_the_ages.rules import board, politics
from civtable.games.through_the_ages.state import (
    F_RESIGNED,
    P_NONE,
    PH_ACTION,
    PH_POLITICS,
    TTAState,
)

from . import scenario
from .scenario import act, card, develop, workers


def politics_phase(players: int = 3, seed: int = 0) -> TTAState:
    """A full game, round 2, Age II, seat 0 in its Politics Phase."""
    return scenario.politics_phase(players, seed, round_=2, age=2)


def soldiers(s: TTAState, seat: int, swordsmen: int) -> None:
    """Give ``seat`` some Swordsmen (strength +2 each with Warriors at 1)."""
    c = s.civs[seat]
    if card("swordsmen") not in c.developed:
        develop(c, "swordsmen")
    workers(c, swordsmen=swordsmen)
    s._legal = None


def test_tta_6_4_aggression_needs_strictly_stronger_attacker() -> None:
    s = politics_phase()
    raid = card("raid_i")
    s.civs[0].mhand = [raid]
    s.civs[0].ma = 3
    assert politics.strength(s.civs[0]) == politics.strength(s.civs[1])
    assert act.AGGRESS + raid * 4 + 1 not in s.legal_actions(0)  # equal: illegal
    soldiers(s, 0, 1)
    assert act.AGGRESS + raid * 4 + 1 in s.legal_actions(0)
    s.civs[0].ma = 0
    s._legal = None
    assert act.AGGRESS + raid * 4 + 1 not in s.legal_actions(0)  # MA cost unpaid


def test_t_13_raid_defence_bonus_cards_and_discards_limited_by_ma_total() -> None:
    s = politics_phase()
    raid, bonus, spy = card("raid_ii"), card("military_bonus_i"), card("spy")
    soldiers(s, 0, 3)  # strength 1 + 6 = 7 against 1
    attack, defense = politics.strength(s.civs[0]), politics.strength(s.civs[1])
    s.civs[0].mhand = [raid]
    s.civs[0].ma = 5
    t = s.civs[1]
    t.mhand = [bonus, spy, spy]
    ma_total = board.totals(t)[1]
    assert ma_total == 2
    phil = CARDS[card("philosophy")]
    assert t.workers[phil.slot] == 1
    res0 = board.stock(s.civs[0], True)
    s.apply(0, act.AGGRESS + raid * 4 + 1)
    assert s.civs[0].ma == 5 - CARDS[raid].ma_cost
    assert s.to_move() == (1,)
    legal = s.legal_actions(1)
    assert act.PLAY + bonus in legal
    assert act.DISCARD + spy in legal
    assert act.PLAY + spy not in legal  # only bonus cards are played
    s.apply(1, act.PLAY + bonus)
    s.apply(1, act.DISCARD + spy)
    assert s.legal_actions(1) == [act.DONE]  # 2 cards used = MA total
    assert s.pending[5] == defense + CARDS[bonus].defense + 1 < attack
    s.apply(1, act.DONE)
    settle(s)
    assert raid in s.mil_discards[2]
    assert bonus in s.mil_discards[1]
    assert t.mhand == [spy]
    assert t.workers[phil.slot] == 0  # the lab was destroyed
    # the raider gains half the printed cost, rounded up (TTA-6.4 step 5)
    assert board.stock(s.civs[0], True) == res0 + (phil.build_cost + 1) // 2


def test_t_13_aggression_fails_on_a_tie() -> None:
    s = politics_phase()
    plunder = card("plunder_i")
    soldiers(s, 0, 1)  # 3 vs 1
    s.civs[0].mhand = [plunder]
    s.civs[0].ma = 2
    s.civs[1].mhand = [card("spy"), card("spy")]
    s.civs[1].ma = 2
    develop(s.civs[1], "swordsmen")
    # target MA total >= 2 lets it discard two cards: 1 + 2 = 3 = attack
    stocks = list(s.civs[1].cubes), s.civs[1].blue
    s.apply(0, act.AGGRESS + plunder * 4 + 1)
    assert board.totals(s.civs[1])[1] >= 2
    s.apply(1, act.DISCARD + card("spy"))
    s.apply(1, act.DISCARD + card("spy"))
    assert s.pending[4] == s.pending[5]
    s.apply(1, act.DONE)
    assert (list(s.civs[1].cubes), s.civs[1].blue) == stocks  # nothing plundered
    assert plunder in s.mil_discards[1]


def test_tta_6_4_gandhi_doubles_cost_and_cannot_attack() -> None:
    s = politics_phase()
    raid = card("raid_i")
    soldiers(s, 0, 2)
    s.civs[0].mhand = [raid, card("war_over_territory")]
    s.civs[0].ma = 1
    s.civs[1].leader = card("mahatma_gandhi")
    board.enter_play(s.civs[1], s.civs[1].leader)
    s._legal = None
    legal = s.legal_actions(0)
    assert act.AGGRESS + raid * 4 + 1 not in legal  # costs 2 against Gandhi
    assert act.AGGRESS + raid * 4 + 2 in legal
    s.civs[0].ma = 2
    s._legal = None
    assert act.AGGRESS + raid * 4 + 1 in s.legal_actions(0)
    s.civs[0].leader = card("mahatma_gandhi")
    board.enter_play(s.civs[0], s.civs[0].leader)
    s._legal = None
    legal = s.legal_actions(0)
    assert not any(act.AGGRESS <= a < act.PACT for a in legal)


def test_tta_6_4_annex_and_infiltrate_need_an_object() -> None:
    s = politics_phase()
    annex, infil = card("annex"), card("infiltrate")
    soldiers(s, 0, 2)
    s.civs[0].mhand = [annex, infil]
    s.civs[0].ma = 4
    s.civs[1].leader = -1
    s.civs[1].wip = -1
    s.civs[1].colonies = []
    s._legal = None
    legal = s.legal_actions(0)
    assert act.AGGRESS + annex * 4 + 1 not in legal
    assert act.AGGRESS + infil * 4 + 1 not in legal
    s.civs[1].leader = card("julius_caesar")
    s._legal = None
    assert act.AGGRESS + infil * 4 + 1 in s.legal_actions(0)


def test_tta_6_5_no_war_in_the_last_round() -> None:
    s = politics_phase()
    war = card("war_over_territory")
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s._legal = None
    assert act.WAR + war * 4 + 1 in s.legal_actions(0)  # no strength requirement
    s.last_round = s.round
    s._legal = None
    assert act.WAR + war * 4 + 1 not in s.legal_actions(0)


def settle(s: TTAState) -> None:
    """Answer every open decision (of any seat) with its first legal action."""
    while not s.over and (s.actor >= 0 or s.pending[0] != P_NONE):
        who = s.to_move()[0]
        s.apply(who, s.legal_actions(who)[0])


def _run_to_turn_of(s: TTAState, seat: int) -> None:
    """End turns until ``seat`` is current again."""
    for _ in range(20):
        s.apply(s.to_move()[0], act.END)
        settle(s)
        if s.current == seat:
            return


def test_t_21_war_over_territory_resolves_at_declarers_next_turn() -> None:
    s = politics_phase(2)
    war = card("war_over_territory")
    soldiers(s, 0, 3)  # strength 7 vs 1: advantage 6 -> 1 + 1 = 2 cubes
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s.apply(0, act.WAR + war * 4 + 1)
    assert s.wars == [war, 0, 1]
    y0, y1 = s.civs[0].yellow, s.civs[1].yellow
    _run_to_turn_of(s, 0)
    assert s.wars == []
    assert war in s.mil_discards[2]
    adv = politics.strength(s.civs[0]) - politics.strength(s.civs[1])
    n = min(1 + adv // 5, y1)
    assert s.civs[1].yellow == y1 - n
    assert s.civs[0].yellow >= y0 + n - 1  # minus at most one population increase? none at END
    assert s.civs[0].yellow == y0 + n


def test_t_14_war_over_culture_loser_pays_five_plus_advantage() -> None:
    s = politics_phase(2)
    s.age = 3
    war = card("war_over_culture")
    soldiers(s, 1, 2)  # the target wins: either side can win
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s.civs[0].culture = 20
    s.civs[1].culture = 4
    s.apply(0, act.WAR + war * 4 + 1)
    s.apply(0, act.END)
    settle(s)
    c0 = s.civs[0].culture
    s.apply(1, act.END)
    settle(s)
    assert s.current == 0
    assert s.wars == []
    adv = politics.strength(s.civs[1]) - politics.strength(s.civs[0])
    assert adv > 0
    assert s.civs[0].culture == max(0, c0 - (5 + adv))


def test_tta_6_6_pacts_only_with_three_or_more_players() -> None:
    s = politics_phase(2)
    pact = card("open_borders_agreement")
    s.civs[0].mhand = [pact]
    s._legal = None
    assert not any(act.PACT <= a < act.CANCEL for a in s.legal_actions(0))
    s = politics_phase(3)
    s.civs[0].mhand = [pact]
    s._legal = None
    assert act.PACT + pact * 8 + 1 * 2 in s.legal_actions(0)


def test_tta_6_6_pact_refused_returns_to_hand_accepted_enters_play() -> None:
    s = politics_phase(3)
    pact = card("open_borders_agreement")
    s.civs[0].mhand = [pact]
    s.apply(0, act.PACT + pact * 8 + 2)
    assert s.to_move() == (1,)
    assert s.legal_actions(1) == [act.OPTION, act.OPTION + 1]
    refuse, accept = act.OPTION, act.OPTION + 1
    s.apply(1, refuse)
    assert s.civs[0].mhand == [pact]
    assert s.pacts == []
    assert s.phase == PH_ACTION  # the political action is used
    s.phase = PH_POLITICS
    s._legal = None
    ma_before = board.totals(s.civs[0])[1], board.totals(s.civs[1])[1]
    s.apply(0, act.PACT + pact * 8 + 2)
    s.apply(1, accept)
    assert s.pacts[:2] == [pact, 0]
    assert s.civs[0].mhand == []
    ma_after = board.totals(s.civs[0])[1], board.totals(s.civs[1])[1]
    # Open Borders: +1 MA for both sides (cards file)
    assert ma_after == (ma_before[0] + 1, ma_before[1] + 1)


def test_tta_6_6_one_pact_in_own_area_and_tta_6_7_cancel() -> None:
    s = politics_phase(3)
    p1, p2 = card("open_borders_agreement"), card("trade_routes_agreement")
    s.civs[0].mhand = [p1, p2]
    s.apply(0, act.PACT + p1 * 8 + 2)
    s.apply(1, act.OPTION + 1)
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(0, act.PACT + p2 * 8 + 4)
    s.apply(2, act.OPTION + 1)
    assert s.pacts[0::4] == [p2]
    assert p1 in s.mil_discards[1]
    s.phase = PH_POLITICS
    s._legal = None
    assert act.CANCEL + p2 in s.legal_actions(0)
    s.apply(0, act.CANCEL + p2)
    assert s.pacts == []
    assert p2 in s.mil_discards[1]


def test_tta_6_8_resign_cancels_wars_seven_culture_not_in_age_iv() -> None:
    s = politics_phase(3)
    war = card("war_over_territory")
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s.apply(0, act.WAR + war * 4 + 1)
    culture = s.civs[0].culture
    s.current = 1
    s.phase = PH_POLITICS
    s._legal = None
    while s.to_move() != (1,):
        s.apply(s.to_move()[0], s.legal_actions(s.to_move()[0])[0])
    assert act.RESIGN in s.legal_actions(1)
    s.apply(1, act.RESIGN)
    assert s.civs[1].flags & F_RESIGNED
    assert s.wars == []
    assert s.civs[0].culture == culture + 7
    seat = s.to_move()[0]
    assert s.phase == PH_POLITICS
    assert act.RESIGN in s.legal_actions(seat)
    s.age = 4
    s._legal = None
    assert act.RESIGN not in s.legal_actions(seat)


def test_tta_6_8_last_player_left_wins() -> None:
    s = politics_phase(2)
    s.apply(0, act.RESIGN)
    assert s.is_terminal()
    assert s.result().winners == (1,)


def test_julius_caesar_second_political_action_once_per_game() -> None:
    s = politics_phase(3)
    s.civs[0].leader = card("julius_caesar")
    board.enter_play(s.civs[0], s.civs[0].leader)
    ev = [c.idx for c in CARDS if c.type == "event" and c.age == 1][:3]
    s.civs[0].mhand = list(ev)
    s._legal = None
    s.apply(0, act.PREPARE + ev[0])
    settle(s)
    assert act.PREPARE + ev[1] in s.legal_actions(0)
    s.apply(0, act.PREPARE + ev[1])
    settle(s)
    assert s.phase == PH_ACTION
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(0, act.PREPARE + ev[2])
    settle(s)
    assert s.phase == PH_ACTION  # the second action only once per game


def _attack(s: TTAState, cid: str, target: int = 1) -> None:
    """Seat 0 (made stronger) plays aggression ``cid`` on ``target``, who does not defend."""
    c = card(cid)
    soldiers(s, 0, 3)
    s.civs[0].mhand.append(c)
    s.civs[0].ma = 5
    s._legal = None
    s.apply(0, act.AGGRESS + c * 4 + target)
    s.apply(target, act.DONE)


def test_c_13_spy_takes_up_to_five_science() -> None:
    s = politics_phase()
    s.civs[0].science, s.civs[1].science = 2, 3
    _attack(s, "spy")
    settle(s)
    assert (s.civs[0].science, s.civs[1].science) == (5, 0)


def test_c_13_enslave_and_plunder() -> None:
    s = politics_phase()
    t = s.civs[1]
    pop = sum(t.workers) + t.pool
    f0, r0 = board.stock(s.civs[0], False), board.stock(s.civs[0], True)
    _attack(s, "enslave")
    settle(s)
    assert sum(t.workers) + t.pool == pop - 1
    assert board.stock(s.civs[0], False) == f0 + 2
    assert board.stock(s.civs[0], True) == r0 + 2
    s = politics_phase()
    t = s.civs[1]
    board.gain(t, False, 2)
    board.gain(t, True, 4)
    _attack(s, "plunder_i")
    assert s.to_move() == (0,)  # the aggressor chooses the mix
    values = [a - act.OPTION for a in s.legal_actions(0)]
    assert max(values) == 2  # at most the food the target has
    s.apply(0, act.OPTION + 1)
    settle(s)
    assert (board.stock(t, False), board.stock(t, True)) == (1, 2)


def test_c_13_infiltrate_removes_the_leader_for_three_culture_per_level() -> None:
    s = politics_phase()
    s.age = 2
    leader = next(c.idx for c in CARDS if c.type == "leader" and c.age == 1)
    s.civs[1].leader = leader
    board.enter_play(s.civs[1], leader)
    culture = s.civs[0].culture
    _attack(s, "infiltrate")
    settle(s)
    assert s.civs[1].leader == -1
    assert s.civs[0].culture == culture + 3 * CARDS[leader].age


def test_c_13_annex_takes_a_colony_without_its_immediate_effect() -> None:
    s = politics_phase()
    col = card("vast_territory_i")
    t = s.civs[1]
    t.colonies = [col]
    board.enter_play(t, col)
    y0, y1, f0 = s.civs[0].yellow, t.yellow, board.stock(s.civs[0], False)
    _attack(s, "annex")
    settle(s)
    assert t.colonies == []
    assert s.civs[0].colonies == [col]
    assert s.civs[0].yellow == y0 + 3
    assert t.yellow == y1 - 3
    assert board.stock(s.civs[0], False) == f0  # no immediate food (TTA-11.6)


def test_tta_6_5_war_over_technology_steals_a_higher_tech_discards_a_lower() -> None:
    s = politics_phase(2)
    war = card("war_over_technology")
    soldiers(s, 0, 3)  # 7 vs 1: advantage 6
    develop(s.civs[0], "code_of_laws")
    develop(s.civs[1], "justice_system")  # Age II civic: 7 science > 6
    develop(s.civs[1], "masonry")  # 3 science
    s.civs[1].science = 10
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s.apply(0, act.WAR + war * 4 + 1)
    s.apply(0, act.END)
    settle(s)
    s.apply(1, act.END)
    assert s.to_move() == (0,)
    values = [a - act.OPTION for a in s.legal_actions(0)]
    assert 1 not in values  # Justice System alone is worth 7 > advantage 6
    assert 1 << 3 in values
    sci0 = s.civs[0].science
    s.apply(0, act.OPTION + (1 << 3))  # Masonry (3) and 3 science
    assert s.civs[0].special[3] == card("masonry")
    assert s.civs[1].special[3] == -1
    assert s.civs[0].science == sci0 + 3
    assert s.civs[0].special[0] == card("code_of_laws")


def test_tta_6_6_open_borders_adds_two_when_attacking() -> None:
    s = politics_phase(3)
    pact = card("open_borders_agreement")
    s.civs[0].mhand = [pact]
    s.apply(0, act.PACT + pact * 8 + 2)
    s.apply(1, act.OPTION + 1)
    a, d = politics.attack_strengths(s, 0, 1)
    assert a == politics.strength(s.civs[0]) + 2
    assert d == politics.strength(s.civs[1])
    a2, _ = politics.attack_strengths(s, 0, 2)
    assert a2 == politics.strength(s.civs[0])


def test_tta_6_5_loss_of_sovereignty_side_b_cannot_be_declared_on() -> None:
    s = politics_phase(3)
    s.age = 3
    los, war, raid = card("loss_of_sovereignty"), card("war_over_culture"), card("raid_i")
    s.civs[0].mhand = [los]
    s.apply(0, act.PACT + los * 8 + 1 * 2 + 0)  # seat 0 side A, seat 1 side B
    s.apply(1, act.OPTION + 1)
    assert s.pacts == [los, 0, 0, 1]
    for seat in (0, 2):
        s.current = seat
        s.phase = PH_POLITICS
        soldiers(s, seat, 3)
        s.civs[seat].mhand = [war, raid]
        s.civs[seat].ma = 5
        s._legal = None
        legal = s.legal_actions(seat)
        assert act.WAR + war * 4 + 1 not in legal  # nobody may declare war on B
        assert (act.AGGRESS + raid * 4 + 1 in legal) == (seat == 2)  # A may not attack B
        other = 2 if seat == 0 else 0
        assert act.WAR + war * 4 + other in legal


def test_tta_6_6_acceptance_of_supremacy_sides_and_no_attacks() -> None:
    s = politics_phase(3)
    aos, raid = card("acceptance_of_supremacy"), card("raid_i")
    s.civs[0].mhand = [aos]
    s.apply(0, act.PACT + aos * 8 + 1 * 2 + 1)  # the offerer takes side B
    s.apply(1, act.OPTION + 1)
    assert s.pacts == [aos, 0, 1, 0]
    soldiers(s, 1, 3)
    s.current, s.phase = 1, PH_POLITICS
    s.civs[1].mhand = [raid]
    s.civs[1].ma = 3
    s._legal = None
    legal = s.legal_actions(1)
    assert act.AGGRESS + raid * 4 + 0 not in legal  # neither may attack the other
    assert act.AGGRESS + raid * 4 + 2 in legal
    s.current = 2
    s.phase = PH_ACTION
    s._legal = None
    r1, r0 = board.stock(s.civs[1], True), board.stock(s.civs[0], True)
    board.gain(s.civs[0], True, 2)
    r0 += 2
    s.apply(2, act.END)  # seat 0's turn starts: side B pays 1 resource
    settle(s)
    assert s.current == 0
    assert board.stock(s.civs[0], True) == r0 - 1
    s.apply(0, act.END)  # seat 1's turn starts: side A gains 1 resource
    settle(s)
    assert s.current == 1
    assert board.stock(s.civs[1], True) == r1 + 1


def test_t_21_war_over_territory_capped_by_the_losers_yellow_bank() -> None:
    s = politics_phase(2)
    war = card("war_over_territory")
    soldiers(s, 0, 6)  # 13 vs 1: advantage 12 -> 1 + 2 = 3 cubes
    s.civs[1].yellow = 2
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s.apply(0, act.WAR + war * 4 + 1)
    y0 = s.civs[0].yellow
    s.apply(0, act.END)
    settle(s)
    s.apply(1, act.END)
    settle(s)
    assert s.civs[1].yellow == 0
    assert s.civs[0].yellow == y0 + 2
