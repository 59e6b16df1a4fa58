"""Build exact 7 Wonders positions for the scenario and rule tests (SW-17).

A position starts as a real ``new_game`` with explicit boards and sides, then is edited only
through the engine's own structures: :meth:`City.add_structure` and :meth:`City.add_stage` (which
keep production, colours, shields, science and discounts derived), plus plain fields for coins,
hands, the discard pile and tokens. Nothing here decides legality or resolves anything: the
tests then go through the public API (``legal_actions``, ``apply``, ``describe``, ``result``).

Cities are indexed like seats (3+ players). Card and board arguments are catalog ids
(``"lumber_yard"``, ``"loom_age2"``, ``"olympia"``)::

    s = new(3, ["olympia", "babylon", "rhodes"], age=3)
    build(s, 0, "glassworks_age1")
    coins(s, 0, 4)
    hand(s, 0, "university", "palace")
    play_step(s, {0: [act("build", "university")]})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from civtable import games
from civtable.games.seven_wonders.actions import (
    BUILD,
    DISCARD,
    FREE,
    HALI,
    HALI_PASS,
    STAGE,
    pay_action,
)
from civtable.games.seven_wonders.catalog import CARD_INDEX, CARDS
from civtable.games.seven_wonders.rules import setup
from civtable.games.seven_wonders.state import MAIN, City, SevenWondersState

GAME = games.get("seven-wonders")

_KINDS = {"build": BUILD, "stage": STAGE, "discard": DISCARD, "free": FREE, "hali": HALI}


def card(card_id: str) -> int:
    """Card type index of a catalog id (``KeyError`` if the id does not exist)."""
    return CARD_INDEX[card_id]


def act(kind: str, card_id: str) -> int:
    """Action id: ``kind`` is build, stage, discard, free (Olympia) or hali (Halikarnassus)."""
    return _KINDS[kind] + card(card_id)


def pay(left: int, right: int) -> int:
    """The PAY action: ``left`` coins to LEFT(i), ``right`` coins to RIGHT(i)."""
    return pay_action(left, right)


def _changed(state: SevenWondersState) -> None:
    state._legal.clear()  # the state's caches are only invalidated by apply()
    state._plans = None


def new(
    players: int,
    boards: Sequence[str],
    sides: str | Sequence[str] = "A",
    *,
    age: int = 1,
    turn: int = 1,
    seed: int = 0,
) -> SevenWondersState:
    """A game after setup with these boards/sides, moved to the start of ``age``/``turn``.

    Changing the age deals that age's real deck (``setup.start_age``). For ``turn > 1`` every
    hand is cut to its size on that turn (``8 - turn``); tests normally replace the hands they
    care about with :func:`hand`. The 2-player variant is only supported at turn 1.
    """
    opts = {"boards": list(boards), "sides": sides if isinstance(sides, str) else list(sides)}
    state = GAME.new_game(players, seed, opts)
    assert isinstance(state, SevenWondersState)
    if age != 1:
        state.age = age
        setup.start_age(state)
    if turn != 1:
        assert not state.two_player, "2-player positions start at turn 1"
        state.turn = turn
        state.hands = [h[: 8 - turn] for h in state.hands]
    _changed(state)
    return state


def build(state: SevenWondersState, city: int, *card_ids: str) -> None:
    """Put structures into a city as if built earlier (no payment, no immediate coins)."""
    c = state.cities[city]
    for cid in card_ids:
        t = card(cid)
        assert not c.owns_key(CARDS[t].key_index), f"SW-4.3: city {city} already has {cid}"
        c.add_structure(t)
    _changed(state)


def stages(state: SevenWondersState, city: int, count: int, marker: str = "lumber_yard") -> None:
    """Build the next ``count`` wonder stages (lasting effects only, no coins), in order."""
    c = state.cities[city]
    assert c.stages + count <= len(c.board_stages), "SW-4.5: no such stage"
    for _ in range(count):
        c.add_stage(card(marker))
    _changed(state)


def coins(state: SevenWondersState, city: int, amount: int) -> None:
    """Set a city's coins."""
    assert amount >= 0
    state.cities[city].coins = amount
    _changed(state)


def hand(state: SevenWondersState, city: int, *card_ids: str) -> None:
    """Replace a city's hand (in the 2-player game ``hand(s, 0, ...)`` is the Free City pile).

    Hands pass on, so a position played for several turns needs equal hand sizes.
    """
    state.hands[city] = [card(cid) for cid in card_ids]
    _changed(state)


def pile(state: SevenWondersState, *card_ids: str) -> None:
    """Append cards to the discard pile (identity known to nobody)."""
    for cid in card_ids:
        state.discard.append(card(cid))
        state.discard_known.append(-1)
    _changed(state)


def tokens(state: SevenWondersState, city: int, *values: int) -> None:
    """Give a city conflict tokens (keeps the defeat count consistent, as ``from_json`` does)."""
    c = state.cities[city]
    c.tokens = list(values)
    c.defeats = sum(1 for t in values if t < 0)
    _changed(state)


def city(state: SevenWondersState, index: int) -> City:
    """The city object (read-only use in tests)."""
    return state.cities[index]


def names(cards: Sequence[int]) -> list[str]:
    """Catalog ids of card indices (for readable assertions)."""
    return [CARDS[t].id for t in cards]


# --- driving the game through the public API ---------------------------------------------------
def default_action(state: SevenWondersState, seat: int) -> int:
    """What a passive seat does: discard the last card of the hand it is choosing from; where
    that is not legal (Free City, SW-14.5) the first legal action; Halikarnassus passes."""
    legal = state.legal_actions(seat)
    c = state.current_city(seat)
    if HALI_PASS in legal:
        return HALI_PASS
    if state.two_player and c == 0 and state.phase == MAIN:
        cards = state.hands[state.controller]
    else:
        cards = state.hands[c]
    if cards and DISCARD + cards[-1] in legal:
        return DISCARD + cards[-1]
    return legal[0]


def play_step(state: SevenWondersState, plays: Mapping[int, Sequence[int]] | None = None) -> None:
    """Resolve the current decision round through ``apply``.

    ``plays[seat]`` lists that seat's actions in order (e.g. a build, then its PAY choice; in the
    2-player game the controller's own action, then the Free City's). Seats not listed, or with
    actions left to take after their list is used up, take :func:`default_action`. Returns once
    the age/turn/phase has moved on (so a turn-6 main step stops before Babylon's extra step).
    """
    queues = {seat: list(actions) for seat, actions in (plays or {}).items()}
    start = (state.age, state.turn, state.phase)
    while state.to_move() and (state.age, state.turn, state.phase) == start:
        seat = state.to_move()[0]
        queue = queues.get(seat)
        for s in state.to_move():  # seats with scripted actions first
            if queues.get(s):
                seat, queue = s, queues[s]
                break
        action = queue.pop(0) if queue else default_action(state, seat)
        state.apply(seat, action)
    leftover = {s: q for s, q in queues.items() if q}
    assert not leftover, f"scripted actions not used: {leftover}"


def play_to_end(state: SevenWondersState) -> None:
    """Play passive steps (:func:`default_action`) until the game is over."""
    while not state.is_terminal():
        play_step(state)


def play_until(state: SevenWondersState, age: int, turn: int = 1) -> None:
    """Play passive steps (:func:`default_action`) until the main step of ``age``/``turn``."""
    while not state.is_terminal() and not (
        state.age == age and state.turn == turn and state.phase == MAIN
    ):
        play_step(state)


# --- spec data: SW-15.7 deck composition, transcribed from the spec (not from the engine) ------
# Cards added at each player mark; a game with n players (2-player variant: 3) uses marks <= n.
# fmt: off
SPEC_DECK_MARKS: dict[int, dict[int, tuple[str, ...]]] = {
    1: {
        3: ("altar", "apothecary", "barracks", "baths", "clay_pit", "clay_pool",
            "east_trading_post", "glassworks_age1", "guard_tower", "loom_age1", "lumber_yard",
            "marketplace", "ore_vein", "press_age1", "scriptorium", "stockade", "stone_pit",
            "theater", "timber_yard", "west_trading_post", "workshop"),
        4: ("excavation", "guard_tower", "lumber_yard", "ore_vein", "pawnshop", "scriptorium",
            "tavern"),
        5: ("altar", "apothecary", "barracks", "clay_pool", "forest_cave", "stone_pit", "tavern"),
        6: ("glassworks_age1", "loom_age1", "marketplace", "mine", "press_age1", "theater",
            "tree_farm"),
        7: ("baths", "east_trading_post", "pawnshop", "stockade", "tavern", "west_trading_post",
            "workshop"),
    },
    2: {
        3: ("aqueduct", "archery_range", "brickyard", "caravansery", "courthouse", "dispensary",
            "forum", "foundry", "glassworks_age2", "laboratory", "library", "loom_age2",
            "press_age2", "quarry", "sawmill", "school", "stables", "statue", "temple",
            "vineyard", "walls"),
        4: ("bazar", "brickyard", "dispensary", "foundry", "quarry", "sawmill", "training_ground"),
        5: ("caravansery", "courthouse", "glassworks_age2", "laboratory", "loom_age2",
            "press_age2", "stables"),
        6: ("archery_range", "caravansery", "forum", "library", "temple", "training_ground",
            "vineyard"),
        7: ("aqueduct", "bazar", "forum", "school", "statue", "training_ground", "walls"),
    },
    3: {
        3: ("academy", "arena", "arsenal", "fortifications", "gardens", "haven", "lighthouse",
            "lodge", "observatory", "palace", "pantheon", "senate", "siege_workshop", "study",
            "town_hall", "university"),
        4: ("arsenal", "chamber_of_commerce", "circus", "gardens", "haven", "university"),
        5: ("arena", "circus", "senate", "siege_workshop", "study", "town_hall"),
        6: ("chamber_of_commerce", "circus", "lighthouse", "lodge", "pantheon", "town_hall"),
        7: ("academy", "arena", "arsenal", "fortifications", "observatory", "palace"),
    },
}
SPEC_GUILDS = (
    "workers_guild", "craftsmens_guild", "traders_guild", "philosophers_guild", "spies_guild",
    "magistrates_guild", "strategists_guild", "shipowners_guild", "builders_guild",
    "scientists_guild",
)
# fmt: on


def spec_deck(age: int, players: int) -> Counter[str]:
    """The non-guild cards of an age deck per SW-15.7 (the 2-player variant uses 3+ cards)."""
    n = 3 if players == 2 else players
    out: Counter[str] = Counter()
    for mark, ids in SPEC_DECK_MARKS[age].items():
        if mark <= n:
            out.update(ids)
    return out


def dealt(state: SevenWondersState) -> Counter[str]:
    """Every card currently in a hand (and the Free City pile), by id."""
    return Counter(CARDS[t].id for h in state.hands for t in h)
