"""Action A, constructing (DEUS-7, DEUS-8, variant DEUS-21.3): which cards can be built, the
payment plans and the regions for the piece."""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING

from civtable.games.deus.actions import pay_code, pay_units
from civtable.games.deus.catalog import (
    BUILDING_COLORS,
    CARDS,
    COLOR_PIECE,
    GOLD_PER_RESOURCE,
    PURPLE,
)
from civtable.games.deus.rules.board import edge_targets, normal_targets, temple_targets

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState


def payments(state: DeusState, s: int, t: int) -> list[int]:
    """DEUS-7.3 / 7.3.1 / 7.3.4: every way to pay card ``t``, as payment codes: each resource
    unit of the cost is paid with the resource or replaced by 4 gold; a gold part is gold."""
    card = CARDS[t]
    cost = card.cost
    res = state.res[s]
    gold = state.gold[s] - card.cost_gold
    if gold < 0:
        return []
    out = []
    for repl in product(*(range(c + 1) for c in cost)):
        if GOLD_PER_RESOURCE * sum(repl) > gold:
            continue
        if all(res[r] >= cost[r] - repl[r] for r in range(len(cost))):
            out.append(pay_code(repl))
    return sorted(out)


def pay(state: DeusState, s: int, t: int, code: int) -> None:
    """Pay card ``t`` with plan ``code``; resources return to the supply (DEUS-7.3.2)."""
    card = CARDS[t]
    repl = pay_units(code)
    gold = card.cost_gold
    for r, c in enumerate(card.cost):
        paid = c - repl[r]
        state.res[s][r] -= paid
        state.supply[r] += paid
        gold += GOLD_PER_RESOURCE * repl[r]
    state.gold[s] -= gold


def temple_prerequisite(state: DeusState, s: int) -> bool:
    """DEUS-8.2 / AMB-11: the k-th temple needs k-1 cards in each of the five other columns."""
    k = len(state.cols[s][PURPLE]) + 1
    cols = state.cols[s]
    return all(len(cols[c]) >= k - 1 for c in BUILDING_COLORS)


def piece_targets(state: DeusState, s: int, color: int) -> tuple[list[int], list[int]]:
    """Normal regions and 3-VP edge regions for the piece of ``color`` (DEUS-7.4)."""
    piece = COLOR_PIECE[color]
    normal = normal_targets(state, s, piece)
    return normal, edge_targets(state, s, piece, normal)


def can_construct(state: DeusState, s: int, t: int) -> bool:
    """DEUS-7.1, 7.2 / AMB-36 (ordinary cards) and DEUS-8.2 .. 8.5 / AMB-12 (temples)."""
    card = CARDS[t]
    if card.color == PURPLE:
        if not temple_prerequisite(state, s):
            return False
        if state.temples > 0 and not temple_targets(state, s):
            return False
        return bool(payments(state, s, t))
    if state.onboard[s][COLOR_PIECE[card.color]] < 1:
        return False  # DEUS-7.1
    if not payments(state, s, t):
        return False
    normal, edge = piece_targets(state, s, card.color)
    return bool(normal or edge)


def blind_columns(state: DeusState, s: int) -> list[int]:
    """DEUS-21.3: columns a blind card may go to (piece on the board, k gold for the k-th card
    of the column, a legal region)."""
    out = []
    for c in BUILDING_COLORS:
        if state.onboard[s][COLOR_PIECE[c]] < 1:
            continue
        if state.gold[s] < len(state.cols[s][c]) + 1:
            continue
        normal, edge = piece_targets(state, s, c)
        if normal or edge:
            out.append(c)
    return out
