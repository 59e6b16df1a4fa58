"""The Action Phase: civil and military actions, action cards and their decisions (TTA-7).

``legal_actions`` and ``apply`` dispatch on the pending decision (``state.pending``):
none (the normal Action Phase), a ``perform`` of an action card (TTA-7.2.11: the chosen
build/upgrade/develop/stage costs no action and gets the card's discount), a ``choose_one``
option, or the end-of-turn military discard (TTA-8.1).
"""

from __future__ import annotations

from typing import Any

from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import (
    CARDS,
    NKINDS,
    SLOT_CARD,
    TAKE_COST,
    UNIT_KINDS,
    URBAN_KINDS,
    WONDER_SURCHARGE,
    Card,
)
from civtable.games.through_the_ages.rules import (
    board,
    effects,
    events,
    military,
    politics,
    shorter,
    turn,
)
from civtable.games.through_the_ages.state import (
    P_ACCEPT,
    P_BID,
    P_CHOOSE,
    P_DEFEND,
    P_DISCARD,
    P_HOMER,
    P_KEEP,
    P_NONE,
    P_OPTION,
    P_PERFORM,
    P_SEND,
    PH_ACTION,
    Civ,
    TTAState,
    to_box,
)

PERFORM_KINDS: tuple[str, ...] = (
    "build_or_upgrade_farm_or_mine",
    "build_or_upgrade_urban",
    "upgrade_farm_mine_or_urban",
    "build_wonder_stage",
    "develop_technology",
    "build_unit",
    "build_urban",
    "build_farm_mine_or_urban",
)
_FM = (0, 1)
#: perform kind -> (kinds that may be built, kinds that may be upgraded)
_PERFORM_BUILDS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "build_or_upgrade_farm_or_mine": (_FM, _FM),
    "build_or_upgrade_urban": (URBAN_KINDS, URBAN_KINDS),
    "upgrade_farm_mine_or_urban": ((), _FM + URBAN_KINDS),
    "build_unit": (UNIT_KINDS, ()),
    "build_urban": (URBAN_KINDS, ()),
    "build_farm_mine_or_urban": (_FM + URBAN_KINDS, ()),
}


# --- costs and checks ----------------------------------------------------------------------


def take_cost(state: TTAState, civ: Civ, slot: int, f: effects.Fx | None = None) -> int:
    """TTA-3.1 / 3.2 civil actions to take the card in ``slot`` (``f``: the civ's
    :func:`~.effects.fx`, if the caller has it)."""
    card = CARDS[state.row[slot]]
    cost = TAKE_COST[slot]
    if f is None:
        f = effects.fx(civ)
    if card.type == "wonder" and "no_wonder_surcharge" not in f.hooks:
        cost += WONDER_SURCHARGE * (len(civ.wonders) + len(civ.ruins))
    if "take_from_row" in f.mods:
        cost += effects.cost_modifier(civ, "take_from_row", card, f)
    if card.id == "taj_mahal" and civ.replaced_leader:
        for op in card.ops:  # Taj Mahal: cheaper in the row after a leader replacement
            if op["op"] == "cost_modifier" and op.get("when") == "in_card_row":
                cost += int(op["amount"])
    return max(0, cost)


def take_costs(state: TTAState, civ: Civ, f: effects.Fx | None = None) -> list[int]:
    """:func:`take_cost` of every row slot (0 for an empty one), for observers: a non-wonder
    costs its slot's printed price unless a card in play modifies take costs (as in
    :func:`_take_actions`); the others are priced by :func:`take_cost`."""
    if f is None:
        f = effects.fx(civ)
    plain = "take_from_row" not in f.mods
    out = [0] * len(state.row)
    for slot, cid in enumerate(state.row):
        if cid >= 0:
            if plain and CARDS[cid].type != "wonder":
                out[slot] = max(0, TAKE_COST[slot])
            else:
                out[slot] = take_cost(state, civ, slot, f)
    return out


def _in_play_names(civ: Civ) -> set[str]:
    names = {CARDS[c].name for c in civ.developed}
    names.update(CARDS[c].name for c in civ.special if c >= 0)
    names.add(CARDS[civ.gov].name)
    return names


#: per card, how taking it is checked (TTA-3.3): a wonder, a technology (not twice), a leader
#: (one per age) or any other card
_TK_WONDER, _TK_TECH, _TK_LEADER, _TK_OTHER = 0, 1, 2, 3
_TAKE_KIND: tuple[int, ...] = tuple(
    _TK_WONDER
    if c.type == "wonder"
    else _TK_TECH
    if c.type == "technology"
    else _TK_LEADER
    if c.type == "leader"
    else _TK_OTHER
    for c in CARDS
)


def _take_actions(state: TTAState, civ: Civ, out: list[int], f: effects.Fx) -> None:
    """TTA-3.3 legal takes, computing the shared checks once (``f``: the civ's
    :func:`~.effects.fx`)."""
    hand_ok = len(civ.hand) < f.ca + f.chand  # TTA-7.7 civil hand limit
    wonder_ok = civ.wip < 0
    if not hand_ok and not wonder_ok:
        return  # only a wonder could be taken with a full hand
    ca = civ.ca
    plain = "take_from_row" not in f.mods  # then a non-wonder costs its slot's printed price
    names: set[str] | None = None
    for slot, cid in enumerate(state.row):
        if cid < 0:
            continue
        kind = _TAKE_KIND[cid]
        if kind == _TK_WONDER:
            if wonder_ok and take_cost(state, civ, slot, f) <= ca:
                out.append(ax.TAKE + slot)
            continue
        if plain and TAKE_COST[slot] > ca:
            continue  # = take_cost(state, civ, slot) > ca
        if not hand_ok:
            continue
        if kind == _TK_TECH:
            if names is None:
                names = _in_play_names(civ) | {CARDS[h].name for h in civ.hand}
            if CARDS[cid].name in names:
                continue
        elif kind == _TK_LEADER and civ.leader_ages & (1 << CARDS[cid].age):
            continue
        # plain: its printed price was checked above
        if plain or take_cost(state, civ, slot, f) <= ca:
            out.append(ax.TAKE + slot)


def can_take(state: TTAState, civ: Civ, slot: int) -> bool:
    """TTA-3.3 taking restrictions plus the cost."""
    cid = state.row[slot]
    if cid < 0:
        return False
    card = CARDS[cid]
    if take_cost(state, civ, slot) > civ.ca:
        return False
    if card.type == "wonder":
        return civ.wip < 0
    if len(civ.hand) >= board.hand_limits(civ)[0]:
        return False
    if card.type == "technology" and (
        any(CARDS[h].name == card.name for h in civ.hand) or card.name in _in_play_names(civ)
    ):
        return False
    return not (card.type == "leader" and civ.leader_ages & (1 << card.age))


def can_take_free(state: TTAState, civ: Civ, slot: int) -> bool:
    """:func:`can_take` without the civil-action cost (International Agreement, TTA-AMB-23)."""
    ca, civ.ca = civ.ca, 99
    try:
        return can_take(state, civ, slot)
    finally:
        civ.ca = ca


def take_free(state: TTAState, civ: Civ, slot: int) -> None:
    """Take a card from the row without spending civil actions."""
    ca, spent = civ.ca, civ.spent_ca
    civ.ca = 99
    _take(state, civ, slot)
    civ.ca, civ.spent_ca = ca, spent


def _mil_avail(civ: Civ) -> int:
    return civ.ma + civ.temp_ma


def _spend_ma(civ: Civ, n: int = 1) -> None:
    t = min(civ.temp_ma, n)  # temporary MA first (TTA-7.1)
    civ.temp_ma -= t
    civ.ma -= n - t


def _spend_ca(civ: Civ, n: int = 1) -> None:
    civ.ca -= n
    civ.spent_ca += n


def _refund_ca(civ: Civ, n: int = 1) -> None:
    """Up to ``n`` spent civil actions given back (only spent ones come back, TTA-1.9): spent
    and refunded is not spent (TTA-7.2.10)."""
    n = min(n, civ.spent_ca)
    civ.ca += n
    civ.spent_ca -= n


def pop_cost(civ: Civ, f: effects.Fx | None = None) -> int:
    """TTA-7.2.2 food for the next increase (Moses included), -1 if impossible; ``f``: the
    civ's :func:`~.effects.fx`, if the caller has it."""
    base = board.pop_cost(civ.yellow)
    if base < 0:
        return -1
    return max(0, base + effects.cost_modifier(civ, "increase_population", None, f))


def can_pop(civ: Civ, free: bool, food_discount: int = 0, f: effects.Fx | None = None) -> bool:
    """TTA-7.2.2 legality."""
    cost = pop_cost(civ, f)
    if cost < 0 or civ.yellow <= 0:
        return False
    if not free and civ.ca < 1:
        return False
    return board.stock(civ, False) >= max(0, cost - food_discount)


def _res_for(civ: Civ, kind: int) -> int:
    return board.stock(civ, True) + (civ.mpool if kind in UNIT_KINDS else 0)


def _pay_res(civ: Civ, kind: int, cost: int) -> None:
    if kind in UNIT_KINDS and civ.mpool:
        use = min(civ.mpool, cost)  # TTA-AMB-14 the temporary pool first
        civ.mpool -= use
        cost -= use
    board.pay(civ, True, cost)


def _action_ok(civ: Civ, kind: int, free: bool) -> bool:
    if free:
        return True
    return _mil_avail(civ) >= 1 if kind in UNIT_KINDS else civ.ca >= 1


def _spend_for(civ: Civ, kind: int) -> None:
    if kind in UNIT_KINDS:
        _spend_ma(civ)
    else:
        _spend_ca(civ)


def can_build(civ: Civ, slot: int, free: bool, discount: int, f: effects.Fx | None = None) -> bool:
    """TTA-7.2.3 / 7.2.4 / 7.3.1 legality (urban limit included; ``f``: the civ's
    :func:`~.effects.fx`, if the caller has it)."""
    if civ.pool < 1 or SLOT_CARD[slot] not in civ.developed:
        return False
    kind = slot // 4
    if not _action_ok(civ, kind, free):
        return False
    if kind in URBAN_KINDS and board.kind_count(civ, kind) >= board.urban_limit(civ):
        return False
    return _res_for(civ, kind) >= max(0, board.building_cost(civ, slot, f) - discount)


def can_upgrade(
    civ: Civ, kind: int, lo: int, hi: int, free: bool, discount: int, f: effects.Fx | None = None
) -> bool:
    """TTA-7.2.5 / 7.3.2 legality (``f``: the civ's :func:`~.effects.fx`, if the caller has
    it)."""
    if civ.workers[kind * 4 + lo] < 1 or SLOT_CARD[kind * 4 + hi] not in civ.developed:
        return False
    if not _action_ok(civ, kind, free):
        return False
    cost = max(0, board.upgrade_cost(civ, kind * 4 + lo, kind * 4 + hi, f) - discount)
    return _res_for(civ, kind) >= cost


def develop_cost(civ: Civ, card: Card, f: effects.Fx | None = None) -> int:
    """TTA-7.2.9 science cost after modifiers (a government: its peaceful cost); ``f``: the
    civ's :func:`~.effects.fx`, if the caller has it."""
    if card.tech_type == "government":
        return card.science_cost
    if f is None:
        f = effects.fx(civ)
    if "develop_technology" not in f.mods:
        return max(0, card.science_cost)
    return max(0, card.science_cost + effects.cost_modifier(civ, "develop_technology", card, f))


def can_develop(
    civ: Civ, card: Card, free: bool, f: effects.Fx | None = None, discount: int = 0
) -> bool:
    """TTA-7.2.9 legality of developing ``card`` from hand."""
    if card.type != "technology" or (not free and civ.ca < 1):
        return False
    sci = civ.science + (civ.spool if card.kind in UNIT_KINDS else 0)
    return sci >= develop_cost(civ, card, f) - discount


def can_revolt(
    civ: Civ, card: Card, breakthrough: bool, spent_before: int, f: effects.Fx | None = None
) -> bool:
    """TTA-7.2.10: no CA spent this turn, a CA spent and given back not counting
    (``spent_before``: the CAs spent before a Breakthrough); Robespierre: all MAs instead."""
    if card.tech_type != "government" or civ.science < card.revolution_cost:
        return False
    if "revolution_costs_military_actions" in (f or effects.fx(civ)).hooks:
        return civ.ma >= 1 and civ.ma == board.totals(civ)[1]
    if breakthrough:
        return not spent_before
    return not civ.spent_ca and civ.ca >= 1


def wonder_cost(civ: Civ, k: int) -> int:
    """Resources for the next ``k`` stages of the unfinished wonder."""
    st = CARDS[civ.wip].stages
    return sum(st[civ.wip_stages : civ.wip_stages + k])


def can_wonder(civ: Civ, k: int, free: bool, discount: int) -> bool:
    """TTA-7.2.8: ``k`` consecutive stages for one CA (construction technologies)."""
    if civ.wip < 0 or (not free and civ.ca < 1):
        return False
    left = len(CARDS[civ.wip].stages) - civ.wip_stages
    limit = 1 if free else effects.wonder_stages_per_action(civ)
    if not 1 <= k <= min(left, limit):
        return False
    return board.stock(civ, True) >= max(0, wonder_cost(civ, k) - discount)


def _find_perform_op(card: Card) -> dict[str, Any] | None:
    for op in card.ops:
        if op["op"] == "perform":
            return op
    return None


#: each card's ``perform`` op (TTA-7.2.11 action cards), or None
_PERFORM_OPS: tuple[dict[str, Any] | None, ...] = tuple(_find_perform_op(c) for c in CARDS)


def _perform_op(card: Card) -> dict[str, Any] | None:
    return _PERFORM_OPS[card.idx]


def _discount(op: dict[str, Any]) -> int:
    d = op.get("discount") or {}
    return int(sum(d.values()))


#: per card with a ``perform`` op other than a population increase: (perform kind index into
#: :data:`PERFORM_KINDS`, discount); None otherwise
_PERFORM_INFO: tuple[tuple[int, int] | None, ...] = tuple(
    None
    if op is None or op["action"] == "increase_population"
    else (PERFORM_KINDS.index(op["action"]), _discount(op))
    for op in _PERFORM_OPS
)


def can_play_action(state: TTAState, civ: Civ, card: Card, f: effects.Fx | None = None) -> bool:
    """TTA-7.2.11: 1 CA, not taken this turn, and the performed action must be possible
    (``f``: the civ's :func:`~.effects.fx`, if the caller has it)."""
    if civ.ca < 1 or card.idx in civ.fresh:
        return False
    info = _PERFORM_INFO[card.idx]
    if info is None:
        op = _PERFORM_OPS[card.idx]
        return op is None or can_pop(civ, True, 0, f)  # no perform op, or increase_population
    test = [P_PERFORM, card.idx, info[0], info[1], civ.spent_ca]
    return bool(_perform_legal(state, civ, test, True, f))


# --- legal actions ---------------------------------------------------------------------------


def _perform_legal(
    state: TTAState, civ: Civ, p: list[int], first: bool = False, f: effects.Fx | None = None
) -> list[int]:
    """The choices of the ``perform`` decision ``p``; ``first``: stop at the first one found
    (whether there is a choice at all); ``f``: the civ's :func:`~.effects.fx`, if the caller
    has it."""
    kind = PERFORM_KINDS[p[2]]
    disc = p[3]
    out: list[int] = []
    if f is None:
        f = effects.fx(civ)
    if kind == "build_wonder_stage":
        if can_wonder(civ, 1, True, disc):
            out.append(ax.WONDER)
        return out
    if kind == "develop_technology":
        revolution = p[1] >= 0 and _perform_allows_revolution(p[1])
        for c in sorted(set(civ.hand)):
            card = CARDS[c]
            if can_develop(civ, card, True, f, disc):
                out.append(ax.PLAY + c)
                if first:
                    return out
            if revolution and can_revolt(civ, card, True, p[4], f):
                out.append(ax.REVOLT + c)
                if first:
                    return out
        return sorted(out)
    builds, upgrades = _PERFORM_BUILDS[kind]
    if civ.pool >= 1:  # can_build's first check
        for k in builds:
            for a in range(4):
                if can_build(civ, k * 4 + a, True, disc, f):
                    out.append(ax.BUILD + k * 4 + a)
                    if first:
                        return out
    w = civ.workers
    for k in upgrades:
        for lo, hi in ax.PAIRS:
            if w[k * 4 + lo] >= 1 and can_upgrade(civ, k, lo, hi, True, disc, f):
                out.append(ax.upgrade_id(k, lo, hi))
                if first:
                    return out
    return sorted(out)


def _perform_allows_revolution(card: int) -> bool:
    op = _PERFORM_OPS[card]
    return bool(op and op.get("allow_revolution"))


def perform_legal(state: TTAState, civ: Civ, p: list[int]) -> list[int]:
    """The choices of a ``perform`` decision ``p`` (a ``P_PERFORM`` pending list)."""
    return _perform_legal(state, civ, p)


def legal_actions(state: TTAState) -> list[int]:
    """Sorted legal actions of the acting seat (``state.actor``)."""
    civ = state.civs[state.decider()]
    p = state.pending
    kind = p[0]
    if kind >= P_DEFEND:
        if kind == P_DEFEND:
            return politics.defend_actions(state)
        if kind == P_ACCEPT:
            return [ax.OPTION, ax.OPTION + 1]
        if kind == P_BID:
            return events.bid_actions(state)
        if kind == P_SEND:
            return events.send_actions(state)
        if kind == P_OPTION:
            return events.option_actions(state)
        if kind == P_KEEP:
            return shorter.keep_actions(state)
        return sorted(events.agreement_actions(state))  # P_AGREEMENT
    if p[0] == P_DISCARD:
        return sorted({ax.DISCARD + c for c in civ.mhand})
    if p[0] == P_HOMER:
        return [ax.CHOICE, ax.CHOICE + 1]
    if p[0] == P_CHOOSE:
        card = CARDS[p[1]]
        n = next(len(op["options"]) for op in card.ops if op["op"] == "choose_one")
        return [ax.CHOICE + i for i in range(n)]
    if p[0] == P_PERFORM:
        return _perform_legal(state, civ, p)
    out = [ax.END]
    f = effects.fx(civ)
    _take_actions(state, civ, out, f)
    if state.round == 1:
        return out  # TTA-5.1: only taking cards in round 1
    if state.phase != PH_ACTION:
        politics.political_actions(state, out)  # TTA-6: before the first Action-Phase action
    ca = civ.ca
    mil = civ.ma + civ.temp_ma
    if ca >= 1 and can_pop(civ, False, 0, f):
        out.append(ax.POP)
    # build / upgrade / destroy: the checks of can_build, can_upgrade and _action_ok, with the
    # shared quantities computed once
    res = board.stock(civ, True)
    w = civ.workers
    pool = civ.pool
    ulimit = CARDS[civ.gov].urban_limit
    cost = f.bcost
    if cost is None:  # costs that depend on the workers (Shakespeare)
        cost = board.building_costs(civ, f)
    res_units = res + civ.mpool
    for c in civ.developed:
        slot, kind, unit, urban, upgrades = _DEVELOPED[c]
        if unit:
            if mil < 1:
                continue  # every one of these needs a CA (units: an MA)
            avail = res_units
        else:
            if ca < 1:
                continue
            avail = res
        if w[slot]:
            out.append(ax.DESTROY + slot)  # TTA-7.2.6 / 7.3.3
        c_hi = cost[slot]
        if pool >= 1 and avail >= c_hi and not (urban and board.kind_count(civ, kind) >= ulimit):
            out.append(ax.BUILD + slot)
        for lo_slot, upgrade in upgrades:
            if w[lo_slot] and avail >= c_hi - cost[lo_slot]:  # TTA-7.2.5 (floor 0)
                out.append(upgrade)
    for c in set(civ.hand):
        card = CARDS[c]
        if card.type == "technology":
            if can_develop(civ, card, False, f) and _partner_can_pay(state, civ):
                out.append(ax.PLAY + c)
            if can_revolt(civ, card, False, 0, f):
                out.append(ax.REVOLT + c)
        elif card.type == "leader":
            if civ.ca >= 1:  # TTA-AMB-29
                out.append(ax.PLAY + c)
        elif card.type == "action" and can_play_action(state, civ, card, f):
            out.append(ax.PLAY + c)
    if civ.wip >= 0 and ca >= 1:
        for k in range(1, min(len(CARDS[civ.wip].stages) - civ.wip_stages, f.wstages) + 1):
            if res >= wonder_cost(civ, k):  # can_wonder (TTA-7.2.8)
                out.append(ax.WONDER + k - 1)
    if not civ.used & military.USED_TACTIC and mil >= 1:  # military.can_play/copy_tactic
        for c in civ.mhand:
            if CARDS[c].type == "tactic":
                out.append(ax.PLAY + c)
        if mil >= 2:
            for c in state.common:
                if c != civ.tactic:
                    out.append(ax.COPY + c)
    if f.hooks or "action_phase" in f.when:
        _hook_actions(civ, out)
    if (
        f.convert is not None
        and not civ.used & turn.USED_TRADE
        and board.stock(civ, f.convert[0] == "resources") >= 1
    ):
        out.append(ax.TRADE)  # Trade Routes Agreement (engine choice: a conversion step)
    return sorted(set(out))


#: building slot of each card (-1: not a building technology)
_SLOT_OF: tuple[int, ...] = tuple(c.kind * 4 + c.age if c.kind >= 0 else -1 for c in CARDS)
_IS_UNIT: tuple[bool, ...] = tuple(k in UNIT_KINDS for k in range(NKINDS))
_IS_URBAN: tuple[bool, ...] = tuple(k in URBAN_KINDS for k in range(NKINDS))
#: ``_PAIR_INDEX[lo][hi]``: index of the level pair (lo, hi) in :data:`~.actions.PAIRS`
_PAIR_INDEX: tuple[tuple[int, ...], ...] = tuple(
    tuple(ax.PAIR_INDEX.get((lo, hi), -1) for hi in range(4)) for lo in range(4)
)
#: per building technology (else None): its slot, kind, whether a unit, whether urban, and
#: the (lower slot, action id) of the upgrades to it from each lower level (TTA-7.2.5)
_DEVELOPED: tuple[tuple[int, int, bool, bool, tuple[tuple[int, int], ...]], ...] = tuple(
    (
        s,
        s >> 2,
        _IS_UNIT[s >> 2],
        _IS_URBAN[s >> 2],
        tuple(
            ((s >> 2) * 4 + lo, ax.UPGRADE + (s >> 2) * 6 + _PAIR_INDEX[lo][s & 3])
            for lo in range(s & 3)
        ),
    )
    if s >= 0
    else (-1, -1, False, False, ())
    for s in _SLOT_OF
)


def _hook_actions(civ: Civ, out: list[int]) -> None:
    if (
        effects.has_hook(civ, "military_action_as_civil_action")
        and not civ.used & turn.USED_HAMMURABI
        and civ.ma >= 1
    ):
        out.append(ax.HAMMURABI)
    for _card, op in effects.ops_of(civ, "action_phase"):
        if op["op"] == "gain" and op["what"] == "population":
            if not civ.used & turn.USED_OCEAN and civ.yellow > 0:
                out.append(ax.OCEAN)
        elif op["op"] == "choose_one" and not civ.used & turn.USED_CHURCHILL:
            out.extend((ax.CHURCHILL, ax.CHURCHILL + 1))
        elif op["op"] == "hook" and op["key"] == "populate_and_build_unit" and _can_barbarossa(civ):
            out.append(ax.BARBAROSSA)
        elif op["op"] == "hook" and op["key"] == "upgrade_to_theater" and _bach_ready(civ):
            out.extend(_bach_actions(civ))


_THEATER = 6  # kind index of theaters


def _bach_ready(civ: Civ) -> bool:
    return not civ.used & turn.USED_BACH and civ.ca >= 1


def bach_cost(civ: Civ, src: int, age: int) -> int:
    """J. S. Bach: the discounted theater cost minus the discounted source cost (floor 0)."""
    return max(0, board.building_cost(civ, _THEATER * 4 + age) - board.building_cost(civ, src))


def _bach_actions(civ: Civ) -> list[int]:
    out = []
    res = board.stock(civ, True)
    for k in URBAN_KINDS:
        for a in range(4):
            src = k * 4 + a
            if not civ.workers[src]:
                continue
            for t in range(a, 4):
                if k == _THEATER and t == a:
                    continue
                if SLOT_CARD[_THEATER * 4 + t] not in civ.developed:
                    continue
                if res >= bach_cost(civ, src, t):
                    out.append(ax.bach_id(src, t))
    return out


def _can_barbarossa(civ: Civ) -> bool:
    if _mil_avail(civ) < 1 or not can_pop(civ, True, 1):
        return False
    res = board.stock(civ, True) + civ.mpool
    for k in UNIT_KINDS:
        for a in range(4):
            slot = k * 4 + a
            if SLOT_CARD[slot] in civ.developed and res >= board.building_cost(civ, slot) - 1:
                return True
    return False


# --- applying -------------------------------------------------------------------------------


def apply(state: TTAState, action: int) -> None:
    """Apply a legal action of the acting seat, then start the next queued decision."""
    _apply(state, action)
    if state.pending[0] == P_NONE and (state.queue or state.actor >= 0):
        politics.advance(state)


def _apply(state: TTAState, action: int) -> None:
    civ = state.civs[state.decider()]
    p = state.pending
    kind = p[0]
    if kind >= P_DEFEND:
        state.pending = [P_NONE]
        if kind == P_DEFEND:
            state.pending = p
            politics.defend(state, action)
        elif kind == P_ACCEPT:
            state.pending = p
            politics.answer_pact(state, action == ax.OPTION + 1)
        elif kind == P_BID:
            state.pending = p
            events.bid(state, action - ax.OPTION)
        elif kind == P_SEND:
            state.pending = p
            events.send(state, action)
        elif kind == P_OPTION:
            state.pending = p
            events.apply_option(state, action)
        elif kind == P_KEEP:
            shorter.keep(state, action)
        else:
            state.pending = p
            events.agreement(state, action)
        state.pending = [P_NONE]
        return
    if kind == P_NONE and state.phase != PH_ACTION:
        if ax.PREPARE <= action < ax.OPTION or action >= ax.SHARED:
            politics.apply_political(state, action)
            return
        state.phase = PH_ACTION  # the first Action-Phase action ends the Politics Phase
    if p[0] == P_DISCARD:
        turn.discard(state, action - ax.DISCARD)
        return
    if p[0] == P_CHOOSE:
        _choose(state, civ, action - ax.CHOICE)
        return
    if p[0] == P_HOMER:
        state.pending = [P_NONE]
        if action == ax.CHOICE + 1:
            civ.homer_wonder = civ.wonders[-1]  # +1 happy face on a completed wonder
        else:
            _refund_ca(civ)  # the normal replacement refund
        return
    free = p[0] == P_PERFORM
    disc = p[3] if free else 0
    if action == ax.END:
        turn.end_action_phase(state)
        return
    if ax.TAKE <= action < ax.POP:
        _take(state, civ, action - ax.TAKE)
    elif action == ax.POP:
        _spend_ca(civ)
        _pop(civ, 0)
    elif ax.BUILD <= action < ax.UPGRADE:
        _build(civ, action - ax.BUILD, free, disc)
    elif ax.UPGRADE <= action < ax.DESTROY:
        kind, lo, hi = ax.decode_upgrade(action)
        _upgrade(civ, kind, lo, hi, free, disc)
    elif ax.DESTROY <= action < ax.PLAY:
        slot = action - ax.DESTROY
        _spend_for(civ, slot // 4)  # TTA-7.2.6 / 7.3.3
        civ.workers[slot] -= 1
        civ.pool += 1
    elif ax.PLAY <= action < ax.REVOLT:
        _play(state, civ, action - ax.PLAY, free)
    elif ax.REVOLT <= action < ax.WONDER:
        _revolt(state, civ, action - ax.REVOLT)
    elif ax.WONDER <= action < ax.CHOICE:
        _wonder(state, civ, action - ax.WONDER + 1, free, disc)
    elif action == ax.HAMMURABI:
        civ.ma -= 1
        civ.ca += 1
        civ.used |= turn.USED_HAMMURABI
    elif action == ax.OCEAN:
        civ.yellow -= 1
        civ.pool += 1
        civ.used |= turn.USED_OCEAN
    elif action == ax.CHURCHILL:
        civ.culture += 3
        civ.used |= turn.USED_CHURCHILL
    elif action == ax.CHURCHILL + 1:
        civ.spool += 3
        civ.mpool += 3
        civ.used |= turn.USED_CHURCHILL
    elif ax.COPY <= action < ax.PREPARE:
        military.copy_tactic(state, civ, action - ax.COPY)
    elif ax.BACH <= action < ax.COPY:
        src, age = divmod(action - ax.BACH, 4)
        _spend_ca(civ)
        board.pay(civ, True, bach_cost(civ, src, age))
        civ.workers[src] -= 1
        civ.workers[_THEATER * 4 + age] += 1
        civ.used |= turn.USED_BACH
    elif action == ax.TRADE:
        use, _gain = effects.fx(civ).convert or ("food", "resources")
        mine = use == "resources"
        short = board.lose(civ, mine, 1)
        board.gain(civ, not mine, 1 - short)
        civ.used |= turn.USED_TRADE
    elif action == ax.BARBAROSSA:
        _spend_ma(civ)
        _pop(civ, 1)
        state.pending = [P_PERFORM, -1, PERFORM_KINDS.index("build_unit"), 1, civ.spent_ca]
        return
    if free:
        _finish_perform(state, civ)


def _finish_perform(state: TTAState, civ: Civ) -> None:
    card = state.pending[1]
    state.pending = [P_NONE]
    if card >= 0:
        op = _perform_op(CARDS[card])
        if op is not None:
            for sub in op.get("then", ()):
                _gain_op(state, civ, sub)


def _take(state: TTAState, civ: Civ, slot: int) -> None:
    """TTA-7.2.1 take a card from the row."""
    cid = state.row[slot]
    card = CARDS[cid]
    _spend_ca(civ, take_cost(state, civ, slot))
    state.row[slot] = -1
    if card.type == "wonder":
        civ.wip = cid  # straight into play, unfinished (TTA-3.3)
        civ.wip_stages = 0
        return
    civ.hand.append(cid)
    if card.type == "leader":
        civ.leader_ages |= 1 << card.age
    elif card.type == "action":
        civ.fresh.append(cid)
    elif card.type == "technology":
        for _c, op in effects.ops_of(civ, "on_take_technology"):
            _gain_op(state, civ, op)  # Aristotle


def _pop(civ: Civ, food_discount: int) -> None:
    """TTA-7.2.2 pay food and move a yellow cube to the worker pool."""
    board.pay(civ, False, max(0, pop_cost(civ) - food_discount))
    civ.yellow -= 1
    civ.pool += 1


def _build(civ: Civ, slot: int, free: bool, disc: int) -> None:
    kind = slot // 4
    if not free:
        _spend_for(civ, kind)
    _pay_res(civ, kind, max(0, board.building_cost(civ, slot) - disc))
    civ.pool -= 1
    civ.workers[slot] += 1


def _upgrade(civ: Civ, kind: int, lo: int, hi: int, free: bool, disc: int) -> None:
    if not free:
        _spend_for(civ, kind)
    cost = max(0, board.upgrade_cost(civ, kind * 4 + lo, kind * 4 + hi) - disc)
    _pay_res(civ, kind, cost)
    civ.workers[kind * 4 + lo] -= 1
    civ.workers[kind * 4 + hi] += 1


def _play(state: TTAState, civ: Civ, cid: int, free: bool) -> None:
    card = CARDS[cid]
    if card.type == "tactic":
        military.play_tactic(state, civ, cid)
    elif card.type == "technology":
        _develop(state, civ, card, free)
    elif card.type == "leader":
        _play_leader(state, civ, card)
    else:
        _play_action(state, civ, card)


def _develop(state: TTAState, civ: Civ, card: Card, free: bool) -> None:
    """TTA-7.2.9 develop a technology (a government: peaceful change)."""
    if not free:
        _spend_ca(civ)
        _partner_pays(state, civ)
    cost = develop_cost(civ, card)
    if free and state.pending[0] == P_PERFORM:
        cost = max(0, cost - state.pending[3])  # the perform's science discount
    if card.kind in UNIT_KINDS and civ.spool:
        use = min(civ.spool, cost)
        civ.spool -= use
        cost -= use
    civ.science -= cost
    civ.hand.remove(card.idx)
    before = board.totals(civ)
    if card.tech_type == "government":
        to_box(state, (civ.gov,))  # the old one leaves the game (Despotism stays printed)
        civ.gov = card.idx
    elif card.special >= 0:
        old = civ.special[card.special]
        if old >= 0 and CARDS[old].age >= card.age:
            to_box(state, (card.idx,))  # TTA-7.2.9: the lower one, just developed, is removed
        else:
            if old >= 0:
                board.leave_play(civ, old)
                to_box(state, (old,))
            civ.special[card.special] = card.idx
            board.enter_play(civ, card.idx)
    else:
        civ.developed.append(card.idx)
    board.sync_totals(civ, before)
    _on_develop(state, civ)


def _on_develop(state: TTAState, civ: Civ) -> None:
    for _c, op in effects.ops_of(civ, "on_develop_technology"):
        if op["what"] == "available_civil_actions":
            _refund_ca(civ, int(op["amount"]))  # Newton: a civil action back (TTA-AMB-28)
        else:
            _gain_op(state, civ, op)  # Leonardo, Einstein


def _revolt(state: TTAState, civ: Civ, cid: int) -> None:
    """TTA-7.2.10 revolution: all CAs (Robespierre: all MAs), the lower science cost."""
    card = CARDS[cid]
    robespierre = effects.has_hook(civ, "revolution_costs_military_actions")
    civ.science -= card.revolution_cost
    civ.hand.remove(cid)
    before = board.totals(civ)
    to_box(state, (civ.gov,))
    civ.gov = cid
    board.sync_totals(civ, before)
    if robespierre:
        civ.ma = 0
        civ.temp_ma = 0
        for _c, op in effects.ops_of(civ, "on_revolution"):
            civ.culture += int(op["amount"])
    else:
        civ.spent_ca += civ.ca  # all of them, the new government's too (TTA-AMB-28)
        civ.ca = 0
    for _c, op in effects.ops_of(civ, "on_develop_technology"):
        if op["what"] == "available_civil_actions":
            _refund_ca(civ, int(op["amount"]))
        elif op["what"] == "resources":
            board.gain(civ, True, int(op["amount"]))
        elif op["what"] == "culture_points":
            civ.culture += int(op["amount"])


def _play_leader(state: TTAState, civ: Civ, card: Card) -> None:
    """TTA-7.2.7 play a leader; a replaced leader refunds 1 CA."""
    _spend_ca(civ)
    civ.hand.remove(card.idx)
    before = board.totals(civ)
    refund = 0
    homer = False
    if civ.leader >= 0:
        homer = effects.has_hook(civ, "homer_under_wonder") and bool(civ.wonders)
        _leader_leaves(state, civ)
        refund = 1
        civ.replaced_leader = 1
    civ.leader = card.idx
    board.enter_play(civ, card.idx)
    board.sync_totals(civ, before)
    if homer:
        state.pending = [P_HOMER]  # Homer may go under a completed wonder (no refund then)
    elif refund:
        _refund_ca(civ, refund)  # TTA-7.2.7: the replaced leader gives a spent CA back


def _partner_can_pay(state: TTAState, civ: Civ) -> bool:
    """Scientific Cooperation: the other party must be able to pay its science."""
    if not civ.pside or not effects.has_hook(civ, "partner_pays_science_on_develop"):
        return True
    partner = _coop_partner(state, civ)
    return partner is None or partner.science >= 1


def _partner_pays(state: TTAState, civ: Civ) -> None:
    if civ.pside and effects.has_hook(civ, "partner_pays_science_on_develop"):
        partner = _coop_partner(state, civ)
        if partner is not None:
            partner.science -= 1


def _coop_partner(state: TTAState, civ: Civ) -> Civ | None:
    seat = state.civs.index(civ)
    p = state.pacts
    for i in range(0, len(p), 4):
        if any(op.get("key") == "partner_pays_science_on_develop" for op in _side_ops(p[i])):
            if p[i + 2] == seat:
                return state.civs[p[i + 3]]
            if p[i + 3] == seat:
                return state.civs[p[i + 2]]
    return None


def _side_ops(card: int) -> tuple[dict[str, Any], ...]:
    from civtable.games.through_the_ages.catalog import PACT_SIDES

    return PACT_SIDES[card * 2].ops


def leader_leaves(state: TTAState, civ: Civ) -> None:
    """The leader leaves play (Bill Gates scores on leaving); totals are the caller's."""
    _leader_leaves(state, civ)


def pop(civ: Civ, food_discount: int) -> None:
    """Increase population paying ``food_discount`` less (no action spent)."""
    _pop(civ, food_discount)


def _leader_leaves(state: TTAState, civ: Civ) -> None:
    old = CARDS[civ.leader]
    for op in old.ops:
        if op.get("when") == "on_leave_play" and op["what"] == "culture_points":
            civ.culture += effects.lab_levels(civ)  # Bill Gates
    board.leave_play(civ, civ.leader)
    to_box(state, (civ.leader,))  # removed from the game (TTA-7.2.7)
    civ.leader = -1


def _play_action(state: TTAState, civ: Civ, card: Card) -> None:
    """TTA-7.2.11 play an action card (it leaves the game)."""
    spent_before = civ.spent_ca
    _spend_ca(civ)
    civ.hand.remove(card.idx)
    to_box(state, (card.idx,))  # resolved, it leaves the game
    for op in card.ops:
        kind = op["op"]
        if kind == "perform":
            if op["action"] == "increase_population":
                _pop(civ, 0)  # Frugality: full price, then the gain
                for sub in op.get("then", ()):
                    _gain_op(state, civ, sub)
            else:
                state.pending = [
                    P_PERFORM,
                    card.idx,
                    PERFORM_KINDS.index(op["action"]),
                    _discount(op),
                    spent_before,
                ]
        elif kind == "choose_one":
            state.pending = [P_CHOOSE, card.idx]
        else:
            _gain_op(state, civ, op)


def _choose(state: TTAState, civ: Civ, i: int) -> None:
    card = CARDS[state.pending[1]]
    state.pending = [P_NONE]
    for op in card.ops:
        if op["op"] == "choose_one":
            for sub in op["options"][i]:
                _gain_op(state, civ, sub)


def _wonder(state: TTAState, civ: Civ, k: int, free: bool, disc: int) -> None:
    """TTA-7.2.8 build ``k`` stages; completion returns the cubes and applies the wonder."""
    if not free:
        _spend_ca(civ)
    board.pay(civ, True, max(0, wonder_cost(civ, k) - disc))
    for _ in range(k):
        board.take_blue_for_wonder(civ)
    civ.wip_stages += k
    card = CARDS[civ.wip]
    if civ.wip_stages >= len(card.stages):
        civ.blue += civ.wip_stages
        before = board.totals(civ)
        civ.wonders.append(card.idx)
        civ.wip = -1
        civ.wip_stages = 0
        board.enter_play(civ, card.idx)
        board.sync_totals(civ, before)
        if state.pacts:
            politics.sync_pacts(state)  # International Tourism counts completed wonders
        for op in card.ops:
            if op.get("when") == "immediate":
                _gain_op(state, civ, op)  # Age III wonders score at once


# --- generic ops -------------------------------------------------------------------------------


def amount(state: TTAState, civ: Civ, spec: Any) -> int:
    """Evaluate an amount expression of the data file (README "Amount expressions")."""
    if isinstance(spec, int):
        return spec
    seat = state.civs.index(civ)
    value = _quantity(state, seat, spec["equal_to"])
    return effects.scale(spec, value, politics.active_count(state))  # TTA-6.8


def _others(state: TTAState, seat: int) -> list[Civ]:
    """The other civilizations still in the game (TTA-6.8)."""
    return [state.civs[s] for s in politics.order_from(state, seat) if s != seat]


def _quantity(state: TTAState, seat: int, q: str) -> int:
    civ = state.civs[seat]
    if q == "civs_stronger_than_self":
        mine = board.ratings(civ)[2]
        return sum(1 for c in _others(state, seat) if board.ratings(c)[2] > mine)
    if q == "civs_with_more_culture_than_self":
        return sum(1 for c in _others(state, seat) if c.culture > civ.culture)
    if q == "workers_on_farms_and_mines":
        return sum(civ.workers[0:8])
    if q == "workers_on_urban_and_units":
        return sum(civ.workers[8:])
    if q == "technology_levels_in_play":
        lv = sum(CARDS[c].age for c in civ.developed) + CARDS[civ.gov].age
        return lv + sum(CARDS[c].age for c in civ.special if c >= 0)
    if q == "culture_from_theaters_and_libraries":
        return _kind_output(civ, ("theater", "library"), 2)
    if q == "urban_culture_science_strength":
        return sum(
            _kind_output(civ, ("lab", "temple", "arena", "library", "theater"), s)
            for s in (2, 3, 4)
        )
    if q == "lab_levels":
        return effects.lab_levels(civ)
    raise KeyError(q)  # pragma: no cover - guarded by the data tests


def _kind_output(civ: Civ, kinds: tuple[str, ...], stat: int) -> int:
    """Output of ``stat`` by those buildings, leader/wonder building bonuses included."""
    from civtable.games.through_the_ages.catalog import KINDS, STATS

    only = {KINDS.index(n) for n in kinds}
    total = 0
    for k in only:
        for a in range(4):
            total += civ.workers[k * 4 + a] * CARDS[SLOT_CARD[k * 4 + a]].per_worker[stat]
    return total + effects.leader_output(civ, only, STATS[stat])


def _gain_op(state: TTAState, civ: Civ, op: dict[str, Any]) -> None:
    """``gain`` / ``military_pool`` ops acting on the owner."""
    kind = op["op"]
    n = amount(state, civ, op.get("amount", 0))
    if kind == "military_pool":
        if op["resource"] == "resources":
            civ.mpool += n
        else:
            civ.spool += n
        return
    if kind == "gain":
        events.gain(state, civ, op["what"], n)
