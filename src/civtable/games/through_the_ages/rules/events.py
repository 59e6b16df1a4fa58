"""Events (TTA-12), territories and colonization (TTA-11), and the interpreter of the military
cards' ops (events, territories, aggressions, wars; cards file C-9 .. C-14).

Every effect is the card's data ops (``cards.json``): :func:`run_ops` applies what needs no
choice at once and queues a decision (:mod:`.politics` queue) for each choice, in op order.
The choices are ``P_OPTION`` decisions ``[P_OPTION, what, card, a, b, c]`` answered with
``OPTION+v`` (``what`` names the meaning of ``v``, see the ``W_*`` constants), plus the
colonization auction (``P_BID``), the force sent (``P_SEND``) and International Agreement's
takes (``P_AGREEMENT``).
"""

from __future__ import annotations

from typing import Any

from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import (
    BY_ID,
    CARDS,
    COLON,
    EVENT_CULTURE,
    KINDS,
    NSLOTS,
    SLOT_CARD,
    STR,
    UNIT_KINDS,
    URBAN_KINDS,
)
from civtable.games.through_the_ages.rules import board, effects, military, politics
from civtable.games.through_the_ages.state import (
    P_AGREEMENT,
    P_BID,
    P_OPTION,
    P_PERFORM,
    P_SEND,
    Civ,
    TTAState,
    to_box,
)

# P_OPTION kinds of this module (politics.py has 1..15)
W_MIX_GAIN = 16  # (card, seat, amount): v = food gained, the rest resources
W_MIX_LOSE = 17  # (card, seat, amount): v = food lost, the rest resources (capped)
W_CHOOSE = 18  # (card, op index, optional): v = option index (len(options) = decline)
W_FREEBUILD = 19  # (card, slot): v = 1 build it free, 0 decline
W_DESTROY = 20  # (card, victim, kinds mask | max age << 8): v = building slot
W_LOSEWORKER = 21  # (card, count): v = building slot a worker leaves
W_MDISCARD = 22  # (card, count): answered with DISCARD+c
W_COLONY_LOSE = 23  # (card): v = index in the owner's colonies
W_RAVAGES = 24  # (card): v = index in the owner's wonders

_KIND_BITS = {"farm": (0,), "mine": (1,), "urban": URBAN_KINDS}
_RAID_MAX = {"A": 0, "I": 1, "II": 2, "III": 3}
_COOK = "discard_for_colonization"


# --- preparing and revealing (TTA-6.2, TTA-12) -------------------------------------------------


def prepare(state: TTAState, seat: int, card: int) -> None:
    """TTA-6.2: the card goes face down on the future deck, its level in culture, then the
    top current event is revealed and resolved."""
    civ = state.civs[seat]
    civ.mhand.remove(card)
    state.future.append(card)
    state.future_by.append(seat)
    civ.culture += EVENT_CULTURE[CARDS[card].age]
    if not state.events:  # nothing left to reveal: the future deck becomes current first
        refill_events(state)
    if not state.events:
        return
    event = state.events.pop()  # the top card is the last one
    if not state.events:
        refill_events(state)  # TTA-6.2 step 5 / TTA-12.2
    reveal(state, event)


def refill_events(state: TTAState) -> None:
    """TTA-12.2: the future deck, shuffled, lower ages on top, becomes the current deck."""
    deck = state.future
    state.future = []
    state.future_by = []
    state.rng.shuffle(deck)
    # the top is the end of the list: the highest ages first in the list
    deck.sort(key=lambda c: -CARDS[c].age)
    state.events = deck


def reveal(state: TTAState, event: int) -> None:
    """TTA-12.3: a territory goes to auction; any other event applies its text."""
    card = CARDS[event]
    before = None
    if state.log is not None:
        from civtable.games.through_the_ages import logs

        before = logs.revealed(state, event)
    if card.type == "territory":
        start_auction(state, event)
        return
    state.past.append(event)
    if card.age == 3:
        from civtable.games.through_the_ages.rules import impact

        impact.apply_impact(state, event)
    else:
        run_ops(state, event, card.ops)
    if before is not None:
        logs.effects(state, before, event, "event")


# --- who and conditions (TTA-12.6) -------------------------------------------------------------


def _who(state: TTAState, who: str, ctx: dict[str, int]) -> list[int]:
    if who in ctx:
        return [ctx[who]] if ctx[who] >= 0 else []
    if who == "self":
        return [ctx.get("owner", state.current)]
    if who == "each":
        return politics.order_from(state, state.current)
    two = 1 if politics.active_count(state) == 2 else 2
    if who in ("strongest", "weakest", "two_strongest", "two_weakest"):
        order = politics.ranked(state, politics.strengths(state))
    elif who in ("most_culture", "least_culture"):
        order = politics.ranked(state, [c.culture for c in state.civs])
    elif who == "all_most_happy":
        h = [board.ratings(c)[3] for c in state.civs]
        best = max(h[s] for s in politics.order_from(state, 0))
        return [s for s in politics.order_from(state, state.current) if h[s] == best]
    elif who == "all_most_discontent":
        d = [board.discontent(c) for c in state.civs]
        best = max(d[s] for s in politics.order_from(state, 0))
        return [s for s in politics.order_from(state, state.current) if d[s] == best]
    elif who == "other_civilizations":
        chooser = ctx["chooser"]
        return [s for s in politics.order_from(state, state.current) if s != chooser]
    else:  # pragma: no cover - guarded by the data tests
        raise KeyError(who)
    if who in ("strongest", "most_culture"):
        return order[:1]
    if who in ("weakest", "least_culture"):
        return order[-1:]
    if who == "two_strongest":
        return order[:two]
    return order[-two:]


def _condition(state: TTAState, cond: str | None, seat: int) -> bool:
    from civtable.games.through_the_ages.rules import row

    if cond is None:
        return True
    if cond == "has_unused_worker":
        return state.civs[seat].pool > 0
    if cond == "is_among_two_weakest":
        return seat in _who(state, "two_weakest", {})
    if cond == "game_ending_age":
        return state.age >= row.game_end_age(state)
    if cond == "not_game_ending_age":
        return state.age < row.game_end_age(state)
    if cond == "anyone_has_discontent_workers":
        return any(board.discontent(state.civs[s]) for s in politics.order_from(state, 0))
    raise KeyError(cond)  # pragma: no cover - guarded by the data tests


# --- the op interpreter ------------------------------------------------------------------------


def run_ops(
    state: TTAState,
    card: int,
    ops: tuple[dict[str, Any], ...] | list[dict[str, Any]],
    *,
    owner: int = -1,
    aggressor: int = -1,
    target: int = -1,
    winner: int = -1,
    loser: int = -1,
    advantage: int = 0,
) -> None:
    """Apply ``ops`` of ``card``; choices are queued (before anything queued earlier, in op
    order)."""
    ctx = {"aggressor": aggressor, "target": target, "winner": winner, "loser": loser}
    if owner >= 0:
        ctx["owner"] = owner
    items: list[list[int]] = []
    raids = [op for op in ops if op["op"] == "destroy_building" and op.get("chooser") is None]
    if raids:  # Raid (TTA-6.4): the aggressor picks the buildings, then gains half their cost
        items.append([aggressor, P_OPTION, politics.W_RAID, card, target, 0, 0])
    for op in ops:
        if op in raids or (raids and op["op"] == "gain" and op["who"] == "aggressor"):
            continue
        kind = op["op"]
        if (
            kind == "remove_card"
            and "leader" in op["card_types"]
            and op.get("chooser") == "aggressor"
        ):
            items.append([aggressor, P_OPTION, politics.W_INFILTRATE, card, target, 0, 0])
            continue
        amt = op.get("amount")
        if kind == "gain" and isinstance(amt, dict) and amt.get("equal_to") == "removed_card_level":
            continue  # Infiltrate's culture: scored by its choice
        if kind == "take_card":  # Annex
            items.append([aggressor, P_OPTION, politics.W_ANNEX, card, target, 0, 0])
            continue
        if kind == "hook" and op["key"] == "steal_special_technologies_or_science":
            items.append([winner, P_OPTION, politics.W_TECHWAR, card, loser, advantage, 0])
            continue
        chooser = op.get("chooser")
        if kind == "destroy_building" and chooser == "least_culture":  # Terrorism
            ctx["chooser"] = _who(state, "least_culture", ctx)[0]
        seats = _who(state, op.get("who", "self"), ctx) if "who" in op or kind != "transfer" else []
        if kind == "transfer":
            _transfer(state, card, op, ctx, advantage, items)
            continue
        for seat in seats:
            if not _condition(state, op.get("condition"), seat):
                continue
            _op(state, card, op, seat, ctx, advantage, items)
    state.queue[0:0] = items


def _amount(state: TTAState, seat: int, spec: Any, advantage: int) -> int:
    from civtable.games.through_the_ages.rules import civil

    if isinstance(spec, dict) and spec.get("equal_to") == "strength_advantage":
        v = advantage
        if "div" in spec:
            v //= int(spec["div"])
        return v + int(spec.get("plus", 0))
    if isinstance(spec, dict) and spec["equal_to"] in _QUANTITIES:
        v = int(_QUANTITIES[spec["equal_to"]](state.civs[seat]))
        return effects.scale(spec, v, politics.active_count(state))  # TTA-6.8
    return civil.amount(state, state.civs[seat], spec)


_QUANTITIES: dict[str, Any] = {
    "culture_rate": lambda c: board.ratings(c)[0],
    "science_rate": lambda c: board.ratings(c)[1],
    "happiness": lambda c: board.ratings(c)[3],
    "discontent_workers": board.discontent,
    "stored_food": lambda c: board.stock(c, False),
}


def _op(
    state: TTAState,
    card: int,
    op: dict[str, Any],
    seat: int,
    ctx: dict[str, int],
    advantage: int,
    items: list[list[int]],
) -> None:
    civ = state.civs[seat]
    kind = op["op"]
    if kind in ("gain", "lose"):
        what = op["what"]
        n = _amount(state, seat, op.get("amount", 0), advantage)
        if isinstance(what, list):  # a mix of food and resources, the owner's choice
            w = W_MIX_GAIN if kind == "gain" else W_MIX_LOSE
            if kind == "lose" and board.stock(civ, False) + board.stock(civ, True) <= n:
                board.lose(civ, False, n)
                board.lose(civ, True, n)
                return
            items.append([seat, P_OPTION, w, card, seat, n, 0])
            return
        if kind == "gain":
            gain(state, civ, what, n)
        else:
            lose(state, seat, what, n, card, items)
    elif kind == "choose_one":
        items.append([seat, P_OPTION, W_CHOOSE, card, 0, 1 if op.get("optional") else 0, 0])
    elif kind == "perform":  # Development of Religion / of Warfare: a free building
        slot = CARDS[BY_ID[op["card"]]].slot
        if free_build_ok(civ, slot):
            items.append([seat, P_OPTION, W_FREEBUILD, card, slot, 0, 0])
    elif kind == "produce":
        from civtable.games.through_the_ages.rules import turn

        turn.produce_steps(civ, op["steps"])
    elif kind == "destroy_building":
        mask = 0
        for k in op["kinds"]:
            for kk in _KIND_BITS[k]:
                mask |= 1 << kk
        max_age = _RAID_MAX[op.get("max_age", "III")]
        chooser = ctx["chooser"] if op.get("chooser") == "least_culture" else seat
        for _ in range(int(op.get("count", 1))):
            items.append([chooser, P_OPTION, W_DESTROY, card, seat, mask | max_age << 16, 0])
    elif kind == "remove_card":
        types = op["card_types"]
        if "colony" in types and civ.colonies:
            items.append([seat, P_OPTION, W_COLONY_LOSE, card, 0, 0, 0])
        elif (
            "leader" in types
            and (op.get("filter") or {}).get("not_current_age")
            and civ.leader >= 0
            and CARDS[civ.leader].age != state.age
        ):
            leader_leaves(state, civ)  # Iconoclasm
    elif kind == "hook":
        key = op["key"]
        if key == "flip_old_wonder":
            if any(CARDS[w].age <= 1 for w in civ.wonders):
                items.append([seat, P_OPTION, W_RAVAGES, card, 0, 0, 0])
        elif key == "take_cards_for_political_action":
            budget = int(op["params"]["civil_actions"])
            items.append([seat, P_AGREEMENT, budget, 0])
        else:  # pragma: no cover - guarded by the data tests
            raise KeyError(key)
    else:  # pragma: no cover - guarded by the data tests
        raise KeyError(kind)


def _transfer(
    state: TTAState,
    card: int,
    op: dict[str, Any],
    ctx: dict[str, int],
    advantage: int,
    items: list[list[int]],
) -> None:
    src = _who(state, op["from"], ctx)
    dst = _who(state, op["to"], ctx)
    if not src or not dst:
        return
    a, b = state.civs[src[0]], state.civs[dst[0]]
    what = op["what"]
    n = _amount(state, src[0], op["amount"], advantage)
    if isinstance(what, list):  # Plunder: the aggressor chooses the mix
        items.append([dst[0], P_OPTION, politics.W_PLUNDER, card, src[0], n, 0])
    elif what == "yellow_cubes":  # Uncertain Borders, War over Territory
        k = min(n, a.yellow)
        board.lose_yellow(a, k)  # to the box, and as many from the box to the winner
        board.gain_yellow(b, k)
    elif what == "culture_points":
        k = min(n, a.culture)
        a.culture -= k
        b.culture += k
    elif what == "science_points":
        k = min(n, a.science)
        a.science -= k
        b.science += k
    else:  # pragma: no cover - guarded by the data tests
        raise KeyError(what)


def gain(state: TTAState, civ: Civ, what: str, n: int) -> None:
    """A ``gain`` of ``n`` (TTA-12.5: population is free)."""
    if n <= 0:
        return
    if what == "food":
        board.gain(civ, False, n)
    elif what == "resources":
        board.gain(civ, True, n)
    elif what == "culture_points":
        civ.culture += n
    elif what == "science_points":
        civ.science += n
    elif what == "population":
        k = min(n, civ.yellow)
        civ.yellow -= k
        civ.pool += k
    elif what == "military_cards":
        from civtable.games.through_the_ages.rules import turn

        turn.draw_military(state, civ, n)
    elif what == "yellow_cubes":
        board.gain_yellow(civ, n)
    elif what == "blue_cubes":
        board.gain_blue(civ, n)
    elif what == "available_civil_actions":
        civ.ca += n
    elif what == "temporary_military_actions":
        civ.temp_ma += n
    else:  # pragma: no cover - guarded by the data tests
        raise KeyError(what)


def lose(state: TTAState, seat: int, what: str, n: int, card: int, items: list[list[int]]) -> None:
    """A ``lose`` of ``n`` (never below 0; population per TTA-12.7)."""
    civ = state.civs[seat]
    if n <= 0:
        return
    if what == "food":
        board.lose(civ, False, n)
    elif what == "resources":
        board.lose(civ, True, n)
    elif what == "culture_points":
        civ.culture = max(0, civ.culture - n)
    elif what == "science_points":
        civ.science = max(0, civ.science - n)
    elif what == "population":
        k = min(n, civ.pool)  # unused workers first (TTA-12.7)
        civ.pool -= k
        civ.yellow += k
        if n > k and any(civ.workers):
            items.append([seat, P_OPTION, W_LOSEWORKER, card, n - k, 0, 0])
    elif what == "military_cards":
        if len(civ.mhand) <= n:
            for c in civ.mhand:
                state.mil_discards[CARDS[c].age].append(c)
            civ.mhand = []
        else:
            items.append([seat, P_OPTION, W_MDISCARD, card, n, 0, 0])
    elif what == "blue_cubes":
        board.lose_blue(civ, n)  # TTA-1.11: the shortfall from technology cards
    elif what == "available_civil_actions":  # Rebellion (TTA-AMB-22)
        civ.ca = max(0, civ.ca - n)
    else:  # pragma: no cover - guarded by the data tests
        raise KeyError(what)


def leader_leaves(state: TTAState, civ: Civ) -> None:
    """A leader removed from play by an event or aggression (no refund)."""
    from civtable.games.through_the_ages.rules import civil

    before = board.totals(civ)
    civil.leader_leaves(state, civ)
    board.sync_totals(civ, before)


def free_build_ok(civ: Civ, slot: int) -> bool:
    """A free building on ``slot``: an unused worker, the technology, the urban limit."""
    kind = slot >> 2
    if civ.pool < 1 or SLOT_CARD[slot] not in civ.developed:
        return False
    return not (kind in URBAN_KINDS and board.kind_count(civ, kind) >= board.urban_limit(civ))


# --- territories and colonization (TTA-11) --------------------------------------------------


def unit_force(civ: Civ, workers: list[int]) -> int:
    """Strength of these units plus their armies under the civ's tactic (TTA-11.4)."""
    total = 0
    for k in UNIT_KINDS:
        for a in range(4):
            n = workers[k * 4 + a]
            if n:
                total += n * CARDS[SLOT_CARD[k * 4 + a]].per_worker[STR]
    if civ.tactic >= 0:
        total += military.armies_of(
            civ.tactic, workers, effects.has_hook(civ, "infantry_as_cavalry")
        )
    return total


def colonization_modifier(civ: Civ) -> int:
    """The colonization symbols of the cards in play (TTA-11.4)."""
    return effects.fx(civ).stats[COLON]


def _cook(civ: Civ) -> bool:
    return effects.has_hook(civ, _COOK)


def max_bid(civ: Civ) -> int:
    """TTA-11.2 / TTA-AMB-19: the largest force the civ could send (0 without units)."""
    units = [civ.workers[i] if (i >> 2) in UNIT_KINDS else 0 for i in range(NSLOTS)]
    if not any(units):
        return 0
    bonus = sum(CARDS[c].colonize for c in civ.mhand if CARDS[c].type == "bonus")
    cook = 0
    if _cook(civ):
        cook = min(2, sum(1 for c in civ.mhand if CARDS[c].type != "bonus"))
    return unit_force(civ, units) + colonization_modifier(civ) + bonus + cook


def start_auction(state: TTAState, card: int) -> None:
    """TTA-11.2: bidding starts with the player who revealed the territory."""
    state.queue.insert(0, [state.current, P_BID, card, 0, -1, 0, state.current])


def bid_actions(state: TTAState) -> list[int]:
    """Pass (``OPTION+0``) or bid any value above the high bid up to one's maximum."""
    p = state.pending
    top = min(max_bid(state.civs[state.actor]), ax.NOPTIONS - 1)
    if top <= p[2]:
        return []
    return [ax.OPTION] + [ax.OPTION + v for v in range(p[2] + 1, top + 1)]


def bid(state: TTAState, value: int) -> None:
    """Apply a bid (or a pass, ``value`` 0) and move the auction on."""
    card, high, high_seat, passed, start = state.pending[1:6]
    seat = state.actor
    if value == 0:
        passed |= 1 << seat
    else:
        high, high_seat = value, seat
    live = [s for s in politics.order_from(state, start) if not passed >> s & 1]
    if high_seat >= 0 and live == [high_seat]:
        state.queue.insert(0, [high_seat, P_SEND, card, high, 0, 0])
        return
    if not live:
        state.past.append(card)  # nobody bid
        return
    order = politics.order_from(state, seat)
    nxt = next(s for s in order[1:] + order[:1] if not passed >> s & 1 and s != high_seat)
    state.queue.insert(0, [nxt, P_BID, card, high, high_seat, passed, start])


def send_actions(state: TTAState) -> list[int]:
    """Send a unit, play a bonus card, James Cook's discards, or stop once the force is
    enough (TTA-11.3, TTA-11.4)."""
    p = state.pending
    civ = state.civs[state.actor]
    out: list[int] = []
    if len(p) > 5 and force(state) >= p[2]:
        out.append(ax.DONE)
    for k in UNIT_KINDS:
        for a in range(4):
            if civ.workers[k * 4 + a]:
                out.append(ax.SEND + k * 4 + a)
    cook = _cook(civ) and p[4] < 2
    for c in set(civ.mhand):
        if CARDS[c].type == "bonus":
            out.append(ax.PLAY + c)
        elif cook:
            out.append(ax.DISCARD + c)  # James Cook: +1 (bonus cards are played instead)
    return sorted(out)


def force(state: TTAState) -> int:
    """The force value of what ``state.actor`` has sent so far (TTA-11.4)."""
    p = state.pending
    civ = state.civs[state.actor]
    workers = [0] * NSLOTS
    for slot in p[5:]:
        workers[slot] += 1
    return unit_force(civ, workers) + colonization_modifier(civ) + p[3] + p[4]


def send(state: TTAState, action: int) -> None:
    """Apply one step of sending the colonization force."""
    p = state.pending
    seat = state.actor
    civ = state.civs[seat]
    card = p[1]
    if action == ax.DONE:
        civ.yellow += len(p) - 5  # TTA-11.5: the sent units' cubes go to the yellow bank
        gain_colony(state, seat, card)
        return
    item = [seat, *p]
    if ax.SEND <= action < ax.DONE:
        slot = action - ax.SEND
        civ.workers[slot] -= 1
        item.append(slot)
    elif ax.PLAY <= action < ax.REVOLT:
        c = action - ax.PLAY
        civ.mhand.remove(c)
        state.mil_discards[CARDS[c].age].append(c)
        item[4] += CARDS[c].colonize
    else:
        c = action - ax.DISCARD
        civ.mhand.remove(c)
        state.mil_discards[CARDS[c].age].append(c)
        item[5] += 1
    state.queue.insert(0, item)


def gain_colony(state: TTAState, seat: int, card: int) -> None:
    """TTA-11.6: the territory enters play, permanent effect first, then the immediate one."""
    civ = state.civs[seat]
    before = board.totals(civ)
    civ.colonies.append(card)
    board.enter_play(civ, card)
    board.sync_totals(civ, before)
    run_ops(state, card, CARDS[card].ops, owner=seat)


def lose_colony(state: TTAState, seat: int, index: int) -> int:
    """A colony leaves play (only its permanent effect is lost, TTA-11.6)."""
    civ = state.civs[seat]
    card = civ.colonies.pop(index)
    before = board.totals(civ)
    board.leave_play(civ, card)
    board.sync_totals(civ, before)
    return card


# --- International Agreement (TTA-AMB-23) ----------------------------------------------------


def agreement_actions(state: TTAState) -> list[int]:
    """Takes costing at most the budget left (normal restrictions, no CA), or stop."""
    from civtable.games.through_the_ages.rules import civil

    civ = state.civs[state.actor]
    budget = state.pending[1]
    out = [ax.DONE]
    for slot in range(len(state.row)):
        if state.row[slot] < 0:
            continue
        cost = civil.take_cost(state, civ, slot)
        if cost <= budget and civil.can_take_free(state, civ, slot):
            out.append(ax.TAKE + slot)
    return out


def agreement(state: TTAState, action: int) -> None:
    """Take a card (its cost comes off the budget) or stop: the row refills without a sweep,
    and a player who took anything gives up his next Politics Phase."""
    from civtable.games.through_the_ages.rules import civil, row
    from civtable.games.through_the_ages.state import F_NO_POLITICS

    seat = state.actor
    civ = state.civs[seat]
    budget, took = state.pending[1], state.pending[2]
    if action == ax.DONE:
        if took:
            civ.flags |= F_NO_POLITICS
            if seat == state.current:
                state.phase = 1  # the current player's next Politics Phase is this one's rest
                civ.flags &= ~F_NO_POLITICS
            row.refill(state)
        return
    slot = action - ax.TAKE
    cost = civil.take_cost(state, civ, slot)
    civil.take_free(state, civ, slot)
    state.queue.insert(0, [seat, P_AGREEMENT, budget - cost, 1])


# --- P_OPTION decisions ------------------------------------------------------------------------


def option_values(state: TTAState) -> list[int]:
    """The values ``v`` of ``OPTION+v`` open in the running ``P_OPTION`` decision."""
    p = state.pending
    what, card, a, b = p[1], p[2], p[3], p[4]
    seat = state.actor
    civ = state.civs[seat]
    if what in (W_MIX_GAIN, W_MIX_LOSE):
        return list(range(b + 1))
    if what == politics.W_PLUNDER:
        t = state.civs[a]
        food, res = board.stock(t, False), board.stock(t, True)
        return [k for k in range(min(b, food) + 1) if k == min(b, food) or b - k <= res] or [0]
    if what == W_CHOOSE:
        n = len(_choose_op(card)["options"])
        vals = [i for i in range(n) if _option_possible(state, civ, card, i)]
        return vals + ([n] if b else [])
    if what == W_FREEBUILD:
        return [0, 1]
    if what == W_DESTROY:
        victim = state.civs[a]
        mask, max_age = b & 0xFFFF, b >> 16
        return [
            k * 4 + g
            for k in range(len(KINDS))
            if mask >> k & 1
            for g in range(max_age + 1)
            if victim.workers[k * 4 + g]
        ]
    if what == politics.W_RAID:
        victim = state.civs[a]
        max_age = _raid_ages(card)[b]
        return [
            k * 4 + g for k in URBAN_KINDS for g in range(max_age + 1) if victim.workers[k * 4 + g]
        ]
    if what == W_LOSEWORKER:
        return [s for s in range(NSLOTS) if civ.workers[s]]
    if what == W_COLONY_LOSE:
        return list(range(len(civ.colonies)))
    if what == W_RAVAGES:
        return [i for i, w in enumerate(civ.wonders) if CARDS[w].age <= 1]
    if what == politics.W_INFILTRATE:
        t = state.civs[a]
        return [v for v, ok in ((0, t.leader >= 0), (1, t.wip >= 0)) if ok]
    if what == politics.W_ANNEX:
        return list(range(len(state.civs[a].colonies)))
    if what == politics.W_TECHWAR:
        loser = state.civs[a]
        vals = []
        for mask in range(16):
            cost = 0
            ok = True
            for i in range(4):
                if mask >> i & 1:
                    if loser.special[i] < 0:
                        ok = False
                        break
                    cost += CARDS[loser.special[i]].science_cost
            if ok and cost <= b:
                vals.append(mask)
        return vals
    return []


def option_actions(state: TTAState) -> list[int]:
    """Legal actions of the running ``P_OPTION`` decision."""
    if state.pending[1] == W_MDISCARD:
        return sorted({ax.DISCARD + c for c in state.civs[state.actor].mhand})
    return [ax.OPTION + v for v in option_values(state)]


def _raid_ages(card: int) -> list[int]:
    return [
        _RAID_MAX[op.get("max_age", "III")]
        for op in CARDS[card].ops
        if op["op"] == "destroy_building"
    ]


def _choose_op(card: int) -> dict[str, Any]:
    return next(op for op in CARDS[card].ops if op["op"] == "choose_one")


def _option_possible(state: TTAState, civ: Civ, card: int, i: int) -> bool:
    from civtable.games.through_the_ages.rules import civil

    opt = _choose_op(card)["options"][i]
    for op in opt:
        if op["op"] != "perform":
            continue
        disc = sum((op.get("discount") or {}).values())
        if op["action"] == "increase_population":
            return civil.can_pop(civ, True, disc)
        test = [P_PERFORM, -1, civil.PERFORM_KINDS.index(op["action"]), disc, civ.spent_ca]
        return bool(civil.perform_legal(state, civ, test))
    return True


def apply_option(state: TTAState, action: int) -> None:
    """Apply the answer to the running ``P_OPTION`` decision."""
    p = state.pending
    what, card, a, b, c = p[1], p[2], p[3], p[4], p[5]
    seat = state.actor
    civ = state.civs[seat]
    if what == W_MDISCARD:
        k = action - ax.DISCARD
        civ.mhand.remove(k)
        state.mil_discards[CARDS[k].age].append(k)
        if a > 1 and civ.mhand:
            state.queue.insert(0, [seat, P_OPTION, W_MDISCARD, card, a - 1, 0, 0])
        return
    v = action - ax.OPTION
    if what == W_MIX_GAIN:
        board.gain(civ, False, v)
        board.gain(civ, True, b - v)
    elif what == W_MIX_LOSE:
        short = board.lose(civ, False, v)
        short = board.lose(civ, True, b - v + short)
        board.lose(civ, False, short)
    elif what == politics.W_PLUNDER:
        t = state.civs[a]
        food = v - board.lose(t, False, v)
        res = (b - v) - board.lose(t, True, b - v)
        board.gain(civ, False, food)
        board.gain(civ, True, res)
    elif what == W_CHOOSE:
        options = _choose_op(card)["options"]
        if v >= len(options):
            return  # declined
        _run_choice(state, seat, card, options[v])
    elif what == W_FREEBUILD:
        if v:
            civ.pool -= 1
            civ.workers[a] += 1
    elif what in (W_DESTROY, W_LOSEWORKER):
        victim = state.civs[a] if what == W_DESTROY else civ
        victim.workers[v] -= 1
        if what == W_DESTROY:
            victim.pool += 1  # destroyed: the worker goes to the worker pool
        else:
            victim.yellow += 1  # TTA-12.7: the worker goes back to the yellow bank
            if a > 1 and any(civ.workers):
                state.queue.insert(0, [seat, P_OPTION, W_LOSEWORKER, card, a - 1, 0, 0])
    elif what == politics.W_RAID:
        victim = state.civs[a]
        victim.workers[v] -= 1
        victim.pool += 1
        spent = c + CARDS[SLOT_CARD[v]].build_cost  # printed costs (TTA-6.4 step 5)
        if b + 1 < len(_raid_ages(card)):
            state.queue.insert(0, [seat, P_OPTION, politics.W_RAID, card, a, b + 1, spent])
        else:
            _raid_gain(state, seat, card, spent)
    elif what == W_COLONY_LOSE:
        lost = lose_colony(state, seat, v)
        state.past.append(lost)
    elif what == W_RAVAGES:
        before = board.totals(civ)  # TTA-1.10: with the wonder's cubes
        w = civ.wonders.pop(v)
        board.leave_play(civ, w)
        board.sync_totals(civ, before)
        if civ.homer_wonder == w:
            civ.homer_wonder = -1
        civ.ruins.append(w)
        politics.sync_pacts(state)
    elif what == politics.W_INFILTRATE:
        t = state.civs[a]
        if v == 0:
            level = CARDS[t.leader].age
            leader_leaves(state, t)
        else:
            level = CARDS[t.wip].age
            to_box(state, (t.wip,))
            t.blue += t.wip_stages
            t.wip = -1
            t.wip_stages = 0
        times = next(
            int(op["amount"].get("times", 1))
            for op in CARDS[card].ops
            if op["op"] == "gain" and isinstance(op.get("amount"), dict)
        )
        civ.culture += level * times
    elif what == politics.W_ANNEX:
        col = lose_colony(state, a, v)
        before = board.totals(civ)
        civ.colonies.append(col)
        board.enter_play(civ, col)
        board.sync_totals(civ, before)
    elif what == politics.W_TECHWAR:
        loser = state.civs[a]
        value = 0
        for i in range(4):
            if v >> i & 1:
                tech = loser.special[i]
                value += CARDS[tech].science_cost
                _steal_special(state, loser, civ, i)
        k = min(b - value, loser.science)
        loser.science -= k
        civ.science += k


def _raid_gain(state: TTAState, seat: int, card: int, spent: int) -> None:
    for op in CARDS[card].ops:
        if op["op"] == "gain" and op.get("who") == "aggressor":
            spec = op["amount"]
            d = int(spec.get("div", 1))
            v = spent // d if spec.get("round", "down") == "down" else -(-spent // d)
            gain(state, state.civs[seat], op["what"], v)


def _steal_special(state: TTAState, loser: Civ, winner: Civ, i: int) -> None:
    """War over Technology: the tech leaves the loser; it replaces the winner's lower one of
    that type, or is discarded (TTA-6.5 item 4)."""
    tech = loser.special[i]
    before = board.totals(loser)
    board.leave_play(loser, tech)
    loser.special[i] = -1
    board.sync_totals(loser, before)
    old = winner.special[i]
    if old >= 0 and CARDS[old].age >= CARDS[tech].age:
        to_box(state, (tech,))  # discarded
        return
    before = board.totals(winner)
    if old >= 0:
        board.leave_play(winner, old)
        to_box(state, (old,))
    winner.special[i] = tech
    board.enter_play(winner, tech)
    board.sync_totals(winner, before)


def _run_choice(state: TTAState, seat: int, card: int, ops: list[dict[str, Any]]) -> None:
    """One option of a ``choose_one`` (Development of Markets, of Civilization)."""
    from civtable.games.through_the_ages.rules import civil

    civ = state.civs[seat]
    for op in ops:
        if op["op"] == "gain":
            gain(state, civ, op["what"], int(op["amount"]))
        elif op["op"] == "perform":
            disc = int(sum((op.get("discount") or {}).values()))
            if op["action"] == "increase_population":
                civil.pop(civ, disc)
            else:
                kind = civil.PERFORM_KINDS.index(op["action"])
                state.queue.insert(0, [seat, P_PERFORM, -1, kind, disc, civ.spent_ca])


# --- skipping and labels -------------------------------------------------------------------


def skip(state: TTAState) -> bool:
    """A queued decision with no legal answer: a bid becomes a pass; others lapse."""
    p = state.pending
    if p[0] == P_BID:
        bid(state, 0)
    elif p[0] == P_OPTION and p[1] == politics.W_RAID:
        # TTA-6.4 step 5: nothing (more) to destroy; the raider still gains half the printed
        # costs of the buildings already destroyed
        _raid_gain(state, state.actor, p[2], p[5])
    return True


def describe(state: TTAState, seat: int, action: int) -> str:
    """Labels of ``OPTION+v``, ``SEND+b`` and ``DONE`` in the running decision."""
    from civtable.games.through_the_ages.actions import _slot_name

    p = state.pending
    if action == ax.DONE:
        kind = p[0]
        if kind == P_SEND:
            return "the force is sent: colonize"
        if kind == P_AGREEMENT:
            return "stop taking cards"
        return "done defending"
    if ax.SEND <= action < ax.DONE:
        return f"send a unit of {_slot_name(action - ax.SEND)}"
    v = action - ax.OPTION
    if p[0] == P_BID:
        return "pass" if v == 0 else f"bid {v}"
    if p[0] != P_OPTION:
        return f"option {v}"
    what, card, a, b = p[1], p[2], p[3], p[4]
    name = CARDS[card].name
    if what == politics.W_PLUNDER:
        return f"{name}: take {v} food and {b - v} resources"
    if what == W_MIX_GAIN:
        return f"{name}: gain {v} food and {b - v} resources"
    if what == W_MIX_LOSE:
        return f"{name}: lose {v} food and {b - v} resources"
    if what == W_CHOOSE:
        options = _choose_op(card)["options"]
        if v >= len(options):
            return f"{name}: decline"
        return f"{name}: " + ", ".join(_op_text(op) for op in options[v])
    if what == W_FREEBUILD:
        return f"{name}: {'build ' + _slot_name(a) + ' free' if v else 'decline'}"
    if what in (W_DESTROY, politics.W_RAID):
        return f"{name}: destroy {_slot_name(v)} of seat {a}"
    if what == W_LOSEWORKER:
        return f"{name}: take a worker off {_slot_name(v)}"
    if what == W_COLONY_LOSE:
        return f"{name}: lose {CARDS[state.civs[seat].colonies[v]].name}"
    if what == W_RAVAGES:
        return f"{name}: turn {CARDS[state.civs[seat].wonders[v]].name} face down"
    if what == politics.W_INFILTRATE:
        t = state.civs[a]
        return f"{name}: remove {CARDS[t.leader if v == 0 else t.wip].name}"
    if what == politics.W_ANNEX:
        return f"{name}: take {CARDS[state.civs[a].colonies[v]].name}"
    if what == politics.W_TECHWAR:
        loser = state.civs[a]
        techs = [CARDS[loser.special[i]].name for i in range(4) if v >> i & 1]
        value = sum(CARDS[loser.special[i]].science_cost for i in range(4) if v >> i & 1)
        sci = min(b - value, loser.science)
        return f"{name}: take {', '.join([*techs, f'{sci} science'])}"
    return f"option {v}"


def _op_text(op: dict[str, Any]) -> str:
    if op["op"] == "gain":
        return f"gain {op['amount']} {op['what'].replace('_', ' ')}"
    if op["op"] == "perform":
        disc = op.get("discount") or {}
        less = ", ".join(f"{n} {k} less" for k, n in disc.items())
        return str(op["action"]).replace("_", " ") + (f" ({less})" if less else "")
    return str(op["op"])
