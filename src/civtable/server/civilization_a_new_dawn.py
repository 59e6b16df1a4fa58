"""Civilization: A New Dawn extras for the web UI: focus cards, leaders, wonders, city-states,
natural wonders, diplomacy and victory cards by id, and the action-id ranges the table view
decodes clicks with. Static data only; the game in progress comes from the seat's view."""

from __future__ import annotations

from civtable.core.api import JSON
from civtable.games.civilization_a_new_dawn import actions
from civtable.games.civilization_a_new_dawn.catalog import (
    CITY_STATES,
    ERAS,
    FOCUS_CARDS,
    LEADERS,
    LEVELS,
    NATURAL_WONDERS,
    PLAYER_CARD_NAMES,
    PLAYER_CARD_TEXTS,
    PLAYER_CARDS,
    RESOURCES,
    TYPES,
    VICTORY_CARDS,
    WONDER_TYPES,
    WONDERS,
)


def catalog() -> JSON:
    """Everything the table view names or explains."""
    return {
        "game": "civilization-a-new-dawn",
        "types": list(TYPES),
        "resources": list(RESOURCES),
        "focus_cards": {
            c.id: {
                "name": c.name,
                "type": TYPES[c.type],
                "level": LEVELS[c.level - 1],
                "text": c.text,
            }
            for c in FOCUS_CARDS
        },
        "leaders": {
            ld.id: {
                "civilization": ld.civilization,
                "leader": ld.leader,
                "ability": ld.ability_name,
                "text": ld.ability_text,
            }
            for ld in LEADERS
        },
        "wonders": {
            w.id: {
                "name": w.name,
                "type": WONDER_TYPES[w.type],
                "era": ERAS[w.era],
                "cost": w.cost,
                "resources": [RESOURCES[r] for r in w.resources if r >= 0],
                "text": w.text,
            }
            for w in WONDERS
        },
        "city_states": {
            c.id: {"name": c.name, "type": TYPES[c.type], "text": c.card_text} for c in CITY_STATES
        },
        "natural_wonders": {
            n.id: {"name": n.name, "resource": RESOURCES[n.resource]} for n in NATURAL_WONDERS
        },
        "diplomacy": {
            k: {"name": name, "text": text}
            for k, name, text in zip(
                PLAYER_CARDS, PLAYER_CARD_NAMES, PLAYER_CARD_TEXTS, strict=True
            )
        },
        "victory_cards": {
            v.id: [{"name": a.name, "text": a.text} for a in v.agendas] for v in VICTORY_CARDS
        },
        "actions": {
            "DONE": actions.DONE,
            "OPT": actions.OPT,
            "TYPE": actions.TYPE,
            "SLOT": actions.SLOT,
            "RES": actions.RES,
            "CARD": actions.CARD,
            "NW": actions.NW,
            "WDECK": actions.WDECK,
            "CSC": actions.CSC,
            "PCARD": actions.PCARD,
            "BARB": actions.BARB,
            "SPACE": actions.SPACE,
            "SIZE": actions.ACTION_SPACE,
        },
    }
