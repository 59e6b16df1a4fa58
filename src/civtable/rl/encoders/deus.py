"""The Deus observation encoder: ``view(seat)`` -> a fixed-size ``float32`` vector.

Everything comes from :func:`civtable.games.deus.view.view` (DEUS-20): the public map, tableaux,
stocks and piles, the seat's own hand, blind cards, offering in progress and pending decision;
another seat's hand, blind cards, VP total (unless ``public_vp``) and free-start picks never
appear in a view, so they cannot appear here.

Seats are listed relative to the observer: self, then the next seats in turn order
(``seat + 1``, ``seat + 2``, ...). ``C = 72`` card types in catalog order, ``R`` regions of the
player count's board (28, 42, 49 for 2, 3, 4 players), ``n`` players.

=====================  ===========  ============================================================
block                  size         content
=====================  ===========  ============================================================
phase                  13           one-hot over the engine's phases (+ "resolving")
turn                   3 + 2n       round; final round announced; final round number; first
                                    player (one-hot, relative); current player (one-hot)
piles                  8            general supply of wood, stone, clay, wheat; temples left;
                                    deck size; discard size; size of the offering in progress
piles (cards)          2C           top card of the discard pile; top card of the offering in
                                    progress (one-hot)
last offering          n + 1        who made it (one-hot, relative); how many cards
region x R             15 + n       terrain one-hot (6); on the edge; village VP (0 if not a
                                    village); owner one-hot (relative, n); pieces: civ, sci,
                                    ship, army, prod, temple; village attacked
player x n             C + 28       built cards per type (own blind cards included, others'
                                    blind cards only counted per colour); blind cards per colour
                                    (6); gold; VP (0 when hidden); VP known; resources (4);
                                    pieces on the player board (5); pieces in the personal supply
                                    (5); free-start picks made; hand size; blind build used;
                                    turns played; is to move
hand                   C            my hand, copies per card type
offering               C            the cards of my offering in progress
my picks               5            my free-start picks per piece type
pending                C + 31 + 2R  decision one-hot (13); card of the decision (C); piece to
                                    place (civ, sci, ship, army, prod, temple); blind; pieces
                                    left to pick; resources and pieces left to choose; target
                                    purpose one-hot (6); army position (R, one-hot); regions
                                    moved to (R); lots allowed to sell; bought so far
=====================  ===========  ============================================================

Entries are raw counts (not normalized), clipped to ``[0, HIGH]`` (255).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import chain
from typing import Any

import numpy as np

from civtable.core.api import JSON, State
from civtable.games.deus.catalog import (
    BY_PLAYERS,
    CARDS,
    COLOR_PIECE,
    COLORS,
    PIECES,
    PURPLE,
    RESOURCES,
    TERRAINS,
    Board,
    reference_board,
)
from civtable.games.deus.state import (
    BLIND_MARK,
    BUY_PH,
    COLUMN_PH,
    GAIN,
    LAB,
    OVER,
    PAY_PH,
    PHASE_NAMES,
    PICK,
    PLACE,
    SELL_PH,
    TARGET,
    DeusState,
)
from civtable.rl.encoders import ObservationEncoder, Vector

#: upper bound of every entry (gold, VP and pile sizes stay below it; they are clipped to it)
HIGH = 255.0
_CAP = int(HIGH)

_CARD = {c.id: i for i, c in enumerate(CARDS)}
_C = len(CARDS)
_PHASES = (*PHASE_NAMES, "resolving")
_PHASE = {p: i for i, p in enumerate(_PHASES)}
_RESOLVING = len(_PHASES) - 1  # phase -1: an effect resolving
_NO_BLIND = bytes(len(COLORS))
_TERRAIN = {t: i for i, t in enumerate(TERRAINS)}
_PIECE_NAMES = (*PIECES, "temple")
_PIECE = {p: i for i, p in enumerate(_PIECE_NAMES)}
_COLOR = {c: i for i, c in enumerate(COLORS)}
_PURPOSES = ("produce_one", "produce_region", "steal", "siege", "army_to_move", "destination")
_PURPOSE = {p: i for i, p in enumerate(_PURPOSES)}
# 256-byte tables for bytes.translate: _EQ[v] marks the byte v (owners packed as signed bytes,
# -1 = 0xFF), _BIT[k] the bit k of a region's piece mask
_EQ = tuple(bytes(int(b == v) for b in range(256)) for v in range(128))
_BIT = tuple(bytes((b >> k) & 1 for b in range(256)) for k in range(8))
#: _HOT[k]: a one-hot block with its 1 at k, zeros after it left out (the packer pads blocks)
_HOT = tuple(bytes(k) + b"\x01" for k in range(max(_C, 64)))
_PHASE_HOT = _HOT[: len(_PHASES)]  # _PHASE_HOT[-1]: "resolving", the phase -1
#: the decisions whose pending block holds more than their one-hot
_PENDING_DETAILS = frozenset((PICK, COLUMN_PH, PAY_PH, PLACE, GAIN, TARGET, SELL_PH, BUY_PH, LAB))
_U8 = np.dtype(np.uint8)
_F32 = np.dtype(np.float32)


@lru_cache(maxsize=8)
def _packer(length: int) -> struct.Struct:
    """A packer of ``length`` small ints (-128..127) into signed bytes (-1 = 0xFF)."""
    return struct.Struct(f"{length}b")


def _counts(cards: Sequence[int]) -> bytearray:
    """Copies per card type of ``cards`` (fewer than 256 copies of a card)."""
    block = bytearray(_C)
    for t in cards:
        block[t] += 1
    return block


def _built_blocks(cols: list[list[int]]) -> tuple[bytes, bytes]:
    """A player's built cards per type then blind cards per colour, as its own seat sees them
    and as the others do (the same without blind cards)."""
    counts = bytearray(_C)
    try:  # a blind card's id (card + BLIND_MARK) is beyond the block: IndexError
        for t in chain.from_iterable(cols):
            counts[t] += 1
    except IndexError:
        return _built_block(cols, True), _built_block(cols, False)
    block = bytes(counts) + _NO_BLIND
    return block, block


def _built_block(cols: list[list[int]], mine: bool) -> bytes:
    """A player's built cards per type then blind cards per colour (the observer's own blind
    cards also counted per type; another seat's only per colour)."""
    block = bytearray(_C + len(COLORS))
    for c, col in enumerate(cols):
        for t in col:
            if t >= BLIND_MARK:
                block[_C + c] += 1
                if mine:
                    block[t - BLIND_MARK] += 1
            else:
                block[t] += 1
    return bytes(block)


class _MapMemo:
    """The seat-independent region blocks of a board (terrain, edge, pieces, villages; no
    owners) and the owners packed as signed bytes (-1 = 0xFF), with the fields they show
    (``None`` = not yet written); ``stamp`` is new whenever they change."""

    __slots__ = ("block", "board", "mask", "owner", "packed_owner", "stamp", "vatt", "vvp")

    def __init__(self, board: Board, static: bytes) -> None:
        self.board = board
        self.block = static
        self.packed_owner = bytearray()
        self.owner: list[int] | None = None
        self.mask: list[int] | None = None
        self.vvp: list[int] | None = None
        self.vatt: list[int] | None = None
        self.stamp = object()


class _SeatRegions:
    """A seat's region blocks: the seat-independent blocks with the owners (relative to the
    seat) written in, made from the :class:`_MapMemo` of ``stamp``."""

    __slots__ = ("block", "stamp")

    def __init__(self, block: bytearray, stamp: object) -> None:
        self.block = block
        self.stamp = stamp


class DeusEncoder(ObservationEncoder):
    """Fixed-size encoding of a Deus seat view (see the module doc for the layout)."""

    high = HIGH

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        if players not in BY_PLAYERS:
            raise ValueError(f"Deus is for 2 to 4 players, not {players}")
        n = players
        self.regions = reference_board(players).size  # every layout has 7 regions per tile
        names: list[str] = [f"phase_{p}" for p in _PHASES]
        names += ["round", "final_round_announced", "final_round"]
        names += [f"first_player_{k}" for k in range(n)]
        names += [f"current_{k}" for k in range(n)]
        names += [f"supply_{r}" for r in RESOURCES]
        names += ["temples_left", "deck_size", "discard_size", "offering_size"]
        names += [f"discard_top:{c.id}" for c in CARDS]
        names += [f"offering_top:{c.id}" for c in CARDS]
        names += [f"last_offering_seat_{k}" for k in range(n)] + ["last_offering_cards"]
        self._region_names = (
            [f"terrain_{t}" for t in TERRAINS]
            + ["edge", "village_vp"]
            + [f"owner_{k}" for k in range(n)]
            + [f"piece_{p}" for p in _PIECE_NAMES]
            + ["village_attacked"]
        )
        self._region_at = len(names)
        for r in range(self.regions):
            names += [f"region{r}:{x}" for x in self._region_names]
        self._player_names = (
            [f"built:{c.id}" for c in CARDS]
            + [f"blind_{c}" for c in COLORS]
            + ["gold", "vp", "vp_known"]
            + [f"res_{r}" for r in RESOURCES]
            + [f"board_{p}" for p in PIECES]
            + [f"personal_{p}" for p in PIECES]
            + ["picked", "hand_size", "blind_used", "turns", "to_move"]
        )
        self._player_at = len(names)
        for k in range(n):
            names += [f"player{k}:{x}" for x in self._player_names]
        self._hand_at = len(names)
        names += [f"hand:{c.id}" for c in CARDS]
        names += [f"offering:{c.id}" for c in CARDS]
        names += [f"my_picks_{p}" for p in PIECES]
        self._pending_at = len(names)
        names += [f"pending_{p}" for p in _PHASES]
        names += [f"pending_card:{c.id}" for c in CARDS]
        names += [f"pending_piece_{p}" for p in _PIECE_NAMES]
        names += ["pending_blind", "pending_picks_left", "pending_resources_left"]
        names += ["pending_pieces_left"]
        names += [f"pending_purpose_{p}" for p in _PURPOSES]
        names += [f"pending_army_at_{r}" for r in range(self.regions)]
        names += [f"pending_moved_to_{r}" for r in range(self.regions)]
        names += ["pending_max_lots", "pending_bought"]
        self._names = names
        self.size = len(names)
        self._static: dict[int, tuple[Board, bytes]] = {}
        # encode_state's memos (see there): the seat-independent region blocks and, per
        # seat, the region blocks last given, with the fields they were made from; the
        # built-card blocks of each player (as seen by itself and by the others) with the
        # columns
        self._map: _MapMemo | None = None
        self._region_memo: list[_SeatRegions | None] = [None] * n
        self._order = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self._cols_seen: list[list[list[int]] | None] = []
        self._pending_memo: dict[tuple[int, ...], bytes] = {}
        self._built_mine: list[bytes] = [b""] * n
        self._built_other: list[bytes] = [b""] * n
        self._hand_seen: list[list[int] | None] = [None] * n
        self._hand_block: list[bytes | bytearray] = [b""] * n
        # (first player, current player) relative to the seat -> their two one-hot blocks
        self._turn_hot = [_HOT[f].ljust(n, b"\0") + _HOT[c] for f in range(n) for c in range(n)]
        region_block = self.regions * len(self._region_names)
        pending = self.size - self._pending_at
        counts = len(RESOURCES) + 2 * len(PIECES)  # resources, pieces on the board, in supply
        #: the packers of the vector's head (up to the regions), of a player block and of the
        #: rest (see encode_state): ``s`` blocks (padded with zeros), ``B`` single entries
        self._formats = (
            f"<{len(_PHASES)}s3B{2 * n}s{len(RESOURCES)}s4B{_C}s{_C}s{n}sB{region_block}s",
            f"<{_C + len(COLORS)}s3B{counts}s5B",
            f"<{_C}s{_C}s{len(PIECES)}s{pending}s",
        )
        self._make_packers()
        head, player = self._head.size, self._player.size
        self._tail_at = head + n * player
        # per seat: the seats in relative order with the offset of their player block
        self._seats_at = [
            [(s, head + k * player) for k, s in enumerate(self._order[seat])] for seat in range(n)
        ]
        if self._tail_at + self._tail.size != self.size:  # pragma: no cover - layout changed
            raise AssertionError("the Deus packers do not match the layout")

    def __getstate__(self) -> dict[str, Any]:
        """The encoder's attributes but its packer (a ``struct.Struct`` does not pickle)."""
        attrs = dict(self.__dict__)
        for name in ("_head", "_player", "_tail", "_buffer", "_bytes"):
            del attrs[name]
        return attrs

    def __setstate__(self, attrs: dict[str, Any]) -> None:
        """Restore the attributes and remake the packer."""
        self.__dict__.update(attrs)
        self._make_packers()

    def _make_packers(self) -> None:
        """The packers, the bytes ``encode_state`` packs the vector into and their ``uint8``
        view."""
        self._head, self._player, self._tail = map(struct.Struct, self._formats)
        self._buffer = bytearray(self.size)
        self._bytes = np.frombuffer(self._buffer, _U8)

    def feature_names(self) -> list[str]:
        """One name per entry, e.g. ``hand:BLU-13`` or ``player1:gold`` (player1 = next seat)."""
        return list(self._names)

    def encode(self, view: JSON) -> Vector:
        """The observation vector of ``view`` (a seat's view, not a spectator's)."""
        me = view.get("seat")
        if me is None:
            raise ValueError("the Deus encoder needs a seat's view, not a spectator's")
        n = view["players"]
        if n != self.players:
            raise ValueError(f"a {n}-player view given to a {self.players}-player encoder")
        v = np.zeros(self.size, dtype=np.float32)

        def rel(seat: int) -> int:
            return int((seat - me) % n)

        i = 0
        v[i + _PHASE[view["phase"]]] = 1
        i += len(_PHASES)
        v[i] = view["round"]
        if view["final_round"] is not None:
            v[i + 1] = 1
            v[i + 2] = view["final_round"]
        i += 3
        v[i + rel(view["first_player"])] = 1
        i += n
        v[i + rel(view["current"])] = 1
        i += n
        for name in RESOURCES:
            v[i] = view["supply"][name]
            i += 1
        v[i : i + 4] = (
            view["temples_left"],
            view["deck_size"],
            view["discard_size"],
            view["offering_size"],
        )
        i += 4
        if view["discard_top"] is not None:
            v[i + _CARD[view["discard_top"]]] = 1
        i += _C
        if view["offering_top"] is not None:
            v[i + _CARD[view["offering_top"]]] = 1
        i += _C
        last = view["last_offering"]
        if last is not None:
            v[i + rel(last["seat"])] = 1
            v[i + n] = last["cards"]
        i += n + 1
        # regions
        size = len(self._region_names)
        regions = view["regions"]
        if len(regions) != self.regions:
            raise ValueError(f"expected {self.regions} regions, got {len(regions)}")
        index = {doc["id"]: r for r, doc in enumerate(regions)}
        n_terrain = len(TERRAINS)
        for r, doc in enumerate(regions):
            base = i + r * size
            v[base + _TERRAIN[doc["terrain"]]] = 1
            v[base + n_terrain] = doc["edge"]
            if doc["owner"] is not None:
                v[base + n_terrain + 2 + rel(doc["owner"])] = 1
            for p in doc["pieces"]:
                v[base + n_terrain + 2 + n + _PIECE[p]] = 1
        for doc in view["villages"]:
            base = i + index[doc["id"]] * size
            v[base + n_terrain + 1] = doc["vp"]
            v[base + size - 1] = doc["attacked"]
        i += self.regions * size
        # players
        size = len(self._player_names)
        to_move = set(view["to_move"])
        for doc in view["player_states"]:
            base = i + rel(doc["seat"]) * size
            for color, cards in doc["columns"].items():
                for cid in cards:
                    if cid == "blind":
                        v[base + _C + _COLOR[color]] += 1
                        continue
                    if cid.endswith("*"):
                        v[base + _C + _COLOR[color]] += 1
                        cid = cid[:-1]
                    v[base + _CARD[cid]] += 1
            j = base + _C + len(COLORS)
            v[j] = doc["gold"]
            if doc["vp"] is not None:
                v[j + 1] = max(doc["vp"], 0)
                v[j + 2] = 1
            j += 3
            for name in RESOURCES:
                v[j] = doc["resources"][name]
                j += 1
            for p in PIECES:
                v[j] = doc["board_pieces"][p]
                j += 1
            for p in PIECES:
                v[j] = doc["personal_supply"][p]
                j += 1
            v[j : j + 5] = (
                doc["picked"] or 0,
                doc["hand_size"],
                doc["blind_used"],
                doc["turns"],
                doc["seat"] in to_move,
            )
        i += n * size
        # own cards
        for cid in view["hand"]:
            v[i + _CARD[cid]] += 1
        i += _C
        for cid in view.get("offering", ()):
            v[i + _CARD[cid]] += 1
        i += _C
        picks = view.get("my_picks")
        if picks is not None:
            for k, p in enumerate(PIECES):
                v[i + k] = picks[p]
        i += len(PIECES)
        # pending decision
        pending = view.get("pending")
        if pending is not None:
            v[i + _PHASE[pending["decision"]]] = 1
            j = i + len(_PHASES)
            if "card" in pending:
                v[j + _CARD[pending["card"]]] = 1
            j += _C
            if "piece" in pending:
                v[j + _PIECE[pending["piece"]]] = 1
            j += len(_PIECE_NAMES)
            v[j] = pending.get("blind", False)
            v[j + 1] = pending.get("left", 0)
            v[j + 2] = pending.get("resources_left", 0)
            v[j + 3] = pending.get("pieces_left", 0)
            j += 4
            if "purpose" in pending:
                v[j + _PURPOSE[pending["purpose"]]] = 1
            j += len(_PURPOSES)
            if pending.get("army_at") is not None:
                v[j + index[pending["army_at"]]] = 1
            j += self.regions
            for rid in pending.get("moved_to", ()):
                v[j + index[rid]] = 1
            j += self.regions
            v[j] = pending.get("max_lots", 0)
            v[j + 1] = pending.get("bought", 0)
        np.clip(v, 0.0, HIGH, out=v)
        return v

    def encode_state(self, state: State, seat: int) -> Vector:
        """``encode(view(state, seat))`` without building the view (the environments' path).

        It reads exactly the state fields :func:`civtable.games.deus.view.view` shows to
        ``seat``, in the same layout; ``tests/rl/test_deus.py`` checks it equals encoding the
        view for every seat on many positions (free start and blind building included).
        Every entry is a small count, so the vector is packed as bytes into one buffer by
        three :class:`struct.Struct` packers (the head up to the regions, each player block,
        the rest; one-hot blocks are prebuilt byte strings with their trailing zeros left
        to the ``s`` fields' padding) and converted to ``float32`` once. An entry a byte
        cannot hold (outside ``[0, 255]``; VP below 0 excepted, read as 0) makes the packer
        or ``bytes`` fail, and the vector is then the reference ``encode(view)``, which
        clips it. What changes only now and then is kept with the fields it was made from
        (compared as lists, so a state changed in place or another state is always seen as
        it is) and redone only when they differ: the seat-independent region blocks and
        each seat's copy with its relative owners (see :meth:`_update_map`), each player's
        built cards (as its own seat and as the others see them), each seat's hand, and the
        pending-decision block per ``(phase, *ctx)``. ``tests/rl/test_deus.py``
        also checks positions in shuffled order and states changed in place.
        """
        if not isinstance(state, DeusState):
            raise TypeError("not a Deus state")
        n = state.players
        if n != self.players:
            raise ValueError(f"a {n}-player state given to a {self.players}-player encoder")
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")
        try:
            ph = state.phase
            end = state.end_round
            cur = state.cur
            discard, offer, last = state.discard, state.offer, state.last_offer
            picking = ph == PICK
            # = state.to_move(), without its call outside the free-start picks
            to_move = state.to_move() if picking else () if ph == OVER else (cur,)
            # the map: the seat-independent blocks, redone if one of their fields changed, then
            # this seat's copy with the owners, redone if those blocks changed since
            shared = self._map
            if (
                shared is None
                or shared.board is not state.board
                or shared.owner != state.owner
                or shared.mask != state.mask
                or shared.vvp != state.vvp
                or shared.vatt != state.vatt
            ):
                shared = self._update_map(state)
            memo = self._region_memo[seat]
            if memo is None or memo.stamp is not shared.stamp:
                memo = self._seat_regions(shared, seat)
            buffer = self._buffer
            self._head.pack_into(
                buffer,
                0,
                _PHASE_HOT[ph],  # phase -1 (resolving) is the last entry
                state.round,
                end >= 0,
                end if end >= 0 else 0,
                self._turn_hot[(state.first - seat) % n * n + (cur - seat) % n],
                bytes(state.supply),
                state.temples,
                len(state.deck),
                len(discard),
                len(offer),
                _HOT[discard[-1]] if discard else b"",
                _HOT[offer[0]] if offer else b"",
                _HOT[(last[0] - seat) % n] if last else b"",
                last[1] if last else 0,
                memo.block,
            )
            # players in relative order: the built cards (kept per player), then the rest
            if self._cols_seen != state.cols:
                self._update_built(state)
            mine, other = self._built_mine, self._built_other
            public_vp = ph == OVER or bool(state.options.get("public_vp"))
            gold, vp, res, hands = state.gold, state.vp, state.res, state.hands
            onboard, personal, picks = state.onboard, state.personal, state.picks
            blind_used, turns = state.blind_used, state.turns
            pack_player = self._player.pack_into
            for s, at in self._seats_at[seat]:
                if s == seat:
                    built, shown = mine[s], True
                else:
                    built, shown = other[s], public_vp
                points = vp[s] if shown else 0
                pack_player(
                    buffer,
                    at,
                    built,
                    gold[s],
                    points if points > 0 else 0,
                    shown,
                    bytes(res[s] + onboard[s] + personal[s]),
                    sum(picks[s]) if picking else 0,
                    len(hands[s]),
                    blind_used[s] != 0,
                    turns[s],
                    s in to_move,
                )
            # own cards: copies per card type (the hand's kept with the hand it was made from)
            hand = hands[seat]
            if self._hand_seen[seat] != hand:
                self._hand_seen[seat] = hand[:]
                self._hand_block[seat] = _counts(hand)
            self._tail.pack_into(
                buffer,
                self._tail_at,
                self._hand_block[seat],
                _counts(offer) if offer and seat == cur else b"",
                bytes(picks[seat]) if picking else b"",
                (self._pending(state, seat) if ph in _PENDING_DETAILS else _PHASE_HOT[ph])
                if seat in to_move
                else b"",
            )
            return self._bytes.astype(_F32)
        except (struct.error, ValueError):
            # an entry outside [0, 255] (a byte cannot hold it): the reference path clips it
            return self.encode(state.view(seat, labels=False))

    def _update_built(self, state: DeusState) -> None:
        """Redo the built-card blocks of the players whose columns changed (as their own
        seat sees them and as the others do) and keep a copy of their columns."""
        seen = self._cols_seen
        if len(seen) != len(state.cols):
            seen[:] = [None] * len(state.cols)
        for s, cols in enumerate(state.cols):
            if seen[s] != cols:
                self._built_mine[s], self._built_other[s] = _built_blocks(cols)
                seen[s] = [c[:] for c in cols]

    def _pending(self, state: DeusState, seat: int) -> bytes | bytearray:
        """The pending-decision block of a decision in ``_PENDING_DETAILS`` (``seat`` is to
        move); but for the free-start picks it depends on ``phase`` and ``ctx`` only, and is
        kept per ``(phase, *ctx)``."""
        ph = state.phase
        if ph == PICK:
            return self._pending_block(state, seat)
        key = (ph, *state.ctx)
        block = self._pending_memo.get(key)
        if block is None:
            if len(self._pending_memo) >= 4096:
                self._pending_memo.clear()
            block = self._pending_memo[key] = bytes(self._pending_block(state, seat))
        return block

    def _pending_block(self, state: DeusState, seat: int) -> bytearray:
        """The pending-decision block (``seat`` is to move)."""
        buf = bytearray(self.size - self._pending_at)
        i = 0
        ph = state.phase
        ctx = state.ctx
        n_pieces = len(_PIECE_NAMES)
        buf[i + (ph if ph >= 0 else _RESOLVING)] = 1
        j = i + len(_PHASES)
        if ph in (COLUMN_PH, PAY_PH, PLACE, TARGET, SELL_PH, BUY_PH, LAB) and ctx:
            buf[j + ctx[0]] = 1
        j += _C
        if ph == PLACE:
            color = ctx[1]
            buf[j + (len(PIECES) if color == PURPLE else COLOR_PIECE[color])] = 1
            buf[j + n_pieces] = bool(ctx[2])
        elif ph == PICK:
            left = int(state.options["free_start"]) - sum(state.picks[seat])
            buf[j + n_pieces + 1] = min(max(left, 0), _CAP)
        elif ph == GAIN:
            buf[j + n_pieces + 2] = min(max(ctx[0], 0), _CAP)
            buf[j + n_pieces + 3] = min(max(ctx[1], 0), _CAP)
        j += n_pieces + 4
        if ph == TARGET:
            buf[j + ctx[1]] = 1
            j += len(_PURPOSES)
            if ctx[2] >= 0:
                buf[j + ctx[2]] = 1
            j += self.regions
            for r in ctx[3:]:
                buf[j + r] = 1
            j += self.regions
        else:
            j += len(_PURPOSES) + 2 * self.regions
        if ph == SELL_PH:
            buf[j] = min(max(ctx[1], 0), _CAP)
        elif ph == BUY_PH:
            buf[j + 1] = min(max(ctx[1], 0), _CAP)
        return buf

    def _seat_regions(self, shared: _MapMemo, seat: int) -> _SeatRegions:
        """``seat``'s region blocks: the seat-independent ones with the owners relative to
        the seat written in (the packed owners mapped through a 256-byte table per owner
        column and written with a strided slice)."""
        block = bytearray(shared.block)
        n = self.players
        size = len(self._region_names)
        stop = len(shared.packed_owner) * size  # block[k:stop:size] is column k of the regions
        o = len(TERRAINS) + 2  # owner
        packed = shared.packed_owner
        for k in range(n):
            block[o + k : stop : size] = packed.translate(_EQ[(seat + k) % n])
        memo = self._region_memo[seat] = _SeatRegions(block, shared.stamp)
        return memo

    def _update_map(self, state: DeusState) -> _MapMemo:
        """The seat-independent region blocks of ``state`` (the pieces and villages redone
        if they changed, the owners packed again if they changed) with a new stamp."""
        b = state.board
        shared = self._map
        if shared is None or shared.board is not b:
            shared = self._map = _MapMemo(b, self._static_regions(b))
        shared.stamp = object()
        if state.owner != shared.owner:
            shared.packed_owner = bytearray(_packer(len(state.owner)).pack(*state.owner))
            shared.owner = state.owner[:]
        if state.mask == shared.mask and state.vvp == shared.vvp and state.vatt == shared.vatt:
            return shared
        size = len(self._region_names)
        block = bytearray(shared.block)
        if state.mask != shared.mask:
            stop = b.size * size
            o = len(TERRAINS) + 2 + state.players  # pieces
            packed = bytearray(state.mask)  # a piece mask has 6 bits
            for k in range(len(_PIECE_NAMES)):
                block[o + k : stop : size] = packed.translate(_BIT[k])
            shared.mask = state.mask[:]
        vatt = state.vatt
        for k, v in enumerate(state.vvp):
            at = b.villages[k] * size
            block[at + len(TERRAINS) + 1] = (v if v < _CAP else _CAP) if v > 0 else 0
            block[at + size - 1] = vatt[k] != 0
        shared.vvp, shared.vatt = state.vvp[:], state.vatt[:]
        shared.block = bytes(block)
        return shared

    def _static_regions(self, board: Board) -> bytes:
        """Terrain one-hot and edge flag of every region block (the rest zero), per board."""
        cached = self._static.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1]
        size = len(self._region_names)
        block = bytearray(self.regions * size)
        for r in range(board.size):
            block[r * size + board.terrain[r]] = 1
            block[r * size + len(TERRAINS)] = bool(board.edge[r])
        if len(self._static) >= 64:
            self._static.clear()
        self._static[id(board)] = (board, bytes(block))
        return bytes(block)

    def render(self, view: JSON) -> str:
        """A compact text picture: round and phase, one line per player, the map's owned
        regions, then the seat's hand and legal actions."""
        lines = [
            f"Deus · round {view['round']} · {view['phase']} · player {view['current'] + 1} to act"
            f" · deck {view['deck_size']} · discard {view['discard_size']}"
            f" · temples left {view['temples_left']}"
        ]
        for doc in view["player_states"]:
            built = sum(len(cards) for cards in doc["columns"].values())
            vp = "?" if doc["vp"] is None else doc["vp"]
            res = " ".join(f"{r} {k}" for r, k in doc["resources"].items())
            lines.append(
                f"Player {doc['seat'] + 1}: gold {doc['gold']} · VP {vp} · {res} · "
                f"{built} buildings · hand {doc['hand_size']}"
            )
        owned = [
            f"{doc['id']}:P{doc['owner'] + 1}[{','.join(doc['pieces'])}]"
            for doc in view["regions"]
            if doc["owner"] is not None
        ]
        lines.append("map: " + (" ".join(owned) or "-"))
        if view.get("seat") is not None:
            hand = ", ".join(CARDS[_CARD[cid]].label for cid in view.get("hand", [])) or "-"
            lines.append(f"Player {view['seat'] + 1}'s hand: {hand}")
            for a in view.get("legal", []):
                lines.append(f"  [{a['id']}] {a.get('label', '')}")
        result = view.get("result")
        if result is not None:
            lines.append(
                "final scores: "
                + ", ".join(f"Player {s + 1} {p}" for s, p in enumerate(result["scores"]))
            )
        return "\n".join(lines)


__all__ = ["HIGH", "DeusEncoder"]
