"""Explicit chance for Deus: the board, the first player, the deck and every reshuffle.

The Deus engine draws from its generator only in setup and in the discard reshuffle
(``rules/setup.py``, ``catalog.random_tiles``, ``rules/effects.draw``):

1. ``board="random"`` (AMB-4, DEUS-3.5): the physical tiles of the slots (an ordered sample, one
   decision per slot, outcome = tile index), a face per slot (1/2 each) and a rotation per slot
   (1/6 each), redrawn as the engine does while two villages touch;
2. the deck shuffle (DEUS-4.6): one decision per card from the top of the deck down (the order
   the cards are dealt and drawn: seat 0's five cards first, then seat 1's, ...), outcome = card
   type with probability (copies left) / (cards left);
3. ``first_player="random"`` (DEUS-4.7): one decision, each seat 1/n;
4. during play, when a draw finds the deck empty the discard pile is shuffled into a new deck
   (DEUS-7.8): one decision per card of the pile, as in 2.

The driver runs the engine's own setup (``setup_on_board``) and moves with scripted randomness
(:mod:`civtable.rl.chance.replay`), so the draws and their order are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civtable.core.api import Game, State
from civtable.core.rng import Rng
from civtable.games.deus.catalog import (
    BY_PLAYERS,
    CARDS,
    DECK,
    build_board,
    random_tiles,
    reference_board,
)
from civtable.games.deus.rules import setup
from civtable.rl.chance.replay import BELOW, SAMPLE, SHUFFLE, ReplayChance, Request

#: engineering bounds (random play of 2-4 players stays far below them, see tests/rl/test_deus.py)
MAX_GAME_LENGTH = 3000
MAX_RESHUFFLES = 20


class DeusChance(ReplayChance):
    """The Deus chance driver (see the module doc)."""

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None) -> None:
        game.check_players(players)
        super().__init__(game, players, options)
        self.opts = setup.check_options(players, options)
        slots = len(BY_PLAYERS[players].slots)
        self.max_outcomes = max(len(CARDS), 7, 6, players)
        # the random board redraws rotations while villages touch: 200 attempts are allowed
        # per choice of tiles and faces; the bound counts one such round
        board = 2 * slots + 200 * slots if self.opts["board"] == "random" else 0
        self.max_chance_nodes = board + 1 + len(DECK) * (1 + MAX_RESHUFFLES)
        self.max_game_length = MAX_GAME_LENGTH
        self.start()

    def setup(self, rng: Rng) -> State:
        """``setup.new_game`` with the given generator (same calls, same order)."""
        opts = self.opts
        if isinstance(opts["board"], list):
            board = build_board(setup.custom_tiles(self.players, opts["board"]))
        elif opts["board"] == "random":
            board = build_board(random_tiles(self.players, rng))
        else:
            board = reference_board(self.players)
        return setup.setup_on_board(self.game, board, self.players, 0, opts, rng)

    def describe(self, request: Request, key: int, step: int) -> str:
        """``"deck card 3: Forum"``, ``"first player: seat 2"``, ``"board: tile 4"``, ..."""
        kind = request[0]
        if kind == SHUFFLE:
            what = "deck" if self.state is None else "reshuffled deck"
            return f"{what} card {step + 1}: {CARDS[key].label}"
        if kind == SAMPLE:
            return f"board slot {step}: tile {request[1][key]}"
        assert kind == BELOW
        n = request[1]
        if self.move is not None:  # no Deus rule rolls during play today
            return f"random {key} of 0..{n - 1}"
        if self.move is None and any(kind == SHUFFLE for kind, _ in self.script):
            return f"first player: seat {key}"
        if n == 2:
            return f"board: face {'AB'[key]}"
        return f"board: rotation {key}"


__all__ = ["DeusChance"]
