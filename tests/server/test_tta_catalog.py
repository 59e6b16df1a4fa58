"""The Through the Ages UI catalogue (server/through_the_ages.py) and the view fields the table
view (web/static/js/tta.js) draws: row take costs, building costs, the pending follow-up.

The catalogue's action ranges are decoded the way tta.js decodes them (the largest range start
at or below the id), and every legal action of random games must land on something the page
draws (a row card, a card in play, a hand card) or be one of the panel's plain decisions.
"""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from typing import Any

from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages.actions import RESIGN
from civtable.games.through_the_ages.catalog import CARDS, NCARDS, player_text
from civtable.games.through_the_ages.state import TTAState
from civtable.games.through_the_ages.view import PENDING_KINDS
from civtable.server import extras
from civtable.server.through_the_ages import catalog

RAW = json.loads(
    (resources.files("civtable.games.through_the_ages") / "data" / "cards.json").read_text("utf-8")
)["cards"]
CAT = catalog()
PANEL = {
    "END",
    "POP",
    "CHOICE",
    "HAMMURABI",
    "OCEAN",
    "BARBAROSSA",
    "CHURCHILL",
    "RESIGN",
    "ALEXANDER",
    "OPTION",
    "DONE",
    "TRADE",
}


def _decode(cat: dict[str, Any], action: int) -> tuple[str, int]:
    """What tta.js's ``kind()`` does."""
    order = sorted(((lo, k) for k, lo in cat["actions"].items() if k != "SPACE"))
    found = ("?", -1)
    for lo, k in order:
        if action >= lo:
            found = (k, action - lo)
    return found


def _random_positions(seed: int, players: int, mode: str = "first") -> list[TTAState]:
    """Every position of a random game (a copy per step; the players never resign)."""
    s = GAME.new_game(players, seed, {"mode": mode})
    rng = random.Random(seed)
    out = []
    while not s.is_terminal():
        out.append(s.copy())
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        s.apply(seat, rng.choice([a for a in legal if a != RESIGN] or legal))
    return out


def test_tta_catalog_lists_every_card_with_its_printed_costs() -> None:
    cat = catalog()
    assert extras.catalog("through-the-ages") == cat
    json.dumps(cat)  # served as JSON
    assert len(cat["cards"]) == NCARDS == len(RAW)
    assert sorted(c["index"] for c in cat["cards"].values()) == list(range(NCARDS))
    for raw in RAW:
        doc = cat["cards"][raw["id"]]
        assert doc["name"] == raw["name"]
        assert doc["age"] == raw["age"]
        assert doc["type"] == raw["type"]
        # the player's text: the data's paraphrase without the rule ids (issue 18), which
        # stay in rule_refs for developers
        assert doc["text"] == player_text(raw["effect"]["text"])
        assert not re.search(r"TTA-|AMB-", doc["text"]), raw["id"]
        assert doc["rule_refs"] == re.findall(r"TTA-(?:AMB-)?\d+(?:\.\d+)*", raw["effect"]["text"])
        assert doc.get("science_cost", 0) == (raw.get("science_cost") or 0), raw["id"]
        if raw["type"] == "wonder":
            assert sum(doc["stages"]) == raw["total_cost"], raw["id"]
        if raw.get("tech_type") in ("farm", "mine", "urban", "unit"):
            assert doc["build_cost"] == raw["build_cost"]
            assert cat["slot_cards"][doc["slot"]] == raw["id"]
    # TTA-3.1: 5 slots for 1 civil action, 4 for 2, 4 for 3
    assert cat["take_cost_by_slot"] == [1] * 5 + [2] * 4 + [3] * 4
    assert cat["actions"]["SPACE"] == GAME.action_space_size(3)


def test_tta_catalog_ranges_put_every_legal_action_on_a_drawn_card() -> None:
    cat = catalog()
    seen: set[str] = set()
    games = ((1, 2, "first"), (2, 3, "full"), (3, 4, "full"), (4, 3, "shorter"))
    for seed, players, mode in games:
        for s in _random_positions(seed, players, mode):
            seat = s.to_move()[0]
            v = s.view(seat)
            assert v["actor"] == seat == v["to_move"][0]  # also another seat's decision (TTA-6.4)
            me = v["civs"][seat]
            in_play = {cat["cards"][c]["slot"] for c in me["workers"]}
            hand = {cat["cards"][c]["index"] for c in me["hand"] + v["military_hand"]}
            military = {cat["cards"][c]["index"] for c in v["military_hand"]}
            pacts = {cat["cards"][p["card"]]["index"] for p in v["pacts"]}
            for a in v["legal"]:
                kind, k = _decode(cat, a["id"])
                seen.add(kind)
                label = a["label"]
                if kind == "TAKE":
                    assert v["row"][k] is not None
                    assert label.startswith("take ")
                elif kind in ("BUILD", "DESTROY"):
                    assert k in in_play, label  # the button goes on that card
                elif kind == "UPGRADE":
                    lo, hi = cat["upgrade_pairs"][k % 6]
                    assert (k // 6) * 4 + lo in in_play
                    assert label.startswith("upgrade ")
                    assert cat["slot_cards"][(k // 6) * 4 + hi] is not None
                elif kind == "BACH":
                    assert k // 4 in in_play, label
                elif kind in ("PLAY", "REVOLT", "DISCARD"):
                    assert k in hand, label
                elif kind == "COPY":
                    assert CARDS[k].id in v["common_tactics"], label
                elif kind == "WONDER":
                    assert me["unfinished_wonder"] is not None, label
                elif kind in ("PREPARE", "COLUMBUS"):
                    assert k in military, label  # on the military hand card
                elif kind in ("AGGRESS", "WAR", "SHARED"):
                    assert k // 4 in military, label
                    assert 0 <= k % 4 < players, label
                elif kind == "PACT":
                    assert k // 8 in military, label
                elif kind == "CANCEL":
                    assert k in pacts, label  # on the pact in play
                elif kind == "SEND":
                    assert k in in_play, label  # on the unit card
                else:
                    assert kind in PANEL, (kind, label)
    assert {"END", "TAKE", "POP", "BUILD", "UPGRADE", "DESTROY", "PLAY", "WONDER"} <= seen
    assert {"PREPARE", "AGGRESS", "WAR", "PACT", "OPTION", "DONE"} <= seen


def test_tta_3_1_view_row_costs_are_what_taking_costs() -> None:
    checked = 0
    for s in _random_positions(5, 3):
        seat = s.to_move()[0]
        v = s.view(seat)
        takes = [a["id"] for a in v["legal"] if _decode(CAT, a["id"])[0] == "TAKE"]
        for a in takes[:2]:
            slot = a - CAT["actions"]["TAKE"]
            before = s.civs[seat].ca
            t = s.copy()
            t.apply(seat, a)
            assert before - t.civs[seat].ca == v["row_costs"][slot], v["row"][slot]
            checked += 1
        assert [c is None for c in v["row_costs"]] == [c is None for c in v["row"]]
    assert checked > 50


def test_tta_7_2_3_view_build_costs_are_what_building_pays() -> None:
    cat = catalog()
    checked = 0
    for s in _random_positions(6, 3):
        seat = s.to_move()[0]
        v = s.view(seat)
        if v["pending_detail"]["kind"] != "none":
            continue
        for a in v["legal"]:
            kind, slot = _decode(cat, a["id"])
            card = cat["slot_cards"][slot] if kind == "BUILD" else None
            if card is None or cat["cards"][card]["tech_type"] == "unit":
                continue
            t = s.copy()
            t.apply(seat, a["id"])
            paid = v["civs"][seat]["resources"] - t.view(seat)["civs"][seat]["resources"]
            assert paid == v["civs"][seat]["build_costs"][card], card
            checked += 1
    assert checked > 20


def test_tta_view_pending_detail_names_the_action_card_being_finished() -> None:
    found = 0
    for s in _random_positions(7, 2) + _random_positions(8, 3, "full"):
        if s.pending[0] == 0:
            continue
        detail = s.view(s.decider())["pending_detail"]
        assert detail["seat"] == s.decider()
        assert detail["kind"] in PENDING_KINDS[1:]
        if detail["kind"] in ("perform", "choose") and "card" in detail:
            assert CAT["cards"][detail["card"]]["type"] in ("action", "event")
            found += 1
        if detail["kind"] == "defend":
            assert CAT["cards"][detail["card"]]["type"] == "aggression"
            assert detail["target"] == s.decider()  # the target defends (TTA-6.4)
            assert detail["attack"] > 0
        if detail["kind"] == "bid":
            assert CAT["cards"][detail["card"]]["type"] == "territory"
        if detail["kind"] == "discard":
            assert detail["count"] >= 1
    assert found >= 1


def test_tta_7_2_9_view_develop_costs_are_what_developing_pays() -> None:
    checked = 0
    for s in _random_positions(9, 3) + _random_positions(10, 2):
        seat = s.to_move()[0]
        v = s.view(seat)
        me = v["civs"][seat]
        assert set(me["develop_costs"]) == {
            c for c in me["hand"] if CAT["cards"][c]["type"] == "technology"
        }
        if v["pending_detail"]["kind"] != "none":
            continue
        for a in v["legal"]:
            kind, idx = _decode(CAT, a["id"])
            card = CARDS[idx] if kind == "PLAY" else None
            if card is None or card.type != "technology" or card.tech_type == "unit":
                continue
            t = s.copy()
            t.apply(seat, a["id"])
            assert s.civs[seat].science - t.civs[seat].science == me["develop_costs"][card.id]
            checked += 1
    assert checked > 10
