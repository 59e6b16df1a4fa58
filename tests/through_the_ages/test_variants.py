"""The rulebook's variants (TTA-15.2 peaceful game, TTA-15.3 world wars) and the game modes."""

from __future__ import annotations

import pytest

from civtable.core.errors import InvalidOptionsError
from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages.catalog import BY_ID, CARDS
from civtable.games.through_the_ages.rules import board, row
from civtable.games.through_the_ages.state import F_RESIGNED

from .scenario import action_phase


def _military_types(state) -> set[str]:
    return {CARDS[c].type for age in range(4) for c in state.mil_decks[age]}


def test_tta_2_6_full_game_deals_every_military_type_and_age_iii() -> None:
    s = GAME.new_game(4, 1)
    assert s.options["mode"] == "full"
    assert {"aggression", "war", "pact"} <= _military_types(s)
    assert s.civil_decks[3]
    assert s.mil_decks[3]


def test_tta_15_2_peaceful_game_removes_aggressions_wars_and_pacts() -> None:
    s = GAME.new_game(4, 1, {"peaceful": True})
    types = _military_types(s)
    assert not {"aggression", "war", "pact"} & types
    assert {"event", "tactic", "territory", "bonus"} <= types


def test_tta_15_2_peaceful_game_may_keep_the_four_pacts_without_attacks() -> None:
    s = GAME.new_game(4, 1, {"peaceful": True, "peaceful_pacts": True})
    pacts = {CARDS[c].id for age in range(4) for c in s.mil_decks[age] if CARDS[c].type == "pact"}
    assert pacts == {
        "trade_routes_agreement",
        "international_trade_agreement",
        "scientific_cooperation",
        "international_tourism",
    }


@pytest.mark.parametrize(
    "options",
    [
        {"world_wars": True},
        {"peaceful_pacts": True},
        {"peaceful": True, "mode": "first"},
        {"peaceful": "yes"},
        {"mode": "short"},
    ],
)
def test_tta_15_variant_options_are_checked(options) -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(3, 0, options)


def test_tta_15_3_world_wars_score_strength_above_the_weakest_at_an_age_end() -> None:
    s = action_phase(3, 2, mode="full")
    s.options = {**s.options, "peaceful": True, "world_wars": True}
    warriors = CARDS[BY_ID["warriors"]].slot
    s.civs[1].workers[warriors] += 2  # seat 1: 2 more strength than the others
    strength = [board.ratings(c)[2] for c in s.civs]
    before = [c.culture for c in s.civs]
    s.civil_decks[1] = [s.civil_decks[1][0]]
    s.row[0] = -1
    row.refill(s)  # the last Age I card is dealt: Age I ends (TTA-4.3)
    assert s.age == 2
    weakest = min(strength)
    assert [c.culture - b for c, b in zip(s.civs, before, strict=True)] == [
        st - weakest for st in strength
    ]
    assert max(st - weakest for st in strength) > 0


def test_tta_15_3_without_the_variant_an_age_end_scores_nothing() -> None:
    s = action_phase(3, 2, mode="full")
    before = [c.culture for c in s.civs]
    s.civs[1].workers[CARDS[BY_ID["warriors"]].slot] += 2
    s.civil_decks[1] = [s.civil_decks[1][0]]
    s.row[0] = -1
    row.refill(s)
    assert [c.culture for c in s.civs] == before


def test_tta_6_8_resigned_players_lose_and_are_skipped() -> None:
    s = action_phase(3, 2, mode="full")
    s.civs[1].flags |= F_RESIGNED
    s.civs[1].culture = 99
    res = s.result()
    assert 1 not in res.winners
    assert res.ranking[1] == max(res.ranking)


def test_tta_15_1_shorter_game_setup_deals_age_iii_events() -> None:
    s = GAME.new_game(3, 4, {"mode": "shorter"})
    dealt = [c for civ in s.civs for c in civ.secret]
    assert all(len(civ.secret) == 2 for civ in s.civs)
    assert len(s.faceup) == 3
    assert len(set(dealt + s.faceup)) == 9
    assert all(CARDS[c].type == "event" and CARDS[c].age == 3 for c in dealt + s.faceup)
    assert not s.civil_decks[3]  # Age III decks are not used
    assert not s.mil_decks[3]
    assert row.game_end_age(s) == 3


def test_tta_15_1_end_of_age_one_each_player_keeps_one_event_in_turn_order() -> None:
    from civtable.games.through_the_ages import actions as act
    from civtable.games.through_the_ages.rules import politics
    from civtable.games.through_the_ages.state import P_KEEP

    s = action_phase(3, 2, mode="shorter")
    s.current = 1
    s.civil_decks[1] = [s.civil_decks[1][0]]
    s.row[0] = -1
    row.refill(s)  # the last Age I card is dealt: Age I ends (TTA-4.3)
    politics.advance(s)  # the queued decisions start (as after any action)
    order = []
    while s.pending[0] == P_KEEP:
        seat = s.to_move()[0]
        order.append(seat)
        keep = s.civs[seat].secret[1]
        s.apply(seat, act.OPTION + 1)
        assert s.civs[seat].secret == [keep]
    assert order == [1, 2, 0]
    assert s.to_move() == (1,)


def test_tta_15_1_shorter_final_scoring() -> None:
    from civtable.games.through_the_ages.rules import impact, shorter

    s = action_phase(3, 2, mode="shorter")
    for civ in s.civs:
        civ.secret = civ.secret[:1]
    s.civs[0].wonders.append(next(c.idx for c in CARDS if c.type == "wonder" and c.age == 2))
    events = [*s.faceup, *(c for civ in s.civs for c in civ.secret)]
    expect = [c.culture for c in s.civs]
    expect[0] += 6  # TTA-15.1: 6 per completed Age II wonder
    for card in events:
        gains = impact.impact_culture(s, card, first_as_current=True)
        expect = [e + g for e, g in zip(expect, gains, strict=True)]
    assert shorter.projection(s) == [e - c.culture for e, c in zip(expect, s.civs, strict=True)]
    shorter.final_scoring(s)
    assert [c.culture for c in s.civs] == [max(0, e) for e in expect]


def test_tta_6_2_the_log_does_not_name_a_prepared_card_to_others() -> None:
    from civtable.games.through_the_ages import actions as act

    s = action_phase(3, 2, mode="full")
    s.log = []
    s.phase = 0
    event = next(c.idx for c in CARDS if c.type == "event" and c.age == 1)
    s.civs[0].mhand = [event]
    s._legal = None
    s.apply(0, act.PREPARE + event)
    card = CARDS[event].id
    assert any(e.get("card") == card for e in s.view(0)["log"] if e["kind"] == "prepare")
    for seat in (1, 2):
        assert card not in str(s.view(seat)["log"])
        hidden = {"kind": "prepare_hidden", "card_age": "I", "player": 0, "others": 0}
        assert hidden in s.view(seat)["log"]


def test_tta_15_1_a_war_may_resolve_as_the_shared_war_over_culture() -> None:
    from civtable.games.through_the_ages import actions as act
    from civtable.games.through_the_ages.rules import politics

    s = action_phase(3, 2, mode="shorter")
    s.round, s.phase, s.age = 3, 0, 2
    war = BY_ID["war_over_territory"]
    shared = BY_ID["war_over_culture"]
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s.civs[0].workers[CARDS[BY_ID["warriors"]].slot] = 6  # strength 6 against 1
    s._legal = None
    legal = s.legal_actions(0)
    assert act.WAR + war * 4 + 1 in legal
    assert act.SHARED + war * 4 + 1 in legal
    s.apply(0, act.SHARED + war * 4 + 1)
    assert s.civs[0].ma == 3 - CARDS[shared].ma_cost  # War over Culture's cost
    assert s.wars == [shared, 0, 1]
    # the played card stays in the declarer's play area until the war resolves
    assert war not in s.mil_discards[2]
    assert s.war_cards == [war, 0, 1]
    s.civs[1].culture = 20
    culture = s.civs[0].culture
    politics.resolve_wars(s, 0)
    assert s.civs[0].culture == culture + 5 + 5  # 5 + advantage 5
    assert war in s.mil_discards[2]  # discarded after resolution
    assert s.war_cards == []
    assert shared not in s.mil_discards[3]  # the shared card stays beside the board
    full = action_phase(3, 2, mode="full")
    full.round, full.phase = 3, 0
    full.civs[0].mhand = [war]
    full.civs[0].ma = 3
    full._legal = None
    assert not [a for a in full.legal_actions(0) if a >= act.SHARED]


def test_tta_15_1_a_shared_war_cancelled_by_a_resignation_discards_the_played_card() -> None:
    from civtable.games.through_the_ages import actions as act
    from civtable.games.through_the_ages.rules import politics

    s = action_phase(3, 2, mode="shorter")
    s.round, s.phase, s.age = 3, 0, 2
    war = BY_ID["war_over_territory"]
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s._legal = None
    s.apply(0, act.SHARED + war * 4 + 1)
    assert war not in s.mil_discards[2]
    culture = s.civs[0].culture
    politics.resign(s, 1)
    assert s.wars == []
    assert s.war_cards == []
    assert war in s.mil_discards[2]
    assert s.civs[0].culture == culture + 7


def test_joan_of_arc_shows_the_top_current_event_in_her_owners_politics_phase() -> None:
    from civtable.core.rng import Rng

    s = action_phase(3, 2, mode="full")
    s.round, s.phase = 3, 0
    s.civs[0].leader = BY_ID["joan_of_arc"]
    top = CARDS[s.events[-1]].id
    assert s.view(0)["top_current_event"] == top
    assert "top_current_event" not in s.view(1)
    for k in range(5):  # the owner's determinization keeps it
        assert s.determinize(0, Rng(k)).events[-1] == s.events[-1]
    s.phase = 1  # the Action Phase: no longer shown
    assert "top_current_event" not in s.view(0)


def test_tta_6_8_after_a_resignation_the_sweep_of_the_remaining_count_applies() -> None:
    from civtable.games.through_the_ages.catalog import SWEEP

    s = action_phase(4, 2, mode="full")
    before = list(s.row)
    row.replenish(s)
    assert s.row[: 13 - SWEEP[4]] == before[SWEEP[4] :]  # 4 players: 1 card swept
    s = action_phase(4, 2, mode="full")
    s.civs[3].flags |= F_RESIGNED
    before = list(s.row)
    row.replenish(s)
    assert s.row[: 13 - SWEEP[3]] == before[SWEEP[3] :]  # now the 3-player sweep: 2 cards
