"""A greedy Deus policy and an evaluation function for search bots.

:func:`projected_score` estimates a seat's final score from its current score (VP tokens, temple
cards, majorities; DEUS-19) plus the value of what it holds: gold, resources, pieces on its
player board, cards in hand, cards in its tableau (they fire again when their column is
activated), regions held and armies next to villages. :func:`choose` tries every legal action
on a copy, finishes the rest of the seat's own turn greedily (an offering is closed at once,
every other follow-up decision takes its best one-step value) and keeps the best outcome.
:func:`evaluate` maps the projected lead over the best opponent to [0, 1].

**Overtime.** The rules have no turn limit: the game ends only when every temple of the supply
is placed or every village attacked (DEUS-18.1). Greedy play can farm points for ever instead
(offering to Mars each turn while a column stays empty, so no second temple is ever allowed),
and a game then never ends. Heuristic games end by round 25-45 at every player count; past
:data:`OVERTIME_ROUND` the projected score also counts progress towards the end trigger
(:func:`end_progress`: temples on the map, villages attacked, the seat's smallest building
column - the prerequisite of its next temple, DEUS-8.2 - and its pieces around villages not yet
attacked), weighted so that it outweighs farming. Before that round nothing changes.
"""

from __future__ import annotations

import math

from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import ARMY, BUILDING_COLORS, PURPLE, TEMPLE_BIT, Counter
from civtable.games.deus.scoring import seat_score
from civtable.games.deus.state import MAIN, OFFERING, OVER, PICK, DeusState

#: ISMCTS cuts its playouts off this many turns after the searched decision's own turn and
#: scores the position with :func:`evaluate` (``k=auto``, counted in turns with ``kunit=turn``
#: of :data:`ISMCTS_SETTINGS`): with two players, after the other seat's reply, where the
#: searching seat's next turn begins. A heuristic playout of a whole Deus game is slow (20
#: iterations took 25 CPU-s at 3 players). The former cut-off, 6 single decisions, stopped
#: most playouts in the middle of a turn (a turn is a main choice and its follow-ups).
ISMCTS_CUTOFF = 1

#: Deus's search defaults for the ISMCTS bot (``game_config``; a spec's own options win):
#: count the cut-off in turns (the bot searches only what :func:`search_worthy` accepts)
ISMCTS_SETTINGS = "kunit=turn"
#: Deus's search defaults by player count, over :data:`ISMCTS_SETTINGS` (a spec's own options
#: win): with four players a cut-off playout is scored by the chance to finish first
#: (:func:`evaluate_first`) instead of the logistic of the lead over the best other seat
#: (:func:`evaluate`, ``eval=lead``), which is flat for a seat far behind (see
#: ``benchmarks/README.md``). Two and three players are unchanged.
ISMCTS_PLAYER_SETTINGS = {4: "eval=first"}
#: the phases the ISMCTS bot searches (``sd=auto``); it plays the others with :func:`choose`
SEARCH_PHASES = frozenset({MAIN})

W_GOLD = 0.25
W_RESOURCE = 0.9
W_PIECE = 0.5
W_HAND = 0.45
W_TABLEAU = 0.8
W_REGION = 0.6
W_VILLAGE = 0.6
SCALE = 8.0
GOLD_USEFUL = 24  # gold beyond this (and resources beyond RES_USEFUL) is worth little
RES_USEFUL = 5
ARMY_BIT = 1 << ARMY
#: from this round on the policy pushes towards the end of the game (see the module doc)
OVERTIME_ROUND = 50
W_END = 12.0


def end_progress(state: DeusState, s: int) -> float:
    """How far the game is towards its end trigger (DEUS-18.1) as ``s`` can move it: temples on
    the map and villages attacked (everyone's), the size of ``s``'s smallest building column
    (DEUS-8.2: the next temple needs one more card in each), half a point per region of ``s``
    next to a village not yet attacked (DEUS-9.1)."""
    b = state.board
    owner, mask = state.owner, state.mask
    temples = sum(1 for m in mask if m & TEMPLE_BIT)
    cols = state.cols[s]
    prerequisite = min(len(cols[c]) for c in BUILDING_COLORS)
    siege = 0
    for i, v in enumerate(b.villages):
        if not state.vatt[i]:
            siege += sum(1 for n in b.neighbours[v] if owner[n] == s)
    return temples + sum(state.vatt) + prerequisite + 0.5 * siege


class _MapTerms:
    """What :func:`projected_score` reads of the map for one seat, with the map it was computed
    on: the look-ahead positions of one decision mostly share their map (a payment, a gain or a
    sale leaves it alone), so the last one of each seat is kept (``_MAP_TERMS``) and used again
    while the map compares equal."""

    __slots__ = ("board", "counts", "mask", "owner", "regions", "vatt", "villages", "vvp")

    def __init__(self, state: DeusState, s: int) -> None:
        self.board = state.board
        owner = self.owner = state.owner[:]
        mask = self.mask = state.mask[:]
        vatt = self.vatt = state.vatt[:]
        vvp = self.vvp = state.vvp[:]
        owned = owner.count(s)
        #: ``W_REGION`` times the regions of ``s``
        self.regions = W_REGION * owned
        #: the terms of the villages (in village order) that ``s`` has an army next to
        self.villages: list[float] = []
        armies = 0  # the regions of the armies of s (bit set)
        r = -1
        for _ in range(owned):
            r = owner.index(s, r + 1)
            if mask[r] & ARMY_BIT:
                armies |= 1 << r
        if armies:
            b = state.board
            nbits = b.nbits
            neighbours = b.neighbours
            for i, v in enumerate(b.villages):
                if vatt[i] or not nbits[v] & armies:
                    continue
                mine = (nbits[v] & armies).bit_count()
                theirs = -mine  # the other armies next to the village
                for n in neighbours[v]:
                    if mask[n] & ARMY_BIT:
                        theirs += 1
                self.villages.append(W_VILLAGE * vvp[i] * mine / (mine + theirs))
        #: the values of the map counters of temple cards asked so far (``seat_score``)
        self.counts: dict[Counter, int] = {}

    def fits(self, state: DeusState) -> bool:
        """Is this the map of ``state``?"""
        return (
            self.board is state.board
            and self.owner == state.owner
            and self.mask == state.mask
            and self.vatt == state.vatt
            and self.vvp == state.vvp
        )


#: the last :class:`_MapTerms` of each seat (a cache: each entry is a pure function of the map
#: it holds, checked by :meth:`_MapTerms.fits` before use)
_MAP_TERMS: dict[int, _MapTerms] = {}


def projected_score(state: DeusState, s: int) -> float:
    """Current score plus the estimated worth of the seat's holdings (see the module doc)."""
    terms = _MAP_TERMS.get(s)  # the seat's last map terms, if they fit this map
    if terms is None or not terms.fits(state):
        terms = _MAP_TERMS[s] = _MapTerms(state, s)
    score = float(seat_score(state, s, terms.counts))
    if state.phase == OVER:
        return score
    # The bots call this for every option of every decision: it is written out by hand, with
    # the same arithmetic in the same order as the plain sums (so the same floats).
    gold = state.gold[s]
    # the sum of the capped resources, added left to right as sum() does (from 0.0, which gives
    # the same float: the partial sums of whole numbers are exact; the compiled build needs it)
    resources = 0.0
    for x in state.res[s]:
        resources += x if x <= RES_USEFUL else RES_USEFUL + 0.1 * (x - RES_USEFUL)
    cols = state.cols[s]
    hand = len(state.hands[s])
    score += (
        W_GOLD * (gold if gold <= GOLD_USEFUL else GOLD_USEFUL + 0.1 * (gold - GOLD_USEFUL))
        + W_RESOURCE * resources
        + W_PIECE * sum(state.onboard[s])
        + W_HAND * (hand if hand < 8 else 8)
        + W_TABLEAU * (sum(map(len, cols)) - len(cols[PURPLE]))
    )
    score += terms.regions
    for v in terms.villages:
        score += v
    if state.round >= OVERTIME_ROUND:
        score += W_END * end_progress(state, s)
    return score


def stage(state: DeusState) -> int:
    """How near the end of the game is (DEUS-18.1): 0 once the end is triggered, else the
    temples left in the supply or the villages not yet attacked, whichever is fewer, at most
    3."""
    if state.end_round >= 0:
        return 0
    return min(state.temples, len(state.vatt) - sum(state.vatt), 3)


#: Two-player logistic scale of the projected lead in :func:`evaluate`, by :func:`stage`: the
#: final margin varies far more early on than the fixed :data:`SCALE` assumed, and less once
#: the end is triggered. Fitted by maximum likelihood of the winner on the main-phase
#: positions of 120 heuristic self-play games (seeds 5000-5119; log-loss per position with
#: :data:`SCALE` / with these: 0.28 / 0.24, 0.38 / 0.37, 0.67 / 0.64, 0.81 / 0.71 at stages
#: 0-3).
STAGE_SCALE_2P: tuple[float, ...] = (4.5, 6.5, 16.0, 29.5)


def evaluate(state: State, seat: int) -> float:
    """Win-chance estimate in [0, 1] of ``state`` for ``seat`` (the search's cut-off value).

    A finished game gives its result; else the logistic of the projected lead over the best
    opponent (:func:`projected_score`), over a scale that with two players depends on how near
    the end is (:data:`STAGE_SCALE_2P`) and is :data:`SCALE` with more.
    """
    assert isinstance(state, DeusState)
    if state.phase == OVER:
        r = state.result()
        return 1.0 / len(r.winners) if seat in r.winners else 0.0
    mine = projected_score(state, seat)
    best = max(projected_score(state, p) for p in range(state.players) if p != seat)
    scale = STAGE_SCALE_2P[stage(state)] if state.players == 2 else SCALE
    return 1.0 / (1.0 + math.exp(-(mine - best) / scale))


#: Softmax temperature of the projected scores in :func:`evaluate_first`, by :func:`stage`
#: (0: the end triggered .. 3: three or more temples and villages left). Fitted by maximum
#: likelihood of the winner on the main-phase positions of 60 four-player heuristic self-play
#: games (``benchmarks/deus_search.py temperatures --games 60 --seed 5000 --players 4``;
#: cross-entropy per position 0.52 / 0.93 / 1.03 / 1.37 at stages 0-3, against 1.39 for equal
#: chances: early on the projected scores say little about the winner, and the softmax is then
#: nearly linear in them).
STAGE_TEMPERATURE_MANY: tuple[float, ...] = (3.5, 7.5, 9.0, 29.0)


def evaluate_first(state: State, seat: int) -> float:
    """The chance in [0, 1] that ``seat`` finishes first, from every seat's projected score.

    A finished game gives its result (a shared victory split); else the softmax of the projected
    scores (:func:`projected_score`) over a temperature by game stage
    (:data:`STAGE_TEMPERATURE_MANY`): ``exp(x_seat / T) / sum(exp(x_p / T))``. Unlike
    :func:`evaluate`, which looks at the best other seat only, every opponent's score counts
    (a point taken from the second seat is worth something too), and the chances of all seats
    add up to one. The search's cut-off evaluation with four players (``eval=first``).
    """
    assert isinstance(state, DeusState)
    if state.phase == OVER:
        r = state.result()
        return 1.0 / len(r.winners) if seat in r.winners else 0.0
    scores = [projected_score(state, p) for p in range(state.players)]
    top = max(scores)
    temperature = STAGE_TEMPERATURE_MANY[stage(state)]
    weights = [math.exp((x - top) / temperature) for x in scores]
    return weights[seat] / sum(weights)


#: the search's named cut-off evaluations (``ismcts:…:eval=NAME``)
ISMCTS_EVALUATIONS = {"lead": evaluate, "first": evaluate_first}


def search_worthy(state: State, seat: int) -> bool:
    """Whether the ISMCTS bot searches this decision of ``seat`` (its ``search_worthy`` hook,
    ``sd=auto``): the phases of :data:`SEARCH_PHASES`; it plays the others with :func:`choose`
    (on a determinization)."""
    assert isinstance(state, DeusState)
    return state.phase in SEARCH_PHASES


def _play(state: DeusState, seat: int, action: int) -> None:
    """Apply an action taken from ``state.legal_actions(seat)`` without validating it again."""
    state._apply(seat, action)
    state.history.append((seat, action))


def _finish_own_turn(state: DeusState, seat: int, rng: Rng) -> tuple[DeusState, float | None]:
    """Complete ``seat``'s turn: close an offering at once, else greedy one-step choices.

    Returns the position at the end of the turn and its :func:`projected_score` for ``seat``
    when that is already known (None if not). The position is ``state`` itself or the look-ahead
    copy of the best option of the last choice: each option is played on a copy of ``state``,
    except the last one, which is played on ``state`` (nothing needs it afterwards), and the
    best one's position is kept instead of playing that option again. ``state`` is changed.
    """
    value: float | None = None
    guard = 0
    while state.phase not in (MAIN, OVER, PICK) and state.cur == seat and guard < 40:
        guard += 1
        value = None
        if state.phase == OFFERING:
            _play(state, seat, act.DONE)
            continue
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            _play(state, seat, legal[0])
            continue
        best, best_v, best_score = state, -1e18, 0.0
        last = legal[-1]
        for a in legal:
            c = state if a == last else state.branch()
            c._apply(seat, a)  # _play, written out (every look-ahead position passes here)
            c.history.append((seat, a))
            score = projected_score(c, seat)
            v = score + rng.random() * 1e-6
            if v > best_v:
                best, best_v, best_score = c, v, score
        state = best
        value = best_score
    return state, value


def action_values(state: State, seat: int, rng: Rng | None = None) -> dict[int, float]:
    """Projected score after each legal action and the greedy rest of the turn (also the move
    prior of the ISMCTS bot)."""
    assert isinstance(state, DeusState)
    if rng is None:
        rng = Rng(len(state.history))
    out = {}
    for a in state.legal_actions(seat):
        c = state.branch()
        _play(c, seat, a)
        end, value = _finish_own_turn(c, seat, rng)
        out[a] = projected_score(end, seat) if value is None else value
    return out


def choose(state: State, seat: int, rng: Rng) -> int:
    """The greedy policy's action for ``seat``."""
    assert isinstance(state, DeusState)
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if state.phase == PICK:
        # Free start: spread the picks over the types (one of each, then again).
        counts = state.picks[seat]
        return min(legal, key=lambda a: (counts[a - act.PIECE], a))
    values = action_values(state, seat, rng)
    return max(legal, key=lambda a: values[a] + rng.random() * 1e-6)
