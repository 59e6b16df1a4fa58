"""Rule tests by rule id (TTA-1 .. TTA-14) and the civil cards' effects by card id."""

from __future__ import annotations

import pytest

from civtable.core.errors import IllegalActionError
from civtable.games.through_the_ages.catalog import BOARD, CARDS
from civtable.games.through_the_ages.rules import board, civil, effects, row, turn
from civtable.games.through_the_ages.state import P_DISCARD, TTAState

from .scenario import GAME, act, action_phase, card, cubes, develop, workers

FIRST = {"mode": "first"}  # these tests are of the first game (TTA-14)


def _slot(cid: str) -> int:
    return CARDS[card(cid)].slot


# --- TTA-1 the player board ----------------------------------------------------------------------


def test_tta_1_4_2_yellow_bank_rebuilt_from_printed_sections() -> None:
    yb = BOARD["player_board"]["yellow_bank"]
    for n in range(19):
        emptied = set(range(n + 1, 19))  # spaces n+1..18 are empty
        cost = next(
            (
                s["population_cost"]
                for s in yb["food_sections"]
                if s["spaces"][1] >= n >= s["spaces"][0]
            ),
            None,
        )
        cons = max(
            [
                s["consumption_when_emptied"]
                for s in yb["food_sections"]
                if s["spaces"][0] in emptied
            ]
            or [0]
        )
        req = max(
            [
                s["happiness_required_when_emptied"]
                for s in yb["happiness_sections"]
                if s["spaces"][0] in emptied
            ]
            or [0]
        )
        assert board.pop_cost(n) == (cost if cost is not None else -1), n
        assert board.consumption(n) == cons, n
        assert board.happiness_required(n) == req, n
    # TTA-AMB-5: above 18 behaves like the cheapest section
    assert (board.pop_cost(20), board.consumption(20), board.happiness_required(20)) == (2, 0, 0)


@pytest.mark.parametrize(("b", "lost"), [(16, 0), (11, 0), (10, 2), (6, 2), (5, 4), (1, 4), (0, 6)])
def test_tta_1_5_1_corruption(b: int, lost: int) -> None:
    assert board.corruption(b) == lost


def test_tta_1_10_lost_action_cubes_are_the_spent_ones_first() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "monarchy")
    c.ca, c.ma = 2, 3  # 3 CA spent of 5
    before = board.totals(c)
    c.gov = card("despotism")
    board.sync_totals(c, before)
    assert (c.ca, c.ma) == (2, 2)  # CA: 1 spent cube removed; MA: 1 available removed
    c.ca = 4
    c.gov = card("monarchy")
    board.sync_totals(c, board.totals(c.copy()) if False else (4, 2))
    assert (c.ca, c.ma) == (5, 3)


def test_tta_1_11_blue_cubes_from_special_technologies() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.science = 20
    c.hand = [card("justice_system"), card("civil_service")]
    s.apply(0, act.PLAY + card("justice_system"))
    assert c.blue == 19
    assert board.totals(c)[0] == 5
    assert c.ca == 4
    s.apply(0, act.PLAY + card("civil_service"))
    assert c.blue == 19
    assert board.totals(c)[0] == 6
    assert c.special[0] == card("civil_service")


# --- TTA-2 setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tta_2_setup_by_player_count(players: int) -> None:
    s = GAME.new_game(players, 5, FIRST)
    assert len(s.events) == players + 2
    sizes = {2: 44, 3: 50, 4: 53}
    assert len(s.civil_decks[1]) == len(s.civil_decks[2]) == sizes[players]
    assert s.civil_decks[3] == []  # TTA-14: no Age III decks in the first game
    assert all(CARDS[c].type in ("event", "territory", "tactic", "bonus") for c in s.mil_decks[1])
    assert [s.civs[(s.first + k) % players].ca for k in range(players)] == list(
        range(1, players + 1)
    )
    assert GAME.action_space_size(players) == GAME.action_space_size(4)


def test_tta_2_options_are_checked() -> None:
    from civtable.core.errors import InvalidOptionsError

    assert GAME.new_game(2, 0, {"mode": "first"}).options == {"mode": "first"}
    assert GAME.new_game(2, 0).options == {"mode": "full"}  # the full game by default
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(2, 0, {"mode": "short"})
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(2, 0, {"colour": 1})
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(5, 0, FIRST)


# --- TTA-3 card row ------------------------------------------------------------------------------


def test_tta_3_3_civil_hand_limit_and_same_name() -> None:
    s = action_phase(4)
    c = s.civs[0]
    s.row[0] = card("irrigation")
    s.row[1] = card("stockpile")
    c.hand = [card("frugality_a")] * 3
    assert civil.can_take(s, c, 0)
    c.hand = [card("frugality_a")] * 4
    assert not civil.can_take(s, c, 0)
    assert not civil.can_take(s, c, 1)
    c.hand = [card("irrigation")]
    assert not civil.can_take(s, c, 0)
    c.hand = []
    develop(c, "irrigation")
    assert not civil.can_take(s, c, 0)
    s.row[2] = card("despotism") if False else card("monarchy")
    c.gov = card("monarchy")
    assert not civil.can_take(s, c, 2)


def test_tta_3_3_one_leader_per_age_and_wonders_to_play() -> None:
    s = action_phase(4)
    c = s.civs[0]
    s.row[0] = card("moses")
    s.row[1] = card("homer")
    s.row[2] = card("colossus")
    s.apply(0, act.TAKE + 0)
    assert card("moses") in c.hand
    assert not civil.can_take(s, c, 1)
    c.hand = []
    assert not civil.can_take(s, c, 1)  # even after the first leader left the hand
    s.apply(0, act.TAKE + 2)
    assert c.wip == card("colossus")
    assert card("colossus") not in c.hand


@pytest.mark.parametrize(("players", "swept"), [(2, 3), (3, 2), (4, 1)])
def test_tta_3_4_sweep_by_player_count(players: int, swept: int) -> None:
    s = action_phase(players)
    first = s.row[:]
    top = s.civil_decks[1][-swept:]
    row.replenish(s)
    assert s.row[: 13 - swept] == first[swept:]
    assert s.row[13 - swept :] == list(reversed(top))


# --- TTA-4 ages ----------------------------------------------------------------------------------


def test_tta_4_2_age_a_ends_at_the_first_replenish() -> None:
    s = GAME.new_game(4, 2, FIRST)
    order = [(s.first + k) % 4 for k in range(4)]
    for k, seat in enumerate(order):
        while True:
            legal = [a for a in s.legal_actions(seat) if act.TAKE <= a < act.POP]
            if not legal:
                break
            s.apply(seat, min(legal))
        if k < 3:
            s.apply(seat, act.END)
    before = s.row[:]
    assert s.age == 0
    assert len(s.civil_decks[0]) == 7
    s.apply(order[3], act.END)
    assert s.round == 2
    assert s.age == 1
    assert s.civil_decks[0] == []
    assert all(c >= 0 for c in s.row)
    # the first refill deals the 7 remaining Age A cards first, then Age I (TTA-3.5)
    kept = sum(1 for c in before if c >= 0) - (1 if before[0] >= 0 else 0)
    empties = 13 - kept
    assert [CARDS[c].age for c in s.row].count(1) == max(0, empties - 7)
    assert all(c.yellow == 18 for c in s.civs)  # no end-of-age steps for Age A
    # civil A runs out during the first refill: continue from civil I
    s = GAME.new_game(4, 2, FIRST)
    s.row = [-1] * 10 + s.row[10:]
    s.round = 2
    row.replenish(s)
    assert [CARDS[c].age for c in s.row].count(1) == 10 - 7
    assert s.age == 1


@pytest.mark.parametrize(
    ("first", "current", "last"), [(0, 0, 0), (0, 2, 1), (2, 2, 0), (2, 0, 1), (1, 2, 1)]
)
def test_tta_4_4_the_game_ending_age_and_the_last_round(
    first: int, current: int, last: int
) -> None:
    s = action_phase(3)
    s.first = first
    s.age = 2
    s.current = current
    s.round = 7
    s.civil_decks[2] = [card("coal")]
    s.row[0] = -1
    row.replenish(s)
    assert s.age == 3
    assert s.last_round == 7 + last
    assert s.row[-1] == -1  # TTA-3.4 step 5: nothing dealt in the game-ending age


@pytest.mark.parametrize(("first", "last_seat"), [(0, 2), (2, 1), (1, 0)])
def test_tta_4_4_game_ends_after_the_seat_right_of_the_first_player(
    first: int, last_seat: int
) -> None:
    s = action_phase(3)
    s.first = first
    s.age, s.last_round, s.round = 3, 4, 4
    s.current = (last_seat - 1) % 3
    s.apply(s.current, act.END)
    assert not s.is_terminal()
    assert s.current == last_seat
    draws = len(s.civs[last_seat].mhand)
    s.apply(last_seat, act.END)
    assert s.is_terminal()
    assert s.to_move() == ()
    assert s.legal_actions(0) == []
    assert len(s.civs[last_seat].mhand) == draws  # TTA-14.3: no military draw in Age III


# --- TTA-5 turn ----------------------------------------------------------------------------------


def test_tta_5_1_round_one_only_takes_cards() -> None:
    s = GAME.new_game(3, 1, FIRST)
    legal = s.legal_actions(s.first)
    assert act.END in legal
    assert all(a == act.END or act.TAKE <= a < act.POP for a in legal)
    with pytest.raises(IllegalActionError):
        s.apply(s.first, act.POP)


# --- TTA-7 actions -------------------------------------------------------------------------------


def test_tta_7_2_3_build_farm_needs_worker_resources_and_ca() -> None:
    s = action_phase(4)
    c = s.civs[0]
    cubes(c, bronze=2)
    assert act.BUILD + _slot("agriculture") in s.legal_actions(0)
    s.apply(0, act.BUILD + _slot("agriculture"))
    assert c.workers[_slot("agriculture")] == 3
    assert c.pool == 0
    assert c.ca == 3
    assert board.stock(c, True) == 0
    assert act.BUILD + _slot("agriculture") not in s.legal_actions(0)


def test_tta_7_2_4_urban_limit() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "theology")
    workers(c, religion=1, theology=1)
    c.pool = 2
    cubes(c, bronze=10)
    assert not civil.can_build(c, _slot("religion"), False, 0)
    develop(c, "monarchy")
    assert civil.can_build(c, _slot("religion"), False, 0)
    assert civil.can_upgrade(c, _slot("religion") // 4, 0, 1, False, 0)


def test_tta_7_2_6_destroy_and_7_3_3_disband() -> None:
    s = action_phase(4)
    c = s.civs[0]
    s.apply(0, act.DESTROY + _slot("philosophy"))
    assert c.workers[_slot("philosophy")] == 0
    assert c.pool == 2
    assert c.ca == 3
    s.apply(0, act.DESTROY + _slot("warriors"))
    assert c.workers[_slot("warriors")] == 0
    assert c.pool == 3
    assert c.ma == 1


def test_tta_7_2_9_special_technology_replaces_the_lower_one() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.science = 20
    c.hand = [card("code_of_laws"), card("masonry"), card("architecture")]
    s.apply(0, act.PLAY + card("code_of_laws"))
    assert board.totals(c) == (5, 2)
    assert c.ca == 4
    s.apply(0, act.PLAY + card("architecture"))
    assert c.special[3] == card("architecture")


def test_tta_7_2_9_a_lower_special_technology_may_be_developed_and_is_removed() -> None:
    """The rulebook: of two special technologies of one type "the higher level stays in play,
    the lower is removed" -- also when the lower is the one just developed; it still counts
    as developing a technology (Albert Einstein's culture, TTA-7.2.9)."""
    s = _with_leader("albert_einstein")
    c = s.civs[0]
    develop(c, "architecture")
    c.science = 20
    c.hand = [card("masonry")]
    assert act.PLAY + card("masonry") in s.legal_actions(0)
    s.apply(0, act.PLAY + card("masonry"))
    assert c.special[3] == card("architecture")
    assert c.hand == []
    assert c.science == 20 - CARDS[card("masonry")].science_cost
    assert c.culture == 3
    assert c.ca == 3


def test_tta_7_2_10_revolution_needs_no_ca_spent_and_spends_all() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.science = 10
    c.hand = [card("republic")]
    s.apply(0, act.REVOLT + card("republic"))
    assert board.totals(c) == (7, 2)
    assert c.ca == 0
    assert c.science == 7


def test_tta_7_2_10_revolution_after_a_refunded_civil_action() -> None:
    """Despotism, 4 CA, Moses in play; playing Leonardo replaces Moses and refunds the CA:
    no CA is spent any more, so a revolution to Monarchy is legal and spends all CAs."""
    s = _with_leader("moses")
    c = s.civs[0]
    c.science = 3
    c.hand = [card("leonardo_da_vinci"), card("monarchy")]
    s.apply(0, act.PLAY + card("leonardo_da_vinci"))
    assert c.leader == card("leonardo_da_vinci")
    assert c.ca == 4
    assert act.REVOLT + card("monarchy") in s.legal_actions(0)
    s.apply(0, act.REVOLT + card("monarchy"))
    assert c.gov == card("monarchy")
    assert c.ca == 0
    assert c.science == 1


def test_tta_7_2_10_a_spent_civil_action_still_blocks_after_a_refund() -> None:
    s = _with_leader("moses")
    c = s.civs[0]
    c.science = 3
    c.hand = [card("leonardo_da_vinci"), card("monarchy")]
    cubes(c, agriculture=4)
    s.apply(0, act.POP)  # spent, never refunded
    s.apply(0, act.PLAY + card("leonardo_da_vinci"))  # spent and refunded
    assert c.ca == 3
    assert act.REVOLT + card("monarchy") not in s.legal_actions(0)


def test_tta_7_2_10_newtons_refund_does_not_block_a_revolution() -> None:
    """Isaac Newton gives the CA of a technology developed back (TTA-7.2.9, TTA-AMB-28)."""
    s = _with_leader("isaac_newton")
    c = s.civs[0]
    c.science = 5 + 2
    c.hand = [card("iron"), card("monarchy")]
    s.apply(0, act.PLAY + card("iron"))
    assert c.ca == 4
    assert act.REVOLT + card("monarchy") in s.legal_actions(0)


def test_tta_7_2_11_breakthrough_revolution_after_a_refunded_civil_action() -> None:
    """Breakthrough's "no CA spent before" reads the same refunds (TTA-7.2.10, TTA-AMB-34)."""
    s = _with_leader("moses")
    c = s.civs[0]
    c.science = 2
    c.hand = [card("leonardo_da_vinci"), card("breakthrough_i"), card("monarchy")]
    s.apply(0, act.PLAY + card("leonardo_da_vinci"))
    s.apply(0, act.PLAY + card("breakthrough_i"))
    assert act.REVOLT + card("monarchy") in s.legal_actions(0)
    s.apply(0, act.REVOLT + card("monarchy"))
    assert c.gov == card("monarchy")
    assert c.ca == 0


def test_tta_7_2_10_robespierre_spends_military_actions() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.leader = card("maximilien_robespierre")
    c.ca, c.ma = board.totals(c)
    c.science = 3
    c.hand = [card("republic")]
    cubes(c, agriculture=4)
    s.apply(0, act.POP)  # a CA spent: still allowed with Robespierre
    s.apply(0, act.REVOLT + card("republic"))
    assert c.ma == 0
    assert c.ca == 3 + 3
    assert c.culture == 3


def test_tta_7_2_11_action_card_not_in_the_turn_taken() -> None:
    s = action_phase(4)
    c = s.civs[0]
    s.row[0] = card("stockpile")
    s.apply(0, act.TAKE)
    assert act.PLAY + card("stockpile") not in s.legal_actions(0)
    s.apply(0, act.END)
    c.fresh = []
    assert c.fresh == []
    assert card("stockpile") in c.hand


def test_tta_7_2_11_stockpile_and_cultural_heritage() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.hand = [card("stockpile"), card("cultural_heritage_i")]
    s.apply(0, act.PLAY + card("stockpile"))
    assert board.stock(c, False) == 1
    assert board.stock(c, True) == 1
    assert c.blue == 14
    s.apply(0, act.PLAY + card("cultural_heritage_i"))
    assert (c.science, c.culture) == (2, 2)
    assert c.ca == 2
    assert c.hand == []


def test_tta_7_2_11_reserves_choice() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron")
    c.hand = [card("reserves_ii")]
    s.apply(0, act.PLAY + card("reserves_ii"))
    assert s.legal_actions(0) == [act.CHOICE, act.CHOICE + 1]
    s.apply(0, act.CHOICE)
    assert board.stock(c, True) == 3
    assert c.cubes[5] == 1
    assert c.cubes[4] == 1


def test_tta_7_2_11_frugality_pays_in_full_then_gains() -> None:
    s = action_phase(4)
    c = s.civs[0]
    cubes(c, agriculture=2)
    c.hand = [card("frugality_i")]
    s.apply(0, act.PLAY + card("frugality_i"))
    assert c.yellow == 17
    assert c.pool == 2
    assert board.stock(c, False) == 2
    c.hand = [card("frugality_i")]
    cubes(c, agriculture=1)
    assert act.PLAY + card("frugality_i") not in s.legal_actions(0)  # X impossible: no play


def test_tta_7_2_11_rich_land_discount_and_no_action_cost() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron")
    cubes(c, bronze=3)
    c.hand = [card("rich_land_i")]
    s.apply(0, act.PLAY + card("rich_land_i"))
    legal = s.legal_actions(0)
    assert act.BUILD + _slot("iron") in legal
    assert act.END not in legal
    s.apply(0, act.BUILD + _slot("iron"))
    assert board.stock(c, True) == 0
    assert c.ca == 3
    assert c.workers[_slot("iron")] == 1


def test_tta_7_2_11_breakthrough_develops_then_gains_science() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.science = 3
    c.hand = [card("breakthrough_i"), card("irrigation")]
    s.apply(0, act.PLAY + card("breakthrough_i"))
    s.apply(0, act.PLAY + card("irrigation"))
    assert card("irrigation") in c.developed
    assert c.science == 2
    assert c.ca == 3


def test_tta_7_2_11_breakthrough_revolution_uses_all_ca() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.science = 2
    c.hand = [card("breakthrough_i"), card("monarchy")]
    s.apply(0, act.PLAY + card("breakthrough_i"))
    assert act.REVOLT + card("monarchy") in s.legal_actions(0)
    s.apply(0, act.REVOLT + card("monarchy"))
    assert c.gov == card("monarchy")
    assert c.ca == 0
    assert c.science == 2


def test_tta_7_2_11_efficient_upgrade_and_urban_growth() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "coal")
    cubes(c, bronze=3)
    c.hand = [card("efficient_upgrade_ii")]
    s.apply(0, act.PLAY + card("efficient_upgrade_ii"))
    assert s.legal_actions(0) == [act.upgrade_id(1, 0, 2)]  # 6 - 3 = 3 resources
    s.apply(0, act.upgrade_id(1, 0, 2))
    assert c.workers[_slot("coal")] == 1
    assert board.stock(c, True) == 0


def test_tta_7_2_11_wave_of_nationalism_by_player_count() -> None:
    s = action_phase(3)
    c = s.civs[0]
    workers(s.civs[1], warriors=3)
    workers(s.civs[2], warriors=2)
    workers(c, warriors=0)
    c.hand = [card("wave_of_nationalism")]
    s.apply(0, act.PLAY + card("wave_of_nationalism"))
    assert c.mpool == 2 * 3


def test_tta_7_3_units_use_military_actions_and_the_pool_first() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.hand = [card("patriotism_i")]
    cubes(c, bronze=1)
    s.apply(0, act.PLAY + card("patriotism_i"))
    s.apply(0, act.BUILD + _slot("warriors"))
    assert c.temp_ma == 0
    assert c.ma == 2
    assert c.mpool == 0
    assert board.stock(c, True) == 1
    assert c.workers[_slot("warriors")] == 2


def test_tta_7_4_auto_pay_leaves_the_largest_bank() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron", "coal")
    cubes(c, bronze=0, iron=0, coal=1)
    assert board.pay(c, True, 1)  # 3 -> 2: move the cube down to Iron
    assert (c.cubes[4], c.cubes[5], c.cubes[6]) == (0, 1, 0)
    assert c.blue == 15
    cubes(c, bronze=0, iron=1, coal=1)
    assert board.pay(c, True, 3)  # exact: return the Coal cube
    assert (c.cubes[5], c.cubes[6]) == (1, 0)
    assert c.blue == 15
    assert not board.pay(c, True, 3)  # short: nothing changes
    assert c.cubes[5] == 1


def test_tta_7_4_overpay_only_when_exact_is_impossible() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "selective_breeding")
    cubes(c, agriculture=0, selective_breeding=1)
    assert board.pay(c, False, 1)  # 3: no 2-valued farm; move down to Agriculture pays 2
    assert board.stock(c, False) == 1
    assert c.cubes[0] == 1


def test_tta_7_5_gain_uses_the_highest_cards_and_the_bank_limit() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "irrigation")
    c.blue = 2
    assert board.gain(c, False, 5) == 4
    assert c.cubes[1] == 2
    assert c.blue == 0


def test_tta_7_6_construction_discounts_apply_only_to_urban() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "engineering")
    assert board.building_cost(c, _slot("iron")) == 5
    assert board.building_cost(c, _slot("knights")) == 3
    assert board.building_cost(c, _slot("philosophy")) == 3


# --- TTA-8 end of turn ---------------------------------------------------------------------------


def test_tta_8_1_discard_excess_military_cards() -> None:
    s = action_phase(4)
    c = s.civs[0]
    cards = s.mil_decks[1][:4]
    c.mhand = list(cards)
    c.ma = 0
    s.apply(0, act.END)
    assert s.pending[0] == P_DISCARD
    assert s.current == 0
    legal = s.legal_actions(0)
    assert legal == sorted({act.DISCARD + x for x in cards})
    s.apply(0, legal[0])
    s.apply(0, s.legal_actions(0)[0])
    assert len(c.mhand) == 2
    assert s.current == 1
    assert len(s.mil_discards[1]) == 2


def test_tta_8_5_production_higher_levels_first_when_the_bank_runs_out() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "irrigation")
    workers(c, agriculture=2, irrigation=2)
    c.blue = 3
    board.produce(c, False)
    assert c.cubes[1] == 2
    assert c.cubes[0] == 1
    assert c.blue == 0


def test_tta_8_8_draw_reshuffles_the_discards() -> None:
    s = action_phase(4)
    c = s.civs[0]
    s.mil_discards[1] = s.mil_decks[1][:]
    s.mil_decks[1] = []
    s.apply(0, act.END)
    assert len(c.mhand) == 2
    assert len(s.mil_discards[1]) == 0


# --- TTA-14 -----------------------------------------------------------------------------------


def test_tta_14_winner_and_ties_share() -> None:
    s = action_phase(2)
    s.civs[0].culture = 10
    r = s.result()
    assert r.winners == (0,)
    assert r.ranking == (0, 1)
    s.civs[1].culture = 10
    r = s.result()
    assert r.winners == (0, 1)


# --- leaders (card effects by card id) ------------------------------------------------------------


def _with_leader(cid: str, players: int = 4) -> TTAState:
    s = action_phase(players)
    c = s.civs[0]
    c.leader = card(cid)
    board.enter_play(c, card(cid))
    c.ca, c.ma = board.totals(c)
    return s


def test_aristotle_science_per_technology_taken() -> None:
    s = _with_leader("aristotle")
    s.row[0] = card("iron")
    s.row[1] = card("stockpile")
    s.apply(0, act.TAKE)
    s.apply(0, act.TAKE + 1)
    assert s.civs[0].science == 1


def test_hammurabi_military_action_as_civil_action_once() -> None:
    s = _with_leader("hammurabi")
    c = s.civs[0]
    s.apply(0, act.HAMMURABI)
    assert (c.ca, c.ma) == (5, 1)
    assert act.HAMMURABI not in s.legal_actions(0)


def test_homer_pool_and_happiness() -> None:
    s = _with_leader("homer")
    c = s.civs[0]
    assert board.ratings(c)[3] == 1
    turn.start_turn(s)
    assert c.mpool >= 1


def test_julius_caesar_and_joan_of_arc() -> None:
    s = _with_leader("julius_caesar")
    c = s.civs[0]
    assert board.totals(c) == (4, 3)
    assert board.ratings(c)[2] == 2
    s = _with_leader("joan_of_arc")
    c = s.civs[0]
    workers(c, religion=2)
    develop(c, "theocracy")
    assert board.ratings(c)[0] == 2 + 1 + 1  # religion 2, theocracy 1, Joan 1
    assert board.ratings(c)[2] == 1 + 1 + 3  # warriors, theocracy, happy faces 2+1


def test_leonardo_newton_einstein_on_develop() -> None:
    s = _with_leader("leonardo_da_vinci")
    c = s.civs[0]
    c.science = 5
    c.hand = [card("iron")]
    assert board.ratings(c)[1] == 1 + 0  # best lab is Age A: +0
    s.apply(0, act.PLAY + card("iron"))
    assert board.stock(c, True) == 1
    develop(c, "alchemy")
    workers(c, alchemy=1)
    assert board.ratings(c)[1] == 1 + 2 + 1
    s = _with_leader("isaac_newton")
    c = s.civs[0]
    c.science = 5
    c.hand = [card("iron")]
    s.apply(0, act.PLAY + card("iron"))
    assert c.ca == 4
    s = _with_leader("albert_einstein")
    c = s.civs[0]
    c.science = 5
    c.hand = [card("iron")]
    s.apply(0, act.PLAY + card("iron"))
    assert c.culture == 3


def test_michelangelo_culture_from_happy_faces() -> None:
    s = _with_leader("michelangelo")
    c = s.civs[0]
    workers(c, religion=2)
    c.wonders = [card("hanging_gardens")]
    assert board.ratings(c)[0] == 2 + 1 + (2 + 2)


def test_napoleon_and_alexander_strength() -> None:
    s = _with_leader("napoleon_bonaparte")
    c = s.civs[0]
    develop(c, "knights")
    workers(c, warriors=2, knights=1)
    assert board.ratings(c)[2] == 4 + 2 * 2
    assert board.totals(c)[1] == 4
    s = _with_leader("alexander_the_great")
    c = s.civs[0]
    workers(c, warriors=3)
    assert board.ratings(c)[2] == 6


def test_shakespeare_and_bach() -> None:
    s = _with_leader("william_shakespeare")
    c = s.civs[0]
    develop(c, "drama", "printing_press")
    workers(c, drama=1, printing_press=1)
    assert board.ratings(c)[0] == 2 + 1 + 2
    assert board.building_cost(c, _slot("drama")) == 3
    s = _with_leader("j_s_bach")
    c = s.civs[0]
    develop(c, "drama")
    workers(c, drama=2)
    assert board.ratings(c)[0] == 4 + 2
    assert civil.develop_cost(c, CARDS[card("opera")]) == 5


def test_genghis_khan_end_of_turn_culture() -> None:
    s = _with_leader("genghis_khan", players=3)
    c = s.civs[0]
    workers(s.civs[1], warriors=3)
    s.apply(0, act.END)
    assert c.culture == 3  # second strongest (1 vs 3 vs 1, tie won)


def test_churchill_default_culture_and_pool() -> None:
    s = _with_leader("winston_churchill")
    c = s.civs[0]
    s.apply(0, act.END)
    assert c.culture == 3
    s = _with_leader("winston_churchill")
    c = s.civs[0]
    s.apply(0, act.CHURCHILL + 1)
    assert (c.mpool, c.spool) == (3, 3)
    assert act.CHURCHILL not in s.legal_actions(0)
    s.apply(0, act.END)
    assert c.culture == 0


def test_barbarossa_population_and_unit() -> None:
    s = _with_leader("frederick_barbarossa")
    c = s.civs[0]
    cubes(c, agriculture=1, bronze=1)
    s.apply(0, act.BARBAROSSA)
    assert c.ma == 1
    assert c.pool == 2
    s.apply(0, act.BUILD + _slot("warriors"))
    assert c.workers[_slot("warriors")] == 2
    assert board.stock(c, True) == 0


def test_bill_gates_leaves_play_with_culture() -> None:
    s = _with_leader("bill_gates")
    c = s.civs[0]
    develop(c, "alchemy")
    workers(c, alchemy=2)
    c.hand = [card("moses")]
    s.apply(0, act.PLAY + card("moses"))
    assert c.culture == 2
    assert c.ca == 4


# --- wonders ---------------------------------------------------------------------------------


def _with_wonders(*ids: str) -> TTAState:
    s = action_phase(4)
    c = s.civs[0]
    for w in ids:
        c.wonders.append(card(w))
        board.enter_play(c, card(w))
    c.ca, c.ma = board.totals(c)
    return s


def test_wonders_symbols() -> None:
    c = _with_wonders("colossus", "pyramids", "library_of_alexandria").civs[0]
    assert board.ratings(c)[2] == 3
    assert board.totals(c) == (5, 2)
    assert board.hand_limits(c) == (6, 3)
    c = _with_wonders("kremlin", "hanging_gardens").civs[0]
    assert board.totals(c) == (5, 3)
    assert board.ratings(c)[3] == 1


def test_great_wall_and_st_peters() -> None:
    c = _with_wonders("great_wall").civs[0]
    assert board.ratings(c)[2] == 1 + 1
    c = _with_wonders("st_peters_basilica", "hanging_gardens").civs[0]
    workers(c, religion=2)
    assert board.ratings(c)[3] == 1 + (2 + 1) + 2 * 2


def test_taj_mahal_cheaper_after_a_leader_replacement_and_blue_cube() -> None:
    s = _with_leader("moses")
    c = s.civs[0]
    s.row[9] = card("taj_mahal")
    assert civil.take_cost(s, c, 9) == 3
    c.replaced_leader = 1
    assert civil.take_cost(s, c, 9) == 1
    c = _with_wonders("taj_mahal").civs[0]
    assert c.blue == 17


def test_ocean_liner_free_population_once() -> None:
    s = _with_wonders("ocean_liner_service")
    c = s.civs[0]
    s.apply(0, act.OCEAN)
    assert (c.yellow, c.pool, c.ca) == (17, 2, 4)
    assert act.OCEAN not in s.legal_actions(0)


def test_transcontinental_railroad_extra_production() -> None:
    s = _with_wonders("transcontinental_railroad")
    c = s.civs[0]
    develop(c, "iron")
    workers(c, bronze=1, iron=1)
    turn.production_phase(c)
    assert board.stock(c, True) == 1 + 2 + 2


def test_first_space_flight_scores_on_completion() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron", "monarchy")
    c.wip = card("first_space_flight")
    c.wip_stages = 3
    cubes(c, bronze=9)
    c.blue -= c.wip_stages
    s.apply(0, act.WONDER)
    assert c.culture == 1 + 1
    assert c.blue == 16


def test_bach_upgrades_any_urban_building_into_a_theater_once_per_turn() -> None:
    s = _with_leader("j_s_bach")
    c = s.civs[0]
    develop(c, "drama")
    cubes(c, bronze=2)
    action = act.bach_id(_slot("philosophy"), 1)
    assert action in s.legal_actions(0)
    s.apply(0, action)  # Drama 4 - Philosophy 3 = 1 resource, 1 CA
    assert c.workers[_slot("philosophy")] == 0
    assert c.workers[_slot("drama")] == 1
    assert (board.stock(c, True), c.ca) == (1, 3)
    assert not any(act.BACH <= a < act.ACTION_SPACE for a in s.legal_actions(0))


def test_homer_may_slide_under_a_completed_wonder() -> None:
    s = _with_leader("homer")
    c = s.civs[0]
    c.wonders = [card("colossus")]
    c.hand = [card("moses")]
    s.apply(0, act.PLAY + card("moses"))
    assert s.legal_actions(0) == [act.CHOICE, act.CHOICE + 1]
    s.apply(0, act.CHOICE + 1)
    assert c.ca == 3
    assert board.ratings(c)[3] == 1  # the happy face stays with the wonder
    s = _with_leader("homer")
    c = s.civs[0]
    c.wonders = [card("colossus")]
    c.hand = [card("moses")]
    s.apply(0, act.PLAY + card("moses"))
    s.apply(0, act.CHOICE)
    assert c.ca == 4
    assert board.ratings(c)[3] == 0


def test_hollywood_counts_leader_bonuses_to_theaters_and_libraries() -> None:
    s = _with_leader("j_s_bach")
    c = s.civs[0]
    develop(c, "drama", "printing_press")
    workers(c, drama=2, printing_press=1)
    c.wip = card("hollywood")
    c.wip_stages = 2
    cubes(c, bronze=5)
    c.blue -= 2
    s.apply(0, act.WONDER)
    assert c.culture == 2 * (2 * 2 + 1 + 2)  # theaters 4, library 1, Bach +1 per theater


def test_internet_counts_urban_culture_science_strength() -> None:
    s = _with_leader("leonardo_da_vinci")
    c = s.civs[0]
    develop(c, "alchemy", "bread_and_circuses")
    workers(c, philosophy=1, alchemy=1, bread_and_circuses=1, religion=1)
    c.wip = card("internet")
    c.wip_stages = 4
    cubes(c, bronze=2)
    c.blue -= 4
    s.apply(0, act.WONDER)
    # science 1 + 2 + Leonardo 1 (best lab Age I); culture 1 (temple); strength 1 (arena)
    assert c.culture == 4 + 1 + 1


def test_tta_amb_21_wonder_stage_cube_from_a_card_when_the_bank_is_empty() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron")
    cubes(c, agriculture=10, iron=6)
    c.wip = card("hanging_gardens")
    assert c.blue == 0
    s.apply(0, act.WONDER)  # 2 resources: one Iron cube back to the bank, then onto the wonder
    assert c.wip_stages == 1
    assert c.blue + sum(c.cubes) + c.wip_stages == 16


def test_tta_1_11_losing_blue_cubes_takes_the_shortfall_from_cards() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "justice_system")
    assert c.blue == 19
    cubes(c, agriculture=17)
    c.blue = 2
    board.leave_play(c, card("justice_system"))
    assert c.blue == 0
    assert c.cubes[0] == 16


def test_tta_1_11_a_blue_cube_lost_with_an_empty_bank_comes_from_a_card() -> None:
    """Vast Territory I (-1 blue) gained with the blue bank at 0 and 16 cubes on cards: the
    cube comes off a technology card; losing the colony gives it back: 16 in all again."""
    from civtable.games.through_the_ages.rules import events

    s = action_phase(3, mode="full")
    c = s.civs[0]
    cubes(c, agriculture=8, bronze=8)
    assert c.blue == 0
    events.gain_colony(s, 0, card("vast_territory_i"))
    assert c.blue == 0
    assert sum(c.cubes) == 15
    events.lose_colony(s, 0, 0)
    assert c.blue + sum(c.cubes) == 16


# --- TTA-7.3 / TTA-10 tactics --------------------------------------------------------------------


def test_tta_7_3_4_play_a_tactic_then_10_3_it_becomes_common() -> None:
    s = action_phase(3)
    c = s.civs[0]
    workers(c, warriors=2)
    c.mhand = [card("fighting_band"), card("legion")]
    s.apply(0, act.PLAY + card("fighting_band"))
    assert c.tactic == card("fighting_band")
    assert c.tactic_own == 1
    assert c.ma == 1
    assert board.ratings(c)[2] == 2 + 1
    # TTA-7.3.6: one play-or-copy per Action Phase
    assert act.PLAY + card("legion") not in s.legal_actions(0)
    assert s.common == []
    assert act.COPY + card("fighting_band") not in s.legal_actions(1)
    s.apply(0, act.END)
    s.apply(1, act.END)
    s.apply(2, act.END)
    assert s.current == 0
    assert s.common == [card("fighting_band")]
    assert c.tactic == card("fighting_band")
    assert c.tactic_own == 0


def test_tta_7_3_5_copy_a_tactic_for_two_military_actions() -> None:
    s = action_phase(3)
    s.common = [card("legion")]
    c = s.civs[0]
    workers(c, warriors=3)
    assert act.COPY + card("legion") in s.legal_actions(0)
    s.apply(0, act.COPY + card("legion"))
    assert c.tactic == card("legion")
    assert c.ma == 0
    assert board.ratings(c)[2] == 3 + 2
    assert s.common == [card("legion")]


def test_tta_10_3_identical_card_in_the_common_area_is_merged() -> None:
    from civtable.games.through_the_ages.rules import military

    s = action_phase(3)
    s.common = [card("legion")]
    c = s.civs[0]
    c.tactic = card("legion")
    c.tactic_own = 1
    military.release_tactic(s, c)
    assert s.common == [card("legion")]


def test_tta_10_8_genghis_khan_infantry_as_cavalry() -> None:
    s = _with_leader("genghis_khan")
    c = s.civs[0]
    workers(c, warriors=3)
    c.tactic = card("medieval_army")  # 1 infantry + 1 cavalry
    assert board.ratings(c)[2] == 3 + 2


def test_tta_1_10_card_effects_follow_the_cards_in_play_at_once() -> None:
    """The effects derived from the government, specials, leader and wonders (memoized per set
    of those cards, ``effects.fx``) change the moment a card enters or leaves play, and come
    back when it returns (no stale cache)."""
    s = action_phase(2)
    c = s.civs[0]
    base = board.ratings(c)
    hook = "extra_happy_face_per_happy_source"
    assert not effects.has_hook(c, hook)
    c.wonders.append(card("st_peters_basilica"))  # culture 2, happiness 1 (cards.json)
    assert effects.has_hook(c, hook)
    assert board.ratings(c)[0] == base[0] + 2
    c.wonders.pop()
    assert not effects.has_hook(c, hook)
    assert board.ratings(c) == base
    assert not effects.has_hook(c, "military_action_as_civil_action")
    c.leader = card("hammurabi")
    assert effects.has_hook(c, "military_action_as_civil_action")
    c.leader = -1
    assert not effects.has_hook(c, "military_action_as_civil_action")
    assert effects.urban_discount(c, 2) == 0
    develop(c, "masonry")  # TTA-7.6: by_age II = 1
    assert effects.urban_discount(c, 2) == 1
    assert effects.wonder_stages_per_action(c) == 2
    develop(c, "architecture")  # replaces Masonry in the construction special slot
    assert (effects.urban_discount(c, 2), effects.wonder_stages_per_action(c)) == (2, 3)
    c.special[3] = -1
    assert (effects.urban_discount(c, 2), effects.wonder_stages_per_action(c)) == (0, 1)
