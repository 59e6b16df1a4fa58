"""The heuristic bot: a fast greedy player that dispatches to a per-game module.

Each game that supports it ships ``civtable.games.<package>.heuristic`` (package = the game id
with ``-`` replaced by ``_``) exposing two functions:

* ``choose(state, seat, rng) -> int``: a legal action for ``seat``, from what the seat may know;
* ``evaluate(state, seat) -> float``: a cheap static estimate of the seat's chance to win, in
  ``[0, 1]`` (``1/players`` for an even position, the exact reward once the game is over).

Optional hooks used by the ISMCTS bot (:mod:`civtable.bots.ismcts`) when present:

* ``action_values(state, seat) -> dict[int, float]``: a value for every legal action of
  ``seat`` (higher is better), from what the seat may know; ranks root moves and orders
  progressive widening;
* ``playout_policy(state, seat, rng) -> int``: a cheaper stand-in for ``choose`` (it may be
  less exact), used for playouts and as the model of the other seats with ``policy=fast``
  (the default, ``policy=auto``, plays out with ``choose`` itself);
* ``search_clock(state, seat) -> int``: a count that grows as the game advances (Through the
  Ages: the turns ``seat`` has begun); cut-off playouts (``ISMCTS_CUTOFF``) count its ticks
  instead of decision rounds.

:func:`evaluation_for` returns that ``evaluate`` function, e.g. for cut-off rollouts in search.

>>> from civtable import games
>>> from civtable.bots import make_bot
>>> state = games.get("seven-wonders").new_game(players=3, seed=1)
>>> make_bot("heuristic", seed=2).choose(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from civtable.bots.base import Bot, UnknownBotError, register
from civtable.core.api import State
from civtable.core.errors import CivtableError

Evaluation = Callable[[State, int], float]


class NoHeuristicError(CivtableError, ValueError):
    """The game has no heuristic module (``civtable.games.<package>.heuristic``)."""


_MODULES: dict[str, ModuleType] = {}


def heuristic_module(game_id: str) -> ModuleType:
    """The heuristic module of ``game_id`` (found by convention, cached)."""
    hit = _MODULES.get(game_id)
    if hit is not None:
        return hit
    name = f"civtable.games.{game_id.replace('-', '_')}.heuristic"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            raise NoHeuristicError(
                f"no heuristic player for game {game_id!r} (expected module {name})"
            ) from exc
        raise
    for attr in ("choose", "evaluate"):
        if not callable(getattr(module, attr, None)):
            raise NoHeuristicError(f"{name} does not define {attr}()")
    _MODULES[game_id] = module
    return module


def evaluation_for(game_id: str) -> Evaluation:
    """The static evaluation of ``game_id``: ``evaluate(state, seat)`` in ``[0, 1]``."""
    evaluate: Evaluation = heuristic_module(game_id).evaluate
    return evaluate


class HeuristicBot(Bot):
    """A greedy one-ply player: the per-game heuristic picks the best-valued legal action.

    With ``epsilon`` > 0 (spec ``heuristic:eps=0.3``) it instead plays a uniformly random legal
    action with that probability: the *easy* difficulty level.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None:
        super().__init__(seed)
        self.epsilon = epsilon

    def choose(self, state: State, seat: int) -> int:
        """The heuristic's action for ``seat`` (deterministic given the bot's seed)."""
        if self.epsilon and self.rng.random() < self.epsilon:
            legal = state.legal_actions(seat)
            concede = state.game.concede_actions
            pool = [a for a in legal if a not in concede] or legal
            return pool[self.rng.randbelow(len(pool))]
        action: int = heuristic_module(state.game.id).choose(state, seat, self.rng)
        return action


def make_heuristic(arg: str, seed: int) -> HeuristicBot:
    """``heuristic`` or ``heuristic:eps=E`` (0 <= E <= 1)."""
    if not arg.strip():
        return HeuristicBot(seed)
    key, eq, value = arg.strip().partition("=")
    try:
        epsilon = float(value) if eq and key.strip().lower() == "eps" else float("nan")
    except ValueError:
        epsilon = float("nan")
    if not 0.0 <= epsilon <= 1.0:
        raise UnknownBotError(f"bad heuristic option {arg!r}: use heuristic or heuristic:eps=0.3")
    return HeuristicBot(seed, epsilon)


register("heuristic", make_heuristic)
