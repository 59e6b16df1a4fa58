"""Deus extras for the web UI: the card catalogue (names, colours, costs, effects), the gods and
the action-id ranges the table view decodes clicks with. Static data only; everything about a
game in progress comes from the seat's view."""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON
from civtable.games.deus import actions
from civtable.games.deus.catalog import CARDS, COLORS, GODS, PIECES, RESOURCES, TERRAINS


def catalog(lang: str = "en") -> JSON:
    """Every card and god, the terrain and piece names, and the action ranges.

    ``lang`` is the language of names and texts (only English so far)."""
    cards: dict[str, Any] = {}
    for card in CARDS:
        cards[card.id] = {
            "id": card.id,
            "index": card.index,
            "name": card.name,
            "color": COLORS[card.color],
            "cost": {RESOURCES[r]: n for r, n in enumerate(card.cost) if n},
            "cost_gold": card.cost_gold,
            "text": card.summary,
            "rule": card.rule,
            "copies": card.copies,
        }
    return {
        "game": "deus",
        "cards": cards,
        "colors": list(COLORS),
        "resources": list(RESOURCES),
        "pieces": list(PIECES),
        "terrains": list(TERRAINS),
        "gods": {COLORS[g.color]: {"id": g.id, "name": g.name, "text": g.summary} for g in GODS},
        "actions": {name.upper(): lo for name, lo, _hi in actions.KINDS}
        | {"SPACE": actions.ACTION_SPACE},
    }
