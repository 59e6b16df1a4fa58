"""Setup, dealing and passing (SW-2, SW-3, SW-14).

Options (all optional, JSON-ready):

``boards``  ``"random"`` (default) or a list of board ids, one per city (SW-2.5)
``sides``   ``"random"`` (default, SW-2.6), ``"A"``, ``"B"``, or a list of ``"A"``/``"B"`` per city

In the 2-player variant there are three cities: the Free City is city 0, then the two players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from civtable.core.errors import InvalidOptionsError
from civtable.core.rng import Rng
from civtable.games.seven_wonders.catalog import BOARD_INDEX, BOARDS, DECKS, GUILDS, GUILDS_DRAWN
from civtable.games.seven_wonders.state import MAIN, City, SevenWondersState, age_event

if TYPE_CHECKING:
    from civtable.core.api import Game

START_COINS = 3  # SW-2.7
HAND_SIZE = 7  # SW-3.2
DEFAULT_OPTIONS: dict[str, Any] = {"boards": "random", "sides": "random"}


def normalize_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate options and fill in defaults; raises :class:`InvalidOptionsError`."""
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 7:
        raise InvalidOptionsError(f"7 Wonders is for 2 to 7 players, not {players!r}")
    opts = dict(DEFAULT_OPTIONS)
    if options:
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise InvalidOptionsError(
                f"unknown 7 Wonders option(s): {', '.join(sorted(unknown))}; "
                f"known: {', '.join(DEFAULT_OPTIONS)}"
            )
        opts.update(options)
    n = 3 if players == 2 else players
    boards = opts["boards"]
    if boards != "random":
        if not isinstance(boards, list | tuple) or len(boards) != n:
            raise InvalidOptionsError(f"'boards' must be 'random' or a list of {n} board ids")
        for b in boards:
            if not isinstance(b, str) or b not in BOARD_INDEX:
                raise InvalidOptionsError(f"unknown board {b!r}; boards: {', '.join(BOARD_INDEX)}")
        if len(set(boards)) != n:
            raise InvalidOptionsError("every city needs a different wonder board (SW-2.5)")
        opts["boards"] = list(boards)
    sides = opts["sides"]
    if sides not in ("random", "A", "B"):
        if (
            not isinstance(sides, list | tuple)
            or len(sides) != n
            or any(s not in ("A", "B") for s in sides)
        ):
            raise InvalidOptionsError(
                f"'sides' must be 'random', 'A', 'B' or a list of {n} of 'A'/'B' (SW-2.6)"
            )
        opts["sides"] = list(sides)
    return opts


def new_game(
    game: Game, players: int, seed: int, options: Mapping[str, Any] | None
) -> SevenWondersState:
    """SW-2: deal boards and sides, 3 coins each, then start Age I."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionsError(f"a seed is an integer, got {type(seed).__name__}")
    opts = normalize_options(players, options)
    rng = Rng(seed)
    n = 3 if players == 2 else players
    if opts["boards"] == "random":
        boards = rng.sample(range(len(BOARDS)), n)
    else:
        boards = [BOARD_INDEX[b] for b in opts["boards"]]
    sides_opt = opts["sides"]
    if sides_opt == "random":
        sides = [rng.randbelow(2) for _ in range(n)]
    elif sides_opt in ("A", "B"):
        sides = [0 if sides_opt == "A" else 1] * n
    else:
        sides = [0 if s == "A" else 1 for s in sides_opt]
    s = SevenWondersState.__new__(SevenWondersState)
    s.game, s.players, s.seed, s.options = game, players, seed, opts
    s.history = []
    s.n, s.two_player = n, players == 2
    s.cities = [City.new(boards[c], sides[c], START_COINS) for c in range(n)]
    s.hands = [[] for _ in range(n)]
    s.discard, s.discard_known = [], []
    s.age, s.turn, s.phase, s.controller = 1, 1, MAIN, -1
    s.needs, s.commits, s.await_pay = [False] * n, [None] * n, [None] * n
    s.hali_due = s.hali_city = -1
    s.rng = rng
    s.log = None
    s._legal = {}
    s._plans = None
    start_age(s)
    return s


def start_age(state: SevenWondersState) -> None:
    """SW-3.2: shuffle the age deck (Age III with n + 2 random guilds, SW-2.3) and deal 7 each."""
    n = state.n
    deck_players = 3 if state.two_player else n
    deck = list(DECKS[(state.age, deck_players)])
    if state.age == 3:
        deck.extend(state.rng.sample(GUILDS, GUILDS_DRAWN[deck_players]))
    assert len(deck) == HAND_SIZE * n, "SW-2.4: each age deck holds 7n cards"
    state.rng.shuffle(deck)
    state.hands = [deck[HAND_SIZE * c : HAND_SIZE * (c + 1)] for c in range(n)]
    for city in state.cities:
        city.free_used = False  # SW-10.8: no carry-over
    state.turn = 1
    if state.two_player:
        # SW-14.3 / AMB-19: Ages I and III start with LEFT(FC) = city 1, Age II with RIGHT(FC).
        state.controller = 2 if state.age == 2 else 1
    if state.log is not None:  # (Age I starts before a log is switched on: see State.log)
        state.log.append(age_event(state.age))
    start_step(state)


def start_step(state: SevenWondersState) -> None:
    """A new main step: every city owes a commitment (SW-8.1)."""
    state.phase = MAIN
    if state.two_player:
        # SW-14.4.1: the controller draws the top card of the Free City pile.
        state.hands[state.controller].append(state.hands[0].pop())
    state.needs = [True] * state.n
    state.commits = [None] * state.n
    state.await_pay = [None] * state.n


def pass_hands(state: SevenWondersState) -> None:
    """SW-3.5: Ages I and III pass to LEFT, Age II to RIGHT; 2-player: exchange (SW-14.4.4)."""
    hands = state.hands
    if state.two_player:
        hands[1], hands[2] = hands[2], hands[1]
        state.controller = 3 - state.controller
        return
    n = state.n
    step = -1 if state.age == 2 else 1
    state.hands = [hands[(c - step) % n] for c in range(n)]
