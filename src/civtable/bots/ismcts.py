"""Information-set Monte Carlo tree search ("ismcts"): a search bot for any civtable game.

The algorithm is single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 2012) written against the core API only:

* every iteration starts from ``state.determinize(seat, rng)``: what the searching seat cannot see
  (other hands, face-down cards, future decks, other seats' pending hidden commitments) is
  re-dealt, so other seats choose their current decision again in the sampled state;
* **the tree holds the searching seat's decisions only.** Other seats' decisions, in the tree
  phase and in playouts alike, are made by the playout policy (an opponent model: with
  ``policy=auto`` the game's heuristic player ``choose``, else uniform random;
  ``policy=heuristic`` requires ``choose``, ``policy=fast`` uses the heuristic module's cheaper
  ``playout_policy``). A node is therefore the searching
  seat's information set approximated by its own decision sequence; what other seats did in
  between is part of the sampled environment. This keeps the branching factor of simultaneous
  steps (every seat picks at once) out of the tree and needs no serialization of the step: no
  node ever depends on another seat's hidden choice;
* children are selected by UCB1 with **availability counts** (a child's exploration term uses the
  number of visits in which its action was legal, not the parent's visits), because the legal
  actions of a node differ between determinizations;
* **progressive widening** (progressive unpruning, Chaslot et al. 2008): when a node has more
  than ``pw_min`` legal actions, only the ``ceil(pw_c * visits ** pw_alpha)`` best-ranked ones
  are considered. Actions are ranked by the game's heuristic action values when it has them
  (``action_values(state, seat)`` in its heuristic module), else in a random order;
* the tree is cut at depth ``d`` (``d=auto``: 1 with paired root sampling, else unlimited):
  below it the searching seat's own decisions are made by the policy as well;
* **playouts** are played by the policy to the end of the game by default (``k=auto``: the
  game's ``ISMCTS_CUTOFF`` in its heuristic module if it has one — Through the Ages, whose full
  games are long — else ``k=end``). With ``k=K`` they are cut off: after the round in which a
  node was added, ``K`` more rounds are played and the game's evaluation
  (:func:`civtable.bots.heuristic.evaluation_for`) scores the position; a game without an
  evaluation is always played out to the end (random playouts when it has no heuristic either).
  A *round* is every seat of a :meth:`~civtable.core.State.to_move` snapshot finishing its
  decision (a payment choice following a build belongs to the same decision), so a simultaneous
  step has resolved when a round ends. A game whose heuristic module defines
  ``search_clock(state, seat) -> int`` counts the rounds of a cut-off in its ticks instead
  (``kclock=auto``; ``kclock=rounds`` ignores it): the playout stops once the clock has
  advanced by more than ``K`` since the expansion. Through the Ages counts the searching
  seat's turns, so ``k=0`` stops at the start of its next turn, every root move being
  evaluated at the same point of the game whatever number of actions it took. With one seat
  to move a round is every single action; ``kunit=turn`` counts turns instead: a round ends
  where the seats to move change, so a playout is cut off where a seat's turn begins, never
  in the middle of one (Deus);
* the reward is, by default (``reward=margin``), a logistic of the searching seat's final score
  margin over the best other seat (``1 / (1 + exp(-margin / 5))``), with ``reward=rank`` the
  mean over the other seats of that logistic of the margin over each, or with ``reward=win``
  :meth:`Result.rewards` (a shared victory split among the co-winners); cut-off positions are
  scored by the evaluation (a win-chance estimate in ``[0, 1]``);
* **paired root sampling** (``paired=auto``: on when the game ranks its actions): the root
  considers the ``top`` (default 6) best-ranked moves only, and each determinization, together
  with the playout randomness, is used once for every one of them (common random numbers), so
  the moves are compared on the same deals. The other seats' decisions of the current
  simultaneous step, which cannot depend on the searching seat's, are made once per deal and
  shared by the root moves too. With ``d=auto`` this is a rollout search (each root move
  followed by the policy for everybody), i.e. one step of policy improvement over the policy.
  **Racing** (``race=2``): after ``racemin`` (8) complete deals, a root move whose paired mean
  reward is below the best one's by more than ``race`` standard errors of the per-deal
  differences is dropped, and its share of the budget goes to the others; the search ends when
  one move is left. The move played is the remaining root move with the best mean reward,
  except that the ranking's favourite is kept unless another move's mean beats it by more than
  ``keep + kz * SE`` (defaults ``keep=0``, ``kz=0.5``; SE from the per-deal differences);
  without pairing (``paired=off``, or no ranking) it is the most visited root child, selected
  by UCB with availability counts.

Why these defaults (4-player 7 Wonders against heuristic bots; commands and figures in
``benchmarks/README.md``): 40 positions of heuristic games, the heuristic's 6 best-ranked moves
each played out on the same 500 deals (``benchmarks/ismcts.py roots``), root rules replayed on
300 of the deals and valued on the other 200 (``rules``). With ``choose`` rollouts the chance to
win gained per decision over the heuristic's own move is +2.1 % with the former default (top 3,
``keep=0.01``) and +2.5 % with top 6, racing and ``kz=0.5`` (difference +0.4 ± 0.4); 150 / 300
/ 600 rollouts give +2.4 / +2.5 / +2.7 %: the budget matters less than the candidates. The
opponent model matters most: choices made on ``playout_policy`` rollouts but valued on
``choose`` rollouts (what heuristic opponents play) gain only +0.2 % (former default) / +1.1 %
(top 6, racing); ``choose`` rollouts cost about 1.2x more.
Earlier findings kept: cut-off playouts scored by the static evaluation lose clearly (mean score
38.5 against the heuristic bots' 48.0 at 100 iterations, ``k=1``: it ignores what production
and chains will be worth); plain UCB at the root is level with the heuristic; the reward
variants (``margin``, ``rank``, ``win``) differ by less than the noise of these measures.

Speed: iterations apply actions with the state's unchecked ``_apply`` (they come from
``legal_actions``), deals are shared by the paired root moves, and the prior ranks actions
only near the root (``pd``, default 1: the root). Iterations per second depend mostly on the
playout: full playouts run at a few hundred per second in 4-player 7 Wonders,
``k=0:policy=random`` at a few thousand (see ``benchmarks/README.md``).

With an iteration budget the bot is deterministic for its seed; with a time budget the
iteration count depends on the machine (and, with the default wall clock, on its load).

Bot specs (``make_bot``): ``ismcts`` (1 second), ``ismcts:1s``, ``ismcts:200ms``,
``ismcts:500i`` (500 iterations), followed by ``:key=value`` options, e.g.
``ismcts:300i:k=2:policy=random:c=0.7:reward=win:pw=off:eps=0.1:paired=off:top=5:keep=0:pd=2``
or ``ismcts:300i:top=4:race=off:kz=1:d=end`` (``policy`` is one of ``auto``, ``heuristic``,
``fast``, ``random``; ``race=off`` disables racing; ``d=end`` removes the depth limit).
``ismcts:1s:clock=cpu`` counts a time budget in the process's CPU time instead of wall time, so
that a benchmark on a machine shared with other jobs searches as much as on an idle core.
A game's heuristic module may set ``ISMCTS_SETTINGS`` (options in the same form, e.g.
``"k=3:top=4"``): its search defaults, used for every option a spec does not name
(:func:`game_config`), and ``ISMCTS_PLAYER_SETTINGS`` (a dict from a player count to options
in that form) that apply over them in games of that many seats. ``ISMCTS_EVALUATIONS`` (a dict
from a name to an evaluation ``(state, seat) -> [0, 1]``) names other cut-off evaluations than
``evaluate``, chosen with ``eval=NAME``. It may also define
``search_worthy(state, seat) -> bool``: with ``sd=auto`` (the default) :meth:`IsmctsBot.choose`
searches only the decisions it accepts and plays the policy's move on a determinization
elsewhere (Civilization searches its focus-card choices, the turn's strategic decision; Deus the
main choice of a turn); ``sd=all`` searches every decision.

>>> from civtable import games
>>> state = games.get("seven-wonders").new_game(players=3, seed=4)
>>> bot = make_ismcts("20i", seed=1)
>>> bot.choose(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from civtable.bots.base import Bot, UnknownBotError, register
from civtable.bots.heuristic import Evaluation, NoHeuristicError, heuristic_module
from civtable.core.api import JSON, State
from civtable.core.rng import Rng

#: a playout policy: ``policy(state, seat, rng) -> action``
Policy = Callable[[State, int, Rng], int]
#: a game's search clock: ``search_clock(state, seat) -> int``, growing as the game advances
SearchClock = Callable[[State, int], int]
#: a prior over the legal actions: ``prior(state, seat) -> {action: value}`` (higher is better)
Prior = Callable[[State, int], dict[int, float]]

#: ``IsmctsConfig.cutoff`` value meaning "the game's default" (``k=auto``)
AUTO_CUTOFF = -1

#: ``IsmctsConfig.tree_depth`` value meaning "1 when paired, else unlimited" (``d=auto``)
AUTO_DEPTH = -1

#: points of score margin that move the ``margin`` reward from 0.5 to about 0.73
MARGIN_SCALE = 5.0


@dataclass(frozen=True)
class IsmctsConfig:
    """Search parameters. Exactly one of ``iterations`` and ``seconds`` is the budget."""

    iterations: int | None = None
    seconds: float | None = 1.0
    #: UCB exploration constant (rewards are in [0, 1])
    exploration: float = 0.7
    #: rounds played by the policy after the expansion round before evaluating; None = to the
    #: end; AUTO_CUTOFF = the game's ``ISMCTS_CUTOFF`` (heuristic module), else to the end
    cutoff: int | None = AUTO_CUTOFF
    #: playout policy and opponent model: "auto" (the game's heuristic ``choose``, else
    #: random), "heuristic" (``choose``, required), "fast" (its cheaper ``playout_policy``),
    #: "random"
    policy: str = "auto"
    #: probability that a policy decision is uniformly random instead (playout diversity)
    epsilon: float = 0.0
    #: cut-off evaluation: "auto" (the game's ``evaluate``, if any), "none" (always play to
    #: the end) or the name of another evaluation in the game's ``ISMCTS_EVALUATIONS``
    evaluation: str = "auto"
    #: "win" (Result.rewards), "margin" (logistic of the score margin over the best other seat)
    #: or "rank" (mean over the other seats of the logistic of the margin over each)
    reward: str = "margin"
    #: progressive widening on/off, and its parameters
    widening: bool = True
    pw_c: float = 1.5
    pw_alpha: float = 0.4
    pw_min: int = 6
    #: rank actions by the game's heuristic action values ("auto") or randomly ("none")
    prior: str = "auto"
    #: paired root sampling: each determinization (and playout randomness) is shared by one
    #: iteration of each of the ``top`` best-ranked root moves (common random numbers)
    #: ("auto": on when the game has a prior, "on", "off")
    paired: str = "auto"
    top: int = 6
    #: paired mode: keep the best-ranked root move unless another's mean reward beats it by more
    #: than this (the ranking is a prior; small differences are mostly sampling noise)
    keep: float = 0.0
    #: tree depth (root = 0) down to which the prior ranks a node's actions; deeper nodes
    #: (visited rarely, their actions differing between deals) rank them at random
    prior_depth: int = 1
    #: paired mode: the favourite is kept unless another move's mean beats it by more than
    #: ``keep + keep_z * SE``, SE the standard error of the paired per-deal differences
    keep_z: float = 0.5
    #: paired mode, racing: after ``race_min`` deals a root move whose paired mean is below the
    #: best one's by more than ``race_z`` standard errors is dropped, its share of the budget
    #: going to the others (None: no racing; the search stops when one move is left)
    race_z: float | None = 2.0
    race_min: int = 8
    #: deepest tree node (root = 0): below it the searching seat's decisions are made by the
    #: playout policy too; None = no limit; AUTO_DEPTH = 1 with paired root sampling (a rollout
    #: search: every deal compares the root moves, each followed by the policy), else no limit
    tree_depth: int | None = AUTO_DEPTH
    #: what a time budget counts: "wall" (elapsed time, what a player waits) or "cpu" (the
    #: process's CPU time, ``time.process_time``: the same search on a machine shared with
    #: other jobs as on an idle core)
    clock: str = "wall"
    #: which decisions :meth:`IsmctsBot.choose` searches: "auto" (those the game's
    #: ``search_worthy`` hook accepts, every one without the hook; the others get the playout
    #: policy's move on a determinization) or "all"
    searched: str = "auto"
    #: what the rounds of a cut-off (``k``) count: "auto" (the game's ``search_clock`` ticks
    #: if its heuristic module has one, e.g. the searching seat's turns, else to_move
    #: snapshots) or "rounds" (to_move snapshots)
    cut_clock: str = "auto"
    #: what the cut-off ``k`` counts: "decision" (a :meth:`~State.to_move` snapshot; with one
    #: seat to move, every action) or "turn" (a round ends when the seats to move change, so
    #: the follow-up decisions of a turn belong to it and a playout is always cut off where a
    #: seat's turn begins)
    cutoff_unit: str = "decision"
    #: the options the spec named (``parse_spec``); a game's ``ISMCTS_SETTINGS`` fills in the
    #: others
    explicit: frozenset[str] = frozenset()

    def describe(self) -> str:
        """A short text form, e.g. ``"500 iterations, k=1, policy=auto"``."""
        budget = (
            f"{self.iterations} iterations"
            if self.iterations is not None
            else f"{self.seconds:g} s per decision" + (" (CPU time)" if self.clock == "cpu" else "")
        )
        k = "end" if self.cutoff is None else "auto" if self.cutoff < 0 else str(self.cutoff)
        race = "off" if self.race_z is None else f"{self.race_z:g}"
        paired = (
            f", paired={self.paired} top={self.top} keep={self.keep:g} kz={self.keep_z:g}"
            f" race={race}"
        )
        d = {None: "end", AUTO_DEPTH: "auto"}.get(self.tree_depth, str(self.tree_depth))
        extra = (", sd=all" if self.searched == "all" else "") + (
            ", kunit=turn" if self.cutoff_unit == "turn" else ""
        )
        extra += ", kclock=rounds" if self.cut_clock == "rounds" else ""
        return f"{budget}, k={k}, d={d}, policy={self.policy}, reward={self.reward}{paired}{extra}"


def parse_spec(arg: str) -> IsmctsConfig:
    """Parse the part of a bot spec after ``ismcts:`` (see the module docstring).

    >>> parse_spec("200ms").seconds
    0.2
    >>> parse_spec("500i:k=end:policy=random").cutoff is None
    True
    """
    config = IsmctsConfig()
    parts = [p.strip() for p in arg.split(":")] if arg.strip() else []
    if parts and "=" not in parts[0]:
        config = replace(config, **_parse_budget(parts.pop(0)))
    return _with_options(config, parts, explicit=True)


def _with_options(config: IsmctsConfig, parts: list[str], *, explicit: bool) -> IsmctsConfig:
    """``config`` with the ``key=value`` options ``parts``; with ``explicit`` they are recorded
    as the spec's own, else (a game's defaults) options the spec named are left alone."""
    named = set(config.explicit)
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            raise UnknownBotError(f"ismcts option {part!r} is not key=value")
        fields = _parse_option(key.strip().lower(), value.strip().lower())
        if not explicit:
            fields = {k: v for k, v in fields.items() if k not in config.explicit}
        config = replace(config, **fields)
        if explicit:
            named.update(fields)
    return replace(config, explicit=frozenset(named))


def game_config(config: IsmctsConfig, module: object, players: int | None = None) -> IsmctsConfig:
    """``config`` completed with the game's search settings: ``ISMCTS_SETTINGS`` in its
    heuristic module, options in the spec's ``key=value`` form (e.g. ``"k=3:top=4"``), used for
    every option the spec itself did not name; then, for a game of ``players`` seats, the
    options of ``ISMCTS_PLAYER_SETTINGS[players]`` (a dict, if the module has one) over them.

    >>> class Game:
    ...     ISMCTS_SETTINGS = "top=4:c=1.0"
    >>> cfg = game_config(parse_spec("10i:top=2"), Game)
    >>> (cfg.top, cfg.exploration)
    (2, 1.0)
    """
    settings = getattr(module, "ISMCTS_SETTINGS", "")
    by_players = getattr(module, "ISMCTS_PLAYER_SETTINGS", None)
    if players is not None and isinstance(by_players, dict):
        settings = f"{settings}:{by_players.get(players, '')}"
    parts = (
        [p.strip() for p in settings.split(":") if p.strip()] if isinstance(settings, str) else []
    )
    if not parts:
        return config
    return _with_options(config, parts, explicit=False)


def _parse_budget(text: str) -> dict[str, Any]:
    t = text.lower()
    try:
        if t.endswith("ms"):
            seconds = float(t[:-2]) / 1000.0
        elif t.endswith("s"):
            seconds = float(t[:-1])
        elif t.endswith("i"):
            iterations = int(t[:-1])
            if iterations < 1:
                raise ValueError
            return {"iterations": iterations, "seconds": None}
        else:
            raise ValueError
    except ValueError:
        raise UnknownBotError(
            f"bad ismcts budget {text!r}: use e.g. 1s, 200ms or 500i (iterations)"
        ) from None
    if not 0 < seconds < float("inf"):
        raise UnknownBotError(f"bad ismcts budget {text!r}: must be a positive, finite time")
    return {"iterations": None, "seconds": seconds}


def _parse_option(key: str, value: str) -> dict[str, Any]:
    def number(lo: float, hi: float) -> float:
        try:
            x = float(value)
        except ValueError:
            raise UnknownBotError(f"ismcts option {key}={value!r} is not a number") from None
        if not lo <= x <= hi:
            raise UnknownBotError(f"ismcts option {key}={value} is out of range [{lo}, {hi}]")
        return x

    def one_of(*choices: str) -> str:
        if value not in choices:
            raise UnknownBotError(f"ismcts option {key}={value!r}: use one of {', '.join(choices)}")
        return value

    if key == "c":
        return {"exploration": number(0.0, 100.0)}
    if key == "k":
        if value in ("end", "none"):
            return {"cutoff": None}
        if value == "auto":
            return {"cutoff": AUTO_CUTOFF}
        return {"cutoff": int(number(0, 10_000))}
    if key == "policy":
        return {"policy": one_of("auto", "heuristic", "fast", "random")}
    if key == "eps":
        return {"epsilon": number(0.0, 1.0)}
    if key == "eval":
        if not value or not all(ch.isalnum() or ch == "_" for ch in value):
            raise UnknownBotError(
                f"ismcts option eval={value!r}: use auto, none or the name of one of the "
                "game's evaluations"
            )
        return {"evaluation": value}
    if key == "reward":
        return {"reward": one_of("win", "margin", "rank")}
    if key == "pw":
        return {"widening": one_of("on", "off") == "on"}
    if key == "pwc":
        return {"pw_c": number(0.1, 1000.0)}
    if key == "pwa":
        return {"pw_alpha": number(0.0, 1.0)}
    if key == "pwmin":
        return {"pw_min": int(number(1, 10_000))}
    if key == "prior":
        return {"prior": one_of("auto", "none")}
    if key == "paired":
        return {"paired": one_of("auto", "on", "off")}
    if key == "top":
        return {"top": int(number(1, 10_000))}
    if key == "keep":
        return {"keep": number(0.0, 1.0)}
    if key == "pd":
        return {"prior_depth": int(number(0, 10_000))}
    if key == "kz":
        return {"keep_z": number(0.0, 100.0)}
    if key == "race":
        if value in ("off", "none"):
            return {"race_z": None}
        return {"race_z": number(0.0, 100.0)}
    if key == "racemin":
        return {"race_min": int(number(2, 1_000_000))}
    if key == "d":
        if value in ("end", "none", "inf"):
            return {"tree_depth": None}
        if value == "auto":
            return {"tree_depth": AUTO_DEPTH}
        return {"tree_depth": int(number(1, 10_000))}
    if key == "clock":
        return {"clock": one_of("wall", "cpu")}
    if key == "sd":
        return {"searched": one_of("auto", "all")}
    if key == "kclock":
        return {"cut_clock": one_of("auto", "rounds")}
    if key == "kunit":
        return {"cutoff_unit": one_of("decision", "turn")}
    raise UnknownBotError(
        f"unknown ismcts option {key!r} (options: c, k, policy, eps, eval, reward, pw, pwc, pwa, "
        "pwmin, prior, paired, top, keep, kz, race, racemin, pd, d, clock, sd, kclock, kunit)"
    )


class _Node:
    """A tree node: the statistics of the edge leading to it and its children by action."""

    __slots__ = ("avail", "children", "rank", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        #: action -> sort key for widening and expansion order (lower first)
        self.rank: dict[int, float] = {}


@dataclass(frozen=True)
class MoveStat:
    """One root move of a search: its visits and mean reward (the estimated win rate)."""

    action: int
    label: str
    visits: int
    win_rate: float

    def to_json(self) -> JSON:
        """JSON-ready form."""
        return {
            "action": self.action,
            "label": self.label,
            "visits": self.visits,
            "win_rate": round(self.win_rate, 4),
        }


@dataclass
class SearchStats:
    """What the last search did: iterations, time, and the root moves by visits."""

    iterations: int = 0
    seconds: float = 0.0
    moves: list[MoveStat] = field(default_factory=list)

    @property
    def iterations_per_second(self) -> float:
        """Search speed."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


def _random_policy(state: State, seat: int, rng: Rng) -> int:
    return rng.choice(state.legal_actions(seat))


class IsmctsBot(Bot):
    """Single-observer ISMCTS with availability counts, widening and cut-off playouts."""

    name = "ismcts"

    def __init__(self, config: IsmctsConfig | None = None, seed: int = 0) -> None:
        super().__init__(seed)
        self.config = config or IsmctsConfig()
        #: the configuration in use: ``config`` completed by the bound game's settings
        self.cfg = self.config
        if self.config.iterations is None and self.config.seconds is None:
            raise UnknownBotError("an ismcts bot needs an iteration or a time budget")
        self.last: SearchStats = SearchStats()
        self._game_id: tuple[str, int | None] | None = None
        self._policy: Policy = _random_policy
        self._evaluation: Evaluation | None = None
        self._cutoff: int | None = None
        self._prior: Prior | None = None
        self._paired = False
        self._max_depth: float = math.inf
        self._worthy: Callable[[State, int], bool] | None = None
        self._search_clock: SearchClock | None = None

    def __repr__(self) -> str:
        return f"IsmctsBot({self.config.describe()})"

    # --- game-specific helpers, resolved once per game ------------------------------------------
    def _bind(self, game_id: str, players: int | None = None) -> None:
        """Resolve the game's helpers and settings (``players``: those of that player count
        too, ``ISMCTS_PLAYER_SETTINGS``); kept until another game or count is bound."""
        if self._game_id == (game_id, players):
            return
        try:
            module = heuristic_module(game_id)
        except NoHeuristicError:
            module = None
        cfg = self.cfg = game_config(self.config, module, players)
        if cfg.policy == "heuristic" and module is None:
            raise UnknownBotError(f"ismcts policy=heuristic: game {game_id!r} has no heuristic")
        if cfg.policy == "fast" and not callable(getattr(module, "playout_policy", None)):
            raise UnknownBotError(f"ismcts policy=fast: game {game_id!r} has no playout_policy")
        base: Policy = _random_policy
        if module is not None and cfg.policy in ("auto", "heuristic", "fast"):
            base = module.choose
            fast = getattr(module, "playout_policy", None)
            if cfg.policy == "fast" and callable(fast):
                base = fast
        eps = cfg.epsilon
        if eps > 0.0 and base is not _random_policy:

            def mixed(state: State, seat: int, rng: Rng, _base: Policy = base) -> int:
                if rng.random() < eps:
                    return rng.choice(state.legal_actions(seat))
                return _base(state, seat, rng)

            self._policy = mixed
        else:
            self._policy = base
        self._cutoff = cfg.cutoff
        if self._cutoff is not None and self._cutoff < 0:  # k=auto
            game_k = getattr(module, "ISMCTS_CUTOFF", None)
            self._cutoff = int(game_k) if isinstance(game_k, int) else None
        self._evaluation = None
        if module is not None and cfg.evaluation == "auto":
            self._evaluation = module.evaluate
        elif cfg.evaluation not in ("auto", "none"):
            named = getattr(module, "ISMCTS_EVALUATIONS", None)
            evaluation = named.get(cfg.evaluation) if isinstance(named, dict) else None
            if not callable(evaluation):
                known = ["auto", "none", *(sorted(named) if isinstance(named, dict) else ())]
                raise UnknownBotError(
                    f"ismcts eval={cfg.evaluation}: game {game_id!r} has no such evaluation"
                    f" (use {', '.join(known)})"
                )
            self._evaluation = evaluation
        prior = getattr(module, "action_values", None) if cfg.prior == "auto" else None
        self._prior = prior if callable(prior) else None
        self._paired = cfg.paired == "on" or (cfg.paired == "auto" and self._prior is not None)
        game_clock = getattr(module, "search_clock", None) if cfg.cut_clock == "auto" else None
        self._search_clock = game_clock if callable(game_clock) else None
        depth = cfg.tree_depth
        if depth == AUTO_DEPTH:
            depth = 1 if self._paired else None
        self._max_depth = math.inf if depth is None else depth
        worthy = getattr(module, "search_worthy", None) if cfg.searched == "auto" else None
        self._worthy = worthy if callable(worthy) else None
        self._game_id = (game_id, players)

    def check_game(self, game_id: str, players: int | None = None) -> None:
        """Resolve the spec's options for ``game_id`` (and ``players``) now: an option naming
        something the game lacks (``eval=NAME``, ``policy=heuristic`` or ``policy=fast``) raises
        :class:`UnknownBotError` here, before play, instead of at the first decision."""
        self._bind(game_id, players)

    # --- the bot interface ---------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> int:
        """The best root move of a search from ``seat``'s information set: the best mean
        reward with paired root sampling, else the most visited."""
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no decision to make now")
        if len(legal) == 1:
            return legal[0]
        self._bind(state.game.id, state.players)
        if self._worthy is not None and not self._worthy(state, seat):
            # Not searched (sd=auto): the policy's move, on a sample of what the seat may know.
            rng = self.rng.fork()
            self.last = SearchStats()
            a = self._policy(state.determinize(seat, rng), seat, rng)
            if a in legal:  # (always, where hidden cards do not change the seat's options)
                return a
        self._search(state, seat)
        return self.last.moves[0].action if self.last.moves else legal[0]

    def explain(self, state: State, seat: int, top: int = 5) -> list[MoveStat]:
        """Search from ``seat``'s view and return the ``top`` root moves with their visits and
        estimated win rates (mean rewards), best first: the first is the move :meth:`choose`
        plays. (With ``reward=margin`` the mean reward is a win-likelihood score in ``[0, 1]``
        rather than a frequency.)
        """
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no decision to make now")
        self._search(state, seat)
        return self.last.moves[:top]

    # --- search --------------------------------------------------------------------------------
    def _search(self, state: State, seat: int) -> _Node:
        self._bind(state.game.id, state.players)
        cfg = self.cfg
        rng = self.rng.fork()
        root = _Node()
        clock = time.process_time if cfg.clock == "cpu" else time.perf_counter
        start = clock()
        deadline = start + cfg.seconds if cfg.seconds is not None else math.inf
        limit = cfg.iterations if cfg.iterations is not None else math.inf
        n = 0
        race: _Race | None = None
        if self._paired and len(state.legal_actions(seat)) > 1:
            race = _Race(self._root_moves(root, state, seat, rng))
            racing = cfg.race_z is not None and len(race.active) > 1
            while n < limit and (n == 0 or clock() < deadline):
                if racing and len(race.active) == 1:
                    break  # every other candidate was clearly worse
                sample = state.determinize(seat, rng)
                playout = rng.fork()
                # The other seats' decisions of a simultaneous step do not depend on ours:
                # taken once per deal, they are shared by every root move (common numbers).
                self._others_decide(sample, seat, playout)
                sample.legal_actions(seat)  # cached once for the copies (where the state keeps it)
                rewards: dict[int, float] = {}
                for a in race.active:
                    rewards[a] = self._iterate(root, sample.copy(), seat, playout.copy(), first=a)
                    n += 1
                    if n >= limit or clock() >= deadline:
                        break
                if len(rewards) == len(race.active):  # a complete deal
                    race.add(rewards)
                    if racing and race.deals >= cfg.race_min:
                        race.eliminate(cfg.race_z or 0.0)
        else:
            while n < limit:
                self._iterate(root, state.determinize(seat, rng), seat, rng)
                n += 1
                if clock() >= deadline:
                    break
        elapsed = clock() - start
        self.last = SearchStats(n, elapsed, self._move_stats(root, state, seat, race))
        return root

    def _others_decide(self, d: State, seat: int, rng: Rng) -> None:
        """Let the policy make the current decisions of the seats deciding alongside ``seat``.

        Only while ``seat`` itself still owes its decision, so the step cannot resolve here.
        """
        movers = d.to_move()
        if len(movers) < 2:
            return
        policy = self._policy
        for s in movers:
            if s == seat:
                continue
            while d.owes_decision(s) and d.owes_decision(seat):
                legal = d.legal_actions(s)
                d._apply(s, legal[0] if len(legal) == 1 else policy(d, s, rng))

    def _root_moves(self, root: _Node, state: State, seat: int, rng: Rng) -> list[int]:
        """The ``top`` best-ranked root moves (paired mode)."""
        legal = state.legal_actions(seat)
        values = None
        if self._prior is not None:  # ranked on a sample: nothing hidden can leak into it
            values = self._prior(state.determinize(seat, rng), seat)
        for a in legal:
            if values is not None and a in values:
                root.rank[a] = -values[a] + 1e-9 * rng.random()
            else:
                root.rank[a] = rng.random() + (1e6 if values is not None else 0.0)
        return sorted(legal, key=root.rank.__getitem__)[: self.cfg.top]

    def _move_stats(
        self, root: _Node, state: State, seat: int, race: _Race | None = None
    ) -> list[MoveStat]:
        legal = state.legal_actions(seat)
        if len(legal) == 1:  # a forced move makes no node: the root value is its value
            a = legal[0]
            return [MoveStat(a, state.describe(seat, a), root.visits, _mean(root))]
        if self._paired:  # moves still racing first, then best mean

            def key(a: int) -> tuple[float, float, float, int]:
                dropped = race is not None and a not in race.active
                return (float(dropped), -_mean(root.children[a]), -root.children[a].visits, a)
        else:

            def key(a: int) -> tuple[float, float, float, int]:
                return (0.0, -root.children[a].visits, -_mean(root.children[a]), a)

        order = sorted((a for a in root.children if a in legal), key=key)
        if self._paired and order and root.rank:
            # Keep the prior's favourite unless the search found something clearly better.
            ranked = min(order, key=root.rank.__getitem__)
            if ranked != order[0] and (race is None or ranked in race.active):
                gap = _mean(root.children[order[0]]) - _mean(root.children[ranked])
                margin = self.cfg.keep
                if race is not None and self.cfg.keep_z > 0.0:
                    gap, se = race.difference(order[0], ranked)
                    margin += self.cfg.keep_z * se
                if gap <= margin:
                    order.remove(ranked)
                    order.insert(0, ranked)
        return [
            MoveStat(a, state.describe(seat, a), root.children[a].visits, _mean(root.children[a]))
            for a in order
        ]

    def _iterate(
        self, root: _Node, d: State, seat: int, rng: Rng, first: int | None = None
    ) -> float:
        """One iteration on the determinization ``d``: descend/expand, play out, back up;
        returns the reward.

        ``first``: the root move to take (paired mode) instead of selecting one. Actions come
        from ``legal_actions`` (or the policy, which picks among them), so they are applied
        with the state's unchecked ``_apply``; ``d`` is a private sample, its history unused.
        """
        node = root
        path = [root]
        in_tree = True
        max_depth = self._max_depth
        cutoff = self._cutoff if self._evaluation is not None else None
        rounds_after = 0
        # With the game's search clock, the rounds of a cut-off are its ticks (e.g. turns of
        # the searching seat) since the expansion instead of to_move snapshots.
        search_clock = self._search_clock
        start = 0
        by_turn = self.cfg.cutoff_unit == "turn"
        previous: tuple[int, ...] = ()
        policy = self._policy
        apply = d._apply
        legal_actions = d.legal_actions
        owes = d.owes_decision
        # A concession (Through the Ages' resignation) is a loss whatever the score margin, so
        # it never looks attractive to the search: the iteration ends there with reward 0.
        concede = d.game.concede_actions
        conceded = False
        while not conceded and not d.is_terminal():
            if not in_tree and cutoff is not None:
                if search_clock is None:
                    if rounds_after > cutoff:
                        break
                elif search_clock(d, seat) - start > cutoff:
                    break
            movers = d.to_move()
            if not movers:
                break
            if by_turn:  # a round ends where the seats to move change (kunit=turn)
                if not in_tree and movers != previous:
                    rounds_after += 1
                    if cutoff is not None and rounds_after > cutoff:
                        break
                previous = movers
            single = len(movers) == 1
            for i, s in enumerate(movers):
                while True:
                    legal = legal_actions(s)
                    if not legal:
                        break
                    if len(legal) == 1:
                        a = legal[0]
                    elif in_tree and s == seat:
                        if first is not None:
                            a, node, expanded = self._take(node, first)
                            first = None
                        else:
                            a, node, expanded = self._select(
                                node, d, seat, legal, rng, len(path) - 1
                            )
                        path.append(node)
                        in_tree = not expanded and len(path) <= max_depth
                        if not in_tree and search_clock is not None:
                            start = search_clock(d, seat)
                    else:
                        a = policy(d, s, rng)
                    if s == seat and a in concede:
                        conceded = True
                        break
                    apply(s, a)
                    # Keep deciding for s only while its decision continues (a payment after a
                    # build); stop when the step resolved (an earlier mover owes again).
                    if single or not owes(s):
                        break
                    if i and any(owes(o) for o in movers[:i]):
                        break
                if conceded:
                    break
            if not in_tree and not by_turn:
                rounds_after += 1
        reward = 0.0 if conceded else self._reward(d, seat)
        for n in path:
            n.visits += 1
            n.total += reward
        return reward

    def _reward(self, d: State, seat: int) -> float:
        if not d.is_terminal():
            assert self._evaluation is not None
            return float(self._evaluation(d, seat))
        result = d.result()
        kind = self.cfg.reward
        if kind == "win":
            return result.rewards()[seat]
        mine = result.scores[seat]
        others = [x for s, x in enumerate(result.scores) if s != seat]
        if not others:
            return 0.5
        if kind == "rank":  # the expected share of the other seats beaten, smoothed
            return sum(_logistic((mine - x) / MARGIN_SCALE) for x in others) / len(others)
        return _logistic((mine - max(others)) / MARGIN_SCALE)

    @staticmethod
    def _take(node: _Node, action: int) -> tuple[int, _Node, bool]:
        """Follow (or add) the child of ``action``."""
        child = node.children.get(action)
        if child is None:
            child = node.children[action] = _Node()
            return action, child, True
        return action, child, False

    def _select(
        self, node: _Node, d: State, seat: int, legal: list[int], rng: Rng, depth: int
    ) -> tuple[int, _Node, bool]:
        """Pick a child among ``legal``: expand the best-ranked unvisited candidate, else UCB."""
        cfg = self.cfg
        rank = node.rank
        new = [a for a in legal if a not in rank]
        if new:
            values = None
            if self._prior is not None and depth < cfg.prior_depth:
                values = self._prior(d, seat)
            for a in new:
                if values is not None and a in values:
                    rank[a] = -values[a] + 1e-9 * rng.random()
                else:
                    rank[a] = rng.random() + (1e6 if values is not None else 0.0)
        candidates = sorted(legal, key=rank.__getitem__)
        if cfg.widening and len(candidates) > cfg.pw_min:
            k = max(2, math.ceil(cfg.pw_c * (node.visits + 1) ** cfg.pw_alpha))
            candidates = candidates[:k]
        children = node.children
        for a in candidates:
            child = children.get(a)
            if child is None:
                child = children[a] = _Node()
                child.avail = 1
                for b in candidates:
                    other = children.get(b)
                    if other is not None and b != a:
                        other.avail += 1
                return a, child, True
        c = cfg.exploration
        best_a, best_child, best_u = candidates[0], children[candidates[0]], -math.inf
        for a in candidates:
            child = children[a]
            child.avail += 1
            u = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if u > best_u:
                best_a, best_child, best_u = a, child, u
        return best_a, best_child, False


class _Race:
    """Paired statistics of the root moves of paired sampling, and racing among them.

    Every complete deal gives each active move one reward; the per-deal differences between two
    moves measure which is better far more precisely than their separate means when the deals
    matter (common random numbers), and their standard error says how sure that is.
    """

    __slots__ = ("active", "deals", "pairs")

    def __init__(self, moves: list[int]) -> None:
        self.active = list(moves)
        self.deals = 0
        #: (a, b) -> [deals, sum of r_a - r_b, sum of squares]
        self.pairs: dict[tuple[int, int], list[float]] = {}

    def add(self, rewards: dict[int, float]) -> None:
        """Record one complete deal (a reward for every active move)."""
        self.deals += 1
        active = self.active
        pairs = self.pairs
        for i, a in enumerate(active):
            ra = rewards[a]
            for b in active[i + 1 :]:
                d = ra - rewards[b]
                acc = pairs.get((a, b))
                if acc is None:
                    acc = pairs[(a, b)] = [0.0, 0.0, 0.0]
                acc[0] += 1.0
                acc[1] += d
                acc[2] += d * d

    def difference(self, a: int, b: int) -> tuple[float, float]:
        """Mean per-deal reward of ``a`` minus ``b`` and its standard error (inf if unknown)."""
        if a == b:
            return 0.0, 0.0
        acc = self.pairs.get((a, b))
        sign = 1.0
        if acc is None:
            acc = self.pairs.get((b, a))
            sign = -1.0
        if acc is None or acc[0] < 2:
            return 0.0, math.inf
        n, total, squares = acc
        mean = total / n
        var = max(0.0, (squares - total * mean) / (n - 1.0))
        return sign * mean, math.sqrt(var / n)

    def eliminate(self, z: float) -> None:
        """Drop the active moves whose mean is below the best's by more than ``z`` SEs."""
        if len(self.active) < 2:
            return
        means = dict.fromkeys(self.active, 0.0)
        for (a, b), (n, total, _) in self.pairs.items():
            if a in means and b in means:
                means[a] += total / n
                means[b] -= total / n
        best = max(self.active, key=lambda a: (means[a], -self.active.index(a)))
        keep = []
        for a in self.active:
            mean, se = self.difference(a, best)
            if a == best or mean + z * se >= 0.0:
                keep.append(a)
        self.active = keep


def _logistic(x: float) -> float:
    if x < -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _mean(node: _Node) -> float:
    return node.total / node.visits if node.visits else 0.0


def make_ismcts(arg: str = "", seed: int = 0) -> IsmctsBot:
    """Build an ISMCTS bot from the argument of an ``ismcts:…`` spec."""
    return IsmctsBot(parse_spec(arg), seed)


register("ismcts", make_ismcts)

__all__ = [
    "IsmctsBot",
    "IsmctsConfig",
    "MoveStat",
    "SearchStats",
    "game_config",
    "make_ismcts",
    "parse_spec",
]
