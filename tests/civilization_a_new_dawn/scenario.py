"""Build hand-made Civilization: A New Dawn positions for scenario and rule tests.

``make(cells, ...)`` replaces the map of a fresh game with the listed spaces (CIV-T…: unlisted
spaces are off the map) and clears every component; helpers put tokens, cities, barbarians and
cards where a scenario needs them. ``rig_dice`` returns a generator whose next die rolls are the
given values, so a combat's dice can be fixed without touching the rules.
"""

from __future__ import annotations

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import GAME
from civtable.games.civilization_a_new_dawn import actions as act
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    CARD_INDEX,
    CS_INDEX,
    NATURAL_WONDERS,
    RES_INDEX,
    TERRAIN_INDEX,
    WONDER_INDEX,
)
from civtable.games.civilization_a_new_dawn.hexes import assemble
from civtable.games.civilization_a_new_dawn.rules import kinds
from civtable.games.civilization_a_new_dawn.state import CivState

LETTERS = {
    "G": "grassland",
    "H": "hills",
    "F": "forest",
    "D": "desert",
    "M": "mountains",
    "W": "water",
    "N": "natural_wonder",
}
NW_INDEX = {n.id: n.index for n in NATURAL_WONDERS}
Coord = tuple[int, int]


def make(
    cells: dict[Coord, str],
    players: int = 2,
    leaders: tuple[str, ...] = ("rome", "egypt", "aztec", "sumeria"),
    capitals: dict[int, Coord] | None = None,
    features: dict[Coord, str] | None = None,
    spawns: dict[Coord, str] | None = None,
    seat: int = 0,
) -> CivState:
    """A state on a custom map; ``seat`` is about to choose a focus card.

    ``features``: ``"cs:<id>"``, ``"nw:<id>"``, ``"res:<type>"`` per space. Capitals not given
    are absent (capital index -1).
    """
    s = GAME.new_game(players, 0, {"leaders": list(leaders[:players])})
    coords = list(cells)
    n = len(coords)
    terrain = [TERRAIN_INDEX[LETTERS[cells[c]]] for c in coords]
    res, nw, cs, spawn = [-1] * n, [-1] * n, [-1] * n, [-1] * n
    for c, f in (features or {}).items():
        i = coords.index(c)
        kind, _, name = f.partition(":")
        if kind == "cs":
            cs[i] = CS_INDEX[name]
        elif kind == "nw":
            nw[i] = NW_INDEX[name]
        else:
            res[i] = RES_INDEX[name]
    for c, letter in (spawns or {}).items():
        spawn[coords.index(c)] = BARBARIAN_LETTERS.index(letter)
    board = assemble((), (), coords, terrain, [1] * n, [False] * n, res, nw, cs, spawn)
    s.board = board
    s.tok, s.reinf, s.city, s.barb = [-1] * n, [0] * n, [-1] * n, [-1] * n
    s.res, s.nw, s.cs, s.wtok = list(res), list(nw), list(cs), [-1] * n
    s.barb_pos = [-2] * len(BARBARIAN_LETTERS)
    s.capital = [-1] * players
    for p, c in (capitals or {}).items():
        s.capital[p] = coords.index(c)
        s.city[coords.index(c)] = p
    s.cs_avail = [2 if i in cs else 0 for i in range(len(s.cs_avail))]
    s.cs_owner = [-1] * len(s.cs_owner)
    s.res_supply = [8 - sum(1 for r in res if r == i) for i in range(4)]
    s.first = s.current = seat
    s.fp_turns = 1
    s.section = 0
    s.pending = [[kinds.T_END, seat], [kinds.D_CHOOSE, seat]]
    s.turn_flags = 0
    s._legal = {}
    return s


def sp(s: CivState, c: Coord) -> int:
    """Space index of a coordinate."""
    return s.board.index[c]


def space(s: CivState, c: Coord) -> int:
    """Action id of a coordinate."""
    return act.SPACE + sp(s, c)


def token(s: CivState, seat: int, c: Coord, reinforced: bool = False) -> None:
    """Put a control token."""
    i = sp(s, c)
    s.tok[i] = seat
    s.reinf[i] = int(reinforced)
    s.supply[seat] -= 1
    s._legal = {}


def city(s: CivState, seat: int, c: Coord) -> None:
    """Put a (non-capital) city."""
    s.city[sp(s, c)] = seat
    s.cities_left[seat] -= 1
    s._legal = {}


def barbarian(s: CivState, letter: str, c: Coord) -> None:
    """Put a barbarian on the map."""
    b = BARBARIAN_LETTERS.index(letter)
    s.barb[sp(s, c)] = b
    s.barb_pos[b] = sp(s, c)
    s._legal = {}


def row(s: CivState, seat: int, *cards: str) -> None:
    """Set the focus row (slot 1 first)."""
    s.row[seat] = [CARD_INDEX[c] for c in cards]
    s.place[seat] = sorted(s.row[seat], key=lambda c: c // 4)  # one card per type: place = type
    s._legal = {}


def wonder(name: str) -> int:
    """Wonder index."""
    return WONDER_INDEX[name]


def rig_dice(*values: int) -> Rng:
    """A generator whose next ``randbelow(6) + 1`` results are ``values``."""
    for seed in range(200000):
        r = Rng(seed)
        probe = r.copy()
        if all(probe.randbelow(6) + 1 == v for v in values):
            return r
    raise AssertionError("no seed found")  # pragma: no cover


def top(s: CivState) -> str:
    """Name of the pending decision."""
    return kinds.NAMES[s.pending[-1][0]] if s.pending else ""
