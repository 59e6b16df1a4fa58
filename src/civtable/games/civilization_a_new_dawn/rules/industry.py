"""Industry (CIV-11, CIV-12): building a city or a world wonder; on-build wonder effects.

Ops: ``build_city``, ``build_wonder``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    FOCUS_CARDS,
    PLAYER_CARDS,
    WONDERS,
    Step,
    card_of,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import culture
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.science import replace_card
from civtable.games.civilization_a_new_dawn.rules.turn import FEASIBLE, op, push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState


# --- CIV-11 cities --------------------------------------------------------------------------------
def city_destination_ok(state: CivState, seat: int, s: int, slot: int) -> bool:
    """CIV-11.3 (a)-(c) for the destination space."""
    return _destination_ok(state, seat, s, slot, C.difficulties(state, seat, C.CTX_CULT_IND))


def _destination_ok(state: CivState, seat: int, s: int, slot: int, diff: tuple[int, ...]) -> bool:
    """:func:`city_destination_ok` with the seat's difficulty table."""
    b = state.board
    if b.water[s] or diff[s] > slot:
        return False
    if state.city[s] >= 0 or state.barb[s] >= 0 or state.res[s] >= 0 or state.nw[s] >= 0:
        return False
    if state.cs[s] >= 0 or b.city_state[s] >= 0:
        return False
    t = state.tok[s]
    if t >= 0 and (t != seat or b.natural_wonder[s] >= 0):  # CIV-A17
        return False
    city = state.city
    return not any(city[n] >= 0 or b.city_state[n] >= 0 for n in b.adjacent[s])


def _city_candidates(
    state: CivState, seat: int, card: int, slot: int, rng: int
) -> tuple[int, tuple[int, ...]]:
    """The bitset of the spaces within range that pass CIV-11.3 (a)-(c) as bitsets (see
    :func:`city_spaces`), and the seat's difficulty table for the checks space by space."""
    b = state.board
    diff = C.difficulties(state, seat, C.CTX_CULT_IND)
    within = C.land_within(state, seat, C.CTX_CULT_IND, slot)
    passable = within
    if "city_range_through_water" in FOCUS_CARDS[card].abilities:
        passable |= b.water_mask
    occ = C.occupancy(state)  # once: each call compares the lists its bitsets came from
    cities = tokens = rivals = 0
    for g, f in enumerate(occ.friendly):
        if g != seat:
            rivals |= f
    passable &= ~(occ.barbs | rivals)
    seen = frontier = occ.friendly[seat]
    grow = b.grow
    for _ in range(rng):
        frontier = grow(frontier) & passable & ~seen
        if not frontier:
            break
        seen |= frontier
    # CIV-11.3 (a)-(c) as bitsets first (no city, barbarian, city-state or rival's token there,
    # no city or city-state next to it), then the remaining conditions space by space
    for c in occ.cities:
        cities |= c
    for t in occ.tokens:
        tokens |= t
    states = occ.cstates | b.city_state_mask
    taken = cities | states | occ.barbs | (tokens & ~occ.tokens[seat])
    return seen & within & ~(taken | grow(cities | states)), diff


def city_spaces(state: CivState, seat: int, card: int, slot: int, rng: int) -> list[int]:
    """Legal new-city spaces (CIV-11.3 (d) counted as in CIV-0.3).

    The spaces within range are found by a breadth-first search on the map's bitsets
    (:meth:`~.hexes.Board.grow`) from the friendly spaces, through land of difficulty at most
    the slot (and water with the card that allows it), never through barbarians or a rival's
    space."""
    b = state.board
    abilities = FOCUS_CARDS[card].abilities
    seen, diff = _city_candidates(state, seat, card, slot, rng)
    out = {s for s in b.spaces_of(seen) if _destination_ok(state, seat, s, slot, diff)}
    if "city_on_own_caravan_any_distance" in abilities:
        for p in state.caravans[seat]:
            if p >= 0 and _destination_ok(state, seat, p, slot, diff):
                out.add(p)
    if C.has_wonder(state, seat, "great_lighthouse"):
        for s in range(b.size):
            if b.edge[s] and C.empty(state, s) and _destination_ok(state, seat, s, slot, diff):
                out.add(s)
    return sorted(out)


def any_city_space(state: CivState, seat: int, card: int, slot: int, rng: int) -> bool:
    """``bool(city_spaces(...))``, stopping at the first legal space found."""
    b = state.board
    seen, diff = _city_candidates(state, seat, card, slot, rng)
    sob = b.space_of_bit
    while seen:
        low = seen & -seen
        if _destination_ok(state, seat, sob[low.bit_length() - 1], slot, diff):
            return True
        seen ^= low
    if "city_on_own_caravan_any_distance" in FOCUS_CARDS[card].abilities:
        for p in state.caravans[seat]:
            if p >= 0 and _destination_ok(state, seat, p, slot, diff):
                return True
    if C.has_wonder(state, seat, "great_lighthouse"):
        for s in range(b.size):
            if b.edge[s] and C.empty(state, s) and _destination_ok(state, seat, s, slot, diff):
                return True
    return False


def _feasible_city(
    state: CivState, seat: int, card: int, slot: int, step: Step, spent: int
) -> bool:
    return state.cities_left[seat] > 0 and any_city_space(state, seat, card, slot, step.range)


FEASIBLE["build_city"] = _feasible_city


@op("build_city")
def op_build_city(state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int) -> None:
    """CIV-11: choose the space next."""
    push(state, K.D_CITY, seat, card, slot, step.range)


@K.decision(K.D_CITY, "build a city")
def legal_city(state: CivState, frame: K.Frame) -> list[int]:
    """Legal spaces."""
    seat = frame[1]
    if state.cities_left[seat] <= 0:
        return []
    return [A.SPACE + s for s in city_spaces(state, seat, frame[2], frame[3], frame[4])]


@K.applies(K.D_CITY)
def apply_city(state: CivState, frame: K.Frame, action: int) -> None:
    """Build it; Animal Husbandry returns a caravan there; Urbanization's extra tokens."""
    seat, card, slot = frame[1], frame[2], frame[3]
    state.pending.pop()
    s = action - A.SPACE
    for i, p in enumerate(state.caravans[seat]):
        if p == s and "city_on_own_caravan_any_distance" in FOCUS_CARDS[card].abilities:
            C.caravan_home(state, seat, i)
            break
    C.build_city(state, seat, s)
    state.arrived.append(-2 - s)
    C.log(state, "city", seat=seat, space=s)
    eff = FOCUS_CARDS[card].effects[slot - 1]
    for st in eff.steps:
        if st.op == "build_city":
            for then in reversed(st.then):
                if then.op == "place_control_tokens":
                    culture.push_place(
                        state,
                        seat,
                        then.count or then.maximum,
                        slot if then.max_difficulty else 0,
                        culture.ADJ_ANCHOR,
                        bool(then.count),
                        s,
                    )


# --- CIV-12 wonders -----------------------------------------------------------------------------
def wonder_cost(state: CivState, seat: int, w: int) -> int:
    """CIV-12.4 with Egypt, Buenos Aires and Brussels; never below 0 (CIV-A50)."""
    won = WONDERS[w]
    cost = won.cost
    if state.leader[seat] == _EGYPT:
        cost -= 1
    held = state.cs_cards[seat]
    if _BUENOS_AIRES in held and not any(
        WONDERS[x].type == won.type for x in C.wonders_of(state, seat)
    ):
        cost -= 2
    if _BRUSSELS in held:
        cost -= len(C.mature_cities(state, seat))
    return max(0, cost)


def face_up_wonder_costs(state: CivState, seat: int) -> list[tuple[int, int]]:
    """(wonder, :func:`wonder_cost`) of each face-up wonder, deck by deck: the printed costs
    when no reduction applies to the seat (the common case), else :func:`wonder_cost` each."""
    held = state.cs_cards[seat]
    if state.leader[seat] != _EGYPT and _BUENOS_AIRES not in held and _BRUSSELS not in held:
        return [(d[0], _COSTS[d[0]]) for d in state.wdecks if d]
    return [(d[0], wonder_cost(state, seat, d[0])) for d in state.wdecks if d]


#: the printed cost of each wonder (never below 0)
_COSTS = tuple(max(0, w.cost) for w in WONDERS)
_EGYPT = C.L["egypt"]
_BUENOS_AIRES, _BRUSSELS = C.CS_ID["buenos_aires"], C.CS_ID["brussels"]


def nw_payable(state: CivState, seat: int, w: int) -> list[int]:
    """Held natural-wonder tokens usable for ``w`` this turn (CIV-18.2)."""
    res = WONDERS[w].resources
    return [n for n in state.nw_held[seat] if C.nw_resource(n) in res and n not in state.nw_used]


def max_production(state: CivState, seat: int, w: int, base: int) -> int:
    """Production if every eligible resource were spent (CIV-12.3)."""
    res = WONDERS[w].resources
    held = sum(state.resources[seat][r] for r in set(res))
    return base + 2 * held + 2 * len(nw_payable(state, seat, w))


def free_cities(state: CivState, seat: int) -> list[int]:
    """The seat's cities without a wonder token (CIV-12.1)."""
    return [s for s in C.cities(state, seat) if state.wtok[s] < 0]


def affordable(state: CivState, seat: int, base: int) -> list[int]:
    """Wonder types whose face-up card can be built (CIV-A15)."""
    if not free_cities(state, seat):
        return []
    return [
        t
        for t, deck in enumerate(state.wdecks)
        if deck and max_production(state, seat, deck[0], base) >= wonder_cost(state, seat, deck[0])
    ]


def _feasible_wonder(
    state: CivState, seat: int, card: int, slot: int, step: Step, spent: int
) -> bool:
    """``bool(affordable(...))``, stopping at the first affordable wonder."""
    wtok = state.wtok
    for s in C.cities(state, seat):
        if wtok[s] < 0:
            break
    else:
        return False  # no free city (:func:`free_cities`)
    base = step.base_production + spent
    for deck in state.wdecks:
        if deck and max_production(state, seat, deck[0], base) >= wonder_cost(state, seat, deck[0]):
            return True
    return False


FEASIBLE["build_wonder"] = _feasible_wonder


@op("build_wonder")
def op_build_wonder(
    state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int
) -> None:
    """CIV-12.2: choose a face-up wonder next (production = base + spent tokens)."""
    push(state, K.D_WDECK, seat, step.base_production + bonus)


@K.decision(K.D_WDECK, "choose a wonder")
def legal_wdeck(state: CivState, frame: K.Frame) -> list[int]:
    """Affordable face-up wonders."""
    return [A.WDECK + t for t in affordable(state, frame[1], frame[2])]


@K.applies(K.D_WDECK)
def apply_wdeck(state: CivState, frame: K.Frame, action: int) -> None:
    """Pay next."""
    state.pending.pop()
    w = state.wdecks[action - A.WDECK][0]
    push(state, K.D_WPAY, frame[1], w, frame[2])


@K.decision(K.D_WPAY, "pay for the wonder")
def legal_wpay(state: CivState, frame: K.Frame) -> list[int]:
    """Spend an eligible resource / natural wonder while short; build once enough."""
    seat, w, prod = frame[1], frame[2], frame[3]
    if prod >= wonder_cost(state, seat, w):
        return [A.OPT]
    res = WONDERS[w].resources
    out = [A.RES + r for r in sorted(set(res)) if state.resources[seat][r] > 0]
    out += [A.NW + n for n in sorted(nw_payable(state, seat, w))]
    return out


@K.applies(K.D_WPAY)
def apply_wpay(state: CivState, frame: K.Frame, action: int) -> None:
    """+2 per resource (returned) or natural wonder (kept, once per turn); or build."""
    seat, w = frame[1], frame[2]
    if action == A.OPT:
        state.pending.pop()
        push(state, K.D_WCITY, seat, w)
        return
    if action < A.CARD:
        r = action - A.RES
        state.resources[seat][r] -= 1
        state.res_supply[r] += 1
        C.log(state, "wonder_pay", seat=seat, wonder=WONDERS[w].id, resource=r)
    else:
        state.nw_used.append(action - A.NW)
        if state.log is not None:
            from civtable.games.civilization_a_new_dawn.catalog import NATURAL_WONDERS

            nid = NATURAL_WONDERS[action - A.NW].id
            C.log(state, "wonder_pay", seat=seat, wonder=WONDERS[w].id, natural_wonder=nid)
        C.america_gains(state, seat, action - A.NW)
    frame[3] += 2


@K.decision(K.D_WCITY, "city for the wonder token")
def legal_wcity(state: CivState, frame: K.Frame) -> list[int]:
    """A city of yours without a wonder."""
    return [A.SPACE + s for s in free_cities(state, frame[1])]


@K.applies(K.D_WCITY)
def apply_wcity(state: CivState, frame: K.Frame, action: int) -> None:
    """CIV-12.5: take the card, token under the city, reveal the next card; on-build effects."""
    seat, w = frame[1], frame[2]
    state.pending.pop()
    s = action - A.SPACE
    deck = state.wdecks[WONDERS[w].type]
    deck.remove(w)
    state.wonder_owner[w] = seat
    state.wtok[s] = w
    C.log(state, "wonder", seat=seat, wonder=WONDERS[w].id, space=s)
    if state.log is not None:  # the next card of that deck is turned face up (CIV-12.5)
        top = WONDERS[deck[0]].id if deck else None
        C.log(state, "wonder_revealed", deck=WONDERS[w].type, wonder=top)
    wid = WONDERS[w].id
    if wid == "pyramids":
        push(state, K.D_PYRAMIDS, seat, int(WONDERS[w].params.get("max_cards", 3)))
    elif wid == "porcelain_tower":
        push(state, K.D_PORCELAIN, seat, int(WONDERS[w].params.get("max_cards", 2)))
    elif wid == "potala_palace":
        push(state, K.D_POTALA, seat, int(WONDERS[w].params.get("take_on_build", 3)))


@K.decision(K.D_PYRAMIDS, "Pyramids: upgrade a level-I card")
def legal_pyramids(state: CivState, frame: K.Frame) -> list[int]:
    """Level-I cards in the row."""
    if frame[2] <= 0:
        return []
    row = state.row[frame[1]]
    opts = [
        A.TYPE + C.place_of(state, frame[1], c)
        for c in row
        if FOCUS_CARDS[c].level == 1 and card_of(FOCUS_CARDS[c].type, 2) not in row
    ]
    return [A.DONE, *sorted(opts)] if opts else []


@K.applies(K.D_PYRAMIDS)
def apply_pyramids(state: CivState, frame: K.Frame, action: int) -> None:
    """Replace with the level-II card of that type."""
    if action == A.DONE:
        state.pending.pop()
        return
    cur = state.place[frame[1]][action - A.TYPE]
    replace_card(state, frame[1], card_of(FOCUS_CARDS[cur].type, 2), action - A.TYPE)
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()


@K.decision(K.D_PORCELAIN, "Porcelain Tower: upgrade a card")
def legal_porcelain(state: CivState, frame: K.Frame) -> list[int]:
    """Cards below level IV."""
    if frame[2] <= 0:
        return []
    row = state.row[frame[1]]
    opts = [
        A.TYPE + C.place_of(state, frame[1], c)
        for c in row
        if FOCUS_CARDS[c].level < 4
        and card_of(FOCUS_CARDS[c].type, FOCUS_CARDS[c].level + 1) not in row
    ]
    return [A.DONE, *sorted(opts)] if opts else []


@K.applies(K.D_PORCELAIN)
def apply_porcelain(state: CivState, frame: K.Frame, action: int) -> None:
    """Replace with the next-higher-level card of that type."""
    if action == A.DONE:
        state.pending.pop()
        return
    k = action - A.TYPE
    cur = state.place[frame[1]][k]
    f = FOCUS_CARDS[cur]
    replace_card(state, frame[1], card_of(f.type, f.level + 1), k)
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()


@K.decision(K.D_POTALA, "Potala Palace: take a diplomacy card")
def legal_potala(state: CivState, frame: K.Frame) -> list[int]:
    """Any other player's card not held by you (CARD + giver * 4 + kind)."""
    seat = frame[1]
    if frame[2] <= 0:
        return []
    opts = [
        A.CARD + g * len(PLAYER_CARDS) + k
        for g in range(state.players)
        if g != seat
        for k in range(len(PLAYER_CARDS))
        if state.pcard_holder[g][k] != seat
    ]
    return [A.DONE, *opts] if opts else []


@K.applies(K.D_POTALA)
def apply_potala(state: CivState, frame: K.Frame, action: int) -> None:
    """Take it (from whoever holds it)."""
    if action == A.DONE:
        state.pending.pop()
        return
    idx = action - A.CARD
    g, k = divmod(idx, len(PLAYER_CARDS))
    state.pcard_holder[g][k] = frame[1]
    C.log(state, "potala", seat=frame[1], giver=g, card=PLAYER_CARDS[k])
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()
