"""A PettingZoo AEC environment for any civtable game with an observation encoder.

Agents are ``player_0 .. player_{n-1}`` (agent ``player_s`` plays seat ``s``). The agent to act is
the lowest seat among :meth:`State.to_move() <civtable.core.State.to_move>`: simultaneous
decisions (every 7 Wonders pick) are asked one seat at a time, and since the engine keeps each
commitment hidden until the step resolves, a later seat's observation never shows what an
earlier seat picked in the same step. A seat with a follow-up decision (a payment choice) is
asked again before the next seat.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the game
encoder's vector of ``state.view(seat)`` and a mask that is 1 on the view's legal actions. An
action is the engine's id, or, for a game whose id table is mostly unused (Through the Ages), its
index in the game's list of ids that can be legal (:mod:`civtable.rl.action_map`). They
are computed only when asked for (``observe``/``last``), by the encoder's
:meth:`~civtable.rl.encoders.ObservationEncoder.encode_state` fast path (every game's encoder
reads the state fields the view shows, tested equal to encoding the view) and from
``state.legal_actions(seat)`` (the very ids the view lists); both arrays are new on every call.
Rewards come at the end: ``reward="win"`` (default) gives the winners an equal share of 1
(co-winners split it) and everyone else 0; ``reward="score"`` gives every seat its final score.

Seeding: the first :meth:`reset` without a seed plays the game seeded ``seed`` (the constructor's),
the next ``seed + 1`` and so on; ``reset(seed=k)`` plays game seed ``k`` and continues from
``k + 1``. A game seed here is the engine's, so ``reset(seed=k)`` deals exactly the game that
``civtable simulate`` or ``games.get(id).new_game(players, k)`` would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from civtable import games
from civtable.core.api import State
from civtable.core.errors import InvalidOptionsError
from civtable.rl.action_map import ActionMap
from civtable.rl.encoders import ObservationEncoder, encoder_for

Observation = dict[str, np.ndarray]
REWARD_MODES = ("win", "score")
RENDER_MODES = ("human", "ansi")


class CivtableAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The AEC environment of one civtable game and player count (see the module doc)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it; instances refine "name")
        "render_modes": list(RENDER_MODES),
        "name": "civtable_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int,
        seed: int = 0,
        render_mode: str | None = None,
        reward: str = "win",
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.game = games.get(game_id)
        if not self.game.min_players <= players <= self.game.max_players:
            raise InvalidOptionsError(
                f"{self.game.name} is for {self.game.min_players} to {self.game.max_players} "
                f"players, not {players}"
            )
        if reward not in REWARD_MODES:
            raise InvalidOptionsError(f"reward must be one of {REWARD_MODES}, not {reward!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidOptionsError(
                f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}"
            )
        self.players = players
        self.game_options = dict(options or {})
        self.game.new_game(players, seed, self.game_options)  # validates the options early
        self.reward_mode = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"civtable_{game_id.replace('-', '_')}_v0"}
        self.encoder: ObservationEncoder = encoder_for(game_id, players, self.game_options)
        #: the environment's action numbering (``actions.to_engine(a)``: the engine's id)
        self.actions = ActionMap(self.game, players, self.game_options)
        self.n_actions = self.actions.size
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, self.encoder.high, (self.encoder.size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._next_seed = seed
        self.game_seed = seed
        self.state: State | None = None
        self.agents: list[str] = []

    # --- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (same, cached) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The (same, cached) action space of ``agent``: ``Discrete(n_actions)``."""
        return self.action_spaces[agent]

    # --- episode ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed``: the engine's game seed; ``options`` are ignored).

        Game options are fixed when the environment is made; ``options`` is accepted for the
        PettingZoo API only.
        """
        if seed is not None:
            self._next_seed = int(seed)
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.state = self.game.new_game(self.players, self.game_seed, self.game_options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self._first_to_move(self.state)]

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation vector and action mask (what ``view(seat)`` shows, encoded).

        Both arrays are new on every call: a caller may keep or change them.
        """
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before using the environment")
        seat = self._seat[agent]
        return {
            "observation": self.encoder.encode_state(state, seat),
            # the ids of view(seat)["legal"], in the environment's numbering
            "action_mask": self.actions.mask(state.legal_actions(seat)),
        }

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (if ``observe``), cumulative reward, termination,
        truncation and info (PettingZoo's ``last``, without its per-call checks)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` for an agent whose game is over).

        An illegal action raises :class:`~civtable.core.IllegalActionError` and changes nothing.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before using the environment")
        self._cumulative_rewards[agent] = 0.0
        state.apply(self._seat[agent], self.actions.to_engine(int(action)))
        if state.is_terminal():
            result = state.result()
            values = result.rewards() if self.reward_mode == "win" else result.scores
            for a in self.agents:
                self.rewards[a] = float(values[self._seat[a]])
                self.terminations[a] = True
                self.infos[a] = {"scores": list(result.scores), "winners": list(result.winners)}
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()
        else:
            # rewards come only at the end: mid-game they are all 0, nothing to accumulate
            self.agent_selection = self.possible_agents[self._first_to_move(state)]
        if self.render_mode == "human":
            self.render()

    # --- rendering --------------------------------------------------------------------------
    def render(self) -> str | None:
        """Text picture of the table as the selected agent sees it (the public table, its hand
        and its options; after the game, the spectator's table with the final scores).

        ``render_mode="ansi"`` returns it, ``"human"`` prints it; without a render mode a
        warning is logged and nothing is returned.
        """
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi' or 'human'"
            )
            return None
        state = self._require_state()
        seat = None if state.is_terminal() else self._seat[self.agent_selection]
        text = self.encoder.render(self.actions.env_view(state.view(seat)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # --- helpers ----------------------------------------------------------------------------
    def _first_to_move(self, state: State) -> int:
        """The lowest seat owing a decision (stops at the first, unlike ``to_move()``)."""
        owes = state.owes_decision
        for seat in range(self.players):
            if owes(seat):
                return seat
        raise RuntimeError("no seat owes a decision in a game that is not over")

    def _require_state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


__all__ = ["REWARD_MODES", "CivtableAECEnv"]
