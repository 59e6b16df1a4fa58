"""Setup (TTA-2) and game options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from civtable.core.errors import InvalidOptionsError
from civtable.core.rng import Rng
from civtable.games.through_the_ages.catalog import (
    BLUE_START,
    CARDS,
    INITIAL_EVENTS,
    INITIAL_TECHS,
    POOL_START,
    ROUND_ONE_CA,
    ROW_SLOTS,
    SHORTER_DEALT,
    SHORTER_FACEUP,
    START_GOVERNMENT,
    YELLOW_START,
    civil_deck,
    military_deck,
)
from civtable.games.through_the_ages.state import TTAState, to_box

if TYPE_CHECKING:
    from civtable.core.api import Game

DEFAULT_OPTIONS: dict[str, Any] = {"mode": "full"}
#: the rulebook's variants (TTA-15.2, TTA-15.3), off unless asked for
VARIANTS: dict[str, Any] = {"peaceful": False, "peaceful_pacts": False, "world_wars": False}
#: ``full``: the full game (TTA-2, TTA-13); ``first``: the first (simplified) game (TTA-14);
#: ``shorter``: the shorter game, two ages with the full rules (TTA-15.1)
MODES = ("full", "first", "shorter")


def check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and validate (``mode``: ``"full"``, ``"first"`` or ``"shorter"``)."""
    opts = dict(DEFAULT_OPTIONS)
    if options:
        unknown = set(options) - set(DEFAULT_OPTIONS) - set(VARIANTS)
        if unknown:
            raise InvalidOptionsError(f"unknown Through the Ages options: {sorted(unknown)}")
        opts.update(options)
    if opts["mode"] not in MODES:
        raise InvalidOptionsError(f"mode must be one of {MODES}, not {opts['mode']!r}")
    for name in VARIANTS:
        if name in opts and not isinstance(opts[name], bool):
            raise InvalidOptionsError(f"option {name} must be true or false")
    if (opts.get("peaceful_pacts") or opts.get("world_wars")) and not opts.get("peaceful"):
        raise InvalidOptionsError("peaceful_pacts and world_wars go with the peaceful game")
    if opts.get("peaceful") and opts["mode"] == "first":
        raise InvalidOptionsError("the peaceful game is a variant of the full game")
    return opts


def peaceful_filter(deck: list[int], keep_pacts: bool) -> list[int]:
    """TTA-15.2: no aggressions, wars or pacts (``keep_pacts``: keep the pacts that do not
    mention attacks)."""
    out = []
    for c in deck:
        card = CARDS[c]
        if card.type in ("aggression", "war"):
            continue
        if card.type == "pact" and not (
            keep_pacts and card.attacks == "allowed" and not card.attack_bonus
        ):
            continue
        out.append(c)
    return out


def new_game(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    rng: Rng | None = None,
) -> TTAState:
    """TTA-2: boards, decks (trimmed by player count; first game per TTA-2.6), row, events.

    ``rng`` replaces the generator seeded from ``seed`` (the OpenSpiel chance driver passes a
    scripted one, so every draw becomes a chance decision).
    """
    game.check_players(players)
    opts = check_options(options)
    first = opts["mode"] == "first"
    shorter = opts["mode"] == "shorter"
    s = TTAState(game, players, seed, opts)
    if rng is not None:
        s.rng = rng
    rng = s.rng
    # TTA-2.5 the first player is chosen at random and never changes
    s.first = s.current = rng.randbelow(players)
    # TTA-2.2 decks (copies already trimmed by player count); first game: no Age III (TTA-14)
    for age in range(4):
        if (first or shorter) and age == 3:
            continue
        deck = civil_deck(age, players)
        rng.shuffle(deck)
        s.civil_decks[age] = deck
        if age >= 1:
            mdeck = military_deck(age, players, first)
            if opts.get("peaceful"):
                mdeck = peaceful_filter(mdeck, bool(opts.get("peaceful_pacts")))
            rng.shuffle(mdeck)
            s.mil_decks[age] = mdeck
    # TTA-2.4 current events: players + 2 Age A events, the rest back to the box
    events = military_deck(0, players, first)
    rng.shuffle(events)
    s.events = events[: INITIAL_EVENTS[players]]
    to_box(s, events[INITIAL_EVENTS[players] :])
    if shorter:
        # TTA-15.1: the Age III events: 2 face down to each player, 3 face up; the rest of
        # civil and military III is not used
        pool = [c for c in military_deck(3, players, False) if CARDS[c].type == "event"]
        rng.shuffle(pool)
        for civ in s.civs:
            civ.secret = [pool.pop() for _ in range(SHORTER_DEALT)]
        s.faceup = [pool.pop() for _ in range(SHORTER_FACEUP)]
        to_box(s, pool)
    # TTA-2.3 card row
    s.row = [s.civil_decks[0].pop() for _ in range(ROW_SLOTS)]
    # TTA-2.1 / TTA-1.3 / TTA-1.8 player boards; TTA-2.5 round-1 actions
    for seat, civ in enumerate(s.civs):
        civ.yellow = YELLOW_START
        civ.blue = BLUE_START
        civ.pool = POOL_START
        civ.gov = START_GOVERNMENT
        for card, workers in INITIAL_TECHS:
            c = CARDS[card]
            if c.kind >= 0:
                civ.developed.append(card)
                civ.workers[c.slot] = workers
        civ.blue_total = civ.blue  # TTA-1.3: 16 blue and 25 yellow cubes
        civ.yellow_total = civ.yellow + civ.pool + sum(civ.workers)
        civ.ca = ROUND_ONE_CA[(seat - s.first) % players]
        civ.ma = 0
    return s
