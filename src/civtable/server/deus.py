"""Deus extras for the web UI: the card catalogue (names, colours, costs, full texts), the gods,
the terrain/resource/piece/colour vocabulary and the action-id ranges the table view decodes
clicks with. Static data only; everything about a game in progress comes from the seat's view
and its player words (:mod:`civtable.games.deus.words`)."""

from __future__ import annotations

from typing import Any

from civtable import present
from civtable.core.api import JSON
from civtable.games.deus import actions, words
from civtable.games.deus.catalog import (
    CARDS,
    COLOR_PIECE,
    COLORS,
    GODS,
    LAND_RESOURCE,
    PIECES,
    RESOURCES,
    TERRAINS,
)


def catalog(lang: str = "en") -> JSON:
    """Every card and god with its name and full text in ``lang``, the words of the map
    legend, and the action ranges. Card and god names and card texts are the game's content data
    in ``lang`` (``games/deus/data/i18n``; English from the card data), god powers and costs are
    made from the data with the ``deus`` catalogue."""
    tr = present.translator(present.check_language(lang))
    cards: dict[str, Any] = {}
    for card in CARDS:
        cards[card.id] = {
            "id": card.id,
            "index": card.index,
            "name": words.card_name(card.id, tr),
            "color": COLORS[card.color],
            "cost": {RESOURCES[r]: n for r, n in enumerate(card.cost) if n},
            "cost_gold": card.cost_gold,
            "cost_text": words.cost_text(card, tr),
            "text": words.effect_text(card, tr),
            "copies": card.copies,
        }
    return {
        "game": "deus",
        "lang": tr.lang,
        "cards": cards,
        "colors": list(COLORS),
        "resources": list(RESOURCES),
        "pieces": list(PIECES),
        "terrains": list(TERRAINS),
        "land_resource": {TERRAINS[t]: RESOURCES[r] for t, r in enumerate(LAND_RESOURCE)},
        "color_piece": {
            COLORS[c]: (PIECES[p] if p >= 0 else "temple") for c, p in enumerate(COLOR_PIECE)
        },
        "gods": {
            COLORS[g.color]: {
                "id": g.id,
                "name": words.god_name(g.color, tr),
                "text": words.god_text(g.color, tr),
                "piece": PIECES[g.piece] if g.piece >= 0 else None,
            }
            for g in GODS
        },
        "actions": {name.upper(): lo for name, lo, _hi in actions.KINDS}
        | {"SPACE": actions.ACTION_SPACE},
    }
