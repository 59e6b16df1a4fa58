"""Culture (CIV-8): placing control tokens, Drama and Poetry's move, Mass Media's conversion.

Ops: ``place_control_tokens``, ``move_own_control_token``, ``convert_rival_control_token``.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    CULTURE,
    FOCUS_CARDS,
    FOREST,
    HILLS,
    LEADERS,
    WONDERS,
    Step,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.turn import op, push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

# D_PLACE modes
ADJ_CITY, ADJ_FRIENDLY, ADJ_ANCHOR, HANGING, STONEHENGE = range(5)
_MODES = {"friendly_city": ADJ_CITY, "friendly_space": ADJ_FRIENDLY, "new_city": ADJ_ANCHOR}


def placeable(state: CivState, seat: int, s: int, maxdiff: int, ctx: int) -> bool:
    """CIV-8.2: not water, difficulty ≤ limit, no barbarian/city/city-state/control token."""
    if C.is_water(state, s):
        return False
    if state.barb[s] >= 0 or state.city[s] >= 0 or state.cs[s] >= 0 or state.tok[s] >= 0:
        return False
    return not (maxdiff and C.difficulty(state, seat, s, ctx) > maxdiff)


def place_targets(state: CivState, seat: int, frame: K.Frame) -> list[int]:
    """Legal spaces of ``[D_PLACE, seat, left, maxdiff, mode, mandatory, anchor, ctx]``."""
    maxdiff, mode, anchor, ctx = frame[3], frame[4], frame[6], frame[7]
    b = state.board
    occ = C.occupancy(state)  # once: each call compares the lists its bitsets came from
    if mode in (ADJ_ANCHOR, STONEHENGE):
        cand = b.grow(b.bit[anchor])
    else:
        own = occ.friendly[seat] if mode == ADJ_FRIENDLY else occ.cities[seat]
        cand = b.grow(own)
    # placeable(), for every candidate at once
    land = C.land_within(state, seat, ctx, maxdiff) if maxdiff else b.valid_mask & ~b.water_mask
    taken = occ.barbs | occ.occupied | occ.cstates
    out = b.spaces_of(cand & land & ~taken)
    if mode == STONEHENGE:
        out = [s for s in out if b.terrain[s] == HILLS]
    if mode in (ADJ_CITY, ADJ_FRIENDLY) and C.has_wonder(state, seat, "chichen_itza"):
        # Chichen Itza: empty forest spaces not adjacent to a friendly city are also legal
        extra = [
            s
            for s in range(b.size)
            if b.terrain[s] == FOREST
            and C.empty(state, s)
            and (not maxdiff or C.difficulty(state, seat, s, ctx) <= maxdiff)
        ]
        out = sorted(set(out) | set(extra))
    return sorted(out)


def push_place(
    state: CivState,
    seat: int,
    n: int,
    maxdiff: int,
    mode: int,
    mandatory: bool,
    anchor: int = -1,
    ctx: int = C.CTX_PLACE,
) -> None:
    """Ask for ``n`` placements."""
    if n > 0:
        push(state, K.D_PLACE, seat, n, maxdiff, mode, int(mandatory), anchor, ctx)


def france_extra(state: CivState, seat: int) -> int:
    """France (Grand Tour): extra tokens by the latest era of the seat's wonders."""
    if not C.is_leader(state, seat, "france"):
        return 0
    eras = [WONDERS[w].era for w in C.wonders_of(state, seat)]
    if not eras:
        return 0
    table = LEADERS[state.leader[seat]].params["extra_control_tokens_by_latest_wonder_era"]
    return int(table[("ancient", "medieval", "modern")[max(eras)]])


@op("place_control_tokens")
def op_place_control_tokens(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """CIV-8.1-8.4: place N tokens (+1 per spent token, + France) adjacent to friendly cities."""
    mode = _MODES[step.adjacent_to]
    anchor = _last_city(state) if mode == ADJ_ANCHOR else -1
    ctx = C.CTX_PLACE | C.CTX_CULT_IND  # Kumasi: resolving own culture or industry card
    n = step.count or step.maximum
    first_culture = (
        FOCUS_CARDS[card].type == CULTURE and step is FOCUS_CARDS[card].effects[slot - 1].steps[0]
    )
    if first_culture:
        n += bonus + france_extra(state, seat)
    push_place(
        state, seat, n, slot if step.max_difficulty else 0, mode, bool(step.count), anchor, ctx
    )


def _last_city(state: CivState) -> int:
    """The city just built (recorded by industry in ``state.arrived`` as ``-2 - space``)."""
    for v in reversed(state.arrived):
        if -1000 < v <= -2:  # (caravan visits are stored as -1000 - i)
            return -2 - v
    return -1


@K.decision(K.D_PLACE, "place a control token")
def legal_place(state: CivState, frame: K.Frame) -> list[int]:
    """Legal spaces; optional placements may stop (DONE)."""
    seat = frame[1]
    if frame[2] <= 0:
        return []
    if state.supply[seat] <= 0 and seat not in state.tok:
        return []
    targets = [A.SPACE + s for s in place_targets(state, seat, frame)]
    if not targets:
        return []
    return targets if frame[5] else [A.DONE, *targets]


@K.applies(K.D_PLACE)
def apply_place(state: CivState, frame: K.Frame, action: int) -> None:
    """Place one token (CIV-8.5 if the supply is empty); Stonehenge may chain on hills."""
    seat = frame[1]
    if action == A.DONE:
        state.pending.pop()
        return
    s = action - A.SPACE
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()  # before placing: America may push a decision (CIV-24)
    if state.supply[seat] <= 0:  # CIV-8.5: first take one of your tokens from the map
        push(state, K.D_RECLAIM, seat, s, C.RC_PLACE, -1)
        return
    place_at(state, seat, s)


@K.decision(K.D_RECLAIM, "empty supply: token to take back from the map")
def legal_reclaim(state: CivState, frame: K.Frame) -> list[int]:
    """CIV-8.5: any of the seat's control tokens on the map (the player chooses).

    ``[D_RECLAIM, seat, space, purpose, x]``. ``DONE`` is the only answer (taken automatically)
    when the supply is no longer empty or the seat has no token on the map."""
    seat = frame[1]
    if state.supply[seat] > 0:
        return [A.DONE]
    own = [A.SPACE + x for x in C.indices(state.tok, seat)]
    return own or [A.DONE]


@K.applies(K.D_RECLAIM)
def apply_reclaim(state: CivState, frame: K.Frame, action: int) -> None:
    """Take the token back (a natural wonder under it returns, CIV-18.3), then do what needed it:
    place (CIV-8.1), replace a rival token (CIV-15.3, Mass Media, Eiffel Tower), stand in for a
    city (CIV-23.4) or mark an agenda (CIV-A27)."""
    state.pending.pop()
    seat, s, purpose = frame[1], frame[2], frame[3]
    if action != A.DONE:
        C.lift_token(state, action - A.SPACE)
        C.log(state, "reclaim", seat=seat, space=action - A.SPACE)
    if purpose == C.RC_TRANSFER:
        C.finish_transfer(state, s, seat, frame[4])
        return
    if state.supply[seat] <= 0:
        return
    if purpose == C.RC_PLACE:
        if placeable(state, seat, s, 0, C.CTX_NONE):
            place_at(state, seat, s)
    elif purpose == C.RC_OCCUPY:
        if state.tok[s] < 0 and state.city[s] < 0:
            C.place_token(state, seat, s, 1)
    else:  # RC_MARK: the marker leaves the supply
        state.supply[seat] -= 1


def place_at(state: CivState, seat: int, s: int) -> None:
    """Put the token; Stonehenge may chain on hills."""
    C.log(state, "place", seat=seat, space=s)
    C.place_token(state, seat, s)
    hill = state.board.terrain[s] == HILLS
    if hill and C.has_wonder(state, seat, "stonehenge") and state.supply[seat] > 0:
        push_place(state, seat, state.supply[seat], 0, STONEHENGE, False, s)


@op("move_own_control_token")
def op_move_own_control_token(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Drama and Poetry: you may move 1 token to an adjacent empty non-water space (CIV-A13)."""
    limit = slot if state.options.get("drama_move_slot_limit") else 0
    push(state, K.D_DP_FROM, seat, limit)


def _dp_dests(state: CivState, seat: int, s: int, limit: int) -> list[int]:
    return [
        n
        for n in state.board.adjacent[s]
        if not C.is_water(state, n)
        and C.empty(state, n)
        and (not limit or C.difficulty(state, seat, n) <= limit)
    ]


def empty_land_bits(state: CivState) -> int:
    """Bitset of the empty land spaces (:func:`.common.empty`, CIV-2.8: no token, no figure)."""
    b = state.board
    occ = C.occupancy(state)
    full = occ.occupied | occ.barbs | occ.cstates | b.water_mask
    bit = b.bit
    for values in (state.res, state.nw, state.wtok):
        for s in compress(range(len(values)), map((0).__le__, values)):
            full |= bit[s]
    for cv in state.caravans:
        for p in cv:
            if p >= 0:
                full |= bit[p]
    return b.valid_mask & ~full


@K.decision(K.D_DP_FROM, "Drama and Poetry: token to move")
def legal_dp_from(state: CivState, frame: K.Frame) -> list[int]:
    """Own tokens with an adjacent empty space (:func:`_dp_dests`), or skip."""
    seat, limit = frame[1], frame[2]
    b = state.board
    dests = empty_land_bits(state)
    if limit:
        dests &= C.land_within(state, seat, C.CTX_NONE, limit)
    adj = b.adjacent_mask
    srcs = [A.SPACE + s for s in b.spaces_of(C.occupancy(state).tokens[seat]) if adj[s] & dests]
    return [A.DONE, *srcs] if srcs else []


@K.applies(K.D_DP_FROM)
def apply_dp_from(state: CivState, frame: K.Frame, action: int) -> None:
    """Choose the destination next."""
    state.pending.pop()
    if action != A.DONE:
        push(state, K.D_DP_TO, frame[1], action - A.SPACE, frame[2])


@K.decision(K.D_DP_TO, "Drama and Poetry: destination")
def legal_dp_to(state: CivState, frame: K.Frame) -> list[int]:
    """Adjacent empty non-water spaces."""
    return [A.SPACE + n for n in sorted(_dp_dests(state, frame[1], frame[2], frame[3]))]


@K.applies(K.D_DP_TO)
def apply_dp_to(state: CivState, frame: K.Frame, action: int) -> None:
    """Move the token (a natural wonder left behind returns to its space, CIV-18.3)."""
    seat, src = frame[1], frame[2]
    state.pending.pop()
    r = state.reinf[src]
    C.log(state, "move_token", seat=seat, source=src, space=action - A.SPACE)
    C.lift_token(state, src)
    C.place_token(state, seat, action - A.SPACE, r)


def within(state: CivState, sources: list[int], dist: int) -> set[int]:
    """Spaces within ``dist`` steps of ``sources`` through non-water spaces."""
    b = state.board
    mask = 0
    for s in sources:
        mask |= b.bit[s]
    return set(b.spaces_of(within_bits(state, mask, dist)))


def within_bits(state: CivState, sources: int, dist: int) -> int:
    """:func:`within` on bitsets: the spaces ``dist`` steps or fewer from the bitset
    ``sources``, each step going on from the land spaces it reached (water is reached, not
    crossed)."""
    b = state.board
    water = b.water_mask
    seen = frontier = sources
    for _ in range(dist):
        ring = b.grow(frontier) & ~seen
        if not ring:
            break
        seen |= ring
        frontier = ring & ~water
    return seen


@op("convert_rival_control_token")
def op_convert_rival_control_token(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """Mass Media: one rival token within 2 of a friendly space is replaced or flipped."""
    push(state, K.D_MASSMEDIA, seat, step.within or 2)


@K.decision(K.D_MASSMEDIA, "Mass Media: rival control token")
def legal_massmedia(state: CivState, frame: K.Frame) -> list[int]:
    """Rival tokens in reach (mandatory if any)."""
    seat = frame[1]
    reach = within_bits(state, C.friendly_bits(state, seat), frame[2])
    occ = C.occupancy(state)
    rivals = 0
    for g, t in enumerate(occ.tokens):
        if g != seat:
            rivals |= t
    return [A.SPACE + s for s in state.board.spaces_of(reach & rivals)]


@K.applies(K.D_MASSMEDIA)
def apply_massmedia(state: CivState, frame: K.Frame, action: int) -> None:
    """Unreinforced: replaced by own unreinforced token; reinforced: flipped."""
    seat = frame[1]
    state.pending.pop()
    s = action - A.SPACE
    if state.log is not None:
        C.log(state, "convert", seat=seat, space=s, victim=state.tok[s], flipped=state.reinf[s])
    if state.reinf[s]:
        state.reinf[s] = 0
    else:
        C.transfer_token(state, s, seat)
