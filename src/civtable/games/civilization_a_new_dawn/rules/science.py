"""Science (CIV-9): the tech dial, tier upgrades, and the extra science-card effects.

Ops: ``advance_tech_dial``, ``gain_trade_tokens``, ``gain_resource``, ``area_strike``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    DIAL_LAST,
    FOCUS_CARDS,
    SCIENCE,
    TIER_SPACES,
    Step,
    dial_next,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.turn import give_trade_tokens, op, push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState


def advance_dial(state: CivState, seat: int, spaces: int) -> list[int]:
    """CIV-9.1-9.3: move the pointer; return the tier levels landed on or passed, in order."""
    pos = state.dial[seat]
    tiers = []
    for _ in range(spaces):
        pos = dial_next(pos)
        if pos in TIER_SPACES:
            tiers.append(TIER_SPACES[pos])
        if pos == DIAL_LAST:
            state.won_capital[seat] |= 2  # reached 24 (Technophile, CIV-22.1)
    state.dial[seat] = pos
    return tiers


@op("advance_tech_dial")
def op_advance_tech_dial(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Advance by the slot number (+1 per spent token); one upgrade per tier space passed."""
    tiers = advance_dial(state, seat, (step.spaces or slot) + bonus)
    C.log(state, "dial", seat=seat, space=state.dial[seat], by=(step.spaces or slot) + bonus)
    for level in reversed(tiers):
        push(state, K.D_UPGRADE, seat, level, -1)


def upgrade_targets(state: CivState, seat: int, new: int) -> list[int]:
    """Places whose card ``new`` may replace: the card of its type (CIV-9.3); with Oxford
    University also any card other than a science card (D7: "the new card need not be of the
    same type"; a science card is still replaced only by a science card)."""
    t = FOCUS_CARDS[new].type
    oxford = C.has_wonder(state, seat, "oxford_university")
    return [
        k
        for k, c in enumerate(state.place[seat])
        if FOCUS_CARDS[c].type == t or (oxford and FOCUS_CARDS[c].type != SCIENCE)
    ]


def upgrade_options(state: CivState, seat: int, level: int) -> list[int]:
    """Cards of exactly ``level`` in the seat's focus deck (CIV-9.3, CIV-A20) that can replace
    a card of the row."""
    row = state.row[seat]
    return [
        c.index
        for c in FOCUS_CARDS
        if c.level == level and c.index not in row and upgrade_targets(state, seat, c.index)
    ]


def replace_card(state: CivState, seat: int, new: int, place: int = -1) -> None:
    """Put ``new`` in place of the card holding ``place`` (default: the card of its type); the
    tokens on the card stay with the place (CIV-7.5, CIV-9.5); the old card returns to the deck.
    """
    if place < 0:
        place = C.place_of_type(state, seat, FOCUS_CARDS[new].type)
    old = state.place[seat][place]
    row = state.row[seat]
    row[row.index(old)] = new
    state.place[seat][place] = new
    C.sync_caravans(state, seat)
    if state.log is not None:
        C.log(state, "upgrade", seat=seat, card=FOCUS_CARDS[new].id, old=FOCUS_CARDS[old].id)


@K.decision(K.D_UPGRADE, "tech upgrade")
def legal_upgrade(state: CivState, frame: K.Frame) -> list[int]:
    """``[D_UPGRADE, seat, level, card]``: a card of the tier's level, or decline; then, if it
    may replace more than one card (Oxford University), the card to replace (by place)."""
    seat = frame[1]
    if frame[3] >= 0:
        return [A.TYPE + k for k in upgrade_targets(state, seat, frame[3])]
    opts = upgrade_options(state, seat, frame[2])
    return [A.DONE] + [A.CARD + c for c in opts] if opts else []


@K.applies(K.D_UPGRADE)
def apply_upgrade(state: CivState, frame: K.Frame, action: int) -> None:
    """Replace the card of that type, or ask which card (Oxford University)."""
    seat = frame[1]
    if frame[3] >= 0:
        state.pending.pop()
        replace_card(state, seat, frame[3], action - A.TYPE)
        return
    if action == A.DONE:
        state.pending.pop()
        return
    new = action - A.CARD
    targets = upgrade_targets(state, seat, new)
    if len(targets) == 1:
        state.pending.pop()
        replace_card(state, seat, new, targets[0])
        return
    frame[3] = new  # second step: which card it replaces


@op("gain_trade_tokens")
def op_gain_trade_tokens(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Mathematics: 1 trade token on one of your focus cards."""
    give_trade_tokens(state, seat, step.count)


@op("gain_resource")
def op_gain_resource(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Replaceable Parts: 1 resource of a type you have none of."""
    push(state, K.D_GAIN_RES, seat, step.count or 1, 1)


@op("area_strike")
def op_area_strike(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Nuclear Power from slot 5: choose a space; it and its neighbours are struck."""
    push(state, K.D_NUKE, seat)


@K.decision(K.D_NUKE, "Nuclear Power: target space")
def legal_nuke(state: CivState, frame: K.Frame) -> list[int]:
    """Any map space (the strike is mandatory; choose harmlessly if you wish)."""
    return [A.SPACE + s for s in range(state.board.size)]


@K.applies(K.D_NUKE)
def apply_nuke(state: CivState, frame: K.Frame, action: int) -> None:
    """Destroy unreinforced tokens, flip reinforced ones, in the space and around it."""
    state.pending.pop()
    s = action - A.SPACE
    if state.log is not None:
        hit = [n for n in (s, *state.board.adjacent[s]) if state.tok[n] >= 0]
        flipped = sum(1 for n in hit if state.reinf[n])
        C.log(state, "nuke", seat=frame[1], space=s, destroyed=len(hit) - flipped, flipped=flipped)
    for n in (s, *state.board.adjacent[s]):
        if state.tok[n] >= 0:
            if state.reinf[n]:
                state.reinf[n] = 0
            else:
                C.lift_token(state, n)  # a stand-in's city-state is freed (CIV-A11)
