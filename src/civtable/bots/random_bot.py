"""The uniform random bot: a baseline and the engine's fuzzer."""

from __future__ import annotations

from civtable.bots.base import Bot, register
from civtable.core.api import State


class RandomBot(Bot):
    """Picks uniformly among the legal actions (a game's concede actions, e.g. resigning, only
    when nothing else is legal: :attr:`Game.concede_actions`)."""

    name = "random"

    def choose(self, state: State, seat: int) -> int:
        """A uniformly random legal action."""
        legal = state.legal_actions(seat)
        concede = state.game.concede_actions
        if concede:
            legal = [a for a in legal if a not in concede] or legal
        return self.rng.choice(legal)


register("random", lambda arg, seed: RandomBot(seed))
