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
    CA,
    CARDS,
    CHAND,
    CONSUMPTION,
    CONSUMPTION_ABOVE,
    CORRUPTION,
    HAPPY,
    HAPPY_REQ,
    HAPPY_REQ_ABOVE,
    KINDS,
    MA,
    MHAND,
    NKINDS,
    NSTATS,
    POP_COST,
    POP_COST_ABOVE,
    SLOT_CARD,
    UNIT_KINDS,
    URBAN_KINDS,
    YELLOW,
)
from civtable.games.through_the_ages.rules import effects
from civtable.games.through_the_ages.state import Civ

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


def raw_stats(civ: Civ) -> list[int]:
    """Summed symbols of workers and cards in play plus continuous effects (not clamped)."""
    v = [0] * NSTATS
    stp = effects.has_hook(civ, "extra_happy_face_per_happy_source")
    happy_src: dict[str, int] = {}
    w = civ.workers
    for k in range(NKINDS):
        for a in range(4):
            n = w[k * 4 + a]
            if not n:
                continue
            pw = CARDS[SLOT_CARD[k * 4 + a]].per_worker
            for i in range(NSTATS):
                if pw[i]:
                    v[i] += n * pw[i]
            if pw[HAPPY] > 0:
                extra = n if stp else 0  # St. Peter's Basilica
                v[HAPPY] += extra
                src = KINDS[k]
                happy_src[src] = happy_src.get(src, 0) + n * pw[HAPPY] + extra
    for c in effects.active_cards(civ):
        ip = c.in_play
        for i in range(NSTATS):
            if ip[i]:
                v[i] += ip[i]
        if ip[HAPPY] > 0:
            extra = 1 if stp and c.id != "st_peters_basilica" else 0
            v[HAPPY] += extra
            src = "wonder" if c.type == "wonder" else (c.tech_type or c.type)
            happy_src[src] = happy_src.get(src, 0) + ip[HAPPY] + extra
    if civ.homer_wonder >= 0:  # Homer under a completed wonder
        v[HAPPY] += 1
        happy_src["wonder"] = happy_src.get("wonder", 0) + 1
    effects.ratings_extra(civ, v, happy_src)
    if civ.tactic >= 0:
        from civtable.games.through_the_ages.rules.military import army_strength

        v[4] += army_strength(civ)  # TTA-10.1 armies
    return v


def ratings(civ: Civ) -> tuple[int, int, int, int]:
    """(culture rate, science rate, strength, happiness) with TTA-1.9 limits."""
    v = raw_stats(civ)
    return max(0, v[2]), max(0, v[3]), max(0, v[4]), min(8, max(0, v[HAPPY]))


def totals(civ: Civ) -> tuple[int, int]:
    """(civil actions total, military actions total) = white/red cubes owned (TTA-1.9)."""
    ca = CARDS[civ.gov].in_play[CA]
    ma = CARDS[civ.gov].in_play[MA]
    for c in effects.active_cards(civ)[1:]:
        ca += c.in_play[CA]
        ma += c.in_play[MA]
    return ca, ma


def hand_limits(civ: Civ) -> tuple[int, int]:
    """TTA-7.7 civil and military hand limits."""
    ca, ma = totals(civ)
    cb = mb = 0
    for c in effects.active_cards(civ):
        cb += c.in_play[CHAND]
        mb += c.in_play[MHAND]
    return ca + cb, ma + mb


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


def _values(civ: Civ, mine: bool) -> list[tuple[int, int]]:
    """(cube value, cube index) of the farm/mine cards in play, highest value first."""
    k = 1 if mine else 0
    out = []
    for a in range(4):
        slot = k * 4 + a
        if _has_tech(civ, slot):
            out.append((CARDS[SLOT_CARD[slot]].per_worker[k], k * 4 + a))
    out.sort(reverse=True)
    return out


def _has_tech(civ: Civ, slot: int) -> bool:
    return SLOT_CARD[slot] in civ.developed


def stock(civ: Civ, mine: bool) -> int:
    """Food (``mine=False``) or resources held."""
    k = 1 if mine else 0
    return sum(civ.cubes[k * 4 + a] * CARDS[SLOT_CARD[k * 4 + a]].per_worker[k] for a in range(4))


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
    food = sum(civ.workers[a] * CARDS[SLOT_CARD[a]].per_worker[0] for a in range(4))
    res = sum(civ.workers[4 + a] * CARDS[SLOT_CARD[4 + a]].per_worker[1] for a in range(4))
    return food, res


# --- card effects on banks (TTA-1.11) ---------------------------------------------------------


def enter_play(civ: Civ, card: int) -> None:
    """Apply a card's ``blue_cubes``/``yellow_cubes`` when it enters play (TTA-1.11)."""
    c = CARDS[card]
    civ.blue = max(0, civ.blue + c.in_play[BLUE])
    civ.yellow = max(0, civ.yellow + c.in_play[YELLOW])


def leave_play(civ: Civ, card: int) -> None:
    """Reverse :func:`enter_play` (losing blue cubes: bank first, TTA-1.11)."""
    c = CARDS[card]
    b = c.in_play[BLUE]
    if b > 0:
        short = max(0, b - civ.blue)
        civ.blue = max(0, civ.blue - b)
        _take_cubes_from_cards(civ, short)
    elif b < 0:
        civ.blue -= b
    civ.yellow = max(0, civ.yellow - c.in_play[YELLOW])


def _take_cubes_from_cards(civ: Civ, n: int) -> None:
    """Remove ``n`` blue cubes from technology cards (lowest-value cubes first, TTA-1.11)."""
    for i in (0, 4, 1, 5, 2, 6, 3, 7):
        while n > 0 and civ.cubes[i] > 0:
            civ.cubes[i] -= 1
            n -= 1


def take_blue_for_wonder(civ: Civ) -> None:
    """A stage marker: a cube from the blue bank, else from a technology card (TTA-AMB-21)."""
    if civ.blue > 0:
        civ.blue -= 1
    else:
        _take_cubes_from_cards(civ, 1)


# --- buildings --------------------------------------------------------------------------------


def kind_count(civ: Civ, kind: int) -> int:
    """Buildings (workers) of one kind, all levels together."""
    return sum(civ.workers[kind * 4 + a] for a in range(4))


def is_urban(kind: int) -> bool:
    """Lab, temple, arena, library or theater."""
    return kind in URBAN_KINDS


def is_unit(kind: int) -> bool:
    """Infantry, cavalry, artillery or air force."""
    return kind in UNIT_KINDS


def building_cost(civ: Civ, slot: int) -> int:
    """Printed build cost after construction discounts (TTA-7.6) and leader modifiers."""
    card = CARDS[SLOT_CARD[slot]]
    cost = card.build_cost
    if is_urban(card.kind):
        cost -= effects.urban_discount(civ, card.age)
        cost += effects.cost_modifier(civ, "build_urban", card)
    return max(0, cost)


def upgrade_cost(civ: Civ, lo: int, hi: int) -> int:
    """TTA-7.2.5 / 7.6: discounted cost of the higher card minus that of the lower card."""
    return max(0, building_cost(civ, hi) - building_cost(civ, lo))


def workers_total(civ: Civ) -> int:
    """Workers on cards plus unused workers."""
    return sum(civ.workers) + civ.pool
