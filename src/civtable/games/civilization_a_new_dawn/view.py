"""Views (CIV-26.2): everything is public except the order of the face-down wonder decks and
the identity of the wonder cards removed unseen for 2-3 players. ``determinize`` re-deals those.

The view is plain JSON: the map geometry (axial coordinates, terrain, difficulty, printed
symbols) under ``map`` so a web view can draw it, the components per space under ``board``, the
players, and the seat's legal actions under ``legal`` (with labels unless ``labels=False``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    CITY_STATES,
    COLOURS,
    DIRECTION_ORDER,
    DIRECTIONS,
    EVENT_SECTIONS,
    FOCUS_CARDS,
    LEADERS,
    NATURAL_WONDERS,
    PLAYER_CARDS,
    RESOURCES,
    TERRAINS,
    TYPES,
    VICTORY_CARDS,
    WONDER_TYPES,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState


def map_json(state: CivState) -> JSON:
    """Static geometry of the map."""
    b = state.board
    spaces = []
    for s in range(b.size):
        d: JSON = {
            "i": s,
            "q": b.coords[s][0],
            "r": b.coords[s][1],
            "terrain": TERRAINS[b.terrain[s]],
            "difficulty": b.difficulty[s],
            "tile": b.tile_of[s],
            "edge": b.edge[s],
        }
        if b.capital_tile[s]:
            d["capital_star"] = True
        if b.city_state[s] >= 0:
            d["city_state"] = CITY_STATES[b.city_state[s]].id
        if b.natural_wonder[s] >= 0:
            d["natural_wonder"] = NATURAL_WONDERS[b.natural_wonder[s]].id
        if b.spawn[s] >= 0:
            d["spawn"] = BARBARIAN_LETTERS[b.spawn[s]]
        spaces.append(d)
    return {
        "layout": "axial pointy-top (q, r); neighbours E SE SW W NW NE",
        "spaces": spaces,
        "placements": [list(p) for p in b.placements],
        "water_tokens": [list(w) for w in b.water_tokens],
    }


def _pending(state: CivState) -> JSON | None:
    if not state.pending:
        return None
    f = state.pending[-1]
    return {"kind": K.NAMES.get(f[0], str(f[0])), "seat": f[1], "params": list(f[2:])}


def view(state: CivState, seat: int | None, *, labels: bool = True) -> JSON:
    """What ``seat`` may see (everything but the face-down wonder cards)."""
    n = state.players
    players = []
    for p in range(n):
        players.append(
            {
                "seat": p,
                "colour": COLOURS[p],
                "leader": LEADERS[state.leader[p]].id,
                "capital": state.capital[p],
                "row": [FOCUS_CARDS[c].id for c in state.row[p]],
                "trade": [C.trade_on(state, p, c) for c in state.row[p]],
                "city_state_tokens": {
                    TYPES[t]: [CITY_STATES[c].id for c in C.cs_tokens_on(state, p, t)]
                    for t in range(5)
                    if C.cs_tokens_on(state, p, t)
                },
                "dial": state.dial[p],
                "resources": dict(zip(RESOURCES, state.resources[p], strict=True)),
                "natural_wonders": [NATURAL_WONDERS[x].id for x in state.nw_held[p]],
                "control_tokens": state.supply[p],
                "cities_left": state.cities_left[p],
                "caravans": list(state.caravans[p]),
                "city_state_cards": [CITY_STATES[c].id for c in state.cs_cards[p]],
                "player_cards": [
                    [g, PLAYER_CARDS[k]]
                    for g in range(n)
                    for k, h in enumerate(state.pcard_holder[g])
                    if h == p
                ],
                "own_cards_available": [
                    PLAYER_CARDS[k] for k, h in enumerate(state.pcard_holder[p]) if h == -1
                ],
                "wonders": [WONDERS[w].id for w in C.wonders_of(state, p)],
                "marks": [
                    VICTORY_CARDS[state.victory[i]].id
                    for i in range(len(state.victory))
                    if state.marks[p] >> i & 1
                ],
                "mature_cities": C.mature_cities(state, p),
            }
        )
    doc: JSON = {
        "game": state.game.id,
        "players": n,
        "seat": seat,
        "first_player": state.first,
        "current": state.current,
        "to_move": list(state.to_move()),
        "first_player_turn": state.fp_turns,
        "event_section": state.section,
        "event": EVENT_SECTIONS[state.section],
        "barbarian_token": [
            DIRECTIONS[DIRECTION_ORDER[(state.barb_offset + d) % 6]] for d in range(6)
        ],
        "map": map_json(state),
        "board": {
            "control": list(state.tok),
            "reinforced": list(state.reinf),
            "city": list(state.city),
            "barbarians": {
                BARBARIAN_LETTERS[i]: p for i, p in enumerate(state.barb_pos) if p != -2
            },
            "resources": {str(s): RESOURCES[r] for s, r in enumerate(state.res) if r >= 0},
            "natural_wonders": {
                str(s): NATURAL_WONDERS[x].id for s, x in enumerate(state.nw) if x >= 0
            },
            "city_states": {str(s): CITY_STATES[x].id for s, x in enumerate(state.cs) if x >= 0},
            "wonder_tokens": {str(s): WONDERS[w].id for s, w in enumerate(state.wtok) if w >= 0},
            "caravans": [
                [p, i, pos] for p in range(n) for i, pos in enumerate(state.caravans[p]) if pos >= 0
            ],
        },
        "player_state": players,
        "wonder_decks": {
            WONDER_TYPES[t]: {
                "face_up": WONDERS[d[0]].id if d else None,
                "size": len(d),
            }
            for t, d in enumerate(state.wdecks)
        },
        "city_state_cards": {CITY_STATES[c].id: state.cs_avail[c] for c in range(len(CITY_STATES))},
        "city_state_owner": {CITY_STATES[c].id: o for c, o in enumerate(state.cs_owner) if o >= 0},
        "great_zimbabwe_tokens": state.gz,
        "resource_supply": dict(zip(RESOURCES, state.res_supply, strict=True)),
        "victory_cards": [VICTORY_CARDS[v].id for v in state.victory],
        "pending": _pending(state),
        "over": state.over,
        "winners": list(state.winners),
        "unfinished": state.unfinished,
    }
    if seat is not None:
        legal = state.legal_actions(seat)
        if labels:
            doc["legal"] = [{"id": a, "label": state.describe(seat, a)} for a in legal]
        else:
            doc["legal"] = [{"id": a} for a in legal]
    if state.log is not None:
        doc["log"] = list(state.log)  # every event is public (CIV-26.2)
    if state.is_terminal():
        doc["result"] = state.result().to_json()
    return doc


def determinize(state: CivState, seat: int, rng: Rng) -> CivState:
    """Re-deal the face-down wonder cards (and the removed ones) within each type and era."""
    s = state.copy()
    removed = list(s.wremoved)
    for t, deck in enumerate(s.wdecks):
        for era in range(3):
            slots = [i for i in range(1, len(deck)) if WONDERS[deck[i]].era == era]
            rem_slots = [
                i for i, w in enumerate(removed) if WONDERS[w].type == t and WONDERS[w].era == era
            ]
            pool = [deck[i] for i in slots] + [removed[i] for i in rem_slots]
            rng.shuffle(pool)
            k = len(slots)
            for i, w in zip(slots, pool[:k], strict=True):
                deck[i] = w
            for i, w in zip(rem_slots, pool[k:], strict=True):
                removed[i] = w
    s.wremoved = removed
    s.rng = Rng(rng.next_u64())
    s._legal = {}
    return s
