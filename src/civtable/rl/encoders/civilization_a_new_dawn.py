"""The Civilization: A New Dawn observation encoder: ``view(seat)`` -> a ``float32`` vector.

Everything comes from :func:`civtable.games.civilization_a_new_dawn.view.view` (CIV-26.2):
nearly everything is public; the order of the face-down wonder decks and the wonders removed
unseen never appear in a view (only each deck's face-up card and size), so not here either.

Seats are listed relative to the observer: self, then the next seats in turn order. The map
block has one slot per space in the view's order (``S`` slots: the first-game map's size, 100,
131 or 161 spaces for 2, 3, 4 players; for the standard maps the largest possible map,
``hexes.MAX_SPACES`` = 168, unused slots are zero). ``n`` players, ``F = 20`` focus cards,
``W = 24`` wonders, ``L = 8`` leaders, ``CS = 8`` city-states, ``NW = 8`` natural wonders,
``V = 5`` victory cards, ``K`` pending-decision kinds of ``rules/kinds.py``.

=====================  ==============  =========================================================
block                  size            content
=====================  ==============  =========================================================
turn                   3n + 4          first player, current player (one-hot, relative), seats
                                       to move; first-player turns; game over; unfinished;
                                       Great Zimbabwe tokens
events                 5 + 36          event-dial section (one-hot); barbarian direction token:
                                       direction of each die face (6 x 6 one-hot)
wonder decks           4 x (W + 1)     face-up wonder (one-hot) and deck size per type
city-states            CS x (n + 1)    diplomacy cards left; owner (one-hot, relative)
supply, victory        4 + V           resource supply; drawn victory cards (multi-hot)
pending                K + n + 6       decision kind (one-hot); its seat (relative); its
                                       parameters (+1, clipped at 0)
space x S              25 + 3n         present; q + 32; r + 32; terrain one-hot (7);
                                       difficulty; edge; capital star; printed city-state,
                                       natural wonder, barbarian spawn; control token owner
                                       (one-hot, relative); reinforced; city owner (one-hot);
                                       barbarian; resource token (one-hot, 4); natural-wonder
                                       token; city-state token; wonder token; caravans per seat
player x n             179 + 4n        leader (L); capital space + 1; focus card in each of the
                                       5 slots (5 x F one-hot); trade tokens per slot (5);
                                       city-state tokens per focus type (5); dial; resources
                                       (4); natural wonders held (NW); control tokens; cities
                                       left; caravans on the card / set aside / on the map;
                                       city-state cards (CS); diplomacy cards held per giver
                                       (n x 4, relative); own diplomacy cards available (4);
                                       wonders (W); victory marks (V, by drawn card); mature
                                       cities
=====================  ==============  =========================================================

Entries are raw counts (not normalized), clipped to ``[0, HIGH]``.
:meth:`CivilizationEncoder.encode_state` (what the environments call) reads the same fields
straight from the state and is tested equal to encoding the view.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from civtable.core.api import JSON, State
from civtable.games.civilization_a_new_dawn.catalog import (
    CITY_STATES,
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
from civtable.games.civilization_a_new_dawn.hexes import (
    MAX_SPACES,
    Board,
    build_board,
    first_game_layout,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.state import CivState
from civtable.rl.encoders import ObservationEncoder, Vector

#: upper bound of every entry
HIGH = 1000.0
#: offset added to the axial coordinates (the maps stay within +-20)
COORD_OFFSET = 32

_FOCUS = {c.id: i for i, c in enumerate(FOCUS_CARDS)}
_LEADER = {c.id: i for i, c in enumerate(LEADERS)}
_WONDER = {w.id: i for i, w in enumerate(WONDERS)}
_CS = {c.id: i for i, c in enumerate(CITY_STATES)}
_NW = {c.id: i for i, c in enumerate(NATURAL_WONDERS)}
_VC = {c.id: i for i, c in enumerate(VICTORY_CARDS)}
_TERRAIN = {t: i for i, t in enumerate(TERRAINS)}
_RES = {r: i for i, r in enumerate(RESOURCES)}
_TYPE = {t: i for i, t in enumerate(TYPES)}
_DIR = {d: i for i, d in enumerate(DIRECTIONS)}
_PCARD = {c: i for i, c in enumerate(PLAYER_CARDS)}
_KINDS = tuple(sorted(K.NAMES))
_KIND = {K.NAMES[k]: i for i, k in enumerate(_KINDS)}
_PARAMS = 6


class CivilizationEncoder(ObservationEncoder):
    """Fixed-size encoding of a Civilization: A New Dawn seat view (layout in the module doc)."""

    high = HIGH

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        if not 2 <= players <= 4:
            raise ValueError(f"Civilization: A New Dawn is for 2 to 4 players, not {players}")
        n = players
        if self.options.get("map", "first_game") == "first_game":
            placements, water = first_game_layout(players)
            self.spaces = build_board(placements, water).size
        else:
            self.spaces = MAX_SPACES
        names: list[str] = [f"first_player_{k}" for k in range(n)]
        names += [f"current_{k}" for k in range(n)]
        names += [f"to_move_{k}" for k in range(n)]
        names += ["first_player_turns", "over", "unfinished", "great_zimbabwe_tokens"]
        names += [f"event_{k}_{e or 'none'}" for k, e in enumerate(EVENT_SECTIONS)]
        names += [f"barbarian_die{f + 1}_{d}" for f in range(6) for d in DIRECTIONS]
        for t in WONDER_TYPES:
            names += [f"wonder_deck_{t}:{w.id}" for w in WONDERS] + [f"wonder_deck_{t}_size"]
        for c in CITY_STATES:
            names += [f"cs_{c.id}_cards"] + [f"cs_{c.id}_owner_{k}" for k in range(n)]
        names += [f"resource_supply_{r}" for r in RESOURCES]
        names += [f"victory_card:{c.id}" for c in VICTORY_CARDS]
        self._pending_at = len(names)
        names += [f"pending:{K.NAMES[k]}" for k in _KINDS]
        names += [f"pending_seat_{k}" for k in range(n)]
        names += [f"pending_param_{j}" for j in range(_PARAMS)]
        self._space_names = (
            ["present", "q", "r"]
            + [f"terrain_{t}" for t in TERRAINS]
            + ["difficulty", "edge", "capital_star", "printed_city_state"]
            + ["printed_natural_wonder", "printed_spawn"]
            + [f"control_{k}" for k in range(n)]
            + ["reinforced"]
            + [f"city_{k}" for k in range(n)]
            + ["barbarian"]
            + [f"resource_{r}" for r in RESOURCES]
            + ["natural_wonder_token", "city_state_token", "wonder_token"]
            + [f"caravans_{k}" for k in range(n)]
        )
        self._space_at = len(names)
        for s in range(self.spaces):
            names += [f"space{s}:{x}" for x in self._space_names]
        self._player_names = (
            [f"leader_{c.id}" for c in LEADERS]
            + ["capital"]
            + [f"slot{j + 1}:{c.id}" for j in range(5) for c in FOCUS_CARDS]
            + [f"trade_slot{j + 1}" for j in range(5)]
            + [f"cs_tokens_{t}" for t in TYPES]
            + ["dial"]
            + [f"resource_{r}" for r in RESOURCES]
            + [f"natural_wonder:{c.id}" for c in NATURAL_WONDERS]
            + ["control_tokens", "cities_left"]
            + ["caravans_on_card", "caravans_set_aside", "caravans_on_map"]
            + [f"cs_card:{c.id}" for c in CITY_STATES]
            + [f"diplomacy_from{k}:{c}" for k in range(n) for c in PLAYER_CARDS]
            + [f"own_diplomacy:{c}" for c in PLAYER_CARDS]
            + [f"wonder:{w.id}" for w in WONDERS]
            + [f"mark:{c.id}" for c in VICTORY_CARDS]
            + ["mature_cities"]
        )
        self._player_at = len(names)
        for k in range(n):
            names += [f"player{k}:{x}" for x in self._player_names]
        self._names = names
        self.size = len(names)
        self._static: dict[str, Vector] = {}
        self._static_boards: dict[int, tuple[Board, Vector]] = {}

    def feature_names(self) -> list[str]:
        """One name per entry, e.g. ``space12:city_0`` or ``player1:dial`` (player1 = next)."""
        return list(self._names)

    def encode(self, view: JSON) -> Vector:
        """The observation vector of ``view`` (a seat's view, not a spectator's)."""
        me = view.get("seat")
        if me is None:
            raise ValueError("the Civilization encoder needs a seat's view, not a spectator's")
        n = view["players"]
        if n != self.players:
            raise ValueError(f"a {n}-player view given to a {self.players}-player encoder")
        v = np.zeros(self.size, dtype=np.float32)

        def rel(seat: int) -> int:
            return int((seat - me) % n)

        i = 0
        v[i + rel(view["first_player"])] = 1
        v[i + n + rel(view["current"])] = 1
        for s in view["to_move"]:
            v[i + 2 * n + rel(s)] = 1
        i += 3 * n
        v[i : i + 4] = (
            view["first_player_turn"],
            view["over"],
            view["unfinished"],
            view["great_zimbabwe_tokens"],
        )
        i += 4
        v[i + view["event_section"]] = 1
        i += len(EVENT_SECTIONS)
        for face, d in enumerate(view["barbarian_token"]):
            v[i + 6 * face + _DIR[d]] = 1
        i += 36
        for t in WONDER_TYPES:
            deck = view["wonder_decks"][t]
            if deck["face_up"] is not None:
                v[i + _WONDER[deck["face_up"]]] = 1
            v[i + len(WONDERS)] = deck["size"]
            i += len(WONDERS) + 1
        owners = view["city_state_owner"]
        for c in CITY_STATES:
            v[i] = view["city_state_cards"][c.id]
            if c.id in owners:
                v[i + 1 + rel(owners[c.id])] = 1
            i += n + 1
        for r in RESOURCES:
            v[i] = view["resource_supply"][r]
            i += 1
        for cid in view["victory_cards"]:
            v[i + _VC[cid]] = 1
        i += len(VICTORY_CARDS)
        pending = view["pending"]
        if pending is not None:
            v[i + _KIND[pending["kind"]]] = 1
            v[i + len(_KINDS) + rel(pending["seat"])] = 1
            j = i + len(_KINDS) + n
            for x in pending["params"][:_PARAMS]:
                v[j] = x + 1
                j += 1
        i += len(_KINDS) + n + _PARAMS
        # spaces
        size = len(self._space_names)
        spaces = view["map"]["spaces"]
        if len(spaces) > self.spaces:
            raise ValueError(f"{len(spaces)} spaces do not fit the encoder's {self.spaces}")
        board = view["board"]
        control, city, reinforced = board["control"], board["city"], board["reinforced"]
        v[i : i + self.spaces * size] = self._static_map(view["map"])
        o_dyn = 3 + len(TERRAINS) + 6  # first dynamic entry: control owner
        for s, o in enumerate(control):
            if o >= 0:
                v[i + s * size + o_dyn + rel(o)] = 1
        for s, x in enumerate(reinforced):
            if x:
                v[i + s * size + o_dyn + n] = x
        for s, o in enumerate(city):
            if o >= 0:
                v[i + s * size + o_dyn + n + 1 + rel(o)] = 1
        o_barb = o_dyn + 2 * n + 1
        for pos in board["barbarians"].values():
            if pos >= 0:
                v[i + pos * size + o_barb] = 1
        for key, r in board["resources"].items():
            v[i + int(key) * size + o_barb + 1 + _RES[r]] = 1
        o_tok = o_barb + 1 + len(RESOURCES)
        for key in board["natural_wonders"]:
            v[i + int(key) * size + o_tok] = 1
        for key in board["city_states"]:
            v[i + int(key) * size + o_tok + 1] = 1
        for key in board["wonder_tokens"]:
            v[i + int(key) * size + o_tok + 2] = 1
        for p, _k, pos in board["caravans"]:
            v[i + pos * size + o_tok + 3 + rel(p)] += 1
        i += self.spaces * size
        # players
        size = len(self._player_names)
        n_focus = len(FOCUS_CARDS)
        for doc in view["player_state"]:
            base = i + rel(doc["seat"]) * size
            v[base + _LEADER[doc["leader"]]] = 1
            j = base + len(LEADERS)
            v[j] = doc["capital"] + 1
            j += 1
            for slot, fid in enumerate(doc["row"]):
                v[j + slot * n_focus + _FOCUS[fid]] = 1
            j += 5 * n_focus
            v[j : j + 5] = doc["trade"]
            j += 5
            for t, ids in doc["city_state_tokens"].items():
                v[j + _TYPE[t]] = len(ids)
            j += len(TYPES)
            v[j] = doc["dial"]
            j += 1
            for r in RESOURCES:
                v[j] = doc["resources"][r]
                j += 1
            for x in doc["natural_wonders"]:
                v[j + _NW[x]] = 1
            j += len(NATURAL_WONDERS)
            v[j] = doc["control_tokens"]
            v[j + 1] = doc["cities_left"]
            j += 2
            for pos in doc["caravans"]:
                v[j + (0 if pos == -1 else 1 if pos < -1 else 2)] += 1
            j += 3
            for x in doc["city_state_cards"]:
                v[j + _CS[x]] = 1
            j += len(CITY_STATES)
            for giver, card in doc["player_cards"]:
                v[j + rel(giver) * len(PLAYER_CARDS) + _PCARD[card]] += 1
            j += n * len(PLAYER_CARDS)
            for card in doc["own_cards_available"]:
                v[j + _PCARD[card]] = 1
            j += len(PLAYER_CARDS)
            for w in doc["wonders"]:
                v[j + _WONDER[w]] = 1
            j += len(WONDERS)
            for m in doc["marks"]:
                v[j + _VC[m]] = 1
            j += len(VICTORY_CARDS)
            v[j] = len(doc["mature_cities"])
        np.clip(v, 0.0, HIGH, out=v)
        return v

    def encode_state(self, state: State, seat: int) -> Vector:
        """``encode(view(state, seat))`` without building the view (the environments' path).

        It reads the state fields :func:`~civtable.games.civilization_a_new_dawn.view.view`
        shows, with the same engine helpers (city-state tokens, wonders, mature cities), in
        the same layout; ``tests/rl/test_civilization.py`` checks it equals encoding the view
        for every seat on many positions.
        """
        if not isinstance(state, CivState):
            raise TypeError("not a Civilization: A New Dawn state")
        n = state.players
        if n != self.players:
            raise ValueError(f"a {n}-player state given to a {self.players}-player encoder")
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")
        v = np.zeros(self.size, dtype=np.float32)
        i = 0
        v[i + (state.first - seat) % n] = 1
        v[i + n + (state.current - seat) % n] = 1
        for s in state.to_move():
            v[i + 2 * n + (s - seat) % n] = 1
        i += 3 * n
        v[i : i + 4] = (state.fp_turns, state.over, state.unfinished, state.gz)
        i += 4
        v[i + state.section] = 1
        i += len(EVENT_SECTIONS)
        for face in range(6):
            v[i + 6 * face + DIRECTION_ORDER[(state.barb_offset + face) % 6]] = 1
        i += 36
        n_wonders = len(WONDERS)
        for deck in state.wdecks:
            if deck:
                v[i + deck[0]] = 1
            v[i + n_wonders] = len(deck)
            i += n_wonders + 1
        for c in range(len(CITY_STATES)):
            v[i] = state.cs_avail[c]
            o = state.cs_owner[c]
            if o >= 0:
                v[i + 1 + (o - seat) % n] = 1
            i += n + 1
        v[i : i + len(RESOURCES)] = state.res_supply
        i += len(RESOURCES)
        for x in state.victory:
            v[i + x] = 1
        i += len(VICTORY_CARDS)
        if state.pending:
            frame = state.pending[-1]
            v[i + _KIND[K.NAMES[frame[0]]]] = 1
            v[i + len(_KINDS) + (frame[1] - seat) % n] = 1
            j = i + len(_KINDS) + n
            for x in frame[2 : 2 + _PARAMS]:
                v[j] = x + 1
                j += 1
        i += len(_KINDS) + n + _PARAMS
        # spaces
        size = len(self._space_names)
        v[i : i + self.spaces * size] = self._static_board(state.board)
        o_dyn = i + 3 + len(TERRAINS) + 6
        for s, o in enumerate(state.tok):
            if o >= 0:
                v[o_dyn + s * size + (o - seat) % n] = 1
        for s, x in enumerate(state.reinf):
            if x:
                v[o_dyn + s * size + n] = x
        for s, o in enumerate(state.city):
            if o >= 0:
                v[o_dyn + s * size + n + 1 + (o - seat) % n] = 1
        o_barb = o_dyn + 2 * n + 1
        for pos in state.barb_pos:
            if pos >= 0:
                v[o_barb + pos * size] = 1
        for s, r in enumerate(state.res):
            if r >= 0:
                v[o_barb + s * size + 1 + r] = 1
        o_tok = o_barb + 1 + len(RESOURCES)
        for s, x in enumerate(state.nw):
            if x >= 0:
                v[o_tok + s * size] = 1
        for s, x in enumerate(state.cs):
            if x >= 0:
                v[o_tok + s * size + 1] = 1
        for s, x in enumerate(state.wtok):
            if x >= 0:
                v[o_tok + s * size + 2] = 1
        for p in range(n):
            for pos in state.caravans[p]:
                if pos >= 0:
                    v[o_tok + pos * size + 3 + (p - seat) % n] += 1
        i += self.spaces * size
        # players
        size = len(self._player_names)
        n_focus = len(FOCUS_CARDS)
        n_cards = len(PLAYER_CARDS)
        for p in range(n):
            base = i + ((p - seat) % n) * size
            v[base + state.leader[p]] = 1
            j = base + len(LEADERS)
            v[j] = state.capital[p] + 1
            j += 1
            row = state.row[p]
            for slot, c in enumerate(row):
                v[j + slot * n_focus + c] = 1
            j += 5 * n_focus
            v[j : j + 5] = [C.trade_on(state, p, c) for c in row]
            j += 5
            for t in range(len(TYPES)):
                v[j + t] = len(C.cs_tokens_on(state, p, t))
            j += len(TYPES)
            v[j] = state.dial[p]
            j += 1
            v[j : j + len(RESOURCES)] = state.resources[p]
            j += len(RESOURCES)
            for x in state.nw_held[p]:
                v[j + x] = 1
            j += len(NATURAL_WONDERS)
            v[j] = state.supply[p]
            v[j + 1] = state.cities_left[p]
            j += 2
            for pos in state.caravans[p]:
                v[j + (0 if pos == -1 else 1 if pos < -1 else 2)] += 1
            j += 3
            for x in state.cs_cards[p]:
                v[j + x] = 1
            j += len(CITY_STATES)
            for g in range(n):
                for k, h in enumerate(state.pcard_holder[g]):
                    if h == p:
                        v[j + ((g - seat) % n) * n_cards + k] += 1
            j += n * n_cards
            for k, h in enumerate(state.pcard_holder[p]):
                if h == -1:
                    v[j + k] = 1
            j += n_cards
            for w in C.wonders_of(state, p):
                v[j + w] = 1
            j += len(WONDERS)
            marks = state.marks[p]
            for k, x in enumerate(state.victory):
                if marks >> k & 1:
                    v[j + x] = 1
            j += len(VICTORY_CARDS)
            v[j] = len(C.mature_cities(state, p))
        np.clip(v, 0.0, HIGH, out=v)
        return v

    def _static_board(self, board: Board) -> Vector:
        """The printed part of the space blocks, from the board (as :meth:`_static_map`)."""
        cached = self._static_boards.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1]
        size = len(self._space_names)
        block = np.zeros(self.spaces * size, dtype=np.float32)
        n_terrain = len(TERRAINS)
        for s in range(board.size):
            base = s * size
            q, r = board.coords[s]
            block[base : base + 3] = (1, q + COORD_OFFSET, r + COORD_OFFSET)
            block[base + 3 + board.terrain[s]] = 1
            j = base + 3 + n_terrain
            block[j : j + 6] = (
                board.difficulty[s],
                board.edge[s],
                bool(board.capital_tile[s]),
                board.city_state[s] >= 0,
                board.natural_wonder[s] >= 0,
                board.spawn[s] >= 0,
            )
        if len(self._static_boards) >= 64:
            self._static_boards.clear()
        self._static_boards[id(board)] = (board, block)
        return block

    def _static_map(self, doc: JSON) -> Vector:
        """The space blocks' printed part (geometry, terrain, symbols) of a map, cached by its
        placements and water tokens (which determine it)."""
        key = repr((doc["placements"], doc["water_tokens"]))
        block = self._static.get(key)
        if block is not None:
            return block
        size = len(self._space_names)
        block = np.zeros(self.spaces * size, dtype=np.float32)
        n_terrain = len(TERRAINS)
        for sp in doc["spaces"]:
            base = sp["i"] * size
            block[base] = 1
            block[base + 1] = sp["q"] + COORD_OFFSET
            block[base + 2] = sp["r"] + COORD_OFFSET
            block[base + 3 + _TERRAIN[sp["terrain"]]] = 1
            j = base + 3 + n_terrain
            block[j : j + 6] = (
                sp["difficulty"],
                sp["edge"],
                "capital_star" in sp,
                "city_state" in sp,
                "natural_wonder" in sp,
                "spawn" in sp,
            )
        if len(self._static) >= 64:
            self._static.clear()
        self._static[key] = block
        return block

    def render(self, view: JSON) -> str:
        """A compact text picture: turn, event dial, one line per player, the face-up wonders,
        then the seat's pending decision and legal actions."""
        lines = [
            f"Civilization: A New Dawn · first-player turn {view['first_player_turn']} · "
            f"player {view['current'] + 1} to play · event {view['event'] or '-'}"
        ]
        for doc in view["player_state"]:
            cities = sum(1 for c in view["board"]["city"] if c == doc["seat"])
            tokens = sum(1 for c in view["board"]["control"] if c == doc["seat"])
            lines.append(
                f"Player {doc['seat'] + 1} ({doc['leader']}): row {' '.join(doc['row'])} · "
                f"trade {doc['trade']} · dial {doc['dial']} · cities {cities} · "
                f"control tokens on the map {tokens} · wonders {len(doc['wonders'])} · "
                f"marks {len(doc['marks'])}"
            )
        decks = ", ".join(
            f"{t}: {d['face_up'] or '-'} ({d['size']})" for t, d in view["wonder_decks"].items()
        )
        lines.append(f"wonders: {decks}")
        pending = view["pending"]
        if pending is not None:
            lines.append(f"pending: {pending['kind']} (player {pending['seat'] + 1})")
        labels = view.get("labels") or []
        for k, a in enumerate(view.get("legal", [])):
            if isinstance(a, dict):
                lines.append(f"  [{a['id']}] {a.get('label', '')}")
            else:
                lines.append(f"  [{a}] {labels[k] if k < len(labels) else ''}")
        if view["over"]:
            winners = ", ".join(f"Player {s + 1}" for s in view["winners"]) or "-"
            lines.append(f"game over · winners: {winners}")
        return "\n".join(lines)

    def text(self, view: JSON) -> str:
        """The canonical one-line string: the view with the legal actions reduced to their ids,
        without labels or log, and the map given by its placements and water tokens (which
        determine its geometry)."""
        doc = {k: v for k, v in view.items() if k not in ("legal", "labels", "log", "map")}
        doc["legal"] = [a["id"] if isinstance(a, dict) else a for a in view.get("legal", [])]
        doc["map"] = [view["map"]["placements"], view["map"]["water_tokens"]]
        return json.dumps(doc, sort_keys=True, separators=(",", ":"))


__all__ = ["HIGH", "CivilizationEncoder"]
