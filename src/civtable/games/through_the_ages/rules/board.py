"""The player board: ratings, banks, payments and production (TTA-1, TTA-7.4, TTA-7.5, TTA-8).

A civilization's ratings are computed from its cards in play and workers (TTA-1.9/1.10).
Food and resources are blue cubes on farm/mine cards, each worth the card's value; paying uses
the default auto-pay of TTA-AMB-3 (exact payment leaving the largest blue bank, ties keeping the
higher-value cubes; overpay by the least amount only if exact payment is impossible).
"""

from __future__ import annotations

from functools import lru_cache

from civtable.games.through_the_ages.catalog import (
    BLUE,
    CARDS,
    CONSUMPTION,
    CONSUMPTION_ABOVE,
    CORRUPTION,
    HAPPY,
    HAPPY_REQ,
    HAPPY_REQ_ABOVE,
    KINDS,
    NKINDS,
    POP_COST,
    POP_COST_ABOVE,
    SLOT_CARD,
    UNIT_KINDS,
    URBAN_KINDS,
    YELLOW,
)
from civtable.games.through_the_ages.rules import effects, military
from civtable.games.through_the_ages.state import Civ

#: culture of a wonder turned face down by Ravages of Time (its hook's ``flipped_culture``)
RUIN_CULTURE = next(
    int(op["params"]["flipped_culture"])
    for c in CARDS
    for op in c.ops
    if op["op"] == "hook" and op["key"] == "flip_old_wonder"
)

# --- yellow and blue banks (TTA-1.4, TTA-1.5) ------------------------------------------------


def pop_cost(n: int) -> int:
    """TTA-1.4.2 food cost of the next population increase (-1: impossible)."""
    return POP_COST_ABOVE if n > 18 else POP_COST[n]


def consumption(n: int) -> int:
    """TTA-1.4.2 food consumption per turn."""
    return CONSUMPTION_ABOVE if n > 18 else CONSUMPTION[n]


def happiness_required(n: int) -> int:
    """TTA-1.4.2 / TTA-9.2 required happiness."""
    return HAPPY_REQ_ABOVE if n > 18 else HAPPY_REQ[n]


def corruption(b: int) -> int:
    """TTA-1.5.1 corruption for B cubes in the blue bank."""
    return 0 if b >= len(CORRUPTION) else CORRUPTION[b]


# --- ratings (TTA-1.9, TTA-1.10, TTA-9) --------------------------------------------------------


#: per building slot: the (stat index, amount) pairs of one worker's symbols, and its happy faces
_SLOT_STATS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    ()
    if SLOT_CARD[s] < 0
    else tuple((i, x) for i, x in enumerate(CARDS[SLOT_CARD[s]].per_worker) if x)
    for s in range(NKINDS * 4)
)
_SLOT_HAPPY: tuple[int, ...] = tuple(
    0 if SLOT_CARD[s] < 0 else CARDS[SLOT_CARD[s]].per_worker[HAPPY] for s in range(NKINDS * 4)
)


def raw_stats(civ: Civ) -> list[int]:
    """Summed symbols of workers and cards in play plus continuous effects (not clamped)."""
    f = effects.fx(civ)
    v = list(f.stats)  # the cards in play (St. Peter's extra faces included)
    stp = f.stp
    happy_src = dict(f.happy_src)
    for slot, n in enumerate(civ.workers):
        if n:
            for i, x in _SLOT_STATS[slot]:
                v[i] += n * x
            h = _SLOT_HAPPY[slot]
            if h > 0:
                extra = n if stp else 0  # St. Peter's Basilica
                v[HAPPY] += extra
                src = KINDS[slot >> 2]
                happy_src[src] = happy_src.get(src, 0) + n * h + extra
    if civ.ruins:  # Ravages of Time: face-down wonders produce culture only (TTA-AMB-35)
        v[2] += RUIN_CULTURE * len(civ.ruins)
    if civ.homer_wonder >= 0:  # Homer under a completed wonder
        v[HAPPY] += 1
        happy_src["wonder"] = happy_src.get("wonder", 0) + 1
    if f.rating_ops:
        effects.ratings_extra(civ, v, happy_src)
    if civ.tactic >= 0:
        v[4] += military.army_strength(civ)  # TTA-10.1 armies
    return v


def compute_ratings(civ: Civ) -> tuple[int, int, int, int]:
    """(culture rate, science rate, strength, happiness) with TTA-1.9 limits, computed from
    the cards in play and the workers (:func:`ratings` remembers them)."""
    v = raw_stats(civ)
    return max(0, v[2]), max(0, v[3]), max(0, v[4]), min(8, max(0, v[HAPPY]))


_RATINGS: dict[tuple[object, ...], tuple[int, int, int, int]] = {}
_RATINGS_MAX = 20_000  # entries kept (the memo is cleared beyond that)


def ratings(civ: Civ) -> tuple[int, int, int, int]:
    """(culture rate, science rate, strength, happiness) with TTA-1.9 limits:
    :func:`compute_ratings`, remembered by everything :func:`raw_stats` reads: the
    civilization's :func:`~.effects.fx` (government, leader, specials, wonders, colonies, pact
    sides), its workers, face-down wonders, Homer, tactic, colonies and partners' wonders
    (``xculture``). Keep the key in step with :func:`raw_stats` and
    :func:`.effects.ratings_extra`.
    """
    key = (
        effects.fx(civ),
        len(civ.ruins),
        civ.homer_wonder >= 0,
        civ.tactic,
        civ.xculture,
        len(civ.colonies),
        *civ.workers,
    )
    r = _RATINGS.get(key)
    if r is None:
        if len(_RATINGS) >= _RATINGS_MAX:
            _RATINGS.clear()
        r = _RATINGS[key] = compute_ratings(civ)
    return r


#: the name the observers (the RL encoder) and the heuristic know :func:`ratings` by
ratings_memo = ratings


def totals(civ: Civ) -> tuple[int, int]:
    """(civil actions total, military actions total) = white/red cubes owned (TTA-1.9)."""
    f = effects.fx(civ)
    return f.ca, f.ma


def hand_limits(civ: Civ) -> tuple[int, int]:
    """TTA-7.7 civil and military hand limits."""
    f = effects.fx(civ)
    return f.ca + f.chand, f.ma + f.mhand


def sync_totals(civ: Civ, before: tuple[int, int]) -> None:
    """TTA-1.10: new cubes are available at once; lost cubes are the spent ones first."""
    after = totals(civ)
    for i, (old, new) in enumerate(zip(before, after, strict=True)):
        avail = civ.ca if i == 0 else civ.ma
        if new > old:
            avail += new - old
        elif new < old:
            spent = old - avail
            avail -= max(0, (old - new) - spent)
            if i == 0:  # the spent cubes removed are no longer spent (TTA-7.2.10)
                civ.spent_ca = max(0, civ.spent_ca - min(max(0, spent), old - new))
        if i == 0:
            civ.ca = max(0, avail)
        else:
            civ.ma = max(0, avail)


def discontent(civ: Civ) -> int:
    """TTA-9.3 discontent workers D = max(0, R - H)."""
    return max(0, happiness_required(civ.yellow) - ratings(civ)[3])


def urban_limit(civ: Civ) -> int:
    """TTA-7.2.4 buildings of one urban type allowed by the government."""
    return CARDS[civ.gov].urban_limit


# --- food and resources (TTA-7.4, TTA-7.5) ------------------------------------------------------


#: (cube value, cube index) of the four farm (mine) cards, highest value first
_ORDER: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        sorted(
            ((CARDS[SLOT_CARD[k * 4 + a]].per_worker[k], k * 4 + a) for a in range(4)), reverse=True
        )
    )
    for k in (0, 1)
)
#: value of one blue cube on the farm (mine) card of each age
_VAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(CARDS[SLOT_CARD[k * 4 + a]].per_worker[k] for a in range(4)) for k in (0, 1)
)


def _values(civ: Civ, mine: bool) -> list[tuple[int, int]]:
    """(cube value, cube index) of the farm/mine cards in play, highest value first."""
    dev = civ.developed
    return [vi for vi in _ORDER[1 if mine else 0] if SLOT_CARD[vi[1]] in dev]


def _has_tech(civ: Civ, slot: int) -> bool:
    return SLOT_CARD[slot] in civ.developed


def stock(civ: Civ, mine: bool) -> int:
    """Food (``mine=False``) or resources held."""
    c = civ.cubes
    if mine:
        v = _VAL[1]
        return c[4] * v[0] + c[5] * v[1] + c[6] * v[2] + c[7] * v[3]
    v = _VAL[0]
    return c[0] * v[0] + c[1] * v[1] + c[2] * v[2] + c[3] * v[3]


@lru_cache(maxsize=65536)
def _change(vals: tuple[int, ...], counts: tuple[int, ...], target: int) -> tuple[int, ...] | None:
    """Fewest final cubes (ties: more on high values) worth exactly ``target``, each final cube
    coming from an initial cube of at least its value (cubes only move down, TTA-7.4)."""
    best: list[tuple[int, ...] | None] = [None]
    best_n = [10**9]
    n = len(vals)

    def rec(i: int, rem: int, cap: int, acc: tuple[int, ...], used: int) -> None:
        if rem == 0:
            if used < best_n[0]:
                best_n[0] = used
                best[0] = acc + (0,) * (n - i)
            return
        if i == n:
            return
        c = cap + counts[i]
        v = vals[i]
        top = min(c, rem // v)
        for f in range(top, -1, -1):
            u = used + f
            if u >= best_n[0]:
                continue
            rest = rem - f * v
            if rest and i + 1 < n and u + -(-rest // vals[i + 1]) >= best_n[0]:
                continue
            rec(i + 1, rest, c - f, (*acc, f), u)

    rec(0, target, 0, (), 0)
    return best[0]


def pay(civ: Civ, mine: bool, amount: int) -> bool:
    """Spend ``amount`` food/resources with auto-pay; False (nothing changed) if short."""
    if amount <= 0:
        return True
    have = stock(civ, mine)
    if have < amount:
        return False
    vc = _values(civ, mine)
    vals = tuple(v for v, _ in vc)
    counts = tuple(civ.cubes[i] for _, i in vc)
    for target in range(have - amount, -1, -1):
        final = _change(vals, counts, target)
        if final is not None:
            before = sum(counts)
            for (_, i), f in zip(vc, final, strict=True):
                civ.cubes[i] = f
            civ.blue += before - sum(final)
            return True
    return False  # pragma: no cover - target 0 always succeeds


def lose(civ: Civ, mine: bool, amount: int) -> int:
    """Lose up to ``amount`` (all if short); returns the amount that could not be paid."""
    have = stock(civ, mine)
    if have >= amount:
        pay(civ, mine, amount)
        return 0
    pay(civ, mine, have)
    return amount - have


def gain(civ: Civ, mine: bool, amount: int) -> int:
    """TTA-7.5 gain: cubes from the bank, greedy by card value; returns the amount gained."""
    got = 0
    for v, i in _values(civ, mine):
        if amount - got <= 0 or civ.blue <= 0:
            break
        k = min((amount - got) // v, civ.blue)
        civ.cubes[i] += k
        civ.blue -= k
        got += k * v
    return got


def produce(civ: Civ, mine: bool) -> None:
    """TTA-8.5 / 8.7: one cube per worker on each farm (mine), higher levels first if short."""
    k = 1 if mine else 0
    for a in (3, 2, 1, 0):
        n = min(civ.workers[k * 4 + a], civ.blue)
        civ.cubes[k * 4 + a] += n
        civ.blue -= n


def production(civ: Civ) -> tuple[int, int]:
    """(food, resources) produced per turn by workers, ignoring consumption and corruption."""
    w = civ.workers
    f, r = _VAL
    return (
        w[0] * f[0] + w[1] * f[1] + w[2] * f[2] + w[3] * f[3],
        w[4] * r[0] + w[5] * r[1] + w[6] * r[2] + w[7] * r[3],
    )


# --- card effects on banks (TTA-1.11) ---------------------------------------------------------


def enter_play(civ: Civ, card: int) -> None:
    """Apply a card's ``blue_cubes``/``yellow_cubes`` when it enters play (TTA-1.11)."""
    c = CARDS[card]
    b = c.in_play[BLUE]
    if b > 0:
        gain_blue(civ, b)
    elif b < 0:
        lose_blue(civ, -b)  # "-1 blue": a cube back to the box, from a card if need be
    y = c.in_play[YELLOW]
    if y > 0:
        gain_yellow(civ, y)
    elif y < 0:
        lose_yellow(civ, -y)


def leave_play(civ: Civ, card: int) -> None:
    """Reverse :func:`enter_play` (losing blue cubes: bank first, TTA-1.11)."""
    c = CARDS[card]
    b = c.in_play[BLUE]
    if b > 0:
        lose_blue(civ, b)
    elif b < 0:
        gain_blue(civ, -b)
    y = c.in_play[YELLOW]
    if y > 0:
        lose_yellow(civ, y)
    elif y < 0:
        gain_yellow(civ, -y)


def gain_blue(civ: Civ, n: int) -> None:
    """``n`` blue cubes from the box into the blue bank (TTA-1.11)."""
    civ.blue += n
    civ.blue_total += n


def lose_blue(civ: Civ, n: int) -> None:
    """TTA-1.11 losing blue cubes to the box: from the blue bank; the shortfall from
    technology cards."""
    from_bank = min(n, civ.blue)
    civ.blue -= from_bank
    civ.blue_total -= from_bank + take_cubes_from_cards(civ, n - from_bank)


def gain_yellow(civ: Civ, n: int) -> None:
    """``n`` yellow cubes from the box into the yellow bank (TTA-1.11)."""
    civ.yellow += n
    civ.yellow_total += n


def lose_yellow(civ: Civ, n: int) -> None:
    """TTA-1.11 losing yellow cubes to the box: from the yellow bank only (what is there)."""
    k = min(n, civ.yellow)
    civ.yellow -= k
    civ.yellow_total -= k


def take_cubes_from_cards(civ: Civ, n: int) -> int:
    """Remove up to ``n`` blue cubes from technology cards (lowest-value cubes first,
    TTA-1.11); returns how many were removed."""
    took = 0
    for i in (0, 4, 1, 5, 2, 6, 3, 7):
        while took < n and civ.cubes[i] > 0:
            civ.cubes[i] -= 1
            took += 1
    return took


def take_blue_for_wonder(civ: Civ) -> None:
    """A stage marker: a cube from the blue bank, else from a technology card (TTA-AMB-21)."""
    if civ.blue > 0:
        civ.blue -= 1
    else:
        take_cubes_from_cards(civ, 1)


# --- buildings --------------------------------------------------------------------------------


def kind_count(civ: Civ, kind: int) -> int:
    """Buildings (workers) of one kind, all levels together."""
    w = civ.workers
    b = kind * 4
    return w[b] + w[b + 1] + w[b + 2] + w[b + 3]


def is_urban(kind: int) -> bool:
    """Lab, temple, arena, library or theater."""
    return kind in URBAN_KINDS


def is_unit(kind: int) -> bool:
    """Infantry, cavalry, artillery or air force."""
    return kind in UNIT_KINDS


_URBAN_SLOT: tuple[bool, ...] = tuple(s // 4 in URBAN_KINDS for s in range(NKINDS * 4))


def building_cost(civ: Civ, slot: int, f: effects.Fx | None = None) -> int:
    """Printed build cost after construction discounts (TTA-7.6) and leader modifiers
    (``f``: the civ's :func:`~.effects.fx`, if the caller has it)."""
    if f is None:
        f = effects.fx(civ)
    if f.bcost is not None:
        return f.bcost[slot]
    card = CARDS[SLOT_CARD[slot]]
    cost = card.build_cost
    if _URBAN_SLOT[slot]:
        cost -= f.udisc[card.age]
        if "build_urban" in f.mods:
            cost += effects.cost_modifier(civ, "build_urban", card, f)
    return max(0, cost)


_COSTS: dict[tuple[object, ...], tuple[int, ...]] = {}


def building_costs(civ: Civ, f: effects.Fx | None = None) -> tuple[int, ...]:
    """:func:`building_cost` of every slot. Without a conditional modifier these are the
    effects' table (``Fx.bcost``); with one (Shakespeare: "build_urban" when the civilization
    has a library or a theater) they are remembered by the effects and those two conditions,
    all :func:`.effects.cost_modifier` reads besides the cards."""
    if f is None:
        f = effects.fx(civ)
    if f.bcost is not None:
        return f.bcost
    key = (f, kind_count(civ, _LIBRARY) > 0, kind_count(civ, _THEATER) > 0)
    costs = _COSTS.get(key)
    if costs is None:
        if len(_COSTS) >= 1_000:
            _COSTS.clear()
        costs = _COSTS[key] = tuple(building_cost(civ, slot, f) for slot in range(NKINDS * 4))
    return costs


_LIBRARY = KINDS.index("library")
_THEATER = KINDS.index("theater")


def upgrade_cost(civ: Civ, lo: int, hi: int, f: effects.Fx | None = None) -> int:
    """TTA-7.2.5 / 7.6: discounted cost of the higher card minus that of the lower card
    (``f``: the civ's :func:`~.effects.fx`, if the caller has it)."""
    return max(0, building_cost(civ, hi, f) - building_cost(civ, lo, f))


def workers_total(civ: Civ) -> int:
    """Workers on cards plus unused workers."""
    return sum(civ.workers) + civ.pool
