"""The canonical scenarios of the spec (TTA-T) that need no military conflict or politics.

T-13..T-15, T-19 and T-21 (aggression, war, colonization, Age III events) wait for part 2.
"""

from __future__ import annotations

from civtable.games.through_the_ages.catalog import CARDS
from civtable.games.through_the_ages.rules import board, civil, row, turn
from civtable.games.through_the_ages.scoring import breakdown

from .scenario import GAME, act, action_phase, card, cubes, develop, workers

FIRST = {"mode": "first"}  # these tests are of the first game (TTA-14)


def test_t01_setup_state_4_players() -> None:
    s = GAME.new_game(4, 11, FIRST)
    for seat, c in enumerate(s.civs):
        assert (c.yellow, c.pool, c.blue) == (18, 1, 16)
        got = {CARDS[x].id: c.workers[CARDS[x].slot] for x in c.developed}
        assert got == {
            "agriculture": 2,
            "bronze": 2,
            "philosophy": 1,
            "religion": 0,
            "warriors": 1,
        }
        assert board.ratings(c) == (0, 1, 1, 0)
        assert board.happiness_required(c.yellow) == 0
        assert board.discontent(c) == 0
        assert board.totals(c) == (4, 2)
        assert board.pop_cost(c.yellow) == 2
        assert board.consumption(c.yellow) == 0
        assert board.corruption(c.blue) == 0
        assert (c.ca, c.ma) == ((seat - s.first) % 4 + 1, 0)  # k-th player: k CA (TTA-2.5)
    assert len(s.events) == 6
    assert all(x >= 0 and CARDS[x].age == 0 for x in s.row)
    assert len(s.civil_decks[0]) == 7
    assert s.to_move() == (s.first,)
    assert {GAME.new_game(4, seed, FIRST).first for seed in range(20)} == {0, 1, 2, 3}


def test_t02_end_of_round_one_turn() -> None:
    s = GAME.new_game(4, 3, FIRST)
    first = s.first
    s.apply(first, act.END)
    c = s.civs[first]
    assert (c.science, c.culture) == (1, 0)
    assert c.cubes[0] == 2
    assert c.cubes[4] == 2
    assert c.blue == 12
    assert board.stock(c, False) == 2
    assert board.stock(c, True) == 2
    assert c.mhand == []
    assert (c.ca, c.ma) == (4, 2)
    assert board.corruption(c.blue) == 0
    assert s.current == (first + 1) % 4


def test_t03_card_row_costs() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.wonders = [card("colossus"), card("pyramids")]
    s.row[3] = card("hanging_gardens")
    s.row[10] = card("great_wall")
    s.row[5] = card("julius_caesar")
    s.row[12] = card("irrigation")
    assert civil.take_cost(s, c, 3) == 3
    assert civil.take_cost(s, c, 10) == 5
    assert civil.take_cost(s, c, 12) == 3
    c.leader = card("michelangelo")
    assert civil.take_cost(s, c, 10) == 3
    c.leader = card("hammurabi")
    assert civil.take_cost(s, c, 5) == 1
    c.ca = 9
    c.wip = card("library_of_alexandria")
    assert not civil.can_take(s, c, 3)
    assert not civil.can_take(s, c, 10)


def _t04_row(s: object) -> list[int]:
    names = ["alchemy", -1, "iron", -1, "knights", "drama", "theology", "swordsmen"]
    names += ["monarchy", "masonry", "warfare", "cartography", "printing_press"]
    return [card(n) if isinstance(n, str) else -1 for n in names]


def test_t04_replenish_three_players_deck_nearly_empty() -> None:
    s = action_phase(3)
    s.row = _t04_row(s)
    d = [card("irrigation"), card("code_of_laws"), card("theocracy"), card("bread_and_circuses")]
    s.civil_decks[1] = list(reversed(d))  # top = last
    before = s.row[:]
    row.replenish(s)
    assert s.row[:10] == [before[2], before[4], *before[5:]]
    assert s.row[10:] == d[:3]
    assert s.age == 1
    assert s.civil_decks[1] == [d[3]]
    # new costs by slot: C 1 CA, F (slot 3) 1 CA, J (slot 7) 2 CA, d3 3 CA
    c = s.civs[0]
    assert [civil.take_cost(s, c, i) for i in (0, 2, 6, 12)] == [1, 1, 2, 3]


def test_t04a_deck_holds_exactly_three_age_ends() -> None:
    s = action_phase(3)
    s.row = _t04_row(s)
    s.civil_decks[1] = [card("theocracy"), card("code_of_laws"), card("irrigation")]
    n_ii = len(s.civil_decks[2])
    row.replenish(s)
    assert s.age == 2
    assert len(s.civil_decks[2]) == n_ii
    assert all(c.yellow == 16 for c in s.civs)


def test_t04b_deck_holds_two_slot_13_from_age_ii() -> None:
    s = action_phase(3)
    s.row = _t04_row(s)
    s.civil_decks[1] = [card("code_of_laws"), card("irrigation")]
    top_ii = s.civil_decks[2][-1]
    row.replenish(s)
    assert s.age == 2
    assert s.row[10:] == [card("irrigation"), card("code_of_laws"), top_ii]


def _grow(s: object, c: object, times: int) -> list[int]:
    paid = []
    for _ in range(times):
        food = board.stock(s.civs[0], False)  # type: ignore[attr-defined]
        s.apply(0, act.POP)  # type: ignore[attr-defined]
        paid.append(food - board.stock(s.civs[0], False))  # type: ignore[attr-defined]
    return paid


def test_t05_population_growth() -> None:
    s = action_phase(4)
    c = s.civs[0]
    cubes(c, agriculture=16)
    c.ca = 6
    assert _grow(s, c, 6) == [2, 2, 3, 3, 3, 3]
    assert c.yellow == 12
    assert c.ca == 0
    assert board.happiness_required(12) == 2
    assert board.consumption(12) == 2
    assert board.pop_cost(12) == 4


def test_t05_population_growth_with_moses() -> None:
    s = action_phase(4)
    c = s.civs[0]
    cubes(c, agriculture=16)
    c.leader = card("moses")
    c.ca = 6
    assert _grow(s, c, 6) == [1, 1, 2, 2, 2, 2]


def test_t06_famine() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "theology", "bread_and_circuses", "printing_press")
    workers(c, agriculture=1, bronze=0, philosophy=0, warriors=0)
    workers(c, theology=1, bread_and_circuses=1, printing_press=1)
    c.pool = 0
    c.yellow = 7
    c.culture = 10
    cubes(c, agriculture=0)
    c.blue = 12
    assert board.ratings(c)[0] == 2
    assert board.ratings(c)[3] == 4
    assert board.discontent(c) == 0
    turn.production_phase(c)
    assert c.culture == 4
    assert board.stock(c, False) == 0


def test_t07_corruption_larger_than_resources() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron", "irrigation")
    cubes(c, bronze=1, iron=1, agriculture=3, irrigation=5)
    c.wip = card("pyramids")
    c.wip_stages = 2
    c.blue = 4
    turn.corrupt(c)
    assert board.stock(c, True) == 0
    assert board.stock(c, False) == 12
    assert c.blue == 7
    assert c.cubes[0] == 2


def test_t08_full_end_of_turn_arithmetic() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "irrigation", "iron")
    workers(c, agriculture=2, irrigation=1, bronze=3, iron=1, philosophy=1, religion=1)
    workers(c, warriors=1)
    c.pool = 0
    c.yellow = 13
    c.culture, c.science = 20, 5
    cubes(c, agriculture=1, irrigation=1, bronze=3, iron=2)
    c.blue = 9
    c.ma = 1
    assert board.ratings(c)[:2] == (1, 1)
    assert board.discontent(c) == 0
    s.apply(0, act.END)
    assert (c.culture, c.science) == (21, 6)
    assert board.stock(c, False) == 6
    assert board.stock(c, True) == 10
    assert c.blue == 5
    assert board.corruption(c.blue) == 4
    assert c.cubes[0] + c.cubes[1] + c.cubes[4] + c.cubes[5] + c.blue == 16
    assert (c.cubes[0], c.cubes[1], c.cubes[4], c.cubes[5]) == (2, 2, 4, 3)
    assert len(c.mhand) == 1


def test_t09_upgrade_costs() -> None:
    s = action_phase(4)
    c = s.civs[0]

    def up(kind: str, lo: str, hi: str) -> int:
        return board.upgrade_cost(c, CARDS[card(lo)].slot, CARDS[card(hi)].slot)

    assert up("lab", "philosophy", "alchemy") == 3
    assert up("lab", "philosophy", "scientific_method") == 5
    assert up("lab", "alchemy", "scientific_method") == 2
    assert up("arena", "bread_and_circuses", "team_sports") == 2
    assert up("farm", "agriculture", "selective_breeding") == 4
    assert up("mine", "bronze", "iron") == 3
    assert up("mine", "iron", "coal") == 3
    assert up("mine", "bronze", "coal") == 6
    develop(c, "masonry")
    assert board.building_cost(c, CARDS[card("alchemy")].slot) == 5
    assert up("lab", "philosophy", "alchemy") == 2
    assert up("lab", "alchemy", "scientific_method") == 2
    develop(c, "architecture")
    assert board.building_cost(c, CARDS[card("alchemy")].slot) == 5
    assert board.building_cost(c, CARDS[card("scientific_method")].slot) == 6
    assert up("lab", "philosophy", "scientific_method") == 3
    assert up("lab", "alchemy", "scientific_method") == 1
    assert board.building_cost(c, CARDS[card("theology")].slot) == 4
    assert board.building_cost(c, CARDS[card("organized_religion")].slot) == 5
    # Urban Growth (Age I, 2 less) with Architecture on lab A->II: 3 - 2 = 1
    develop(c, "scientific_method")
    c.hand = [card("urban_growth_i")]
    cubes(c, bronze=3)
    s.apply(0, act.PLAY + card("urban_growth_i"))
    s.apply(0, act.upgrade_id(CARDS[card("philosophy")].kind, 0, 2))
    assert board.stock(c, True) == 2
    develop(c, "engineering")
    assert board.building_cost(c, CARDS[card("computers")].slot) == 8
    assert board.building_cost(c, CARDS[card("scientific_method")].slot) == 6
    assert up("lab", "scientific_method", "computers") == 2
    assert up("lab", "philosophy", "computers") == 5


def _t10() -> tuple[object, object]:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "theology")
    workers(c, religion=1)
    c.yellow = 10
    c.pool = 1
    cubes(c, bronze=5, agriculture=8)
    return s, c


def test_t10_discontent_and_uprising() -> None:
    s, c = _t10()
    assert board.happiness_required(10) == 3
    assert board.ratings(c)[3] == 1
    assert board.discontent(c) == 2
    assert turn.uprising(c)
    theology = CARDS[card("theology")]
    # (i) upgrade the temple to Theology: 1 CA, 2 resources
    s.apply(0, act.upgrade_id(theology.kind, 0, 1))  # type: ignore[attr-defined]
    assert board.ratings(c)[3] == 2
    assert board.discontent(c) == 1
    assert not turn.uprising(c)
    assert board.stock(c, True) == 3
    # (ii) build Theology with the unused worker: 1 CA, 5 resources
    s, c = _t10()
    s.apply(0, act.BUILD + theology.slot)  # type: ignore[attr-defined]
    assert board.ratings(c)[3] == 3
    assert board.discontent(c) == 0
    assert c.pool == 0
    assert board.stock(c, True) == 0
    # (iii) increase population (4 food), twice
    s, c = _t10()
    s.apply(0, act.POP)  # type: ignore[attr-defined]
    assert (c.yellow, board.discontent(c), c.pool) == (9, 2, 2)  # type: ignore[attr-defined,arg-type]
    assert not turn.uprising(c)
    assert board.stock(c, False) == 4
    s.apply(0, act.POP)  # type: ignore[attr-defined]
    assert (c.yellow, board.discontent(c), c.pool) == (8, 3, 3)  # type: ignore[attr-defined,arg-type]
    assert not turn.uprising(c)  # type: ignore[arg-type]


def test_t10_uprising_skips_production_but_draws() -> None:
    s, c = _t10()
    c.culture = 5  # type: ignore[attr-defined]
    cubes(c)  # type: ignore[arg-type]
    blue = c.blue  # type: ignore[attr-defined]
    s.apply(0, act.END)  # type: ignore[attr-defined]
    assert c.culture == 5
    assert c.blue == blue
    assert len(c.mhand) == 2  # type: ignore[attr-defined]


def test_t16_government_change_from_despotism() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.science = 8
    c.hand = [card("monarchy")]
    s.apply(0, act.PLAY + card("monarchy"))
    assert board.totals(c) == (5, 3)
    assert (c.ca, c.ma) == (4, 3)
    assert c.science == 0
    assert board.urban_limit(c) == 3
    # revolution: only with 4/4 CA unspent; all spent, 2 science
    s = action_phase(4)
    c = s.civs[0]
    c.science = 2
    c.hand = [card("monarchy")]
    assert act.REVOLT + card("monarchy") in s.legal_actions(0)
    s.apply(0, act.REVOLT + card("monarchy"))
    assert board.totals(c) == (5, 3)
    assert (c.ca, c.ma) == (0, 3)
    assert c.science == 0
    s = action_phase(4)
    c = s.civs[0]
    c.science = 2
    c.hand = [card("monarchy")]
    cubes(c, agriculture=4)
    s.apply(0, act.POP)
    assert act.REVOLT + card("monarchy") not in s.legal_actions(0)
    # Theocracy peaceful
    s = action_phase(4)
    c = s.civs[0]
    c.science = 6
    c.hand = [card("theocracy")]
    before = board.ratings(c)
    s.apply(0, act.PLAY + card("theocracy"))
    after = board.ratings(c)
    assert board.totals(c) == (4, 3)
    assert (c.ca, c.ma) == (3, 3)
    assert (after[0] - before[0], after[2] - before[2], after[3] - before[3]) == (1, 1, 1)


def test_t17_leader_replacement() -> None:
    s = action_phase(4)
    c = s.civs[0]
    c.leader = card("moses")
    c.leader_ages = 1
    cubes(c, agriculture=8)
    s.row[6] = card("joan_of_arc")
    s.apply(0, act.POP)
    s.apply(0, act.TAKE + 6)
    s.apply(0, act.PLAY + card("joan_of_arc"))
    assert c.leader == card("joan_of_arc")
    assert c.ca == 1 + 0
    assert c.replaced_leader == 1
    s = action_phase(4)
    c = s.civs[0]
    c.leader = card("moses")
    cubes(c, agriculture=8)
    s.row[6] = card("joan_of_arc")
    s.apply(0, act.POP)
    s.apply(0, act.POP)
    s.apply(0, act.TAKE + 6)
    assert c.ca == 0
    assert act.PLAY + card("joan_of_arc") not in s.legal_actions(0)


def test_t18_wonder_with_masonry() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "monarchy", "masonry")
    c.ca, c.ma = board.totals(c)
    c.wonders = [card("colossus")]
    cubes(c, bronze=6)
    s.row[6] = card("pyramids")
    assert c.ca == 5
    assert civil.take_cost(s, c, 6) == 3
    s.apply(0, act.TAKE + 6)
    blue = c.blue
    s.apply(0, act.WONDER + 1)  # stages 1+2 for one CA: 5 resources
    assert c.wip_stages == 2
    assert board.stock(c, True) == 1
    assert c.blue == blue + 5 - 2  # 5 bronze cubes back, 2 cubes onto the wonder
    s.apply(0, act.WONDER)  # stage 3 for 1 resource
    assert c.wip < 0
    assert card("pyramids") in c.wonders
    assert c.blue == 16
    assert board.totals(c)[0] == 6
    assert c.ca == 1


def test_t18_engineering_genius_builds_one_stage() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "masonry")
    c.wip = card("pyramids")
    cubes(c, bronze=1)
    c.hand = [card("engineering_genius_a")]
    s.apply(0, act.PLAY + card("engineering_genius_a"))
    assert s.legal_actions(0) == [act.WONDER]
    s.apply(0, act.WONDER)
    assert c.wip_stages == 1
    assert board.stock(c, True) == 0


def test_t20_end_of_age_i() -> None:
    s = action_phase(4)
    a, b = s.civs[0], s.civs[1]
    a.hand = [card("stockpile"), card("irrigation")]
    a.leader = card("moses")
    a.wip = card("pyramids")
    a.wip_stages = 2
    a.blue = 14
    a.yellow = 12
    develop(a, "theology")
    workers(a, religion=0, theology=1)
    b.yellow = 1
    s.civil_decks[1] = [card("iron")]
    s.row[0] = -1
    ca = a.ca
    row.replenish(s)
    assert s.age == 2
    assert a.hand == [card("irrigation")]
    assert a.leader == -1
    assert a.ca == ca
    assert a.wip == -1
    assert a.blue == 16
    assert a.yellow == 10
    assert board.happiness_required(10) == 3
    assert board.consumption(10) == 2
    assert board.pop_cost(10) == 4
    assert board.discontent(a) == 1
    assert b.yellow == 0
    assert board.pop_cost(0) == -1
    assert board.happiness_required(0) == 8


def test_t22_military_draw() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "constitutional_monarchy", "warfare")
    c.ca, c.ma = board.totals(c)
    assert c.ma == 5
    c.ma = 4
    s.apply(0, act.END)
    assert len(c.mhand) == 3
    s = action_phase(4)
    c = s.civs[0]
    c.ma = 1
    c.hand = [card("patriotism_a")]
    c.fresh = []
    s.apply(0, act.PLAY + card("patriotism_a"))
    assert c.temp_ma == 1
    assert c.mpool == 1
    s.apply(0, act.END)
    assert len(c.mhand) == 2


def test_t23_first_game_final_scoring() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "irrigation", "iron", "alchemy", "swordsmen", "masonry", "coal")
    develop(c, "scientific_method", "monarchy")
    workers(c, agriculture=2, irrigation=2, bronze=1, iron=2, coal=1)
    workers(c, philosophy=2, alchemy=2, scientific_method=1)
    workers(c, warriors=2, swordsmen=6, religion=2)
    c.wonders = [card("eiffel_tower"), card("hanging_gardens")]
    c.culture = 0
    b = breakdown(c)
    assert b == {
        "culture": 0,
        "technologies": 5 + 4,
        "government": 2,
        "science_rate": 9,
        "strength": 14,
        "happiness": 5,
        "production": 14,
        "colonies": 0,  # 2 colonies (+6 in the spec's total of 65) need part 2
        "wonders": 6,
    }
    assert sum(b.values()) == 65 - 6


def _strength_with(tactic: str, **units: int) -> int:
    s = action_phase(4)
    c = s.civs[0]
    for cid in units:
        if card(cid) not in c.developed:
            develop(c, cid)
    workers(c, **units)
    c.tactic = card(tactic)
    return board.ratings(c)[2]


def test_t11_armies() -> None:
    units = {"warriors": 4, "knights": 1}
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "knights")
    workers(c, **units)
    assert board.ratings(c)[2] == 6
    assert _strength_with("fighting_band", **units) == 8
    assert _strength_with("phalanx", **units) == 9
    assert _strength_with("legion", **units) == 8
    assert _strength_with("medieval_army", **units) == 8
    assert _strength_with("heavy_cavalry", **units) == 6


def test_t12_outdated_armies_and_air_forces() -> None:
    units = {"warriors": 1, "swordsmen": 1, "knights": 4}
    assert _strength_with("conquistadors", **units) == 11 + 5 + 3
    assert _strength_with("conquistadors", air_forces=1, **units) == 16 + 10 + 3
    assert _strength_with("conquistadors", air_forces=2, **units) == 21 + 10 + 6
    assert _strength_with("conquistadors", air_forces=3, **units) == 26 + 10 + 6


def test_t23_production_counts_the_railroad_double_worker() -> None:
    s = action_phase(4)
    c = s.civs[0]
    develop(c, "iron")
    workers(c, agriculture=2, bronze=1, iron=2)
    assert breakdown(c)["production"] == 2 + 1 + 4
    c.wonders = [card("transcontinental_railroad")]
    assert breakdown(c)["production"] == 2 + 1 + 4 + 2
    assert breakdown(c)["wonders"] == 6
