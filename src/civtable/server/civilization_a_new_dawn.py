"""Civilization: A New Dawn extras for the web UI: focus cards, leaders, wonders, city-states,
natural wonders, diplomacy and victory cards by id, and the action-id ranges the table view
decodes clicks with. Static data only; the game in progress comes from the seat's view.

Names and texts are in the reader's language: content names and texts from the game data and
``data/i18n/<lang>.json`` (:func:`civtable.games.civilization_a_new_dawn.words.content`),
focus-card texts per slot made from
the cards' effect data by the catalogue's templates (``civ.op.*``), agendas from their conditions.
"""

from __future__ import annotations

from civtable import present
from civtable.core.api import JSON
from civtable.games.civilization_a_new_dawn import actions, words
from civtable.games.civilization_a_new_dawn.catalog import (
    CITY_STATES,
    ERAS,
    FOCUS_CARDS,
    LEADERS,
    LEVELS,
    NATURAL_WONDERS,
    PLAYER_CARDS,
    RESOURCES,
    TYPES,
    VICTORY_CARDS,
    WONDER_TYPES,
    WONDERS,
)


def catalog(lang: str = "en") -> JSON:
    """Everything the table view names or explains, in ``lang``."""
    ctx = present.Ctx(present.translator(lang))
    names = words.content(lang)
    return {
        "game": "civilization-a-new-dawn",
        "types": list(TYPES),
        "resources": list(RESOURCES),
        "focus_cards": {
            c.id: {
                "name": names.cards[c.id],
                "type": TYPES[c.type],
                "level": LEVELS[c.level - 1],
                # the card's rules: what its slot means, what a spent trade token adds
                "text": words.card_rules(ctx, c.id),
                "slots": {str(k): words.card_slot_text(ctx, c.id, k) for k in range(1, 6)},
            }
            for c in FOCUS_CARDS
        },
        "leaders": {
            ld.id: {
                "civilization": names.civilizations[ld.id],
                "leader": names.leaders[ld.id],
                "ability": names.abilities[ld.id],
                "text": names.ability_texts[ld.id],
            }
            for ld in LEADERS
        },
        "wonders": {
            w.id: {
                "name": names.wonders[w.id],
                "type": WONDER_TYPES[w.type],
                "era": ERAS[w.era],
                "cost": w.cost,
                "resources": [RESOURCES[r] for r in w.resources if r >= 0],
                "text": names.wonder_texts[w.id],
            }
            for w in WONDERS
        },
        "city_states": {
            c.id: {
                "name": names.city_states[c.id],
                "type": TYPES[c.type],
                "text": names.cs_texts[c.id],
            }
            for c in CITY_STATES
        },
        "natural_wonders": {
            n.id: {"name": names.natural_wonders[n.id], "resource": RESOURCES[n.resource]}
            for n in NATURAL_WONDERS
        },
        "diplomacy": {
            k: {"name": names.player_cards[k], "text": names.player_card_texts[k]}
            for k in PLAYER_CARDS
        },
        "victory_cards": {
            v.id: [
                {"name": names.agendas[v.id][i], "text": words.agenda_text(ctx, a.condition)}
                for i, a in enumerate(v.agendas)
            ]
            for v in VICTORY_CARDS
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
            "MAPPOS": actions.MAPPOS,
            "SIZE": actions.ACTION_SPACE,
        },
    }
