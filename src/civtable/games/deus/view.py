"""What each seat may know (DEUS-20), and determinization for search bots.

:func:`view` is the only place that decides visibility. Public (DEUS-20.2): the map, every
tableau (blind-built cards face down), pieces on player boards and in personal supplies,
resources, gold, village VP, the general supply, hand sizes, deck and discard sizes, the top
card of the discard pile and the size of the last offering. Private to a seat: its own hand, its
own blind cards, the cards of an offering it is making, and its VP total unless the
``public_vp`` option is on (DEUS-20.1, DEUS-20.3). The free-start picks of others stay hidden
until every seat has picked (DEUS-21.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.deus.actions import BUILD
from civtable.games.deus.catalog import (
    CARDS,
    COLOR_PIECE,
    COLORS,
    PIECES,
    PURPLE,
    RESOURCES,
    TERRAINS,
)
from civtable.games.deus.rules import construct, turn
from civtable.games.deus.rules.board import temple_targets
from civtable.games.deus.state import (
    BLIND_MARK,
    BUY_PH,
    COLUMN_PH,
    GAIN,
    LAB,
    MAIN,
    OFFERING,
    OVER,
    PAY_PH,
    PHASE_NAMES,
    PICK,
    PLACE,
    SELL_PH,
    TARGET,
)

if TYPE_CHECKING:
    from civtable.games.deus.catalog import Board
    from civtable.games.deus.state import DeusState

_IDS = tuple(c.id for c in CARDS)


def _pieces_in(mask: int) -> list[str]:
    out = [PIECES[k] for k in range(len(PIECES)) if mask >> k & 1]
    if mask >> len(PIECES) & 1:
        out.append("temple")
    return out


class _RegionViews:
    """The view entries of one board's regions, made once per (region, owner, pieces) and
    shared by every view of that board: views are read, never edited in place."""

    __slots__ = (
        "board",
        "last",
        "last_mask",
        "last_owner",
        "made",
        "maps",
        "static",
        "village_ids",
    )

    def __init__(self, b: Board) -> None:
        self.board = b
        #: id, axial q and r, terrain, edge and neighbours of each region
        self.static = [
            (
                b.ids[r],
                b.axial[r][0] if b.axial else None,
                b.axial[r][1] if b.axial else None,
                TERRAINS[b.terrain[r]],
                b.edge[r],
                b.neighbours[r],
            )
            for r in range(b.size)
        ]
        #: the ids of the village regions, in the order of the state's village lists
        self.village_ids = tuple(b.ids[v] for v in b.villages)
        #: per region: (mask << 8 | owner + 1) -> its entry
        self.made: list[dict[int, JSON]] = [{} for _ in range(b.size)]
        #: the entries of whole maps seen lately, by owners and pieces (every seat views the
        #: same map; most moves leave it as it was)
        self.maps: dict[tuple[int, ...], list[JSON]] = {}
        #: the owners and pieces of the map of the last view (copies) and its entries: views
        #: come in runs of the same map (every seat's after a move), and comparing two lists
        #: is cheaper than making and hashing the key of ``maps``
        self.last_owner: list[int] = []
        self.last_mask: list[int] = []
        self.last: list[JSON] = []

    def entries(self, owner: list[int], mask: list[int]) -> list[JSON]:
        """The ``regions`` list of a view of this board with these owners and pieces."""
        if mask == self.last_mask and owner == self.last_owner:
            return self.last[:]
        key = (*owner, *mask)
        hit = self.maps.get(key)
        if hit is None:
            hit = self._entries(owner, mask)
            if len(self.maps) >= 256:  # a few MB at most over the boards kept
                self.maps.clear()
            self.maps[key] = hit
        self.last_owner, self.last_mask, self.last = owner[:], mask[:], hit
        return hit[:]

    def _entries(self, owner: list[int], mask: list[int]) -> list[JSON]:
        out = []
        made = self.made
        for r, (o, m) in enumerate(zip(owner, mask, strict=True)):
            key = m << 8 | (o + 1)
            doc = made[r].get(key)
            if doc is None:
                rid, q, rr, terrain, edge, adjacent = self.static[r]
                doc = made[r][key] = {
                    "id": rid,
                    "q": q,
                    "r": rr,
                    "terrain": terrain,
                    "edge": edge,
                    "owner": o if o >= 0 else None,
                    "pieces": _pieces_in(m),
                    "adjacent": list(adjacent),
                }
            out.append(doc)
        return out


#: the region views of the boards seen lately, by ``id`` (the entry keeps its board, so a
#: reused ``id`` is noticed)
_BOARDS: dict[int, _RegionViews] = {}


def _regions(b: Board) -> _RegionViews:
    hit = _BOARDS.get(id(b))
    if hit is None or hit.board is not b:
        if len(_BOARDS) >= 16:
            _BOARDS.clear()
        hit = _BOARDS[id(b)] = _RegionViews(b)
    return hit


#: the name of a card of a column as others see it and as its owner sees it (a blind-built
#: card is stored as card + BLIND_MARK, DEUS-21.3), indexed by the stored number (tuples: cheaper
#: to index than dicts; the numbers between the cards and BLIND_MARK never occur)
_SEEN: tuple[str, ...] = (*_IDS, *[""] * (BLIND_MARK - len(_IDS)), *["blind"] * len(_IDS))
_SEEN_OWN: tuple[str, ...] = (
    *_IDS,
    *[""] * (BLIND_MARK - len(_IDS)),
    *[i + "*" for i in _IDS],
)


#: the resource, piece and colour names, written out as the keys of the view's literal dicts
#: (:func:`_players`, :func:`view`): the data must name them so, in this order
if (RESOURCES, PIECES, COLORS) != (
    ("wood", "stone", "clay", "wheat"),
    ("civ", "sci", "ship", "army", "prod"),
    ("brown", "yellow", "blue", "red", "green", "purple"),
):  # pragma: no cover - a data change: update the literals of _players and view
    raise ImportError("deus view: the data's resources, pieces or colours changed")


_PURPOSES = ("produce_one", "produce_region", "steal", "siege", "army_to_move", "destination")


def pending(state: DeusState, seat: int) -> JSON:
    """The decision ``seat`` owes now, in words and ids (only shown to that seat)."""
    ph = state.phase
    ctx = state.ctx
    b = state.board
    doc: JSON = {"decision": PHASE_NAMES[ph] if ph >= 0 else "resolving"}
    if ph in (COLUMN_PH, PAY_PH, PLACE, TARGET, SELL_PH, BUY_PH, LAB) and ctx:
        doc["card"] = _IDS[ctx[0]]
    if ph == PLACE:
        color = ctx[1]
        doc["piece"] = "temple" if color == PURPLE else PIECES[COLOR_PIECE[color]]
        doc["blind"] = bool(ctx[2])
    elif ph == PICK:
        doc["left"] = int(state.options["free_start"]) - sum(state.picks[seat])
    elif ph == OFFERING:
        doc["cards"] = [_IDS[t] for t in state.offer]
    elif ph == GAIN:
        doc["resources_left"], doc["pieces_left"] = ctx[0], ctx[1]
    elif ph == TARGET:
        doc["purpose"] = _PURPOSES[ctx[1]]
        doc["army_at"] = b.ids[ctx[2]] if ctx[2] >= 0 else None
        doc["moved_to"] = [b.ids[r] for r in ctx[3:]]
        # the same regions as indices of ``regions`` (what the table names them by)
        doc["army_region"] = ctx[2] if ctx[2] >= 0 else None
        doc["moved_regions"] = list(ctx[3:])
    elif ph == SELL_PH:
        doc["max_lots"] = ctx[1]
    elif ph == BUY_PH:
        doc["bought"] = ctx[1]
    return doc


def build_block(state: DeusState, s: int, t: int) -> str | None:
    """Why ``s`` cannot construct card ``t`` now (None: it can), in the order of the checks of
    :func:`construct.can_construct`: ``temple_columns`` (DEUS-8.2), ``temple_region`` (DEUS-8.4,
    8.5), ``piece`` (DEUS-7.1), ``cost`` (DEUS-7.3), ``region`` (DEUS-7.2, 7.4)."""
    card = CARDS[t]
    if card.color == PURPLE:
        if not construct.temple_prerequisite(state, s):
            return "temple_columns"
        if state.temples > 0 and not temple_targets(state, s):
            return "temple_region"
        return None if construct.can_pay(state, s, t) else "cost"
    if state.onboard[s][COLOR_PIECE[card.color]] < 1:
        return "piece"
    if not construct.can_pay(state, s, t):
        return "cost"
    return None if construct.has_piece_target(state, s, card.color) else "region"


def cannot_build(state: DeusState, s: int, legal: list[int] | None = None) -> JSON:
    """Each card of the seat's hand it cannot construct now, with the reason (see
    :func:`build_block`): the words a table shows beside a card without a Construct button.

    ``legal``: the seat's legal actions in its main choice, if known; a card whose Construct
    action is among them needs no check (the main choice lists a card's Construct action
    exactly when it can be constructed, ``construct.buildable``)."""
    out: JSON = {}
    can = frozenset(legal) if legal is not None and state.phase == MAIN else frozenset()
    for t in sorted(set(state.hands[s])):
        if BUILD + t in can:
            continue
        why = build_block(state, s, t)
        if why is not None:
            out[_IDS[t]] = why
    return out


def _players(state: DeusState, seat: int | None, public_vp: bool, picking: bool) -> list[JSON]:
    """The ``player_states`` of a view: dicts written out as literals with constant keys
    (several times cheaper than comprehensions over the name tuples; the keys are the data's
    names in the data's order, checked when this module is imported)."""
    out = []
    gold, vp, picks, hands = state.gold, state.vp, state.picks, state.hands
    blind_used, turns = state.blind_used, state.turns
    onboard_rows, personal_rows, cols_rows = state.onboard, state.personal, state.cols
    for s, (r0, r1, r2, r3) in enumerate(state.res):
        b0, b1, b2, b3, b4 = onboard_rows[s]
        p0, p1, p2, p3, p4 = personal_rows[s]
        seen = _SEEN_OWN if s == seat else _SEEN
        c0, c1, c2, c3, c4, c5 = cols_rows[s]
        out.append(
            {
                "seat": s,
                "gold": gold[s],
                "vp": vp[s] if (public_vp or s == seat) else None,
                "resources": {"wood": r0, "stone": r1, "clay": r2, "wheat": r3},
                "board_pieces": {"civ": b0, "sci": b1, "ship": b2, "army": b3, "prod": b4},
                "personal_supply": {"civ": p0, "sci": p1, "ship": p2, "army": p3, "prod": p4},
                "picked": sum(picks[s]) if picking else None,
                "hand_size": len(hands[s]),
                "columns": {
                    "brown": [seen[t] for t in c0] if c0 else [],
                    "yellow": [seen[t] for t in c1] if c1 else [],
                    "blue": [seen[t] for t in c2] if c2 else [],
                    "red": [seen[t] for t in c3] if c3 else [],
                    "green": [seen[t] for t in c4] if c4 else [],
                    "purple": [seen[t] for t in c5] if c5 else [],
                },
                "blind_used": blind_used[s] != 0,
                "turns": turns[s],
            }
        )
    return out


def view(state: DeusState, seat: int | None, *, labels: bool = True) -> JSON:
    """JSON-ready view for ``seat`` (``None`` = spectator)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    b = state.board
    public_vp = bool(state.options.get("public_vp")) or state.phase == OVER
    to_move = state.to_move()
    picking = state.phase == PICK
    regions = _regions(b)
    s0, s1, s2, s3 = state.supply
    doc: JSON = {
        "game": state.game.id,
        "players": state.players,
        "seat": seat,
        "round": state.round,
        "final_round": state.end_round if state.end_round >= 0 else None,
        "first_player": state.first,
        "current": state.cur,
        "phase": PHASE_NAMES[state.phase] if state.phase >= 0 else "resolving",
        "to_move": list(to_move),
        "regions": regions.entries(state.owner, state.mask),
        "villages": [
            {"id": vid, "vp": vp, "attacked": att != 0}
            for vid, vp, att in zip(regions.village_ids, state.vvp, state.vatt, strict=True)
        ],
        "supply": {"wood": s0, "stone": s1, "clay": s2, "wheat": s3},
        "temples_left": state.temples,
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "discard_top": _IDS[state.discard[-1]] if state.discard else None,
        "last_offering": (
            {"seat": state.last_offer[0], "cards": state.last_offer[1]}
            if state.last_offer
            else None
        ),
        "offering_size": len(state.offer),
        "offering_top": _IDS[state.offer[0]] if state.offer else None,
        "player_states": _players(state, seat, public_vp, picking),
    }
    if seat is not None:
        doc["hand"] = [_IDS[t] for t in state.hands[seat]]
        if picking:
            doc["my_picks"] = {PIECES[p]: state.picks[seat][p] for p in range(len(PIECES))}
        if state.offer and seat == state.cur:
            doc["offering"] = [_IDS[t] for t in state.offer]
        if seat in to_move:
            doc["pending"] = pending(state, seat)
        legal = state.legal_actions(seat)
        if labels:
            get = turn.CARD_LABELS.get  # most labels; the others depend on the position
            describe = turn.describe
            doc["legal"] = [{"id": a, "label": get(a) or describe(state, seat, a)} for a in legal]
            if state.phase == MAIN and seat == state.cur:
                doc["cannot_build"] = cannot_build(state, seat, legal)
        else:
            doc["legal"] = [{"id": a} for a in legal]
    if state.log is not None:
        doc["log"] = [e for e in state.log if "seat" not in e or e["seat"] == seat]
    if state.phase == OVER:
        doc["result"] = state.result().to_json()
    return doc


def determinize(state: DeusState, seat: int, rng: Rng) -> DeusState:
    """Re-deal everything ``seat`` cannot see (DEUS-20.1): other hands, the deck order, the
    discard pile under its top card, other seats' blind cards and the hidden cards of another
    seat's offering in progress; sizes are kept. Others' free-start picks are re-drawn. VP totals
    are kept (they follow from public events, DEUS-20.3). The generator is re-seeded."""
    s = state.copy()
    s.history = []
    s.log = None
    s._legal = {}
    pool: list[int] = []
    slots: list[tuple[str, int, int, int]] = []
    for p in range(s.players):
        if p == seat:
            continue
        for k, t in enumerate(s.hands[p]):
            pool.append(t)
            slots.append(("hand", p, 0, k))
        for c, col in enumerate(s.cols[p]):
            for k, t in enumerate(col):
                if t >= BLIND_MARK:
                    pool.append(t - BLIND_MARK)
                    slots.append(("blind", p, c, k))
    for k, t in enumerate(s.deck):
        pool.append(t)
        slots.append(("deck", 0, 0, k))
    for k, t in enumerate(s.discard[:-1]):
        pool.append(t)
        slots.append(("discard", 0, 0, k))
    if s.cur != seat:
        for k, t in enumerate(s.offer[1:], start=1):
            pool.append(t)
            slots.append(("offer", 0, 0, k))
        if s.phase == COLUMN_PH or (s.phase == PLACE and s.ctx[2]):
            pool.append(s.ctx[0])  # a card being built blind (DEUS-21.3)
            slots.append(("ctx", 0, 0, 0))
    pool.sort()  # the re-deal depends on what the seat sees, not on the true order
    rng.shuffle(pool)
    for (where, p, c, k), t in zip(slots, pool, strict=True):
        if where == "hand":
            s.hands[p][k] = t
        elif where == "blind":
            s.cols[p][c][k] = t + BLIND_MARK
        elif where == "deck":
            s.deck[k] = t
        elif where == "discard":
            s.discard[k] = t
        elif where == "offer":
            s.offer[k] = t
        else:
            s.ctx[0] = t
    if s.phase == PICK:
        for p in range(s.players):
            if p == seat:
                continue
            n = sum(s.picks[p])
            s.picks[p] = [0] * len(PIECES)
            for _ in range(n):
                opts = [x for x in range(len(PIECES)) if s.picks[p][x] < 5]
                s.picks[p][rng.choice(opts)] += 1
    s.rng = rng.fork()
    return s
