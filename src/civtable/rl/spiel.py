"""civtable games as OpenSpiel Python games (``pyspiel``), with explicit chance nodes.

:func:`load_game` registers ``python_civtable_<id>`` (e.g. ``python_civtable_seven_wonders``) on
first use and returns a :class:`CivtableGame`. The modelling choices:

* **Sequential, imperfect information.** Simultaneous decisions are serialized: the player to
  move is the lowest seat owing a decision, a seat's follow-up decision (a 7 Wonders payment
  choice) comes before the next seat, and each commitment stays hidden in the engine until the
  step resolves, so no seat observes another's pick of the same step.
* **Explicit chance** (``ChanceMode.EXPLICIT_STOCHASTIC``). The game's random draws are chance
  nodes produced by the game's :class:`~civtable.rl.chance.ChanceDriver` (7 Wonders: each board,
  each side, then every dealt card). The engine's own generator is not used after setup, so the
  OpenSpiel history (chance outcomes and actions) determines the state.
* **Terminal, constant-sum utility.** Returns are the engine's win rewards
  (:meth:`Result.rewards() <civtable.core.Result.rewards>`): the winners split 1, others get 0.
* **Observations** come only from ``state.view(seat)``: the observation tensor is the game's
  encoder vector, the observation string the encoder's canonical text of the view. The
  information-state string adds a digest of the seat's own trail (its observation and action at
  each of its past decisions), so two histories share an information state exactly when the
  seat saw and did the same; the information-state tensor is the observation vector (a Markov
  summary, not a perfect-recall encoding).
* :meth:`CivtableState.resample_from_infostate` (used by OpenSpiel's IS-MCTS) re-deals hidden
  cards with the engine's :meth:`~civtable.core.State.determinize`, which also re-makes the
  hidden choices of seats that already committed in the current step.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from civtable import games
from civtable.core.api import JSON, State
from civtable.core.errors import InvalidOptionsError
from civtable.core.rng import Rng
from civtable.rl.chance import ChanceDriver, driver_for
from civtable.rl.encoders import ObservationEncoder, encoder_for

#: game id -> (pyspiel.GameType, the registered CivtableGame subclass)
_REGISTERED: dict[str, tuple[Any, type[CivtableGame]]] = {}


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a civtable game.

    >>> short_name("seven-wonders")
    'python_civtable_seven_wonders'
    """
    return "python_civtable_" + game_id.replace("-", "_")


def _to_param(value: Any) -> Any:
    """A civtable option value as an OpenSpiel parameter (lists become comma-separated)."""
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return value


def _from_param(value: Any) -> Any:
    """Inverse of :func:`_to_param`: a string with commas becomes a list."""
    if isinstance(value, str) and "," in value:
        return value.split(",")
    return value


def default_params(game_id: str) -> dict[str, Any]:
    """The OpenSpiel parameters of a game with their defaults: ``players`` and the options."""
    game = games.get(game_id)
    params: dict[str, Any] = {"players": max(game.min_players, min(3, game.max_players))}
    params.update({k: _to_param(v) for k, v in game.default_options().items()})
    return params


def register(game_id: str) -> Any:
    """Register ``game_id`` with OpenSpiel (once) and return its ``pyspiel.GameType``."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id][0]
    game = games.get(game_id)
    params = default_params(game_id)
    game_type = pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"civtable {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )
    # The creator must be a class: pyspiel keeps it in a C++ static and releases it after the
    # interpreter is gone; a class (unlike a partial or a lambda) lives in a reference cycle, so
    # that release never deallocates it (which would abort the process at exit).
    name = f"CivtableGame_{game_id.replace('-', '_')}"
    creator = type(name, (CivtableGame,), {"game_id": game_id, "__module__": __name__})
    globals()[name] = creator  # findable by pickle
    pyspiel.register_game(game_type, creator)
    _REGISTERED[game_id] = (game_type, creator)
    return game_type


def load_game(game_id: str, players: int, options: Mapping[str, Any] | None = None) -> CivtableGame:
    """A :class:`CivtableGame` of ``game_id`` for ``players`` players (registering it first)."""
    register(game_id)
    params: dict[str, Any] = {"players": players}
    params.update({k: _to_param(v) for k, v in (options or {}).items()})
    return _REGISTERED[game_id][1](params)


@dataclass(frozen=True)
class GameSpec:
    """What a state needs to know about its game (shared, never copied)."""

    game_id: str
    players: int
    options: JSON

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSpec:
        return self

    @functools.cached_property
    def encoder(self) -> ObservationEncoder:
        """The observation encoder of the game."""
        return encoder_for(self.game_id, self.players, self.options)

    def new_driver(self) -> ChanceDriver:
        """A chance driver for a new game (setup decisions pending)."""
        return driver_for(self.game_id, self.players, self.options)


class CivtableGame(pyspiel.Game):  # type: ignore[misc]
    """A civtable game as a ``pyspiel.Game`` (see the module doc).

    :func:`register` makes one subclass per game id (setting :attr:`game_id`); build games with
    :func:`load_game` or ``pyspiel.load_game(short_name, params)``.
    """

    #: set by the per-game subclass that :func:`register` creates
    game_id: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        if not game_id:
            raise TypeError("use load_game(game_id, players) to build a CivtableGame")
        game_type = register(game_id)
        game = games.get(game_id)
        spec_params = default_params(game_id)
        given = dict(params or {})
        unknown = set(given) - set(spec_params)
        if unknown:
            raise InvalidOptionsError(
                f"unknown parameter(s) for {short_name(game_id)}: {', '.join(sorted(unknown))}"
            )
        players = int(given.get("players", spec_params["players"]))
        options = {k: _from_param(v) for k, v in given.items() if k != "players"}
        self.spec = GameSpec(game_id, players, options)
        driver = self.spec.new_driver()  # validates players and options
        info = pyspiel.GameInfo(
            num_distinct_actions=game.action_space_size(players, options),
            max_chance_outcomes=driver.max_outcomes,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=driver.max_game_length,
        )
        self.max_chance_nodes = driver.max_chance_nodes
        super().__init__(game_type, info, {**spec_params, **given, "players": players})

    def new_initial_state(self) -> CivtableState:
        """The state before setup's chance decisions."""
        return CivtableState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CivtableObserver:
        """An observer: the default observation, or the information state (perfect recall)."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {dict(params)}")
        recall = False
        if iig_obs_type is not None:
            if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not (
                iig_obs_type.public_info
            ):
                raise ValueError(
                    "only the seat's own view (public and own private information) is supported"
                )
            recall = bool(iig_obs_type.perfect_recall)
        return CivtableObserver(self.spec, recall)

    def max_chance_nodes_in_history(self) -> int:
        """An upper bound of the chance decisions in one game."""
        return self.max_chance_nodes


class _Core:
    """The Python side of a state: the chance driver (with the engine state) and the trails.

    ``pyspiel`` clones a Python state by deep-copying its attributes; :meth:`__deepcopy__`
    makes that a cheap engine copy.
    """

    __slots__ = ("driver", "trail")

    def __init__(self, driver: ChanceDriver, trail: list[bytes]) -> None:
        self.driver = driver
        self.trail = trail

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.driver.copy(), self.trail[:])


def _first_to_move(state: State) -> int:
    return next(s for s in range(state.players) if state.owes_decision(s))


class CivtableState(pyspiel.State):  # type: ignore[misc]
    """A civtable position as a ``pyspiel.State``."""

    def __init__(self, game: CivtableGame) -> None:
        super().__init__(game)
        self._spec = game.spec
        self._core_: _Core | None = None  # made on first use: cloning overwrites it

    @property
    def _core(self) -> _Core:
        core = self._core_
        if core is None:
            driver = self._spec.new_driver()
            core = self._core_ = _Core(driver, [b""] * self._spec.players)
        return core

    @property
    def engine(self) -> State | None:
        """The civtable engine state (``None`` before setup's chance decisions are done)."""
        return self._core.driver.state

    # --- the OpenSpiel state API ------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while something is being drawn, ``TERMINAL`` at the end."""
        driver = self._core.driver
        if driver.pending():
            return int(pyspiel.PlayerId.CHANCE)
        state = driver.state
        assert state is not None
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return _first_to_move(state)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.driver.state
        return [] if state is None else state.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the due chance decision with their probabilities."""
        return self._core.driver.outcomes()

    def _apply_action(self, action: int) -> None:
        core = self._core
        driver = core.driver
        if driver.pending():
            driver.apply(int(action))
            return
        state = driver.state
        assert state is not None
        seat = _first_to_move(state)
        seen = self._spec.encoder.text(state.view(seat)).encode()
        step = hashlib.blake2b(core.trail[seat], digest_size=16)
        step.update(seen)
        step.update(b"|%d" % action)
        core.trail[seat] = step.digest()
        state.apply(seat, int(action))
        driver.after_move()

    def _action_to_string(self, player: int, action: int) -> str:
        # labels alone may repeat (two card types share a name): the id keeps them unique
        driver = self._core.driver
        if player == pyspiel.PlayerId.CHANCE:
            return f"{driver.label(int(action))} [{action}]"
        state = driver.state
        label = "action" if state is None else state.describe(player, int(action))
        return f"{label} [{action}]"

    def is_terminal(self) -> bool:
        """True once the game is over."""
        driver = self._core.driver
        return not driver.pending() and driver.state is not None and driver.state.is_terminal()

    def returns(self) -> list[float]:
        """Win rewards at the end (winners split 1), zeros before."""
        if not self.is_terminal():
            return [0.0] * self._spec.players
        state = self._core.driver.state
        assert state is not None
        return [float(r) for r in state.result().rewards()]

    def rewards(self) -> list[float]:
        """Rewards of the last transition: the returns at the end, zeros before."""
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CivtableState:
        """A state with the same information state for ``player_id``, hidden cards re-dealt.

        Uses the engine's determinization, then lets the seats that committed earlier in this
        step (hidden from ``player_id``) commit again at random, so the same seat is to move.
        The returned state's OpenSpiel ``history()`` is empty: use it to search forward only.
        """
        core = self._core
        driver = core.driver
        state = driver.state
        if driver.pending() or state is None or state.is_terminal():
            raise ValueError("resampling is only defined at decision nodes")
        rng = Rng(int(probability_sampler() * (1 << 53)))
        world = state.determinize(player_id, rng)
        twin = self.get_game().new_initial_state()
        assert isinstance(twin, CivtableState)
        trail = [b"resampled"] * self._spec.players
        trail[player_id] = core.trail[player_id]
        twin._core_ = _Core(driver.with_state(world), trail)
        return twin

    def __str__(self) -> str:
        driver = self._core.driver
        state = driver.state
        if state is None:
            return f"{short_name(self._spec.game_id)} setup: {driver.progress()}"
        text = self._spec.encoder.render(state.view(None))
        if driver.pending():
            text += "\n" + driver.progress()
        return f"{text}\nstate {state.state_hash()}"


class CivtableObserver:
    """The PyObserver of a civtable game: ``tensor``/``dict``, ``set_from``, ``string_from``."""

    def __init__(self, spec: GameSpec, perfect_recall: bool) -> None:
        self.spec = spec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(spec.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CivtableState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation vector (zeros before setup)."""
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.spec.encoder.encode_state(engine, player)

    def string_from(self, state: CivtableState, player: int) -> str:
        """``player``'s observation string; with perfect recall, plus its trail digest."""
        engine = state.engine
        if engine is None:
            text = f"setup {state._core.driver.progress()}"
        else:
            text = self.spec.encoder.text(engine.view(player))
        if self.perfect_recall:
            text += " recall:" + state._core.trail[player].hex()
        return text


__all__ = [
    "CivtableGame",
    "CivtableObserver",
    "CivtableState",
    "GameSpec",
    "load_game",
    "register",
    "short_name",
]
