"""The map: hex geometry (CIV-0.2), tile placement (D1.1) and the immutable :class:`Board`.

A board is built from a list of placements ``(tile, side, rotation, oq, or)`` plus water tokens;
its spaces are numbered 0..n-1 in placement order (water tokens last). Everything static about a
space (coordinates, terrain, difficulty, printed symbol, neighbours per direction, edge flag) is
precomputed here once and shared by every state of the game (boards are cached by layout).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import (
    CAPITAL_TILES,
    CORE_POSITIONS,
    CS_TILES,
    DIFFICULTY,
    DIR_VECTORS,
    FIRST_GAME,
    FIRST_GAME_CAPITAL_SEATS,
    FIRST_GAME_ROWS,
    FIRST_GAME_WATER,
    MIN_CONTACT,
    NATURAL,
    NW_TILES,
    PLAIN_TILES,
    TILES,
    WATER,
    WATER_TOKENS,
)

Placement = tuple[int, str, int, int, int]  # tile, side, rotation k, oq, or
MAX_SPACES = 16 * 10 + WATER_TOKENS  # largest possible map (CIV-1.1: 16 tiles + 8 water tokens)


def rotate(q: int, r: int, k: int) -> tuple[int, int]:
    """Rotate (q, r) by k × 60° clockwise: (q, r) → (−r, q + r) (D1.1)."""
    for _ in range(k % 6):
        q, r = -r, q + r
    return q, r


def placed_cells(p: Placement) -> list[tuple[int, int]]:
    """Global coordinates of the 10 cells of a placement, in cell order."""
    tile, side, k, oq, or_ = p
    out = []
    for c in TILES[(tile, side)]:
        q, r = rotate(c.q, c.r, k)
        out.append((q + oq, r + or_))
    return out


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance (D1.1)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True, slots=True)
class Board:
    """An assembled map. Index arrays are per space; ``-1`` means none."""

    placements: tuple[Placement, ...]
    water_tokens: tuple[tuple[int, int], ...]
    coords: tuple[tuple[int, int], ...]
    terrain: tuple[int, ...]
    difficulty: tuple[int, ...]  # printed difficulty (natural wonder 5, city-state 1, CIV-2.2-2.5)
    tile_of: tuple[int, ...]  # tile number, 0 for a water token
    capital_tile: tuple[bool, ...]
    resource: tuple[int, ...]
    natural_wonder: tuple[int, ...]
    city_state: tuple[int, ...]
    spawn: tuple[int, ...]  # barbarian letter whose spawn point this is
    neighbours: tuple[tuple[int, ...], ...]  # per direction E..NE, -1 off the map
    adjacent: tuple[tuple[int, ...], ...]  # map neighbours only
    edge: tuple[bool, ...]  # CIV-2.7
    water_or_edge: tuple[bool, ...]  # adjacent to water or on the edge (Explorer, Japan)
    shore: tuple[int, ...]  # the spaces with water_or_edge
    index: dict[tuple[int, int], int]
    # precomputed for the hot rules (issue 21)
    water: tuple[bool, ...]  # terrain is water (CIV-2.2)
    land_adjacent: tuple[tuple[int, ...], ...]  # adjacent spaces that are not water
    bit: tuple[int, ...]  # the space's bit in the map's bitsets (a grid cell, see ``grow``)
    space_of_bit: dict[int, int]  # bit position -> space
    water_mask: int  # bitset of the water spaces
    shifts: tuple[int, ...]  # bit offset of each of the six directions in the grid
    valid_mask: int  # bitset of every space
    city_state_spaces: tuple[int, ...]  # spaces with a printed city-state
    natural_wonder_spaces: tuple[int, ...]  # spaces with a printed natural wonder
    city_state_mask: int  # bitset of ``city_state_spaces``
    shore_mask: int  # bitset of ``shore``
    land_adjacent_mask: tuple[int, ...]  # bitset of ``land_adjacent`` per space
    adjacent_mask: tuple[int, ...]  # bitset of ``adjacent`` per space
    #: effective difficulty of every space per (Japan's Divine Wind, Kumasi, Mohenjo-Daro),
    #: filled by :func:`.rules.common.difficulties` on first use
    difficulty_tables: dict[tuple[bool, bool, bool], tuple[int, ...]] = field(
        default_factory=dict, compare=False
    )
    #: bitset of the land spaces of difficulty at most a limit, per (modifiers, limit), filled
    #: by :func:`.rules.common.land_within` on first use (water spaces: limit ``-1 - limit``,
    #: :func:`.rules.common.water_within`)
    land_masks: dict[tuple[bool, bool, bool, int], int] = field(default_factory=dict, compare=False)
    #: the mature cities (a list of spaces) per (cities bitset, maturing bitset), filled by
    #: :func:`.rules.common.mature_cities`
    mature_memo: dict[tuple[int, int], list[int]] = field(default_factory=dict, compare=False)

    def grow(self, mask: int) -> int:
        """The spaces adjacent to any space of the bitset ``mask``.

        Bit positions are cells of a rectangular grid over the axial coordinates with one
        spare column, so a step in a direction is one shift of the whole bitset and nothing
        wraps from one row into the next."""
        out = 0
        for k in self.shifts:
            out |= mask << k if k > 0 else mask >> -k
        return out & self.valid_mask

    def spaces_of(self, mask: int) -> list[int]:
        """The spaces of a bitset, ascending."""
        out = []
        sob = self.space_of_bit
        while mask:
            low = mask & -mask
            out.append(sob[low.bit_length() - 1])
            mask ^= low
        out.sort()
        return out

    @property
    def size(self) -> int:
        """Number of spaces."""
        return len(self.coords)

    def capitals(self) -> list[int]:
        """Spaces with a printed capital star, in placement order."""
        return [s for s in range(self.size) if self.capital_tile[s]]


_CACHE: dict[tuple[tuple[Placement, ...], tuple[tuple[int, int], ...]], Board] = {}


def build_board(
    placements: tuple[Placement, ...], water_tokens: tuple[tuple[int, int], ...]
) -> Board:
    """Assemble (and cache) the board of a layout."""
    key = (placements, water_tokens)
    got = _CACHE.get(key)
    if got is not None:
        return got
    coords: list[tuple[int, int]] = []
    terrain, tile_of, cap, res, nw, cs, spawn = [], [], [], [], [], [], []
    for p in placements:
        for c, xy in zip(TILES[(p[0], p[1])], placed_cells(p), strict=True):
            coords.append(xy)
            terrain.append(c.terrain)
            tile_of.append(p[0])
            cap.append(c.capital)
            res.append(c.resource)
            nw.append(c.natural_wonder)
            cs.append(c.city_state)
            spawn.append(c.barbarian)
    for xy in water_tokens:
        coords.append(xy)
        terrain.append(WATER)
        tile_of.append(0)
        cap.append(False)
        res.append(-1)
        nw.append(-1)
        cs.append(-1)
        spawn.append(-1)
    board = assemble(placements, water_tokens, coords, terrain, tile_of, cap, res, nw, cs, spawn)
    _CACHE[key] = board
    return board


def assemble(
    placements: tuple[Placement, ...],
    water_tokens: tuple[tuple[int, int], ...],
    coords: list[tuple[int, int]],
    terrain: list[int],
    tile_of: list[int],
    cap: list[bool],
    res: list[int],
    nw: list[int],
    cs: list[int],
    spawn: list[int],
) -> Board:
    """A board from per-space lists (also used by tests to build scenario maps)."""
    index = {xy: i for i, xy in enumerate(coords)}
    if len(index) != len(coords):
        raise ValueError("overlapping placements")
    neigh = tuple(
        tuple(index.get((q + dq, r + dr), -1) for dq, dr in DIR_VECTORS) for q, r in coords
    )
    adjacent = tuple(tuple(n for n in ns if n >= 0) for ns in neigh)
    edge = tuple(any(n < 0 for n in ns) for ns in neigh)
    woe = tuple(
        edge[s] or any(terrain[n] == WATER for n in adjacent[s]) for s in range(len(coords))
    )
    qmin = min((q for q, _ in coords), default=0)
    rmin = min((r for _, r in coords), default=0)
    width = max((q for q, _ in coords), default=0) - qmin + 2  # one spare column: shifts never wrap
    pos = [(r - rmin) * width + (q - qmin) for q, r in coords]
    bit = tuple(1 << p for p in pos)
    diff = tuple(
        5 if t == NATURAL else (1 if cs[i] >= 0 else DIFFICULTY[t]) for i, t in enumerate(terrain)
    )
    board = Board(
        placements=placements,
        water_tokens=water_tokens,
        coords=tuple(coords),
        terrain=tuple(terrain),
        difficulty=diff,
        tile_of=tuple(tile_of),
        capital_tile=tuple(cap),
        resource=tuple(res),
        natural_wonder=tuple(nw),
        city_state=tuple(cs),
        spawn=tuple(spawn),
        neighbours=neigh,
        adjacent=adjacent,
        edge=edge,
        water_or_edge=woe,
        shore=tuple(s for s in range(len(coords)) if woe[s]),
        index=index,
        water=tuple(t == WATER for t in terrain),
        land_adjacent=tuple(tuple(n for n in ns if terrain[n] != WATER) for ns in adjacent),
        bit=bit,
        space_of_bit={p: s for s, p in enumerate(pos)},
        water_mask=sum(b for b, t in zip(bit, terrain, strict=True) if t == WATER),
        shifts=tuple(dr * width + dq for dq, dr in DIR_VECTORS),
        valid_mask=sum(bit),
        city_state_spaces=tuple(i for i, c in enumerate(cs) if c >= 0),
        natural_wonder_spaces=tuple(i for i, x in enumerate(nw) if x >= 0),
        city_state_mask=sum(b for b, c in zip(bit, cs, strict=True) if c >= 0),
        shore_mask=sum(b for b, w in zip(bit, woe, strict=True) if w),
        adjacent_mask=tuple(sum(bit[n] for n in ns) for ns in adjacent),
        land_adjacent_mask=tuple(sum(bit[n] for n in ns if terrain[n] != WATER) for ns in adjacent),
    )
    return board


def first_game_layout(players: int) -> tuple[tuple[Placement, ...], tuple[tuple[int, int], ...]]:
    """The first-game map (CIV-3.11, substitute D12.2) for ``players``."""
    return FIRST_GAME[: FIRST_GAME_ROWS[players]], FIRST_GAME_WATER[players]


def first_game_capital_tiles(players: int) -> tuple[int, ...]:
    """Capital tile per seat in the first game (CIV-3.11: seat 0 → tile 7, 1 → 9, …)."""
    return FIRST_GAME_CAPITAL_SEATS[:players]


# --- standard map construction (CIV-4) ----------------------------------------------------------
def _neighbour_coords(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in DIR_VECTORS]


def holes(occupied: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Off-map positions with no route to the outside (CIV-4.6(e), CIV-A42)."""
    if not occupied:
        return []
    qs = [q for q, _ in occupied]
    rs = [r for _, r in occupied]
    lo_q, hi_q, lo_r, hi_r = min(qs) - 2, max(qs) + 2, min(rs) - 2, max(rs) + 2
    start = (lo_q, lo_r)
    seen = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for n in _neighbour_coords(q, r):
            if n in seen or n in occupied:
                continue
            if not (lo_q <= n[0] <= hi_q and lo_r <= n[1] <= hi_r):
                continue
            seen.add(n)
            todo.append(n)
    out = []
    for q in range(lo_q, hi_q + 1):
        for r in range(lo_r, hi_r + 1):
            if (q, r) not in occupied and (q, r) not in seen:
                out.append((q, r))
    return out


def _candidates(
    tile: int,
    occupied: set[tuple[int, int]],
    core: set[tuple[int, int]],
    near_core: set[tuple[int, int]],
    water_left: int,
) -> list[tuple[int, Placement, list[tuple[int, int]]]]:
    """Legal placements of ``tile`` (CIV-4.6 a, b, e) with a tier (0 core, 1 near, 2 other)."""
    frontier = set()
    for q, r in occupied:
        for n in _neighbour_coords(q, r):
            if n not in occupied:
                frontier.add(n)
    out = []
    seen: set[tuple[str, int, int, int]] = set()
    for side in ("A", "B"):
        for k in range(6):
            base = [rotate(c.q, c.r, k) for c in TILES[(tile, side)]]
            for fq, fr in frontier:
                for bq, br in base:
                    oq, or_ = fq - bq, fr - br
                    cells = [(q + oq, r + or_) for q, r in base]
                    if any(c in occupied for c in cells):
                        continue
                    key = (side, k, oq, or_)
                    if key in seen:
                        continue
                    seen.add(key)
                    touched = set()
                    for q, r in cells:
                        for n in _neighbour_coords(q, r):
                            if n in occupied:
                                touched.add(n)
                    if len(touched) < MIN_CONTACT:  # CIV-4.6(b), CIV-A9
                        continue
                    new_holes = holes(occupied | set(cells))
                    if len(new_holes) > water_left:  # CIV-A42
                        continue
                    tier = 0 if touched & core else (1 if touched & near_core else 2)
                    out.append((tier, (tile, side, k, oq, or_), new_holes))
    return out


def deal_standard(
    players: int, rng: Rng
) -> tuple[list[Placement], tuple[int, ...], list[list[int]], int]:
    """CIV-4.1-4.5: capital tiles, the core (placed), the dealt tiles, the first placer."""
    caps = list(CAPITAL_TILES)
    rng.shuffle(caps)
    seat_capital = tuple(caps[:players])  # CIV-4.1
    nws, css = list(NW_TILES), list(CS_TILES)
    rng.shuffle(nws)
    rng.shuffle(css)
    core_tiles = nws[:2] + css[:2]  # CIV-4.2
    rng.shuffle(core_tiles)
    side = "A" if rng.randbelow(6) + 1 <= 3 else "B"  # CIV-4.3
    placements: list[Placement] = [
        (tile, side, k, oq, or_)
        for tile, (k, oq, or_) in zip(core_tiles, CORE_POSITIONS[side], strict=True)
    ]  # CIV-4.4
    pool = nws[2:] + css[2:] + list(PLAIN_TILES)  # CIV-4.5
    rng.shuffle(pool)
    hands = [[seat_capital[s], pool[2 * s], pool[2 * s + 1]] for s in range(players)]
    start = rng.randbelow(players)
    return placements, seat_capital, hands, start


@lru_cache(maxsize=512)
def legal_placements(
    tile: int, placements: tuple[Placement, ...], water: tuple[tuple[int, int], ...]
) -> list[tuple[Placement, list[tuple[int, int]]]]:
    """CIV-4.6: legal placements of ``tile`` (best tier of (c), CIV-A41) with the holes they
    close, sorted by side, rotation and offset."""
    occupied: set[tuple[int, int]] = set(water)
    for p in placements:
        occupied |= set(placed_cells(p))
    core: set[tuple[int, int]] = set()
    for p in placements[:4]:
        core |= set(placed_cells(p))
    near_core: set[tuple[int, int]] = set()
    for p in placements[4:]:
        cells = set(placed_cells(p))
        if any(n in core for c in cells for n in _neighbour_coords(*c)):
            near_core |= cells
    cands = _candidates(tile, occupied, core, near_core, WATER_TOKENS - len(water))
    if not cands:
        return []
    best = min(c[0] for c in cands)
    return sorted(((c[1], c[2]) for c in cands if c[0] == best), key=lambda x: x[0])


def standard_layout(
    players: int, rng: Rng
) -> tuple[tuple[Placement, ...], tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Build a standard map (CIV-4) with chance placements (option ``standard_random``).

    Returns placements, water tokens and the capital tile of each seat; the placement choices
    of CIV-4.6 (tile order, side, rotation, position) are made at random among legal ones.
    """
    placed, seat_capital, hands, start = deal_standard(players, rng)
    water: list[tuple[int, int]] = []
    for _ in range(3):  # CIV-4.6
        for i in range(players):
            hand = hands[(start + i) % players]
            rng.shuffle(hand)
            tile = hand.pop()
            options = legal_placements(tile, tuple(placed), tuple(water))
            if not options:
                continue  # CIV-A41: the tile goes out of the game
            p, new_holes = options[rng.randbelow(len(options))]
            placed.append(p)
            water.extend(new_holes)
    return tuple(placed), tuple(water), seat_capital
