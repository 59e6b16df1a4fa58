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
from civtable.games.deus.rules.board import (
    bits_list,
    has_target,
    has_temple_target,
    piece_target_bits,
)

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState


def _plans(t: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Every conceivable payment plan of card ``t`` as ``(code, gold, resources)``: each
    resource unit of the cost paid with the resource or replaced by 4 gold (DEUS-7.3.1)."""
    card = CARDS[t]
    cost = card.cost
    out = []
    for repl in product(*(range(c + 1) for c in cost)):
        need = tuple(c - x for c, x in zip(cost, repl, strict=True))
        out.append((pay_code(repl), GOLD_PER_RESOURCE * sum(repl), need))
    return tuple(sorted(out))


#: ``_PLANS[t]``: the payment plans of card type ``t`` (see :func:`_plans`), by code
_PLANS = tuple(_plans(t) for t in range(len(CARDS)))
#: the most gold a plan of card ``t`` replaces resources with (more gold changes nothing)
_MOST_GOLD = tuple(max(g for _, g, _ in plans) for plans in _PLANS)
#: ``_COST_PARTS[t]``: the resources card ``t`` costs, as (resource, units) pairs
_COST_PARTS = tuple(tuple((r, c) for r, c in enumerate(card.cost) if c) for card in CARDS)
#: ``_BUILD[t]``: what :func:`buildable` reads of card ``t``: its colour, the piece of that
#: colour, its gold part and :data:`_COST_PARTS`
_BUILD = tuple(
    (card.color, COLOR_PIECE[card.color], card.cost_gold, parts)
    for card, parts in zip(CARDS, _COST_PARTS, strict=True)
)
#: payments memo: (card, spare gold capped, resources capped at the cost) -> codes
_PAYMENTS: dict[tuple[int, ...], tuple[int, ...]] = {}


def payments(state: DeusState, s: int, t: int) -> list[int]:
    """DEUS-7.3 / 7.3.1 / 7.3.4: every way to pay card ``t``, as payment codes: each resource
    unit of the cost is paid with the resource or replaced by 4 gold; a gold part is gold."""
    card = CARDS[t]
    cost = card.cost
    res = state.res[s]
    gold = state.gold[s] - card.cost_gold
    if gold < 0:
        return []
    # The answer depends on the gold up to the most a plan needs and on each resource up to
    # its cost, so those capped amounts key a memo of the plans' codes.
    key = (t, min(gold, _MOST_GOLD[t]), *map(min, res, cost))
    codes = _PAYMENTS.get(key)
    if codes is None:
        codes = tuple(
            code
            for code, g, need in _PLANS[t]
            if g <= gold and all(res[r] >= need[r] for r in range(len(need)))
        )
        _PAYMENTS[key] = codes
    return list(codes)


def can_pay(state: DeusState, s: int, t: int) -> bool:
    """Is there a payment plan for card ``t`` (``bool(payments(...))``, faster)? The cheapest
    plan replaces exactly the missing resource units with gold (DEUS-7.3.1)."""
    card = CARDS[t]
    gold = state.gold[s] - card.cost_gold
    if gold < 0:
        return False
    res = state.res[s]
    if min(res) < 0:
        return False  # never happens (resources are never negative); no plan then
    missing = 0
    for r, c in _COST_PARTS[t]:
        have = res[r]
        if have < c:
            missing += c - have
    return GOLD_PER_RESOURCE * missing <= gold


def pay(state: DeusState, s: int, t: int, code: int) -> None:
    """Pay card ``t`` with plan ``code``; resources return to the supply (DEUS-7.3.2)."""
    card = CARDS[t]
    repl = pay_units(code)
    gold = card.cost_gold
    # a new row: look-ahead copies share the rows (DeusState.branch)
    res = state.res[s] = state.res[s][:]
    for r, c in enumerate(card.cost):
        paid = c - repl[r]
        res[r] -= paid
        state.supply[r] += paid
        gold += GOLD_PER_RESOURCE * repl[r]
    state.gold[s] -= gold


def temple_prerequisite(state: DeusState, s: int) -> bool:
    """DEUS-8.2 / AMB-11: the k-th temple needs k-1 cards in each of the five other columns."""
    lengths = list(map(len, state.cols[s]))
    need = lengths.pop(PURPLE)  # the k-th temple: k - 1 cards in each building column
    return min(lengths) >= need


def piece_targets(state: DeusState, s: int, color: int) -> tuple[list[int], list[int]]:
    """Normal regions and 3-VP edge regions for the piece of ``color`` (DEUS-7.4)."""
    normal, edge = piece_target_bits(state, s, COLOR_PIECE[color])
    return bits_list(normal), bits_list(edge)


def has_piece_target(state: DeusState, s: int, color: int) -> bool:
    """Is there a region for the piece of ``color`` (normal or edge, DEUS-7.4)?"""
    return has_target(state, s, COLOR_PIECE[color])


def can_construct(state: DeusState, s: int, t: int) -> bool:
    """DEUS-7.1, 7.2 / AMB-36 (ordinary cards) and DEUS-8.2 .. 8.5 / AMB-12 (temples)."""
    card = CARDS[t]
    if card.color == PURPLE:
        # (the three tests are independent; the cheapest first)
        if not can_pay(state, s, t) or not temple_prerequisite(state, s):
            return False
        return state.temples == 0 or has_temple_target(state, s)
    if state.onboard[s][COLOR_PIECE[card.color]] < 1:
        return False  # DEUS-7.1
    if not can_pay(state, s, t):
        return False
    return has_piece_target(state, s, card.color)


def buildable(state: DeusState, s: int, kinds: list[int]) -> list[bool]:
    """:func:`can_construct` of each card type of ``kinds``, one region test per colour and one
    temple test (the main choice lists it for every card in hand: :func:`can_pay` is written
    out here, and the temple tests of :func:`can_construct`, which do not depend on the card,
    are made once)."""
    out: list[bool] = []
    append = out.append
    onboard = state.onboard[s]
    res = state.res[s]
    gold = state.gold[s]
    sane = min(res) >= 0  # resources are never negative; can_pay finds no plan otherwise
    has_region: dict[int, bool] = {}
    temple = -1  # the temple tests (DEUS-8.2, 8.4, 8.5): -1 not made yet, else 0 / 1
    for t in kinds:
        color, piece, cost_gold, parts = _BUILD[t]
        spare = gold - cost_gold
        if spare < 0 or not sane or (color != PURPLE and onboard[piece] < 1):  # DEUS-7.1, 7.3
            append(False)
            continue
        missing = 0  # the resource units to replace with gold (DEUS-7.3.1), as in can_pay
        for r, c in parts:
            have = res[r]
            if have < c:
                missing += c - have
        if GOLD_PER_RESOURCE * missing > spare:
            append(False)
        elif color == PURPLE:
            if temple < 0:  # as can_construct: the prerequisite, then a region if any temple
                temple = int(
                    temple_prerequisite(state, s)
                    and (state.temples == 0 or has_temple_target(state, s))
                )
            append(temple == 1)
        else:
            has = has_region.get(piece)
            if has is None:
                has = has_region[piece] = has_target(state, s, piece)  # DEUS-7.2, 7.4
            append(has)
    return out


def blind_columns(state: DeusState, s: int) -> list[int]:
    """DEUS-21.3: columns a blind card may go to (piece on the board, k gold for the k-th card
    of the column, a legal region)."""
    out = []
    for c in BUILDING_COLORS:
        if state.onboard[s][COLOR_PIECE[c]] < 1:
            continue
        if state.gold[s] < len(state.cols[s][c]) + 1:
            continue
        if has_piece_target(state, s, c):
            out.append(c)
    return out
