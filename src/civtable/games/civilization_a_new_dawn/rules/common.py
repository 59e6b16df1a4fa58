"""Shared queries and atomic changes: friendliness, difficulty, tokens, cities, maturity.

Every other rules module changes the map only through these functions, so the component
bookkeeping (supplies, resource and natural-wonder tokens, wonder control) stays consistent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from civtable.games.civilization_a_new_dawn.catalog import (
    CITY_STATES,
    DESERT,
    ECONOMY,
    FOCUS_CARDS,
    FOREST,
    GRASS,
    HILLS,
    LEADER_INDEX,
    MOUNTAINS,
    NATURAL_WONDERS,
    OPEN_BORDERS,
    TRADE_CAP,
    WATER,
    WONDER_INDEX,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

# difficulty contexts
CTX_NONE = 0
CTX_PLACE = 1  # placing control tokens (Mohenjo-Daro)
CTX_CULT_IND = 2  # resolving own culture or industry card (Kumasi)

W = WONDER_INDEX
SYDNEY = W["sydney_opera_house"]
L = LEADER_INDEX
CS_ID = {c.id: c.index for c in CITY_STATES}
_JAPAN = L["japan"]
_KUMASI, _MOHENJO_DARO = CS_ID["kumasi"], CS_ID["mohenjo_daro"]

# turn_flags bits
F_CAPITALISM = 1  # Capitalism pending after reset
F_CAPITALISM_USED = 2
F_VENETIAN_USED = 4
F_WON_ATTACK = 8
F_START_HG = 16
F_START_FC = 32
F_START_ORACLE = 64
F_START_SEOUL = 128
F_MARACANA_USED = 256
F_IN_EXTRA = 512
F_START_GENEVA = 1024
F_START_EIFFEL = 2048
F_START_GZ = 4096
ATTACKS_SHIFT = 16  # bits 16-23: attacks declared this turn
BASE_SHIFT = 24  # bits 24-31: attacks declared before the current military resolution
COUNT_MASK = 0xFF


def attacks_this_turn(state: CivState) -> int:
    """Attacks declared this turn (every resolution)."""
    return state.turn_flags >> ATTACKS_SHIFT & COUNT_MASK


def attacks_this_resolution(state: CivState) -> int:
    """Attacks declared by the military card being resolved (D6.5 Mass Production)."""
    return attacks_this_turn(state) - (state.turn_flags >> BASE_SHIFT & COUNT_MASK)


def log(state: CivState, event: str = "", **args: Any) -> None:
    """Append a public log event when the state keeps a log (``state.log`` is a list).

    The event is structure only, ``{"kind": event, ...args}`` with ids and numbers (a player is
    ``player``, a map space ``space``, a card by its id), never English: the words module turns it
    into a line in the reader's language. Every event is public (CIV-26.2), so the acting seat is
    stored as ``player`` (``seat`` would mark the event private to that seat).
    """
    if state.log is not None:
        if "seat" in args:
            args["player"] = args.pop("seat")
        state.log.append({"kind": event, **args})


def card_at(state: CivState, seat: int, place: int) -> str:
    """The id of the focus card holding ``place`` in the seat's row (for log events)."""
    return FOCUS_CARDS[state.place[seat][place]].id


def has_wonder(state: CivState, seat: int, wonder_id: str) -> bool:
    """Does ``seat`` control that world wonder (CIV-19.2)?"""
    return state.wonder_owner[W[wonder_id]] == seat


def is_leader(state: CivState, seat: int, leader_id: str) -> bool:
    """Is ``seat`` playing that civilization?"""
    return state.leader[seat] == L[leader_id]


def holds_cs_card(state: CivState, seat: int, cs_id: str) -> bool:
    """Does ``seat`` hold that city-state's diplomacy card?"""
    return CS_ID[cs_id] in state.cs_cards[seat]


def friendly(state: CivState, seat: int, s: int) -> bool:
    """CIV-2.8: own city, capital or control token."""
    return state.tok[s] == seat or state.city[s] == seat


def rival_space(state: CivState, seat: int, s: int) -> bool:
    """CIV-2.8: another player's city, capital or control token."""
    t, c = state.tok[s], state.city[s]
    return (t >= 0 and t != seat) or (c >= 0 and c != seat)


def owner_of(state: CivState, s: int) -> int:
    """The player owning the space (city or token), -1 if none."""
    c = state.city[s]
    return c if c >= 0 else state.tok[s]


def is_capital(state: CivState, s: int) -> bool:
    """Is ``s`` a player's capital space?"""
    c = state.city[s]
    return c >= 0 and state.capital[c] == s


def empty(state: CivState, s: int) -> bool:
    """CIV-2.8: no token and no figure (printed symbols do not count)."""
    if state.tok[s] >= 0 or state.city[s] >= 0 or state.barb[s] >= 0:
        return False
    if state.res[s] >= 0 or state.nw[s] >= 0 or state.cs[s] >= 0 or state.wtok[s] >= 0:
        return False
    return not any(s in cv for cv in state.caravans)


def _modifiers(state: CivState, seat: int, ctx: int) -> tuple[bool, bool, bool]:
    """Which difficulty modifiers apply: Japan's Divine Wind, Kumasi, Mohenjo-Daro."""
    return (
        state.current == seat and state.leader[seat] == _JAPAN,
        bool(ctx & CTX_CULT_IND) and _KUMASI in state.cs_cards[seat],
        bool(ctx & CTX_PLACE) and _MOHENJO_DARO in state.cs_cards[seat],
    )


def land_within(state: CivState, seat: int, ctx: int, limit: int) -> int:
    """Bitset of the land spaces whose effective difficulty for ``seat`` is at most ``limit``
    (a table of the board per modifiers and limit)."""
    b = state.board
    key = (*_modifiers(state, seat, ctx), limit)
    mask = b.land_masks.get(key)
    if mask is None:
        diff = difficulties(state, seat, ctx)
        mask = 0
        for s in range(b.size):
            if not b.water[s] and diff[s] <= limit:
                mask |= b.bit[s]
        b.land_masks[key] = mask
    return mask


def water_within(state: CivState, seat: int, ctx: int, limit: int) -> int:
    """Bitset of the water spaces whose effective difficulty for ``seat`` is at most ``limit``
    (as :func:`land_within`)."""
    b = state.board
    key = (*_modifiers(state, seat, ctx), -1 - limit)  # negative: the water table
    mask = b.land_masks.get(key)
    if mask is None:
        diff = difficulties(state, seat, ctx)
        mask = 0
        for s in range(b.size):
            if b.water[s] and diff[s] <= limit:
                mask |= b.bit[s]
        b.land_masks[key] = mask
    return mask


def difficulties(state: CivState, seat: int, ctx: int = CTX_NONE) -> tuple[int, ...]:
    """Effective difficulty of every space for ``seat`` (CIV-2.2-2.5 with leader/card
    modifiers): a table of the board per combination of the modifiers that apply."""
    b = state.board
    key = _modifiers(state, seat, ctx)
    table = b.difficulty_tables.get(key)
    if table is None:
        japan, kumasi, mohenjo = key
        out = []
        for s, d in enumerate(b.difficulty):
            t = b.terrain[s]
            if japan and t in (DESERT, MOUNTAINS) and b.water_or_edge[s]:
                d = 3  # Japan, Divine Wind
            if kumasi and t == FOREST:
                d = 1
            if mohenjo:
                d -= 1
            out.append(d)
        table = b.difficulty_tables[key] = tuple(out)
    return table


def difficulty(state: CivState, seat: int, s: int, ctx: int = CTX_NONE) -> int:
    """Effective difficulty of ``s`` for ``seat`` (CIV-2.2-2.5 with leader/card modifiers)."""
    return difficulties(state, seat, ctx)[s]


class Occupancy:
    """Bitsets (:class:`~.hexes.Board`) of what lies on the map, derived from the state's
    per-space lists and kept (``state.occupancy``) with copies of the lists they were derived
    from; :func:`occupancy` derives them again when a list differs."""

    __slots__ = (
        "barb",
        "barbs",
        "cities",
        "city",
        "cs",
        "cstates",
        "friendly",
        "occupied",
        "tok",
        "tokens",
    )

    def __init__(self, state: CivState | None = None) -> None:
        if state is None:  # an empty object whose fields the caller sets (:meth:`changed`)
            return
        self.tok, self.city = state.tok[:], state.city[:]
        self.barb, self.cs = state.barb[:], state.cs[:]
        b = state.board
        bit = b.bit
        tokens = [0] * state.players
        cities = [0] * state.players
        for s, t in enumerate(self.tok):
            if t >= 0:
                tokens[t] |= bit[s]
        for s, c in enumerate(self.city):
            if c >= 0:
                cities[c] |= bit[s]
        barbs = 0
        for s, x in enumerate(self.barb):
            if x >= 0:
                barbs |= bit[s]
        cstates = 0
        for s in b.city_state_spaces:
            if self.cs[s] >= 0:
                cstates |= bit[s]
        #: per seat: its control tokens; its cities and capital
        self.tokens, self.cities = tokens, cities
        #: barbarians
        self.barbs = barbs
        #: city-state tokens
        self.cstates = cstates
        self._derive()

    def _derive(self) -> None:
        #: per seat: its friendly spaces (:func:`friendly`)
        self.friendly = [t | c for t, c in zip(self.tokens, self.cities, strict=True)]
        occupied = 0
        for m in self.friendly:
            occupied |= m
        #: any player's control token or city
        self.occupied = occupied

    def changed(self, state: CivState, s: int, tokens: bool) -> Occupancy:
        """The bitsets after the control token (``tokens``) or the city on ``s`` changed to
        what ``state`` holds now, everything else as before (a new object: these are shared
        by copies of the state)."""
        new = Occupancy()  # not __new__: the compiled build runs __init__
        new.tok, new.city = (state.tok[:], self.city) if tokens else (self.tok, state.city[:])
        new.barb, new.cs, new.barbs, new.cstates = self.barb, self.cs, self.barbs, self.cstates
        masks = (self.tokens if tokens else self.cities)[:]
        bit = state.board.bit[s]
        for g in range(len(masks)):
            masks[g] &= ~bit
        owner = (state.tok if tokens else state.city)[s]
        if owner >= 0:
            masks[owner] |= bit
        new.tokens, new.cities = (masks, self.cities) if tokens else (self.tokens, masks)
        new._derive()
        return new

    def barbarian_changed(self, state: CivState, s: int) -> Occupancy:
        """The bitsets after the barbarian on ``s`` changed to what ``state`` holds now (a new
        object, as :meth:`changed`)."""
        new = Occupancy()  # not __new__: the compiled build runs __init__
        new.tok, new.city, new.cs, new.cstates = self.tok, self.city, self.cs, self.cstates
        new.tokens, new.cities = self.tokens, self.cities
        new.friendly, new.occupied = self.friendly, self.occupied
        new.barb = state.barb[:]
        bit = state.board.bit[s]
        new.barbs = self.barbs | bit if new.barb[s] >= 0 else self.barbs & ~bit
        return new


def _in_step(state: CivState) -> Occupancy | None:
    """The kept bitsets if they describe the state's lists as they are, else None."""
    occ = state.occupancy
    if (
        occ is None
        or occ.tok != state.tok
        or occ.city != state.city
        or occ.barb != state.barb
        or occ.cs != state.cs
    ):
        return None
    return occ


def set_token(state: CivState, s: int, owner: int) -> None:
    """Put ``owner``'s control token on ``s`` (-1: none), keeping the map's bitsets."""
    occ = _in_step(state)
    state.tok[s] = owner
    if occ is not None:
        state.occupancy = occ.changed(state, s, tokens=True)


def set_city(state: CivState, s: int, owner: int) -> None:
    """Put ``owner``'s city on ``s`` (-1: none), keeping the map's bitsets."""
    occ = _in_step(state)
    state.city[s] = owner
    if occ is not None:
        state.occupancy = occ.changed(state, s, tokens=False)


def set_barbarian(state: CivState, s: int, letter: int) -> None:
    """Put barbarian ``letter`` on ``s`` (-1: none), keeping the map's bitsets."""
    occ = _in_step(state)
    state.barb[s] = letter
    if occ is not None:
        state.occupancy = occ.barbarian_changed(state, s)


def occupancy(state: CivState) -> Occupancy:
    """The map's bitsets for the current position (derived again only after a change)."""
    occ = state.occupancy
    if (
        occ is None
        or occ.tok != state.tok
        or occ.city != state.city
        or occ.barb != state.barb
        or occ.cs != state.cs
    ):
        occ = state.occupancy = Occupancy(state)
    return occ


def friendly_bits(state: CivState, seat: int) -> int:
    """Bitset of the spaces friendly to ``seat`` (:func:`friendly`, CIV-2.8)."""
    return occupancy(state).friendly[seat]


def city_bits(state: CivState, seat: int) -> int:
    """Bitset of the seat's cities and capital."""
    return occupancy(state).cities[seat]


def rival_bits(state: CivState, seat: int) -> int:
    """Bitset of the spaces of other players (:func:`rival_space`, CIV-2.8)."""
    m = 0
    for g, f in enumerate(occupancy(state).friendly):
        if g != seat:
            m |= f
    return m


def barbarian_bits(state: CivState) -> int:
    """Bitset of the spaces holding barbarians."""
    return occupancy(state).barbs


def occupied_bits(state: CivState) -> int:
    """Bitset of the spaces holding a control token or a city of any player."""
    return occupancy(state).occupied


def city_state_bits(state: CivState) -> int:
    """Bitset of the spaces holding a city-state token."""
    return occupancy(state).cstates


def is_water(state: CivState, s: int) -> bool:
    """Water space (CIV-2.2)."""
    return state.board.terrain[s] == WATER


def cities(state: CivState, seat: int) -> list[int]:
    """Spaces of the seat's cities and capital, ascending."""
    return indices(state.city, seat)


def indices(values: list[int], v: int) -> list[int]:
    """The positions of ``v`` in ``values``, ascending (found by ``list.index``: faster than a
    loop over every space when there are few)."""
    out: list[int] = []
    s = -1
    for _ in range(values.count(v)):
        s = values.index(v, s + 1)
        out.append(s)
    return out


def place_of(state: CivState, seat: int, card: int) -> int:
    """The place (0..4) a row card holds: where its trade tokens lie (CIV-7.5).

    Every row card holds one place; normally the card of type ``t`` holds place ``t``. A card
    replacing another takes its place, with the tokens on it (CIV-7.5, CIV-9.5); only Oxford
    University makes a place hold a card of another type (D7)."""
    return state.place[seat].index(card)


def place_of_type(state: CivState, seat: int, type_: int) -> int:
    """The place of the seat's card of ``type_`` (place ``type_`` first), or -1 if none."""
    pl = state.place[seat]
    if FOCUS_CARDS[pl[type_]].type == type_:
        return type_
    for k, c in enumerate(pl):
        if FOCUS_CARDS[c].type == type_:
            return k
    return -1


def trade_on(state: CivState, seat: int, card: int) -> int:
    """Trade tokens on a row card."""
    return state.trade[seat][state.place[seat].index(card)]


def card_in_row(state: CivState, seat: int, type_: int) -> int:
    """The seat's focus card of ``type_`` in the row (place ``type_`` first), or -1."""
    k = place_of_type(state, seat, type_)
    return state.place[seat][k] if k >= 0 else -1


def slot_of(state: CivState, seat: int, type_: int) -> int:
    """Slot number 1..5 of the seat's card of ``type_`` (0 if none)."""
    c = card_in_row(state, seat, type_)
    return state.row[seat].index(c) + 1 if c >= 0 else 0


def conquered(state: CivState, seat: int) -> list[int]:
    """The city-states the seat conquered (their tokens lie on its cards, CIV-16.3)."""
    return [c for c, o in enumerate(state.cs_owner) if o == seat]


def cs_tokens_on(state: CivState, seat: int, type_: int) -> list[int]:
    """City-state tokens on the card holding place ``type_`` (CIV-16.3, CIV-7.5)."""
    owner = state.cs_owner
    if seat not in owner:  # no conquered city-state: the usual case
        return []
    return [c.index for c in CITY_STATES if owner[c.index] == seat and c.type == type_]


def usable_cs_tokens(state: CivState, seat: int, type_: int) -> list[int]:
    """City-state tokens on that card not yet used this turn (CIV-7.6)."""
    return [c for c in cs_tokens_on(state, seat, type_) if 100 + c not in state.nw_used]


def usable_nw_tokens(state: CivState, seat: int, type_: int) -> list[int]:
    """America: natural-wonder tokens lying on that card, unused this turn."""
    return [n for n in state.nw_held[seat] if state.nw_card[n] == type_ and n not in state.nw_used]


def extra_tokens(state: CivState, seat: int, type_: int) -> int:
    """Token-like items usable on that card besides its trade tokens."""
    return len(usable_cs_tokens(state, seat, type_)) + len(usable_nw_tokens(state, seat, type_))


def america_gains(state: CivState, seat: int, n: int) -> None:
    """America (Roosevelt Corollary): a gained or spent natural wonder goes on a focus card."""
    if is_leader(state, seat, "america"):
        state.pending.append([K.D_AMERICA, seat, n])


def add_trade(state: CivState, seat: int, type_: int, n: int = 1) -> int:
    """Add up to ``n`` trade tokens to a card; excess returns to the supply (CIV-7.2)."""
    room = TRADE_CAP - state.trade[seat][type_]
    k = max(0, min(room, n))
    state.trade[seat][type_] += k
    return k


def gain_resource(state: CivState, seat: int, r: int) -> bool:
    """Take a resource token from the supply if any is left (CIV-18.4)."""
    if state.res_supply[r] <= 0:
        return False
    state.res_supply[r] -= 1
    state.resources[seat][r] += 1
    return True


def take_control_of_wonder_token(state: CivState, seat: int, s: int) -> None:
    """CIV-19.4: a city or control token put on a lone wonder token takes the wonder."""
    w = state.wtok[s]
    if w >= 0:
        state.wonder_owner[w] = seat


def place_token(state: CivState, seat: int, s: int, reinforced: int = 0) -> None:
    """Put one of the seat's control tokens on ``s`` (supply must be non-empty)."""
    state.supply[seat] -= 1
    set_token(state, s, seat)
    state.reinf[s] = reinforced
    r = state.res[s]
    if r >= 0:  # CIV-8.3
        state.res[s] = -1
        state.resources[seat][r] += 1
        if state.log is not None:
            log(state, "resource", seat=seat, resource=r, space=s)
    n = state.nw[s]
    if n >= 0:
        state.nw[s] = -1
        state.nw_held[seat].append(n)
        if state.log is not None:
            log(state, "natural_wonder", seat=seat, natural_wonder=NATURAL_WONDERS[n].id, space=s)
        america_gains(state, seat, n)
    if state.city[s] < 0:
        take_control_of_wonder_token(state, seat, s)


def lift_token(state: CivState, s: int, city_state_returns: bool = True) -> int:
    """Return the control token on ``s`` to its owner's supply (CIV-18.3, CIV-23.2).

    A stand-in token (CIV-23.4) leaving its conquered city-state's space (a card effect, a
    barbarian, the owner taking it back under CIV-8.5 or moving it with Drama and Poetry) frees
    the city-state as CIV-A11 says; pass ``city_state_returns=False`` when a conquest or a
    liberation settles the city-state itself (CIV-16.4)."""
    owner = state.tok[s]
    if owner < 0:
        return -1
    set_token(state, s, -1)
    state.reinf[s] = 0
    state.supply[owner] += 1
    n = state.board.natural_wonder[s]
    if n >= 0 and n in state.nw_held[owner]:
        state.nw_held[owner].remove(n)
        state.nw_card[n] = -1
        state.nw[s] = n
    w = state.wtok[s]
    if w >= 0 and state.city[s] < 0 and state.wonder_owner[w] == owner:
        state.wonder_owner[w] = -1  # CIV-19.3 / CIV-A12
    cs = state.board.city_state[s]
    if city_state_returns and cs >= 0 and state.cs_owner[cs] == owner and state.city[s] < 0:
        reset_city_state(state, cs)  # CIV-A11
    return owner


def transfer_token(state: CivState, s: int, new_owner: int) -> None:
    """CIV-15.3: a won attack replaces a rival token; natural and world wonders change hands.

    With an empty supply the new owner first chooses a token to take back (CIV-8.5, a
    ``D_RECLAIM`` decision); the replacement is then finished by :func:`finish_transfer`."""
    old = state.tok[s]
    n = state.board.natural_wonder[s]
    set_token(state, s, -1)
    state.reinf[s] = 0
    state.supply[old] += 1
    if n >= 0 and n in state.nw_held[old]:
        state.nw_held[old].remove(n)
        state.nw_card[n] = -1
        state.nw_held[new_owner].append(n)
        if state.log is not None:
            nid = NATURAL_WONDERS[n].id
            log(state, "natural_wonder", seat=new_owner, natural_wonder=nid, space=s, victim=old)
        america_gains(state, new_owner, n)
    if state.supply[new_owner] <= 0 and new_owner in state.tok:
        state.pending.append([K.D_RECLAIM, new_owner, s, RC_TRANSFER, old])
        return
    finish_transfer(state, s, new_owner, old)


def finish_transfer(state: CivState, s: int, new_owner: int, old: int) -> None:
    """Put the new owner's unreinforced token on ``s`` (none at all: the space stays empty)."""
    cs = state.board.city_state[s]
    if state.supply[new_owner] <= 0:
        if cs >= 0 and state.cs_owner[cs] == old:
            reset_city_state(state, cs)
        return
    state.supply[new_owner] -= 1
    set_token(state, s, new_owner)
    state.reinf[s] = 0
    if state.wtok[s] >= 0:
        state.wonder_owner[state.wtok[s]] = new_owner
    if cs >= 0 and state.cs_owner[cs] == old:  # a stand-in token (CIV-23.4) keeps the city-state
        state.cs_owner[cs] = new_owner


#: what a ``[D_RECLAIM, seat, space, purpose, x]`` decision does once a token is back (CIV-8.5)
RC_PLACE, RC_TRANSFER, RC_OCCUPY, RC_MARK = range(4)


def need_token(state: CivState, seat: int, purpose: int, s: int = -1, x: int = -1) -> bool:
    """CIV-8.5: True if the seat's supply has a token; else, if the seat has tokens on the map,
    push the decision of which one to take back (``purpose`` says what follows) and return
    False; with no token anywhere return False (nothing is placed)."""
    if state.supply[seat] > 0:
        return True
    if seat in state.tok:
        state.pending.append([K.D_RECLAIM, seat, s, purpose, x])
    return False


def build_city(state: CivState, seat: int, s: int) -> None:
    """Put one of the seat's unused cities on ``s`` (CIV-11.3(b), CIV-15.4)."""
    if state.tok[s] == seat:
        lift_token(state, s)
    state.cities_left[seat] -= 1
    set_city(state, s, seat)
    take_control_of_wonder_token(state, seat, s)


def remove_city(state: CivState, s: int) -> int:
    """A non-capital city returns to its owner's supply (CIV-15.4, CIV-21.4)."""
    owner = state.city[s]
    set_city(state, s, -1)
    state.cities_left[owner] += 1
    return owner


def caravan_home(state: CivState, seat: int, i: int) -> None:
    """A caravan goes back to the economy card (CIV-10.6, CIV-10.10, CIV-A47)."""
    state.caravans[seat][i] = -1
    allowed = caravans_allowed(state, seat)
    unlocked = sum(1 for p in state.caravans[seat] if p != -2)
    if unlocked > allowed:
        state.caravans[seat][i] = -2


def caravans_allowed(state: CivState, seat: int) -> int:
    """Caravans the economy card allows (CIV-10.1; Oxford rows: the most of their economy
    cards, none without one)."""
    return max(
        (
            FOCUS_CARDS[c].effects[0].steps[0].caravans
            for c in state.row[seat]
            if FOCUS_CARDS[c].type == ECONOMY
        ),
        default=0,
    )


def sync_caravans(state: CivState, seat: int) -> None:
    """After an economy card change: unlock new figures onto the card or set aside (CIV-10.2)."""
    allowed = caravans_allowed(state, seat)
    cv = state.caravans[seat]
    unlocked = sum(1 for p in cv if p != -2)
    for i in range(len(cv)):
        if unlocked < allowed and cv[i] == -2:
            cv[i] = -1
            unlocked += 1
    for i in range(len(cv) - 1, -1, -1):
        if unlocked > allowed and cv[i] == -1:
            cv[i] = -2
            unlocked -= 1


def destroy_caravans_at(state: CivState, s: int) -> None:
    """Every caravan on ``s`` returns to its owner's card (CIV-21.4, CIV-21.6)."""
    for seat, cv in enumerate(state.caravans):
        for i, p in enumerate(cv):
            if p == s:
                caravan_home(state, seat, i)


def reset_city_state(state: CivState, cs: int) -> None:
    """CIV-A11: the city-state token returns to its space, its cards face up, nobody takes one."""
    state.cs_owner[cs] = -1
    for s, c in enumerate(state.board.city_state):
        if c == cs:
            state.cs[s] = cs
    state.cs_avail[cs] = 2 - sum(1 for h in state.cs_cards if cs in h)


def mature(state: CivState, seat: int, s: int) -> bool:
    """CIV-2.9: every adjacent space holds a friendly control token or is water (CIV-A26)."""
    return not state.board.land_adjacent_mask[s] & ~_maturing_bits(state, seat, occupancy(state))


def _maturing_bits(state: CivState, seat: int, occ: Occupancy) -> int:
    """The spaces that count toward maturing the seat's cities (CIV-2.9): its control tokens;
    with the Sydney Opera House any control token; with a rival's Open Borders card that
    rival's tokens and cities (CIV-A26)."""
    bits = occ.tokens[seat]
    if state.wonder_owner[SYDNEY] == seat:
        for t in occ.tokens:
            bits |= t
    for g in range(state.players):
        if g != seat and state.pcard_holder[g][OPEN_BORDERS] == seat:
            bits |= occ.tokens[g] | occ.cities[g]
    return bits


def maturing_bits(state: CivState, seat: int) -> int:
    """The spaces that count toward maturing the seat's cities (CIV-2.9, CIV-A26), a bitset."""
    return _maturing_bits(state, seat, occupancy(state))


def mature_cities(state: CivState, seat: int) -> list[int]:
    """The seat's mature cities (capital included), ascending: a list shared by every position
    of the map with the same cities and maturing spaces (remembered per map), not to be changed."""
    occ = occupancy(state)
    return mature_cities_of(state, seat, occ, _maturing_bits(state, seat, occ))


def maturing_bits_of(state: CivState, seat: int, occ: Occupancy) -> int:
    """:func:`maturing_bits` with the position's bitsets ``occ`` (:func:`occupancy`) given."""
    return _maturing_bits(state, seat, occ)


def mature_cities_of(state: CivState, seat: int, occ: Occupancy, ok: int) -> list[int]:
    """:func:`mature_cities` with the position's bitsets ``occ`` (:func:`occupancy`) and the
    seat's maturing spaces ``ok`` (:func:`maturing_bits`) given."""
    b = state.board
    cities = occ.cities[seat]
    memo = b.mature_memo
    got = memo.get((cities, ok))
    if got is None:
        if len(memo) >= MATURE_MEMO_SIZE:
            memo.clear()
        adj = b.land_adjacent_mask
        got = memo[(cities, ok)] = [s for s in b.spaces_of(cities) if not adj[s] & ~ok]
    return got


#: mature-city lists remembered per map at most (the memo then starts again)
MATURE_MEMO_SIZE = 4096


def friendly_spaces(state: CivState, seat: int) -> int:
    """Number of spaces friendly to ``seat`` (CIV-22.3 tie-break)."""
    return friendly_bits(state, seat).bit_count()


def wonders_of(state: CivState, seat: int) -> list[int]:
    """World wonders controlled by ``seat``."""
    return [w for w, o in enumerate(state.wonder_owner) if o == seat]


def wonder_space(state: CivState, w: int) -> int:
    """Space holding wonder ``w``'s token, -1 if none."""
    try:
        return state.wtok.index(w)
    except ValueError:
        return -1


def total_trade(state: CivState, seat: int) -> int:
    """Trade tokens on the seat's focus cards."""
    return sum(state.trade[seat])


def nw_resource(n: int) -> int:
    """Resource a natural-wonder token counts as (D2)."""
    return NATURAL_WONDERS[n].resource


def steppable_grass_hills(state: CivState, s: int) -> bool:
    """Scythia: the defending space is grassland or hills (a city-state space is grassland)."""
    b = state.board
    return b.city_state[s] >= 0 or b.terrain[s] in (GRASS, HILLS)


def wonder_era(w: int) -> int:
    """Era index of wonder ``w``."""
    return WONDERS[w].era
