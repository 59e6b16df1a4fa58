"""Science (CIV-9): the tech dial, tier upgrades, and the extra science-card effects.

Ops: ``advance_tech_dial``, ``gain_trade_tokens``, ``gain_resource``, ``area_strike``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    DIAL_LAST,
    FOCUS_CARDS,
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
    C.log(state, event="dial", seat=seat, space=state.dial[seat])
    for level in reversed(tiers):
        push(state, K.D_UPGRADE, seat, level)


def upgrade_options(state: CivState, seat: int, level: int) -> list[int]:
    """Cards of exactly ``level`` in the seat's focus deck (CIV-9.3, CIV-A20)."""
    row = state.row[seat]
    return [c.index for c in FOCUS_CARDS if c.level == level and c.index not in row]


def replace_card(state: CivState, seat: int, new: int) -> None:
    """Put ``new`` in place of the row card of its type (tokens stay, CIV-7.5, CIV-9.5)."""
    t = FOCUS_CARDS[new].type
    row = state.row[seat]
    for i, c in enumerate(row):
        if FOCUS_CARDS[c].type == t:
            row[i] = new
            break
    C.sync_caravans(state, seat)
    C.log(state, event="upgrade", seat=seat, card=FOCUS_CARDS[new].id)


@K.decision(K.D_UPGRADE, "tech upgrade")
def legal_upgrade(state: CivState, frame: K.Frame) -> list[int]:
    """A card of the tier's level, or decline."""
    opts = upgrade_options(state, frame[1], frame[2])
    return [A.DONE] + [A.CARD + c for c in opts] if opts else []


@K.applies(K.D_UPGRADE)
def apply_upgrade(state: CivState, frame: K.Frame, action: int) -> None:
    """Replace the card of that type."""
    state.pending.pop()
    if action != A.DONE:
        replace_card(state, frame[1], action - A.CARD)


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
    for n in (s, *state.board.adjacent[s]):
        if state.tok[n] >= 0:
            if state.reinf[n]:
                state.reinf[n] = 0
            else:
                cs = state.board.city_state[n]
                C.lift_token(state, n)
                if cs >= 0 and state.cs_owner[cs] >= 0:
                    C.reset_city_state(state, cs)
