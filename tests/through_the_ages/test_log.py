"""The structured game log of Through the Ages (issue 18): kinds and ids, never English; what
every public event did; the same trajectory with the log on or off."""

from __future__ import annotations

import random

import pytest

from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages import actions as act
from civtable.games.through_the_ages.catalog import BY_ID, CARDS
from civtable.games.through_the_ages.rules import board, politics
from civtable.games.through_the_ages.state import PH_POLITICS, TTAState
from tests.through_the_ages.scenario import action_phase, card, develop, workers
from tests.through_the_ages.scenario import politics_phase as _politics_phase
from tests.through_the_ages.test_politics import settle, soldiers


def politics_phase(players: int = 3, seed: int = 0) -> TTAState:
    s = _politics_phase(players, seed, round_=2, age=2)
    s.log = []
    return s


def _kinds(s: TTAState) -> list[str]:
    assert s.log is not None
    return [str(e["kind"]) for e in s.log]


def _english(value: object) -> bool:
    """A string with a space in it: a sentence, which the log must never hold."""
    if isinstance(value, str):
        return " " in value
    if isinstance(value, dict):
        return any(_english(v) for v in value.values())
    if isinstance(value, list):
        return any(_english(v) for v in value)
    return False


@pytest.mark.parametrize(
    ("mode", "players", "seed"), [("full", 4, 1), ("first", 2, 2), ("shorter", 3, 3)]
)
def test_log_entries_are_structured_and_the_trajectory_does_not_change(
    mode: str, players: int, seed: int
) -> None:
    """Every entry has a kind and no sentence; the same moves with the log off reach the same
    position (logging never changes a game)."""
    rng = random.Random(seed)
    logged = GAME.new_game(players, seed, {"mode": mode})
    logged.log = []
    silent = GAME.new_game(players, seed, {"mode": mode})
    for _ in range(400):
        if logged.is_terminal():
            break
        seat = logged.to_move()[0]
        legal = [a for a in logged.legal_actions(seat) if a != act.RESIGN]
        a = rng.choice(legal)
        logged.apply(seat, a)
        silent.apply(seat, a)
    assert logged.state_hash() == silent.state_hash()
    assert logged.log
    for e in logged.log:
        assert isinstance(e.get("kind"), str), e
        assert "text" not in e
        assert not _english(e), e


def test_tta_8_end_of_turn_logs_income_consumption_and_corruption() -> None:
    s = action_phase(2, 1)
    s.log = []
    civ = s.civs[0]
    culture, science = civ.culture, civ.science
    rates = board.ratings(civ)
    food, res = board.stock(civ, False), board.stock(civ, True)
    s.apply(0, act.END)
    settle(s)
    entry = next(e for e in s.log if e["kind"] == "production")
    assert entry["player"] == 0
    assert entry["culture"] == rates[0] == civ.culture - culture
    assert entry["science"] == rates[1] == civ.science - science
    assert entry["food"] == board.stock(civ, False) - food
    assert entry["resources"] == board.stock(civ, True) - res
    assert entry["consumption"] == board.consumption(civ.yellow)
    assert entry["famine"] == 0
    assert _kinds(s)[:2] == ["end_turn", "production"]


def test_tta_8_2_an_uprising_is_logged_instead_of_production() -> None:
    s = action_phase(2, 1)
    s.log = []
    civ = s.civs[0]
    civ.yellow = 4  # a big population wants happy faces it does not have
    civ.pool = 0
    s._legal = None
    s.apply(0, act.END)
    settle(s)
    assert "uprising" in _kinds(s)
    assert "production" not in _kinds(s)


def test_tta_12_3_a_revealed_event_logs_what_it_did_to_each_player() -> None:
    s = politics_phase(3)
    crafts = BY_ID["development_of_crafts"]
    s.events.append(crafts)  # the top current event
    prep = next(c.idx for c in CARDS if c.type == "event" and c.age == 1)
    s.civs[0].mhand = [prep]
    s._legal = None
    before = [board.stock(c, True) for c in s.civs]
    s.apply(0, act.PREPARE + prep)
    kinds = _kinds(s)
    assert kinds[:4] == ["prepare_hidden", "prepare", "event", "effects"]
    assert s.log[2] == {"kind": "event", "card": "development_of_crafts"}
    effects = s.log[3]
    assert effects["card"] == "development_of_crafts"
    assert effects["cause"] == "event"
    gained = {c["player"]: c.get("resources") for c in effects["changes"]}
    assert gained == {
        seat: board.stock(civ, True) - before[seat]
        for seat, civ in enumerate(s.civs)
        if board.stock(civ, True) != before[seat]
    }
    assert all(v and v > 0 for v in gained.values())


def test_tta_6_4_an_aggression_logs_its_strengths_result_and_effect() -> None:
    s = politics_phase()
    spy = card("spy")
    soldiers(s, 0, 3)
    s.civs[0].mhand = [spy]
    s.civs[0].ma = 5
    s.civs[0].science, s.civs[1].science = 2, 3
    s._legal = None
    attack, defense = politics.attack_strengths(s, 0, 1)
    s.apply(0, act.AGGRESS + spy * 4 + 1)
    assert s.log[-1]["kind"] == "aggression"
    assert (s.log[-1]["attack"], s.log[-1]["defense"], s.log[-1]["target"]) == (
        attack,
        defense,
        1,
    )
    s.apply(1, act.DONE)
    result = next(e for e in s.log if e["kind"] == "aggression_result")
    assert result == {
        "kind": "aggression_result",
        "card": "spy",
        "attacker": 0,
        "target": 1,
        "attack": attack,
        "defense": defense,
        "success": True,
    }
    effects = next(e for e in s.log if e["kind"] == "effects")
    assert effects["cause"] == "aggression"
    by_seat = {c["player"]: c for c in effects["changes"]}
    assert by_seat[0]["science"] == 3
    assert by_seat[1]["science"] == -3


def test_tta_6_5_a_war_logs_its_result_at_the_declarers_next_turn() -> None:
    s = politics_phase(2)
    war = card("war_over_territory")
    soldiers(s, 0, 3)
    s.civs[0].mhand = [war]
    s.civs[0].ma = 3
    s._legal = None
    s.apply(0, act.WAR + war * 4 + 1)
    assert s.log[-1]["kind"] == "war"
    for _ in range(2):
        s.apply(s.to_move()[0], act.END)
        settle(s)
    result = next(e for e in s.log if e["kind"] == "war_result")
    assert result["declarer"] == 0
    assert result["target"] == 1
    assert result["winner"] == 0
    assert result["attack"] > result["defense"]
    effects = next(e for e in s.log if e["kind"] == "effects" and e["cause"] == "war")
    assert {c["player"] for c in effects["changes"]} == {0, 1}


def test_tta_6_6_pacts_made_and_cancelled_are_logged() -> None:
    s = politics_phase(3)
    pact = card("open_borders_agreement")
    s.civs[0].mhand = [pact]
    s._legal = None
    s.apply(0, act.PACT + pact * 8 + 1 * 2)
    settle(s)  # the partner's answer: refuse is OPTION+0, accept OPTION+1
    assert "pact_made" not in _kinds(s)
    assert s.log[-1]["kind"] == "pact_answer"
    assert not s.log[-1]["accept"]
    s.civs[0].mhand = [pact]
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(0, act.PACT + pact * 8 + 1 * 2)
    s.apply(1, act.OPTION + 1)
    made = [e for e in s.log if e["kind"] == "pact_made"]
    assert made == [{"kind": "pact_made", "card": "open_borders_agreement", "a": 0, "b": 1}]
    s.phase = PH_POLITICS
    s._legal = None
    s.apply(0, act.CANCEL + pact)
    assert s.log[-1] == {"kind": "pact_ends", "card": "open_borders_agreement", "a": 0, "b": 1}


def test_julius_caesar_second_political_action_is_logged() -> None:
    s = politics_phase(3)
    s.civs[0].leader = card("julius_caesar")
    board.enter_play(s.civs[0], s.civs[0].leader)
    ev = [c.idx for c in CARDS if c.type == "event" and c.age == 1][:2]
    s.civs[0].mhand = list(ev)
    s._legal = None
    s.apply(0, act.PREPARE + ev[0])
    settle(s)
    second = [e for e in s.log if e["kind"] == "second_political_action"]
    assert second == [{"kind": "second_political_action", "player": 0, "card": "julius_caesar"}]
    assert s.view(0)["second_political_action"] is True


def test_tta_11_an_auction_and_its_colony_are_logged() -> None:
    s = politics_phase(2)
    territory = next(c.idx for c in CARDS if c.type == "territory" and c.age == 1)
    s.events.append(territory)
    prep = next(c.idx for c in CARDS if c.type == "event" and c.age == 1)
    s.civs[0].mhand = [prep]
    develop(s.civs[0], "swordsmen")
    workers(s.civs[0], swordsmen=2)
    s._legal = None
    s.apply(0, act.PREPARE + prep)
    assert {"kind": "territory", "card": CARDS[territory].id} in s.log
    # seat 0 bids 1, seat 1 passes (or cannot bid), seat 0 sends units
    settle_bids = 0
    while s.pending[0] != 0 and settle_bids < 20:
        who = s.to_move()[0]
        legal = s.legal_actions(who)
        choice = act.OPTION + 1 if who == 0 and act.OPTION + 1 in legal else legal[0]
        if s.pending[0] == 8:  # sending: send units until the force is enough, then done
            choice = act.DONE if act.DONE in legal else legal[-1]
        s.apply(who, choice)
        settle_bids += 1
    kinds = _kinds(s)
    assert "auction_won" in kinds
    assert "colony" in kinds
    won = next(e for e in s.log if e["kind"] == "auction_won")
    assert won["player"] == 0
    assert won["card"] == CARDS[territory].id
    colony = next(e for e in s.log if e["kind"] == "colony")
    assert colony == {"kind": "colony", "card": CARDS[territory].id, "player": 0}
    assert territory in s.civs[0].colonies


def test_tta_6_2_a_prepared_card_is_private_and_its_public_side_hides_it() -> None:
    s = politics_phase(3)
    prep = next(c.idx for c in CARDS if c.type == "event" and c.age == 1)
    s.civs[0].mhand = [prep]
    s._legal = None
    s.apply(0, act.PREPARE + prep)
    mine = s.view(0)["log"]
    assert {
        "kind": "prepare",
        "card": CARDS[prep].id,
        "card_age": "I",
        "player": 0,
        "seat": 0,
    } in mine
    assert not any(e["kind"] == "prepare_hidden" for e in mine)  # the seat reads it in full
    theirs = s.view(1)["log"]
    assert {"kind": "prepare_hidden", "card_age": "I", "player": 0, "others": 0} in theirs
    assert CARDS[prep].id not in str([e for e in theirs if e["kind"].startswith("prepare")])
    spectator = s.view(None)["log"]
    assert any(e["kind"] == "prepare_hidden" for e in spectator)
    assert not any(e["kind"] == "prepare" for e in spectator)
