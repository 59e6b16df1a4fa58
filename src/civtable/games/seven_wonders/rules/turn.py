"""Turns and steps: legal decisions, commitments and simultaneous resolution (SW-3, SW-4, SW-8).

Every decision belongs to a *city*. In a main step every city owes one commitment (SW-8.1); a
seat decides for its own city and, in the 2-player variant, the controller also decides for the
Free City (SW-14.4). Commitments are stored hidden; the one that completes the set resolves the
step (SW-8.3). Turn 6 adds Babylon B's extra step (SW-8.4), any turn may end with a
Halikarnassus build (SW-8.5), and an age ends with military conflicts (SW-11).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from civtable.core.errors import IllegalActionError
from civtable.games.seven_wonders.actions import (
    BUILD,
    CHAIN,
    DISCARD,
    FREE,
    HALI,
    HALI_PASS,
    K_BUILD,
    K_DISCARD,
    K_STAGE,
    OLYMPIA,
    PAID,
    PAY,
    STAGE,
    decode_pay,
    pay_action,
)
from civtable.games.seven_wonders.catalog import (
    BOARDS,
    CARDS,
    FREE_COST_ID,
    N_CARDS,
    POWER_FREE_BUILD,
    Card,
    Per,
)
from civtable.games.seven_wonders.rules import military, setup
from civtable.games.seven_wonders.rules.trade import (
    COST_SUPPORT,
    SIGNATURES,
    missing_vectors,
    most_units,
    payment_options,
    unit_prices,
)
from civtable.games.seven_wonders.state import EXTRA, HALI_PHASE, MAIN, OVER

if TYPE_CHECKING:
    from civtable.games.seven_wonders.state import City, SevenWondersState


# --- affordability ----------------------------------------------------------------------------
def chain_free(city: City, card: Card) -> bool:
    """Does the city own a chain parent of ``card`` (SW-5.5)?"""
    return bool(city.keys & card.chain_keys)


def affordable_payments(
    state: SevenWondersState, c: int, cost_id: int, coin_cost: int
) -> tuple[tuple[int, int], ...]:
    """Payment options ``(to left, to right)`` city ``c`` can fund now (SW-7, SW-7.10)."""
    cities = state.cities
    city = cities[c]
    budget = city.coins - coin_cost
    if budget < 0:
        return ()
    own, discount = city.own_sig, city.discount
    left, right = cities[(c + 1) % state.n].trade_sig, cities[(c - 1) % state.n].trade_sig
    prices = _cheapest.get((own, left, right, discount))
    if prices is not None and prices.get(cost_id) == 0:
        return _NO_PAYMENT  # a cheapest price of 0: own production covers the cost (SW-6)
    opts = payment_options(cost_id, own, left, right, discount)
    if opts and opts[-1][0] + opts[-1][1] <= budget:
        return opts
    return tuple(o for o in opts if o[0] + o[1] <= budget)


def can_build(state: SevenWondersState, c: int, card: Card) -> bool:
    """Can city ``c`` build ``card`` now, paying or by chain (SW-4.2, SW-4.3, SW-5)?"""
    city = state.cities[c]
    if city.keys >> card.key_index & 1:
        return False
    if city.keys & card.chain_keys:  # SW-5.5 chain
        return True
    budget = city.coins - card.coin_cost
    if budget < 0:
        return False
    if card.cost_id == FREE_COST_ID:
        return True
    n = state.n
    opts = payment_options(
        card.cost_id,
        city.own_sig,
        state.cities[(c + 1) % n].trade_sig,
        state.cities[(c - 1) % n].trade_sig,
        city.discount,
    )
    return bool(opts) and opts[0][0] + opts[0][1] <= budget  # options are cheapest first


#: per board and side: the cost id of the next stage when ``k`` are built, -1 once all are
NEXT_STAGE_COST = tuple(
    tuple((*(stage.cost_id for stage in side), -1) for side in board.sides) for board in BOARDS
)
#: per board and side: the stages to build before Olympia A's free build is there (99: never)
FREE_BUILD_AT = tuple(
    tuple(
        next((i + 1 for i, st in enumerate(side) if st.effect.power == POWER_FREE_BUILD), 99)
        for side in board.sides
    )
    for board in BOARDS
)


def stage_payments(state: SevenWondersState, c: int) -> tuple[tuple[int, int], ...]:
    """Payment options for the city's next wonder stage; empty if none left (SW-4.5, SW-5.7)."""
    city = state.cities[c]
    cost_id = NEXT_STAGE_COST[city.board][city.side][city.stages]
    if cost_id < 0:
        return ()
    return affordable_payments(state, c, cost_id, 0)


def free_build_available(state: SevenWondersState, c: int) -> bool:
    """Olympia A's once-per-age free build is usable now (SW-10.8)."""
    city = state.cities[c]
    return not city.free_used and city.stages >= FREE_BUILD_AT[city.board][city.side]


# --- hands ------------------------------------------------------------------------------------
def hand_of(state: SevenWondersState, c: int) -> list[int]:
    """The cards city ``c`` chooses from in the current step."""
    if state.two_player and c == 0 and state.phase == MAIN:
        return state.hands[state.controller]  # SW-14.4: the FC's card comes from the controller
    return state.hands[c]


# --- legal actions ----------------------------------------------------------------------------
#: per card: (its key bit, its chain parents' key bits, coin cost, cost id), for legal_actions
_BUILD_INFO = tuple((1 << c.key_index, c.chain_keys, c.coin_cost, c.cost_id) for c in CARDS)

#: a cheapest price above any treasury: the cost cannot be covered at all
_UNBUYABLE = 1 << 30
#: the payment options of a cost own production covers
_NO_PAYMENT: tuple[tuple[int, int], ...] = ((0, 0),)
#: (own production, left and right tradeable production, discounts) -> {cost id: the coins of
#: the cheapest payment option (SW-7), or _UNBUYABLE; or, negated, the coins of one legal plan
#: (so the cheapest costs at most that), when that was enough to answer (see _cheapest_for)};
#: a pure cache, cleared when large
_cheapest: dict[tuple[int, int, int, int], dict[int, int]] = {}
_CHEAPEST_LIMIT = 100_000
#: payment options -> the sorted PAY actions of a pending payment choice (a pure cache)
_pay_actions: dict[tuple[tuple[int, int], ...], list[int]] = {}


def _cheapest_for(
    table: dict[int, int],
    cost_id: int,
    own: int,
    left: int,
    right: int,
    discount: int,
    budget: int = -1,
) -> int:
    """The coins of the cheapest payment option for ``cost_id`` (stored in ``table``).

    With a ``budget`` (coins the buyer can spend, 0 or more) the answer may instead be a bound,
    negated: ``-p`` says some legal plan costs ``p <= budget`` coins, so the cost is affordable
    (the cheapest option costs at most ``p``); a caller with fewer coins than ``p`` asks again.
    """
    # Answers without the search: own fixed units cover the cost (SW-6: nothing to buy); some
    # resource is short even counting every unit of the city and both neighbours (SW-7.1: no
    # plan at all; about half of the first queries of a position); one unit; fixed units only.
    own_fixed = SIGNATURES[own][0]
    support = COST_SUPPORT[cost_id]
    short = -1  # a resource own fixed units do not cover
    for i, amount in support:
        if own_fixed[i] < amount:
            short = i
            break
    if short < 0:
        table[cost_id] = 0
        return 0
    most_own, most_left, most_right = most_units(own), most_units(left), most_units(right)
    for i, amount in support:
        if amount > most_own[i] + most_left[i] + most_right[i]:
            table[cost_id] = _UNBUYABLE
            return _UNBUYABLE
    if len(support) == 1 and support[0][1] == 1:
        # One unit: an own choice unit offering it covers it (SW-6.5), else it is bought from
        # a neighbour able to give it at that side's price (SW-7.3, SW-7.6); one exists, as the
        # check above found the unit somewhere.
        if most_own[short]:
            price = 0
        else:
            price_l, price_r = unit_prices(discount)
            price = min(
                price_l[short] if most_left[short] else _UNBUYABLE,
                price_r[short] if most_right[short] else _UNBUYABLE,
            )
        table[cost_id] = price
        return price
    left_fixed, right_fixed = SIGNATURES[left][0], SIGNATURES[right][0]
    for i, _ in support:
        if most_left[i] != left_fixed[i] or most_right[i] != right_fixed[i]:
            break  # a neighbour's choice unit could sell a resource of the cost: the search
    else:
        # Neighbours sell these resources from fixed units only, each resource on its own
        # (SW-7.5). Without own choice units one vector of units is missing; with them, the
        # cheapest of the minimal missing vectors (SW-6.5, SW-7.12).
        if SIGNATURES[own][1]:
            price = min(
                _vector_prices(cost_id, own, support, left_fixed, right_fixed, discount),
                default=_UNBUYABLE,
            )
        else:
            price_l, price_r = unit_prices(discount)
            price = _fixed_price(
                [(i, amount - own_fixed[i]) for i, amount in support if amount > own_fixed[i]],
                left_fixed,
                right_fixed,
                price_l,
                price_r,
            )
        table[cost_id] = price
        return price
    if budget > 0:
        # The neighbours have choice units, so the cheapest plan needs the search (SW-7.5).
        # But buying a minimal missing vector from their fixed units alone is a legal plan too
        # (SW-7.12); if one such plan fits the budget, the cost is affordable without it.
        for p in _vector_prices(cost_id, own, support, left_fixed, right_fixed, discount):
            if p <= budget:
                table[cost_id] = -p
                return -p
    opts = payment_options(cost_id, own, left, right, discount)  # memoized: apply asks again
    price = table[cost_id] = opts[0][0] + opts[0][1] if opts else _UNBUYABLE
    return price


def _vector_prices(
    cost_id: int,
    own: int,
    support: tuple[tuple[int, int], ...],
    left_fixed: tuple[int, ...],
    right_fixed: tuple[int, ...],
    discount: int,
) -> Iterator[int]:
    """The coins of buying each minimal missing vector of ``cost_id`` (given ``own``'s units)
    from the neighbours' fixed units alone (:func:`_fixed_price`); each is a legal plan
    (SW-7.12)."""
    price_l, price_r = unit_prices(discount)
    for need in missing_vectors(cost_id, own):
        yield _fixed_price(
            [(i, need[i]) for i, _ in support if need[i]],
            left_fixed,
            right_fixed,
            price_l,
            price_r,
        )


def _fixed_price(
    missing: list[tuple[int, int]],
    left_fixed: tuple[int, ...],
    right_fixed: tuple[int, ...],
    price_l: tuple[int, ...],
    price_r: tuple[int, ...],
) -> int:
    """The cheapest coins for ``(resource, units)`` bought from the neighbours' fixed units:
    the cheaper side first (SW-7.3, SW-7.6), then the other; _UNBUYABLE if they lack units."""
    price = 0
    for i, need in missing:
        left_first = price_l[i] <= price_r[i]
        cheap = price_l[i] if left_first else price_r[i]
        dear = price_r[i] if left_first else price_l[i]
        cheap_units = left_fixed[i] if left_first else right_fixed[i]
        dear_units = right_fixed[i] if left_first else left_fixed[i]
        bought = need if need < cheap_units else cheap_units
        if need - bought > dear_units:
            return _UNBUYABLE
        price += bought * cheap + (need - bought) * dear
    return price


def legal_actions(state: SevenWondersState, seat: int) -> list[int]:
    """Sorted legal actions of ``seat``'s current decision."""
    phase = state.phase
    two_player = state.two_player
    if two_player:
        c = state.current_city(seat)
        if c < 0:
            return []
    elif phase != OVER and state.needs[seat] and state.commits[seat] is None:
        c = seat  # current_city inlined: one city per seat
    else:
        return []
    if phase == HALI_PHASE:
        return _hali_actions(state, c)
    pending = state.await_pay[c]
    if pending is not None:
        options = pending[2]
        pays = _pay_actions.get(options)
        if pays is None:
            if len(_pay_actions) > _CHEAPEST_LIMIT:
                _pay_actions.clear()
            pays = _pay_actions[options] = sorted(pay_action(lf, rt) for lf, rt in options)
        return pays[:]
    cities = state.cities
    city = cities[c]
    fc = two_player and c == 0
    out: list[int] = []
    # can_build inlined (the hot loop of every search): owned, chained, coin cost, purchases.
    keys, coins, own_sig, discount = city.keys, city.coins, city.own_sig, city.discount
    n = state.n
    left_sig, right_sig = cities[(c + 1) % n].trade_sig, cities[(c - 1) % n].trade_sig
    # the cheapest option decides: options are cheapest first and funded by coins (SW-7.10)
    prices = _cheapest.get((own_sig, left_sig, right_sig, discount))
    if prices is None:
        if len(_cheapest) > _CHEAPEST_LIMIT:
            _cheapest.clear()
        prices = _cheapest[(own_sig, left_sig, right_sig, discount)] = {}
    # stage_payments and free_build_available inlined
    board, side, stages = city.board, city.side, city.stages
    stage_cost = NEXT_STAGE_COST[board][side][stages]
    if stage_cost < 0:
        stage_ok = False
    else:
        price = prices.get(stage_cost)
        if price is None or -price > coins:  # unknown, or a bound above these coins
            price = _cheapest_for(prices, stage_cost, own_sig, left_sig, right_sig, discount, coins)
        stage_ok = price <= coins  # a bound (negative) was within the coins
    free_ok = not city.free_used and stages >= FREE_BUILD_AT[board][side]
    hand = state.hands[state.controller] if fc and phase == MAIN else state.hands[c]
    for t in set(hand):
        key_bit, chain_keys, coin_cost, cost_id = _BUILD_INFO[t]
        owned = keys & key_bit
        if owned:
            built = False
        elif keys & chain_keys:
            built = True
            if fc:
                out.append(BUILD + t)  # SW-14.5: the Free City must build a chained card
                continue
        else:
            budget = coins - coin_cost
            if budget < 0:
                built = False
            elif cost_id == FREE_COST_ID:
                built = True
            else:
                price = prices.get(cost_id)
                if price is None or -price > budget:  # unknown, or a bound above the budget
                    price = _cheapest_for(
                        prices, cost_id, own_sig, left_sig, right_sig, discount, budget
                    )
                built = price <= budget  # a bound (negative) was within the budget
        if built:
            out.append(BUILD + t)
        if free_ok and not owned:
            out.append(FREE + t)
        if stage_ok:
            out.append(STAGE + t)
        if not (fc and (built or stage_ok or (free_ok and not owned))):
            out.append(DISCARD + t)  # SW-4.6; SW-14.5 restricts the Free City
    out.sort()
    return out


def _hali_actions(state: SevenWondersState, c: int) -> list[int]:
    city = state.cities[c]
    out = {HALI + t for t in state.discard if not city.keys >> CARDS[t].key_index & 1}
    out.add(HALI_PASS)
    return sorted(out)


def hali_candidates(state: SevenWondersState, c: int) -> list[int]:
    """Distinct discard-pile cards city ``c`` could build (SW-10.11)."""
    city = state.cities[c]
    return sorted({t for t in state.discard if not city.keys >> CARDS[t].key_index & 1})


# --- describing -------------------------------------------------------------------------------
def _hali_text(card: Card) -> str:
    age = "I" * card.age if card.age < 3 else "III"
    return f"build {card.name} (Age {age}) from the discard pile for free"


#: the labels of the actions from ``DISCARD`` on, ``HALI_PASS`` last (they name only the card)
_FIXED_TEXT: tuple[str, ...] = (
    *(f"discard {card.name} for 3 coins" for card in CARDS),
    *(f"build {card.name} for free (Olympia)" for card in CARDS),
    *(_hali_text(card) for card in CARDS),
    "take nothing from the discard pile",
)
assert len(_FIXED_TEXT) == HALI_PASS - DISCARD + 1


def _payment_text(left: int, right: int, coin_cost: int = 0) -> str:
    key = (left, right, coin_cost)
    hit = _payment_texts.get(key)
    if hit is None:
        hit = _payment_texts[key] = _new_payment_text(left, right, coin_cost)
    return hit


#: (left, right, coins to the bank) -> the payment's text (few: coins are small)
_payment_texts: dict[tuple[int, int, int], str] = {}


def _new_payment_text(left: int, right: int, coin_cost: int) -> str:
    parts = []
    if coin_cost:
        parts.append(f"{coin_cost} to the bank")
    if left:
        parts.append(f"{left} to the left neighbour")
    if right:
        parts.append(f"{right} to the right neighbour")
    return "pay " + " and ".join(parts) if parts else "no payment"


def describe(state: SevenWondersState, seat: int, action: int) -> str:
    """A readable label for ``action`` as ``seat`` would take it now."""
    c = state.current_city(seat)
    prefix = "Free City: " if state.two_player and c == 0 else ""
    return _describe(state, c, prefix, action)


#: per card: the labels of building it for free by chain, of building it with its one payment
#: (the payment's text follows) and of building it with a payment still to choose
_CHAIN_TEXT: tuple[str, ...] = tuple(f"build {card.name} for free (chain)" for card in CARDS)
_BUILD_TEXT: tuple[str, ...] = tuple(f"build {card.name}, " for card in CARDS)
_BUILD_CHOOSE_TEXT: tuple[str, ...] = tuple(
    f"build {card.name}, choose the payment next" for card in CARDS
)


def describe_all(state: SevenWondersState, seat: int, actions: list[int]) -> list[str]:
    """:func:`describe` of each of ``actions`` (a view's labels), sharing the work they have in
    common: the seat's city and the payment of its next wonder stage; builds and the fixed
    texts are worked out here without a call per action."""
    c = state.current_city(seat)
    if c < 0:
        return [_describe(state, c, "", a) for a in actions]
    prefix = "Free City: " if state.two_player and c == 0 else ""
    city = state.cities[c]
    keys = city.keys
    stage_text = ""
    out = []
    for action in actions:
        if 0 <= action < STAGE:  # build (SW-4.2): free by chain, one payment, or a choice
            card = CARDS[action]
            if keys & card.chain_keys:
                text = _CHAIN_TEXT[action]
            else:
                opts = affordable_payments(state, c, card.cost_id, card.coin_cost)
                if len(opts) == 1:
                    text = _BUILD_TEXT[action] + _payment_text(*opts[0], card.coin_cost)
                else:
                    text = _BUILD_CHOOSE_TEXT[action]
        elif STAGE <= action < DISCARD:
            if not stage_text:
                opts = stage_payments(state, c)
                pay = _payment_text(*opts[0]) if len(opts) == 1 else "choose the payment next"
                stage_text = f"build wonder stage {city.stages + 1} with {{}}, {pay}"
            text = stage_text.format(CARDS[action - STAGE].name)
        elif DISCARD <= action < PAY:
            text = _FIXED_TEXT[action - DISCARD]
        else:
            out.append(_describe(state, c, prefix, action))
            continue
        out.append(prefix + text if prefix else text)
    return out


def _describe(state: SevenWondersState, c: int, prefix: str, action: int) -> str:
    """:func:`describe` for the city ``c`` deciding (or -1), labels prefixed by ``prefix``."""
    if action >= PAY:
        left, right = decode_pay(action)
        pending = state.await_pay[c] if c >= 0 else None
        coin_cost = CARDS[pending[1]].coin_cost if pending and pending[0] == K_BUILD else 0
        return prefix + _payment_text(left, right, coin_cost)
    if not 0 <= action < PAY:
        return f"unknown action {action}"
    if action >= DISCARD:  # discard, Olympia, Halikarnassus, pass: the same text in any position
        return prefix + _FIXED_TEXT[action - DISCARD]
    card = CARDS[action % N_CARDS]
    if c < 0:
        return prefix + ("build " if action < STAGE else "wonder stage with ") + card.name
    city = state.cities[c]
    if action >= STAGE:
        n = city.stages + 1
        opts = stage_payments(state, c)
        pay = _payment_text(*opts[0]) if len(opts) == 1 else "choose the payment next"
        return prefix + f"build wonder stage {n} with {card.name}, {pay}"
    if chain_free(city, card):
        return prefix + f"build {card.name} for free (chain)"
    opts = affordable_payments(state, c, card.cost_id, card.coin_cost)
    if len(opts) == 1:
        return prefix + f"build {card.name}, " + _payment_text(*opts[0], card.coin_cost)
    return prefix + f"build {card.name}, choose the payment next"


# --- applying ---------------------------------------------------------------------------------
def apply(state: SevenWondersState, seat: int, action: int) -> None:
    """Apply a legal action (already validated by the caller)."""
    phase = state.phase
    two_player = state.two_player
    c = state.current_city(seat) if two_player else seat  # 3+ players: the seat's own city
    if phase == HALI_PHASE:
        _resolve_hali(state, c, action)
        _advance(state)
        return
    pending = state.await_pay[c]
    if pending is not None:
        left, right = decode_pay(action)
        state.await_pay[c] = None
        state.commits[c] = (pending[0], pending[1], left, right, PAID)
    else:
        t = action % N_CARDS
        hand = state.hands[state.controller] if two_player and c == 0 and phase == MAIN else None
        (state.hands[c] if hand is None else hand).remove(t)  # hand_of inlined
        if action < STAGE:
            card = CARDS[t]
            if state.cities[c].keys & card.chain_keys:  # SW-5.5 chain
                state.commits[c] = (K_BUILD, t, 0, 0, CHAIN)
            else:
                opts = affordable_payments(state, c, card.cost_id, card.coin_cost)
                _commit_or_ask(state, c, K_BUILD, t, opts)
        elif action < DISCARD:
            _commit_or_ask(state, c, K_STAGE, t, stage_payments(state, c))
        elif action < FREE:
            state.commits[c] = (K_DISCARD, t, 0, 0, PAID)
        elif action < HALI:
            state.commits[c] = (K_BUILD, t, 0, 0, OLYMPIA)
        else:  # pragma: no cover - validated by the caller
            raise IllegalActionError(f"action {action} is not a step action", action=action)
    needs, commits = state.needs, state.commits
    for city in range(state.n):
        if needs[city] and commits[city] is None:
            return
    _resolve_step(state)
    _advance(state)


def _commit_or_ask(
    state: SevenWondersState, c: int, kind: int, t: int, opts: tuple[tuple[int, int], ...]
) -> None:
    if len(opts) == 1:
        state.commits[c] = (kind, t, opts[0][0], opts[0][1], PAID)
    else:
        state.await_pay[c] = (kind, t, opts)


#: colour mask -> the colour indexes it names (counting effects, SW-9.6 .. SW-9.8)
_COLOR_INDEXES = tuple(tuple(i for i in range(7) if mask >> i & 1) for mask in range(128))


def count(state: SevenWondersState, c: int, per: Per, extra_purple: int = 0) -> int:
    """Evaluate a counting effect from city ``c``'s point of view (SW-9.6 .. SW-9.8)."""
    total = 0
    counted = _COLOR_INDEXES[per.colors]
    for bit, city_index in ((1, c), (2, (c + 1) % state.n), (4, (c - 1) % state.n)):
        if not per.cities & bit:
            continue
        city = state.cities[city_index]
        colors = city.colors
        for i in counted:
            total += colors[i]
        if per.wonder_stages:
            total += city.stages
        if per.defeat_tokens:
            total += city.defeats
        if bit == 1 and per.colors >> 6 & 1:
            total += extra_purple
    return total * per.amount


def _event(state: SevenWondersState, kind: str, seat: int | None = None, **args: object) -> None:
    """Log a structured event (ids and numbers; player words come from ``words.py``).

    ``seat`` marks an event only that seat may see (SW-3.9). Callers check ``state.log`` first
    when building the arguments costs anything."""
    if state.log is not None:
        ev: dict[str, object] = {"age": state.age, "turn": state.turn, "kind": kind, **args}
        if seat is not None:
            ev["seat"] = seat
        state.log.append(ev)


def city_label(state: SevenWondersState, c: int) -> str:
    """How developer labels (``describe``) name a city."""
    if state.two_player and c == 0:
        return "Free City"
    return f"Player {state.seat_of(c) + 1}"


def _resolve_step(state: SevenWondersState) -> None:
    """SW-8.3: payments, then placement, then immediate effects on the placed state."""
    n = state.n
    cities = state.cities
    commits = state.commits
    log = state.log is not None
    income = [0] * n
    done: list[tuple[int, int, int]] = []  # (city, kind, card or stage number)
    # 1. payments (SW-7.10: funded by coins held at the start of the step)
    for c in range(n):
        commit = commits[c]
        if commit is None:
            continue
        kind, t, left, right, free = commit
        if kind == K_DISCARD:
            continue
        cost = left + right + (CARDS[t].coin_cost if kind == K_BUILD and free == PAID else 0)
        if cost:
            cities[c].coins -= cost
            if left:
                income[(c + 1) % n] += left
            if right:
                income[(c - 1) % n] += right
        if free == OLYMPIA:
            cities[c].free_used = True
        if log and cost:  # SW-3.9: transfers are public
            _event(state, "pay", city=c, bank=cost - left - right, left=left, right=right)
    # 2. placement
    discard, discard_known = state.discard, state.discard_known
    two_player = state.two_player
    for c in range(n):
        commit = commits[c]
        if commit is None:
            continue
        kind, t, _, _, free = commit
        city = cities[c]
        if kind == K_BUILD:
            city.add_structure(t)
            done.append((c, K_BUILD, t))
            if log:
                how = {PAID: "paid", CHAIN: "chain", OLYMPIA: "olympia"}[free]
                _event(state, "build", city=c, card=CARDS[t].id, how=how)
        elif kind == K_STAGE:
            stage = city.add_stage(t)
            done.append((c, K_STAGE, stage.number))
            if city.stage_grants_discard_build(stage.number):
                state.hali_due = c
            if log:
                _event(state, "stage", city=c, stage=stage.number)
        else:
            discard.append(t)
            discard_known.append(state.decider(c) if two_player else c)
            income[c] += 3  # SW-4.6
            if log:
                _event(state, "discard", city=c, coins=3)
                _event(state, "discarded", state.decider(c), city=c, card=CARDS[t].id)
    # 3. immediate effects, on the state after all placements (SW-8.3.3)
    for c, kind, what in done:
        if kind == K_BUILD:
            effect = CARDS[what].effect
        else:
            effect = cities[c].board_stages[what - 1].effect
        gain = effect.coins
        if effect.coins_per is not None:
            gain += count(state, c, effect.coins_per)
        income[c] += gain
        if log and gain:
            if kind == K_BUILD:
                _event(state, "income", city=c, coins=gain, card=CARDS[what].id)
            else:
                _event(state, "income", city=c, coins=gain, stage=what)
    needs = state.needs
    for c in range(n):
        if income[c]:
            cities[c].coins += income[c]
        commits[c] = None
        needs[c] = False


def _resolve_hali(state: SevenWondersState, c: int, action: int) -> None:
    """SW-10.11: build one discard-pile card for free, effects at once; or pass."""
    state.hali_city = -1
    state.needs[c] = False
    if action == HALI_PASS:
        if state.log is not None:
            _event(state, "hali_pass", city=c)
        return
    t = action - HALI
    i = state.discard.index(t)
    del state.discard[i]
    del state.discard_known[i]
    city = state.cities[c]
    city.add_structure(t)
    effect = CARDS[t].effect
    gain = effect.coins + (count(state, c, effect.coins_per) if effect.coins_per else 0)
    city.coins += gain
    if state.log is not None:
        _event(state, "hali_build", city=c, card=CARDS[t].id)
        if gain:
            _event(state, "income", city=c, coins=gain, card=CARDS[t].id)


def _start_hali(state: SevenWondersState) -> bool:
    """Open the Halikarnassus decision if one is due and possible (SW-8.5, AMB-31)."""
    c = state.hali_due
    if c < 0:
        return False
    state.hali_due = -1
    if not hali_candidates(state, c):
        if state.log is not None:
            _event(state, "hali_nothing", city=c)
        return False
    state.phase = HALI_PHASE
    state.hali_city = c
    state.needs = [i == c for i in range(state.n)]
    return True


def _advance(state: SevenWondersState) -> None:
    """Move the game on until some city owes a decision (or the game ends)."""
    while True:
        needs, commits = state.needs, state.commits
        for c in range(state.n):
            if needs[c] and commits[c] is None:
                return
        if state.phase == MAIN:
            if state.turn == 6 and _start_extra_step(state):
                return
            if _start_hali(state):
                return
            _end_turn(state)
        elif state.phase == EXTRA:
            _discard_leftovers(state)
            if _start_hali(state):
                return
            _end_turn(state)
        elif state.phase == HALI_PHASE:
            _end_turn(state)
        else:
            return


def _start_extra_step(state: SevenWondersState) -> bool:
    """SW-8.4: leftovers go to the discard pile, except Babylon B's seventh card."""
    extra = -1
    for c in range(state.n):
        if state.hands[c] and state.cities[c].can_play_seventh:
            extra = c
    _discard_leftovers(state, keep=extra)
    if extra < 0:
        return False
    state.phase = EXTRA
    state.needs = [c == extra for c in range(state.n)]
    if state.log is not None:
        _event(state, "seventh", city=extra)
    return True


def _discard_leftovers(state: SevenWondersState, keep: int = -1) -> None:
    """SW-3.6 / SW-14.6: the last cards of the age go face down, without coins."""
    for c in range(state.n):
        if c == keep:
            continue
        for t in state.hands[c]:
            state.discard.append(t)
            state.discard_known.append(
                state.seat_of(c) if not (state.two_player and c == 0) else -1
            )
        state.hands[c] = []


def _end_turn(state: SevenWondersState) -> None:
    """Pass hands (SW-3.5, SW-14.4) or end the age (SW-3.7)."""
    if state.turn < 6:
        setup.pass_hands(state)
        state.turn += 1
        setup.start_step(state)
        return
    military.resolve_conflicts(state)
    if state.age == 3:
        state.phase = OVER
        state.needs = [False] * state.n
        _event(state, "game_over")
        return
    state.age += 1
    setup.start_age(state)
