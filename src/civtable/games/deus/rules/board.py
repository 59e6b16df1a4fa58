"""The map: legal regions for pieces and temples, army movement, barbarian attacks and the
end-of-game trigger (DEUS-3, DEUS-7.4, DEUS-8.4, DEUS-9, DEUS-16.3 .. 16.6, DEUS-18.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.deus.catalog import (
    ARMY,
    EDGE_VP,
    SEA,
    SHIP,
    TEMPLE_BIT,
    VILLAGE,
)
from civtable.games.deus.rules.log import event

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState

ARMY_BIT = 1 << ARMY
SHIP_BIT = 1 << SHIP


def popcount(x: int) -> int:
    """Number of pieces in a region mask."""
    return x.bit_count()


def owned_regions(state: DeusState, s: int) -> list[int]:
    """The regions of seat ``s``, ascending (found by the owner list itself, not region by
    region)."""
    owner = state.owner
    out = []
    r = -1
    for _ in range(owner.count(s)):
        r = owner.index(s, r + 1)
        out.append(r)
    return out


def has_pieces(state: DeusState, s: int) -> bool:
    """Does seat ``s`` have any piece on the map?"""
    return s in state.owner


def _kind_ok(terrain: int, piece: int) -> bool:
    # DEUS-7.4.6 ships at sea, everything else on land; DEUS-7.4.5 never on a village.
    if terrain == VILLAGE:
        return False
    return (terrain == SEA) == (piece == SHIP)


def bits_list(x: int) -> list[int]:
    """The regions of a bit set, ascending."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def first_targets(state: DeusState, s: int, piece: int) -> list[int]:
    """DEUS-7.4.1 / AMB-7 / AMB-8: empty edge regions of the right kind, at distance >= 3 from
    every region another player occupies if any such region exists."""
    b = state.board
    owner = state.owner
    # the edge regions where the piece may stand (DEUS-7.4.5, 7.4.6), the empty ones
    cands = [r for r in bits_list(b.edge_bits & b.kind_bits[piece]) if owner[r] < 0]
    if not cands:
        return cands
    others = 0  # the regions other seats occupy (bit set), found seat by seat
    for o in range(state.players):
        if o != s:
            r = -1
            for _ in range(owner.count(o)):
                r = owner.index(o, r + 1)
                others |= 1 << r
    # far: no occupied region closer than FIRST_DISTANCE (Board.close_bits)
    close = b.close_bits
    far = [r for r in cands if not close[r] & others]
    return far if far else cands


#: what :func:`map_scan` finds: the seat's regions (bit set and list), the empty regions and
#: the neighbours of the seat's regions (bit sets)
Scan = tuple[int, list[int], int, int]


def map_scan(state: DeusState, s: int) -> Scan:
    """One pass over the map for seat ``s`` (see :data:`Scan`), shared by the piece types."""
    nbits = state.board.nbits
    mine = empty = adj = 0
    owned = []
    for r, o in enumerate(state.owner):
        if o == s:
            mine |= 1 << r
            adj |= nbits[r]
            owned.append(r)
        elif o < 0:
            empty |= 1 << r
    return mine, owned, empty, adj


def piece_target_bits(
    state: DeusState, s: int, piece: int, scan: Scan | None = None
) -> tuple[int, int]:
    """Bit sets of the normal regions (DEUS-7.4.1 .. 7.4.6) and the 3-VP edge regions
    (DEUS-7.4.7 / AMB-9, not already normal) where ``s`` may put a piece of type ``piece``;
    ``scan`` is :func:`map_scan` of ``s`` if the caller has it."""
    mine, owned, empty, adj = map_scan(state, s) if scan is None else scan
    if not mine:  # the first piece (DEUS-7.4.1); no edge purchase without a piece
        first = 0
        for r in first_targets(state, s, piece):
            first |= 1 << r
        return first, 0
    b = state.board
    mask = state.mask
    pbit = 1 << piece
    holding = 0
    for r in owned:
        if mask[r] & pbit:
            holding |= 1 << r
    ok = b.kind_bits[piece]
    # DEUS-7.4.2 (a) an own region without that type (7.4.3), (b) an empty neighbour of one;
    # sea: empty = no ship (DEUS-7.4.6)
    normal = ((mine & ~holding) | (adj & empty)) & ok
    if state.vp[s] < EDGE_VP:
        return normal, 0
    return normal, b.edge_bits & empty & ok & ~normal


def has_target(state: DeusState, s: int, piece: int) -> bool:
    """``bool(normal or edge)`` of :func:`piece_target_bits`, stopping at the first region
    found (usually the first region of ``s``)."""
    b = state.board
    owner = state.owner
    mask = state.mask
    ok = b.kind_bits[piece]
    pbit = 1 << piece
    neighbours = b.neighbours
    owned = owner.count(s)
    if not owned:  # DEUS-7.4.1: bool(first_targets(...)), which is empty only without a
        # candidate (an empty edge region of the right kind), so the distances are not needed
        return any(owner[r] < 0 for r in bits_list(b.edge_bits & ok))
    r = -1
    for _ in range(owned):
        r = owner.index(s, r + 1)  # the seat's regions in order (found by the list itself)
        if ok >> r & 1 and not mask[r] & pbit:
            return True  # DEUS-7.4.2 (a), 7.4.3
        for n in neighbours[r]:
            if owner[n] < 0 and ok >> n & 1:
                return True  # DEUS-7.4.2 (b), 7.4.6
    if state.vp[s] < EDGE_VP:
        return False
    # DEUS-7.4.7: no normal region, so any empty edge region of the right kind
    edges = b.edge_bits & ok
    return any(owner[r] < 0 for r in bits_list(edges))


def normal_targets(state: DeusState, s: int, piece: int) -> list[int]:
    """DEUS-7.4.1 .. 7.4.6: where ``s`` may put a piece of type ``piece`` (sorted)."""
    return bits_list(piece_target_bits(state, s, piece)[0])


def edge_targets(state: DeusState, s: int, piece: int, normal: list[int]) -> list[int]:
    """DEUS-7.4.7 / AMB-9: empty edge regions of the right kind for 3 VP, not already normal
    targets; only for a player who has a piece on the map and at least 3 VP."""
    if state.vp[s] < EDGE_VP or not has_pieces(state, s):
        return []
    b = state.board
    owner = state.owner
    seen = set(normal)
    return [
        r
        for r in range(b.size)
        if b.edge[r] and owner[r] < 0 and r not in seen and _kind_ok(b.terrain[r], piece)
    ]


def temple_targets(state: DeusState, s: int) -> list[int]:
    """DEUS-8.4 / AMB-10: land regions ``s`` occupies without a temple."""
    terrain = state.board.terrain
    mask = state.mask
    return [r for r in owned_regions(state, s) if terrain[r] < SEA and not mask[r] & TEMPLE_BIT]


def has_temple_target(state: DeusState, s: int) -> bool:
    """``bool(temple_targets(state, s))``, faster."""
    land = state.board.land_bits
    mask = state.mask
    owner = state.owner
    r = -1
    for _ in range(owner.count(s)):
        r = owner.index(s, r + 1)
        if land >> r & 1 and not mask[r] & TEMPLE_BIT:
            return True
    return False


def place(state: DeusState, s: int, region: int, bit: int) -> None:
    """Put a piece (``bit`` of the mask) for ``s`` in ``region``, then check attacks (DEUS-9.2)."""
    state.owner[region] = s
    state.mask[region] |= bit
    check_attacks(state, region)


# --- armies (DEUS-16) ------------------------------------------------------------------------
def army_regions(state: DeusState, s: int) -> list[int]:
    """Regions holding an army of ``s``."""
    mask = state.mask
    return [r for r in owned_regions(state, s) if mask[r] & ARMY_BIT]


def army_bits(state: DeusState, s: int) -> int:
    """The regions holding an army of ``s``, as a bit set (``army_regions``; the counter of
    villages next to armies, DEUS-16.7, and the heuristic's village terms use it)."""
    owner = state.owner
    mask = state.mask
    armies = 0
    r = -1
    for _ in range(owner.count(s)):
        r = owner.index(s, r + 1)  # the seat's regions in order
        if mask[r] & ARMY_BIT:
            armies |= 1 << r
    return armies


def destinations(state: DeusState, s: int, start: int, steps: int) -> list[int]:
    """DEUS-16.3 .. 16.5: where the army of ``s`` at ``start`` may end a move of 0..steps
    regions (``start`` itself = staying)."""
    b = state.board
    owner = state.owner
    mask = state.mask
    if mask[start] & TEMPLE_BIT and mask[start] & ~TEMPLE_BIT == ARMY_BIT:
        return [start]  # DEUS-8.7 / 16.5: the army must not leave a temple alone
    seen = {start}
    frontier = [start]
    out = [start]
    for _ in range(steps):
        nxt = []
        for x in frontier:
            for n in b.neighbours[x]:
                if n in seen:
                    continue
                t = b.terrain[n]
                if t == SEA and not (owner[n] == s and mask[n] & SHIP_BIT):
                    continue  # AMB-19: sea only with the mover's own ship
                seen.add(n)
                nxt.append(n)
                if t == VILLAGE or mask[n] & ARMY_BIT:
                    continue  # passable, never a stop (DEUS-16.3, 16.4)
                if owner[n] < 0 or owner[n] == s:
                    out.append(n)
        frontier = nxt
    return sorted(out)


def move_army(state: DeusState, s: int, start: int, dest: int) -> None:
    """Move one army (AMB-37: an emptied region loses its owner), then check attacks."""
    if start == dest:
        return
    state.mask[start] &= ~ARMY_BIT
    if state.mask[start] == 0:
        state.owner[start] = -1
    state.owner[dest] = s
    state.mask[dest] |= ARMY_BIT
    check_attacks(state, dest)


# --- barbarian villages (DEUS-9) -------------------------------------------------------------
def check_attacks(state: DeusState, region: int = -1) -> None:
    """DEUS-9.1 / 9.2: resolve every village now surrounded with an army next to it.

    With ``region`` (the region a piece was just placed in or an army moved to), only the
    villages next to it: the rules check after every placement and move, so no other village
    can have become surrounded (pieces only leave a region by an army's move, which surrounds
    nothing)."""
    b = state.board
    owner_of = state.owner.__getitem__
    mask = state.mask
    villages = b.villages
    for i in range(len(villages)) if region < 0 else b.near_villages[region]:
        v = villages[i]
        if state.vatt[i]:
            continue
        nb = b.neighbours[v]
        if min(map(owner_of, nb), default=-1) < 0:
            continue  # an empty neighbour (owners are seats, -1 = none)
        if not any(mask[n] & ARMY_BIT for n in nb):
            continue
        attack(state, i)


def attack(state: DeusState, i: int) -> None:
    """DEUS-9.3 .. 9.4 / AMB-14 / AMB-15: most armies wins, then most pieces; a remaining tie
    shares the VP (floor, remainder to the supply)."""
    b = state.board
    v = b.villages[i]
    armies = [0] * state.players
    pieces = [0] * state.players
    for n in b.neighbours[v]:
        o = state.owner[n]
        if o >= 0:
            m = state.mask[n]
            pieces[o] += popcount(m)
            if m & ARMY_BIT:
                armies[o] += 1
    top = max(armies)
    tied = [p for p in range(state.players) if armies[p] == top]
    best = max(pieces[p] for p in tied)
    winners = [p for p in tied if pieces[p] == best]
    share = state.vvp[i] // len(winners)
    for p in winners:
        state.vp[p] += share
    event(state, "attack", village=v, winners=winners, vp=share, total=state.vvp[i], armies=armies)
    vvp = state.vvp = state.vvp[:]  # new lists (DeusState.branch)
    vatt = state.vatt = state.vatt[:]
    vvp[i] = 0
    vatt[i] = 1
    check_end_trigger(state)


def check_end_trigger(state: DeusState) -> None:
    """DEUS-18.1 / 18.2: the first trigger fixes the final round (the round after this one)."""
    if state.end_round >= 0:
        return  # DEUS-18.2.2
    if state.temples == 0 or (state.vatt and all(state.vatt)):
        state.end_round = state.round + 1
        cause = "temples" if state.temples == 0 else "villages"
        event(state, "end_trigger", cause=cause, final_round=state.end_round)
