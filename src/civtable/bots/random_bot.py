"""The uniform random bot: a baseline and the engine's fuzzer."""

from __future__ import annotations

from civtable.bots.base import Bot, register
from civtable.core.api import State


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, seat: int) -> int:
        """A uniformly random legal action."""
        return self.rng.choice(state.legal_actions(seat))


register("random", lambda arg, seed: RandomBot(seed))
