"""Explicit chance for 7 Wonders: boards, sides and every dealt card as chance decisions.

The engine draws three kinds of random things from its generator (``rules/setup.py``): the wonder
board of each city (SW-2.5), the side of each board (SW-2.6), and at the start of each age the
shuffled deck dealt 7 cards per city, which in Age III holds ``n + 2`` guilds drawn from the ten
(SW-2.3, SW-3.2). This driver asks for them one at a time instead:

1. ``boards == "random"``: one decision per city, outcome = board index (uniform among the
   boards not yet taken);
2. ``sides == "random"``: one decision per city, outcome 0 (A) or 1 (B), each 1/2;
3. each age: one decision per dealt card, outcome = card type index. A card type with ``r``
   copies left among ``R`` non-guild cards left has probability ``r / (R + G)`` where ``G``
   guilds are still to be dealt; each guild not dealt yet has ``G / (R + G)`` split evenly. This
   is exactly the distribution of a uniformly shuffled deck with a uniformly drawn guild set.

The engine builds the state with the chosen boards and sides as explicit options and deals its
own cards; the driver then empties the hands and refills them card by card, keeping the engine's
hand sizes (in the 2-player variant the controller's hand already holds the Free City card,
SW-14.4.1, so it is refilled with 8 cards and the Free City pile with 6). Because the refill is a
uniform deal into the same slots, the distribution of positions is the engine's own. The engine's
generator is never used after that, so an OpenSpiel history determines the game exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from civtable.core.api import Game, State
from civtable.games.seven_wonders.catalog import BOARDS, CARDS, DECKS, GUILDS, GUILDS_DRAWN, N_CARDS
from civtable.games.seven_wonders.rules.setup import HAND_SIZE, normalize_options
from civtable.games.seven_wonders.state import SevenWondersState
from civtable.rl.chance import ChanceDriver

BOARDS_PHASE, SIDES_PHASE, DEAL_PHASE = "boards", "sides", "deal"


class SevenWondersChance(ChanceDriver):
    """The 7 Wonders chance driver (see the module doc)."""

    state: SevenWondersState | None

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None) -> None:
        super().__init__(game, players, options)
        opts = normalize_options(players, options)
        self.cities = 3 if players == 2 else players
        self.deck_players = 3 if players == 2 else players
        self.max_outcomes = N_CARDS
        self.max_chance_nodes = 2 * self.cities + 3 * HAND_SIZE * self.cities
        # per city and age: 6 main steps and Babylon's extra step, each a card and a payment
        # choice at most, plus at most one Halikarnassus choice per stage (3)
        self.max_game_length = self.cities * 3 * 7 * 2 + 3
        self.fixed_options = opts
        self.boards: list[int] = []
        self.sides: list[int] = []
        self.state = None
        self.phase: str | None = None
        self.dealt_age = 0
        self.shape: list[int] = []
        self.remaining: dict[int, int] = {}
        self.guilds_left = 0
        self.guilds_unused: list[int] = []
        if opts["boards"] == "random":
            self.phase = BOARDS_PHASE
        elif opts["sides"] == "random":
            self.phase = SIDES_PHASE
        else:
            self._create()

    # --- the chance decisions ------------------------------------------------------------------
    def pending(self) -> bool:
        """Is a board, side or card still to be drawn?"""
        return self.phase is not None

    def outcomes(self) -> list[tuple[int, float]]:
        """Outcomes of the due decision with their probabilities, sorted by outcome."""
        if self.phase == BOARDS_PHASE:
            free = [b for b in range(len(BOARDS)) if b not in self.boards]
            return [(b, 1.0 / len(free)) for b in free]
        if self.phase == SIDES_PHASE:
            return [(0, 0.5), (1, 0.5)]
        if self.phase == DEAL_PHASE:
            total = sum(self.remaining.values()) + self.guilds_left
            out = [(t, r / total) for t, r in self.remaining.items() if r > 0]
            if self.guilds_left:
                p = self.guilds_left / total / len(self.guilds_unused)
                out += [(g, p) for g in self.guilds_unused]
            out.sort()
            return out
        return []

    def apply(self, outcome: int) -> None:
        """Record a board, a side or the next dealt card."""
        if outcome not in {o for o, _ in self.outcomes()}:
            raise ValueError(f"chance outcome {outcome} is not possible now")
        if self.phase == BOARDS_PHASE:
            self.boards.append(outcome)
            if len(self.boards) == self.cities:
                if self.fixed_options["sides"] == "random":
                    self.phase = SIDES_PHASE
                else:
                    self._create()
        elif self.phase == SIDES_PHASE:
            self.sides.append(outcome)
            if len(self.sides) == self.cities:
                self._create()
        else:
            self._deal(outcome)

    def after_move(self) -> None:
        """A new age has started inside the engine: take its deal over (SW-3.2)."""
        state = self.state
        if state is not None and not state.is_terminal() and state.age != self.dealt_age:
            self._begin_deal()

    def label(self, outcome: int) -> str:
        """``"city 2: board Rhodos"``, ``"city 0: side B"`` or ``"deal Lumber Yard to city 1"``."""
        if self.phase == BOARDS_PHASE:
            return f"city {len(self.boards)}: board {BOARDS[outcome].name}"
        if self.phase == SIDES_PHASE:
            return f"city {len(self.sides)}: side {'AB'[outcome]}"
        if self.phase == DEAL_PHASE:
            return f"deal {CARDS[outcome].name} to city {self._slot()}"
        return f"chance outcome {outcome}"

    def progress(self) -> str:
        """Which chance decisions are in progress."""
        if self.phase == BOARDS_PHASE:
            return f"choosing boards: {[BOARDS[b].id for b in self.boards]}"
        if self.phase == SIDES_PHASE:
            return f"choosing sides: {''.join('AB'[s] for s in self.sides)}"
        if self.phase == DEAL_PHASE:
            return f"dealing Age {self.dealt_age}: hand sizes {self._sizes()} of {self.shape}"
        return ""

    # --- copies -----------------------------------------------------------------------------
    def copy(self) -> SevenWondersChance:
        """An independent copy."""
        twin = SevenWondersChance.__new__(SevenWondersChance)
        twin.__dict__.update(self.__dict__)
        twin.boards, twin.sides, twin.shape = self.boards[:], self.sides[:], self.shape[:]
        twin.remaining = dict(self.remaining)
        twin.guilds_unused = self.guilds_unused[:]
        twin.state = None if self.state is None else self.state.copy()
        return twin

    def with_state(self, state: State) -> SevenWondersChance:
        """A copy driving ``state`` (a determinization of this driver's state)."""
        if self.phase is not None:
            raise ValueError("cannot swap the state while chance decisions are pending")
        assert isinstance(state, SevenWondersState)
        twin = SevenWondersChance.__new__(SevenWondersChance)
        twin.__dict__.update(self.__dict__)
        twin.state = state
        return twin

    # --- internals --------------------------------------------------------------------------
    def _create(self) -> None:
        opts = dict(self.fixed_options)
        if self.boards:
            opts["boards"] = [BOARDS[b].id for b in self.boards]
        if self.sides:
            opts["sides"] = ["AB"[s] for s in self.sides]
        state = self.game.new_game(self.players, 0, opts)
        assert isinstance(state, SevenWondersState)
        self.state = state
        self._begin_deal()

    def _begin_deal(self) -> None:
        state = self.state
        assert state is not None
        self.dealt_age = state.age
        self.shape = [len(h) for h in state.hands]
        assert sum(self.shape) == HAND_SIZE * self.cities, "SW-2.4: each age deck holds 7n cards"
        state.hands = [[] for _ in self.shape]
        deck = DECKS[(state.age, self.deck_players)]
        self.remaining = {}
        for t in deck:
            self.remaining[t] = self.remaining.get(t, 0) + 1
        self.guilds_left = GUILDS_DRAWN[self.deck_players] if state.age == 3 else 0
        self.guilds_unused = list(GUILDS) if self.guilds_left else []
        self.phase = DEAL_PHASE

    def _sizes(self) -> list[int]:
        assert self.state is not None
        return [len(h) for h in self.state.hands]

    def _slot(self) -> int:
        assert self.state is not None
        for c, h in enumerate(self.state.hands):
            if len(h) < self.shape[c]:
                return c
        raise AssertionError("the deal is complete")

    def _deal(self, t: int) -> None:
        state = self.state
        assert state is not None
        state.hands[self._slot()].append(t)
        if t in self.remaining:
            self.remaining[t] -= 1
            if not self.remaining[t]:
                del self.remaining[t]
        else:
            self.guilds_unused.remove(t)
            self.guilds_left -= 1
        if sum(self.shape) == sum(self._sizes()):
            self.phase = None
            # a fresh copy drops legal-action caches computed from the partial deal
            self.state = state.copy()


__all__ = ["SevenWondersChance"]
