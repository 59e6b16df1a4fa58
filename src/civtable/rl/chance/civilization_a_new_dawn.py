"""Explicit chance for Civilization: A New Dawn: setup draws and every die roll.

The engine draws from its generator in setup (``rules/setup.py``, ``hexes.py``) and during play
(``rules/military.py``, ``rules/events.py``):

1. ``leaders="random"`` (CIV-3.1): one decision per seat, outcome = leader index, uniform among
   the leaders not taken;
2. ``map="standard"`` / ``"standard_random"`` (CIV-4): the shuffles of the capital, natural-wonder,
   city-state and plain tiles (outcome = tile number), the die for the core side and the first
   placer, and (``standard_random``) the tile order of each hand and each chance placement among
   the legal ones (outcome = its index); the ``first_game`` map (CIV-3.11) has none;
3. each wonder deck (CIV-3.7): per type and era, one decision per card from the bottom of the
   era's pile up (outcome = wonder index, uniform among those left); for 2-3 players the last
   card(s) drawn are the ones removed unseen;
4. the victory cards (CIV-3.8): one decision per card drawn, uniform among those left;
5. the first player (1/n each) and the barbarian direction token offset (1/6 each, CIV-3.6);
6. during play, every die: the attacker's and the defender's die of a combat (CIV-14.5) and the
   barbarian movement die (CIV-21.2), outcome ``0..5`` for a roll of 1..6, each 1/6.

The driver runs the engine's own ``new_game`` and moves with scripted randomness
(:mod:`civtable.rl.chance.replay`), so the draws and their order are exactly the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civtable.core.api import Game, State
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import (
    CAPITAL_TILES,
    LEADERS,
    NW_TILES,
    PLAIN_TILES,
    VICTORY_CARDS,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import setup
from civtable.rl.chance.replay import BELOW, SAMPLE, SHUFFLE, ReplayChance, Request

#: the wonders of each type and era (the piles shuffled in CIV-3.7)
_WONDER_PILES = frozenset(
    tuple(sorted(w.index for w in WONDERS if (w.type, w.era) == (t, e)))
    for t, e in {(w.type, w.era) for w in WONDERS}
)
#: engineering bound of the decisions of one game (the engine stops an unfinished game after
#: ``turn_limit`` first-player turns, CIV-22.4); random play stays far below it
DECISIONS_PER_TURN = 200
#: outcomes of a ``standard_random`` placement choice (the legal placements of a tile)
MAX_PLACEMENTS = 1024


class CivilizationChance(ReplayChance):
    """The Civilization: A New Dawn chance driver (see the module doc)."""

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None) -> None:
        game.check_players(players)
        super().__init__(game, players, options)
        self.opts = setup.check_options(players, options)
        top_tile = max((*CAPITAL_TILES, *NW_TILES, *PLAIN_TILES))
        self.max_outcomes = max(len(WONDERS), len(LEADERS), len(VICTORY_CARDS), top_tile + 1, 6)
        if self.opts["map"] == "standard_random":
            self.max_outcomes = max(self.max_outcomes, MAX_PLACEMENTS)
        turns = int(self.opts["turn_limit"]) or 1000
        self.max_game_length = DECISIONS_PER_TURN * (turns + 1) * players
        # setup: 40 at most; a decision rolls at most 3 dice (a combat and a barbarian move)
        self.max_chance_nodes = 100 + 3 * self.max_game_length
        self.start()

    def setup(self, rng: Rng) -> State:
        """``setup.new_game`` with the given generator."""
        return setup.new_game(self.game, self.players, 0, self.opts, rng=rng)

    def describe(self, request: Request, key: int, step: int) -> str:
        """``"leader of seat 1: ..."``, ``"wonder: Colossus"``, ``"die: 4"``, ..."""
        kind = request[0]
        in_setup = self.move is None
        if kind == SAMPLE:
            if len(request[1]) == len(LEADERS) and not self.script and in_setup:
                return f"leader of seat {step}: {LEADERS[key].leader}"
            return f"victory card: {VICTORY_CARDS[key].id}"
        if kind == SHUFFLE:
            if in_setup and tuple(sorted(request[1])) in _WONDER_PILES:
                return f"wonder deck card: {WONDERS[key].name}"
            return f"shuffle: tile {key}" if in_setup else f"shuffle: item {key}"
        assert kind == BELOW
        n = request[1]
        if in_setup:
            return f"setup: {key} of 0..{n - 1}"
        if n == 6:
            return f"die: {key + 1}"
        return f"random {key} of 0..{n - 1}"  # e.g. the first player after a standard map


__all__ = ["CivilizationChance"]
