"""7 Wonders extras for the web UI: the card catalog and per-seat payment hints.

:func:`hints` (:mod:`civtable.games.seven_wonders.hints`) is computed **only from a seat's
view** (never from the full state): for every card in the seat's own hand, whether it can be
built, the payments it can afford and otherwise a reason code; the player words of those reasons
are in the payload's ``words`` (:mod:`civtable.games.seven_wonders.words`). The engine's
``legal`` list in the view stays the authority; hints only explain it.
"""

from __future__ import annotations

from typing import Any

from civtable import present
from civtable.core.api import JSON
from civtable.games.seven_wonders import actions, words
from civtable.games.seven_wonders.catalog import (
    BOARD_INDEX,
    BOARDS,
    CARD_DOC,
    CARDS,
    COLORS,
    RESOURCES,
    SCIENCE,
    WONDER_DOC,
)
from civtable.games.seven_wonders.hints import hints

__all__ = ["catalog", "hints"]


def catalog(lang: str = "en") -> JSON:
    """Every card and wonder board, for the UI (names, colours, costs, effects, chains).

    ``lang`` is the language of names and texts (names from the content data
    ``games/seven_wonders/data/i18n/<lang>.json``): ``text`` is the full player text of an
    effect, ``cost_text`` the cost in words."""
    tr = present.translator(lang)
    raw_cards = {c["id"]: c for c in CARD_DOC["cards"]}
    cards: dict[str, Any] = {}
    for card in CARDS:
        raw = raw_cards[card.id]
        cards[card.id] = {
            "id": card.id,
            "index": card.index,
            "key": card.key,
            "name": words.card_name(card.id, tr),
            "age": card.age,
            "color": COLORS[card.color],
            "cost": dict(raw["cost"]["resources"]),
            "coins": card.coin_cost,
            "effect": raw["effect"],
            "text": words.effect_text(raw["effect"], tr),
            "cost_text": words.cost_text(raw["cost"]["resources"], card.coin_cost, tr),
            "chains_from": [CARDS[p].id for p in card.chains_from],
            "chains_to": [CARDS[p].id for p in card.chains_to],
        }
    boards: dict[str, Any] = {}
    for raw_board in WONDER_DOC["boards"]:
        board = BOARDS[BOARD_INDEX[raw_board["id"]]]
        sides: dict[str, Any] = {}
        for side in ("A", "B"):
            sides[side] = [
                {
                    "stage": raw_stage["stage"],
                    "cost": dict(raw_stage["cost"]["resources"]),
                    "coins": int(raw_stage["cost"].get("coins", 0)),
                    "effect": raw_stage["effect"],
                    "text": words.effect_text(raw_stage["effect"], tr),
                    "cost_text": words.cost_text(
                        raw_stage["cost"]["resources"], int(raw_stage["cost"].get("coins", 0)), tr
                    ),
                }
                for raw_stage in raw_board["sides"][side]["stages"]
            ]
        boards[board.id] = {
            "id": board.id,
            "name": words.board_city(board.id, tr),
            "wonder": words.wonder_name(board.id, tr),
            "start_resource": RESOURCES[board.start_resource],
            "sides": sides,
        }
    return {
        "game": "seven-wonders",
        "resources": {code: tr.t(f"sw.res.{code}") for code in RESOURCES},
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
