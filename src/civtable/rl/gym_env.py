"""A single-agent Gymnasium environment: one learning seat against civtable bots.

Single-agent RL libraries (Stable-Baselines3, sb3-contrib's ``MaskablePPO``) train one policy in
a ``gymnasium.Env``. :class:`SingleSeatEnv` seats the learner at one seat of a civtable game and
plays every other seat with registered civtable bots (``"random"``, ``"heuristic"``, ...) until
the learner owes a decision again. The observation is the game encoder's vector of the
learner's ``view(seat)``; the legal actions are given by :meth:`SingleSeatEnv.action_masks` (the
method ``MaskablePPO`` looks for) and in ``info["action_mask"]``. The reward is paid at the end
(``"win"``: a share of 1 if the learner wins, else 0; ``"score"``: its final score). Actions are
numbered as in the PettingZoo environment (:mod:`civtable.rl.action_map`: the engine's ids, or
Through the Ages' compact list). An illegal action raises :class:`~civtable.core.IllegalActionError`
and changes nothing.

The learner's seat is fixed (``seat=k``) or rotates with the episodes (``seat=None``: episode
``e`` plays seat ``e % players``). Seeding follows the PettingZoo environment: game seeds
``seed, seed + 1, ...``, or ``reset(seed=k)``; opponents are seeded from the game seed and their
seat exactly as in ``civtable simulate``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from civtable import games
from civtable.bots import Bot, make_bot
from civtable.core.api import State
from civtable.core.errors import InvalidOptionsError
from civtable.rl.action_map import ActionMap, Mask
from civtable.rl.encoders import ObservationEncoder, Vector, encoder_for
from civtable.sim.simulate import bot_seed


class SingleSeatEnv(gymnasium.Env[Vector, np.int64]):
    """One learning seat of a civtable game; the other seats are civtable bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium reads it)

    def __init__(
        self,
        game_id: str,
        players: int,
        opponents: Sequence[str] = ("random",),
        seat: int | None = None,
        seed: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = games.get(game_id)
        if not self.game.min_players <= players <= self.game.max_players:
            raise InvalidOptionsError(
                f"{self.game.name} is for {self.game.min_players} to {self.game.max_players} "
                f"players, not {players}"
            )
        if seat is not None and not 0 <= seat < players:
            raise InvalidOptionsError(f"seat must be in 0..{players - 1} or None, not {seat}")
        if reward not in ("win", "score"):
            raise InvalidOptionsError(f"reward must be 'win' or 'score', not {reward!r}")
        if not opponents:
            raise InvalidOptionsError("at least one opponent bot spec is needed")
        for spec in opponents:
            make_bot(spec, 0)  # unknown bots fail now
        if render_mode not in (None, "ansi"):
            raise InvalidOptionsError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.players = players
        self.opponents = tuple(opponents)
        self.fixed_seat = seat
        self.reward_mode = reward
        self.render_mode = render_mode
        self.game_options = dict(options or {})
        self.game.new_game(players, seed, self.game_options)  # validates the options early
        self.encoder: ObservationEncoder = encoder_for(game_id, players, self.game_options)
        #: the action numbering (``actions.to_engine(a)``: the engine's id of action ``a``)
        self.actions = ActionMap(self.game, players, self.game_options)
        self.n_actions = self.actions.size
        self.observation_space = spaces.Box(
            0.0, self.encoder.high, (self.encoder.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.n_actions)
        self._next_seed = seed
        self.episode = -1
        self.seat = seat if seat is not None else 0
        self.state: State | None = None
        self.bots: dict[int, Bot] = {}
        self._mask: Mask = np.zeros(self.n_actions, dtype=np.int8)

    # --- gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """Start the next game (``seed``: the engine's game seed); ``options`` are ignored."""
        super().reset(seed=seed)
        if seed is not None:
            self._next_seed = int(seed)
        game_seed = self._next_seed
        self._next_seed += 1
        self.episode += 1
        self.seat = self.fixed_seat if self.fixed_seat is not None else self.episode % self.players
        self.state = self.game.new_game(self.players, game_seed, self.game_options)
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {
            s: make_bot(self.opponents[k % len(self.opponents)], bot_seed(game_seed, s))
            for k, s in enumerate(others)
        }
        self._advance()
        obs, info = self._observe()
        info.update({"seat": self.seat, "game_seed": game_seed})
        return obs, info

    def step(self, action: int | np.int64) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the bots until the learner must decide again."""
        state = self._require_state()
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        state.apply(self.seat, self.actions.to_engine(int(action)))
        self._advance()
        obs, info = self._observe()
        reward = 0.0
        terminated = state.is_terminal()
        if terminated:
            result = state.result()
            values = result.rewards() if self.reward_mode == "win" else result.scores
            reward = float(values[self.seat])
            info.update({"scores": list(result.scores), "winners": list(result.winners)})
        return obs, reward, terminated, False, info

    def action_masks(self) -> Mask:
        """The learner's legal actions now, as 0/1 (all zeros once the game is over)."""
        return self._mask.copy()

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        state = self._require_state()
        view = state.view(None if state.is_terminal() else self.seat)
        return self.encoder.render(self.actions.env_view(view))

    # --- internals ------------------------------------------------------------------------------
    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    def _advance(self) -> None:
        """Let the bots decide until the learner owes a decision or the game ends."""
        state = self._require_state()
        while not state.is_terminal() and not state.owes_decision(self.seat):
            for s in state.to_move():
                if s != self.seat:
                    state.apply(s, self.bots[s].choose(state, s))
                    break

    def _observe(self) -> tuple[Vector, dict[str, Any]]:
        state = self._require_state()
        # the ids of view(seat)["legal"], in the environment's numbering
        self._mask = self.actions.mask(state.legal_actions(self.seat))
        return self.encoder.encode_state(state, self.seat), {"action_mask": self._mask.copy()}


__all__ = ["SingleSeatEnv"]
