"""Information-set Monte Carlo tree search ("ismcts"): a search bot for any civtable game.

The algorithm is single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 2012) written against the core API only:

* every iteration starts from ``state.determinize(seat, rng)``: what the searching seat cannot see
  (other hands, face-down cards, future decks, other seats' pending hidden commitments) is
  re-dealt, so other seats choose their current decision again in the sampled state;
* **the tree holds the searching seat's decisions only.** Other seats' decisions, in the tree
  phase and in playouts alike, are made by the playout policy (an opponent model: with
  ``policy=auto`` the game's cheaper ``playout_policy`` when its heuristic module has one, else
  its heuristic player ``choose``, else uniform random; ``policy=heuristic`` forces ``choose``,
  ``policy=fast`` the ``playout_policy``). A node is therefore the searching
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
* **playouts** are played by the policy to the end of the game by default (``k=auto``: the
  game's ``ISMCTS_CUTOFF`` in its heuristic module if it has one — Through the Ages, whose full
  games are long — else ``k=end``). With ``k=K`` they are cut off: after the round in which a
  node was added, ``K`` more rounds are played and the game's evaluation
  (:func:`civtable.bots.heuristic.evaluation_for`) scores the position; a game without an
  evaluation is always played out to the end (random playouts when it has no heuristic either).
  A *round* is every seat of a :meth:`~civtable.core.State.to_move` snapshot finishing its
  decision (a payment choice following a build belongs to the same decision), so a simultaneous
  step has resolved when a round ends;
* the reward is, by default (``reward=margin``), a logistic of the searching seat's final score
  margin over the best other seat (``1 / (1 + exp(-margin / 5))``), or with ``reward=win``
  :meth:`Result.rewards` (a shared victory split among the co-winners); cut-off positions are
  scored by the evaluation (a win-chance estimate in ``[0, 1]``);
* **paired root sampling** (``paired=auto``: on when the game ranks its actions): the root
  considers the ``top`` (default 3) best-ranked moves only, and each determinization, together
  with the playout randomness, is used once for every one of them (common random numbers), so
  the moves are compared on the same deals and their value differences are far less noisy.
  The other seats' decisions of the current simultaneous step, which cannot depend on the
  searching seat's, are made once per deal and shared by the root moves too;
  Below the root the search is the ISMCTS above. The move played is then the root move with
  the best mean reward, except that the ranking's favourite is kept unless another move's mean
  beats it by more than ``keep`` (default 0.01; ``keep=0`` plays the best mean); without
  pairing (``paired=off``, or no ranking) it is the most visited root child, selected by UCB
  with availability counts.

Why these defaults (measured in 4-player 7 Wonders, ISMCTS in one seat against three heuristic
bots, 8 games each on the same seeds): cut-off playouts with the evaluation after one
round lose clearly (mean score 38.5 against the heuristic bots' 48.0 at 100 iterations: the
static evaluation ignores what production and chains will be worth); full heuristic playouts
with plain UCB at the root are level with the heuristic (45.5 against 46.5 at 150 iterations);
the same with paired root sampling is ahead (52.5 against 45.8, 5 wins of 8). Later, 12 games
at 300 ms per decision (seed 100): ``top=3`` 6 wins, mean 46.9 against 43.7; ``top=2`` 3 wins;
``top=5`` 4 wins (43.1 against 45.6); ``top=8`` 1 win; ``k=1`` 1 win (39.3 against 45.7);
``top=3:reward=win`` 2 wins. All within noise of each other except the cut-offs, which
stay clearly weaker; measured figures at 1 s are in ``benchmarks/README.md``.

``policy=auto`` (the cheaper ``playout_policy``) and ``keep=0.01`` were chosen on a decision
quality measure (40 positions of 4-player heuristic games; reference values of the heuristic's
top 5 moves from 400 paired deals each with heuristic playouts; regret = reference value lost
against the best of them, mean over searches): the heuristic's own choice 0.0158; 1 s searches
on a loaded machine (about 200 iterations) with ``policy=heuristic`` 0.0125 and with the
playout policy 0.0120 (SE 0.002, 120 searches each); 200 iterations with the playout policy,
80 searches, played move chosen afterwards with ``keep`` 0 / 0.005 / 0.01 / 0.02 / 0.04:
0.0090 / 0.0080 / 0.0077 / 0.0074 / 0.0084. Differences of this size are near the noise of
the reference itself.

Speed: iterations apply actions with the state's unchecked ``_apply`` (they come from
``legal_actions``), deals are shared by the paired root moves, and the prior ranks actions
only near the root (``pd``, default 1: the root). Iterations per second depend mostly on the
playout: full playouts run at a few hundred per second in 4-player 7 Wonders (the playout
policy is about 1.5x faster than ``choose``), ``k=0:policy=random`` at a few thousand (see
``benchmarks/README.md``).

With an iteration budget the bot is deterministic for its seed; with a time budget the
iteration count depends on the machine.

Bot specs (``make_bot``): ``ismcts`` (1 second), ``ismcts:1s``, ``ismcts:200ms``,
``ismcts:500i`` (500 iterations), followed by ``:key=value`` options, e.g.
``ismcts:300i:k=2:policy=random:c=0.7:reward=win:pw=off:eps=0.1:paired=off:top=5:keep=0:pd=2``
(``policy`` is one of ``auto``, ``heuristic``, ``fast``, ``random``).

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
#: a prior over the legal actions: ``prior(state, seat) -> {action: value}`` (higher is better)
Prior = Callable[[State, int], dict[int, float]]

#: ``IsmctsConfig.cutoff`` value meaning "the game's default" (``k=auto``)
AUTO_CUTOFF = -1

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
    #: playout policy and opponent model: "auto" (the heuristic module's playout_policy, else its
    #: choose, else random), "heuristic" (choose), "fast" (playout_policy), "random"
    policy: str = "auto"
    #: probability that a policy decision is uniformly random instead (playout diversity)
    epsilon: float = 0.0
    #: cut-off evaluation: "auto" (the game's, if any) or "none" (always play to the end)
    evaluation: str = "auto"
    #: "win" (Result.rewards) or "margin" (logistic of the score margin)
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
    top: int = 3
    #: paired mode: keep the best-ranked root move unless another's mean reward beats it by more
    #: than this (the ranking is a prior; small differences are mostly sampling noise)
    keep: float = 0.01
    #: tree depth (root = 0) down to which the prior ranks a node's actions; deeper nodes
    #: (visited rarely, their actions differing between deals) rank them at random
    prior_depth: int = 1

    def describe(self) -> str:
        """A short text form, e.g. ``"500 iterations, k=1, policy=auto"``."""
        budget = (
            f"{self.iterations} iterations"
            if self.iterations is not None
            else f"{self.seconds:g} s per decision"
        )
        k = "end" if self.cutoff is None else "auto" if self.cutoff < 0 else str(self.cutoff)
        paired = f", paired={self.paired} top={self.top} keep={self.keep:g}"
        return f"{budget}, k={k}, policy={self.policy}, reward={self.reward}{paired}"


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
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq:
            raise UnknownBotError(f"ismcts option {part!r} is not key=value")
        config = replace(config, **_parse_option(key.strip().lower(), value.strip().lower()))
    return config


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
    if not seconds > 0:
        raise UnknownBotError(f"bad ismcts budget {text!r}: must be positive")
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
        return {"evaluation": one_of("auto", "none")}
    if key == "reward":
        return {"reward": one_of("win", "margin")}
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
    raise UnknownBotError(
        f"unknown ismcts option {key!r} (options: c, k, policy, eps, eval, reward, pw, pwc, pwa, "
        "pwmin, prior, paired, top, keep, pd)"
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
        if self.config.iterations is None and self.config.seconds is None:
            raise UnknownBotError("an ismcts bot needs an iteration or a time budget")
        self.last: SearchStats = SearchStats()
        self._game_id: str | None = None
        self._policy: Policy = _random_policy
        self._evaluation: Evaluation | None = None
        self._cutoff: int | None = None
        self._prior: Prior | None = None
        self._paired = False

    def __repr__(self) -> str:
        return f"IsmctsBot({self.config.describe()})"

    # --- game-specific helpers, resolved once per game ------------------------------------------
    def _bind(self, game_id: str) -> None:
        if self._game_id == game_id:
            return
        cfg = self.config
        try:
            module = heuristic_module(game_id)
        except NoHeuristicError:
            module = None
        if cfg.policy == "heuristic" and module is None:
            raise UnknownBotError(f"ismcts policy=heuristic: game {game_id!r} has no heuristic")
        if cfg.policy == "fast" and not callable(getattr(module, "playout_policy", None)):
            raise UnknownBotError(f"ismcts policy=fast: game {game_id!r} has no playout_policy")
        base: Policy = _random_policy
        if module is not None and cfg.policy in ("auto", "heuristic", "fast"):
            base = module.choose
            fast = getattr(module, "playout_policy", None)
            if cfg.policy in ("auto", "fast") and callable(fast):
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
        prior = getattr(module, "action_values", None) if cfg.prior == "auto" else None
        self._prior = prior if callable(prior) else None
        self._paired = cfg.paired == "on" or (cfg.paired == "auto" and self._prior is not None)
        self._game_id = game_id

    # --- the bot interface ---------------------------------------------------------------------
    def choose(self, state: State, seat: int) -> int:
        """The best root move of a search from ``seat``'s information set: the best mean
        reward with paired root sampling, else the most visited."""
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no decision to make now")
        if len(legal) == 1:
            return legal[0]
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
        self._bind(state.game.id)
        cfg = self.config
        rng = self.rng.fork()
        root = _Node()
        start = time.perf_counter()
        deadline = start + cfg.seconds if cfg.seconds is not None else math.inf
        limit = cfg.iterations if cfg.iterations is not None else math.inf
        clock = time.perf_counter
        n = 0
        if self._paired and len(state.legal_actions(seat)) > 1:
            moves = self._root_moves(root, state, seat, rng)
            while n < limit and (n == 0 or clock() < deadline):
                sample = state.determinize(seat, rng)
                playout = rng.fork()
                # The other seats' decisions of a simultaneous step do not depend on ours:
                # taken once per deal, they are shared by every root move (common numbers).
                self._others_decide(sample, seat, playout)
                for a in moves:
                    self._iterate(root, sample.copy(), seat, playout.copy(), first=a)
                    n += 1
                    if n >= limit or clock() >= deadline:
                        break
        else:
            while n < limit:
                self._iterate(root, state.determinize(seat, rng), seat, rng)
                n += 1
                if clock() >= deadline:
                    break
        elapsed = clock() - start
        self.last = SearchStats(n, elapsed, self._move_stats(root, state, seat))
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
        return sorted(legal, key=root.rank.__getitem__)[: self.config.top]

    def _move_stats(self, root: _Node, state: State, seat: int) -> list[MoveStat]:
        legal = state.legal_actions(seat)
        if len(legal) == 1:  # a forced move makes no node: the root value is its value
            a = legal[0]
            return [MoveStat(a, state.describe(seat, a), root.visits, _mean(root))]
        if self._paired:  # equal visits: best mean first

            def key(a: int) -> tuple[float, float, int]:
                return (-_mean(root.children[a]), -root.children[a].visits, a)
        else:

            def key(a: int) -> tuple[float, float, int]:
                return (-root.children[a].visits, -_mean(root.children[a]), a)

        order = sorted((a for a in root.children if a in legal), key=key)
        if self._paired and order and root.rank:
            # Keep the prior's favourite unless the search found something clearly better.
            ranked = min(order, key=root.rank.__getitem__)
            gap = _mean(root.children[order[0]]) - _mean(root.children[ranked])
            if ranked != order[0] and gap <= self.config.keep:
                order.remove(ranked)
                order.insert(0, ranked)
        return [
            MoveStat(a, state.describe(seat, a), root.children[a].visits, _mean(root.children[a]))
            for a in order
        ]

    def _iterate(
        self, root: _Node, d: State, seat: int, rng: Rng, first: int | None = None
    ) -> None:
        """One iteration on the determinization ``d``: descend/expand, play out, back up.

        ``first``: the root move to take (paired mode) instead of selecting one. Actions come
        from ``legal_actions`` (or the policy, which picks among them), so they are applied
        with the state's unchecked ``_apply``; ``d`` is a private sample, its history unused.
        """
        node = root
        path = [root]
        in_tree = True
        cutoff = self._cutoff if self._evaluation is not None else None
        rounds_after = 0
        policy = self._policy
        apply = d._apply
        legal_actions = d.legal_actions
        owes = d.owes_decision
        while not d.is_terminal():
            if not in_tree and cutoff is not None and rounds_after > cutoff:
                break
            movers = d.to_move()
            if not movers:
                break
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
                        in_tree = not expanded
                    else:
                        a = policy(d, s, rng)
                    apply(s, a)
                    # Keep deciding for s only while its decision continues (a payment after a
                    # build); stop when the step resolved (an earlier mover owes again).
                    if single or not owes(s):
                        break
                    if i and any(owes(o) for o in movers[:i]):
                        break
            if not in_tree:
                rounds_after += 1
        reward = self._reward(d, seat)
        for n in path:
            n.visits += 1
            n.total += reward

    def _reward(self, d: State, seat: int) -> float:
        if not d.is_terminal():
            assert self._evaluation is not None
            return float(self._evaluation(d, seat))
        result = d.result()
        if self.config.reward == "margin":
            mine = result.scores[seat]
            others = [x for s, x in enumerate(result.scores) if s != seat]
            margin = mine - max(others) if others else 0
            return 1.0 / (1.0 + math.exp(-margin / MARGIN_SCALE))
        return result.rewards()[seat]

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
        cfg = self.config
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


def _mean(node: _Node) -> float:
    return node.total / node.visits if node.visits else 0.0


def make_ismcts(arg: str = "", seed: int = 0) -> IsmctsBot:
    """Build an ISMCTS bot from the argument of an ``ismcts:…`` spec."""
    return IsmctsBot(parse_spec(arg), seed)


register("ismcts", make_ismcts)

__all__ = ["IsmctsBot", "IsmctsConfig", "MoveStat", "SearchStats", "make_ismcts", "parse_spec"]
