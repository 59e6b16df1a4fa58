"""Deus data loaded once into tuples indexed by small integers (cards, gods, boards, setup).

Everything comes from ``data/*.json`` (copies of ``shared/data/deus``); nothing here is a game
fact typed by hand except the index order of the JSON vocabularies. The effect vocabulary of
``cards.json`` (README "Effect vocabulary") is decoded into :class:`Effect` records whose
``kind`` names the rule function in :mod:`civtable.games.deus.rules.effects` that resolves it.

Index conventions (all derived from the JSON files):

* resources: ``RESOURCES`` = wood, stone, clay, wheat (``cards.json`` order);
* terrains: ``TERRAINS`` = field, forest, swamp, mountain, sea, village; the first four are land
  and ``LAND_RESOURCE[t]`` is the resource of land ``t`` (DEUS-3.2);
* colours: ``COLORS`` = brown, yellow, blue, red, green, purple (``cards.json`` order); piece
  type ``k`` (civ, sci, ship, army, prod) is the piece of colour ``k`` (DEUS-5.1); ``TEMPLE`` is
  the sixth bit of a region's piece mask.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from civtable.core.rng import Rng


def _load(name: str) -> Any:
    text = (resources.files("civtable.games.deus") / "data" / name).read_text(encoding="utf-8")
    return json.loads(text)


_CARDS_DOC = _load("cards.json")
_GODS_DOC = _load("gods.json")
_BOARDS_DOC = _load("boards.json")
_SETUP_DOC = _load("setup.json")

RESOURCES: tuple[str, ...] = tuple(_CARDS_DOC["resources"])
RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}
TERRAINS: tuple[str, ...] = ("field", "forest", "swamp", "mountain", "sea", "village")
T_INDEX = {t: i for i, t in enumerate(TERRAINS)}
SEA, VILLAGE = T_INDEX["sea"], T_INDEX["village"]
LAND_RESOURCE: tuple[int, ...] = tuple(
    RES_INDEX[_CARDS_DOC["lands"][t]] for t in TERRAINS[:4]
)  # DEUS-3.2
COLORS: tuple[str, ...] = tuple(_CARDS_DOC["colors"])
C_INDEX = {c: i for i, c in enumerate(COLORS)}
PURPLE = C_INDEX["purple"]
PIECES: tuple[str, ...] = tuple(
    _CARDS_DOC["colors"][c]["piece"] for c in COLORS if _CARDS_DOC["colors"][c]["piece"]
)
P_INDEX = {p: i for i, p in enumerate(PIECES)}
#: piece type of each colour (-1 for purple): colour k builds piece k (DEUS-5.1)
COLOR_PIECE: tuple[int, ...] = tuple(
    P_INDEX[_CARDS_DOC["colors"][c]["piece"]] if _CARDS_DOC["colors"][c]["piece"] else -1
    for c in COLORS
)
SHIP, ARMY = P_INDEX["ship"], P_INDEX["army"]
TEMPLE = len(PIECES)  # bit index of a temple in a region's piece mask
TEMPLE_BIT = 1 << TEMPLE
BUILDING_COLORS: tuple[int, ...] = tuple(c for c in range(len(COLORS)) if c != PURPLE)

# --- effects ---------------------------------------------------------------------------------
# Counter kinds (README "COUNTER").
(
    CNT_OCCUPIED_LAND,
    CNT_REGIONS_MIN,
    CNT_PAIRS_MIN,
    CNT_PROD_LAND,
    CNT_TABLEAU,
    CNT_VILLAGES_ARMIES,
    CNT_OWNED,
    CNT_TEMPLE_CARDS,
    CNT_COLOR_SETS,
) = range(9)
_COUNTERS = {
    "occupied_land": CNT_OCCUPIED_LAND,
    "regions_with_buildings": CNT_REGIONS_MIN,
    "region_pairs_with_buildings": CNT_PAIRS_MIN,
    "production_buildings": CNT_PROD_LAND,
    "tableau_cards": CNT_TABLEAU,
    "villages_adjacent_to_own_armies": CNT_VILLAGES_ARMIES,
    "owned": CNT_OWNED,
    "temple_cards": CNT_TEMPLE_CARDS,
    "color_sets": CNT_COLOR_SETS,
}
COUNTER_NAMES = {v: k for k, v in _COUNTERS.items()}

# Gain items: resources 0..3, then these.
G_VP, G_GOLD, G_CARDS, G_PIECES = 4, 5, 6, 7
_GAINS = {**RES_INDEX, "vp": G_VP, "gold": G_GOLD, "cards": G_CARDS, "pieces": G_PIECES}
GAIN_NAMES = {v: k for k, v in _GAINS.items()}

# Effect kinds = names of the rule functions in rules/effects.py.
EFFECT_KINDS: tuple[str, ...] = (
    "gain_per",
    "score_per",
    "produce_at_one_building",
    "produce_in_region",
    "sell",
    "buy",
    "activate",
    "steal",
    "move_armies",
    "take_from_village",
)
(
    E_GAIN_PER,
    E_SCORE_PER,
    E_PRODUCE_ONE,
    E_PRODUCE_REGION,
    E_SELL,
    E_BUY,
    E_ACTIVATE,
    E_STEAL,
    E_MOVE,
    E_TAKE_VILLAGE,
) = range(len(EFFECT_KINDS))


@dataclass(frozen=True)
class Counter:
    """A decoded ``COUNTER``: kind plus its one parameter (land, min, colour, item) and unit."""

    kind: int
    param: int = 0
    unit: int = 1


@dataclass(frozen=True)
class Effect:
    """A decoded card effect. Only the fields of its kind are meaningful.

    ``gain``/``amount``/``per``: gain_per, score_per (``cap``). ``land``: produce_in_region.
    ``lot`` (resource vector), ``max_lots`` (-1 = no limit), ``price_gold``, ``price_vp``: sell.
    ``buy_resources``, ``max``, ``price_gold``: buy. ``color``: activate. ``item`` (G_GOLD or
    G_VP), ``amount``: steal, take_from_village. ``each``/``max``: move_armies.
    """

    kind: int
    gain: int = -1
    amount: int = 0
    per: Counter | None = None
    cap: int = 0
    land: int = -1
    lot: tuple[int, ...] = ()
    max_lots: int = -1
    price_gold: int = 0
    price_vp: int = 0
    buy_resources: tuple[int, ...] = ()
    max: int = 0
    color: int = -1
    item: int = -1
    each: bool = False


def _counter(doc: dict[str, Any]) -> Counter:
    kind = _COUNTERS[doc["counter"]]
    if kind in (CNT_OCCUPIED_LAND, CNT_PROD_LAND):
        return Counter(kind, T_INDEX[doc["land"]])
    if kind in (CNT_REGIONS_MIN, CNT_PAIRS_MIN):
        return Counter(kind, int(doc["min"]))
    if kind == CNT_TABLEAU:
        return Counter(kind, C_INDEX[doc["color"]])
    if kind == CNT_OWNED:
        return Counter(kind, _GAINS[doc["item"]], int(doc["unit"]))
    return Counter(kind)


def _price(doc: dict[str, int]) -> tuple[int, int]:
    return int(doc.get("gold", 0)), int(doc.get("vp", 0))


def decode_effect(doc: dict[str, Any]) -> Effect:
    """Decode one ``effect`` object of ``cards.json`` (exactly one kind)."""
    ((name, p),) = doc.items()
    kind = EFFECT_KINDS.index(name)
    if kind == E_GAIN_PER:
        return Effect(kind, gain=_GAINS[p["gain"]], amount=int(p["amount"]), per=_counter(p["per"]))
    if kind == E_SCORE_PER:
        return Effect(kind, amount=int(p["amount"]), per=_counter(p["per"]), cap=int(p["cap"]))
    if kind == E_PRODUCE_ONE:
        return Effect(kind, amount=int(p["amount"]))
    if kind == E_PRODUCE_REGION:
        return Effect(kind, land=T_INDEX[p["land"]], amount=int(p["amount"]))
    if kind == E_SELL:
        lot = [0] * len(RESOURCES)
        for r, n in p["lot"].items():
            lot[RES_INDEX[r]] = int(n)
        g, v = _price(p["price"])
        m = p["max_lots"]
        return Effect(
            kind, lot=tuple(lot), max_lots=-1 if m is None else int(m), price_gold=g, price_vp=v
        )
    if kind == E_BUY:
        g, _ = _price(p["price"])
        return Effect(
            kind,
            buy_resources=tuple(RES_INDEX[r] for r in p["resources"]),
            max=int(p["max"]),
            price_gold=g,
        )
    if kind == E_ACTIVATE:
        return Effect(kind, color=C_INDEX[p["color"]])
    if kind == E_STEAL:
        return Effect(kind, item=_GAINS[p["item"]], amount=int(p["amount"]))
    if kind == E_MOVE:
        return Effect(kind, each=p["armies"] == "each", max=int(p["max_steps"]))
    return Effect(kind, item=_GAINS[p["item"]], amount=int(p["amount"]))  # take_from_village


@dataclass(frozen=True)
class Card:
    """One card type: ``index`` (0..71), spec ``id`` (``BRN-01``), ``key``, ``label``, colour,
    cost (``cost`` per resource, ``cost_gold``), decoded ``effect``, copies in the deck, ``rule``
    and the provenance of card, copies and cost."""

    index: int
    id: str
    key: str
    name: str
    label: str
    color: int
    cost: tuple[int, ...]
    cost_gold: int
    effect: Effect
    summary: str
    rule: str
    copies: int
    provenance: tuple[tuple[str, str], ...]


def _cards() -> tuple[Card, ...]:
    out = []
    for i, c in enumerate(_CARDS_DOC["cards"]):
        cost = [0] * len(RESOURCES)
        for r, n in c["cost"]["resources"].items():
            cost[RES_INDEX[r]] = int(n)
        out.append(
            Card(
                index=i,
                id=c["id"],
                key=c["key"],
                name=c["name"],
                label=c["label"],
                color=C_INDEX[c["color"]],
                cost=tuple(cost),
                cost_gold=int(c["cost"]["gold"]),
                effect=decode_effect(c["effect"]),
                summary=c["summary"],
                rule=c["rule"],
                copies=int(c["copies"]),
                provenance=tuple(sorted(c["provenance"].items())),
            )
        )
    return tuple(out)


CARDS: tuple[Card, ...] = _cards()
NCARDS = len(CARDS)
CARD_INDEX = {c.id: c.index for c in CARDS}
CARD_BY_KEY = {c.key: c.index for c in CARDS}
#: the full deck, one entry per physical card (DEUS-2.2)
DECK: tuple[int, ...] = tuple(c.index for c in CARDS for _ in range(c.copies))
#: largest count of one resource in any printed cost (payment codes are in this base + 1)
MAX_COST_UNITS = max(max(c.cost) for c in CARDS)


def card_by_id(card_id: str) -> Card:
    """The card type with spec id ``card_id`` (``BRN-09``) or key (``brewery_2``)."""
    if card_id in CARD_INDEX:
        return CARDS[CARD_INDEX[card_id]]
    return CARDS[CARD_BY_KEY[card_id]]


# --- gods (DEUS-10) --------------------------------------------------------------------------
@dataclass(frozen=True)
class God:
    """A god: colour, name, power per discarded card, and the piece type returned (-1 none)."""

    id: str
    name: str
    color: int
    gold: int
    vp: int
    resource_choice: int
    extra_cards: int
    piece_choice: int
    piece: int
    summary: str


def _gods() -> tuple[God, ...]:
    by_color: dict[int, God] = {}
    for g in _GODS_DOC["gods"]:
        per = g["power"]["per_card"]
        by_color[C_INDEX[g["color"]]] = God(
            id=g["id"],
            name=g["name"],
            color=C_INDEX[g["color"]],
            gold=int(per.get("gold", 0)),
            vp=int(per.get("vp", 0)),
            resource_choice=int(per.get("resource_choice", 0)),
            extra_cards=int(per.get("extra_cards", 0)),
            piece_choice=int(per.get("piece_choice", 0)),
            piece=P_INDEX[g["piece"]] if g["piece"] else -1,
            summary=g["summary"],
        )
    return tuple(by_color[c] for c in range(len(COLORS)))


#: god of each colour, indexed by colour
GODS: tuple[God, ...] = _gods()
REFILL_TO = int(_GODS_DOC["offering"]["refill_to"])
HAND_LIMIT = int(_GODS_DOC["offering"]["hand_limit"])


# --- setup numbers ---------------------------------------------------------------------------
def _rule(name: str) -> Any:
    return _SETUP_DOC["rule_numbers"][name]["value"]


GOLD_PER_RESOURCE = int(_rule("gold_replaces_one_resource"))  # DEUS-7.3.1
EDGE_VP = int(_rule("edge_placement_vp"))  # DEUS-7.4.7
FIRST_DISTANCE = int(_rule("first_building_min_distance"))  # DEUS-7.4.1
TEMPLE_CAP = int(_rule("temple_score_cap"))  # DEUS-8.8
EMPTY_HAND_DRAW = int(_rule("empty_hand_draw"))  # DEUS-7.7
MAJORITY_VP = int(_rule("majority_bonus_vp"))  # DEUS-19.2
FREE_START = _rule("free_start_pieces")  # DEUS-21.1
_START = _SETUP_DOC["start_per_player"]
START_GOLD = int(_START["gold"])
START_VP = int(_START["vp"])
START_RES: tuple[int, ...] = tuple(int(_START["resources"][r]) for r in RESOURCES)
START_HAND = int(_START["hand"])
START_ON_BOARD: tuple[int, ...] = tuple(int(_START["pieces_on_board"][p]) for p in PIECES)
START_SUPPLY: tuple[int, ...] = tuple(int(_START["pieces_in_personal_supply"][p]) for p in PIECES)


@dataclass(frozen=True)
class PlayerCount:
    """Setup numbers for one player count (DEUS-4.1 .. DEUS-4.3)."""

    tiles: int
    slots: tuple[int, ...]
    layout: str
    temples: int
    resources_per_type: int


BY_PLAYERS: dict[int, PlayerCount] = {
    int(n): PlayerCount(
        tiles=int(d["tiles"]),
        slots=tuple(int(s) for s in d["slots"]),
        layout=d["reference_layout"],
        temples=int(d["temples_in_supply"]),
        resources_per_type=int(d["resources_per_type_in_supply"]),
    )
    for n, d in _SETUP_DOC["by_player_count"].items()
}
MAX_SUPPLY = max(pc.resources_per_type for pc in BY_PLAYERS.values())


# --- boards (DEUS-3) -------------------------------------------------------------------------
_GEOM = _BOARDS_DOC["geometry"]
_DIRS: dict[str, tuple[int, int]] = {k: (v[0], v[1]) for k, v in _GEOM["directions"].items()}
_RING: tuple[str, ...] = tuple(_GEOM["ring_order"])
_SLOTS: dict[int, tuple[int, int]] = {
    int(k[1:]): (v[0], v[1]) for k, v in _GEOM["slot_centres"].items()
}
FACES: dict[str, tuple[str, tuple[str, ...]]] = {
    k: (v["centre"], tuple(v["ring"])) for k, v in _BOARDS_DOC["faces"].items()
}
LAYOUTS: dict[str, tuple[tuple[int, str, int], ...]] = {
    name: tuple((int(t["slot"]), t["face"], int(t["rotation"])) for t in lay["tiles"])
    for name, lay in _BOARDS_DOC["layouts"].items()
}
MAX_REGIONS = 7 * len(_SLOTS)


@dataclass(frozen=True)
class Board:
    """A region graph (DEUS-3.6): ids, terrain, edge flags, neighbours, distances, villages.

    ``villages`` lists the village regions; ``village_vp`` their VP at setup (DEUS-4.2).

    The map queries of the rules work on bit sets of regions (bit ``r`` = region ``r``), so
    :func:`make_board` also stores, once per board: ``nbits[r]`` the neighbours of ``r``,
    ``edge_bits`` the edge regions (DEUS-3.3), ``land_bits`` the land regions, and
    ``kind_bits[k]`` the regions where a piece of type ``k`` may stand at all (DEUS-7.4.5 never
    on a village, DEUS-7.4.6 ships at sea and nothing else there), and ``near_villages[r]`` the
    villages next to region ``r`` (indices into ``villages``, in that order), and
    ``close_bits[r]`` the regions closer to ``r`` than ``FIRST_DISTANCE`` (DEUS-7.4.1; a region
    of another part of a disconnected map counts as close, as its distance is -1).
    """

    tiles: tuple[tuple[int, str, int], ...]
    ids: tuple[str, ...]
    terrain: tuple[int, ...]
    edge: tuple[bool, ...]
    neighbours: tuple[tuple[int, ...], ...]
    dist: tuple[tuple[int, ...], ...]
    villages: tuple[int, ...]
    village_vp: tuple[int, ...]
    axial: tuple[tuple[int, int], ...] = ()
    nbits: tuple[int, ...] = ()
    edge_bits: int = 0
    land_bits: int = 0
    kind_bits: tuple[int, ...] = ()
    near_villages: tuple[tuple[int, ...], ...] = ()
    close_bits: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        """Number of regions."""
        return len(self.ids)

    def index(self, region_id: str) -> int:
        """Region index of an id like ``S0.SW``."""
        return self.ids.index(region_id)


def make_board(
    ids: list[str],
    terrain: list[int],
    nbrs: list[list[int]],
    tiles: tuple[tuple[int, str, int], ...] = (),
    axial: tuple[tuple[int, int], ...] = (),
) -> Board:
    """A board from any region graph (tests build small hand-made maps, DEUS-3.6). Edge =
    fewer than 6 neighbours (DEUS-3.3); village VP = number of neighbours (DEUS-4.2)."""
    n = len(ids)
    dist: list[tuple[int, ...]] = []
    for a in range(n):
        d = [-1] * n
        d[a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in nbrs[x]:
                    if d[y] < 0:
                        d[y] = d[x] + 1
                        nxt.append(y)
            frontier = nxt
        dist.append(tuple(d))
    villages = tuple(i for i in range(n) if terrain[i] == VILLAGE)
    edge = tuple(len(nb) < 6 for nb in nbrs)
    sea = sum(1 << r for r in range(n) if terrain[r] == SEA)
    land = sum(1 << r for r in range(n) if terrain[r] < SEA)
    return Board(
        tiles=tiles,
        ids=tuple(ids),
        terrain=tuple(terrain),
        edge=edge,
        neighbours=tuple(tuple(sorted(nb)) for nb in nbrs),
        dist=tuple(dist),
        villages=villages,
        village_vp=tuple(len(nbrs[v]) for v in villages),
        axial=axial,
        nbits=tuple(sum(1 << y for y in set(nb)) for nb in nbrs),
        edge_bits=sum(1 << r for r in range(n) if edge[r]),
        land_bits=land,
        kind_bits=tuple(sea if k == SHIP else land for k in range(len(PIECES))),
        near_villages=tuple(
            tuple(i for i, v in enumerate(villages) if r in nbrs[v]) for r in range(n)
        ),
        close_bits=tuple(sum(1 << o for o in range(n) if d[o] < FIRST_DISTANCE) for d in dist),
    )


@lru_cache(maxsize=256)
def build_board(tiles: tuple[tuple[int, str, int], ...]) -> Board:
    """The board of tiles ``(slot, face, rotation)`` on the hex geometry of ``boards.json``
    (DEUS-3.1.2 hex model): ring entry ``i`` goes to direction ``ring_order[(i + k) % 6]``."""
    cells: dict[tuple[int, int], tuple[str, int]] = {}
    for slot, face, rot in tiles:
        centre_terrain, ring = FACES[face]
        cq, cr = _SLOTS[slot]
        cells[(cq, cr)] = (f"S{slot}.C", T_INDEX[centre_terrain])
        for i, t in enumerate(ring):
            d = _RING[(i + rot) % 6]
            dq, dr = _DIRS[d]
            cells[(cq + dq, cr + dr)] = (f"S{slot}.{d}", T_INDEX[t])
    coords = list(cells)
    pos = {c: i for i, c in enumerate(coords)}
    ids = [cells[c][0] for c in coords]
    terrain = [cells[c][1] for c in coords]
    nbrs = [
        [pos[(q + dq, r + dr)] for dq, dr in _DIRS.values() if (q + dq, r + dr) in pos]
        for q, r in coords
    ]
    return make_board(ids, terrain, nbrs, tiles, tuple(coords))


def villages_adjacent(board: Board) -> bool:
    """True if two villages touch (forbidden, DEUS-3.5)."""
    vs = set(board.villages)
    return any(n in vs for v in board.villages for n in board.neighbours[v])


def reference_board(players: int) -> Board:
    """The reference layout REF2/REF3/REF4 of ``boards.json`` (SUBSTITUTE)."""
    return build_board(LAYOUTS[BY_PLAYERS[players].layout])


def random_tiles(players: int, rng: Rng) -> tuple[tuple[int, str, int], ...]:
    """A random legal arrangement (AMB-4, DEUS-21.2): the slots of the player count, physical
    tiles dealt at random, a random face and rotation each; rotations are redrawn until no two
    villages are adjacent (faces too after many failures)."""
    slots = BY_PLAYERS[players].slots
    physical = sorted({f[:-1] for f in FACES})
    while True:
        chosen = rng.sample(physical, len(slots))
        faces = [p + "AB"[rng.randbelow(2)] for p in chosen]
        for _ in range(200):
            tiles = tuple((s, f, rng.randbelow(6)) for s, f in zip(slots, faces, strict=True))
            if not villages_adjacent(build_board(tiles)):
                return tiles
