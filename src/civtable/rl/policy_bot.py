"""Trained policies as civtable bots, so tournaments can rate them against the built-in bots.

:class:`PolicyBot` turns any ``policy(observation, mask) -> action`` into a
:class:`~civtable.bots.Bot`: it encodes the seat's view with the game's encoder (the same vector
the environments give, through the encoder's ``encode_state`` fast path) and asks the policy.
Importing this module registers the bot spec ``sb3:<path>``: a model saved by sb3-contrib's
``MaskablePPO`` (``model.save(path)``), loaded on first use (sb3-contrib must be installed).
``python -m civtable.rl`` runs the ``civtable`` command line with this registration done, e.g.::

    python -m civtable.rl tournament seven-wonders --players 3 \\
        --bots sb3:ppo_7w.zip,heuristic,random --games 300
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from civtable.bots.base import Bot, register
from civtable.core.api import State
from civtable.core.errors import InvalidOptionsError
from civtable.rl.action_map import ActionMap
from civtable.rl.encoders import ObservationEncoder, Vector, encoder_for

Policy = Callable[[Vector, npt.NDArray[np.int8]], int]


class PolicyBot(Bot):
    """A bot that plays ``policy(encoded view, action mask)``: observation, mask and the
    policy's answer are those of the environments (:mod:`civtable.rl.action_map`)."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int = 0) -> None:
        super().__init__(seed)
        self.policy = policy
        self._encoders: dict[tuple[str, int], tuple[ObservationEncoder, ActionMap]] = {}

    def choose(self, state: State, seat: int) -> int:
        """The policy's action for ``seat``; a single legal action is played without asking."""
        legal = state.legal_actions(seat)  # = the ids of view(seat)["legal"]
        if len(legal) == 1:
            return int(legal[0])
        key = (state.game.id, state.players)
        kept = self._encoders.get(key)
        if kept is None:
            kept = self._encoders[key] = (
                encoder_for(state.game.id, state.players, state.options),
                ActionMap(state.game, state.players, state.options),
            )
        encoder, actions = kept
        choice = int(self.policy(encoder.encode_state(state, seat), actions.mask(legal)))
        if not 0 <= choice < actions.size or actions.to_engine(choice) not in legal:
            raise InvalidOptionsError(f"the policy chose the illegal action {choice}")
        return actions.to_engine(choice)


@functools.lru_cache(maxsize=8)
def _load_maskable_ppo(path: str) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise InvalidOptionsError(
            "the sb3:<path> bot needs sb3-contrib (pip install sb3-contrib)"
        ) from exc
    return MaskablePPO.load(path, device="cpu")


def sb3_policy(path: str) -> Policy:
    """The deterministic policy of a ``MaskablePPO`` model saved at ``path``."""
    model = _load_maskable_ppo(path)

    def policy(obs: Vector, mask: npt.NDArray[np.int8]) -> int:
        size = model.observation_space.shape[0]
        if obs.shape[0] != size:
            raise InvalidOptionsError(
                f"{path} was trained on observations of size {size}, this game gives "
                f"{obs.shape[0]} (another player count?)"
            )
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return policy


def _sb3_factory(arg: str, seed: int) -> Bot:
    if not arg:
        raise InvalidOptionsError("the sb3 bot needs a model path: sb3:<path/to/model.zip>")
    return PolicyBot(sb3_policy(arg), seed)


register("sb3", _sb3_factory)

__all__ = ["Policy", "PolicyBot", "sb3_policy"]
