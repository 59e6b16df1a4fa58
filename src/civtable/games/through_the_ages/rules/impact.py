"""Age III scoring events ("Impact of …", TTA-12.8, cards file C-12) and the full game's final
scoring (TTA-13.2).

Each event's formula is its data ops (``cards.json`` ``impact_of_*``): ``gain``/``lose`` of
``culture_points`` for ``each`` civilization with an amount expression over a quantity, and
``rank_award`` (Impact of Science, Impact of Strength) with the award table by player count.
This module evaluates those ops on the engine state; :func:`quantity` names every quantity the
Age III events use (and a few related ones of the data README's table).

Choices (see the function docstrings):

* Food production includes the pacts' ``production_bonus`` food (International Trade
  Agreement side B), as the data README says (``_pact_food``, the one place to change it).
* Mine production includes the Transcontinental Railroad's best-mine bonus, not Bill Gates'
  labs and not the pacts' resource bonus (README ``mine_production``).
* Impact of Balance's "resource production" is the whole per-turn resource production of the
  production step (mines, Railroad, Bill Gates, pact bonus), ignoring corruption (C-12).
* Flipped wonders (``Civ.ruins``, Ravages of Time) still count as completed (TTA-AMB-35).
* Resigned civilizations (``F_RESIGNED``) score nothing and the ranking uses the table of the
  remaining player count (TTA-6.8: "the rules for that player count").
"""

from __future__ import annotations

from typing import Any

from civtable.games.through_the_ages.catalog import AGES, CARDS, KINDS, UNIT_KINDS, URBAN_KINDS
from civtable.games.through_the_ages.rules import board, effects
from civtable.games.through_the_ages.state import F_RESIGNED, Civ, TTAState

#: the Age III scoring events (TTA-12.8): every Age III event card of the data
IMPACT_EVENTS: frozenset[int] = frozenset(c.idx for c in CARDS if c.type == "event" and c.age == 3)

_ARENA = KINDS.index("arena")
_LAB = KINDS.index("lab")


def is_impact(card: int) -> bool:
    """Is ``card`` an Age III scoring event (TTA-12.8)?"""
    return card in IMPACT_EVENTS


# --- quantities (data README "Amount expressions") ----------------------------------------------


def _age_filter(flt: dict[str, Any] | None) -> int | None:
    """The ``filter.age`` of an amount as an age index (A = 0), or None."""
    if not flt or "age" not in flt:
        return None
    return AGES.index(str(flt["age"]))


def _pact_food(civ: Civ) -> int:
    """Food added by pacts in the food step (``production_bonus`` food, TTA-8.5/8.7 note)."""
    return int(effects.fx(civ).pbonus[0])


def food_production(civ: Civ) -> int:
    """Food produced per turn by the farms' workers plus the pacts' food bonus, ignoring
    corruption and consumption (README ``food_production``)."""
    return board.production(civ)[0] + _pact_food(civ)


def mine_production(civ: Civ) -> int:
    """Resources produced per turn by the mines' workers, the Transcontinental Railroad's
    doubled best mine included, Bill Gates' labs excluded (README ``mine_production``)."""
    return board.production(civ)[1] + effects.production_bonus(civ, best_only=True)


def resource_production(civ: Civ) -> int:
    """All resources of the production step (TTA-8.7): mines, Railroad, Bill Gates, pacts;
    corruption ignored."""
    return board.production(civ)[1] + effects.production_bonus(civ) + int(effects.fx(civ).pbonus[1])


def _levels(civ: Civ, kinds: tuple[int, ...]) -> int:
    """Sum of card levels (A = 0) over the workers on those building kinds."""
    w = civ.workers
    return sum(w[k * 4 + a] * a for k in kinds for a in range(4))


def _distinct(civ: Civ, kinds: tuple[int, ...]) -> int:
    """Kinds with at least one worker (building or unit)."""
    return sum(1 for k in kinds if board.kind_count(civ, k))


def _technologies(civ: Civ) -> list[int]:
    """Technology cards in play: building technologies (board cards included), special
    technologies and the government."""
    return [*civ.developed, *(s for s in civ.special if s >= 0), civ.gov]


def quantity(state: TTAState, seat: int, name: str, flt: dict[str, Any] | None = None) -> int:
    """The value of a data quantity for the civilization of ``seat`` (README "Quantities"),
    restricted by ``flt`` where the quantity takes a filter; unknown names raise KeyError."""
    civ = state.civs[seat]
    if name == "culture_rate":
        return board.ratings(civ)[0]
    if name == "science_rate":
        return board.ratings(civ)[1]
    if name == "strength":
        return board.ratings(civ)[2]
    if name == "happiness":  # the happiness rating, 0..8 (TTA-1.9)
        return board.ratings(civ)[3]
    if name == "discontent_workers":  # TTA-9.3
        return board.discontent(civ)
    if name == "content_workers":  # TTA-AMB-31: all workers (on cards + unused) - discontent
        return max(0, board.workers_total(civ) - board.discontent(civ))
    if name == "food_production":
        return food_production(civ)
    if name == "mine_production":
        return mine_production(civ)
    if name == "lowest_of_culture_science_food_resource_production":
        culture, science, _strength, _happy = board.ratings(civ)
        return min(culture, science, food_production(civ), resource_production(civ))
    if name == "urban_building_levels":
        return _levels(civ, URBAN_KINDS)
    if name == "unit_and_arena_levels":
        return _levels(civ, (*UNIT_KINDS, _ARENA))
    if name == "lab_levels":
        return _levels(civ, (_LAB,))
    if name == "government_and_special_technology_levels":
        return CARDS[civ.gov].age + sum(CARDS[s].age for s in civ.special if s >= 0)
    if name == "technologies_in_play":
        age = _age_filter(flt)
        return sum(1 for t in _technologies(civ) if age is None or CARDS[t].age == age)
    if name == "technology_levels_in_play":
        return sum(CARDS[t].age for t in _technologies(civ))
    if name == "completed_wonders":  # flipped wonders still count (TTA-AMB-35)
        age = _age_filter(flt)
        done = [*civ.wonders, *getattr(civ, "ruins", [])]
        return sum(1 for w in done if age is None or CARDS[w].age == age)
    if name == "colonies":
        return len(getattr(civ, "colonies", []))
    if name == "distinct_unit_types":
        return _distinct(civ, UNIT_KINDS)
    if name == "distinct_urban_building_types":
        return _distinct(civ, URBAN_KINDS)
    if name == "special_technologies_in_play":
        return sum(1 for s in civ.special if s >= 0)
    if name == "civil_actions_total":
        return board.totals(civ)[0]
    if name == "military_actions_total":
        return board.totals(civ)[1]
    if name == "military_units":
        types = (flt or {}).get("unit_types")
        return sum(
            board.kind_count(civ, k) for k in UNIT_KINDS if types is None or KINDS[k] in types
        )
    if name == "workers_on_farms_and_mines":
        return sum(civ.workers[0:8])
    if name == "workers_on_urban_and_units":
        return sum(civ.workers[8:])
    raise KeyError(name)


def amount(state: TTAState, seat: int, spec: Any, flt: dict[str, Any] | None = None) -> int:
    """Evaluate an amount expression (README "Amount expressions": quantity with ``filter``,
    then ``div``/``round``, ``times`` (int or by player count), ``plus``, ``min``/``max``) for
    ``seat``; ``flt`` replaces the expression's filter (a variant's)."""
    if isinstance(spec, int):
        return spec
    v = quantity(state, seat, str(spec["equal_to"]), flt if flt is not None else spec.get("filter"))
    return effects.scale(spec, v, len(active_seats(state)))  # TTA-6.8: the count left


def _condition(state: TTAState, seat: int, cond: str | None) -> bool:
    """The op conditions Age III events use."""
    if cond is None:
        return True
    if cond == "food_production_exceeds_consumption":  # Impact of Agriculture
        civ = state.civs[seat]
        return food_production(civ) > board.consumption(civ.yellow)
    raise KeyError(cond)


# --- evaluation ---------------------------------------------------------------------------------


def active_seats(state: TTAState) -> list[int]:
    """Seats still in the game (resigned civilizations are out, TTA-6.8)."""
    return [s for s in range(state.players) if not state.civs[s].flags & F_RESIGNED]


def ranking(state: TTAState, values: list[int], *, first_as_current: bool = False) -> list[int]:
    """Active seats from best to worst by ``values`` (index = seat); ties go to the current
    player, then clockwise (TTA-12.6, TTA-AMB-18); at final scoring the first player counts as
    current (``first_as_current``)."""
    n = state.players
    cur = state.first if first_as_current else state.current
    return sorted(active_seats(state), key=lambda s: (-values[s], (s - cur) % n))


def _shorter_game(state: TTAState) -> bool:
    """The shorter-game variant (TTA-15.1): Impact of Technology counts Age II technologies."""
    return state.options.get("mode") == "shorter"


def impact_culture(state: TTAState, card: int, *, first_as_current: bool = False) -> list[int]:
    """Culture each seat scores (index = seat; negative possible for Impact of Happiness) when
    the Age III event ``card`` (a catalog index) is evaluated: revealed during the game
    (TTA-12.8; ranking ties broken in favour of ``state.current``, then clockwise, TTA-12.6) or
    at final scoring (``first_as_current=True``: ties as if ``state.first`` were current,
    TTA-13.2). Nothing is changed."""
    c = CARDS[card]
    if card not in IMPACT_EVENTS:
        raise ValueError(f"{c.id} is not an Age III scoring event")
    seats = active_seats(state)
    out = [0] * state.players
    for op in c.ops:
        kind = op["op"]
        if kind == "rank_award":  # Impact of Science / Strength (TTA-13.2 item 2)
            awards = [int(x) for x in op["awards"][str(len(seats))]]
            values = [0] * state.players
            for s in seats:
                values[s] = quantity(state, s, str(op["by"]))
            for place, s in enumerate(ranking(state, values, first_as_current=first_as_current)):
                out[s] += awards[place]
        elif kind in ("gain", "lose"):
            if op.get("what") != "culture_points" or op.get("who", "self") != "each":
                raise KeyError(f"{c.id}: unsupported {kind} op")
            flt = None
            if _shorter_game(state) and "variant_shorter_game" in op:
                flt = op["variant_shorter_game"].get("filter")
            sign = 1 if kind == "gain" else -1
            for s in seats:
                if _condition(state, s, op.get("condition")):
                    out[s] += sign * amount(state, s, op["amount"], flt)
        else:
            raise KeyError(f"{c.id}: unsupported op {kind}")
    return out


def apply_impact(state: TTAState, card: int, *, first_as_current: bool = False) -> list[int]:
    """Score the Age III event ``card`` for everybody (see :func:`impact_culture`): culture
    never drops below 0 (TTA-AMB-30). Returns each seat's actual change."""
    delta = impact_culture(state, card, first_as_current=first_as_current)
    got = [0] * state.players
    for s, d in enumerate(delta):
        if d:
            civ = state.civs[s]
            before = civ.culture
            civ.culture = max(0, before + d)
            got[s] = civ.culture - before
    return got


def game_end_culture(state: TTAState, seat: int) -> int:
    """Culture of the ``game_end`` ops of the cards in play of ``seat`` (Bill Gates: his labs'
    extra resources, TTA-13.2 item 3)."""
    total = 0
    for _card, op in effects.ops_of(state.civs[seat], "game_end"):
        if op["op"] == "gain" and op.get("what") == "culture_points":
            total += amount(state, seat, op["amount"])
        else:  # pragma: no cover - guarded by the data (only Bill Gates has game_end ops)
            raise KeyError(f"unsupported game_end op {op['op']}")
    return total


def final_scoring(state: TTAState) -> list[int]:
    """TTA-13.2: evaluate every Age III event left in the current deck (``state.events``) and
    in the future deck (``state.future``), each for everybody with the first player's
    tie-breaks (events of earlier ages are ignored); then the cards' ``game_end`` culture
    (Bill Gates). Applies the culture and returns what each seat gained."""
    start = [c.culture for c in state.civs]
    for card in [*state.events, *getattr(state, "future", [])]:
        if card in IMPACT_EVENTS:
            apply_impact(state, card, first_as_current=True)
    for s in active_seats(state):
        state.civs[s].culture += game_end_culture(state, s)
    return [c.culture - b for c, b in zip(state.civs, start, strict=True)]
