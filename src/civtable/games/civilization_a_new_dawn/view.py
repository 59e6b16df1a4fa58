"""Views (CIV-26.2): everything is public except the order of the face-down wonder decks and
the identity of the wonder cards removed unseen for 2-3 players. ``determinize`` re-deals those.

The view is plain JSON: the map geometry (axial coordinates, terrain, difficulty, printed
symbols) under ``map`` so a web view can draw it, the components per space under ``board``, the
players, and the seat's legal actions under ``legal`` (with labels unless ``labels=False``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    CITY_STATES,
    COLOURS,
    DIRECTION_ORDER,
    DIRECTIONS,
    EVENT_SECTIONS,
    FOCUS_CARDS,
    LEADERS,
    MILITARY,
    NATURAL_WONDERS,
    PLAYER_CARDS,
    RESOURCES,
    TERRAINS,
    TYPES,
    VICTORY_CARDS,
    WONDER_TYPES,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.hexes import MAX_SPACES
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import industry, turn
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import military as M  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState


#: the JSON key of each space (``str(s)``)
_KEYS = tuple(str(s) for s in range(MAX_SPACES))


#: map_json per map layout (placements, water tokens)
_MAP_JSON: dict[object, JSON] = {}


def map_json(state: CivState) -> JSON:
    """Static geometry of the map: built once per map layout and shared by every view of that
    map (read-only, like the rest of a view)."""
    if not SHARE_PARTS:
        return _build_map_json(state)
    b = state.board
    last = _LAST_MAP
    if last and last[0] is b:  # the board of the last view (positions of a game share it)
        shared: JSON = last[1]
        return shared
    key = (b.placements, b.water_tokens)
    got = _MAP_JSON.get(key)
    if got is None:
        got = _MAP_JSON[key] = _build_map_json(state)
    _LAST_MAP[:] = [b, got]
    return got


#: the board of the last :func:`map_json` call and its map_json
_LAST_MAP: list[Any] = []


def _build_map_json(state: CivState) -> JSON:
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


def _cs_tokens(state: CivState, seat: int) -> JSON:
    """The city-state tokens on the seat's cards by type (CIV-16.3): the conquered city-states'
    ids, types in order."""
    out: dict[str, list[str]] = {}
    for c in C.conquered(state, seat):
        out.setdefault(TYPES[CITY_STATES[c].type], []).append(CITY_STATES[c].id)
    return {TYPES[t]: out[TYPES[t]] for t in range(5) if TYPES[t] in out}


#: parts of views by everything they are made from (see :func:`_part`); shared, read-only
_PARTS: dict[tuple[object, ...], JSON] = {}
#: the parts kept at most; past it the cache starts again (it only bounds the memory)
PARTS_SIZE = 1024
#: False builds every part afresh (tests compare both ways)
SHARE_PARTS = True


def _part(key: tuple[object, ...], build: Callable[[], JSON]) -> JSON:
    """The view part ``build()`` makes, shared by every view whose ``key`` is equal: ``key``
    holds everything the part is made from, so positions that differ elsewhere (most
    positions of a game differ from the one before in a few fields) share it. A view is
    read-only, like :func:`map_json`."""
    if not SHARE_PARTS:
        return build()
    got = _PARTS.get(key)
    if got is None:
        if len(_PARTS) >= PARTS_SIZE:
            _PARTS.clear()
        got = _PARTS[key] = build()
    return got


def _player(state: CivState, p: int, mature: list[int], friendly: int) -> JSON:
    """The public state of seat ``p`` (see :func:`view`); ``mature`` its mature cities (the
    list :func:`.rules.common.mature_cities` gives), ``friendly`` its friendly spaces."""
    row, place, trade = state.row[p], state.place[p], state.trade[p]
    holder = state.pcard_holder
    marks = state.marks[p]
    focus = _FOCUS_IDS
    return {
        "seat": p,
        "colour": COLOURS[p],
        "leader": _LEADER_IDS[state.leader[p]],
        "capital": state.capital[p],
        "row": [focus[c] for c in row],
        # the card holding each trade-token place (normally one per type, CIV-7.5)
        "places": [focus[c] for c in place],
        "trade": [trade[place.index(c)] for c in row],  # C.trade_on
        "city_state_tokens": _cs_tokens(state, p) if p in state.cs_owner else {},
        "dial": state.dial[p],
        "resources": dict(zip(RESOURCES, state.resources[p], strict=True)),
        "natural_wonders": [_NW_IDS[x] for x in state.nw_held[p]],
        "control_tokens": state.supply[p],
        "cities_left": state.cities_left[p],
        "caravans": list(state.caravans[p]),
        "city_state_cards": [_CS_IDS[c] for c in state.cs_cards[p]],
        "player_cards": [
            [g, PLAYER_CARDS[k]]
            for g in range(state.players)
            for k, h in enumerate(holder[g])
            if h == p
        ],
        "own_cards_available": [PLAYER_CARDS[k] for k, h in enumerate(holder[p]) if h == -1],
        "wonders": [_WONDER_IDS[w] for w, o in enumerate(state.wonder_owner) if o == p]
        if p in state.wonder_owner
        else [],  # C.wonders_of
        "marks": [_VICTORY_IDS[v] for i, v in enumerate(state.victory) if marks >> i & 1]
        if marks
        else [],
        "mature_cities": mature,
        "friendly_spaces": friendly,  # C.friendly_spaces
    }


#: the directions on the barbarian token's sides by its offset (``barb_offset % 6``); shared
#: by the views, read-only
_BARBARIAN_TOKEN = tuple(
    [DIRECTIONS[DIRECTION_ORDER[(offset + d) % 6]] for d in range(6)] for offset in range(6)
)

#: ids by index, looked up once
_FOCUS_IDS = tuple(x.id for x in FOCUS_CARDS)
_LEADER_IDS = tuple(x.id for x in LEADERS)
_NW_IDS = tuple(x.id for x in NATURAL_WONDERS)
_CS_IDS = tuple(x.id for x in CITY_STATES)
_WONDER_IDS = tuple(x.id for x in WONDERS)
_VICTORY_IDS = tuple(x.id for x in VICTORY_CARDS)


#: a number per distinct value of what every seat's part shares (see :func:`_shared_id`)
_SHARED: dict[tuple[object, ...], int] = {}
#: what the last :func:`_shared_id` read (the board, copies of the lists) and its number
_LAST_SHARED: list[object] = [None]


def _shared_id(state: CivState) -> int:
    """A number for what every seat's part shares: the map (the mature cities depend on it),
    the city-state owners, the player cards, the wonder owners, the victory cards. Equal
    inputs give equal numbers; the inputs of the last call are compared first (consecutive
    positions rarely change them), the others hashed."""
    last = _LAST_SHARED
    b = state.board
    if (
        last[0] is b
        and last[1] == state.cs_owner
        and last[2] == state.pcard_holder
        and last[3] == state.wonder_owner
        and last[4] == state.victory
    ):
        return last[5]  # type: ignore[return-value]
    key = (
        b.placements,
        b.water_tokens,
        state.players,
        tuple(state.cs_owner),
        tuple(map(tuple, state.pcard_holder)),
        tuple(state.wonder_owner),
        tuple(state.victory),
    )
    got = _SHARED.get(key)
    if got is None:
        if len(_SHARED) >= PARTS_SIZE:
            _SHARED.clear()
        got = _SHARED[key] = len(_SHARED)
    _LAST_SHARED[:] = [
        b,
        state.cs_owner[:],
        [h[:] for h in state.pcard_holder],
        state.wonder_owner[:],
        state.victory[:],
        got,
    ]
    return got


def _players(state: CivState) -> list[JSON]:
    """Every seat's :func:`_player`, each shared while what it is made from is unchanged: the
    seat's own lists, its cities and the spaces that mature them, its friendly spaces, and what
    every seat shares (:func:`_shared_id`)."""
    shared = _shared_id(state)
    occ = C.occupancy(state)
    friendly, cities = occ.friendly, occ.cities
    parts = _PARTS
    out: list[JSON] = []
    for p in range(state.players):
        maturing = C.maturing_bits_of(state, p, occ)
        # one flat tuple: the seat's lists one after the other, None between them
        key = (
            p,
            shared,
            cities[p],
            maturing,
            friendly[p],
            state.leader[p],
            state.capital[p],
            state.dial[p],
            state.supply[p],
            state.cities_left[p],
            state.marks[p],
            *state.row[p],
            None,
            *state.place[p],
            None,
            *state.trade[p],
            None,
            *state.resources[p],
            None,
            *state.nw_held[p],
            None,
            *state.cs_cards[p],
            None,
            *state.caravans[p],
        )
        got = parts.get(key) if SHARE_PARTS else None
        if got is None:
            got = _player(
                state, p, C.mature_cities_of(state, p, occ, maturing), friendly[p].bit_count()
            )
            if SHARE_PARTS:
                if len(parts) >= PARTS_SIZE:
                    parts.clear()
                parts[key] = got
        out.append(got)
    return out


#: per kind of token, the last values a view read and the part made from them
_LAST_TOKENS: dict[str, tuple[list[int], JSON]] = {}


def _tokens(kind: str, values: list[int]) -> JSON:
    """The tokens of one kind lying on the map, by space key, shared while unchanged: the part
    of the last view when the values are equal to what it read (they rarely change between
    positions), else :func:`_part`."""
    if not SHARE_PARTS:
        return _build_tokens(kind, values)
    last = _LAST_TOKENS.get(kind)
    if last is not None and last[0] == values:
        return last[1]
    got = _part((kind, tuple(values)), lambda: _build_tokens(kind, values))
    _LAST_TOKENS[kind] = (values[:], got)
    return got


def _build_tokens(kind: str, values: list[int]) -> JSON:
    names = _TOKEN_NAMES[kind]
    keys = _KEYS
    return {keys[s]: names[v] for s, v in enumerate(values) if v >= 0}


#: the name of each token of a kind, by index
_TOKEN_NAMES: dict[str, tuple[str, ...]] = {
    "resources": tuple(RESOURCES),
    "natural_wonders": tuple(x.id for x in NATURAL_WONDERS),
    "city_states": tuple(x.id for x in CITY_STATES),
    "wonder_tokens": tuple(x.id for x in WONDERS),
}


def view(state: CivState, seat: int | None, *, labels: bool = True) -> JSON:
    """What ``seat`` may see (everything but the face-down wonder cards).

    Parts that most positions share with the position before (each player, the tokens on the
    map) are built once per change and shared (:func:`_part`); a view is read-only."""
    n = state.players
    players = _players(state)
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
        "barbarian_token": _BARBARIAN_TOKEN[state.barb_offset % 6],
        "map": map_json(state),
        "board": {
            "control": list(state.tok),
            "reinforced": list(state.reinf),
            "city": list(state.city),
            "barbarians": {
                BARBARIAN_LETTERS[i]: p for i, p in enumerate(state.barb_pos) if p != -2
            },
            "resources": _tokens("resources", state.res),
            "natural_wonders": _tokens("natural_wonders", state.nw),
            "city_states": _tokens("city_states", state.cs),
            "wonder_tokens": _tokens("wonder_tokens", state.wtok),
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
        "city_state_cards": dict(zip(_CS_IDS, state.cs_avail, strict=True)),
        "city_state_owner": {CITY_STATES[c].id: o for c, o in enumerate(state.cs_owner) if o >= 0},
        "great_zimbabwe_tokens": state.gz,
        # standard set-up: the map tiles each player still has to place (public, CIV-4.8)
        "map_hands": [list(h) for h in state.map_hands],
        "resource_supply": dict(zip(RESOURCES, state.res_supply, strict=True)),
        "victory_cards": [_VICTORY_IDS[v] for v in state.victory],
        "pending": _pending(state),
        # every pending frame, bottom first (all public, CIV-26.2): what is being resolved
        "stack": [list(f) for f in state.pending],
        "over": state.over,
        "winners": list(state.winners),
        "unfinished": state.unfinished,
    }
    if seat is not None:
        legal = state.legal_actions(seat)
        if labels:
            doc["legal"] = [
                {"id": a, "label": label}
                for a, label in zip(legal, turn.describe_actions(state, seat, legal), strict=True)
            ]
            doc["facts"] = facts(state, seat)
        else:
            doc["legal"] = [{"id": a} for a in legal]
    if state.log is not None:
        doc["log"] = list(state.log)  # every event is public (CIV-26.2)
    if state.is_terminal():
        doc["result"] = state.result().to_json()
    return doc


def facts(state: CivState, seat: int) -> JSON:
    """What the seat's choices would give now, as structure (the words module phrases it).

    ``wonder_costs``: each face-up wonder's cost for this seat (CIV-12.4 with Egypt, Brussels,
    Buenos Aires); ``slots``: the slot each row card would resolve from now (Machu Picchu,
    CIV-6.5); with an attack to choose, ``attacks``: per target space the attacker's and the
    defender's values before the dice and the military trade tokens each could spend (CIV-14.5,
    CIV-14.6); with a card option to choose, ``unavailable``: the options that cannot be used
    now and why. Public facts only (CIV-26.2).
    """
    out: JSON = {
        "wonder_costs": {
            _WONDER_IDS[w]: cost for w, cost in industry.face_up_wonder_costs(state, seat)
        },
        # turn.effective_slot of slots 1 to 5 (slots 3-5 resolve as they are)
        "slots": [*(turn.effective_slot(state, seat, k) for k in (1, 2)), 3, 4, 5],
    }
    if not state.owes_decision(seat):
        return out
    f = state.pending[-1]
    if f[0] == K.D_ATTACK:
        out["attacks"] = _attack_facts(state, seat, f)
    elif f[0] == K.D_MODE:
        out["unavailable"] = _mode_facts(state, seat, f)
    elif f[0] == K.D_MAPORIENT:
        from civtable.games.civilization_a_new_dawn.hexes import legal_placements, placed_cells

        first: dict[str, list[list[int]]] = {}
        b = state.board
        for p, _ in legal_placements(f[2], b.placements, b.water_tokens):
            key = str(A.CARD + "AB".index(p[1]) * 6 + p[2])
            if key not in first:
                first[key] = [list(c) for c in placed_cells(p)]
        out["orientations"] = first
    elif f[0] == K.D_MAPPOS:
        from civtable.games.civilization_a_new_dawn.hexes import placed_cells
        from civtable.games.civilization_a_new_dawn.rules.mapbuild import positions

        out["positions"] = [
            {"cells": [list(c) for c in placed_cells(p)], "water": [list(w) for w in h]}
            for p, h in positions(state, f)
        ]
    elif f[0] in (K.D_WDECK, K.D_WPAY):
        out["production"] = {
            WONDERS[d[0]].id: industry.max_production(
                state, seat, d[0], f[2] if f[0] == K.D_WDECK else f[3]
            )
            for d in state.wdecks
            if d
        }
    return out


def _attack_facts(state: CivState, seat: int, f: list[int]) -> JSON:
    slot, bonus, bbonus, ak = f[6], f[4], f[5], f[8]
    tokens = state.trade[seat][ak] + C.extra_tokens(state, seat, ak)
    out: JSON = {}
    d_tokens_of: dict[int, int] = {}  # the defender's military trade tokens, per defender
    ts = M.targets(state, seat, f[3], f[7])
    keys = _KEYS
    shared = _TARGET_FACTS  # many targets have the same values
    for t, (kind, d, att, dfn) in zip(
        ts, M.attack_values(state, seat, ts, slot, bonus, bbonus), strict=True
    ):
        d_tokens = 0
        if d >= 0:
            got = d_tokens_of.get(d)
            if got is None:
                dk = C.place_of_type(state, d, MILITARY)
                got = d_tokens_of[d] = state.trade[d][dk] if dk >= 0 else 0
            d_tokens = got
        values = (kind, d, att, dfn, tokens, d_tokens)
        fact = shared.get(values) if SHARE_PARTS else None
        if fact is None:
            fact = {
                "target": kind,
                "defender": d,
                "attack": att,
                "defence": dfn,
                "tokens": tokens,
                "defender_tokens": d_tokens,
            }
            if SHARE_PARTS:
                if len(shared) >= PARTS_SIZE:
                    shared.clear()
                shared[values] = fact
        out[keys[t]] = fact
    return out


#: the facts of one attack target by their values, shared by the views (read-only)
_TARGET_FACTS: dict[tuple[int, ...], JSON] = {}


def _mode_facts(state: CivState, seat: int, f: list[int]) -> list[JSON]:
    from civtable.games.civilization_a_new_dawn.rules.turn import FEASIBLE, _always

    card, slot, spent = f[2], f[3], f[4]
    out: list[JSON] = []
    for i, st in enumerate(FOCUS_CARDS[card].effects[slot - 1].steps):
        if FEASIBLE.get(st.op, _always)(state, seat, card, slot, st, spent):
            continue
        if st.op == "build_city":
            reason = "no_city_left" if state.cities_left[seat] <= 0 else "no_city_space"
        elif st.op == "build_wonder":
            reason = "no_free_city" if not industry.free_cities(state, seat) else "too_costly"
        else:
            reason = "nothing"
        out.append({"option": i, "op": st.op, "reason": reason})
    return out


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
            # sorted first: the re-deal depends on what the seat sees, not on the true order
            pool = sorted([deck[i] for i in slots] + [removed[i] for i in rem_slots])
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
