"""Standard map construction by the players (CIV-4.6, CIV-26.3), option ``map="standard"``.

Starting with a random player and going clockwise, each player places one of their dealt tiles
per round (3 rounds): choose the tile, then its side and rotation, then one of the legal
positions (:func:`hexes.legal_placements`: no overlap, ≥ 4 placed spaces touched, adjacent to
the core where possible, holes filled with water tokens). A tile with no legal placement goes out
of the game when chosen (CIV-A41). After the last tile the game starts (CIV-3.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.hexes import Placement, build_board, legal_placements
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.turn import push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

SIDES = ("A", "B")


def _options(state: CivState, tile: int) -> list[tuple[Placement, list[tuple[int, int]]]]:
    b = state.board
    return legal_placements(tile, b.placements, b.water_tokens)


@K.decision(K.D_MAPTILE, "map set-up: choose a tile to place")
def legal_maptile(state: CivState, frame: K.Frame) -> list[int]:
    """Any tile in the seat's hand (OPT + index)."""
    return [A.OPT + i for i in range(len(state.map_hands[frame[1]]))]


@K.applies(K.D_MAPTILE)
def apply_maptile(state: CivState, frame: K.Frame, action: int) -> None:
    """Ask for side and rotation next (an unplaceable tile goes out, CIV-A41)."""
    seat = frame[1]
    state.pending.pop()
    i = action - A.OPT
    tile = state.map_hands[seat][i]
    if not _options(state, tile):
        state.map_hands[seat].pop(i)
        C.log(state, "tile_discarded", seat=seat, tile=tile)
        next_placer(state)
        return
    push(state, K.D_MAPORIENT, seat, tile)


@K.decision(K.D_MAPORIENT, "map set-up: side and rotation")
def legal_maporient(state: CivState, frame: K.Frame) -> list[int]:
    """CARD + side * 6 + rotation, for orientations with a legal position."""
    opts = {SIDES.index(p[1]) * 6 + p[2] for p, _ in _options(state, frame[2])}
    return sorted(A.CARD + k for k in opts)


@K.applies(K.D_MAPORIENT)
def apply_maporient(state: CivState, frame: K.Frame, action: int) -> None:
    """Choose the position next."""
    state.pending.pop()
    k = action - A.CARD
    push(state, K.D_MAPPOS, frame[1], frame[2], k // 6, k % 6)


def positions(state: CivState, frame: K.Frame) -> list[tuple[Placement, list[tuple[int, int]]]]:
    """Legal placements of the frame's tile with its side and rotation (sorted)."""
    tile, side, rot = frame[2], SIDES[frame[3]], frame[4]
    out = [(p, h) for p, h in _options(state, tile) if p[1] == side and p[2] == rot]
    return out[: A.MAX_POSITIONS]


@K.decision(K.D_MAPPOS, "map set-up: position")
def legal_mappos(state: CivState, frame: K.Frame) -> list[int]:
    """MAPPOS + k for the k-th legal position."""
    return [A.MAPPOS + k for k in range(len(positions(state, frame)))]


@K.applies(K.D_MAPPOS)
def apply_mappos(state: CivState, frame: K.Frame, action: int) -> None:
    """Place the tile, fill enclosed holes with water (CIV-4.6(e)), pass to the next player."""
    from civtable.games.civilization_a_new_dawn.rules.setup import populate

    seat = frame[1]
    p, holes = positions(state, frame)[action - A.MAPPOS]
    state.pending.pop()
    C.log(state, "tile", seat=seat, tile=p[0], side=frame[3], rotation=p[2])
    state.map_hands[seat].remove(p[0])
    b = state.board
    state.board = build_board((*b.placements, p), (*b.water_tokens, *holes))
    populate(state)  # CIV-4.6(d): a capital tile brings its capital figure
    next_placer(state)


def describe_mappos(state: CivState, frame: K.Frame, action: int) -> str:
    """``tile 5 side B rotation 2 at offset (3, -4)``."""
    p, holes = positions(state, frame)[action - A.MAPPOS]
    extra = f", {len(holes)} water token(s)" if holes else ""
    return f"tile {p[0]} side {p[1]} rotation {p[2]} at offset ({p[3]}, {p[4]}){extra}"


def describe_maporient(state: CivState, frame: K.Frame, action: int) -> str:
    """``side A, rotation 3``."""
    k = action - A.CARD
    return f"tile {frame[2]} side {SIDES[k // 6]}, rotation {k % 6}"


def describe_maptile(state: CivState, frame: K.Frame, action: int) -> str:
    """``tile 12``."""
    return f"tile {state.map_hands[frame[1]][action - A.OPT]}"


K.DESCRIBE[K.D_MAPPOS] = describe_mappos
K.DESCRIBE[K.D_MAPORIENT] = describe_maporient
K.DESCRIBE[K.D_MAPTILE] = describe_maptile


def next_placer(state: CivState) -> None:
    """Clockwise to the next player with a tile; after the last one the game starts."""
    from civtable.games.civilization_a_new_dawn.rules.setup import start_play

    state.map_turn += 1
    n = state.players
    for i in range(n):
        seat = (state.map_start + state.map_turn + i) % n
        if state.map_hands[seat]:
            state.map_turn += i
            push(state, K.D_MAPTILE, seat)
            return
    start_play(state)  # CIV-4.7 then CIV-3.6
