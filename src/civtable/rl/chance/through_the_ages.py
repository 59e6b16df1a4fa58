"""Explicit chance for Through the Ages: the first player, every deck, every reshuffle.

The engine draws from its generator in setup (``rules/setup.py``) and in one place during play
(``rules/turn.py``); every other "random" event of the game is a draw from a deck whose order
was fixed by a shuffle:

1. the first player (TTA-2.5): one decision, each seat ``1/n``;
2. the civil deck of each age A, I, II (III is left out of the first game, TTA-14) and, from
   Age I, the military deck of the age (TTA-2.2), in the engine's order A, I (civil, military),
   II (civil, military): one decision per card from the top of the deck down (the order the
   card row is dealt and refilled, TTA-2.3 / TTA-3.5, and the military cards are drawn,
   TTA-8.8), outcome = card index, probability (copies left) / (cards left);
3. the Age A events (TTA-2.4): the shuffle of all Age A military cards, of which the first
   ``players + 2`` become the current events (the rest go back to the box), card by card as in 2;
4. during play, when a military draw finds the age's deck empty its discard pile is shuffled
   into a new deck (TTA-8.8): one decision per card as in 2.

Card-row refills, age transitions and military draws take the next cards of these decks, so
they need no decisions of their own: the shuffles decide them. During play, a military discard
pile shuffled into a new deck (TTA-8.8) and the future events deck shuffled into the new current
events deck (TTA-12.2) are drawn card by card too; the shorter game's Age III events (TTA-15.1)
are part of the setup's shuffles. The driver runs the engine's own
moves with scripted randomness (:mod:`civtable.rl.chance.replay`); setup is
:func:`setup_with`: the engine's own ``rules.setup.new_game`` given the scripted generator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from civtable.core.api import Game, State
from civtable.core.rng import Rng
from civtable.games.through_the_ages.catalog import (
    AGES,
    CARDS,
    NCARDS,
    civil_deck,
    military_deck,
)
from civtable.games.through_the_ages.rules import setup
from civtable.games.through_the_ages.state import TTAState
from civtable.rl.chance.replay import BELOW, ReplayChance, Request

#: engineering bound of the player decisions of one game (random 4-player games take ~350)
MAX_GAME_LENGTH = 5000
#: engineering bound of the military reshuffles of one game (each at most a deck's size)
MAX_RESHUFFLES = 40


def setup_with(game: Game, players: int, options: Mapping[str, Any] | None, rng: Rng) -> TTAState:
    """The engine's setup (``rules.setup.new_game``) drawing from ``rng``; ``seed`` is 0."""
    return setup.new_game(game, players, 0, options, rng=rng)


class ThroughTheAgesChance(ReplayChance):
    """The Through the Ages chance driver (see the module doc)."""

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None) -> None:
        game.check_players(players)
        super().__init__(game, players, options)
        self.opts = setup.check_options(options)
        first = self.opts["mode"] == "first"
        self.max_outcomes = max(NCARDS, players)
        civil = sum(len(civil_deck(a, players)) for a in range(3 if first else 4))
        military = [len(military_deck(a, players, first)) for a in range(4)]
        # setup, the military reshuffles, and the future events decks becoming current
        # (TTA-12.2: every card passes through them at most once per preparation, so at most
        # the military cards of the game in all)
        self.max_chance_nodes = 1 + civil + 2 * sum(military) + MAX_RESHUFFLES * max(military)
        self.max_game_length = MAX_GAME_LENGTH
        self.start()

    def setup(self, rng: Rng) -> State:
        """The engine's setup with the given generator (:func:`setup_with`)."""
        return setup_with(self.game, self.players, self.opts, rng)

    def describe(self, request: Request, key: int, step: int) -> str:
        """``"first player: seat 1"``, ``"civil deck card 3: Bronze (I)"``, ..."""
        kind = request[0]
        if kind == BELOW:
            if self.move is None:
                return f"first player: seat {key}"
            return f"random {key} of 0..{request[1] - 1}"  # no rule rolls during play today
        card = CARDS[key]
        what = f"{card.deck} deck" if self.move is None else f"reshuffled {card.deck} deck"
        if self.move is not None and _is_event_deck(request[1], self.state):
            what = "new current events deck"  # TTA-12.2: the future deck, shuffled
        return f"{what} card {step + 1}: {card.name} ({AGES[card.age]})"


def _is_event_deck(cards: tuple[int, ...], before: State | None) -> bool:
    """A shuffle during play is a military discard pile (one age, TTA-8.8) or the future
    events deck becoming the current one (events and territories, any ages, TTA-12.2): events
    only, and either of several ages or the future deck of the position ``before`` the move
    plus at most the card prepared by the move."""
    if not all(CARDS[c].type in ("event", "territory") for c in cards):
        return False
    if len({CARDS[c].age for c in cards}) > 1 or not isinstance(before, TTAState):
        return True
    return (Counter(cards) - Counter(before.future)).total() <= 1 and bool(before.future)


__all__ = ["ThroughTheAgesChance", "setup_with"]
