"""7 Wonders extras for the web UI: the card catalog and per-seat payment hints.

:func:`hints` is computed **only from a seat's view** (never from the full state): it rebuilds
each city's production from the public structures and stage counts in ``view["cities"]`` and
runs the engine's payment search on that, to tell the UI, for every card in the seat's own hand,
whether it can be built, the cheapest payment and the other choices of neighbours. The engine's
``legal`` list in the view stays the authority; hints only explain it.
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON
from civtable.games.seven_wonders import actions
from civtable.games.seven_wonders.catalog import (
    BOARD_INDEX,
    BOARDS,
    CARD_DOC,
    CARD_INDEX,
    CARDS,
    COLORS,
    FREE_COST_ID,
    RESOURCE_NAMES,
    RESOURCES,
    SCIENCE,
    WONDER_DOC,
    describe_effect,
)
from civtable.games.seven_wonders.rules.trade import payment_options
from civtable.games.seven_wonders.state import City


def catalog(lang: str = "en") -> JSON:
    """Every card and wonder board, for the UI (names, colours, costs, effects, chains).

    ``lang`` is the language of names and texts (only English so far)."""
    raw_cards = {c["id"]: c for c in CARD_DOC["cards"]}
    cards: dict[str, Any] = {}
    for card in CARDS:
        raw = raw_cards[card.id]
        cards[card.id] = {
            "id": card.id,
            "index": card.index,
            "key": card.key,
            "name": card.name,
            "age": card.age,
            "color": COLORS[card.color],
            "cost": dict(raw["cost"]["resources"]),
            "coins": card.coin_cost,
            "effect": raw["effect"],
            "text": describe_effect(card.effect),
            "chains_from": [CARDS[p].id for p in card.chains_from],
            "chains_to": [CARDS[p].id for p in card.chains_to],
        }
    boards: dict[str, Any] = {}
    for raw_board in WONDER_DOC["boards"]:
        board = BOARDS[BOARD_INDEX[raw_board["id"]]]
        sides: dict[str, Any] = {}
        for side_index, side in enumerate(("A", "B")):
            sides[side] = [
                {
                    "stage": raw_stage["stage"],
                    "cost": dict(raw_stage["cost"]["resources"]),
                    "coins": int(raw_stage["cost"].get("coins", 0)),
                    "effect": raw_stage["effect"],
                    "text": describe_effect(stage.effect),
                }
                for raw_stage, stage in zip(
                    raw_board["sides"][side]["stages"], board.sides[side_index], strict=True
                )
            ]
        boards[board.id] = {
            "id": board.id,
            "name": board.name,
            "wonder": board.wonder,
            "start_resource": RESOURCES[board.start_resource],
            "sides": sides,
        }
    return {
        "game": "seven-wonders",
        "resources": dict(zip(RESOURCES, RESOURCE_NAMES, strict=True)),
        "colors": list(COLORS),
        "science": list(SCIENCE),
        "cards": cards,
        "boards": boards,
        "actions": {
            "BUILD": actions.BUILD,
            "STAGE": actions.STAGE,
            "DISCARD": actions.DISCARD,
            "FREE": actions.FREE,
            "HALI": actions.HALI,
            "HALI_PASS": actions.HALI_PASS,
            "PAY": actions.PAY,
            "PAY_BASE": actions.PAY_BASE,
        },
    }


def _city_from_view(doc: JSON) -> City:
    """A city with the production, discounts and coins its public view shows."""
    city = City.new(BOARD_INDEX[doc["board"]], "AB".index(doc["side"]), int(doc["coins"]))
    for cid in doc["structures"]:
        city.add_structure(CARD_INDEX[cid])
    for _ in range(int(doc["stages_built"])):
        city.add_stage(0)  # the marker card is hidden and does not matter for production
    return city


def _payments(
    cities: list[City], c: int, cost_id: int, coin_cost: int
) -> tuple[list[list[int]], bool]:
    """Affordable ``[left, right]`` payments (cheapest first) and whether any plan exists."""
    n = len(cities)
    city = cities[c]
    if cost_id == FREE_COST_ID:
        options: tuple[tuple[int, int], ...] = ((0, 0),)
    else:
        options = payment_options(
            cost_id,
            city.own_sig,
            cities[(c + 1) % n].trade_sig,
            cities[(c - 1) % n].trade_sig,
            city.discount,
        )
    budget = city.coins - coin_cost
    return [[a, b] for a, b in options if a + b <= budget], bool(options)


def hints(view: JSON) -> JSON | None:
    """Payment hints for the seat's current main-step decision, from its view alone."""
    c = view.get("deciding_for")
    if view.get("seat") is None or c is None:
        return None
    if view.get("phase") not in ("main", "babylon_extra_step"):
        return None  # Halikarnassus: every candidate is free
    if "choosing_payment" in view.get("commitments", {}).get(str(c), {}):
        return None  # the view lists the payment choices itself
    cities = [_city_from_view(doc) for doc in view["cities"]]
    city = cities[c]
    out_cards: dict[str, Any] = {}
    for cid in dict.fromkeys(view["hand"]):
        card = CARDS[CARD_INDEX[cid]]
        entry: dict[str, Any] = {"coin_cost": card.coin_cost, "payments": [], "reason": None}
        if city.owns_key(card.key_index):
            entry["reason"] = f"you already have {card.name}"
        elif city.keys & card.chain_keys:
            owned = [CARDS[p].name for p in card.chains_from if city.owns_key(CARDS[p].key_index)]
            entry["chain"] = owned[0]
            entry["payments"] = [[0, 0]]
            entry["coin_cost"] = 0
        else:
            pays, possible = _payments(cities, c, card.cost_id, card.coin_cost)
            entry["payments"] = pays
            if not possible:
                entry["reason"] = "the resources are not available (not even from neighbours)"
            elif not pays:
                entry["reason"] = "not enough coins"
        out_cards[cid] = entry
    stages = city.board_stages
    stage: dict[str, Any]
    if city.stages >= len(stages):
        stage = {"number": None, "payments": [], "reason": "your wonder is complete"}
    else:
        pays, possible = _payments(cities, c, stages[city.stages].cost_id, 0)
        reason = None
        if not possible:
            reason = "the resources are not available (not even from neighbours)"
        elif not pays:
            reason = "not enough coins"
        stage = {"number": city.stages + 1, "payments": pays, "reason": reason}
    return {"city": c, "cards": out_cards, "stage": stage}
