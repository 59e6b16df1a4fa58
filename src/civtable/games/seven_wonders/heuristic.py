"""A greedy 7 Wonders player and a cheap static evaluation (the "heuristic" bot, ISMCTS cut-offs).

:func:`choose` scores every legal action of the deciding seat with a one-ply estimate and takes
the best one; :func:`evaluate` projects the final scores of all seats and turns them into a
win-chance estimate in ``[0, 1]``. Both read only what the seat may know (SW-3.9): its own hand,
the public cities, its own discards and, in a Halikarnassus decision, the discard pile.

Action value, in victory points (VP) of the deciding city:

* **structure** (``BUILD``, ``FREE``, ``HALI``): blue VP; the marginal science score (exact now,
  blended with the marginal score on top of the symbols still expected, SW-12.6); military: the
  expected conflict tokens against both neighbours in every remaining age, a smoothed step of the
  shield difference whose uncertainty grows with the steps left before each conflict (SW-11);
  coins gained now (SW-9.6) and commercial/guild VP from the current counts plus the growth still
  expected (SW-9.7, SW-15.5); production: the purchases it saves over the builds still to come
  (the age decks' costs and the city's remaining wonder stages, SW-6, SW-7; a resource no
  neighbour sells counts extra), which fades as the game ends; the hand itself is not a target
  since it moves on; trade discounts (SW-7.6); chains: the next-age cards it makes free (SW-5.5);
* **wonder stage**: its VP, shields, coins, production, discount, science symbol and power
  (SW-10), valued like the above;
* **discard**: 3 coins (SW-4.6);
* **payment**: coins leave the treasury at the coin value; coins paid to an opponent count again
  because they help that opponent (SW-7.3). A ``PAY`` decision thus takes the cheapest option
  (with 2 players a dearer one may win if it pays the Free City instead of the opponent); between
  equal prices the opponent further behind is paid (SW-7.8).
* **denial**: every action removes its card from the hand the next player receives, so a small
  share of that player's value for the card is added (SW-3.5).

A coin is worth 1/3 VP at the end (SW-12.3) and more while it can still buy resources; on the
last step of the game its value is the exact treasury change. Long-term parts (production,
chains, powers, future science) are weighted by the steps left, so the same card is valued
differently in Age I and Age III.

Free City decisions (2 players, SW-14.4) are made for the controller's benefit: military changes
of the Free City are valued as the controller's gain minus the opponent's, the card the Free City
uses is one the opponent will not get (the hands are exchanged), and Free City payments prefer the
controller over the opponent.

:func:`playout_policy` (the ISMCTS ``playout_policy`` hook) chooses like :func:`choose` without the
denial term, about 1.5x faster; it agrees with :func:`choose` in about 88 % of multi-choice
decisions and always on an age's last turn, when no hand is passed on (ISMCTS uses it with
``policy=fast`` only: as a model of heuristic opponents the 12 % of other choices cost more
than the speed gains, see ``civtable.bots.ismcts``). Valuations use
module-level caches keyed by everything they read (production signature, age, turn, board), so
they are exact (the large ones are cleared past 200,000 entries).

The evaluation scale (used by ISMCTS for cut-off rollouts): :func:`evaluate` returns the
softmax of the projected final scores over the seats, with a temperature that grows with the
steps left; it estimates the seat's chance to win (``1/players`` for equal positions, exact
rewards at the end of the game).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from civtable.core.rng import Rng
from civtable.games.seven_wonders.actions import (
    DISCARD,
    FREE,
    HALI,
    HALI_PASS,
    K_BUILD,
    PAY,
    STAGE,
    decode_pay,
)
from civtable.games.seven_wonders.catalog import (
    CARDS,
    DECKS,
    GREEN,
    GUILDS,
    GUILDS_DRAWN,
    MAN_FROM_LEFT,
    MAN_FROM_RIGHT,
    POWER_COPY_GUILD,
    POWER_DISCARD_BUILD,
    POWER_FREE_BUILD,
    POWER_SEVENTH,
    PURPLE,
    RAW_FROM_LEFT,
    RAW_FROM_RIGHT,
    SELF,
    YELLOW,
    Card,
    Effect,
    Per,
)
from civtable.games.seven_wonders.rules.trade import COST_SUPPORT, SIGNATURES, production_sig
from civtable.games.seven_wonders.rules.turn import (
    affordable_payments,
    chain_free,
    count,
    stage_payments,
)
from civtable.games.seven_wonders.scoring import points_without_treasury, science_points
from civtable.games.seven_wonders.state import HALI_PHASE, MAIN, OVER, SevenWondersState

if TYPE_CHECKING:
    from civtable.core.api import State

# --- tuning constants ---------------------------------------------------------------------------
VICTORY = (0, 1, 3, 5)  # SW-11.3 victory token per age (index = age)
STEPS_PER_AGE = 6
TOTAL_STEPS = 18
BUILD_SHARE = 0.7  # share of future steps spent building a structure
PROD_SCALE = 1.0  # how much of the generic purchase saving a producer really saves
UNBUYABLE = 4.0  # coins a missing unit "costs" when no neighbour sells it
STAGE_WEIGHT = 0.8  # chance a remaining wonder stage gets built (its cost matters)
STAGE_PROGRESS = 0.3  # share of the next stage's VP credited to the stage that unlocks it
SCIENCE_PER_STEP = 0.07  # future symbols of each kind expected per step left
COIN_LIQUIDITY = 0.45  # extra value of a coin early in the game, while it can buy resources
COIN_PLENTY = 12.0  # coins at which that extra value has mostly faded
NEIGHBOUR_PAY = 1.0  # extra weight of a coin paid to an opponent (it helps them)
PAY_TIEBREAK = 0.0005  # per coin and projected VP of the opponent paid (breaks equal prices)
DENIAL = 0.15  # weight of the receiving opponent's value for the card we take from the hand
SEVENTH_CARD_VALUE = 1.8  # one extra action on turn 6 (Babylon B, SW-10.7)
FREE_BUILD_VALUE = 2.5  # one Olympia A free build (SW-10.8)
COPY_GUILD_VALUE = 3.0  # expected Olympia B guild copy when no neighbour guild is known
EVAL_TEMP = 2.0  # softmax temperature of :func:`evaluate` at the end of the game (VP)
EVAL_TEMP_PER_STEP = 0.6  # ... plus this per step left
# Share of a player's Age III builds per colour, for the growth of counting effects.
COLOR_GROWTH = (0.02, 0.02, 0.25, 0.15, 0.12, 0.15, 0.15)
STAGE_GROWTH = 0.1  # wonder stages per step and city
DEFEAT_GROWTH = 0.7  # defeat tokens a neighbour still expects from the Age III conflicts

Vec = tuple[int, ...]
FVec = tuple[float, ...]

_CACHE_LIMIT = 200_000
_sig_cache: dict[tuple[int, tuple[int, ...]], int] = {}
_missing_cache: dict[tuple[int, int], Vec] = {}
#: production signature -> its choice units, fewest options first (signatures never change)
_by_popcount: dict[int, tuple[int, ...]] = {}
_generic_cache: dict[tuple[int, int, int], FVec] = {}
_demand_cache: dict[tuple[int, ...], FVec] = {}
_pair_cache: dict[tuple[int, int, int], float] = {}


# --- small pure helpers -------------------------------------------------------------------------
def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    if x > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _science(c: float, g: float, t: float, wilds: int) -> float:
    """SW-12.6 on fractional counts, wilds placed where they score most."""
    best = -1.0
    for a in range(wilds + 1):
        for b in range(wilds - a + 1):
            x, y, z = c + a, g + b, t + wilds - a - b
            v = x * x + y * y + z * z + 7.0 * min(x, y, z)
            if v > best:
                best = v
    return best


def _with_units(sig: int, units: tuple[int, ...]) -> int:
    """The production signature after adding production units (cached)."""
    key = (sig, units)
    hit = _sig_cache.get(key)
    if hit is not None:
        return hit
    fixed, choices = SIGNATURES[sig]
    new_fixed = list(fixed)
    new_choices = list(choices)
    for unit in units:
        if unit & (unit - 1) == 0:
            new_fixed[unit.bit_length() - 1] += 1
        else:
            new_choices.append(unit)
    out = production_sig(new_fixed, new_choices)
    if len(_sig_cache) > _CACHE_LIMIT:
        _sig_cache.clear()
    _sig_cache[key] = out
    return out


def _missing(cost_id: int, sig: int) -> Vec:
    """Units per resource still to buy for a cost after using own production (SW-6.5).

    Fixed units are subtracted, then each choice unit (fewest options first) covers the resource
    it can give that is missing most: a fast, near-exact stand-in for the engine's exhaustive
    search (cached).
    """
    key = (cost_id, sig)
    hit = _missing_cache.get(key)
    if hit is not None:
        return hit
    fixed, choices = SIGNATURES[sig]
    need = [0] * 7
    short = False
    for i, units in COST_SUPPORT[cost_id]:
        if units > fixed[i]:
            need[i] = units - fixed[i]
            short = True
    if short and choices:
        by_popcount = _by_popcount.get(sig)
        if by_popcount is None:
            by_popcount = _by_popcount[sig] = tuple(sorted(choices, key=_popcount))
        for mask in by_popcount:
            best = -1
            for i in range(7):
                if mask >> i & 1 and need[i] and (best < 0 or need[i] > need[best]):
                    best = i
            if best >= 0:
                need[best] -= 1
    out = tuple(need)
    if len(_missing_cache) > _CACHE_LIMIT:
        _missing_cache.clear()
    _missing_cache[key] = out
    return out


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _deck_weights(age: int, deck_players: int) -> tuple[tuple[int, float], ...]:
    """(cost id, weight) of the cards of an age deck, weights summing to 1."""
    cards = DECKS[(age, deck_players)]
    weights: dict[int, float] = {}
    for t in cards:
        cid = CARDS[t].cost_id
        weights[cid] = weights.get(cid, 0.0) + 1.0
    if age == 3:
        share = GUILDS_DRAWN[deck_players] / len(GUILDS)
        for g in GUILDS:
            cid = CARDS[g].cost_id
            weights[cid] = weights.get(cid, 0.0) + share
    total = sum(weights.values())
    return tuple((cid, w / total) for cid, w in sorted(weights.items()))


_DECK_WEIGHTS: dict[tuple[int, int], tuple[tuple[int, float], ...]] = {
    (age, n): _deck_weights(age, n) for age in (1, 2, 3) for n in range(3, 8)
}


def _generic_missing(sig: int, age: int, deck_players: int) -> FVec:
    """Mean units per resource missing over the cards of an age deck (cached)."""
    key = (sig, age, deck_players)
    hit = _generic_cache.get(key)
    if hit is not None:
        return hit
    acc = [0.0] * 7
    for cid, w in _DECK_WEIGHTS[(age, deck_players)]:
        need = _missing(cid, sig)
        for i in range(7):
            if need[i]:
                acc[i] += w * need[i]
    out = tuple(acc)
    if len(_generic_cache) > _CACHE_LIMIT:
        _generic_cache.clear()
    _generic_cache[key] = out
    return out


# --- the decision context -----------------------------------------------------------------------
class _Ctx:
    """Everything one valuation needs about the deciding city, computed once."""

    __slots__ = (
        "after",
        "after_age",
        "age",
        "c",
        "city",
        "coin_v",
        "count_bonus",
        "deck_players",
        "demand_cache",
        "h_now",
        "last",
        "lt",
        "opp_weight",
        "price_cache",
        "projected",
        "seat",
        "state",
        "values",
    )

    def __init__(self, state: SevenWondersState, c: int, seat: int) -> None:
        self.state = state
        self.c = c
        self.seat = seat
        self.city = state.cities[c]
        self.age = state.age
        self.deck_players = 3 if state.two_player else state.n
        if state.phase == MAIN:
            self.after_age = 6 - state.turn  # own steps left in the age after this one
            self.h_now = 7 - state.turn  # steps in which neighbours can still add shields
        elif state.phase == HALI_PHASE:  # at the end of a turn (SW-8.5): the next turns remain
            self.after_age = self.h_now = 6 - state.turn
        else:  # Babylon's extra step (SW-8.4): the age ends next
            self.after_age = self.h_now = 0
        self.after = self.after_age + STEPS_PER_AGE * (3 - state.age)
        self.last = self.after == 0
        self.lt = self.after / TOTAL_STEPS
        coins = self.city.coins
        self.coin_v = 1.0 / 3.0 + COIN_LIQUIDITY * self.lt * max(0.2, 1.0 - coins / COIN_PLENTY)
        self.opp_weight = 1.0 / max(1, state.players - 1)
        self.values: dict[int, float] = {}
        self.price_cache: FVec | None = None
        self.demand_cache: dict[tuple[int, int], FVec] = {}
        self.count_bonus: FVec | None = None
        self.projected: dict[int, float] = {}

    def prices(self) -> FVec:
        """Per-resource purchase prices now (cached for the decision)."""
        if self.price_cache is None:
            self.price_cache = _prices(self)
        return self.price_cache

    # -- coins ---------------------------------------------------------------------------------
    def coin_gain(self, delta: float) -> float:
        """Value of the city's coins changing by ``delta`` (exact treasury on the last step)."""
        if self.last:
            coins = self.city.coins
            return float((coins + int(delta)) // 3 - coins // 3)
        return delta * self.coin_v

    def is_opponent(self, city: int) -> bool:
        """Is ``city`` played by another seat (the Free City is nobody's)?"""
        state = self.state
        if not state.two_player:
            return city != self.seat  # a city per seat
        if city == 0:
            return False
        return state.seat_of(city) != self.seat


# --- military -----------------------------------------------------------------------------------
def _sigma(h: int) -> float:
    return 0.25 + 0.45 * math.sqrt(h)


def _pair_expect(ctx: _Ctx, mine: int, theirs: int) -> float:
    """Expected tokens of a city with ``mine`` shields against ``theirs``, all conflicts left."""
    return _pair_expect_at(ctx.age, ctx.h_now, mine - theirs)


def _pair_expect_at(age: int, h_now: int, d: int) -> float:
    """:func:`_pair_expect` for a shield difference ``d`` in ``age`` with ``h_now`` steps left."""
    key = (age, h_now, d)
    hit = _pair_cache.get(key)
    if hit is not None:
        return hit
    total = 0.0
    for a in range(age, 4):
        h = h_now + STEPS_PER_AGE * (a - age)
        if h == 0:
            total += VICTORY[a] if d > 0 else (-1.0 if d < 0 else 0.0)
            continue
        k = 1.7 / _sigma(h)
        total += VICTORY[a] * _logistic(k * (d - 0.5)) - _logistic(k * (-d - 0.5))
    _pair_cache[key] = total  # small: ages x steps x shield differences
    return total


def _military_value(ctx: _Ctx, shields: int) -> float:
    """Own military gain minus what the opposing neighbours lose, weighted."""
    state = ctx.state
    c = ctx.c
    m = state.cities[c].shields
    value = 0.0
    for nb in (state.left(c), state.right(c)):
        o = state.cities[nb].shields
        value += _pair_expect(ctx, m + shields, o) - _pair_expect(ctx, m, o)
        if ctx.is_opponent(nb):
            their = _pair_expect(ctx, o, m + shields) - _pair_expect(ctx, o, m)
            value -= ctx.opp_weight * their
    return value


# --- science ------------------------------------------------------------------------------------
def _science_value(ctx: _Ctx, symbol: int, wild: int) -> float:
    """Marginal science (SW-12.6): exact now, blended with the gain over the expected future."""
    sci = ctx.city.science
    wilds = ctx.city.wilds
    new = list(sci)
    if symbol >= 0:
        new[symbol] += 1
    now = science_points(new, wilds + wild) - science_points(sci, wilds)
    if ctx.after == 0:
        return float(now)
    e = SCIENCE_PER_STEP * ctx.after
    future = _science(new[0] + e, new[1] + e, new[2] + e, wilds + wild) - _science(
        sci[0] + e, sci[1] + e, sci[2] + e, wilds
    )
    a = ctx.after / (ctx.after + 6.0)
    return (1.0 - a) * now + a * future


# --- production, discounts, chains --------------------------------------------------------------
def _prices(ctx: _Ctx) -> FVec:
    """What one missing unit of each resource costs the city: the cheaper neighbour's price
    (SW-7.3, SW-7.6), or :data:`UNBUYABLE` if no neighbour sells it now (SW-7.2)."""
    state = ctx.state
    city = ctx.city
    left_fixed, left_choices = SIGNATURES[state.cities[state.left(ctx.c)].trade_sig]
    right_fixed, right_choices = SIGNATURES[state.cities[state.right(ctx.c)].trade_sig]
    left_any = 0
    for m in left_choices:
        left_any |= m
    right_any = 0
    for m in right_choices:
        right_any |= m
    d = city.discount
    out = []
    for i in range(7):
        raw = i < 4
        pl = 1.0 if d & (RAW_FROM_LEFT if raw else MAN_FROM_LEFT) else 2.0
        pr = 1.0 if d & (RAW_FROM_RIGHT if raw else MAN_FROM_RIGHT) else 2.0
        best = UNBUYABLE
        if left_fixed[i] or left_any >> i & 1:
            best = pl
        if (right_fixed[i] or right_any >> i & 1) and pr < best:
            best = pr
        out.append(best)
    return tuple(out)


def _demand(ctx: _Ctx, sig: int, stages_done: int) -> FVec:
    """Units per resource the city is expected to buy over the builds still to come."""
    key = (sig, stages_done)
    hit = ctx.demand_cache.get(key)
    if hit is not None:
        return hit
    city = ctx.city
    gkey = (sig, stages_done, ctx.age, ctx.after_age, ctx.deck_players, city.board, city.side)
    hit = _demand_cache.get(gkey)
    if hit is not None:
        ctx.demand_cache[key] = hit
        return hit
    acc = [0.0] * 7
    dp = ctx.deck_players
    builds = BUILD_SHARE * ctx.after_age
    if builds:
        g = _generic_missing(sig, ctx.age, dp)
        for i in range(7):
            acc[i] += builds * g[i]
    for a in range(ctx.age + 1, 4):
        g = _generic_missing(sig, a, dp)
        for i in range(7):
            acc[i] += BUILD_SHARE * STEPS_PER_AGE * g[i]
    stages = city.board_stages
    left = ctx.after
    for k in range(stages_done, len(stages)):
        if left <= 0:
            break
        need = _missing(stages[k].cost_id, sig)
        for i in range(7):
            if need[i]:
                acc[i] += STAGE_WEIGHT * need[i]
        left -= 3  # stages need steps; far ones may never be built
    out = tuple(acc)
    ctx.demand_cache[key] = out
    if len(_demand_cache) > _CACHE_LIMIT:
        _demand_cache.clear()
    _demand_cache[gkey] = out
    return out


def _production_value(ctx: _Ctx, units: tuple[int, ...], stages_done: int) -> float:
    """Purchases saved by new own production units (SW-6), in VP."""
    if ctx.after == 0:
        return 0.0
    sig = ctx.city.own_sig
    new_sig = _with_units(sig, units)
    before = _demand(ctx, sig, stages_done)
    after = _demand(ctx, new_sig, stages_done)
    prices = ctx.prices()
    saved = 0.0
    for i in range(7):
        if before[i] != after[i]:
            saved += (before[i] - after[i]) * prices[i]
    return PROD_SCALE * saved * ctx.coin_v


def _discount_value(ctx: _Ctx, discount: int) -> float:
    """Coins saved by a trade discount (SW-7.6) over the purchases still expected."""
    new = discount & ~ctx.city.discount
    if not new or ctx.after == 0:
        return 0.0
    demand = _demand(ctx, ctx.city.own_sig, ctx.city.stages)
    raw = demand[0] + demand[1] + demand[2] + demand[3]
    man = demand[4] + demand[5] + demand[6]
    sides_raw = bool(new & RAW_FROM_LEFT) + bool(new & RAW_FROM_RIGHT)
    sides_man = bool(new & MAN_FROM_LEFT) + bool(new & MAN_FROM_RIGHT)
    saved = 0.5 * (raw * sides_raw + man * sides_man)
    return PROD_SCALE * saved * ctx.coin_v


def _chain_value(ctx: _Ctx, card: Card) -> float:
    """Next-age cards this structure would make free (SW-5.5)."""
    city = ctx.city
    value = 0.0
    for child_index in card.chains_to:
        child = CARDS[child_index]
        if city.owns_key(child.key_index) or chain_free(city, child):
            continue
        copies = child.copies[ctx.deck_players]
        if not copies:
            continue
        seen = min(0.8, 0.3 + 0.15 * copies)  # chance to hold the child in the next age
        need = _missing(child.cost_id, city.own_sig)
        prices = ctx.prices()
        coins = sum(units * price for units, price in zip(need, prices, strict=True))
        saved = coins * ctx.coin_v * PROD_SCALE
        worth = 0.25 * child.effect.vp + 0.5 * child.effect.shields
        if child.color == GREEN:
            worth += 1.0
        value += seen * (0.5 + saved + worth)
    return value


# --- counting effects ---------------------------------------------------------------------------
def _per_now(ctx: _Ctx, per: Per, own_color: int) -> int:
    """A counting effect's value if the card (of ``own_color``) were in the city now."""
    extra = per.amount if per.cities & SELF and per.colors >> own_color & 1 else 0
    return count(ctx.state, ctx.c, per) + extra


def _per_growth(ctx: _Ctx, per: Per) -> float:
    """Expected growth of a counting effect until the end of the game."""
    cities = bin(per.cities).count("1")
    rate = sum(COLOR_GROWTH[i] for i in range(7) if per.colors >> i & 1)
    if per.wonder_stages:
        rate += STAGE_GROWTH
    growth = BUILD_SHARE * ctx.after * rate * cities
    if per.defeat_tokens:
        growth += DEFEAT_GROWTH * cities
    return growth * per.amount


#: per card whose VP count the owner's own cards (SW-9.7, SW-15.5): its key bit, else 0
_SELF_COUNTING_KEY = tuple(
    1 << card.key_index
    if card.color in (YELLOW, PURPLE)
    and card.effect.vp_per is not None
    and card.effect.vp_per.cities & SELF
    else 0
    for card in CARDS
)
_SELF_COUNTING_MASK = sum(set(_SELF_COUNTING_KEY))
#: the owned counting cards' key bits -> the bonus per colour (pure: a key names one card)
_count_bonus_cache: dict[int, FVec] = {}


def _count_bonus(city_built: list[int]) -> FVec:
    """Per colour, the VP the counting cards among ``city_built`` gain from one more card."""
    acc = [0.0] * 8
    for t in city_built:
        card = CARDS[t]
        if card.color in (YELLOW, PURPLE):
            per = card.effect.vp_per
            if per is not None and per.cities & SELF:
                for k in range(7):
                    if per.colors >> k & 1:
                        acc[k] += per.amount
    return tuple(acc)


def _owned_count_bonus(ctx: _Ctx, color: int) -> float:
    """VP the city's own counting cards (Haven, guilds, ...) gain from one more ``color``."""
    bonuses = ctx.count_bonus
    if bonuses is None:
        owned = ctx.city.keys & _SELF_COUNTING_MASK
        bonuses = _count_bonus_cache.get(owned)
        if bonuses is None:
            bonuses = _count_bonus_cache[owned] = _count_bonus(ctx.city.built)
        ctx.count_bonus = bonuses
    return bonuses[color]


# --- effects ------------------------------------------------------------------------------------
def _effect_value(ctx: _Ctx, e: Effect, color: int, stages_done: int) -> float:
    """Value of an effect entering the city (``color`` -1 for a wonder stage)."""
    v = float(e.vp)
    if e.shields:
        v += _military_value(ctx, e.shields)
    coins = e.coins
    if e.coins_per is not None:
        coins += _per_now(ctx, e.coins_per, color)
    if coins:
        v += ctx.coin_gain(coins)
    if e.vp_per is not None:
        v += _per_now(ctx, e.vp_per, color) + _per_growth(ctx, e.vp_per)
    if e.science >= 0 or e.science_wild:
        v += _science_value(ctx, e.science, e.science_wild)
    if e.produce or e.produce_private:
        v += _production_value(ctx, e.produce + e.produce_private, stages_done)
    if e.discount:
        v += _discount_value(ctx, e.discount)
    return v


def _card_value(ctx: _Ctx, t: int) -> float:
    """Value of card ``t`` entering the deciding city as a structure, before any payment."""
    hit = ctx.values.get(t)
    if hit is not None:
        return hit
    card = CARDS[t]
    v = _effect_value(ctx, card.effect, card.color, ctx.city.stages)
    if card.chains_to and ctx.after > 0:
        v += _chain_value(ctx, card)
    v += _owned_count_bonus(ctx, card.color)
    ctx.values[t] = v
    return v


def _known_discards(ctx: _Ctx) -> list[int]:
    """Discard-pile cards the seat may know (its own discards, or all during SW-10.11)."""
    state = ctx.state
    if state.phase == HALI_PHASE and state.hali_city == ctx.c:
        return list(state.discard)
    return [t for t, k in zip(state.discard, state.discard_known, strict=True) if k == ctx.seat]


def _power_value(ctx: _Ctx, power: str) -> float:
    """Value of a special wonder power gained now (SW-10.7 .. SW-10.11)."""
    state = ctx.state
    if power == POWER_SEVENTH:
        turn6_left = (3 - ctx.age) + (1 if state.phase == MAIN else 0)
        return SEVENTH_CARD_VALUE * turn6_left
    if power == POWER_FREE_BUILD:
        uses = (3 - ctx.age) + (1 if ctx.after_age > 0 else 0)
        return FREE_BUILD_VALUE * uses
    if power == POWER_COPY_GUILD:
        best = 0.0
        for nb in (state.left(ctx.c), state.right(ctx.c)):
            for t in state.cities[nb].built:
                per = CARDS[t].effect.vp_per
                if CARDS[t].color == PURPLE and per is not None:
                    best = max(best, count(state, ctx.c, per) + _per_growth(ctx, per))
        expected = COPY_GUILD_VALUE * min(1.0, ctx.after / 6.0 + 0.3)
        return max(best, expected)
    if power == POWER_DISCARD_BUILD:
        city = ctx.city
        known = [
            _card_value(ctx, t)
            for t in _known_discards(ctx)
            if not city.owns_key(CARDS[t].key_index)
        ]
        blind = min(3.0, 0.3 * len(state.discard))
        return max([blind, *known])
    return 0.0


def _stage_value(ctx: _Ctx) -> float:
    """Value of the deciding city's next wonder stage, before payment (SW-10)."""
    stages = ctx.city.board_stages
    stage = stages[ctx.city.stages]
    v = _effect_value(ctx, stage.effect, -1, ctx.city.stages + 1)
    following = ctx.city.stages + 1
    if following < len(stages) and ctx.after >= 2:
        v += STAGE_PROGRESS * stages[following].effect.vp * min(1.0, ctx.after / 6.0)
    if stage.effect.power is not None:
        v += _power_value(ctx, stage.effect.power)
    for t in ctx.city.built:  # Arena and Builders Guild count own stages (SW-9.7, SW-15.5)
        per = CARDS[t].effect.vp_per
        if per is not None and per.wonder_stages and per.cities & SELF:
            v += per.amount
    return v


# --- payments -----------------------------------------------------------------------------------
def _payment_value(ctx: _Ctx, left: int, right: int, bank: int) -> float:
    """Value (negative) of paying ``left``/``right`` coins to the neighbours and ``bank``."""
    v = ctx.coin_gain(-(left + right + bank))
    state = ctx.state
    if left and ctx.is_opponent(state.left(ctx.c)):
        v -= NEIGHBOUR_PAY * ctx.coin_v * left
    if right and ctx.is_opponent(state.right(ctx.c)):
        v -= NEIGHBOUR_PAY * ctx.coin_v * right
    return v


def _help_penalty(ctx: _Ctx, left: int, right: int) -> float:
    """A tie-break between equal payments: rather pay the opponent who is further behind."""
    state = ctx.state
    penalty = 0.0
    for coins, nb in ((left, state.left(ctx.c)), (right, state.right(ctx.c))):
        if coins and ctx.is_opponent(nb):
            score = ctx.projected.get(nb)
            if score is None:
                score = ctx.projected[nb] = projected_score(state, nb)
            penalty += PAY_TIEBREAK * coins * (1.0 + max(0.0, score))
    return penalty


def _best_payment(ctx: _Ctx, options: tuple[tuple[int, int], ...], bank: int) -> float:
    best = -math.inf
    for left, right in options:
        v = _payment_value(ctx, left, right, bank)
        if v > best:
            best = v
    return best


def _receiver(ctx: _Ctx) -> int:
    """The city that gets this hand next turn (SW-3.5, SW-14.4), or -1 at the end of the age."""
    state = ctx.state
    if ctx.after_age == 0 or state.phase != MAIN:
        return -1
    if state.two_player:
        return 3 - state.controller if ctx.c == 0 else 3 - ctx.c
    return state.right(ctx.c) if state.age == 2 else state.left(ctx.c)


# --- action values ------------------------------------------------------------------------------
def _own_action_values(ctx: _Ctx, actions: list[int], fast: bool = False) -> dict[int, float]:
    """Values of the deciding city's actions; ``fast`` leaves out the denial term (the value of
    the card to the player who receives the hand next, which costs about as much as the rest)."""
    state = ctx.state
    c = ctx.c
    city = ctx.city
    out: dict[int, float] = {}
    receiver = -1 if fast else _receiver(ctx)
    rctx = _Ctx(state, receiver, state.seat_of(receiver)) if receiver >= 0 else None
    denial: dict[int, float] = {}

    def deny(t: int) -> float:
        if rctx is None:
            return 0.0
        hit = denial.get(t)
        if hit is None:
            card = CARDS[t]
            hit = 0.0
            if not rctx.city.owns_key(card.key_index):
                hit = DENIAL * max(0.0, _card_value(rctx, t))
            denial[t] = hit
        return hit

    stage_v: float | None = None
    discard_v = ctx.coin_gain(3)
    for a in actions:
        if a >= PAY:
            pending = state.await_pay[c]
            bank = CARDS[pending[1]].coin_cost if pending and pending[0] == K_BUILD else 0
            left, right = decode_pay(a)
            out[a] = _payment_value(ctx, left, right, bank) - _help_penalty(ctx, left, right)
        elif a == HALI_PASS:
            out[a] = 0.0
        elif a >= HALI:
            out[a] = _card_value(ctx, a - HALI)
        elif a >= FREE:
            t = a - FREE
            card = CARDS[t]
            option = FREE_BUILD_VALUE * 0.4 * min(1.0, ctx.after_age / 2.0)
            out[a] = _card_value(ctx, t) - option + deny(t)
        elif a >= DISCARD:
            out[a] = discard_v + deny(a - DISCARD)
        elif a >= STAGE:
            if stage_v is None:
                stage_v = _stage_value(ctx) + _best_payment(ctx, stage_payments(state, c), 0)
            out[a] = stage_v + deny(a - STAGE)
        else:
            t = a
            card = CARDS[t]
            v = _card_value(ctx, t)
            if not chain_free(city, card):
                opts = affordable_payments(state, c, card.cost_id, card.coin_cost)
                v += _best_payment(ctx, opts, card.coin_cost)
            out[a] = v + deny(t)
    return out


def _free_city_values(ctx: _Ctx, actions: list[int]) -> dict[int, float]:
    """Free City decisions (SW-14.4) for the controller's benefit."""
    state = ctx.state
    me = state.city_of(ctx.seat)
    opp = 3 - me
    fc = state.cities[0]
    out: dict[int, float] = {}
    octx = _Ctx(state, opp, state.seat_of(opp)) if state.phase == MAIN and ctx.after_age else None
    mctx = _Ctx(state, me, ctx.seat)

    def shields_effect(s: int) -> float:
        if not s:
            return 0.0
        mine = state.cities[me].shields
        theirs = state.cities[opp].shields
        f = fc.shields
        my_gain = _pair_expect(mctx, mine, f + s) - _pair_expect(mctx, mine, f)
        opp_gain = _pair_expect(mctx, theirs, f + s) - _pair_expect(mctx, theirs, f)
        return my_gain - opp_gain

    def deny(t: int) -> float:
        if octx is None or octx.city.owns_key(CARDS[t].key_index):
            return 0.0
        return 2.0 * DENIAL * max(0.0, _card_value(octx, t))

    for a in actions:
        if a >= PAY:
            left, right = decode_pay(a)  # left of the FC is city 1, right is city 2
            to_me, to_opp = (left, right) if me == 1 else (right, left)
            out[a] = mctx.coin_v * (to_me - NEIGHBOUR_PAY * to_opp)
        elif a == HALI_PASS:
            out[a] = 0.0
        elif a >= HALI:
            out[a] = shields_effect(CARDS[a - HALI].effect.shields)
        elif a >= DISCARD and a < FREE:
            out[a] = deny(a - DISCARD)
        elif a >= STAGE and a < DISCARD:
            stage = fc.board_stages[fc.stages]
            out[a] = shields_effect(stage.effect.shields) + deny(a - STAGE) + 0.01
        else:
            t = a % len(CARDS)
            out[a] = shields_effect(CARDS[t].effect.shields) + deny(t) + 0.02
    return out


def action_values(state: State, seat: int) -> dict[int, float]:
    """Estimated value of every legal action of ``seat`` now, in VP of its city.

    >>> from civtable import games
    >>> s = games.get("seven-wonders").new_game(players=3, seed=2)
    >>> sorted(action_values(s, 0)) == s.legal_actions(0)
    True
    """
    if not isinstance(state, SevenWondersState):
        raise TypeError("the 7 Wonders heuristic needs a 7 Wonders state")
    actions = state.legal_actions(seat)
    if not actions:
        return {}
    c = state.current_city(seat)
    ctx = _Ctx(state, c, seat)
    if state.two_player and c == 0:
        return _free_city_values(ctx, actions)
    return _own_action_values(ctx, actions)


def choose(state: State, seat: int, rng: Rng) -> int:
    """The legal action with the highest estimated value (ties broken by ``rng``)."""
    values = action_values(state, seat)
    if not values:
        raise ValueError(f"seat {seat} has no decision to make now")
    best = max(values.values())
    top = [a for a, v in sorted(values.items()) if v >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)


def playout_policy(state: State, seat: int, rng: Rng) -> int:
    """A cheaper :func:`choose` for search playouts (the ``playout_policy`` hook of ISMCTS).

    The same one-ply values without the denial term (the card's value to the player who receives
    the hand next), which costs about as much as the rest; it picks the same action as
    :func:`choose` in most decisions (88 % of the multi-choice decisions of sampled games).
    """
    if not isinstance(state, SevenWondersState):
        raise TypeError("the 7 Wonders heuristic needs a 7 Wonders state")
    actions = state.legal_actions(seat)
    if not actions:
        raise ValueError(f"seat {seat} has no decision to make now")
    if len(actions) == 1:
        return actions[0]
    c = state.current_city(seat)
    ctx = _Ctx(state, c, seat)
    if state.two_player and c == 0:
        values = _free_city_values(ctx, actions)
    else:
        values = _own_action_values(ctx, actions, fast=True)
    best = max(values.values())
    top = [a for a, v in values.items() if v >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(sorted(top))


# --- static evaluation --------------------------------------------------------------------------
def projected_score(state: SevenWondersState, c: int) -> float:
    """City ``c``'s score now plus the expected tokens of the conflicts still to come (SW-11).

    Coins count as ``coins / 3``; everything else is the current breakdown (SW-12).
    """
    cities = state.cities
    city = cities[c]
    score = float(points_without_treasury(state, c)) + city.coins / 3.0
    phase = state.phase
    if phase != OVER:
        # the steps in which neighbours can still add shields, as in _Ctx.h_now
        h_now = 7 - state.turn if phase == MAIN else 6 - state.turn if phase == HALI_PHASE else 0
        m = city.shields
        n = state.n
        age = state.age
        key = (age, h_now, m - cities[(c + 1) % n].shields)
        hit = _pair_cache.get(key)
        score += _pair_expect_at(*key) if hit is None else hit
        key = (age, h_now, m - cities[(c - 1) % n].shields)
        hit = _pair_cache.get(key)
        score += _pair_expect_at(*key) if hit is None else hit
    return score


def evaluate(state: State, seat: int) -> float:
    """The seat's estimated chance to win, in ``[0, 1]``.

    Softmax over the seats of the projected final scores (:func:`projected_score`) with a
    temperature of ``2 + 0.3 * steps left``: equal positions give ``1/players``, a lead counts more
    as the game ends. At the end of the game: the exact reward (a shared win is split, SW-13.3).
    """
    if not isinstance(state, SevenWondersState):
        raise TypeError("the 7 Wonders evaluation needs a 7 Wonders state")
    if state.is_terminal():
        return state.result().rewards()[seat]
    steps_left = (7 - state.turn) + STEPS_PER_AGE * (3 - state.age)
    temp = EVAL_TEMP + EVAL_TEMP_PER_STEP * steps_left
    scores = [projected_score(state, state.city_of(s)) for s in range(state.players)]
    top = max(scores)
    weights = [math.exp((x - top) / temp) for x in scores]
    return weights[seat] / sum(weights)


__all__ = ["action_values", "choose", "evaluate", "playout_policy", "projected_score"]
