"""Setup (CIV-3, CIV-4): leaders, focus rows, the map, tokens, decks, victory cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from civtable.core.errors import InvalidOptionsError
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    CARAVANS,
    CITIES,
    CITY_STATES,
    CONTROL_TOKENS,
    ERAS,
    FOCUS_CARDS,
    LEADER_INDEX,
    LEADERS,
    NATURAL_WONDERS,
    PLAYER_CARDS,
    RESOURCE_TOKENS,
    VICTORY_CARDS,
    VICTORY_DRAW,
    VICTORY_DRAW_EPIC,
    WONDER_REMOVAL,
    WONDER_TYPES,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.hexes import (
    build_board,
    deal_standard,
    first_game_capital_tiles,
    first_game_layout,
    standard_layout,
)
from civtable.games.civilization_a_new_dawn.rules import kinds
from civtable.games.civilization_a_new_dawn.state import CivState

if TYPE_CHECKING:
    from civtable.core.api import Game

MAPS = ("first_game", "standard", "standard_random")
DEFAULT_OPTIONS: dict[str, Any] = {
    # CIV-3.11 first game; "standard" = CIV-4 with the players placing their tiles;
    # "standard_random" = CIV-4 with chance placements (fast set-up for simulations)
    "map": "first_game",
    "leaders": "random",  # or a list of leader ids, one per seat
    "epic": False,  # CIV-25
    "turn_limit": 150,  # first-player turns before an "unfinished" stop (CIV-22.4, not a rule)
    "drama_move_slot_limit": False,  # CIV-A13 config option
    "errata_petra": False,  # D7 errata (unverified): blocked barbarians turn around
    "errata_maracana": False,  # D7 errata (unverified): economy card before the other card
}


def check_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and validate."""
    opts = dict(DEFAULT_OPTIONS)
    for k, v in (options or {}).items():
        if k not in DEFAULT_OPTIONS:
            raise InvalidOptionsError(f"unknown option {k!r}; known: {', '.join(DEFAULT_OPTIONS)}")
        opts[k] = v
    if not isinstance(opts["map"], str) or opts["map"] not in MAPS:
        raise InvalidOptionsError(f"map must be one of {', '.join(MAPS)}")
    lead = opts["leaders"]
    if lead != "random":
        if (
            not isinstance(lead, list | tuple)
            or len(lead) != players
            or any(not isinstance(x, str) or x not in LEADER_INDEX for x in lead)
            or len(set(lead)) != players
        ):
            raise InvalidOptionsError(f"leaders must be 'random' or {players} distinct leader ids")
        opts["leaders"] = list(lead)
    for flag in ("epic", "drama_move_slot_limit", "errata_petra", "errata_maracana"):
        if not isinstance(opts[flag], bool):
            raise InvalidOptionsError(f"{flag} is a boolean")
    tl = opts["turn_limit"]
    if isinstance(tl, bool) or not isinstance(tl, int) or tl < 0:
        raise InvalidOptionsError("turn_limit is a non-negative integer (0 = no limit)")
    return opts


def new_game(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    rng: Rng | None = None,
) -> CivState:
    """A new game after setup (CIV-3.10 step order)."""
    game.check_players(players)
    opts = check_options(players, options)
    rng = Rng(seed) if rng is None else rng  # an explicit generator: civtable.rl.chance
    s = CivState.__new__(CivState)
    s.game, s.players, s.seed, s.options = game, players, seed, opts
    s.history, s.log, s._legal = [], None, {}
    s.agenda_seen = None
    s.occupancy = None
    # 1 leaders (CIV-3.1)
    if opts["leaders"] == "random":
        s.leader = rng.sample(range(len(LEADERS)), players)
    else:
        s.leader = [LEADER_INDEX[x] for x in opts["leaders"]]
    # 2 focus rows (CIV-3.2)
    s.row = [list(LEADERS[ld].start_row) for ld in s.leader]
    s.trade = [[0] * 5 for _ in range(players)]
    s.place = [sorted(r, key=lambda c: FOCUS_CARDS[c].type) for r in s.row]
    s.dial = [0] * players
    s.caravans = [[-1] + [-2] * (CARAVANS - 1) for _ in range(players)]
    # 3 map (CIV-3.11 / CIV-4), 4 populate (CIV-3.4), 5 city-state cards (CIV-3.5)
    s.map_hands, s.map_start, s.map_turn = [], 0, 0
    deciding = opts["map"] == "standard"
    if opts["map"] == "first_game":
        placements, water = first_game_layout(players)
        cap_tiles = first_game_capital_tiles(players)
    elif opts["map"] == "standard_random":
        placements, water, cap_tiles = standard_layout(players, rng)
    else:  # CIV-4.6 placements are the players' decisions (rules/mapbuild.py)
        placed, cap_tiles, s.map_hands, s.map_start = deal_standard(players, rng)
        placements, water = tuple(placed), ()
    s.map_caps = list(cap_tiles)
    s.board = build_board(placements, water)
    populate(s)
    s.cs_owner = [-1] * len(CITY_STATES)
    s.section, s.fp_turns = 0, 0
    # 7-9 wonder decks (CIV-3.7)
    s.wdecks, s.wremoved = [], []
    removal = WONDER_REMOVAL.get(players, {})
    for t in range(len(WONDER_TYPES)):
        deck: list[int] = []
        for era in range(len(ERAS)):
            cards = [w.index for w in WONDERS if w.type == t and w.era == era]
            rng.shuffle(cards)
            k = removal.get(ERAS[era], 0)
            s.wremoved.extend(cards[:k])
            deck.extend(cards[k:])
        s.wdecks.append(deck)
    s.wonder_owner = [-1] * len(WONDERS)
    # 10 victory cards (CIV-3.8, CIV-25)
    draw = VICTORY_DRAW_EPIC if opts["epic"] else VICTORY_DRAW
    s.victory = sorted(rng.sample(range(len(VICTORY_CARDS)), draw))
    # 11 supplies (CIV-1.3, CIV-3.9)
    s.supply = [CONTROL_TOKENS] * players
    s.cities_left = [CITIES] * players
    s.resources = [[0] * 4 for _ in range(players)]
    s.nw_held = [[] for _ in range(players)]
    s.cs_cards = [[] for _ in range(players)]
    s.pcard_holder = [[-1] * len(PLAYER_CARDS) for _ in range(players)]
    s.marks = [0] * players
    s.won_capital = [0] * players
    s.turn_flags = 0
    s.gz = 0
    s.nw_card = [-1] * len(NATURAL_WONDERS)
    s.taken, s.arrived, s.nw_used = [], [], []
    s.pending = []
    s.winners, s.over, s.unfinished = [], False, False
    s.rng = rng
    if deciding:
        s.first = s.current = s.map_start
        s.barb_offset = 0
        s.pending = [[kinds.D_MAPTILE, s.map_start]]
    else:
        start_play(s)
    from civtable.games.civilization_a_new_dawn.rules import turn

    turn.advance(s)
    return s


def populate(s: CivState) -> None:
    """CIV-3.4 on the current board: capitals on their stars, every printed token placed."""
    board = s.board
    n = board.size
    s.capital = [
        next((x for x in range(n) if board.capital_tile[x] and board.tile_of[x] == t), -1)
        for t in s.map_caps
    ]
    s.tok, s.reinf, s.city = [-1] * n, [0] * n, [-1] * n
    for seat, x in enumerate(s.capital):
        if x >= 0:
            s.city[x] = seat  # CIV-4.6(d)
    s.res = list(board.resource)
    s.nw = list(board.natural_wonder)
    s.cs = list(board.city_state)
    s.wtok = [-1] * n
    s.barb = [-1] * n
    s.barb_pos = [-2] * len(BARBARIAN_LETTERS)
    for x, letter in enumerate(board.spawn):
        if letter >= 0:
            s.barb[x] = letter
            s.barb_pos[letter] = x
    s.res_supply = [RESOURCE_TOKENS - sum(1 for r in s.res if r == i) for i in range(4)]
    on_map = {c for c in board.city_state if c >= 0}
    s.cs_avail = [2 if c.index in on_map else 0 for c in CITY_STATES]


def start_play(s: CivState) -> None:
    """CIV-3.6: first player, barbarian direction token, event dial on its start section."""
    s.first = s.rng.randbelow(s.players)
    s.current = s.first
    s.barb_offset = s.rng.randbelow(6)
    s.section = 0
    s.fp_turns = 0
