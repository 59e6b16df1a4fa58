"""Production and commerce: which payments can cover a cost (SW-6, SW-7).

A city's production is summarised by a *signature*: the fixed units per resource plus the
choice units (resource bitmasks), interned to a small int. The payment search is a pure
function of (cost, own production, the two neighbours' tradeable production, discounts), so it
is memoized on those five small ints; in a running game almost every query is a cache hit.

The search follows the rules exactly:

* own choice producers are assigned per action (SW-6.5), so the buyer's *remaining needs* are
  the minimal vectors left after every assignment of its own production;
* a legal purchase plan buys exactly one of those minimal vectors (SW-7.12, AMB-13: buying a
  unit your own production could cover is not allowed);
* each neighbour must supply its share from its tradeable production in one assignment, a
  two-choice card giving one unit per buyer (SW-7.5, AMB-14);
* a unit costs 2, or 1 under a discount for that resource kind and side (SW-7.3, SW-7.6).

Options are reported as distinct ``(coins to left, coins to right)`` pairs: what actually
changes the game. They are sorted cheapest first.
"""

from __future__ import annotations

from itertools import product

from civtable.games.seven_wonders.catalog import (
    COSTS,
    MAN_FROM_LEFT,
    MAN_FROM_RIGHT,
    RAW_FROM_LEFT,
    RAW_FROM_RIGHT,
)

Vec = tuple[int, ...]
ZERO: Vec = (0,) * 7

# --- production signatures ------------------------------------------------------------------
SIGNATURES: list[tuple[Vec, tuple[int, ...]]] = []
_sig_ids: dict[tuple[Vec, tuple[int, ...]], int] = {}


def production_sig(fixed: list[int] | Vec, choices: list[int] | tuple[int, ...]) -> int:
    """Intern a production (fixed units per resource, choice-unit masks) to a small int."""
    key = (tuple(fixed), tuple(sorted(choices)))
    sig = _sig_ids.get(key)
    if sig is None:
        sig = _sig_ids[key] = len(SIGNATURES)
        SIGNATURES.append(key)
    return sig


EMPTY_SIG = production_sig(ZERO, ())

# --- memo tables (pure functions of small ints; bounded) ------------------------------------
# Entries per memo table before it is cleared (they are pure caches). The interned production
# signatures themselves are kept: live states refer to them, and they grow slowly (about 9,000
# after 4,000 four-player games).
_CACHE_LIMIT = 400_000
_needs_cache: dict[tuple[int, int], tuple[Vec, ...]] = {}
_supply_cache: dict[tuple[int, Vec], bool] = {}
_split_cache: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = {}
_project_cache: dict[tuple[int, int], int] = {}
_direct_cache: dict[tuple[int, int, int, int, int], tuple[tuple[int, int], ...]] = {}


def _bounded(cache: dict[object, object]) -> None:
    if len(cache) > _CACHE_LIMIT:
        cache.clear()


def remaining_needs(cost_id: int, own_sig: int) -> tuple[Vec, ...]:
    """Minimal resource vectors still missing after the best uses of own production (SW-6.5).

    ``(ZERO,)`` means own production covers the cost.
    """
    key = (cost_id, own_sig)
    hit = _needs_cache.get(key)
    if hit is not None:
        return hit
    cost = COSTS[cost_id]
    fixed, choices = SIGNATURES[own_sig]
    need0 = tuple(c - f if c > f else 0 for c, f in zip(cost, fixed, strict=True))
    frontier = {need0}
    if any(need0):
        for mask in choices:
            grown = set(frontier)
            for need in frontier:
                for i in range(7):
                    if mask >> i & 1 and need[i]:
                        grown.add((*need[:i], need[i] - 1, *need[i + 1 :]))
            frontier = grown
    if ZERO in frontier:
        result: tuple[Vec, ...] = (ZERO,)
    else:
        minimal = [
            v
            for v in frontier
            if not any(w != v and all(a <= b for a, b in zip(w, v, strict=True)) for w in frontier)
        ]
        result = tuple(sorted(minimal))
    _bounded(_needs_cache)  # type: ignore[arg-type]
    _needs_cache[key] = result
    return result


def can_supply(sig: int, vec: Vec) -> bool:
    """Can a city with tradeable production ``sig`` sell all of ``vec`` to one buyer (SW-7.5)?"""
    key = (sig, vec)
    hit = _supply_cache.get(key)
    if hit is not None:
        return hit
    fixed, choices = SIGNATURES[sig]
    rem = [v - f if v > f else 0 for v, f in zip(vec, fixed, strict=True)]
    total = sum(rem)
    ok = total == 0 or (total <= len(choices) and _match(rem, choices, 0))
    _bounded(_supply_cache)  # type: ignore[arg-type]
    _supply_cache[key] = ok
    return ok


def _match(rem: list[int], choices: tuple[int, ...], start: int) -> bool:
    """Assign choice units (from ``start`` on, each one unit) to cover ``rem`` exactly enough."""
    if not any(rem):
        return True
    if start >= len(choices):
        return False
    units_left = len(choices) - start
    if sum(rem) > units_left:
        return False
    mask = choices[start]
    for i in range(7):
        if mask >> i & 1 and rem[i]:
            rem[i] -= 1
            if _match(rem, choices, start + 1):
                rem[i] += 1
                return True
            rem[i] += 1
    return _match(rem, choices, start + 1)  # this unit unused


def unit_prices(discount: int) -> tuple[Vec, Vec]:
    """Per-resource unit prices from the left and from the right neighbour (SW-7.3, SW-7.6)."""
    raw_l = 1 if discount & RAW_FROM_LEFT else 2
    raw_r = 1 if discount & RAW_FROM_RIGHT else 2
    man_l = 1 if discount & MAN_FROM_LEFT else 2
    man_r = 1 if discount & MAN_FROM_RIGHT else 2
    return (raw_l,) * 4 + (man_l,) * 3, (raw_r,) * 4 + (man_r,) * 3


def purchase_plans(
    cost_id: int, own_sig: int, left_sig: int, right_sig: int, discount: int
) -> list[tuple[Vec, Vec, int, int]]:
    """Every legal minimal purchase plan: ``(from_left, from_right, coins_left, coins_right)``."""
    return _splits(remaining_needs(cost_id, own_sig), left_sig, right_sig, discount)


def _splits(
    needs: tuple[Vec, ...], left_sig: int, right_sig: int, discount: int
) -> list[tuple[Vec, Vec, int, int]]:
    plans = []
    price_l, price_r = unit_prices(discount)
    # the most each neighbour could sell of each resource: a share above it is never supplied
    most_l, most_r = most_units(left_sig), most_units(right_sig)
    for need in needs:
        if need == ZERO:
            return [(ZERO, ZERO, 0, 0)]
        idx = [i for i in range(7) if need[i]]
        ranges = [range(max(0, need[i] - most_r[i]), min(need[i], most_l[i]) + 1) for i in idx]
        for split in product(*ranges):
            left = [0] * 7
            right = list(need)
            for i, a in zip(idx, split, strict=True):
                left[i] = a
                right[i] -= a
            lv, rv = tuple(left), tuple(right)
            if can_supply(left_sig, lv) and can_supply(right_sig, rv):
                coins_l = sum(a * p for a, p in zip(lv, price_l, strict=True))
                coins_r = sum(a * p for a, p in zip(rv, price_r, strict=True))
                plans.append((lv, rv, coins_l, coins_r))
    return plans


#: per cost id: the ``(resource, units)`` it asks for
COST_SUPPORT: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, units) for i, units in enumerate(cost) if units) for cost in COSTS
)
_most_cache: dict[int, Vec] = {}


def most_units(sig: int) -> Vec:
    """Per resource, the most units a production could give: its fixed units plus every choice
    unit offering that resource (memoized; signatures are never reused)."""
    hit = _most_cache.get(sig)
    if hit is None:
        fixed, choices = SIGNATURES[sig]
        hit = tuple(fixed[i] + sum(m >> i & 1 for m in choices) for i in range(7))
        _bounded(_most_cache)  # type: ignore[arg-type]
        _most_cache[sig] = hit
    return hit


def project(sig: int, need: Vec) -> int:
    """The part of a production that can matter for buying ``need`` (a cache key).

    Fixed units are capped at the need; a resource fully covered by fixed units is dropped from
    the choice units; choice units that can give nothing needed are dropped.
    """
    fixed, choices = SIGNATURES[sig]
    capped = tuple(map(min, fixed, need))
    if choices:
        open_mask = 0
        for i in range(7):
            if fixed[i] < need[i]:
                open_mask |= 1 << i
        key = (capped, tuple(sorted(m & open_mask for m in choices if m & open_mask)))
    else:
        key = (capped, ())
    found = _sig_ids.get(key)
    if found is None:
        found = _sig_ids[key] = len(SIGNATURES)
        SIGNATURES.append(key)
    return found


# (cost id, own sig) -> (needs id, needs, top id, relevant discount bits); needs id -1 = covered
_needs_info: dict[tuple[int, int], tuple[int, tuple[Vec, ...], int, int]] = {}
_own_info: dict[tuple[int, int], tuple[int, tuple[Vec, ...], int, int]] = {}
_needs_ids: dict[tuple[Vec, ...], int] = {}
_tops: list[Vec] = []
_top_ids: dict[Vec, int] = {}
_FREE: tuple[tuple[int, int], ...] = ((0, 0),)


def _info(cost_id: int, own_sig: int) -> tuple[int, tuple[Vec, ...], int, int]:
    needs = remaining_needs(cost_id, own_sig)
    if needs[0] == ZERO:
        return (-1, needs, -1, 0)
    top = tuple(max(v[i] for v in needs) for i in range(7))
    top_id = _top_ids.setdefault(top, len(_top_ids))
    if top_id == len(_tops):
        _tops.append(top)
    rel = (RAW_FROM_LEFT | RAW_FROM_RIGHT if any(top[:4]) else 0) | (
        MAN_FROM_LEFT | MAN_FROM_RIGHT if any(top[4:]) else 0
    )
    return (_needs_ids.setdefault(needs, len(_needs_ids)), needs, top_id, rel)


def payment_options(
    cost_id: int, own_sig: int, left_sig: int, right_sig: int, discount: int
) -> tuple[tuple[int, int], ...]:
    """Distinct ``(coins to left, coins to right)`` of all legal plans, cheapest first.

    Empty if the cost cannot be covered at any price; ``((0, 0),)`` if own production covers it.
    Coins are not checked here (the caller compares with the coins held, SW-7.10).

    Memoized in two levels: the buyer's remaining needs by (cost, own production), then the
    options by (needs, the neighbours' production projected onto those needs, discounts); and
    the whole answer by all five arguments, the hit of a running game.
    """
    direct = (cost_id, own_sig, left_sig, right_sig, discount)
    hit = _direct_cache.get(direct)
    if hit is not None:
        return hit
    hit = payment_options_uncached(cost_id, own_sig, left_sig, right_sig, discount)
    _bounded(_direct_cache)  # type: ignore[arg-type]
    _direct_cache[direct] = hit
    return hit


def _own_needs(cost_id: int, own_sig: int) -> tuple[int, tuple[Vec, ...], int, int]:
    """``_info`` of the cost for the buyer's production projected onto it (memoized)."""
    info = _own_info.get((cost_id, own_sig))
    if info is None:
        own = project(own_sig, COSTS[cost_id])
        info = _needs_info.get((cost_id, own))
        if info is None:
            info = _needs_info[(cost_id, own)] = _info(cost_id, own)
        _bounded(_own_info)  # type: ignore[arg-type]
        _own_info[(cost_id, own_sig)] = info
    return info


def missing_vectors(cost_id: int, own_sig: int) -> tuple[Vec, ...]:
    """:func:`remaining_needs` through the memo of the payment search (the buyer's production
    projected onto the cost first, so it is shared by many productions)."""
    return _own_needs(cost_id, own_sig)[1]


def payment_options_uncached(
    cost_id: int, own_sig: int, left_sig: int, right_sig: int, discount: int
) -> tuple[tuple[int, int], ...]:
    """:func:`payment_options` without its last memo level (for callers that keep their own
    cache of the five arguments); the lower memo levels are used."""
    needs_id, needs, top_id, rel = _own_needs(cost_id, own_sig)
    if needs_id < 0:
        return _FREE
    lp = _project_cache.get((left_sig, top_id))
    if lp is None:
        _bounded(_project_cache)  # type: ignore[arg-type]
        lp = _project_cache[(left_sig, top_id)] = project(left_sig, _tops[top_id])
    rp = _project_cache.get((right_sig, top_id))
    if rp is None:
        rp = _project_cache[(right_sig, top_id)] = project(right_sig, _tops[top_id])
    key = (needs_id, lp, rp, discount & rel)
    hit = _split_cache.get(key)
    if hit is None:
        _bounded(_split_cache)  # type: ignore[arg-type]
        hit = _split_cache[key] = _options_for_needs(needs, lp, rp, discount & rel)
    return hit


def _options_for_needs(
    needs: tuple[Vec, ...], left_sig: int, right_sig: int, discount: int
) -> tuple[tuple[int, int], ...]:
    left_fixed, left_choices = SIGNATURES[left_sig]
    right_fixed, right_choices = SIGNATURES[right_sig]
    if left_choices or right_choices:
        pairs = {(cl, cr) for _, _, cl, cr in _splits(needs, left_sig, right_sig, discount)}
    else:
        pairs = _fixed_split_pairs(needs, left_fixed, right_fixed, discount)
    return tuple(sorted(pairs, key=lambda p: (p[0] + p[1], p[0])))


def _fixed_split_pairs(
    needs: tuple[Vec, ...], left_fixed: Vec, right_fixed: Vec, discount: int
) -> set[tuple[int, int]]:
    """The ``(coins left, coins right)`` of every plan when neither neighbour has choice units.

    Each resource is then bought independently (SW-7.5): ``a`` units from the left and the
    rest from the right, within each side's fixed units; the same plans as :func:`_splits`.
    """
    price_l, price_r = unit_prices(discount)
    pairs: set[tuple[int, int]] = set()
    for need in needs:
        if need == ZERO:
            return {(0, 0)}
        # per needed resource: the (coins left, coins right) of each feasible share
        per_resource: list[list[tuple[int, int]]] = []
        for i in range(7):
            n = need[i]
            if not n:
                continue
            lo = n - right_fixed[i] if n > right_fixed[i] else 0
            hi = n if n < left_fixed[i] else left_fixed[i]
            if lo > hi:
                break
            pl, pr = price_l[i], price_r[i]
            per_resource.append([(a * pl, (n - a) * pr) for a in range(lo, hi + 1)])
        else:
            sums = {(0, 0)}
            for shares in per_resource:
                sums = {(cl + sl, cr + sr) for cl, cr in sums for sl, sr in shares}
            pairs |= sums
    return pairs
