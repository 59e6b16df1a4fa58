"""Why a card cannot be taken or played now (issue 18: every choice explains itself).

:func:`why` gives, for one seat, a reason for each card of the row it cannot take, each card of
its hands it cannot play, each building it cannot build, the population increase and the
wonder stage: ``{"code": ..., args}`` with numbers and ids only (the words module phrases it).
The engine's legal actions decide; a reason is only looked for when the action is not legal,
and ``{"code": "not_now"}`` stands in when none of the known checks explains it. Everything
here is the seat's own business (its hands, its costs), so the view may carry it.
"""

from __future__ import annotations

from civtable.core.api import JSON
from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import AGES, CARDS, UNIT_KINDS, URBAN_KINDS
from civtable.games.through_the_ages.rules import board, civil, effects, military, politics
from civtable.games.through_the_ages.state import (
    F_RESIGNED,
    P_NONE,
    PH_ACTION,
    Civ,
    TTAState,
)

Reason = JSON | None


def _general(state: TTAState, seat: int) -> Reason:
    """The reason nothing of the Action Phase is possible now, if there is one."""
    if state.over:
        return {"code": "game_over"}
    if state.civs[seat].flags & F_RESIGNED:
        return {"code": "resigned"}
    decider = state.decider()
    if seat != decider:
        return {"code": "not_your_turn", "player": decider}
    if state.pending[0] != P_NONE:
        return {"code": "pending"}
    return None


def _tech_names(civ: Civ) -> set[str]:
    """The names of the technologies the civilization has in play or in hand (TTA-3.3)."""
    names = {CARDS[c].name for c in (*civ.developed, *civ.hand, civ.gov)}
    names.update(CARDS[c].name for c in civ.special if c >= 0)
    return names


def take_reason(
    state: TTAState,
    civ: Civ,
    slot: int,
    f: effects.Fx | None = None,
    *,
    cost: int | None = None,
    names: set[str] | None = None,
) -> JSON:
    """TTA-3.3 / 7.2.1: why the card in ``slot`` cannot be taken (its cost, the hand limit, a
    wonder being built, a technology already there, a leader of that age taken); ``f``: the
    civ's :func:`~.rules.effects.fx`, ``cost`` its :func:`~.rules.civil.take_cost` of the slot
    and ``names`` its technologies' names, if the caller has them."""
    card = CARDS[state.row[slot]]
    if f is None:
        f = effects.fx(civ)
    if cost is None:
        cost = civil.take_cost(state, civ, slot, f)
    if card.type == "wonder" and civ.wip >= 0:
        return {"code": "wonder_in_progress", "card": CARDS[civ.wip].id}
    if cost > civ.ca:
        return {"code": "ca", "need": cost, "have": civ.ca}
    if card.type != "wonder":
        limit = f.ca + f.chand  # board.hand_limits(civ)[0]
        if len(civ.hand) >= limit:  # TTA-7.7
            return {"code": "hand_full", "limit": limit}
    if card.type == "technology":
        if names is None:
            names = _tech_names(civ)
        if card.name in names:
            return {"code": "duplicate_tech"}
    if card.type == "leader" and civ.leader_ages & (1 << card.age):
        return {"code": "leader_age", "age": AGES[card.age]}
    return {"code": "not_now"}


def _needs_ca(civ: Civ, n: int = 1) -> Reason:
    return {"code": "ca", "need": n, "have": civ.ca} if civ.ca < n else None


def play_reason(state: TTAState, civ: Civ, c: int) -> JSON:
    """Why civil card ``c`` of the hand cannot be played now (TTA-7.2.7, 7.2.9, 7.2.11)."""
    card = CARDS[c]
    if state.round == 1:
        return {"code": "round_one"}
    if card.type == "technology":
        if card.special >= 0:
            old = civ.special[card.special]
            if old >= 0 and CARDS[old].age >= card.age:
                return {"code": "lower_special", "card": CARDS[old].id}
        r = _needs_ca(civ)
        if r:
            return r
        cost = civil.develop_cost(civ, card)
        have = civ.science + (civ.spool if card.kind in UNIT_KINDS else 0)
        if have < cost:
            return {"code": "science", "need": cost, "have": have}
        if not civil._partner_can_pay(state, civ):
            return {"code": "partner_science"}
        return {"code": "not_now"}
    if card.type == "leader":
        return _needs_ca(civ) or {"code": "not_now"}
    if card.type == "action":
        r = _needs_ca(civ)
        if r:
            return r
        if c in civ.fresh:
            return {"code": "taken_this_turn"}
        op = civil._perform_op(card)
        if op is not None and op["action"] == "increase_population":
            return pop_reason(state, civ, needs_action=False)
        if op is not None and op["action"] == "build_wonder_stage" and civ.wip < 0:
            return {"code": "no_wonder"}
        if op is not None and op["action"].startswith("build") and civ.pool < 1:
            return {"code": "no_worker"}
        return {"code": "nothing_to_do"}
    return {"code": "not_now"}


def revolution_reason(state: TTAState, civ: Civ, c: int) -> JSON:
    """Why a revolution to government ``c`` is not possible now (TTA-7.2.10)."""
    card = CARDS[c]
    if state.round == 1:
        return {"code": "round_one"}
    if civ.science < card.revolution_cost:
        return {"code": "science", "need": card.revolution_cost, "have": civ.science}
    if effects.has_hook(civ, "revolution_costs_military_actions"):
        total = board.totals(civ)[1]
        return {"code": "revolution_ma", "have": civ.ma, "total": total}
    if civ.spent_ca:
        return {"code": "revolution_spent"}
    return _needs_ca(civ) or {"code": "not_now"}


def military_reason(state: TTAState, civ: Civ, seat: int, c: int) -> JSON:
    """Why military card ``c`` cannot be used now (TTA-6, TTA-7.3.4)."""
    card = CARDS[c]
    t = card.type
    if t == "bonus":
        return {"code": "bonus_only"}
    if state.round == 1:
        return {"code": "round_one"}
    if t == "tactic":
        if civ.used & military.USED_TACTIC:
            return {"code": "tactic_used"}
        have = civ.ma + civ.temp_ma
        return {"code": "ma", "need": 1, "have": have} if have < 1 else {"code": "not_now"}
    if state.phase == PH_ACTION:
        return {"code": "politics_only"}
    if t in ("aggression", "war", "pact") and not politics.full_game(state):
        return {"code": "not_in_mode"}
    if t in ("aggression", "war") and politics.pacifist(civ):
        return {"code": "pacifist"}
    if t == "pact" and politics.active_count(state) < 3:
        return {"code": "pact_players"}
    if t == "war" and state.last_round == state.round:
        return {"code": "last_round"}
    if t in ("aggression", "war"):
        have = civ.ma + civ.temp_ma
        others = [o for o in politics.order_from(state, seat) if o != seat]
        costs = [politics.attack_cost(state, c, o) for o in others]
        if costs and have < min(costs):
            return {"code": "ma", "need": min(costs), "have": have}
        return {"code": "no_target_aggression" if t == "aggression" else "no_target_war"}
    return {"code": "not_now"}


def build_reason(state: TTAState, civ: Civ, slot: int, f: effects.Fx | None = None) -> JSON:
    """Why no building can be built on ``slot`` now (TTA-7.2.3, 7.2.4, 7.3.1; ``f``: the civ's
    :func:`~.rules.effects.fx`, if the caller has it)."""
    if state.round == 1:
        return {"code": "round_one"}
    kind = slot // 4
    unit = kind in UNIT_KINDS
    if unit:
        have = civ.ma + civ.temp_ma
        if have < 1:
            return {"code": "ma", "need": 1, "have": have}
    elif civ.ca < 1:
        return {"code": "ca", "need": 1, "have": civ.ca}
    if civ.pool < 1:
        return {"code": "no_worker"}
    if kind in URBAN_KINDS and board.kind_count(civ, kind) >= board.urban_limit(civ):
        return {
            "code": "urban_limit",
            "limit": board.urban_limit(civ),
            "government": CARDS[civ.gov].id,
        }
    cost = board.building_cost(civ, slot, f)
    have = board.stock(civ, True) + (civ.mpool if unit else 0)
    if have < cost:
        return {"code": "resources", "need": cost, "have": have}
    return {"code": "not_now"}


def pop_reason(state: TTAState, civ: Civ, *, needs_action: bool = True) -> JSON:
    """Why the population cannot be increased now (TTA-7.2.2; ``needs_action``: paying a civil
    action for it, not an action card's increase)."""
    if state.round == 1:
        return {"code": "round_one"}
    if needs_action and civ.ca < 1:
        return {"code": "ca", "need": 1, "have": civ.ca}
    cost = civil.pop_cost(civ)
    if cost < 0 or civ.yellow <= 0:
        return {"code": "no_yellow"}
    have = board.stock(civ, False)
    if have < cost:
        return {"code": "food", "need": cost, "have": have}
    return {"code": "not_now"}


def wonder_reason(state: TTAState, civ: Civ) -> JSON:
    """Why no stage of the unfinished wonder can be built now (TTA-7.2.8)."""
    if state.round == 1:
        return {"code": "round_one"}
    if civ.ca < 1:
        return {"code": "ca", "need": 1, "have": civ.ca}
    cost = civil.wonder_cost(civ, 1)
    have = board.stock(civ, True)
    if have < cost:
        return {"code": "resources", "need": cost, "have": have}
    return {"code": "not_now"}


#: per card: its id, and its building slot (``kind * 4 + age``; -1: not a building)
_CARD_ID: tuple[str, ...] = tuple(c.id for c in CARDS)
_BUILD_SLOT: tuple[int, ...] = tuple(c.kind * 4 + c.age if c.kind >= 0 else -1 for c in CARDS)

_IS_TECH: tuple[bool, ...] = tuple(c.type == "technology" for c in CARDS)
_IS_GOVERNMENT: tuple[bool, ...] = tuple(c.tech_type == "government" for c in CARDS)
#: the ids of building one to four stages of the unfinished wonder
_WONDER_IDS = frozenset(ax.WONDER + k for k in range(4))

_MILITARY_USES: dict[tuple[int, int], frozenset[int]] = {}


def _military_uses(c: int, players: int) -> frozenset[int]:
    """Every action id that uses military card ``c`` at that player count: play, prepare,
    Columbus, discard, cancel, aggression/war/shared war on a seat, a pact offer."""
    key = (c, players)
    ids = _MILITARY_USES.get(key)
    if ids is None:
        ids = _MILITARY_USES[key] = frozenset(
            (
                ax.PLAY + c,
                ax.PREPARE + c,
                ax.COLUMBUS + c,
                ax.DISCARD + c,
                ax.CANCEL + c,
                *(
                    base + c * 4 + t
                    for base in (ax.AGGRESS, ax.WAR, ax.SHARED)
                    for t in range(players)
                ),
                *(ax.PACT + c * 8 + k for k in range(8)),
            )
        )
    return ids


def why(
    state: TTAState,
    seat: int,
    take_costs: list[int] | None = None,
    *,
    legal: set[int] | frozenset[int] | None = None,
    f: effects.Fx | None = None,
) -> JSON:
    """The reasons of ``seat`` (see the module doc): ``row`` (one per slot, None where the card
    can be taken or the slot is empty), ``hand`` (card id → {"play", "revolution"}),
    ``military`` (card id → reason), ``build`` (card id → reason), ``population``,
    ``wonder``; each None when the action is possible. ``general`` is the reason that covers
    everything when it is not the seat's decision. ``take_costs`` (the seat's
    :func:`~.rules.civil.take_costs`), ``legal`` (its legal actions as a set) and ``f`` (its
    civilization's :func:`~.rules.effects.fx`): passed by a caller that has them."""
    civ = state.civs[seat]
    if legal is None:
        legal = set(state.legal_actions(seat))
    general = _general(state, seat)
    if f is None:
        f = effects.fx(civ)
    row: list[Reason] = []
    names: set[str] | None = None
    take_id = ax.TAKE
    for slot, cid in enumerate(state.row):  # the row is the most work
        if cid < 0 or take_id + slot in legal:
            row.append(None)
        elif general is not None:
            row.append(general)
        else:
            if take_costs is None:
                take_costs = civil.take_costs(state, civ, f)  # = take_cost of every slot
            if names is None and _IS_TECH[cid]:
                names = _tech_names(civ)
            row.append(take_reason(state, civ, slot, f, cost=take_costs[slot], names=names))
    hand: dict[str, JSON] = {}
    play_id, revolt_id = ax.PLAY, ax.REVOLT
    for c in civ.hand:
        play: Reason = None
        if play_id + c not in legal:
            play = general if general is not None else play_reason(state, civ, c)
        if _IS_GOVERNMENT[c]:
            revolution: Reason = None
            if revolt_id + c not in legal:
                revolution = general if general is not None else revolution_reason(state, civ, c)
            hand[_CARD_ID[c]] = {"play": play, "revolution": revolution}
        else:
            hand[_CARD_ID[c]] = {"play": play}
    mil: dict[str, Reason] = {}
    for c in civ.mhand:
        if not legal.isdisjoint(_military_uses(c, state.players)):
            mil[_CARD_ID[c]] = None
        else:
            mil[_CARD_ID[c]] = (
                general if general is not None else military_reason(state, civ, seat, c)
            )
    build: dict[str, Reason] = {}
    build_id = ax.BUILD
    for c in civ.developed:
        slot = _BUILD_SLOT[c]
        if slot < 0:
            continue
        if build_id + slot in legal:
            build[_CARD_ID[c]] = None
        else:
            build[_CARD_ID[c]] = (
                general if general is not None else build_reason(state, civ, slot, f)
            )
    population: Reason = None
    if ax.POP not in legal:
        population = general if general is not None else pop_reason(state, civ)
    wonder: Reason = None
    if civ.wip >= 0 and legal.isdisjoint(_WONDER_IDS):
        wonder = general if general is not None else wonder_reason(state, civ)
    return {
        "general": general,
        "row": row,
        "hand": hand,
        "military": mil,
        "build": build,
        "population": population,
        "wonder": wonder,
    }
