"""Card effects: the interpreter of the data file's ops for cards in play.

Every civil card's effect is data (``cards.json`` ``effect.ops``); this module names each op
and hook the engine implements, so ``grep <card id>`` in the data finds the op and
``grep <op or hook>`` here finds its code. Implemented (part 1):

* ``stat`` (continuous): Alexander, Joan of Arc, Michelangelo, Great Wall, Napoleon,
  Shakespeare (TTA-1.10); James Cook's colony culture is inert without colonies (part 2).
* ``building_bonus``: Leonardo, Newton, Einstein, Bach, Chaplin, Sid Meier (ratings);
  Transcontinental Railroad, Bill Gates (production, TTA-8.7).
* ``cost_modifier``: Hammurabi, Moses, Bach, Shakespeare; Taj Mahal ``in_card_row``.
* ``urban_discount`` / ``wonder_stages_per_action``: Masonry, Architecture, Engineering (TTA-7.6).
* ``gain`` triggers ``on_take_technology`` (Aristotle), ``on_develop_technology`` (Leonardo,
  Newton, Einstein), ``on_revolution`` (Robespierre), ``on_leave_play`` (Bill Gates; his
  ``game_end`` culture belongs to the full game's scoring, part 2), ``end_of_turn`` (Genghis
  Khan), ``action_phase`` (Ocean Liner Service).
* ``military_pool`` ``start_of_turn`` (Homer, TTA-AMB-10).
* hooks ``no_wonder_surcharge``, ``military_action_as_civil_action``,
  ``revolution_costs_military_actions``, ``extra_happy_face_per_happy_source``,
  ``populate_and_build_unit``, ``upgrade_to_theater``, ``homer_under_wonder``.

The tactic hooks ``air_force_doubles_army`` and ``infantry_as_cavalry`` are implemented in
:mod:`.military`; the political ones (``extra_political_action``, ``colonize_from_hand``,
``discard_for_colonization``, ``pacifist``) and the event/pact hooks in :mod:`.politics`,
:mod:`.events` and :mod:`.civil`; ``peek_current_event`` (Joan of Arc) in the view.
"""

from __future__ import annotations

from typing import Any

from civtable.games.through_the_ages.catalog import (
    CA,
    CARDS,
    CHAND,
    CULT,
    HAPPY,
    KINDS,
    MA,
    MHAND,
    NSLOTS,
    NSTATS,
    PACT_SIDES,
    SCI,
    SLOT_CARD,
    STR,
    UNIT_KINDS,
    URBAN_KINDS,
    Card,
)
from civtable.games.through_the_ages.state import Civ

#: hooks with an effect; civil ones here, the political/military ones in :mod:`.politics`,
#: :mod:`.events` and :mod:`.civil` (Scientific Cooperation), the tactic ones in :mod:`.military`
IMPLEMENTED_HOOKS = frozenset(
    {
        "no_wonder_surcharge",
        "military_action_as_civil_action",
        "revolution_costs_military_actions",
        "extra_happy_face_per_happy_source",
        "populate_and_build_unit",
        "upgrade_to_theater",
        "homer_under_wonder",
        "air_force_doubles_army",
        "infantry_as_cavalry",
        "extra_political_action",
        "colonize_from_hand",
        "discard_for_colonization",
        "pacifist",
        "take_cards_for_political_action",
        "flip_old_wonder",
        "steal_special_technologies_or_science",
        "partner_pays_science_on_develop",
        "peek_current_event",  # Joan of Arc: shown by the view (view.peeks)
    }
)
#: hooks without an effect yet (none)
PART2_HOOKS: frozenset[str] = frozenset()


class Fx:
    """What a civilization's non-building cards in play (government, specials, leader, wonders)
    contribute, derived once per distinct set of those cards (see :func:`fx`).

    ``cards`` in :func:`active_cards` order; ``hooks`` the hook keys; ``when`` the (card, op)
    pairs by trigger; ``mods`` the continuous ``cost_modifier`` ops by action; ``udisc`` the
    TTA-7.6 urban discount by age; ``wstages`` TTA-7.2.8 stages per action; ``ca``/``ma``
    the action totals (TTA-1.9); ``chand``/``mhand`` the hand-limit bonuses (TTA-7.7);
    ``stats``/``happy_src`` the cards' symbols (St. Peter's extra faces included) for
    :func:`~.board.raw_stats`; ``rating_ops`` the ``stat``/``building_bonus`` ops of
    :func:`ratings_extra`; ``res_bonus`` the resource ``building_bonus`` ops (TTA-8.7).
    """

    __slots__ = (
        "bcost",
        "ca",
        "cards",
        "chand",
        "convert",
        "happy_src",
        "hooks",
        "ma",
        "mhand",
        "mods",
        "pbonus",
        "rating_ops",
        "res_bonus",
        "stats",
        "stp",
        "udisc",
        "when",
        "wstages",
    )

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        ops = [(c, op) for c in cards for op in c.ops]
        self.hooks = frozenset(op["key"] for _c, op in ops if op["op"] == "hook")
        when: dict[str, list[tuple[Card, dict[str, Any]]]] = {}
        mods: dict[str, list[dict[str, Any]]] = {}
        for c, op in ops:
            w = op.get("when")
            if w is not None:
                when.setdefault(w, []).append((c, op))
            if op["op"] == "cost_modifier" and w == "continuous":
                mods.setdefault(op["action"], []).append(op)
        self.when = {k: tuple(v) for k, v in when.items()}
        self.mods = {k: tuple(v) for k, v in mods.items()}
        self.udisc: tuple[int, ...] = (0, 0, 0, 0)
        for _c, op in ops:
            if op["op"] == "urban_discount":
                self.udisc = tuple(int(op["by_age"][a]) for a in ("A", "I", "II", "III"))
                break
        self.wstages = 1
        for _c, op in ops:
            if op["op"] == "wonder_stages_per_action":
                self.wstages = int(op["amount"])
                break
        self.ca = sum(c.in_play[CA] for c in cards)
        self.ma = sum(c.in_play[MA] for c in cards)
        self.chand = sum(c.in_play[CHAND] for c in cards)
        self.mhand = sum(c.in_play[MHAND] for c in cards)
        self.stp = stp = "extra_happy_face_per_happy_source" in self.hooks
        v = [0] * NSTATS
        happy_src: dict[str, int] = {}
        for c in cards:
            ip = c.in_play
            for i in range(NSTATS):
                v[i] += ip[i]
            if ip[HAPPY] > 0:
                extra = 1 if stp and c.id != "st_peters_basilica" else 0
                v[HAPPY] += extra
                src = "wonder" if c.type == "wonder" else (c.tech_type or c.type)
                happy_src[src] = happy_src.get(src, 0) + ip[HAPPY] + extra
        self.stats = tuple(v)
        self.happy_src = happy_src
        self.rating_ops = tuple(
            op
            for _c, op in ops
            if (op["op"] == "stat" and op.get("when") == "continuous")
            or (op["op"] == "building_bonus" and op["stat"] in ("science", "culture"))
        )
        #: a ``convert`` op (Trade Routes Agreement): (what is used, what it counts as)
        self.convert: tuple[str, str] | None = next(
            ((str(op["use"]), str(op["as"])) for _c, op in ops if op["op"] == "convert"), None
        )
        #: (food, resources) ``production_bonus`` ops (International Trade Agreement, TTA-8.7)
        self.pbonus = (
            sum(
                int(op["amount"])
                for _c, op in ops
                if op["op"] == "production_bonus" and op["what"] == "food"
            ),
            sum(
                int(op["amount"])
                for _c, op in ops
                if op["op"] == "production_bonus" and op["what"] == "resources"
            ),
        )
        self.res_bonus = tuple(
            op for _c, op in ops if op["op"] == "building_bonus" and op["stat"] == "resources"
        )
        # build cost by slot after the urban discount, unless a conditional "build_urban"
        # modifier (Shakespeare) makes it depend on the workers (see board.building_cost)
        self.bcost: tuple[int, ...] | None = None
        if "build_urban" not in self.mods:
            self.bcost = tuple(
                max(0, c.build_cost - (self.udisc[c.age] if slot >> 2 in URBAN_KINDS else 0))
                for slot, c in ((slot, CARDS[SLOT_CARD[slot]]) for slot in range(NSLOTS))
            )


_FX: dict[tuple[int, ...], Fx] = {}
_FX_MAX = 20_000  # distinct card sets kept (about 1.5 kB each; the memo is cleared beyond that)


def fx(civ: Civ) -> Fx:
    """The :class:`Fx` of the civilization's government, specials, leader and wonders
    (memoized by those card ids, so it never goes stale when they change)."""
    sp = civ.special
    key: tuple[int, ...] = (civ.gov, civ.leader, sp[0], sp[1], sp[2], sp[3], *civ.wonders)
    if civ.colonies or civ.pside:  # territories owned (TTA-11.6) and pact sides (TTA-6.6)
        key = (*key, -1, *civ.colonies, -2, *civ.pside)
    f = _FX.get(key)
    if f is None:
        if len(_FX) >= _FX_MAX:
            _FX.clear()
        out = [CARDS[civ.gov]]
        out.extend(CARDS[s] for s in sp if s >= 0)
        if civ.leader >= 0:
            out.append(CARDS[civ.leader])
        out.extend(CARDS[w] for w in civ.wonders)
        out.extend(CARDS[t] for t in civ.colonies)
        out.extend(PACT_SIDES[p] for p in civ.pside)
        f = _FX[key] = Fx(tuple(out))
    return f


def active_cards(civ: Civ) -> list[Card]:
    """Non-building cards whose effects are in play: government, specials, leader, wonders."""
    return list(fx(civ).cards)


_NO_OPS: tuple[tuple[Card, dict[str, Any]], ...] = ()


def scale(spec: dict[str, Any], value: int, players: int) -> int:
    """The arithmetic of an amount expression on its quantity's ``value`` (data README "Amount
    expressions"): ``div`` with ``round``, ``times`` (an int or by player count), ``plus``, then
    ``min``/``max``."""
    v = value
    if "div" in spec:
        d = int(spec["div"])
        v = v // d if spec.get("round", "down") == "down" else -(-v // d)
    t = spec.get("times", 1)
    if isinstance(t, dict):
        t = t[str(players)]
    v = v * int(t) + int(spec.get("plus", 0))
    if "min" in spec:
        v = max(v, int(spec["min"]))
    if "max" in spec:
        v = min(v, int(spec["max"]))
    return v


def ops_of(civ: Civ, when: str) -> tuple[tuple[Card, dict[str, Any]], ...]:
    """(card, op) pairs of the cards in play with that ``when``."""
    return fx(civ).when.get(when, _NO_OPS)


def has_hook(civ: Civ, key: str) -> bool:
    """Does a card in play carry hook ``key``?"""
    return key in fx(civ).hooks


def cost_modifier(civ: Civ, action: str, card: Card | None, f: Fx | None = None) -> int:
    """Sum of the (negative) ``cost_modifier`` amounts of cards in play for an action."""
    mods = (f or fx(civ)).mods.get(action)
    if not mods:
        return 0
    total = 0
    for op in mods:
        flt = op.get("filter") or {}
        if card is not None:
            if "card_type" in flt and flt["card_type"] != card.type:
                continue
            if "tech_subtype" in flt and flt["tech_subtype"] != card.subtype:
                continue
            if "card" in flt and flt["card"] != card.id:
                continue
        elif flt:
            continue
        cond = op.get("condition")
        if cond == "has_library_building" and not _has_building(civ, "library"):
            continue
        if cond == "has_theater_building" and not _has_building(civ, "theater"):
            continue
        total += int(op["amount"])
    return total


def _has_building(civ: Civ, subtype: str) -> bool:
    k = KINDS.index(subtype)
    return any(civ.workers[k * 4 + a] for a in range(4))


def urban_discount(civ: Civ, age: int) -> int:
    """TTA-7.6 construction discount on an urban building of ``age``."""
    return fx(civ).udisc[age]


def wonder_stages_per_action(civ: Civ) -> int:
    """TTA-7.2.8 stages one civil action may build."""
    return fx(civ).wstages


def ratings_extra(civ: Civ, base: list[int], happy_by_source: dict[str, int]) -> None:
    """Add continuous ``stat`` and rating ``building_bonus`` ops to ``base`` (a stats vector)."""
    for op in fx(civ).rating_ops:
        if op["op"] == "stat":  # continuous
            if op.get("condition") == "has_colony" and not civ.colonies:
                continue  # James Cook: only with a colony
            amt = op["amount"]
            q = amt["equal_to"]
            flt = amt.get("filter") or {}
            if q == "colonies":
                v = len(civ.colonies)
            elif q == "partner_completed_wonders":  # International Tourism
                v = civ.xculture
            elif q == "military_units":
                types = flt.get("unit_types")
                v = sum(
                    civ.workers[k * 4 + a]
                    for k in UNIT_KINDS
                    if types is None or KINDS[k] in types
                    for a in range(4)
                )
            elif q == "happy_faces":
                v = sum(happy_by_source.get(s, 0) for s in flt["sources"])
            elif q == "distinct_unit_types":
                v = sum(1 for k in UNIT_KINDS if any(civ.workers[k * 4 + a] for a in range(4)))
            elif q == "library_theater_pairs":
                lib = sum(civ.workers[KINDS.index("library") * 4 + a] for a in range(4))
                the = sum(civ.workers[KINDS.index("theater") * 4 + a] for a in range(4))
                v = min(lib, the)
            else:  # pragma: no cover - guarded by the data tests
                raise KeyError(q)
            v *= int(amt.get("times", 1))
            v += int(amt.get("plus", 0))
            base[_STAT[op["stat"]]] += v
        else:  # building_bonus of science or culture (production: production_bonus())
            base[_STAT[op["stat"]]] += building_bonus(civ, op, None)


_STAT = {"culture": CULT, "science": SCI, "strength": STR, "happiness": HAPPY}


def building_bonus(civ: Civ, op: dict[str, Any], only: set[int] | None) -> int:
    """Extra output of a ``building_bonus`` op, optionally only from buildings of ``only``."""
    kinds = [KINDS.index(b) for b in op["buildings"]]
    amount = op["amount"]
    if op["scope"] == "best":
        best = _best(civ, kinds)  # the best of the op's buildings, then filtered
        if best is None or (only is not None and best[0] not in only):
            return 0
        return _bonus_value(amount, best[0], best[1])
    total = 0
    for k in kinds:
        if only is not None and k not in only:
            continue
        for a in range(4):
            n = civ.workers[k * 4 + a]
            if n:
                total += n * _bonus_value(amount, k, a)
    return total


def leader_output(civ: Civ, only: set[int], stat: str) -> int:
    """Leader/wonder ``building_bonus`` output of ``stat`` produced by buildings of ``only``
    (Hollywood and Internet count "leader bonuses" to those buildings)."""
    return sum(
        building_bonus(civ, op, only)
        for c in fx(civ).cards
        for op in c.ops
        if op["op"] == "building_bonus" and op["stat"] == stat
    )


def _best(civ: Civ, kinds: list[int]) -> tuple[int, int] | None:
    """The highest-level building card among ``kinds`` that has a worker."""
    best: tuple[int, int] | None = None
    for k in kinds:
        for a in range(4):
            if civ.workers[k * 4 + a] and (best is None or a > best[1]):
                best = (k, a)
    return best


def _bonus_value(amount: Any, kind: int, age: int) -> int:
    if isinstance(amount, int):
        return amount
    q = amount["equal_to"]
    if q == "building_level":
        return age
    card = CARDS[SLOT_CARD[kind * 4 + age]]
    # building_output: that building's output for one worker (its main stat)
    return max(card.per_worker[CULT], card.per_worker[1], card.per_worker[SCI])


def production_bonus(civ: Civ, best_only: bool = False) -> int:
    """Extra resources in the resource step: Transcontinental Railroad, Bill Gates (TTA-8.7);
    ``best_only``: only the best-mine bonus (Railroad), the workers' own production."""
    extra = 0
    for op in fx(civ).res_bonus:
        kinds = [KINDS.index(b) for b in op["buildings"]]
        if op["scope"] == "best":
            best = _best(civ, kinds)
            if best is not None:
                k, a = best
                extra += CARDS[SLOT_CARD[k * 4 + a]].per_worker[1]
        elif not best_only:
            for k in kinds:
                for a in range(4):
                    extra += civ.workers[k * 4 + a] * a
    return extra


def lab_levels(civ: Civ) -> int:
    """Sum of card levels over workers on labs (Bill Gates)."""
    k = KINDS.index("lab")
    return sum(civ.workers[k * 4 + a] * a for a in range(4))
