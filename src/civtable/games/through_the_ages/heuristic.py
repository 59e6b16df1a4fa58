"""A greedy one-ply heuristic for the first game: value every legal action by the civilization's
projected final score after it (culture so far + TTA-14 bonuses + rates times the rounds left +
stocks, workers and hand), and pick the best.
"""

from __future__ import annotations

import math

from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import CARDS
from civtable.games.through_the_ages.rules import board
from civtable.games.through_the_ages.scoring import breakdown
from civtable.games.through_the_ages.state import P_NONE, TTAState


def rounds_left(state: TTAState) -> float:
    """Rough number of this seat's turns left (cards left in the row's future decks)."""
    if state.last_round >= 0:
        return max(0.0, state.last_round - state.round + 0.5)
    cards = sum(len(state.civil_decks[a]) for a in range(max(1, state.age), 3))
    per_round = 2.5 * state.players + 1.0
    return 1.0 + cards / per_round


def potential(state: TTAState, seat: int) -> float:
    """Projected final score of ``seat``."""
    civ = state.civs[seat]
    r = rounds_left(state)
    rates = board.ratings(civ)
    culture_rate, science_rate, strength, happy = rates
    food_p, res_p = board.production(civ)
    score = float(sum(breakdown(civ, rates).values()))
    v = score + culture_rate * r
    late = min(1.0, r / 3.0)
    v += 0.35 * late * civ.science + 0.3 * science_rate * r
    v += 0.25 * board.stock(civ, False) + 0.3 * board.stock(civ, True)
    v += (0.25 * food_p + 0.35 * res_p) * min(r, 6.0)
    v += 1.0 * late * civ.pool + 0.05 * strength + 0.2 * happy
    total_ca, _ = board.totals(civ)
    v += 1.5 * total_ca * min(r, 5.0) / 5.0
    for c in civ.hand:
        card = CARDS[c]
        v += (0.5 + 0.2 * card.age if card.type != "action" else 1.0) * late
    for c in civ.developed:
        if CARDS[c].deck == "civil":
            v += (1.0 + 1.5 * CARDS[c].age) * min(r, 4.0) / 4.0
    if civ.wip >= 0:
        v += 2.0 * civ.wip_stages
    if board.consumption(civ.yellow) > food_p:
        v -= 2.0 * (board.consumption(civ.yellow) - food_p) * min(r, 4.0)
    if max(0, board.happiness_required(civ.yellow) - happy) > civ.pool:  # turn.uprising()
        v -= 6.0
    return v


def evaluate(state: State, seat: int) -> float:
    """Win estimate in [0, 1]: logistic of the lead over the best opponent."""
    assert isinstance(state, TTAState)
    if state.is_terminal():
        res = state.result()
        return 1.0 / len(res.winners) if seat in res.winners else 0.0
    mine = potential(state, seat)
    best = max(potential(state, o) for o in range(state.players) if o != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / 8.0))


def _value_after(state: TTAState, seat: int, action: int, depth: int) -> float:
    """Potential after ``action``, following the seat's own pending decisions (action cards)."""
    s = state.copy()
    s.log = None
    s.apply(seat, action)
    if depth > 0 and s.pending[0] != P_NONE and s.current == seat and not s.is_terminal():
        return max(_value_after(s, seat, a, depth - 1) for a in s.legal_actions(seat))
    return potential(s, seat)


def choose(state: State, seat: int, rng: Rng) -> int:
    """The legal action with the best :func:`potential` afterwards (random tie-break)."""
    assert isinstance(state, TTAState)
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    best: list[int] = []
    best_v = -1e18
    for a in legal:
        if a == ax.END and state.pending[0] == P_NONE:
            # ending realizes production that any other action gets too: compare with now
            v = potential(state, seat) - 0.01
        else:
            v = _value_after(state, seat, a, 2)
        if v > best_v + 1e-9:
            best_v = v
            best = [a]
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return rng.choice(best)
