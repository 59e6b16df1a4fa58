"""End-of-game scoring (SW-12) and the winner (SW-13).

The seven categories are computed in the rulebook's order. Wild science symbols and Olympia B's
guild copy are resolved automatically to maximise the owner's total (SW-12.6, SW-12.9, AMB-16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.core.api import Result, rank_by
from civtable.games.seven_wonders.catalog import (
    BLUE,
    BOARDS,
    CARDS,
    POWER_COPY_GUILD,
    PURPLE,
    YELLOW,
)
from civtable.games.seven_wonders.rules.turn import count

if TYPE_CHECKING:
    from civtable.games.seven_wonders.state import SevenWondersState

CATEGORIES = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")


def science_points(counts: list[int] | tuple[int, ...], wilds: int = 0) -> int:
    """SW-12.6: ``c² + g² + t² + 7·min``, each wild symbol placed where it scores most.

    >>> science_points([3, 2, 1])
    21
    >>> science_points([2, 2, 1], wilds=1)
    26
    """
    c0, g0, t0 = counts
    if not wilds:
        return c0 * c0 + g0 * g0 + t0 * t0 + 7 * min(c0, g0, t0)
    best = -1
    for a in range(wilds + 1):
        for b in range(wilds - a + 1):
            c, g, t = c0 + a, g0 + b, t0 + wilds - a - b
            v = c * c + g * g + t * t + 7 * min(c, g, t)
            if v > best:
                best = v
    return best


def _guild_points(state: SevenWondersState, c: int, guild: int, extra_purple: int) -> int:
    per = CARDS[guild].effect.vp_per
    return 0 if per is None else count(state, c, per, extra_purple)


def city_breakdown(state: SevenWondersState, c: int) -> dict[str, int]:
    """The seven categories for city ``c`` (SW-12.1)."""
    city = state.cities[c]
    stages = city.board_stages
    wonder = sum(stages[i].effect.vp for i in range(city.stages))
    civilian = sum(CARDS[t].effect.vp for t in city.built if CARDS[t].color == BLUE)
    commercial = 0
    own_guilds = []
    for t in city.built:
        card = CARDS[t]
        if card.color == YELLOW and card.effect.vp_per is not None:
            commercial += count(state, c, card.effect.vp_per)
        elif card.color == PURPLE:
            own_guilds.append(t)

    def science_and_guilds(copied: int) -> tuple[int, int]:
        extra = 0 if copied < 0 else 1  # AMB-15(c): the copy is one more purple card for Olympia
        wilds = city.wilds + (CARDS[copied].effect.science_wild if copied >= 0 else 0)
        guilds = sum(_guild_points(state, c, g, extra) for g in own_guilds)
        if copied >= 0:
            guilds += _guild_points(state, c, copied, extra)
        return science_points(city.science, wilds), guilds

    science, guilds = science_and_guilds(-1)
    if city.copies_guild:  # SW-10.10: copy the best neighbour guild, if any
        candidates = {
            t
            for nb in (state.left(c), state.right(c))
            for t in state.cities[nb].built
            if CARDS[t].color == PURPLE
        }
        for g in sorted(candidates):
            sci, gld = science_and_guilds(g)
            if sci + gld > science + guilds:
                science, guilds = sci, gld
    return {
        "military": sum(city.tokens),
        "treasury": city.coins // 3,
        "wonder": wonder,
        "civilian": civilian,
        "science": science,
        "commercial": commercial,
        "guilds": guilds,
    }


#: per board and side: the VP of its first ``k`` stages, ``k = 0 .. stages`` (SW-12.4)
_WONDER_VP = tuple(
    tuple(
        tuple(sum(st.effect.vp for st in side[:k]) for k in range(len(side) + 1))
        for side in b.sides
    )
    for b in BOARDS
)
#: per board and side: the stages to build before Olympia B's guild copy is there (99: never)
_COPY_GUILD_AT = tuple(
    tuple(
        next((i + 1 for i, st in enumerate(side) if st.effect.power == POWER_COPY_GUILD), 99)
        for side in b.sides
    )
    for b in BOARDS
)
#: per card: its civilian VP (blue cards, SW-12.5), else 0
_CIVILIAN_VP = tuple(c.effect.vp if c.color == BLUE else 0 for c in CARDS)
#: per card that scores by counting (commercial and guilds, SW-12.7, SW-12.8): (amount, cities
#: bits, counted colour indexes, counts wonder stages, counts defeat tokens); else None
_COUNTED: tuple[tuple[int, int, tuple[int, ...], bool, bool] | None, ...] = tuple(
    None
    if c.color not in (YELLOW, PURPLE) or c.effect.vp_per is None
    else (
        c.effect.vp_per.amount,
        c.effect.vp_per.cities,
        tuple(i for i in range(7) if c.effect.vp_per.colors >> i & 1),
        c.effect.vp_per.wonder_stages,
        c.effect.vp_per.defeat_tokens,
    )
    for c in CARDS
)


def points_without_treasury(state: SevenWondersState, c: int) -> int:
    """City ``c``'s score now without the treasury category: the sum of
    :func:`city_breakdown` minus ``"treasury"``, computed without building the breakdown (the
    static evaluation of search bots calls this for every city of every sampled position)."""
    city = state.cities[c]
    stages = city.stages
    if stages >= _COPY_GUILD_AT[city.board][city.side]:  # SW-10.10: the best copy is searched
        b = city_breakdown(state, c)
        return sum(b.values()) - b["treasury"]
    built = city.built
    total = sum(city.tokens) + _WONDER_VP[city.board][city.side][stages]
    total += sum(map(_CIVILIAN_VP.__getitem__, built))
    colors = city.colors
    if colors[YELLOW] or colors[PURPLE]:
        cities = state.cities
        n = state.n
        around = ((1, city), (2, cities[(c + 1) % n]), (4, cities[(c - 1) % n]))
        for t in built:
            spec = _COUNTED[t]
            if spec is None:
                continue
            amount, bits, counted, stages, defeats = spec
            k = 0
            for bit, other in around:  # turn.count without Olympia's extra purple card
                if bits & bit:
                    col = other.colors
                    for i in counted:
                        k += col[i]
                    if stages:
                        k += other.stages
                    if defeats:
                        k += other.defeats
            total += k * amount
    sci = city.science
    wilds = city.wilds
    if wilds:
        return total + science_points(sci, wilds)
    c0, g0, t0 = sci
    return total + c0 * c0 + g0 * g0 + t0 * t0 + 7 * min(c0, g0, t0)


def result(state: SevenWondersState) -> Result:
    """Scores per seat, breakdown, ranking by (total, coins) (SW-13); the Free City never ranks."""
    per_city = [city_breakdown(state, c) for c in range(state.n)]
    seat_cities = [state.city_of(s) for s in range(state.players)]
    breakdown = tuple(per_city[c] for c in seat_cities)
    scores = tuple(sum(b.values()) for b in breakdown)
    coins = tuple(state.cities[c].coins for c in seat_cities)
    ranking, winners = rank_by([(scores[s], coins[s]) for s in range(state.players)])
    extra: dict[str, object] = {}
    if state.two_player:
        extra["free_city"] = {"breakdown": per_city[0], "score": sum(per_city[0].values())}
    return Result(
        scores=scores,
        breakdown=breakdown,
        categories=CATEGORIES,
        ranking=ranking,
        winners=winners,
        tiebreak=coins,
        extra=extra,
    )
