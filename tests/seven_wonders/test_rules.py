"""Rule tests for what the SW-17 scenarios do not cover, named by rule id
(shared/rules/seven_wonders.md). Positions are built with :mod:`.scenario` and played through the
public API.
"""

from __future__ import annotations

from collections import Counter

import pytest

from civtable.core.errors import NotYourTurnError
from civtable.games.seven_wonders import scoring
from civtable.games.seven_wonders.actions import DISCARD, FREE, HALI, HALI_PASS, card_of
from civtable.games.seven_wonders.catalog import CARDS, GUILDS
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
    play_until,
    spec_deck,
    stages,
)

BOARDS7 = ["giza", "rhodes", "babylon", "olympia", "ephesus", "alexandria", "halikarnassus"]
GUILD_IDS = {CARDS[g].id for g in GUILDS}


def legal(state: SevenWondersState, seat: int) -> set[int]:
    return set(state.legal_actions(seat))


def card_payments(state: SevenWondersState, c: int, card_id: str) -> tuple[tuple[int, int], ...]:
    k = CARDS[card(card_id)]
    return turn.affordable_payments(state, c, k.cost_id, k.coin_cost)


def split_guilds(cards: Counter[str]) -> tuple[Counter[str], Counter[str]]:
    guilds = Counter({k: n for k, n in cards.items() if k in GUILD_IDS})
    return Counter({k: n for k, n in cards.items() if k not in GUILD_IDS}), guilds


# --- SW-2 setup --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_sw_2_4_deck_sizes_and_sw_2_3_guild_count(players: int) -> None:
    n_cities = 3 if players == 2 else players
    s = new(players, BOARDS7[:n_cities], seed=players)
    for age in (1, 2, 3):
        play_until(s, age)
        cards = dealt(s)
        assert sum(cards.values()) == 7 * n_cities  # SW-2.4 (2 players: 7 + 7 + 7, SW-14.2)
        non_guild, guilds = split_guilds(cards)
        assert non_guild == spec_deck(age, players)  # SW-2.2 / SW-15.7
        expected_guilds = 0 if age < 3 else (5 if players == 2 else players + 2)
        assert sum(guilds.values()) == expected_guilds  # SW-2.3 / AMB-33
        assert all(k == 1 for k in guilds.values())


def test_sw_2_3_guilds_are_a_random_subset() -> None:
    seen = set()
    for seed in range(6):
        s = new(3, ["giza", "rhodes", "babylon"], seed=seed)
        play_until(s, 3)
        seen.add(frozenset(split_guilds(dealt(s))[1]))
    assert len(seen) > 1


# --- SW-3 flow ---------------------------------------------------------------------------------
def test_sw_3_6_turn_6_leftover_discarded_without_coins() -> None:
    s = new(3, ["giza", "rhodes", "babylon"], turn=6)
    hand(s, 0, "altar", "theater")
    hand(s, 1, "baths", "stockade")
    hand(s, 2, "loom_age1", "press_age1")
    play_step(
        s,
        {
            0: [act("build", "altar")],
            1: [act("discard", "stockade")],
            2: [act("discard", "press_age1")],
        },
    )
    assert s.age == 2  # no passing, the age ended
    assert [c.coins for c in s.cities] == [3, 6, 6]  # only the chosen discards pay
    # the chosen discards, then the leftovers (SW-8.4.1)
    assert names(s.discard) == ["stockade", "press_age1", "theater", "baths", "loom_age1"]


# --- SW-4 actions ------------------------------------------------------------------------------
def test_sw_4_3_no_duplicate_via_halikarnassus() -> None:
    s = new(3, ["halikarnassus", "rhodes", "giza"], "A", age=2)
    stages(s, 0, 1)
    build(s, 0, "foundry", "loom_age2")  # O×2 + Rhodes' ore for stage 2 (O×3)
    pile(s, "loom_age1", "altar")
    hand(s, 0, "walls", "temple")
    hand(s, 1, "statue", "school")
    hand(s, 2, "forum", "vineyard")
    play_step(s, {0: [act("stage", "walls")]})
    assert s.phase == HALI_PHASE
    # the Age I Loom has the same name as the Age II Loom already built
    assert act("hali", "loom_age1") not in legal(s, 0)
    assert act("hali", "altar") in legal(s, 0)
    assert act("hali", "school") in legal(s, 0)  # P1 discarded it this step
    s.apply(0, act("hali", "altar"))
    assert s.phase == MAIN
    assert s.turn == 2
    assert "altar" in names(city(s, 0).built)


def test_sw_10_11_halikarnassus_with_nothing_to_take_amb_31() -> None:
    s = new(3, ["halikarnassus", "rhodes", "giza"], "A", age=2)
    stages(s, 0, 1)
    build(s, 0, "foundry", "loom_age2")
    pile(s, "loom_age1")
    hand(s, 0, "walls", "temple")
    hand(s, 1, "glassworks_age2", "press_age2")
    hand(s, 2, "vineyard", "press_age2")
    plays = {1: [act("build", "glassworks_age2")], 2: [act("build", "vineyard")]}
    play_step(s, {0: [act("stage", "walls")], **plays})
    assert names(s.discard) == ["loom_age1"]
    assert city(s, 0).stages == 2
    assert s.phase == MAIN  # the ability is simply lost
    assert s.turn == 2


def test_sw_4_3_no_duplicate_via_olympia_free_build() -> None:
    s = new(3, ["olympia", "rhodes", "giza"], "A", age=2)
    stages(s, 0, 2)
    build(s, 0, "loom_age1", "altar")
    hand(s, 0, "loom_age2", "temple", "aqueduct")
    options = legal(s, 0)
    assert act("free", "loom_age2") not in options
    assert act("free", "aqueduct") in options
    # AMB-17: a chained card may still be taken with the free build (wasteful but legal)
    assert act("free", "temple") in options
    assert act("build", "temple") in options


def test_sw_4_5_one_stage_per_step_but_babylon_extra_step_is_another_step() -> None:
    s = new(3, ["babylon", "rhodes", "giza"], ["B", "A", "A"], age=2, turn=6)
    stages(s, 0, 1)
    build(s, 0, "sawmill", "glassworks_age1", "brickyard", "press_age1")
    hand(s, 0, "walls", "temple")
    s.apply(0, act("stage", "walls"))  # stage 2 (W×2 + G)
    assert 0 not in s.to_move()
    with pytest.raises(NotYourTurnError):
        s.apply(0, act("stage", "temple"))
    play_step(s)
    assert s.phase == EXTRA
    assert city(s, 0).stages == 2
    assert act("stage", "temple") in legal(s, 0)  # stage 3 (C×3 + P) in the extra step
    s.apply(0, act("stage", "temple"))
    assert city(s, 0).stages == 3
    assert s.age == 3


def test_sw_4_6_discard_always_legal() -> None:
    s = new(4, ["giza", "rhodes", "babylon", "olympia"], seed=9)
    for _ in range(6):
        for seat in s.to_move():
            assert {DISCARD + t for t in s.hands[seat]} <= legal(s, seat)
        play_step(s)


# --- SW-7 commerce -----------------------------------------------------------------------------
def test_sw_7_7_discount_from_the_next_step() -> None:
    s = new(3, ["giza", "rhodes", "babylon"])
    build(s, 1, "glassworks_age1")  # LEFT sells G
    hand(s, 0, "marketplace", "altar")
    hand(s, 2, "workshop", "theater")  # reaches P0 next turn
    assert card_payments(s, 0, "workshop") == ((2, 0),)
    play_step(s, {0: [act("build", "marketplace")]})
    assert card_payments(s, 0, "workshop") == ((1, 0),)
    play_step(s, {0: [act("build", "workshop")]})
    assert city(s, 0).coins == 2
    assert city(s, 1).coins == 3 + 3 + 3 + 1


def test_sw_7_7_olympia_b_stage_1_discount_from_the_next_step() -> None:
    s = new(3, ["olympia", "rhodes", "babylon"], ["B", "A", "A"])
    build(s, 0, "lumber_yard")  # W×2 for stage 1 with the board
    hand(s, 0, "altar", "theater")
    hand(s, 2, "barracks", "baths")  # reaches P0 next turn; O from Rhodes (LEFT)
    assert card_payments(s, 0, "barracks") == ((2, 0),)
    play_step(s, {0: [act("stage", "altar")]})
    assert card_payments(s, 0, "barracks") == ((1, 0),)


def test_sw_7_4_both_neighbours_buy_the_same_two_choice_unit() -> None:
    s = new(3, ["babylon", "rhodes", "olympia"])
    build(s, 0, "timber_yard")  # S or W, sold to each buyer independently (AMB-14)
    hand(s, 1, "stockade", "altar")  # LEFT(P0) buys W (P0 or Olympia)
    hand(s, 2, "baths", "theater")  # RIGHT(P0) buys S: only P0 has stone
    assert card_payments(s, 2, "baths") == ((2, 0),)
    s.apply(1, act("build", "stockade"))
    assert sorted(s.legal_actions(1)) == sorted([pay(2, 0), pay(0, 2)])
    play_step(s, {1: [pay(0, 2)], 2: [act("build", "baths")]})
    assert [c.coins for c in s.cities] == [3 + 3 + 2 + 2, 1, 1]


def test_sw_7_12_only_missing_resources_are_bought() -> None:
    s = new(3, ["giza", "olympia", "rhodes"])
    build(s, 0, "timber_yard")  # own S/W
    hand(s, 0, "stockade", "baths")
    # Olympia (LEFT) sells W, but own production covers it: no purchase plan is legal.
    assert card_payments(s, 0, "stockade") == ((0, 0),)
    k = CARDS[card("temple")]  # W + C + G: own Timber Yard covers W, C and G must be bought
    c0, c1, c2 = s.cities
    build(s, 2, "clay_pool", "glassworks_age1")
    options = trade.payment_options(k.cost_id, c0.own_sig, c1.trade_sig, c2.trade_sig, 0)
    assert options == ((0, 4),)  # not (2, 4) by also buying Olympia's wood


# --- SW-8 timing -------------------------------------------------------------------------------
def test_sw_8_4_3_babylon_extra_step_uses_main_step_income() -> None:
    s = new(3, ["babylon", "olympia", "rhodes"], ["B", "A", "A"], turn=6)
    stages(s, 0, 2)
    coins(s, 0, 0)
    hand(s, 0, "altar", "stockade")  # Stockade: W from Olympia (LEFT) at 2
    assert act("build", "stockade") not in legal(s, 0)
    play_step(s, {0: [act("discard", "altar")]})
    assert s.phase == EXTRA
    assert city(s, 0).coins == 3
    assert act("build", "stockade") in legal(s, 0)
    s.apply(0, act("build", "stockade"))
    assert city(s, 0).coins == 1
    assert "stockade" in names(city(s, 0).built)


def test_sw_8_4_3_babylon_extra_step_sees_main_step_discount_amb_08() -> None:
    s = new(3, ["babylon", "olympia", "rhodes"], ["B", "A", "A"], turn=6)
    stages(s, 0, 2)
    coins(s, 0, 1)
    hand(s, 0, "west_trading_post", "stockade")
    play_step(s, {0: [act("build", "west_trading_post")]})
    assert s.phase == EXTRA
    assert card_payments(s, 0, "stockade") == ((1, 0),)
    s.apply(0, act("build", "stockade"))
    assert city(s, 0).coins == 0


# --- SW-10 wonders -----------------------------------------------------------------------------
def test_sw_10_8_olympia_free_build_from_next_age_step_after_turn_6_stage() -> None:
    s = new(3, ["olympia", "rhodes", "giza"], "A", turn=6)
    stages(s, 0, 1)
    build(s, 0, "stone_pit")  # stage 2 (S×2): one stone bought from Giza
    hand(s, 0, "altar", "theater")
    play_step(s, {0: [act("stage", "altar")]})  # stage 2 on turn 6: nothing left this age
    assert city(s, 0).stages == 2
    assert s.age == 2
    assert any(FREE <= a < HALI for a in s.legal_actions(0))


def test_sw_10_8_olympia_free_build_resets_each_age_without_carry_over() -> None:
    s = new(3, ["olympia", "rhodes", "giza"], "A")
    stages(s, 0, 2)
    hand(s, 0, "altar", "theater", "baths", "pawnshop", "tavern", "stockade", "barracks")
    s.apply(0, act("free", "altar"))
    play_step(s)
    assert not any(FREE <= a < HALI for a in s.legal_actions(0))  # once per age
    play_until(s, 2)  # unused in Age II ...
    assert s.view(0)["cities"][0]["free_build_available"]
    play_until(s, 3)  # ... and Age III still has only one
    first = s.hands[0][0]
    s.apply(0, FREE + first)
    play_step(s)
    assert not any(FREE <= a < HALI for a in s.legal_actions(0))
    assert CARDS[first].id in names(city(s, 0).built)


def _olympia_b_copy(*left_blues: str) -> SevenWondersState:
    s = new(3, ["olympia", "rhodes", "giza"], ["B", "A", "A"])
    stages(s, 0, 3)
    build(s, 0, "apothecary", "workshop")  # COMPASS + GEAR
    build(s, 1, "scientists_guild", *left_blues)
    build(s, 2, "magistrates_guild")
    return s


def test_sw_10_10_olympia_b_copies_scientists_guild() -> None:
    # Scientists Guild: (1,1,0) -> (1,1,1), science 2 -> 10 (+8) beats Magistrates' 5.
    s = _olympia_b_copy("altar", "theater", "baths", "pawnshop", "temple")
    b = scoring.city_breakdown(s, 0)
    assert (b["science"], b["guilds"]) == (10, 0)
    assert scoring.city_breakdown(s, 1)["science"] == 1  # the owner's own wild is unaffected


def test_sw_10_10_olympia_b_copy_is_a_joint_maximum() -> None:
    # With 9 blue cards next door the Magistrates copy (+9) beats the science wild (+8).
    s = _olympia_b_copy("altar", "theater", "baths", "pawnshop", "temple", "statue", "aqueduct")
    build(s, 2, "courthouse", "gardens")
    b = scoring.city_breakdown(s, 0)
    assert (b["science"], b["guilds"]) == (2, 9)


def test_sw_10_10_copied_shipowners_counts_itself_amb_15() -> None:
    s = new(3, ["olympia", "rhodes", "giza"], ["B", "A", "A"])
    stages(s, 0, 3)
    build(s, 0, "lumber_yard", "loom_age1")
    build(s, 1, "shipowners_guild")
    assert scoring.city_breakdown(s, 0)["guilds"] == 2 + 1
    assert scoring.city_breakdown(s, 1)["guilds"] == 1  # its owner: only itself


def test_sw_10_7_free_city_babylon_b_plays_last_pile_card_amb_22() -> None:
    s = new(2, ["babylon", "rhodes", "giza"], ["B", "A", "A"], seed=8)
    stages(s, 0, 2)
    play_until(s, 1, 6)
    play_step(s)
    assert s.phase == EXTRA
    controller_seat = s.controller - 1
    assert s.to_move() == (controller_seat,)
    assert s.current_city(controller_seat) == 0
    assert len(s.hands[0]) == 1
    assert {card_of(a) for a in s.legal_actions(controller_seat)} == {s.hands[0][0]}
    play_step(s)
    assert s.age == 2


# --- SW-11 military, SW-13 winner, SW-14 two players -----------------------------------------
def _two_player_no_red(seed: int = 1) -> SevenWondersState:
    s = new(2, ["giza", "rhodes", "babylon"], "A", seed=seed)
    for c in range(3):
        hand(s, c, *["altar"] * len(s.hands[c]))
    return s


def test_sw_11_military_two_player_free_city() -> None:
    s = _two_player_no_red()
    build(s, 0, "barracks", "stockade")  # Free City 2
    build(s, 1, "guard_tower")  # A 1, B 0
    play_until(s, 2)
    assert [c.shields for c in s.cities] == [2, 1, 0]
    assert s.cities[0].tokens == [1, 1]  # SW-14.8: the FC collects tokens
    assert sorted(s.cities[1].tokens) == [-1, 1]
    assert s.cities[2].tokens == [-1, -1]
    r = s.result()
    assert [b["military"] for b in r.breakdown] == [0, -2]  # seats A, B
    assert r.extra["free_city"]["breakdown"]["military"] == 2


def test_sw_14_9_free_city_never_wins() -> None:
    s = _two_player_no_red()
    build(s, 0, "palace", "pantheon", "town_hall")
    build(s, 1, "gardens")
    build(s, 2, "senate")
    r = s.result()
    assert r.extra["free_city"]["score"] > max(r.scores)
    assert len(r.scores) == 2
    assert r.winners == (1,)  # Senate 6 > Gardens 5


def test_sw_13_3_three_way_shared_victory() -> None:
    s = new(3, ["giza", "rhodes", "babylon"], "A")
    for c in range(3):
        build(s, c, "altar")
        coins(s, c, 4)
    r = s.result()
    assert r.winners == (0, 1, 2)
    assert r.ranking == (0, 0, 0)


def _free_city_position() -> tuple[SevenWondersState, int]:
    s = new(2, ["giza", "rhodes", "babylon"], "A", age=2, seed=2)
    ctrl_seat = s.controller - 1  # Age II: B controls first (SW-14.3)
    assert ctrl_seat == 1
    coins(s, 0, 0)
    build(s, 0, "scriptorium")
    hand(s, s.controller, "walls", "library", "aqueduct", "loom_age2")
    s.apply(ctrl_seat, act("discard", "walls"))  # the controller's own card
    assert s.current_city(ctrl_seat) == 0
    return s, ctrl_seat


def test_sw_14_5_free_city_must_build_chained_card() -> None:
    s, seat = _free_city_position()
    options = legal(s, seat)
    assert act("build", "library") in options
    assert act("stage", "library") not in options
    assert act("discard", "library") not in options
    assert s.describe(seat, act("build", "library")) == "Free City: build Library for free (chain)"
    play_step(s, {seat: [act("build", "library")]})
    assert "library" in names(city(s, 0).built)
    assert city(s, 0).coins == 0


def test_sw_14_5_free_city_discards_only_if_it_can_neither_build_nor_stage() -> None:
    s, seat = _free_city_position()
    options = legal(s, seat)
    assert act("build", "loom_age2") in options
    assert act("discard", "loom_age2") not in options  # it can be built
    assert act("build", "aqueduct") not in options  # S×3, no coins to buy
    assert act("discard", "aqueduct") in options  # nothing else is possible with it
    s2, seat2 = _free_city_position()
    build(s2, 0, "stone_pit")  # now Giza A stage 1 (S×2) is affordable
    options = legal(s2, seat2)
    assert act("stage", "aqueduct") in options
    assert act("discard", "aqueduct") not in options


# --- labels ------------------------------------------------------------------------------------
def test_describe_labels_name_card_and_payment() -> None:
    s = new(3, ["giza", "rhodes", "babylon"], "A")
    build(s, 0, "stone_pit")
    build(s, 1, "glassworks_age1")  # LEFT
    build(s, 2, "glassworks_age1")  # RIGHT
    hand(s, 0, "tree_farm", "workshop", "altar", "barracks")
    assert s.describe(0, act("build", "tree_farm")) == "build Tree Farm, pay 1 to the bank"
    assert s.describe(0, act("build", "altar")) == "build Altar, no payment"
    assert s.describe(0, act("build", "barracks")) == (
        "build Barracks, pay 2 to the left neighbour"
    )
    assert s.describe(0, act("build", "workshop")) == "build Workshop, choose the payment next"
    assert s.describe(0, act("discard", "altar")) == "discard Altar for 3 coins"
    assert s.describe(0, act("stage", "altar")) == "build wonder stage 1 with Altar, no payment"
    s.apply(0, act("build", "workshop"))
    assert sorted(s.legal_actions(0)) == sorted([pay(2, 0), pay(0, 2)])
    assert s.describe(0, pay(0, 2)) == "pay 2 to the right neighbour"


def test_describe_labels_hali_and_pass() -> None:
    s = new(3, ["halikarnassus", "rhodes", "giza"], "A", age=2)
    stages(s, 0, 1)
    build(s, 0, "foundry")
    pile(s, "altar")
    hand(s, 0, "walls", "temple")
    play_step(s, {0: [act("stage", "walls")]})
    assert s.describe(0, act("hali", "altar")) == (
        "build Altar (Age I) from the discard pile for free"
    )


def test_sw_10_11_hali_labels_tell_same_named_cards_apart() -> None:
    s = new(3, ["halikarnassus", "rhodes", "giza"], "A", age=2)
    stages(s, 0, 1)
    build(s, 0, "foundry")
    pile(s, "glassworks_age1", "glassworks_age2")
    hand(s, 0, "walls", "temple")
    play_step(s, {0: [act("stage", "walls")]})
    labels = [s.describe(0, a) for a in s.legal_actions(0)]
    assert len(labels) == len(set(labels))
    assert any("Glassworks (Age I)" in x for x in labels)
    assert any("Glassworks (Age II)" in x for x in labels)
    assert s.describe(0, HALI_PASS) == "take nothing from the discard pile"
