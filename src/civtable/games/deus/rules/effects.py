"""Card effects (DEUS-11 .. DEUS-17), one named rule function per effect kind of the data.

``EFFECTS[kind]`` is the function for ``catalog.EFFECT_KINDS[kind]`` (the key of the card's
``effect`` in ``cards.json``); find the code of a card by its effect kind or rule id. Each
function resolves the effect for the active seat; it returns True if it left a decision pending
(``state.phase`` set), False when the effect is fully resolved. The ``choose_*`` functions
resolve those decisions and return the same flag.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from civtable.games.deus.catalog import (
    BUILDING_COLORS,
    CARDS,
    CNT_COLOR_SETS,
    CNT_OCCUPIED_LAND,
    CNT_OWNED,
    CNT_PAIRS_MIN,
    CNT_PROD_LAND,
    CNT_REGIONS_MIN,
    CNT_TABLEAU,
    CNT_TEMPLE_CARDS,
    CNT_VILLAGES_ARMIES,
    G_CARDS,
    G_GOLD,
    G_PIECES,
    G_VP,
    HAND_LIMIT,
    LAND_RESOURCE,
    P_INDEX,
    PIECES,
    PURPLE,
    RESOURCES,
    Card,
    Counter,
    card_by_id,
)
from civtable.games.deus.rules.board import (
    army_bits,
    army_regions,
    destinations,
    move_army,
    owned_regions,
    popcount,
)
from civtable.games.deus.rules.log import event
from civtable.games.deus.state import BLIND_MARK, BUY_PH, GAIN, LAB, SELL_PH, TARGET

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState

PROD_BIT = 1 << P_INDEX["prod"]
NRES = len(RESOURCES)
NPIECES = len(PIECES)

# Purposes of a TARGET decision (ctx = [card, purpose, start, *moved]).
PU_PROD_ONE, PU_PROD_REGION, PU_STEAL, PU_SIEGE, PU_MOVE_FROM, PU_MOVE_TO = range(6)


# --- common helpers (DEUS-5.4, DEUS-7.8, DEUS-11.6) ------------------------------------------
def draw(state: DeusState, s: int, n: int) -> int:
    """Draw up to ``n`` cards, stopping at the hand limit (DEUS-5.4); an empty deck is rebuilt
    from the shuffled discard pile (DEUS-7.8), and drawing stops if both are empty (AMB-27).
    A card drawn is a hidden reveal: the move in progress can no longer be withdrawn
    (:meth:`DeusState.move_open`).

    The hand, the deck and the discard pile are replaced by new lists before they change, never
    changed in place: look-ahead copies share them (:meth:`DeusState.branch`)."""
    hand = state.hands[s]
    drawn = 0
    if not (n > 0 and len(hand) < HAND_LIMIT and (state.deck or state.discard)):
        return 0  # nothing to draw (the loop below would not draw either)
    state.open_seat = -1
    hand = state.hands[s] = hand[:]
    deck = state.deck = state.deck[:]
    while drawn < n and len(hand) < HAND_LIMIT:
        if not deck:
            if not state.discard:
                break
            deck = state.deck = state.discard[:]
            state.discard = []
            state.rng.shuffle(deck)
        hand.append(deck.pop())
        drawn += 1
    return drawn


def gain_resource(state: DeusState, s: int, r: int, n: int) -> int:
    """DEUS-11.6: take up to ``n`` of resource ``r`` from the general supply (partial)."""
    k = min(n, state.supply[r])
    if k:
        state.supply[r] -= k
        row = state.res[s] = state.res[s][:]  # a new row (DeusState.branch)
        row[r] += k
    return k


def count(state: DeusState, s: int, c: Counter) -> int:
    """Evaluate a COUNTER for seat ``s`` (DEUS-11.3, 11.4, 14.3, 16.7, 17).

    Cards and bots count many times per decision: the counters of the seat's regions walk them
    with plain loops (no list, no generator)."""
    kind = c.kind
    param = c.param
    if kind == CNT_TABLEAU:  # DEUS-14.3 (blind cards count, DEUS-21.3)
        return len(state.cols[s][param])
    if kind == CNT_OWNED:  # DEUS-17.2
        amount = state.gold[s] if param == G_GOLD else state.res[s][param]
        return amount // c.unit
    if kind == CNT_TEMPLE_CARDS:  # DEUS-17.3 / AMB-32
        return len(state.cols[s][PURPLE])
    if kind == CNT_COLOR_SETS:  # DEUS-17.4 / AMB-31
        return min(len(state.cols[s][col]) for col in BUILDING_COLORS)
    b = state.board
    owner = state.owner
    mask = state.mask
    k = 0
    r = -1
    if kind == CNT_OCCUPIED_LAND:  # DEUS-11.4
        terrain = b.terrain
        for _ in range(owner.count(s)):
            r = owner.index(s, r + 1)  # the seat's regions in order
            if terrain[r] == param:
                k += 1
        return k
    if kind in (CNT_REGIONS_MIN, CNT_PAIRS_MIN):  # DEUS-11.3, 15.4 (pairs)
        for _ in range(owner.count(s)):
            r = owner.index(s, r + 1)
            if mask[r].bit_count() >= param:
                k += 1
        return k // 2 if kind == CNT_PAIRS_MIN else k
    if kind == CNT_PROD_LAND:  # DEUS-12.2 Cooperatives
        terrain = b.terrain
        for _ in range(owner.count(s)):
            r = owner.index(s, r + 1)
            if mask[r] & PROD_BIT and terrain[r] == param:
                k += 1
        return k
    if kind == CNT_VILLAGES_ARMIES:  # DEUS-16.7 Ballista, DEUS-9.4
        armies = army_bits(state, s)
        if armies:
            vatt = state.vatt
            nbits = b.nbits
            for i, v in enumerate(b.villages):
                if not vatt[i] and nbits[v] & armies:
                    k += 1
        return k
    raise ValueError(f"unknown counter {kind}")


def start_gain_choice(state: DeusState, res_left: int, pieces_left: int) -> bool:
    """Enter the GAIN decision (resources / pieces of the player's choice) and settle what
    needs no choice. Returns True if a decision is pending."""
    state.phase = GAIN
    state.ctx = [res_left, pieces_left]
    return settle_gain(state)


def settle_gain(state: DeusState) -> bool:
    """Take automatically what leaves no choice (one type left, or everything available);
    AMB-23 / AMB-35: gains stop when the supply runs out."""
    s = state.cur
    res_left, pieces_left = state.ctx
    if res_left > 0:
        avail = [r for r in range(NRES) if state.supply[r] > 0]
        if len(avail) <= 1 or res_left >= sum(state.supply):
            for r in avail:
                k = gain_resource(state, s, r, res_left)
                res_left -= k
                if state.log is not None:  # the arguments are built only for the log
                    event(state, "take", player=s, res=r, n=k)
            res_left = 0
    if res_left == 0 and pieces_left > 0:
        sup = state.personal[s]
        avail = [p for p in range(NPIECES) if sup[p] > 0]
        if len(avail) <= 1 or pieces_left >= sum(sup):
            sup = state.personal[s] = sup[:]  # new rows (DeusState.branch)
            onboard = state.onboard[s] = state.onboard[s][:]
            for p in avail:
                k = min(pieces_left, sup[p])
                sup[p] -= k
                onboard[p] += k
                pieces_left -= k
                if state.log is not None:  # the arguments are built only for the log
                    event(state, "take", player=s, piece=p, n=k)
            pieces_left = 0
    state.ctx = [res_left, pieces_left]
    if res_left == 0 and pieces_left == 0:
        state.phase = -1
        return False
    return True


def choose_gain(state: DeusState, kind: str, arg: int) -> bool:
    """One resource (``res``) or piece (``piece``) of the player's choice."""
    s = state.cur
    if kind == "res":
        gain_resource(state, s, arg, 1)
        ctx = state.ctx = state.ctx[:]  # a new list (DeusState.branch)
        ctx[0] -= 1
        if state.log is not None:  # the arguments are built only for the log
            event(state, "take", player=s, res=arg, n=1)
    else:
        personal = state.personal[s] = state.personal[s][:]  # new rows (DeusState.branch)
        onboard = state.onboard[s] = state.onboard[s][:]
        personal[arg] -= 1
        onboard[arg] += 1
        ctx = state.ctx = state.ctx[:]
        ctx[1] -= 1
        if state.log is not None:  # the arguments are built only for the log
            event(state, "take", player=s, piece=arg, n=1)
    return settle_gain(state)


def gain_choices(state: DeusState) -> tuple[str, list[int]]:
    """The options of the pending GAIN decision."""
    s = state.cur
    if state.ctx[0] > 0:
        return "res", [r for r in range(NRES) if state.supply[r] > 0]
    return "piece", [p for p in range(NPIECES) if state.personal[s][p] > 0]


# --- the effect kinds -------------------------------------------------------------------------
def gain_per(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-12.2 Cooperatives, 14.1 School, 14.2 University, 14.3 Academies, 14.5 Workshops,
    15.1 .. 15.5 brown cards, 16.7 Ballista: ``amount`` x counter of the gain."""
    e = card.effect
    assert e.per is not None
    n = e.amount * count(state, s, e.per)
    g = e.gain
    got = n
    if g < NRES:
        got = gain_resource(state, s, g, n)
    elif g == G_VP:
        state.vp[s] += n
    elif g == G_GOLD:
        state.gold[s] += n
    elif g == G_CARDS:
        got = draw(state, s, n)  # DEUS-14.6
    elif g == G_PIECES:
        got = min(n, sum(state.personal[s]))
    if state.log is not None:  # the arguments are built only for the log
        event(state, "gain", player=s, card=card.id, item=g, n=got, wanted=n)
    if g == G_PIECES and n > 0:
        return start_gain_choice(state, 0, n)  # DEUS-14.5 / AMB-35
    return False


def score_per(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-8.8 / DEUS-11.1: temple cards do nothing when activated (they score at the end)."""
    return False


def temple_value(state: DeusState, s: int, card: Card) -> int:
    """DEUS-17: the end-game VP of one temple card, capped (DEUS-8.8)."""
    e = card.effect
    assert e.per is not None
    return min(e.cap, e.amount * count(state, s, e.per))


def _prod_regions(state: DeusState, s: int, land: int) -> list[int]:
    terrain = state.board.terrain
    mask = state.mask
    return [
        r
        for r in owned_regions(state, s)
        if mask[r] & PROD_BIT and (land < 0 or terrain[r] == land)
    ]


def produce_at_one_building(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-12.2 Small Production Building: one production building produces 1 of its land's
    resource (the choice matters only through the land, so one region per land is offered)."""
    return _ask_target(state, card, PU_PROD_ONE)


def produce_in_region(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-12.2 Sawmill / Farm / Quarry / Brickyard: a region of that land with your production
    building yields 1 per piece of yours there, temple included (DEUS-8.6)."""
    return _ask_target(state, card, PU_PROD_REGION)


def sell(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-13.2 Sailing Ships, Small Ports, Commercial Ports: sell 0..max lots (AMB-21)."""
    e = card.effect
    most = min(state.res[s][r] // k for r, k in enumerate(e.lot) if k > 0)
    if e.max_lots >= 0:
        most = min(most, e.max_lots)
    if most <= 0:
        event(state, "idle", player=s, card=card.id)
        return False
    state.phase = SELL_PH
    state.ctx = [card.index, most]
    return True


def choose_sell(state: DeusState, lots: int) -> bool:
    """Sell ``lots`` lots: resources back to the supply (DEUS-11.6), gold or VP gained."""
    s = state.cur
    e = CARDS[state.ctx[0]].effect
    res = state.res[s] = state.res[s][:]  # a new row (DeusState.branch)
    for r, k in enumerate(e.lot):
        res[r] -= k * lots
        state.supply[r] += k * lots
    state.gold[s] += e.price_gold * lots
    state.vp[s] += e.price_vp * lots
    event(
        state,
        "sell",
        player=s,
        card=CARDS[state.ctx[0]].id,
        lots=lots,
        gold=e.price_gold * lots,
        vp=e.price_vp * lots,
    )
    state.phase = -1
    return False


def buy(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-13.2 Galley: buy up to ``max`` resources of your choice, one decision each."""
    state.phase = BUY_PH
    state.ctx = [card.index, 0]
    if state.log is not None and not buy_choices(state):
        event(state, "idle", player=s, card=card.id)
    return settle_buy(state)


def buy_choices(state: DeusState) -> list[int]:
    """Resources the Galley may still buy now."""
    s = state.cur
    e = CARDS[state.ctx[0]].effect
    if state.ctx[1] >= e.max or state.gold[s] < e.price_gold:
        return []
    return [r for r in e.buy_resources if state.supply[r] > 0]


def settle_buy(state: DeusState) -> bool:
    """End the Galley decision when nothing more can be bought."""
    if buy_choices(state):
        return True
    state.phase = -1
    return False


def choose_buy(state: DeusState, r: int) -> bool:
    """Buy one resource ``r``."""
    s = state.cur
    e = CARDS[state.ctx[0]].effect
    state.gold[s] -= e.price_gold
    gain_resource(state, s, r, 1)
    ctx = state.ctx = state.ctx[:]  # a new list (DeusState.branch)
    ctx[1] += 1
    event(state, "buy", player=s, card=CARDS[state.ctx[0]].id, res=r, gold=e.price_gold)
    return settle_buy(state)


def activate(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-14.4 / AMB-34 Laboratory: resolve one card of that colour of your tableau once."""
    options = lab_choices(state, card.effect.color)
    if not options:
        event(state, "idle", player=s, card=card.id)
        return False
    if len(options) == 1:
        state.queue = [options[0], *state.queue]  # a new list (DeusState.branch)
        event(state, "lab", player=s, card=card.id, target=CARDS[options[0]].id)
        return False
    state.phase = LAB
    state.ctx = [card.index]
    return True


def lab_choices(state: DeusState, color: int) -> list[int]:
    """Distinct (non-blind) card types of ``color`` in the active seat's tableau."""
    return sorted({t for t in state.cols[state.cur][color] if t < BLIND_MARK})


def choose_lab(state: DeusState, t: int) -> bool:
    """The Laboratory's target goes first in the activation queue."""
    state.queue = [t, *state.queue]  # a new list (DeusState.branch)
    event(state, "lab", player=state.cur, card=CARDS[state.ctx[0]].id, target=CARDS[t].id)
    state.phase = -1
    return False


def steal(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-16.7 Centurion / Legion: pick one of your armies; each opponent occupying a region
    next to it loses ``amount`` (only what it has, AMB-22) to you."""
    return _ask_target(state, card, PU_STEAL)


def move_armies(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-16.7 Temporary Camps (one army, 0..4) and War Elephants (each army, 0..2), one army
    at a time (AMB-18), attacks checked after each move (DEUS-16.6)."""
    return _ask_target(state, card, PU_MOVE_FROM)


def take_from_village(state: DeusState, s: int, card: Card) -> bool:
    """DEUS-16.7 Siege Tower: take 2 VP (all if fewer) from an un-attacked village next to one
    of your armies (AMB-16, AMB-17)."""
    return _ask_target(state, card, PU_SIEGE)


EFFECTS: tuple[Callable[[DeusState, int, Card], bool], ...] = (
    gain_per,
    score_per,
    produce_at_one_building,
    produce_in_region,
    sell,
    buy,
    activate,
    steal,
    move_armies,
    take_from_village,
)


def rule_function(card_id: str) -> Callable[[DeusState, int, Card], bool]:
    """The rule function that resolves a card (by spec id ``BRN-09`` or key ``brewery_2``)."""
    return EFFECTS[card_by_id(card_id).effect.kind]


def resolve_card(state: DeusState, s: int, t: int) -> bool:
    """Resolve card type ``t``'s effect for ``s`` (DEUS-7.6.2); True if a decision is pending."""
    card = CARDS[t]
    return EFFECTS[card.effect.kind](state, s, card)


# --- region targets ---------------------------------------------------------------------------
def target_choices(state: DeusState) -> list[int]:
    """Regions the pending TARGET decision may pick."""
    s = state.cur
    card_i, purpose = state.ctx[0], state.ctx[1]
    e = CARDS[card_i].effect
    b = state.board
    if purpose == PU_PROD_ONE:
        by_land: dict[int, int] = {}
        for r in _prod_regions(state, s, -1):
            by_land.setdefault(b.terrain[r], r)
        return sorted(by_land.values())
    if purpose == PU_PROD_REGION:
        by_size: dict[int, int] = {}
        for r in _prod_regions(state, s, e.land):
            by_size.setdefault(popcount(state.mask[r]), r)
        return sorted(by_size.values())
    if purpose == PU_STEAL:
        return army_regions(state, s)
    if purpose == PU_SIEGE:  # the villages CNT_VILLAGES_ARMIES counts (DEUS-16.7)
        armies = army_bits(state, s)
        vatt = state.vatt
        nbits = b.nbits
        return [v for i, v in enumerate(b.villages) if not vatt[i] and nbits[v] & armies]
    if purpose == PU_MOVE_FROM:
        moved = state.ctx[3:]
        return [r for r in army_regions(state, s) if r not in moved]
    return destinations(state, s, state.ctx[2], e.max)  # PU_MOVE_TO


def _ask_target(state: DeusState, card: Card, purpose: int) -> bool:
    state.phase = TARGET
    state.ctx = [card.index, purpose, -1]
    if state.log is not None and not target_choices(state):
        event(state, "idle", player=state.cur, card=card.id)  # DEUS-11.5
    return settle_target(state)


def settle_target(state: DeusState) -> bool:
    """DEUS-11.5: no target = nothing happens; a single target (where no DONE is possible) is
    taken without asking."""
    options = target_choices(state)
    if not options:
        state.phase = -1
        return False
    purpose = state.ctx[1]
    each = CARDS[state.ctx[0]].effect.each
    if len(options) == 1 and not (purpose == PU_MOVE_FROM and each):
        return choose_target(state, options[0])
    return True


def choose_target(state: DeusState, r: int) -> bool:
    """Resolve the pending TARGET decision with region ``r``."""
    s = state.cur
    card_i, purpose = state.ctx[0], state.ctx[1]
    e = CARDS[card_i].effect
    b = state.board
    if purpose in (PU_PROD_ONE, PU_PROD_REGION):
        if purpose == PU_PROD_ONE:
            res, n = LAND_RESOURCE[b.terrain[r]], e.amount
        else:
            res, n = LAND_RESOURCE[e.land], e.amount * popcount(state.mask[r])
        got = gain_resource(state, s, res, n)
        if state.log is not None:  # the arguments are built only for the log
            event(state, "produce", player=s, card=CARDS[card_i].id, region=r, res=res, n=got)
    elif purpose == PU_STEAL:
        victims = {state.owner[n] for n in b.neighbours[r]} - {-1, s}
        taken = []
        for v in sorted(victims):
            stock = state.gold if e.item == G_GOLD else state.vp
            k = min(e.amount, stock[v])
            stock[v] -= k
            stock[s] += k
            taken.append([v, k])
        event(state, "steal", player=s, card=CARDS[card_i].id, region=r, item=e.item, taken=taken)
    elif purpose == PU_SIEGE:
        i = b.villages.index(r)
        k = min(e.amount, state.vvp[i])
        vvp = state.vvp = state.vvp[:]  # a new list (DeusState.branch)
        vvp[i] -= k
        state.vp[s] += k
        event(state, "siege", player=s, card=CARDS[card_i].id, village=r, vp=k)
    elif purpose == PU_MOVE_FROM:
        ctx = state.ctx = state.ctx[:]  # a new list (DeusState.branch)
        ctx[1] = PU_MOVE_TO
        ctx[2] = r
        return settle_target(state)
    else:  # PU_MOVE_TO
        if state.log is not None:  # the arguments are built only for the log
            event(state, "move", player=s, card=CARDS[card_i].id, origin=state.ctx[2], region=r)
        move_army(state, s, state.ctx[2], r)
        if e.each:
            ctx = state.ctx = state.ctx[:]  # a new list (DeusState.branch)
            ctx[1] = PU_MOVE_FROM
            ctx[2] = -1
            ctx.append(r)
            return settle_target(state)
    state.phase = -1
    return False


def stop_moving(state: DeusState) -> bool:
    """DONE while War Elephants are moving: the remaining armies stay."""
    state.phase = -1
    return False
