"""The canonical scenarios T-01 … T-35 of SW-17 (shared/rules/seven_wonders.md), one test or
more per scenario, named after its id. Positions are built with :mod:`.scenario`; everything the
scenario asserts is then observed through the engine: legal actions, ``apply``, coins after the
step, ``result()`` / ``scoring.city_breakdown`` and the payment functions.

Seats P0..Pn-1 are clockwise, LEFT(Pi) = P(i+1), RIGHT(Pi) = P(i-1) (SW-0.6).
"""

from __future__ import annotations

from collections import Counter

import pytest

from civtable.core.errors import IllegalActionError
from civtable.games.seven_wonders import scoring
from civtable.games.seven_wonders.actions import DISCARD, FREE, HALI, HALI_PASS, PAY, STAGE
from civtable.games.seven_wonders.catalog import CARDS, GUILDS, RES_INDEX
from civtable.games.seven_wonders.rules import trade, turn
from civtable.games.seven_wonders.state import EXTRA, HALI_PHASE, MAIN, SevenWondersState

from .scenario import (
    act,
    build,
    card,
    city,
    coins,
    dealt,
    hand,
    names,
    new,
    pay,
    pile,
    play_step,
    play_to_end,
    play_until,
    spec_deck,
    stages,
    tokens,
)


def legal(state: SevenWondersState, seat: int) -> set[int]:
    return set(state.legal_actions(seat))


def stage_ids(state: SevenWondersState, seat: int) -> set[int]:
    return {a for a in state.legal_actions(seat) if STAGE <= a < DISCARD}


def free_ids(state: SevenWondersState, seat: int) -> set[int]:
    return {a for a in state.legal_actions(seat) if FREE <= a < HALI}


def card_payments(state: SevenWondersState, c: int, card_id: str) -> tuple[tuple[int, int], ...]:
    k = CARDS[card(card_id)]
    return turn.affordable_payments(state, c, k.cost_id, k.coin_cost)


def vec(**units: int) -> tuple[int, ...]:
    v = [0] * 7
    for code, n in units.items():
        v[RES_INDEX[code]] = n
    return tuple(v)


# --- T-01 … T-07: scoring ------------------------------------------------------------------
GREENS_T01 = ("apothecary", "dispensary", "lodge", "workshop", "laboratory", "scriptorium")


def test_t_01_science_without_wilds() -> None:
    s = new(3, ["giza", "rhodes", "ephesus"])
    build(s, 0, *GREENS_T01)
    assert city(s, 0).science == [3, 2, 1]
    assert scoring.city_breakdown(s, 0)["science"] == 21  # not 27 (AMB-01)
    assert s.result().breakdown[0]["science"] == 21


def test_t_02_science_second_complete_set() -> None:
    s = new(3, ["giza", "rhodes", "ephesus"])
    build(s, 0, *GREENS_T01, "library")
    assert s.result().breakdown[0]["science"] == 31


def test_t_03_one_wild_symbol_babylon_a() -> None:
    s = new(3, ["babylon", "rhodes", "ephesus"], "A")
    build(s, 0, "apothecary", "dispensary", "workshop", "laboratory", "scriptorium")
    stages(s, 0, 2)
    assert city(s, 0).wilds == 1
    assert s.result().breakdown[0]["science"] == 26


def test_t_04_two_wilds_on_one_symbol() -> None:
    s = new(3, ["babylon", "rhodes", "ephesus"], "B")
    build(s, 0, "scriptorium", "library", "school", "university", "scientists_guild")
    stages(s, 0, 3)
    b = s.result().breakdown[0]
    assert b["science"] == 36
    assert b["guilds"] == 0  # SW-12.8: the Scientists Guild scores in science


def test_t_05_two_wilds_balanced_split_not_best() -> None:
    s = new(3, ["babylon", "rhodes", "ephesus"], "A")
    build(s, 0, "apothecary", "workshop", "scriptorium", "library", "university")
    build(s, 0, "scientists_guild")
    stages(s, 0, 2)
    assert s.result().breakdown[0]["science"] == 34


@pytest.mark.parametrize(("amount", "points"), [(14, 4), (17, 5), (2, 0)])
def test_t_06_treasury(amount: int, points: int) -> None:
    s = new(3, ["giza", "rhodes", "ephesus"])
    coins(s, 0, amount)
    r = s.result()
    assert r.breakdown[0]["treasury"] == points
    assert city(s, 0).coins == amount  # coins are kept ...
    assert r.tiebreak[0] == amount  # ... and break ties (SW-13.2)


def test_t_07_military_category_and_defeat_tokens() -> None:
    # P0 (1 shield) beats P1 (0) and loses to P2 (2) in every age: +1 +3 +5 and three -1.
    s = new(3, ["ephesus", "giza", "rhodes"])
    build(s, 0, "stockade")
    build(s, 2, "walls")
    build(s, 1, "strategists_guild")  # P1's neighbours are P2 and P0
    play_to_end(s)
    assert sorted(city(s, 0).tokens) == [-1, -1, -1, 1, 3, 5]
    r = s.result()
    assert r.breakdown[0]["military"] == 6
    assert s.view(None)["cities"][0]["defeat_tokens"] == 3
    assert r.breakdown[1]["guilds"] == 3 + 0  # P0's 3 defeats + P2's none


# --- T-08 … T-10: conflicts ------------------------------------------------------------------
def test_t_08_conflict_resolution_seed_example() -> None:
    s = new(3, ["alexandria", "rhodes", "ephesus"], age=2, turn=6)
    build(s, 0, "walls", "stockade")  # Alexandria 3
    build(s, 1, "walls", "barracks")
    stages(s, 1, 2)  # Rhodes A stage 2: 2 shields -> 5
    build(s, 2, "stockade", "guard_tower")  # Ephesus 2
    assert [c.shields for c in s.cities] == [3, 5, 2]
    play_step(s)  # turn 6; the age ends
    assert s.age == 3
    assert sorted(city(s, 0).tokens) == [-1, 3]  # -1 vs Rhodes, +3 vs Ephesus
    # Rhodes: +3 from the Alexandria pair (and +3 from Rhodes-Ephesus in this 3-player ring).
    assert city(s, 1).tokens == [3, 3]
    # Ephesus: -1 from the Alexandria pair (and -1 against Rhodes).
    assert city(s, 2).tokens == [-1, -1]


def test_t_09_three_player_age_1_conflicts_with_rhodes_a() -> None:
    s = new(3, ["rhodes", "giza", "babylon"], "A", turn=6)
    stages(s, 0, 2)
    build(s, 0, "stockade")
    build(s, 1, "barracks", "guard_tower")
    assert [c.shields for c in s.cities] == [3, 2, 0]
    play_step(s)
    assert s.age == 2
    assert city(s, 0).tokens == [1, 1]
    assert sorted(city(s, 1).tokens) == [-1, 1]
    assert city(s, 2).tokens == [-1, -1]
    assert [b["military"] for b in s.result().breakdown] == [2, 0, -2]


def test_t_10_equal_strength_no_token() -> None:
    s = new(4, ["giza", "rhodes", "ephesus", "babylon"], age=3, turn=6)
    build(s, 0, "fortifications", "stockade")
    build(s, 1, "walls", "stables")
    assert city(s, 0).shields == city(s, 1).shields == 4
    play_step(s)
    assert s.is_terminal()
    # Only the pairs against the 0-shield cities gave tokens: P0 vs P3, P1 vs P2.
    assert city(s, 0).tokens == [5]
    assert city(s, 1).tokens == [5]


# --- T-11 … T-13: chains and duplicates -----------------------------------------------------
def test_t_11_chain_build_is_free() -> None:
    s = new(3, ["babylon", "giza", "rhodes"], age=2)
    build(s, 0, "scriptorium")
    coins(s, 0, 0)
    hand(s, 0, "library", "courthouse", "walls")
    assert act("build", "library") in legal(s, 0)
    assert act("build", "courthouse") in legal(s, 0)
    assert s.describe(0, act("build", "library")) == "build Library for free (chain)"
    play_step(s, {0: [act("build", "library")]})
    assert "library" in names(city(s, 0).built)
    assert city(s, 0).coins == 0
    assert city(s, 0).science == [0, 0, 2]  # Scriptorium + Library tablets


def test_t_11_without_parent_library_is_illegal() -> None:
    s = new(3, ["babylon", "giza", "rhodes"], age=2)
    coins(s, 0, 0)
    hand(s, 0, "library", "courthouse", "walls")
    assert act("build", "library") not in legal(s, 0)
    with pytest.raises(IllegalActionError):
        s.apply(0, act("build", "library"))


def test_t_12_chain_only_from_own_city() -> None:
    s = new(3, ["olympia", "babylon", "rhodes"], age=2)
    build(s, 1, "scriptorium", "loom_age1")  # LEFT(P0) has the parent (and a loom)
    build(s, 2, "quarry")  # RIGHT(P0) sells S×2
    coins(s, 0, 6)
    hand(s, 0, "library", "walls")
    assert card_payments(s, 0, "library") == ((2, 4),)  # full S×2 + L cost
    assert "chain" not in s.describe(0, act("build", "library"))
    play_step(s, {0: [act("build", "library")]})
    assert city(s, 0).coins == 0
    s2 = new(3, ["olympia", "babylon", "rhodes"], age=2)
    build(s2, 1, "scriptorium", "loom_age1")
    build(s2, 2, "quarry")
    coins(s2, 0, 5)
    hand(s2, 0, "library", "walls")
    assert act("build", "library") not in legal(s2, 0)


def test_t_13_no_duplicates_across_ages() -> None:
    s = new(3, ["giza", "rhodes", "babylon"], age=2)
    build(s, 0, "loom_age1", "stone_pit")  # stone pit: Giza A stage 1 (S×2) is affordable
    hand(s, 0, "loom_age2", "glassworks_age2", "walls")
    options = legal(s, 0)
    assert act("build", "loom_age2") not in options
    assert act("stage", "loom_age2") in options
    assert act("discard", "loom_age2") in options
    assert act("build", "glassworks_age2") in options
    before = s.state_hash()
    with pytest.raises(IllegalActionError):
        s.apply(0, act("build", "loom_age2"))
    assert s.state_hash() == before
    discard = s.copy()
    play_step(discard, {0: [act("discard", "loom_age2")]})
    assert city(discard, 0).coins == 6
    play_step(s, {0: [act("stage", "loom_age2")]})
    assert city(s, 0).stages == 1


# --- T-14 … T-21: commerce ------------------------------------------------------------------
def _t14() -> SevenWondersState:
    s = new(3, ["olympia", "babylon", "rhodes"], age=3)
    build(s, 0, "glassworks_age1")
    build(s, 1, "lumber_yard")
    build(s, 2, "press_age1")
    coins(s, 0, 4)
    hand(s, 0, "university", "palace")
    return s


def test_t_14_basic_purchase_seed_example_a() -> None:
    s = _t14()
    assert card_payments(s, 0, "university") == ((2, 2),)
    assert s.describe(0, act("build", "university")) == (
        "build University, pay 2 to the left neighbour and 2 to the right neighbour"
    )
    play_step(s, {0: [act("build", "university")]})  # P1 and P2 discard (+3 each)
    assert "university" in names(city(s, 0).built)
    assert [c.coins for c in s.cities] == [0, 3 + 2 + 3, 3 + 2 + 3]


def test_t_14_three_coins_is_not_enough() -> None:
    s = _t14()
    coins(s, 0, 3)
    assert card_payments(s, 0, "university") == ()
    assert act("build", "university") not in legal(s, 0)


def _t15(east_trading_post: bool = True) -> SevenWondersState:
    s = new(3, ["olympia", "giza", "babylon"], age=3)
    build(s, 0, "marketplace")
    if east_trading_post:
        build(s, 0, "east_trading_post")
    build(s, 1, "ore_vein", "loom_age1")  # LEFT
    build(s, 2, "foundry", "glassworks_age1")  # RIGHT
    coins(s, 0, 5)
    hand(s, 0, "observatory", "palace")
    return s


def test_t_15_purchases_with_discounts() -> None:
    s = _t15()
    # cheapest: O,O,G from RIGHT at 1 (3) + L from LEFT at 1; next: one ore from LEFT at 2.
    assert card_payments(s, 0, "observatory") == ((1, 3), (3, 2))
    s.apply(0, act("build", "observatory"))
    assert sorted(s.legal_actions(0)) == sorted([pay(1, 3), pay(3, 2)])
    assert s.describe(0, pay(1, 3)) == "pay 1 to the left neighbour and 3 to the right neighbour"
    play_step(s, {0: [pay(1, 3)]})
    assert [c.coins for c in s.cities] == [1, 3 + 1 + 3, 3 + 3 + 3]


def test_t_15_without_east_trading_post_minimum_is_6() -> None:
    s = _t15(east_trading_post=False)
    coins(s, 0, 20)
    options = card_payments(s, 0, "observatory")
    assert min(left + right for left, right in options) == 6
    assert act("build", "observatory") in legal(s, 0)
    coins(s, 0, 5)
    assert act("build", "observatory") not in legal(s, 0)


def test_t_16_discounts_do_not_stack() -> None:
    s = new(3, ["olympia", "giza", "rhodes"], ["B", "A", "A"], age=2)
    stages(s, 0, 1)  # Olympia B stage 1: raw from both neighbours at 1
    build(s, 0, "west_trading_post", "press_age1")
    build(s, 1, "brickyard")  # LEFT
    hand(s, 0, "laboratory", "walls")  # C×2 + P: only C×2 is bought
    assert card_payments(s, 0, "laboratory") == ((2, 0),)  # 1 each, not 0
    play_step(s, {0: [act("build", "laboratory")]})
    assert city(s, 0).coins == 1
    assert city(s, 1).coins == 3 + 2 + 3


def test_t_17_what_cannot_be_bought() -> None:
    s = new(3, ["rhodes", "giza", "alexandria"], ["A", "A", "B"], age=3)
    stages(s, 2, 2)  # RIGHT(P0): Alexandria B stages 1-2 (owner-only production)
    build(s, 2, "caravansery", "forum", "glassworks_age1")
    sig = city(s, 2).trade_sig
    assert trade.can_supply(sig, vec(G=2))
    assert not trade.can_supply(sig, vec(G=3))
    for code in "WSCOLP":
        assert not trade.can_supply(sig, vec(**{code: 1})), code
    build(s, 0, "stone_pit")
    hand(s, 0, "lighthouse", "gardens", "study")
    assert card_payments(s, 0, "lighthouse") == ((0, 2),)  # S own, G from RIGHT
    options = legal(s, 0)
    assert act("build", "lighthouse") in options
    assert act("build", "gardens") not in options  # W + C×2: nobody sells W or C
    assert act("build", "study") not in options  # W + L + P


def _t18(right_card: str) -> SevenWondersState:
    s = new(3, ["rhodes", "babylon", "ephesus"], age=3)
    build(s, 1, "timber_yard")  # LEFT: S or W, one unit per buyer
    build(s, 2, right_card)  # RIGHT
    coins(s, 0, 10)
    hand(s, 0, "senate", "palace")
    return s


def test_t_18_two_choice_card_supplies_one_unit() -> None:
    s = _t18("lumber_yard")
    assert card_payments(s, 0, "senate") == ()
    assert act("build", "senate") not in legal(s, 0)


def test_t_18_variant_with_sawmill_costs_6() -> None:
    s = _t18("sawmill")
    assert card_payments(s, 0, "senate") == ((2, 4),)
    play_step(s, {0: [act("build", "senate")]})
    assert [c.coins for c in s.cities] == [4, 3 + 2 + 3, 3 + 4 + 3]


def test_t_19_coins_earned_this_step_are_not_usable() -> None:
    s = new(3, ["babylon", "olympia", "rhodes"], age=2)
    coins(s, 0, 1)
    hand(s, 0, "forum", "walls")
    build(s, 2, "clay_pool")  # RIGHT(P0) produces C
    build(s, 1, "glassworks_age1")  # LEFT(P0) (Olympia, W) needs one C for Temple
    hand(s, 1, "temple", "statue")
    k = CARDS[card("forum")]
    c0, c1, c2 = s.cities
    assert trade.payment_options(k.cost_id, c0.own_sig, c1.trade_sig, c2.trade_sig, 0) == ((0, 2),)
    assert act("build", "forum") not in legal(s, 0)  # 2 > 1 coin at step start
    s.apply(1, act("build", "temple"))
    assert sorted(s.legal_actions(1)) == sorted([pay(2, 0), pay(0, 2)])
    play_step(s, {0: [act("discard", "walls")], 1: [pay(0, 2)]})  # P1 buys from RIGHT(P1) = P0
    assert city(s, 0).coins == 1 + 2 + 3 == 6
    assert city(s, 1).coins == 1


def test_t_20_selling_does_not_block_own_use() -> None:
    s = new(3, ["olympia", "babylon", "rhodes"], age=2)
    build(s, 0, "quarry", "loom_age1")
    for c in (1, 2):
        build(s, c, "loom_age1")
        coins(s, c, 4)
        hand(s, c, "library", "walls")
    hand(s, 0, "library", "walls")
    assert card_payments(s, 0, "library") == ((0, 0),)
    assert card_payments(s, 1, "library") == ((0, 4),)  # S×2 from RIGHT(P1) = P0
    assert card_payments(s, 2, "library") == ((4, 0),)  # S×2 from LEFT(P2) = P0
    play_step(s, {seat: [act("build", "library")] for seat in range(3)})
    assert all("library" in names(c.built) for c in s.cities)
    assert [c.coins for c in s.cities] == [3 + 8, 0, 0]


def test_t_21_purchases_use_start_of_step_snapshot() -> None:
    boards = ["babylon", "giza", "alexandria", "ephesus", "olympia", "halikarnassus", "rhodes"]
    s = new(7, boards)  # P0's neighbours: Giza (S) and Rhodes (O); no wood anywhere near
    hand(s, 0, "stockade", "altar", "theater")
    hand(s, 6, "lumber_yard", "stockade", "baths")  # RIGHT(P0); this hand then passes to P0
    assert act("build", "stockade") not in legal(s, 0)  # step t: nobody sells W yet
    play_step(s, {0: [act("discard", "altar")], 6: [act("build", "lumber_yard")]})
    assert names(s.hands[0]) == ["stockade", "baths"]
    assert card_payments(s, 0, "stockade") == ((0, 2),)  # step t+1: W from the new card
    assert s.describe(0, act("build", "stockade")) == "build Stockade, pay 2 to the right neighbour"


# --- T-22 … T-25: commercial cards -----------------------------------------------------------
def test_t_22_vineyard_counts_same_step_neighbour_builds() -> None:
    s = new(3, ["giza", "olympia", "rhodes"], age=2)
    build(s, 0, "lumber_yard", "clay_pool", "ore_vein")
    build(s, 1, "stone_pit", "timber_yard")  # LEFT: 2 brown, builds Sawmill now
    build(s, 2, "clay_pit")  # RIGHT: 1 brown
    hand(s, 0, "vineyard", "walls")
    hand(s, 1, "sawmill", "walls")
    play_step(s, {0: [act("build", "vineyard")], 1: [act("build", "sawmill")]})
    assert city(s, 0).coins == 3 + 7
    assert city(s, 1).coins == 3 - 1


def test_t_23_bazar() -> None:
    s = new(4, ["giza", "olympia", "rhodes", "babylon"], age=2)
    build(s, 0, "loom_age1")
    build(s, 1, "glassworks_age1", "press_age1")  # LEFT
    build(s, 2, "loom_age1")  # not a neighbour of P0
    hand(s, 0, "bazar", "walls")
    play_step(s, {0: [act("build", "bazar")]})
    assert city(s, 0).coins == 3 + 6


def test_t_24_lighthouse_counts_itself() -> None:
    s = new(4, ["giza", "rhodes", "babylon", "alexandria"], age=3)
    build(s, 0, "east_trading_post", "marketplace", "caravansery", "dispensary")
    build(s, 1, "press_age1")  # LEFT sells P
    build(s, 3, "brickyard")  # RIGHT sells C
    hand(s, 0, "lighthouse", "palace", "pantheon", "senate", "gardens", "study", "lodge")
    hand(s, 3, "chamber_of_commerce", "palace", "pantheon", "senate", "gardens", "study", "lodge")
    hand(s, 2, "arena", "palace", "pantheon", "senate", "gardens", "study", "lodge")
    assert s.describe(0, act("build", "lighthouse")) == "build Lighthouse for free (chain)"
    play_step(s, {0: [act("build", "lighthouse")]})
    assert city(s, 0).coins == 3 + 4
    # Turn 2 (hand from RIGHT): Chamber of Commerce, C from RIGHT at 1 + P from LEFT at 1.
    assert card_payments(s, 0, "chamber_of_commerce") == ((1, 1),)
    play_step(s, {0: [act("build", "chamber_of_commerce")]})
    assert city(s, 0).coins == 7 - 2 + 0  # no grey card: +0
    play_step(s, {0: [act("build", "arena")]})  # free by chain from Dispensary; no stage: +0
    assert city(s, 0).coins == 5
    b = scoring.city_breakdown(s, 0)
    assert city(s, 0).colors[4] == 6
    assert b["commercial"] == 6  # Lighthouse 6 + Chamber 0 + Arena 0


def test_t_25_age_3_commercial_cards() -> None:
    s = new(4, ["ephesus", "rhodes", "babylon", "alexandria"], "A", age=3)
    stages(s, 0, 2)
    build(s, 0, "sawmill", "quarry", "brickyard", "foundry")
    build(s, 0, "loom_age1", "glassworks_age1", "press_age1")
    filler = ("palace", "pantheon", "senate", "gardens", "study", "lodge")
    hand(s, 0, "arena", *filler)
    hand(s, 3, "chamber_of_commerce", *filler)
    hand(s, 2, "haven", *filler)
    play_step(s, {0: [act("build", "arena")]})
    assert city(s, 0).coins == 3 + 6
    play_step(s, {0: [act("build", "chamber_of_commerce")]})
    assert city(s, 0).coins == 9 + 6
    play_step(s, {0: [act("build", "haven")]})
    assert city(s, 0).coins == 15 + 4
    marker = s.hands[0][0]
    play_step(s, {0: [STAGE + marker]})  # stage 3 (P×2: board + Press)
    assert city(s, 0).stages == 3
    assert city(s, 0).coins == 19
    assert scoring.city_breakdown(s, 0)["commercial"] == 3 + 6 + 4


# --- T-26 … T-28: turn 6, Halikarnassus, Olympia, Babylon -----------------------------------
def _t26() -> SevenWondersState:
    s = new(3, ["halikarnassus", "rhodes", "giza"], "A", turn=6)
    stages(s, 0, 1)
    build(s, 0, "ore_vein", "clay_pit")  # O×2 of the stage's O×3; one ore bought from Rhodes
    build(s, 2, "guard_tower")
    pile(s, "altar")
    hand(s, 0, "lumber_yard", "clay_pool")
    hand(s, 1, "baths", "stockade")
    hand(s, 2, "theater", "press_age1")
    play_step(
        s,
        {
            0: [act("stage", "lumber_yard")],
            1: [act("discard", "baths")],
            2: [act("build", "theater")],
        },
    )
    return s


def test_t_26_halikarnassus_sees_the_whole_turn_6_pile() -> None:
    s = _t26()
    assert s.phase == HALI_PHASE
    assert s.to_move() == (0,)
    assert names(s.discard) == ["altar", "baths", "clay_pool", "stockade", "press_age1"]
    expected = {act("hali", t) for t in ("altar", "baths", "clay_pool", "stockade", "press_age1")}
    assert legal(s, 0) == expected | {HALI_PASS}
    assert [c.coins for c in s.cities] == [1, 3 + 2 + 3, 3]


def test_t_26_halikarnassus_takes_stockade_before_conflicts() -> None:
    s = _t26()
    s.apply(0, act("hali", "stockade"))
    assert s.age == 2
    assert "stockade" in names(city(s, 0).built)
    assert "stockade" not in names(s.discard)
    assert city(s, 0).coins == 1  # free build
    assert city(s, 0).tokens == [1]  # +1 vs P1, tie with P2
    assert city(s, 1).tokens == [-1, -1]
    assert city(s, 2).tokens == [1]


def test_t_26_halikarnassus_takes_nothing() -> None:
    s = _t26()
    s.apply(0, HALI_PASS)
    assert s.age == 2
    assert city(s, 0).tokens == [-1]
    assert city(s, 1).tokens == [-1]
    assert city(s, 2).tokens == [1, 1]


def test_t_27_olympia_a_free_build() -> None:
    boards = ["olympia", "babylon", "alexandria", "ephesus", "halikarnassus", "rhodes"]
    s = new(6, boards, "A", turn=2)
    stages(s, 0, 1)
    build(s, 0, "stone_pit", "excavation", "loom_age1")  # S×2 for stage 2
    fill = ("altar", "theater", "baths", "pawnshop")
    hand(s, 0, "clay_pool", "stockade", *fill)
    hand(s, 4, "tree_farm", "stockade", *fill)  # reaches P0 on turn 4
    hand(s, 3, "barracks", "stockade", *fill)  # reaches P0 on turn 5
    assert not free_ids(s, 0)
    play_step(s, {0: [act("stage", "clay_pool")]})  # turn 2: stage 2 completed
    assert city(s, 0).stages == 2
    assert free_ids(s, 0)  # turn 3: available from the next step on
    play_step(s)  # P0 discards (+3)
    assert city(s, 0).coins == 6
    assert act("free", "tree_farm") in legal(s, 0)
    play_step(s, {0: [act("free", "tree_farm")]})  # turn 4
    assert city(s, 0).coins == 6  # Tree Farm's coin is waived
    assert "tree_farm" in names(city(s, 0).built)
    assert not free_ids(s, 0)  # turn 5: used this age
    assert card_payments(s, 0, "barracks") == ((0, 2),)  # O from Rhodes
    play_step(s, {0: [act("build", "barracks")]})
    assert city(s, 0).coins == 4  # normal payment
    play_until(s, 2)
    hand(s, 0, "aqueduct", "loom_age2", "walls")
    options = legal(s, 0)
    assert act("free", "aqueduct") in options  # available again in Age II
    assert act("build", "aqueduct") not in options  # S×3 unaffordable otherwise
    assert act("free", "loom_age2") not in options  # already owns Loom (SW-4.3)
    assert not stage_ids(s, 0)  # stage 3 (O×2) is never paid by the free build
    assert "Aqueduct" in s.describe(0, act("free", "aqueduct"))
    coins_before = city(s, 0).coins
    play_step(s, {0: [act("free", "aqueduct")]})
    assert "aqueduct" in names(city(s, 0).built)
    assert city(s, 0).coins == coins_before


def _t28() -> SevenWondersState:
    s = new(4, ["babylon", "giza", "ephesus", "rhodes"], ["B", "A", "A", "A"], turn=6)
    stages(s, 0, 1)
    build(s, 0, "loom_age1", "lumber_yard", "glassworks_age1")
    build(s, 3, "lumber_yard")  # RIGHT
    coins(s, 0, 4)
    hand(s, 0, "press_age1", "tavern")
    hand(s, 1, "altar", "theater")
    hand(s, 2, "baths", "stockade")
    hand(s, 3, "barracks", "workshop")
    return s


def test_t_28_babylon_b_stage_2_then_seventh_card() -> None:
    s = _t28()
    assert turn.stage_payments(s, 0) == ((0, 2),)  # own W + own G + W from RIGHT
    play_step(s, {0: [act("stage", "press_age1")]})  # others discard their last card
    assert s.phase == EXTRA
    assert s.to_move() == (0,)
    assert city(s, 0).stages == 2
    # the others' leftover cards are already on the pile, without coins
    assert Counter(names(s.discard)) == Counter(
        ["theater", "stockade", "workshop", "altar", "baths", "barracks"]
    )
    assert [c.coins for c in s.cities] == [2, 6, 6, 3 + 3 + 2]
    assert act("build", "tavern") in legal(s, 0)
    s.apply(0, act("build", "tavern"))
    assert s.age == 2
    assert "tavern" in names(city(s, 0).built)
    assert city(s, 0).coins == 4 - 2 + 5
    assert city(s, 3).coins == 3 + 3 + 2
    assert "press_age1" not in names(s.discard)
    assert names(city(s, 0).stage_cards)[-1] == "press_age1"


def test_t_28_tavern_in_main_step_means_no_seventh_card() -> None:
    s = _t28()
    play_step(s, {0: [act("build", "tavern")]})
    assert s.age == 2  # no extra step
    assert city(s, 0).stages == 1
    assert city(s, 0).coins == 4 + 5  # Press discarded without coins
    assert "press_age1" in names(s.discard)


# --- T-29 … T-31: guilds and the winner -----------------------------------------------------
def _t29(magistrates: bool = True, copy: bool = True) -> SevenWondersState:
    s = new(5, ["olympia", "giza", "rhodes", "ephesus", "babylon"], ["B", "A", "A", "A", "A"])
    stages(s, 0, 3 if copy else 2)
    if magistrates:
        build(s, 1, "magistrates_guild")
    build(s, 1, "altar", "theater", "baths", "pawnshop", "stockade")  # 4 blue, 1 red
    build(s, 4, "spies_guild", "altar", "theater", "stockade", "barracks", "guard_tower")
    build(s, 2, "altar")  # P1's other neighbour
    return s


def test_t_29_olympia_b_copies_the_better_guild() -> None:
    s = _t29()
    r = s.result()
    assert r.breakdown[0]["guilds"] == 6  # Magistrates: blue 4 + 2 (Spies would give 4)
    assert r.breakdown[1]["guilds"] == 0 + 1  # P1's own Magistrates: P0 0 blue + P2 1 blue
    uncopied = _t29(copy=False).result()
    assert uncopied.breakdown[0]["guilds"] == 0
    assert uncopied.breakdown[1]["guilds"] == r.breakdown[1]["guilds"]
    assert _t29(magistrates=False).result().breakdown[0]["guilds"] == 4  # then Spies: 1 + 3


T30_EXPECTED = {
    "workers_guild": 7,
    "craftsmens_guild": 6,
    "traders_guild": 2,
    "philosophers_guild": 4,
    "spies_guild": 3,
    "magistrates_guild": 6,
    "strategists_guild": 4,
    "shipowners_guild": 9,
    "builders_guild": 6,
}


@pytest.mark.parametrize(("guild", "points"), sorted(T30_EXPECTED.items()))
def test_t_30_guild_formulas(guild: str, points: int) -> None:
    s = new(3, ["giza", "rhodes", "babylon"], "A")
    # P0: 4 brown, 3 grey, 2 purple (the guild under test + the Scientists Guild), 2 stages
    build(s, 0, "lumber_yard", "stone_pit", "clay_pool", "ore_vein")
    build(s, 0, "loom_age1", "glassworks_age1", "press_age1", guild, "scientists_guild")
    stages(s, 0, 2)
    # LEFT: 3 brown, 2 grey, 2 yellow, 1 green, 2 red, 4 blue, 3 stages, 3 defeats
    build(s, 1, "lumber_yard", "stone_pit", "clay_pool", "loom_age1", "glassworks_age1")
    build(s, 1, "tavern", "east_trading_post", "apothecary", "stockade", "barracks")
    build(s, 1, "altar", "theater", "baths", "pawnshop")
    stages(s, 1, 3)
    tokens(s, 1, -1, -1, -1)
    # RIGHT: 4 brown, 1 grey, 0 yellow, 3 green, 1 red, 2 blue, 1 stage, 1 defeat
    build(s, 2, "lumber_yard", "stone_pit", "clay_pool", "ore_vein", "press_age1")
    build(s, 2, "apothecary", "workshop", "scriptorium", "stockade", "altar", "theater")
    stages(s, 2, 1)
    tokens(s, 2, -1)
    assert s.result().breakdown[0]["guilds"] == points


BLUES = (
    "palace",
    "pantheon",
    "town_hall",
    "senate",
    "gardens",
    "aqueduct",
    "statue",
    "courthouse",
    "temple",
    "baths",
    "pawnshop",
    "altar",
    "theater",
)  # 8+7+6+6+5+5+4+4+3+3+3+2+2 = 58 VP


def _t31(b_coins: int) -> SevenWondersState:
    """A 58 VP with 7 coins, B 58 VP with ``b_coins`` coins, C 57 VP with 20 coins."""
    s = new(3, ["giza", "rhodes", "babylon"], "A")
    b_left_out = {9: "pawnshop", 7: "altar"}[b_coins]  # 58 - treasury - 58 of the blues
    for c, (left_out, amount) in enumerate([("altar", 7), (b_left_out, b_coins), ("pantheon", 20)]):
        build(s, c, *(b for b in BLUES if b != left_out))
        coins(s, c, amount)
    return s


def test_t_31_winner_by_coins() -> None:
    r = _t31(9).result()
    assert r.scores == (58, 58, 57)  # A 56 + 2, B 55 + 3, C 51 + 6
    assert r.winners == (1,)
    assert r.ranking == (1, 0, 2)


def test_t_31_shared_victory() -> None:
    r = _t31(7).result()
    assert r.scores == (58, 58, 57)
    assert r.winners == (0, 1)
    assert r.rewards() == (0.5, 0.5, 0.0)
    assert r.ranking[2] == 2  # C never wins


# --- T-32 … T-35: setup, passing, 2 players, stage order ------------------------------------
def test_t_32_four_player_setup() -> None:
    s = new(4, ["giza", "rhodes", "babylon", "olympia"], seed=11)
    assert [len(h) for h in s.hands] == [7, 7, 7, 7]
    assert [c.coins for c in s.cities] == [3, 3, 3, 3]
    age1 = dealt(s)
    assert sum(age1.values()) == 28
    assert age1 == spec_deck(1, 4)
    for twice in ("lumber_yard", "ore_vein", "guard_tower", "scriptorium"):
        assert age1[twice] == 2
    for absent in ("forest_cave", "tree_farm", "mine"):
        assert age1[absent] == 0
    play_until(s, 2)
    assert dealt(s) == spec_deck(2, 4)
    assert [len(h) for h in s.hands] == [7, 7, 7, 7]
    play_until(s, 3)
    age3 = dealt(s)
    guilds = {CARDS[g].id for g in GUILDS}
    assert sum(n for k, n in age3.items() if k in guilds) == 6
    assert all(age3[g] <= 1 for g in guilds)
    assert Counter({k: n for k, n in age3.items() if k not in guilds}) == spec_deck(3, 4)


def test_t_33_passing_directions() -> None:
    s = new(5, ["giza", "rhodes", "babylon", "olympia", "ephesus"], seed=5)
    for age, to_left in ((1, True), (2, False), (3, True)):
        play_until(s, age)
        assert s.view(0)["direction"] == ("left" if to_left else "right")
        before = [h[:-1] for h in s.hands]  # each seat discards its last card
        play_step(s)
        if to_left:  # P0 -> P1, P0 <- P4
            assert s.hands[1] == before[0]
            assert s.hands[0] == before[4]
        else:  # P0 -> P4, P0 <- P1
            assert s.hands[4] == before[0]
            assert s.hands[0] == before[1]


def test_t_34_two_player_hand_flow() -> None:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=3)
    for age, first in ((1, 0), (2, 1), (3, 0)):
        assert (s.age, s.turn) == (age, 1)
        ctrl = s.controller - 1
        assert ctrl == first
        other = 1 - ctrl
        assert len(s.hands[s.controller]) == 8  # 7 + the FC pile card
        assert len(s.hands[other + 1]) == 7
        assert len(s.hands[0]) == 6  # FC pile after the draw
        assert sum(map(len, s.hands)) == 21
        controllers = []
        actions: Counter[int] = Counter()
        for t in range(1, 7):
            assert s.turn == t
            controllers.append(s.controller - 1)
            assert len(s.hands[s.controller]) == 8 - t + 1
            pile_before = len(s.discard)
            coins_before = [c.coins for c in s.cities]
            discards = 0
            fc_discarded = False
            start = (s.age, s.turn)
            while (s.age, s.turn) == start and s.to_move():
                seat = s.to_move()[0]
                c = s.current_city(seat)
                a = s.legal_actions(seat)
                hand_cards = s.hands[s.controller] if c == 0 else s.hands[c]
                action = DISCARD + hand_cards[-1] if DISCARD + hand_cards[-1] in a else a[0]
                if action < PAY:
                    actions[c] += 1
                    discards += DISCARD <= action < FREE
                    fc_discarded |= c == 0 and DISCARD <= action < FREE
                s.apply(seat, action)
            if t == 6:  # the 2 leftover hand cards + the last pile card, without coins
                assert len(s.discard) == pile_before + discards + 3
                assert s.age == age + 1 or s.is_terminal()
                if fc_discarded:  # no sale to the FC: exactly +3 each, nothing for leftovers
                    for c in (1, 2):
                        assert s.cities[c].coins == coins_before[c] + 3
        assert controllers == [first, 1 - first] * 3
        assert actions == Counter({0: 6, 1: 6, 2: 6})  # 18 actions per age
    assert s.is_terminal()


def test_t_34_turn_1_card_counts() -> None:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=4)
    ctrl_city = s.controller
    seat = ctrl_city - 1
    s.apply(seat, DISCARD + s.hands[ctrl_city][-1])  # own city
    assert s.current_city(seat) == 0  # then the Free City's card, from the same hand
    assert len(s.hands[ctrl_city]) == 7
    play_step(s)
    # the controller kept 6, the other kept 6; hands were exchanged and the new controller drew
    assert s.controller == 3 - ctrl_city
    assert len(s.hands[s.controller]) == 7
    assert len(s.hands[ctrl_city]) == 6


def test_t_35_rhodes_b_stage_order_and_limit() -> None:
    s = new(3, ["rhodes", "giza", "babylon"], ["B", "A", "A"], turn=5)
    stages(s, 0, 1)
    build(s, 0, "foundry", "ore_vein")  # O×4 with the board's ore
    hand(s, 0, "altar", "theater", "baths")
    assert stage_ids(s, 0) == {act("stage", t) for t in ("altar", "theater", "baths")}
    assert "wonder stage 2" in s.describe(0, act("stage", "altar"))
    play_step(s, {0: [act("stage", "altar")]})
    assert city(s, 0).stages == 2
    assert city(s, 0).coins == 3 + 4  # Rhodes B stage 2
    assert not stage_ids(s, 0)  # no stage left
    play_step(s)  # turn 6: the age ends
    assert s.age == 2
    assert "altar" not in names(s.discard)  # a marker never reaches the pile
    assert names(city(s, 0).stage_cards)[-1] == "altar"


def test_t_35_giza_b_next_stage_only() -> None:
    s = new(3, ["giza", "rhodes", "alexandria"], ["B", "A", "A"])
    stages(s, 0, 2)
    build(s, 0, "quarry", "stone_pit", "press_age1")  # S×4 + P: stage 4's cost, not stage 3's
    hand(s, 0, "altar", "theater")
    assert not stage_ids(s, 0)  # stage 4 cannot be built before stage 3 (C×3)
    build(s, 0, "brickyard", "clay_pool")
    assert stage_ids(s, 0) == {act("stage", "altar"), act("stage", "theater")}
    assert "wonder stage 3" in s.describe(0, act("stage", "altar"))
    play_step(s, {0: [act("stage", "altar")]})
    assert city(s, 0).stages == 3
    assert s.phase == MAIN
