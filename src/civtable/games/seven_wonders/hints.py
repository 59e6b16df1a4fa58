"""What a seat's 7 Wonders decision costs, worked out from that seat's view alone.

:func:`hints` rebuilds each city's production from the public structures and stage counts in
``view["cities"]`` (never from the full state) and runs the engine's payment search on it, to
tell, for every card in the seat's hand, whether it can be built, the payments it can afford
(cheapest first), the chain that makes it free, and otherwise why not (a reason code:
``owned``, ``unavailable`` — the resources cannot be had, not even from the neighbours —,
``coins``; for the next wonder stage also ``complete``). The view's ``legal`` list stays the
authority; hints only explain it. The server sends them to the table (``payload.hints``) and
:mod:`civtable.games.seven_wonders.words` turns them into player words.
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON
from civtable.games.seven_wonders.catalog import (
    BOARD_INDEX,
    CARD_INDEX,
    CARDS,
    FREE_COST_ID,
)
from civtable.games.seven_wonders.rules.trade import payment_options
from civtable.games.seven_wonders.state import City


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
            entry["reason"] = "owned"
        elif city.keys & card.chain_keys:
            entry["chain"] = CARDS[
                next(p for p in card.chains_from if city.owns_key(CARDS[p].key_index))
            ].id
            entry["payments"] = [[0, 0]]
            entry["coin_cost"] = 0
        else:
            pays, possible = _payments(cities, c, card.cost_id, card.coin_cost)
            entry["payments"] = pays
            if not possible:
                entry["reason"] = "unavailable"
            elif not pays:
                entry["reason"] = "coins"
        out_cards[cid] = entry
    stages = city.board_stages
    stage: dict[str, Any]
    if city.stages >= len(stages):
        stage = {"number": None, "payments": [], "reason": "complete"}
    else:
        pays, possible = _payments(cities, c, stages[city.stages].cost_id, 0)
        reason = None
        if not possible:
            reason = "unavailable"
        elif not pays:
            reason = "coins"
        stage = {"number": city.stages + 1, "payments": pays, "reason": reason}
    return {"city": c, "cards": out_cards, "stage": stage}
