"""Through the Ages extras for the web UI: every card by id (name, age, type, costs, effect
text), the player-board tables, the building kinds and the action-id ranges the table view
decodes clicks with. Static data only; everything about a game in progress comes from the
seat's view."""

from __future__ import annotations

from typing import Any

from civtable import present
from civtable.core.api import JSON
from civtable.games.through_the_ages import actions, words
from civtable.games.through_the_ages.catalog import (
    AGES,
    CARDS,
    KINDS,
    RULE_REFS,
    SLOT_CARD,
    STATS,
    TAKE_COST,
    UNIT_KINDS,
    URBAN_KINDS,
)


def _stats(vec: tuple[int, ...]) -> dict[str, int]:
    return {STATS[i]: n for i, n in enumerate(vec) if n}


def card_doc(idx: int, tr: present.Translator | None = None) -> dict[str, Any]:
    """One card's static facts for the UI, its name and text in ``tr``'s language (English
    by default)."""
    tr = tr or present.translator()
    c = CARDS[idx]
    doc: dict[str, Any] = {
        "id": c.id,
        "index": c.idx,
        "name": words.name_of(tr, c),
        "age": AGES[c.age],
        "deck": c.deck,
        "type": c.type,
        "tech_type": c.tech_type,
        "subtype": c.subtype,
        "kind": KINDS[c.kind] if c.kind >= 0 else None,
        # the effect in a player's words; the rule ids it rests on, for developers only
        "text": words.text_of(tr, c),
        "rule_refs": list(RULE_REFS[idx]),
    }
    if c.science_cost:
        doc["science_cost"] = c.science_cost
    if c.revolution_cost:
        doc["revolution_cost"] = c.revolution_cost
    if c.kind >= 0:
        doc["build_cost"] = c.build_cost
        doc["slot"] = c.slot
    if any(c.per_worker):
        doc["per_worker"] = _stats(c.per_worker)
    if any(c.in_play):
        doc["in_play"] = _stats(c.in_play)
    if c.urban_limit:
        doc["urban_limit"] = c.urban_limit
    if c.stages:
        doc["stages"] = list(c.stages)
    if c.type == "tactic":
        doc["army"] = dict(zip(("infantry", "cavalry", "artillery"), c.army, strict=True))
        doc["tactic_strength"] = c.tactic
        doc["outdated_strength"] = c.tactic_old
    if c.type == "bonus":  # TTA-6.4 / TTA-11.4
        doc["defense"] = c.defense
        doc["colonization"] = c.colonize
    if c.ma_cost:  # aggressions and wars (TTA-6.4, TTA-6.5)
        doc["military_action_cost"] = c.ma_cost
    if c.type == "pact":  # TTA-6.6
        doc["symmetric"] = c.symmetric
        doc["attacks"] = c.attacks
    return doc


def catalog(lang: str = "en") -> JSON:
    """Every card by id, the building kinds and slots, row take costs and the action ranges.

    ``lang`` is the language of the cards' names and texts (content data, issue 19)."""
    tr = present.translator(present.check_language(lang))
    return {
        "game": "through-the-ages",
        "cards": {c.id: card_doc(c.idx, tr) for c in CARDS},
        "ages": list(AGES),
        "kinds": list(KINDS),
        "urban_kinds": [KINDS[k] for k in URBAN_KINDS],
        "unit_kinds": [KINDS[k] for k in UNIT_KINDS],
        #: building slot (kind * 4 + age) -> card id (None where no such card exists)
        "slot_cards": [CARDS[i].id if i >= 0 else None for i in SLOT_CARD],
        "take_cost_by_slot": list(TAKE_COST),
        "upgrade_pairs": [list(p) for p in actions.PAIRS],
        "actions": {
            "END": actions.END,
            "TAKE": actions.TAKE,
            "POP": actions.POP,
            "BUILD": actions.BUILD,
            "UPGRADE": actions.UPGRADE,
            "DESTROY": actions.DESTROY,
            "PLAY": actions.PLAY,
            "REVOLT": actions.REVOLT,
            "WONDER": actions.WONDER,
            "CHOICE": actions.CHOICE,
            "DISCARD": actions.DISCARD,
            "HAMMURABI": actions.HAMMURABI,
            "OCEAN": actions.OCEAN,
            "BARBAROSSA": actions.BARBAROSSA,
            "CHURCHILL": actions.CHURCHILL,
            "BACH": actions.BACH,
            "COPY": actions.COPY,
            "PREPARE": actions.PREPARE,
            "AGGRESS": actions.AGGRESS,
            "WAR": actions.WAR,
            "PACT": actions.PACT,
            "CANCEL": actions.CANCEL,
            "RESIGN": actions.RESIGN,
            "ALEXANDER": actions.ALEXANDER,
            "COLUMBUS": actions.COLUMBUS,
            "OPTION": actions.OPTION,
            "SEND": actions.SEND,
            "DONE": actions.DONE,
            "TRADE": actions.TRADE,
            "SHARED": actions.SHARED,
            "SPACE": actions.ACTION_SPACE,
        },
    }
