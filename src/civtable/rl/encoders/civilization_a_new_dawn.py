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
import struct
from collections.abc import Iterable, Mapping
from functools import lru_cache
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
_NO_PARAMS = [0] * _PARAMS
_NO_CS = (0,) * len(CITY_STATES)
_PLUS_ONE = (1).__add__
#: the barbarian token's six die faces as direction one-hots (6 x 6), per token offset
_BARBARIAN_TOKEN = tuple(
    bytes(int(d == DIRECTION_ORDER[(off + face) % 6]) for face in range(6) for d in range(6))
    for off in range(6)
)
# the inputs of encode_state's player memo that are lists of lists (natural wonders held,
# city-state cards, diplomacy card holders)
_NESTED_INPUTS = (1, 2, 6)
_CS_TYPE = tuple(c.type for c in CITY_STATES)
_SYDNEY = C.W["sydney_opera_house"]
# 256-byte tables for bytes.translate over per-space fields packed as signed bytes (-1 = 0xFF):
# _EQ[v] marks the value v, _IS_SET any value >= 0, _NONNEG keeps values >= 0 (else 0)
_EQ = tuple(bytes(int(b == v) for b in range(256)) for v in range(128))
_IS_SET = bytes(int(b < 128) for b in range(256))
_NONNEG = bytes(b if b < 128 else 0 for b in range(256))


@lru_cache(maxsize=8)
def _packer(length: int) -> struct.Struct:
    """A packer of ``length`` signed bytes."""
    return struct.Struct(f"{length}b")


def _packed(values: list[int]) -> bytes:
    """Small ints (-128..127) as signed bytes (-1 = 0xFF)."""
    return _packer(len(values)).pack(*values)


def _row_one_hot(row: tuple[int, ...]) -> bytes:
    """The focus cards of a row as one-hots, slot by slot (5 x F)."""
    n_focus = len(FOCUS_CARDS)
    block = bytearray(5 * n_focus)
    for slot, c in enumerate(row):
        block[slot * n_focus + c] = 1
    return bytes(block)


class _MatureMemo:
    """The mature cities of a board and the fields they were found from (see
    ``CivilizationEncoder._mature``): ``mature`` holds, per space, the owner of a mature city
    there or -1; ``counts`` the mature cities per seat."""

    __slots__ = (
        "board",
        "city",
        "city_packed",
        "counts",
        "holders",
        "mature",
        "sydney",
        "tok",
        "tok_packed",
    )

    def __init__(self, board: Board, players: int) -> None:
        self.board = board
        self.mature = [-1] * board.size
        self.counts = [0] * players
        self.sydney = -1
        self.holders: list[list[int]] = []
        self.tok: list[int] = []
        self.city: list[int] = []
        self.tok_packed = self.city_packed = b""


def _changed(old: bytes, new: bytes) -> list[int]:
    """The indices where two equally long byte strings differ."""
    x = int.from_bytes(old, "little") ^ int.from_bytes(new, "little")
    out = []
    while x:
        k = (x.bit_length() - 1) >> 3
        out.append(k)
        x &= (1 << (8 * k)) - 1
    return out


class _SpaceMemo:
    """The space blocks last given to a seat, with the per-space fields they were made from
    (tok, reinf, city, barb_pos, res, nw, cs, wtok, caravans; ``None`` = not yet written)."""

    __slots__ = ("block", "board", "seen")

    def __init__(self, board: Board, static: bytes) -> None:
        self.board = board
        self.block = bytearray(static)
        self.seen: list[Any] = [None] * 9


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
        self._static_boards: dict[int, tuple[Board, bytes]] = {}
        # encode_state's layout: offsets in a player block, and per seat the positions of the
        # counts it writes last (see there)
        pn = self._player_names
        self._player_offsets = {
            "row": pn.index(f"slot1:{FOCUS_CARDS[0].id}"),
            "cs_tokens": pn.index(f"cs_tokens_{TYPES[0]}"),
            "natural_wonders": pn.index(f"natural_wonder:{NATURAL_WONDERS[0].id}"),
            "cs_cards": pn.index(f"cs_card:{CITY_STATES[0].id}"),
            "diplomacy": pn.index(f"diplomacy_from0:{PLAYER_CARDS[0]}"),
            "own_cards": pn.index(f"own_diplomacy:{PLAYER_CARDS[0]}"),
            "wonders": pn.index(f"wonder:{WONDERS[0].id}"),
            "marks": pn.index(f"mark:{VICTORY_CARDS[0].id}"),
        }
        at = {x: k for k, x in enumerate(names)}
        self._deck_at = [at[f"wonder_deck_{t}:{WONDERS[0].id}"] for t in WONDER_TYPES]
        self._cs_at = at[f"cs_{CITY_STATES[0].id}_cards"]
        self._row_at = [
            [
                self._player_at + ((p - seat) % n) * len(pn) + self._player_offsets["row"]
                for p in range(n)
            ]
            for seat in range(n)
        ]
        header = [at[x] for x in ("first_player_turns", "over", "unfinished")]
        header += [at["great_zimbabwe_tokens"]]
        header += [at[f"wonder_deck_{t}_size"] for t in WONDER_TYPES]
        header += [at[f"cs_{c.id}_cards"] for c in CITY_STATES]
        header += [at[f"resource_supply_{r}"] for r in RESOURCES]
        header += [at[f"pending_param_{j}"] for j in range(_PARAMS)]
        counts = ["capital", *[f"trade_slot{j + 1}" for j in range(5)], "dial"]
        counts += [f"resource_{r}" for r in RESOURCES]
        counts += ["control_tokens", "cities_left", "caravans_on_card", "caravans_set_aside"]
        counts += ["caravans_on_map", "mature_cities"]
        self._counts_at = [
            np.array(
                header
                + [
                    self._player_at + ((p - seat) % n) * len(pn) + pn.index(x)
                    for p in range(n)
                    for x in counts
                ],
                dtype=np.intp,
            )
            for seat in range(n)
        ]
        # encode_state's memos: per seat, the space blocks last given (see _spaces); the
        # mature-city counts with the fields they were counted from (see _mature)
        self._space_memo: list[_SpaceMemo | None] = [None] * n
        self._player_memo: list[tuple[list[Any], bytes, bytes] | None] = [None] * n
        self._rows: dict[tuple[int, ...], bytes] = {}  # focus row -> its one-hots (5 x F)
        self._mature_memo: _MatureMemo | None = None
        self._near_cache: tuple[Board, tuple[tuple[int, ...], ...]] | None = None

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
        shows, in the same layout; ``tests/rl/test_civilization.py`` checks it equals encoding
        the view for every seat on many positions, in any order and after changes made in
        place. The vector is filled as bytes and converted once; the counts (which may exceed
        255) are written last, from one list. What changes only now and then is kept with the
        fields it was made from and redone only when they differ (compared as lists): per
        seat, the space blocks (see :meth:`_spaces`) and the player blocks without their
        counts; the focus rows' one-hots per row; the mature cities (see :meth:`_mature`).
        """
        if not isinstance(state, CivState):
            raise TypeError("not a Civilization: A New Dawn state")
        n = state.players
        if n != self.players:
            raise ValueError(f"a {n}-player state given to a {self.players}-player encoder")
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")
        buf = bytearray(self.size)
        # the counts, written last at self._counts_at[seat]: turn counters, wonder deck sizes,
        # city-state cards, resource supply, pending parameters, then per seat (absolute order)
        # capital + 1, trade, dial and resources, control tokens, cities left and caravans,
        # mature cities
        values: list[int] = [
            state.fp_turns,
            state.over,
            state.unfinished,
            state.gz,
            *map(len, state.wdecks),
            *map(max, state.cs_avail, _NO_CS),  # -1: face down
            *state.res_supply,
        ]
        buf[(state.first - seat) % n] = 1
        buf[n + (state.current - seat) % n] = 1
        for s in state.to_move():
            buf[2 * n + (s - seat) % n] = 1
        i = 3 * n + 4
        buf[i + state.section] = 1
        i += len(EVENT_SECTIONS)
        buf[i : i + 36] = _BARBARIAN_TOKEN[state.barb_offset % 6]
        i += 36
        for at, deck in zip(self._deck_at, state.wdecks, strict=True):
            if deck:
                buf[at + deck[0]] = 1
        i = self._pending_at
        if state.pending:
            frame = state.pending[-1]
            buf[i + _KIND[K.NAMES[frame[0]]]] = 1
            buf[i + len(_KINDS) + (frame[1] - seat) % n] = 1
            params = list(map(_PLUS_ONE, frame[2 : 2 + _PARAMS]))
            values += params
            values += _NO_PARAMS[len(params) :]
        else:
            values += _NO_PARAMS
        # spaces
        i = self._space_at
        block = self._spaces(state, seat)
        buf[i : i + len(block)] = block
        # players: what changes now and then is kept per seat with the fields it comes from
        inputs: list[Any] = [
            state.leader,
            state.nw_held,
            state.cs_cards,
            state.marks,
            state.victory,
            state.cs_owner,
            state.pcard_holder,
            state.wonder_owner,
        ]
        memo = self._player_memo[seat]
        if memo is None or memo[0] != inputs:
            snapshot = [x[:] for x in inputs]
            for k in _NESTED_INPUTS:
                snapshot[k] = [x[:] for x in inputs[k]]
            memo = self._player_memo[seat] = (
                snapshot,
                self._city_states_and_victory(state, seat),
                self._player_blocks(state, seat),
            )
        i = self._cs_at
        buf[i : i + len(memo[1])] = memo[1]
        i = self._player_at
        buf[i : i + len(memo[2])] = memo[2]
        capital, trade, place, row = state.capital, state.trade, state.place, state.row
        rows = self._rows
        for at, cards in zip(self._row_at[seat], row, strict=True):
            key = tuple(cards)
            one_hot = rows.get(key)
            if one_hot is None:
                if len(rows) >= 4096:
                    rows.clear()
                one_hot = rows[key] = _row_one_hot(key)
            buf[at : at + len(one_hot)] = one_hot
        mature = self._mature(state)
        dial, resources, supply, cities_left = (
            state.dial,
            state.resources,
            state.supply,
            state.cities_left,
        )
        for p in range(n):
            # a caravan is on the card (-1), set aside (-2) or on a space (rules.common)
            caravans = state.caravans[p]
            on_card, aside = caravans.count(-1), caravans.count(-2)
            values += (
                capital[p] + 1,
                *map(trade[p].__getitem__, map(place[p].index, row[p])),
                dial[p],
                *resources[p],
                supply[p],
                cities_left[p],
                on_card,
                aside,
                len(caravans) - on_card - aside,
                mature[p],
            )
        v = np.frombuffer(buf, dtype=np.uint8).astype(np.float32)
        try:
            v[self._counts_at[seat]] = np.frombuffer(bytes(values), dtype=np.uint8)
        except ValueError:  # a count outside [0, 255]: clipped to [0, HIGH] like encode
            v[self._counts_at[seat]] = np.clip(values, 0, HIGH)
        return v

    def _city_states_and_victory(self, state: CivState, seat: int) -> bytes:
        """From the city-state blocks to the drawn victory cards, as ``seat`` sees them
        without the counts (see encode_state): city-state owners and victory cards."""
        n = state.players
        block = bytearray(self._pending_at - self._cs_at)
        for c, o in enumerate(state.cs_owner):
            if o >= 0:
                block[c * (n + 1) + 1 + (o - seat) % n] = 1
        i = len(CITY_STATES) * (n + 1) + len(RESOURCES)
        for x in state.victory:
            block[i + x] = 1
        return bytes(block)

    def _player_blocks(self, state: CivState, seat: int) -> bytes:
        """The player blocks as ``seat`` sees them without their counts and focus rows (see
        encode_state): leader, city-state tokens, natural wonders, city-state and diplomacy
        cards, wonders and victory marks."""
        n = state.players
        size = len(self._player_names)
        block = bytearray(n * size)
        bases = [((p - seat) % n) * size for p in range(n)]
        offs = self._player_offsets
        o_cs, o_pc, o_own = offs["cs_tokens"], offs["diplomacy"], offs["own_cards"]
        for c, owner in enumerate(state.cs_owner):
            if owner >= 0:
                block[bases[owner] + o_cs + _CS_TYPE[c]] += 1
        n_cards = len(PLAYER_CARDS)
        for g, holders in enumerate(state.pcard_holder):
            o_giver = o_pc + ((g - seat) % n) * n_cards
            for k, h in enumerate(holders):
                if h >= 0:
                    block[bases[h] + o_giver + k] += 1
                elif h == -1:
                    block[bases[g] + o_own + k] = 1
        o_won = offs["wonders"]
        for w, owner in enumerate(state.wonder_owner):
            if owner >= 0:
                block[bases[owner] + o_won + w] = 1
        o_nw, o_csc, o_marks = offs["natural_wonders"], offs["cs_cards"], offs["marks"]
        victory = state.victory
        for p in range(n):
            base = bases[p]
            block[base + state.leader[p]] = 1
            for x in state.nw_held[p]:
                block[base + o_nw + x] = 1
            for x in state.cs_cards[p]:
                block[base + o_csc + x] = 1
            marks = state.marks[p]
            for k, x in enumerate(victory):
                if marks >> k & 1:
                    block[base + o_marks + x] = 1
        return bytes(block)

    def _spaces(self, state: CivState, seat: int) -> bytearray:
        """The space blocks as ``seat`` sees them.

        Each seat keeps the blocks it was last given with the per-space fields they were
        made from; only the columns of the fields that changed since are rewritten (a field
        is packed into signed bytes, -1 = 0xFF, mapped through a 256-byte table per column and
        written with a strided slice)."""
        board = state.board
        memo = self._space_memo[seat]
        if memo is None or memo.board is not board:
            memo = self._space_memo[seat] = _SpaceMemo(board, self._static_board(board))
        seen, block = memo.seen, memo.block
        n = state.players
        size = len(self._space_names)
        nb = board.size
        stop = nb * size  # block[k:stop:size] is column k of the spaces on the board
        o = 3 + len(TERRAINS) + 6  # control token owner
        tok = state.tok
        if tok != seen[0]:
            packed = _packed(tok)
            for k in range(n):
                block[o + k : stop : size] = packed.translate(_EQ[(seat + k) % n])
            seen[0] = tok[:]
        o += n
        if state.reinf != seen[1]:
            block[o:stop:size] = _packed(state.reinf).translate(_NONNEG)
            seen[1] = state.reinf[:]
        o += 1
        city = state.city
        if city != seen[2]:
            packed = _packed(city)
            for k in range(n):
                block[o + k : stop : size] = packed.translate(_EQ[(seat + k) % n])
            seen[2] = city[:]
        o += n
        if state.barb_pos != seen[3]:
            block[o:stop:size] = bytes(nb)
            for pos in state.barb_pos:
                if pos >= 0:
                    block[o + pos * size] = 1
            seen[3] = state.barb_pos[:]
        o += 1
        if state.res != seen[4]:
            packed = _packed(state.res)
            for r in range(len(RESOURCES)):
                block[o + r : stop : size] = packed.translate(_EQ[r])
            seen[4] = state.res[:]
        o += len(RESOURCES)
        if state.nw != seen[5]:
            block[o:stop:size] = _packed(state.nw).translate(_IS_SET)
            seen[5] = state.nw[:]
        if state.cs != seen[6]:
            block[o + 1 : stop : size] = _packed(state.cs).translate(_IS_SET)
            seen[6] = state.cs[:]
        if state.wtok != seen[7]:
            block[o + 2 : stop : size] = _packed(state.wtok).translate(_IS_SET)
            seen[7] = state.wtok[:]
        o += 3
        if state.caravans != seen[8]:
            for k in range(n):
                block[o + k : stop : size] = bytes(nb)
            for p, caravans in enumerate(state.caravans):
                k = o + (p - seat) % n
                for pos in caravans:
                    if pos >= 0:
                        block[k + pos * size] += 1
            seen[8] = [c[:] for c in state.caravans]
        return block

    def _mature(self, state: CivState) -> list[int]:
        """Every seat's number of mature cities (capital included), as
        :func:`~.rules.common.mature_cities` counts them.

        Whether a city is mature (CIV-2.9, ``rules.common.mature``) depends on its owner and
        the control tokens and cities on its adjacent spaces, the Sydney Opera House's owner
        and the Open Borders cards. The counts are kept with those fields; when only tokens or
        cities changed, only the cities on or next to a changed space are checked again."""
        board, sydney, holders = state.board, state.wonder_owner[_SYDNEY], state.pcard_holder
        tok, city = state.tok, state.city
        memo = self._mature_memo
        if (
            memo is not None
            and memo.tok == tok
            and memo.city == city
            and memo.board is board
            and memo.sydney == sydney
            and memo.holders == holders
        ):
            return memo.counts
        tok_packed, city_packed = _packed(tok), _packed(city)
        if (
            memo is None
            or memo.board is not board
            or memo.sydney != sydney
            or memo.holders != holders
        ):
            memo = self._mature_memo = _MatureMemo(board, state.players)
            spaces: Iterable[int] = range(board.size)
        else:
            near = self._near(board)
            spaces = {
                x
                for c in {
                    *_changed(memo.tok_packed, tok_packed),
                    *_changed(memo.city_packed, city_packed),
                }
                for x in near[c]
            }
        mature, counts = memo.mature, memo.counts
        for s in spaces:
            old = mature[s]
            if old >= 0:
                counts[old] -= 1
            o = city[s]
            if o >= 0 and C.mature(state, o, s):
                mature[s] = o
                counts[o] += 1
            else:
                mature[s] = -1
        memo.sydney, memo.holders = sydney, [h[:] for h in holders]
        memo.tok, memo.city = tok[:], city[:]
        memo.tok_packed, memo.city_packed = tok_packed, city_packed
        return counts

    def _near(self, board: Board) -> tuple[tuple[int, ...], ...]:
        """Per space: itself and the spaces it is adjacent to (whose maturity it affects)."""
        cached = self._near_cache
        if cached is None or cached[0] is not board:
            near: list[list[int]] = [[c] for c in range(board.size)]
            for s, adjacent in enumerate(board.adjacent):
                for c in adjacent:
                    near[c].append(s)
            cached = self._near_cache = (board, tuple(map(tuple, near)))
        return cached[1]

    def _static_board(self, board: Board) -> bytes:
        """The printed part of the space blocks, from the board (as :meth:`_static_map`)."""
        cached = self._static_boards.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1]
        size = len(self._space_names)
        block = bytearray(self.spaces * size)
        n_terrain = len(TERRAINS)
        for s in range(board.size):
            base = s * size
            q, r = board.coords[s]
            block[base : base + 3] = bytes((1, q + COORD_OFFSET, r + COORD_OFFSET))
            block[base + 3 + board.terrain[s]] = 1
            j = base + 3 + n_terrain
            block[j : j + 6] = bytes(
                (
                    board.difficulty[s],
                    board.edge[s],
                    bool(board.capital_tile[s]),
                    board.city_state[s] >= 0,
                    board.natural_wonder[s] >= 0,
                    board.spawn[s] >= 0,
                )
            )
        if len(self._static_boards) >= 64:
            self._static_boards.clear()
        self._static_boards[id(board)] = (board, bytes(block))
        return bytes(block)

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
