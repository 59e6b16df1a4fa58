"""Economy (CIV-10, CIV-17): caravans, visits, diplomacy cards, Steam Power, Capitalism.

Ops: ``move_caravans``, ``exchange_resource``, ``resolve_other_focus_card``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    CITY_STATES,
    EMBASSY,
    FOCUS_CARDS,
    MAX_CARDS_PER_PLAYER,
    MAX_CARDS_PER_PLAYER_POTALA,
    PLAYER_CARDS,
    Step,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.turn import give_trade_tokens, op, push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState


ARRIVED = -1000  # state.arrived holds ARRIVED - i for caravan i that visited this turn


@op("move_caravans")
def op_move_caravans(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """CIV-10.3: each usable caravan may move up to the card's movement (+1 per token)."""
    pool = 6 if C.has_wonder(state, seat, "colossus") else 0  # Colossus: 6 extra in total
    push(state, K.D_CARAVAN, seat, step.move + bonus, slot, 0, card, pool)


def start_cities(state: CivState, seat: int) -> list[int]:
    """CIV-10.4: capital and mature cities (Rome: any city)."""
    if C.is_leader(state, seat, "rome"):
        return C.cities(state, seat)
    cap, mature = state.capital[seat], C.mature_cities(state, seat)
    return [s for s in C.cities(state, seat) if s == cap or s in mature]


def enterable(state: CivState, seat: int, s: int, slot: int, card: int) -> bool:
    """CIV-10.5: map, not water (unless allowed), difficulty ≤ slot, no barbarian (Currency)."""
    ab = FOCUS_CARDS[card].abilities
    if C.is_water(state, s) and "caravans_cross_water" not in ab:
        return False
    if state.barb[s] >= 0 and "caravan_may_enter_barbarian" not in ab:
        return False
    return C.difficulty(state, seat, s) <= slot


def enterable_bits(state: CivState, seat: int, slot: int, card: int) -> int:
    """Bitset of the spaces :func:`enterable` accepts (CIV-10.5)."""
    ab = FOCUS_CARDS[card].abilities
    mask = C.land_within(state, seat, C.CTX_NONE, slot)
    if "caravans_cross_water" in ab:
        mask |= C.water_within(state, seat, C.CTX_NONE, slot)
    if "caravan_may_enter_barbarian" not in ab:
        mask &= ~C.barbarian_bits(state)
    return mask


def next_steps(state: CivState, seat: int, i: int, slot: int, card: int) -> list[int]:
    """Spaces the caravan may enter next (CIV-10.4, CIV-10.5), ascending."""
    return state.board.spaces_of(_next_bits(state, seat, i, slot, card))


def _next_bits(state: CivState, seat: int, i: int, slot: int, card: int) -> int:
    """:func:`next_steps` as a bitset."""
    pos = state.caravans[seat][i]
    if pos < -1:
        return 0
    return _around(state, seat, pos) & enterable_bits(state, seat, slot, card)


def _around(state: CivState, seat: int, pos: int) -> int:
    """The spaces next to a caravan on ``pos`` (>= 0), or next to its start cities (-1)."""
    b = state.board
    if pos >= 0:
        return b.adjacent_mask[pos]
    cand = 0
    for c in start_cities(state, seat):
        cand |= b.adjacent_mask[c]
    return cand


def visit_target(state: CivState, seat: int, s: int) -> bool:
    """CIV-10.6 / CIV-10.9: ending a movement on ``s`` is an arrival (a city-state without a
    barbarian, or a rival's city or capital)."""
    if state.cs[s] >= 0:
        return state.barb[s] < 0
    owner = state.city[s]
    return owner >= 0 and owner != seat


def no_stop(state: CivState, seat: int, s: int) -> bool:
    """CIV-10.7: another caravan already arrived at ``s`` this turn, so a caravan may pass
    through it (CIV-10.5, CIV-A31) but not end its movement there."""
    return s in state.arrived and visit_target(state, seat, s)


def may_enter(state: CivState, seat: int, s: int, left: int, slot: int, card: int) -> bool:
    """May a caravan with ``left`` movement points enter ``s`` (already enterable)?

    Entering uses one point; the movement ends there when none is left or a barbarian is
    removed (Currency). A space where the caravan may not stop (:func:`no_stop`) is entered only
    if the caravan can still go on from it to a space where it may stop (CIV-10.7)."""
    if not state.arrived or not no_stop(state, seat, s):
        return True
    if state.barb[s] >= 0:
        return False
    b = state.board
    best = {s: left - 1}
    frontier = [s]
    while frontier:
        nxt: list[int] = []
        for x in frontier:
            rem = best[x]
            if rem <= 0:
                continue
            for y in b.adjacent[x]:
                if not enterable(state, seat, y, slot, card):
                    continue
                if not no_stop(state, seat, y):
                    return True
                if state.barb[y] < 0 and best.get(y, -1) < rem - 1:
                    best[y] = rem - 1
                    nxt.append(y)
        frontier = nxt
    return False


def steps_for(state: CivState, seat: int, i: int, slot: int, card: int, left: int) -> list[int]:
    """The spaces caravan ``i`` may enter now with ``left`` movement points (CIV-10.5, 10.7)."""
    steps = next_steps(state, seat, i, slot, card)
    if state.arrived:
        steps = [s for s in steps if may_enter(state, seat, s, left, slot, card)]
    return steps


@K.decision(K.D_CARAVAN, "choose a caravan to move")
def legal_caravan(state: CivState, frame: K.Frame) -> list[int]:
    """Unmoved usable caravans with somewhere to go (OPT + i), or finish."""
    seat, move, slot, moved, card = frame[1], frame[2], frame[3], frame[4], frame[5]
    if move + frame[6] <= 0:
        return []
    arrived, left = state.arrived, move + frame[6]
    enter = home = -1  # enterable_bits and the spaces next to the start cities, when needed
    opts = []
    for i, p in enumerate(state.caravans[seat]):
        if p == -2 or moved >> i & 1 or ARRIVED - i in arrived:  # CIV-10.6: one move a turn
            continue
        if arrived:  # steps_for lists the spaces it may enter (CIV-10.7)
            if steps_for(state, seat, i, slot, card, left):
                opts.append(A.OPT + i)
            continue
        if enter < 0:
            enter = enterable_bits(state, seat, slot, card)
        if p >= 0:
            near = state.board.adjacent_mask[p]
        else:
            if home < 0:
                home = _around(state, seat, -1)
            near = home
        if near & enter:
            opts.append(A.OPT + i)
    return [A.DONE, *opts] if opts else []


@K.applies(K.D_CARAVAN)
def apply_caravan(state: CivState, frame: K.Frame, action: int) -> None:
    """Start moving that caravan (CIV-A48: one after another)."""
    if action == A.DONE:
        state.pending.pop()
        return
    i = action - A.OPT
    frame[4] |= 1 << i
    push(state, K.D_STEP, frame[1], i, frame[2], frame[3], frame[5], 0)


def _pool_frame(state: CivState) -> K.Frame | None:
    if len(state.pending) >= 2 and state.pending[-2][0] == K.D_CARAVAN:
        return state.pending[-2]
    return None


@K.decision(K.D_STEP, "move the caravan")
def legal_step(state: CivState, frame: K.Frame) -> list[int]:
    """Stop here (DONE) or enter an adjacent legal space.

    ``[D_STEP, seat, caravan, left, slot, card, entered]``: ``entered`` is 1 once the caravan
    has entered a space in this movement. It may not stop where another caravan already
    arrived this turn (CIV-10.7); :func:`may_enter` keeps it from getting stuck there.
    """
    seat, i, left, slot, card = frame[1], frame[2], frame[3], frame[4], frame[5]
    pool = _pool_frame(state)
    extra = pool[6] if pool is not None else 0
    if left + extra <= 0:
        return [A.DONE]
    steps = [A.SPACE + s for s in steps_for(state, seat, i, slot, card, left + extra)]
    if _entered(frame) and no_stop(state, seat, state.caravans[seat][i]):
        return steps
    return [A.DONE, *steps]


def _entered(frame: K.Frame) -> bool:
    """Has the caravan of this ``D_STEP`` frame entered a space yet (older frames: assume so)?"""
    return len(frame) <= 6 or frame[6] != 0


@K.applies(K.D_STEP)
def apply_step(state: CivState, frame: K.Frame, action: int) -> None:
    """One step; at the end of the movement a visit may happen (CIV-10.6)."""
    seat, i = frame[1], frame[2]
    if action == A.DONE:
        state.pending.pop()
        if _entered(frame):  # a caravan that did not move did not end a movement anywhere
            stop(state, seat, i)
        return
    s = action - A.SPACE
    if len(frame) > 6:
        frame[6] = 1
    if frame[3] > 0:
        frame[3] -= 1
    else:
        pool = _pool_frame(state)
        if pool is not None:
            pool[6] -= 1
    state.caravans[seat][i] = s
    if state.barb[s] >= 0:  # Currency: remove the barbarian, movement ends
        from civtable.games.civilization_a_new_dawn.rules.events import remove_barbarian

        if state.log is not None:
            from civtable.games.civilization_a_new_dawn.catalog import BARBARIAN_LETTERS as BL

            C.log(state, "barbarian_removed", seat=seat, barbarian=BL[state.barb[s]], space=s)
        remove_barbarian(state, state.barb[s])
        state.pending.pop()
        stop(state, seat, i)
        return
    pool = _pool_frame(state)
    if frame[3] <= 0 and (pool is None or pool[6] <= 0):
        state.pending.pop()
        stop(state, seat, i)


def stop(state: CivState, seat: int, i: int) -> None:
    """CIV-10.6-10.9: a caravan ending on a city-state or rival city visits it."""
    s = state.caravans[seat][i]
    if s < 0 or s in state.arrived:  # CIV-10.7: never reached here (legal_step, may_enter)
        return
    cs = state.cs[s]
    owner = state.city[s]
    C.log(state, "caravan", seat=seat, space=s)
    if cs >= 0 and state.barb[s] < 0:
        state.arrived.extend((s, ARRIVED - i))
        C.caravan_home(state, seat, i)
        t = CITY_STATES[cs].type  # "your focus card of that type" (its place in an Oxford row)
        k = C.place_of_type(state, seat, t)
        got = C.add_trade(state, seat, k if k >= 0 else t, 2)
        if state.cs_avail[cs] > 0 and cs not in state.cs_cards[seat]:
            push(state, K.D_CSCARD, seat, cs)
        if state.log is not None:
            card = C.card_at(state, seat, k if k >= 0 else t)
            C.log(state, "visit", seat=seat, city_state=CITY_STATES[cs].id, card=card, n=got)
    elif owner >= 0 and owner != seat:
        state.arrived.extend((s, ARRIVED - i))
        C.caravan_home(state, seat, i)
        if s == state.capital[owner]:
            push(state, K.X_EMBASSY, seat, owner)
        push(state, K.D_PCARD, seat, owner)
        give_trade_tokens(state, seat, 2)
        C.log(state, "visit", seat=seat, rival=owner, n=2, capital=int(s == state.capital[owner]))


def card_limit(state: CivState, seat: int) -> int:
    """CIV-17.2 (Potala Palace: 4)."""
    if C.has_wonder(state, seat, "potala_palace"):
        return MAX_CARDS_PER_PLAYER_POTALA
    return MAX_CARDS_PER_PLAYER


@K.decision(K.D_PCARD, "take a diplomacy card")
def legal_pcard(state: CivState, frame: K.Frame) -> list[int]:
    """Available cards of the visited rival (CIV-10.6 step 3, CIV-A49), or none."""
    seat, giver = frame[1], frame[2]
    holder = state.pcard_holder[giver]
    held = sum(1 for h in holder if h == seat)
    full = held >= card_limit(state, seat)
    opts = [A.PCARD + k for k, h in enumerate(holder) if h == -1 or (full and h == seat)]
    return [A.DONE, *opts] if opts else []


@K.applies(K.D_PCARD)
def apply_pcard(state: CivState, frame: K.Frame, action: int) -> None:
    """Return one held card first if at the limit, then take the chosen one."""
    seat, giver = frame[1], frame[2]
    state.pending.pop()
    if action == A.DONE:
        return
    holder = state.pcard_holder[giver]
    k = action - A.PCARD
    if sum(1 for h in holder if h == seat) >= card_limit(state, seat):
        if holder[k] != seat:
            for j, h in enumerate(holder):
                if h == seat:
                    holder[j] = -1
                    C.log(state, "return_card", seat=seat, giver=giver, card=PLAYER_CARDS[j])
                    break
        else:
            return  # re-took the card it returned
    holder[k] = seat
    C.log(state, "diplomacy", seat=seat, giver=giver, card=PLAYER_CARDS[k])


@K.auto(K.X_EMBASSY, "Embassy")
def run_embassy(state: CivState, frame: K.Frame) -> None:
    """Embassy: at the giver's capital, 1 token onto a giver's card, then 1 resource."""
    seat, giver = frame[1], frame[2]
    if state.pcard_holder[giver][EMBASSY] == seat:
        push(state, K.D_GAIN_RES, seat, 1, 0)
        push(state, K.D_EMBASSY, seat, giver)


@K.decision(K.D_EMBASSY, "Embassy: token onto the giver's card")
def legal_embassy(state: CivState, frame: K.Frame) -> list[int]:
    """The giver's cards below the cap."""
    giver = frame[2]
    return [A.TYPE + t for t in range(5) if state.trade[giver][t] < 3]


@K.applies(K.D_EMBASSY)
def apply_embassy(state: CivState, frame: K.Frame, action: int) -> None:
    """Place it."""
    state.pending.pop()
    C.add_trade(state, frame[2], action - A.TYPE)
    if state.log is not None:
        card = C.card_at(state, frame[2], action - A.TYPE)
        C.log(state, "embassy", seat=frame[1], giver=frame[2], card=card)


@op("exchange_resource")
def op_exchange_resource(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Steam Power: you may exchange 1 resource token for one of any type."""
    push(state, K.D_EXCH_GIVE, seat)


@K.decision(K.D_EXCH_GIVE, "Steam Power: resource to give")
def legal_exch_give(state: CivState, frame: K.Frame) -> list[int]:
    """Held resource types, or skip."""
    opts = [A.RES + r for r in range(4) if state.resources[frame[1]][r] > 0]
    return [A.DONE, *opts] if opts else []


@K.applies(K.D_EXCH_GIVE)
def apply_exch_give(state: CivState, frame: K.Frame, action: int) -> None:
    """Return it; choose the new type next."""
    seat = frame[1]
    state.pending.pop()
    if action == A.DONE:
        return
    r = action - A.RES
    state.resources[seat][r] -= 1
    state.res_supply[r] += 1
    C.log(state, "exchange", seat=seat, resource=r)
    push(state, K.D_GAIN_RES, seat, 1, 0)


@op("resolve_other_focus_card")
def op_resolve_other_focus_card(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Capitalism: after the reset, resolve another card as though in slot 1 (once per turn)."""
    state.turn_flags |= C.F_CAPITALISM


@K.decision(K.D_CSCARD, "take the city-state's diplomacy card")
def legal_cscard(state: CivState, frame: K.Frame) -> list[int]:
    """CIV-10.6 step 3: you may take one face-up card of that city-state."""
    seat, cs = frame[1], frame[2]
    if state.cs_avail[cs] <= 0 or cs in state.cs_cards[seat]:
        return []
    return [A.DONE, A.CSC + cs]


@K.applies(K.D_CSCARD)
def apply_cscard(state: CivState, frame: K.Frame, action: int) -> None:
    """Take it (or not)."""
    state.pending.pop()
    if action != A.DONE:
        cs = frame[2]
        state.cs_avail[cs] -= 1
        state.cs_cards[frame[1]].append(cs)
        if state.log is not None:
            C.log(state, "cs_card", seat=frame[1], city_state=CITY_STATES[cs].id)
