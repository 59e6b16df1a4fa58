"""Civilization: A New Dawn extras for the web UI: focus cards, leaders, wonders, city-states,
natural wonders, diplomacy and victory cards by id, and the action-id ranges the table view
decodes clicks with. Static data only; the game in progress comes from the seat's view."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

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


def _step_text(step: Any) -> str:
    """One effect step of the data file in words, e.g. ``attack (max attacks 2, range 2)``."""
    if not isinstance(step, dict):
        return str(step)
    if "mode" in step:
        items: list[Any] = step.get("options") or step.get("steps") or []
        parts = [_step_text(x) for x in items]
        return (" or " if step["mode"] == "choose_one" else "; then ").join(parts)
    op = str(step.get("op", "")).replace("_", " ")
    params = ", ".join(
        f"{k.replace('_', ' ')} {v}"
        for k, v in step.items()
        if k not in ("op", "then") and not isinstance(v, (dict, list))
    )
    text = f"{op} ({params})" if params else op
    if isinstance(step.get("then"), (dict, list)):
        then = step["then"] if isinstance(step["then"], list) else [step["then"]]
        text += "; then " + "; then ".join(_step_text(x) for x in then)
    return text


def slot_effects() -> dict[str, dict[str, str]]:
    """Per focus card, what it does in each slot 1..5 (from its per-slot effect data, CIV-6)."""
    pkg = resources.files("civtable.games.civilization_a_new_dawn") / "data" / "focus_cards.json"
    doc = json.loads(pkg.read_text(encoding="utf-8"))
    return {
        c["id"]: {slot: _step_text(e) for slot, e in c["effect_by_slot"].items()}
        for c in doc["cards"]
    }


def catalog(lang: str = "en") -> JSON:
    """Everything the table view names or explains.

    ``lang`` is the language of names and texts (only English so far)."""
    slots = slot_effects()
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
                "slots": slots.get(c.id, {}),
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
