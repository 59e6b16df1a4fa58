"""Options and setup (DEUS-4; variants DEUS-21).

Options (all JSON values):

* ``board``: ``"reference"`` (REF2/REF3/REF4 of ``boards.json``, SUBSTITUTE), ``"random"``
  (random tiles, faces and rotations with no adjacent villages, DEUS-3.5 / AMB-4) or an explicit
  list of ``[slot, face, rotation]`` tiles (free board, DEUS-21.2);
* ``first_player``: a seat number, or ``"random"`` (DEUS-4.7);
* ``free_start``: 0 (standard: 2 pieces of each type on the board) or the number of pieces each
  player picks secretly, 6..10 (DEUS-21.1; 10 standard variant, 8-9 experienced, 6-7 expert);
* ``blind_building``: once per game, build a card face down (DEUS-21.3);
* ``public_vp``: views show every player's VP (observation option of DEUS-20.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civtable.core.api import JSON, Game
from civtable.core.errors import InvalidOptionsError
from civtable.core.rng import Rng
from civtable.games.deus.catalog import (
    BY_PLAYERS,
    DECK,
    FACES,
    FREE_START,
    PIECES,
    RESOURCES,
    START_GOLD,
    START_HAND,
    START_ON_BOARD,
    START_RES,
    START_SUPPLY,
    START_VP,
    Board,
    build_board,
    random_tiles,
    reference_board,
    villages_adjacent,
)
from civtable.games.deus.rules.log import event
from civtable.games.deus.state import MAIN, PICK, DeusState

DEFAULT_OPTIONS: JSON = {
    "board": "reference",
    "first_player": 0,
    "free_start": 0,
    "blind_building": False,
    "public_vp": False,
}
_MIN_FREE = min(min(FREE_START["experienced"]), min(FREE_START["expert"]))
_MAX_FREE = int(FREE_START["standard"])
PIECES_PER_TYPE = int(FREE_START["max_per_type"])


def check_options(players: int, options: Mapping[str, Any] | None) -> JSON:
    """Defaults filled in; raises :class:`InvalidOptionsError` for unknown or bad values."""
    opts = dict(DEFAULT_OPTIONS)
    for k, v in (options or {}).items():
        if k not in DEFAULT_OPTIONS:
            raise InvalidOptionsError(f"unknown Deus option {k!r}")
        opts[k] = v
    if isinstance(opts["board"], list):
        opts["board"] = [list(t) for t in custom_tiles(players, opts["board"])]
    elif opts["board"] not in ("reference", "random"):
        raise InvalidOptionsError("board must be 'reference', 'random' or a list of tiles")
    fp = opts["first_player"]
    if fp != "random" and (
        isinstance(fp, bool) or not isinstance(fp, int) or not 0 <= fp < players
    ):
        raise InvalidOptionsError(f"first_player must be 'random' or a seat 0..{players - 1}")
    fs = opts["free_start"]
    if (
        isinstance(fs, bool)
        or not isinstance(fs, int)
        or not (fs == 0 or _MIN_FREE <= fs <= _MAX_FREE)
    ):
        raise InvalidOptionsError(f"free_start must be 0 or {_MIN_FREE}..{_MAX_FREE}")
    for k in ("blind_building", "public_vp"):
        if not isinstance(opts[k], bool):
            raise InvalidOptionsError(f"{k} must be true or false")
    return opts


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def custom_tiles(players: int, tiles: list[Any]) -> tuple[tuple[int, str, int], ...]:
    """DEUS-21.2 free board: ``[[slot, face, rotation], ...]`` on the slots of the player
    count, each physical tile once, no two villages adjacent (DEUS-3.5)."""
    pc = BY_PLAYERS[players]
    shape = "board tiles must be [slot, face, rotation] with whole-number slot and rotation"
    try:
        out = tuple((a, f, r) for a, f, r in tiles)
    except (TypeError, ValueError):
        raise InvalidOptionsError(shape) from None
    for a, f, r in out:
        if not (_whole(a) and isinstance(f, str) and _whole(r)):
            raise InvalidOptionsError(f"{shape}, not {[a, f, r]!r}")
    if sorted(t[0] for t in out) != sorted(pc.slots):
        raise InvalidOptionsError(f"board tiles must cover the slots {list(pc.slots)}")
    if any(f not in FACES or not 0 <= r < 6 for _, f, r in out):
        raise InvalidOptionsError(f"unknown face or rotation in {tiles!r}")
    if len({f[:-1] for _, f, _ in out}) != len(out):
        raise InvalidOptionsError("a physical tile is used twice")
    if villages_adjacent(build_board(out)):
        raise InvalidOptionsError("two barbarian villages are adjacent (DEUS-3.5)")
    return out


def new_game(game: Game, players: int, seed: int, options: Mapping[str, Any] | None) -> DeusState:
    """DEUS-4: board, supplies, pieces, stocks, cards and the first player."""
    game.check_players(players)
    opts = check_options(players, options)
    rng = Rng(seed)
    if isinstance(opts["board"], list):
        board = build_board(custom_tiles(players, opts["board"]))
    elif opts["board"] == "random":
        board = build_board(random_tiles(players, rng))
    else:
        board = reference_board(players)
    return setup_on_board(game, board, players, seed, opts, rng)


def setup_on_board(
    game: Game, board: Board, players: int, seed: int, opts: JSON, rng: Rng
) -> DeusState:
    """Setup on a given region graph (DEUS-3.6; tests use hand-built maps)."""
    if villages_adjacent(board):
        raise InvalidOptionsError("two barbarian villages are adjacent (DEUS-3.5)")
    pc = BY_PLAYERS[players]
    s = DeusState(game, board)
    s.players = players
    s.seed = seed
    s.options = opts
    s.rng = rng
    s.owner = [-1] * board.size
    s.mask = [0] * board.size
    s.vvp = list(board.village_vp)  # DEUS-4.2
    s.vatt = [0] * len(board.villages)
    s.temples = pc.temples  # DEUS-4.3.1
    s.supply = [pc.resources_per_type - players * START_RES[r] for r in range(len(RESOURCES))]
    s.gold = [START_GOLD] * players  # DEUS-4.5
    s.vp = [START_VP] * players
    s.res = [list(START_RES) for _ in range(players)]
    if opts["free_start"]:
        s.onboard = [[0] * len(PIECES) for _ in range(players)]  # DEUS-21.1
        s.personal = [[PIECES_PER_TYPE] * len(PIECES) for _ in range(players)]
        s.phase = PICK
    else:
        s.onboard = [list(START_ON_BOARD) for _ in range(players)]  # DEUS-4.4
        s.personal = [list(START_SUPPLY) for _ in range(players)]
        s.phase = MAIN
    s.picks = [[0] * len(PIECES) for _ in range(players)]
    deck = list(DECK)
    rng.shuffle(deck)  # DEUS-4.6
    s.hands = [[deck.pop() for _ in range(START_HAND)] for _ in range(players)]
    s.deck = deck
    s.discard = []
    s.cols = [[[] for _ in range(len(PIECES) + 1)] for _ in range(players)]
    s.blind_used = [0] * players
    fp = opts["first_player"]
    s.first = rng.randbelow(players) if fp == "random" else int(fp)  # DEUS-4.7
    s.cur = s.first
    s.round = 1
    s.turns = [0] * players
    s.end_round = -1
    s.ctx = []
    s.queue = []
    s.offer = []
    s.last_offer = []
    return s


def pick_target(state: DeusState) -> int:
    """Number of pieces each seat picks in the free-start variant."""
    return int(state.options["free_start"])


def pick(state: DeusState, seat: int, piece: int) -> None:
    """DEUS-21.1: one secret pick; when every seat is done, the picks go to the boards."""
    # rows are replaced, never changed in place: look-ahead copies share them (DeusState.branch)
    row = state.picks[seat] = state.picks[seat][:]
    row[piece] += 1
    k = pick_target(state)
    if all(sum(p) >= k for p in state.picks):
        for s in range(state.players):
            state.onboard[s] = state.picks[s][:]
            state.personal[s] = [PIECES_PER_TYPE - n for n in state.picks[s]]
            event(state, "start_pieces", player=s, pieces=state.picks[s][:])  # now public
        state.phase = MAIN


def pick_choices(state: DeusState, seat: int) -> list[int]:
    """Piece types ``seat`` may still pick (at most 5 of a type)."""
    return [p for p in range(len(PIECES)) if state.picks[seat][p] < PIECES_PER_TYPE]
