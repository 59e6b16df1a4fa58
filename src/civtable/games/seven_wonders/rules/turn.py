"""Turns and steps: legal decisions, commitments and simultaneous resolution (SW-3, SW-4, SW-8).

Every decision belongs to a *city*. In a main step every city owes one commitment (SW-8.1); a
seat decides for its own city and, in the 2-player variant, the controller also decides for the
Free City (SW-14.4). Commitments are stored hidden; the one that completes the set resolves the
step (SW-8.3). Turn 6 adds Babylon B's extra step (SW-8.4), any turn may end with a
Halikarnassus build (SW-8.5), and an age ends with military conflicts (SW-11).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.core.errors import IllegalActionError
from civtable.games.seven_wonders.actions import (
    BUILD,
    CHAIN,
    DISCARD,
    FREE,
    HALI,
    HALI_PASS,
    K_BUILD,
    K_DISCARD,
    K_STAGE,
    OLYMPIA,
    PAID,
    PAY,
    STAGE,
    decode_pay,
    pay_action,
)
from civtable.games.seven_wonders.catalog import CARDS, FREE_COST_ID, N_CARDS, Card, Per
from civtable.games.seven_wonders.rules import military, setup
from civtable.games.seven_wonders.rules.trade import payment_options
from civtable.games.seven_wonders.state import EXTRA, HALI_PHASE, MAIN, OVER

if TYPE_CHECKING:
    from civtable.games.seven_wonders.state import City, SevenWondersState


# --- affordability ----------------------------------------------------------------------------
def chain_free(city: City, card: Card) -> bool:
    """Does the city own a chain parent of ``card`` (SW-5.5)?"""
    return bool(city.keys & card.chain_keys)


def affordable_payments(
    state: SevenWondersState, c: int, cost_id: int, coin_cost: int
) -> tuple[tuple[int, int], ...]:
    """Payment options ``(to left, to right)`` city ``c`` can fund now (SW-7, SW-7.10)."""
    cities = state.cities
    city = cities[c]
    opts = payment_options(
        cost_id,
        city.own_sig,
        cities[(c + 1) % state.n].trade_sig,
        cities[(c - 1) % state.n].trade_sig,
        city.discount,
    )
    budget = city.coins - coin_cost
    if budget < 0:
        return ()
    if opts and opts[-1][0] + opts[-1][1] <= budget:
        return opts
    return tuple(o for o in opts if o[0] + o[1] <= budget)


def can_build(state: SevenWondersState, c: int, card: Card) -> bool:
    """Can city ``c`` build ``card`` now, paying or by chain (SW-4.2, SW-4.3, SW-5)?"""
    city = state.cities[c]
    if city.keys >> card.key_index & 1:
        return False
    if city.keys & card.chain_keys:  # SW-5.5 chain
        return True
    budget = city.coins - card.coin_cost
    if budget < 0:
        return False
    if card.cost_id == FREE_COST_ID:
        return True
    n = state.n
    opts = payment_options(
        card.cost_id,
        city.own_sig,
        state.cities[(c + 1) % n].trade_sig,
        state.cities[(c - 1) % n].trade_sig,
        city.discount,
    )
    return bool(opts) and opts[0][0] + opts[0][1] <= budget  # options are cheapest first


def stage_payments(state: SevenWondersState, c: int) -> tuple[tuple[int, int], ...]:
    """Payment options for the city's next wonder stage; empty if none left (SW-4.5, SW-5.7)."""
    city = state.cities[c]
    stages = city.board_stages
    if city.stages >= len(stages):
        return ()
    return affordable_payments(state, c, stages[city.stages].cost_id, 0)


def free_build_available(state: SevenWondersState, c: int) -> bool:
    """Olympia A's once-per-age free build is usable now (SW-10.8)."""
    city = state.cities[c]
    return not city.free_used and city.has_free_build


# --- hands ------------------------------------------------------------------------------------
def hand_of(state: SevenWondersState, c: int) -> list[int]:
    """The cards city ``c`` chooses from in the current step."""
    if state.two_player and c == 0 and state.phase == MAIN:
        return state.hands[state.controller]  # SW-14.4: the FC's card comes from the controller
    return state.hands[c]


# --- legal actions ----------------------------------------------------------------------------
#: per card: (its key bit, its chain parents' key bits, coin cost, cost id), for legal_actions
_BUILD_INFO = tuple((1 << c.key_index, c.chain_keys, c.coin_cost, c.cost_id) for c in CARDS)


def legal_actions(state: SevenWondersState, seat: int) -> list[int]:
    """Sorted legal actions of ``seat``'s current decision."""
    c = state.current_city(seat)
    if c < 0:
        return []
    if state.phase == HALI_PHASE:
        return _hali_actions(state, c)
    pending = state.await_pay[c]
    if pending is not None:
        return sorted(pay_action(left, right) for left, right in pending[2])
    cities = state.cities
    city = cities[c]
    stage_ok = bool(stage_payments(state, c))
    free_ok = free_build_available(state, c)
    fc = state.two_player and c == 0
    out: list[int] = []
    # can_build inlined (the hot loop of every search): owned, chained, coin cost, purchases.
    keys, coins, own_sig, discount = city.keys, city.coins, city.own_sig, city.discount
    n = state.n
    left_sig, right_sig = cities[(c + 1) % n].trade_sig, cities[(c - 1) % n].trade_sig
    for t in set(hand_of(state, c)):
        key_bit, chain_keys, coin_cost, cost_id = _BUILD_INFO[t]
        owned = bool(keys & key_bit)
        if owned:
            built = False
        elif keys & chain_keys:
            built = True
            if fc:
                out.append(BUILD + t)  # SW-14.5: the Free City must build a chained card
                continue
        else:
            budget = coins - coin_cost
            if budget < 0:
                built = False
            elif cost_id == FREE_COST_ID:
                built = True
            else:
                opts = payment_options(cost_id, own_sig, left_sig, right_sig, discount)
                built = bool(opts) and opts[0][0] + opts[0][1] <= budget
        if built:
            out.append(BUILD + t)
        if free_ok and not owned:
            out.append(FREE + t)
        if stage_ok:
            out.append(STAGE + t)
        if not (fc and (built or stage_ok or (free_ok and not owned))):
            out.append(DISCARD + t)  # SW-4.6; SW-14.5 restricts the Free City
    out.sort()
    return out


def _hali_actions(state: SevenWondersState, c: int) -> list[int]:
    city = state.cities[c]
    out = {HALI + t for t in state.discard if not city.keys >> CARDS[t].key_index & 1}
    out.add(HALI_PASS)
    return sorted(out)


def hali_candidates(state: SevenWondersState, c: int) -> list[int]:
    """Distinct discard-pile cards city ``c`` could build (SW-10.11)."""
    city = state.cities[c]
    return sorted({t for t in state.discard if not city.keys >> CARDS[t].key_index & 1})


# --- describing -------------------------------------------------------------------------------
def _payment_text(left: int, right: int, coin_cost: int = 0) -> str:
    parts = []
    if coin_cost:
        parts.append(f"{coin_cost} to the bank")
    if left:
        parts.append(f"{left} to the left neighbour")
    if right:
        parts.append(f"{right} to the right neighbour")
    return "pay " + " and ".join(parts) if parts else "no payment"


def describe(state: SevenWondersState, seat: int, action: int) -> str:
    """A readable label for ``action`` as ``seat`` would take it now."""
    c = state.current_city(seat)
    prefix = "Free City: " if state.two_player and c == 0 else ""
    if action >= PAY:
        left, right = decode_pay(action)
        pending = state.await_pay[c] if c >= 0 else None
        coin_cost = CARDS[pending[1]].coin_cost if pending and pending[0] == K_BUILD else 0
        return prefix + _payment_text(left, right, coin_cost)
    if action == HALI_PASS:
        return prefix + "take nothing from the discard pile"
    t = action % N_CARDS
    if not 0 <= action < PAY:
        return f"unknown action {action}"
    card = CARDS[t]
    if action >= HALI:
        age = "I" * card.age if card.age < 3 else "III"
        return prefix + f"build {card.name} (Age {age}) from the discard pile for free"
    if action >= FREE:
        return prefix + f"build {card.name} for free (Olympia)"
    if action >= DISCARD:
        return prefix + f"discard {card.name} for 3 coins"
    if c < 0:
        return prefix + ("build " if action < STAGE else "wonder stage with ") + card.name
    city = state.cities[c]
    if action >= STAGE:
        n = city.stages + 1
        opts = stage_payments(state, c)
        pay = _payment_text(*opts[0]) if len(opts) == 1 else "choose the payment next"
        return prefix + f"build wonder stage {n} with {card.name}, {pay}"
    if chain_free(city, card):
        return prefix + f"build {card.name} for free (chain)"
    opts = affordable_payments(state, c, card.cost_id, card.coin_cost)
    if len(opts) == 1:
        return prefix + f"build {card.name}, " + _payment_text(*opts[0], card.coin_cost)
    return prefix + f"build {card.name}, choose the payment next"


# --- applying ---------------------------------------------------------------------------------
def apply(state: SevenWondersState, seat: int, action: int) -> None:
    """Apply a legal action (already validated by the caller)."""
    c = state.current_city(seat)
    if state.phase == HALI_PHASE:
        _resolve_hali(state, c, action)
        _advance(state)
        return
    pending = state.await_pay[c]
    if pending is not None:
        left, right = decode_pay(action)
        state.await_pay[c] = None
        state.commits[c] = (pending[0], pending[1], left, right, PAID)
    else:
        t = action % N_CARDS
        hand = hand_of(state, c)
        hand.remove(t)
        if action < STAGE:
            card = CARDS[t]
            if chain_free(state.cities[c], card):
                state.commits[c] = (K_BUILD, t, 0, 0, CHAIN)
            else:
                opts = affordable_payments(state, c, card.cost_id, card.coin_cost)
                _commit_or_ask(state, c, K_BUILD, t, opts)
        elif action < DISCARD:
            _commit_or_ask(state, c, K_STAGE, t, stage_payments(state, c))
        elif action < FREE:
            state.commits[c] = (K_DISCARD, t, 0, 0, PAID)
        elif action < HALI:
            state.commits[c] = (K_BUILD, t, 0, 0, OLYMPIA)
        else:  # pragma: no cover - validated by the caller
            raise IllegalActionError(f"action {action} is not a step action", action=action)
    for city in range(state.n):
        if state.needs[city] and state.commits[city] is None:
            return
    _resolve_step(state)
    _advance(state)


def _commit_or_ask(
    state: SevenWondersState, c: int, kind: int, t: int, opts: tuple[tuple[int, int], ...]
) -> None:
    if len(opts) == 1:
        state.commits[c] = (kind, t, opts[0][0], opts[0][1], PAID)
    else:
        state.await_pay[c] = (kind, t, opts)


def count(state: SevenWondersState, c: int, per: Per, extra_purple: int = 0) -> int:
    """Evaluate a counting effect from city ``c``'s point of view (SW-9.6 .. SW-9.8)."""
    total = 0
    for bit, city_index in ((1, c), (2, (c + 1) % state.n), (4, (c - 1) % state.n)):
        if not per.cities & bit:
            continue
        city = state.cities[city_index]
        colors = city.colors
        for i in range(7):
            if per.colors >> i & 1:
                total += colors[i]
        if per.wonder_stages:
            total += city.stages
        if per.defeat_tokens:
            total += city.defeats
        if bit == 1 and per.colors >> 6 & 1:
            total += extra_purple
    return total * per.amount


def _event(state: SevenWondersState, text: str, seat: int | None = None) -> None:
    if state.log is not None:
        ev = {"age": state.age, "turn": state.turn, "text": text}
        if seat is not None:
            ev["seat"] = seat
        state.log.append(ev)


def city_label(state: SevenWondersState, c: int) -> str:
    """How logs and labels name a city."""
    if state.two_player and c == 0:
        return "Free City"
    return f"Player {state.seat_of(c) + 1}"


def _resolve_step(state: SevenWondersState) -> None:
    """SW-8.3: payments, then placement, then immediate effects on the placed state."""
    n = state.n
    cities = state.cities
    income = [0] * n
    done: list[tuple[int, int, int]] = []  # (city, kind, card or stage number)
    # 1. payments (SW-7.10: funded by coins held at the start of the step)
    for c in range(n):
        commit = state.commits[c]
        if commit is None:
            continue
        kind, t, left, right, free = commit
        if kind == K_DISCARD:
            continue
        cost = left + right + (CARDS[t].coin_cost if kind == K_BUILD and free == PAID else 0)
        cities[c].coins -= cost
        income[(c + 1) % n] += left
        income[(c - 1) % n] += right
        if free == OLYMPIA:
            cities[c].free_used = True
        if state.log is not None and cost:
            paid = _payment_text(left, right, cost - left - right)  # SW-3.9: transfers public
            _event(state, f"{city_label(state, c)} pays {paid[4:]}")
    # 2. placement
    for c in range(n):
        commit = state.commits[c]
        if commit is None:
            continue
        kind, t, _, _, free = commit
        city = cities[c]
        if kind == K_BUILD:
            city.add_structure(t)
            done.append((c, K_BUILD, t))
            if state.log is not None:
                how = {PAID: "", CHAIN: " (chain)", OLYMPIA: " (Olympia's free build)"}[free]
                _event(state, f"{city_label(state, c)} builds {CARDS[t].name}{how}")
        elif kind == K_STAGE:
            stage = city.add_stage(t)
            done.append((c, K_STAGE, stage.number))
            if city.stage_grants_discard_build(stage.number):
                state.hali_due = c
            if state.log is not None:
                _event(state, f"{city_label(state, c)} builds wonder stage {stage.number}")
        else:
            state.discard.append(t)
            state.discard_known.append(state.decider(c))
            income[c] += 3  # SW-4.6
            if state.log is not None:
                _event(state, f"{city_label(state, c)} discards a card for 3 coins")
                _event(state, f"you discarded {CARDS[t].name}", state.decider(c))
    # 3. immediate effects, on the state after all placements (SW-8.3.3)
    for c, kind, what in done:
        if kind == K_BUILD:
            effect = CARDS[what].effect
        else:
            effect = cities[c].board_stages[what - 1].effect
        income[c] += effect.coins
        if effect.coins_per is not None:
            income[c] += count(state, c, effect.coins_per)
    for c in range(n):
        cities[c].coins += income[c]
        state.commits[c] = None
        state.needs[c] = False


def _resolve_hali(state: SevenWondersState, c: int, action: int) -> None:
    """SW-10.11: build one discard-pile card for free, effects at once; or pass."""
    state.hali_city = -1
    state.needs[c] = False
    if action == HALI_PASS:
        if state.log is not None:
            _event(state, f"{city_label(state, c)} takes nothing from the discard pile")
        return
    t = action - HALI
    i = state.discard.index(t)
    del state.discard[i]
    del state.discard_known[i]
    city = state.cities[c]
    city.add_structure(t)
    effect = CARDS[t].effect
    gain = effect.coins + (count(state, c, effect.coins_per) if effect.coins_per else 0)
    city.coins += gain
    if state.log is not None:
        _event(state, f"{city_label(state, c)} builds {CARDS[t].name} from the discard pile")


def _start_hali(state: SevenWondersState) -> bool:
    """Open the Halikarnassus decision if one is due and possible (SW-8.5, AMB-31)."""
    c = state.hali_due
    if c < 0:
        return False
    state.hali_due = -1
    if not hali_candidates(state, c):
        if state.log is not None:
            _event(state, f"{city_label(state, c)} finds nothing to build in the discard pile")
        return False
    state.phase = HALI_PHASE
    state.hali_city = c
    state.needs = [i == c for i in range(state.n)]
    return True


def _advance(state: SevenWondersState) -> None:
    """Move the game on until some city owes a decision (or the game ends)."""
    while True:
        if any(state.needs[c] and state.commits[c] is None for c in range(state.n)):
            return
        if state.phase == MAIN:
            if state.turn == 6 and _start_extra_step(state):
                return
            if _start_hali(state):
                return
            _end_turn(state)
        elif state.phase == EXTRA:
            _discard_leftovers(state)
            if _start_hali(state):
                return
            _end_turn(state)
        elif state.phase == HALI_PHASE:
            _end_turn(state)
        else:
            return


def _start_extra_step(state: SevenWondersState) -> bool:
    """SW-8.4: leftovers go to the discard pile, except Babylon B's seventh card."""
    extra = -1
    for c in range(state.n):
        if state.hands[c] and state.cities[c].can_play_seventh:
            extra = c
    _discard_leftovers(state, keep=extra)
    if extra < 0:
        return False
    state.phase = EXTRA
    state.needs = [c == extra for c in range(state.n)]
    if state.log is not None:
        _event(state, f"{city_label(state, extra)} plays the seventh card (Babylon)")
    return True


def _discard_leftovers(state: SevenWondersState, keep: int = -1) -> None:
    """SW-3.6 / SW-14.6: the last cards of the age go face down, without coins."""
    for c in range(state.n):
        if c == keep:
            continue
        for t in state.hands[c]:
            state.discard.append(t)
            state.discard_known.append(
                state.seat_of(c) if not (state.two_player and c == 0) else -1
            )
        state.hands[c] = []


def _end_turn(state: SevenWondersState) -> None:
    """Pass hands (SW-3.5, SW-14.4) or end the age (SW-3.7)."""
    if state.turn < 6:
        setup.pass_hands(state)
        state.turn += 1
        setup.start_step(state)
        return
    military.resolve_conflicts(state)
    if state.age == 3:
        state.phase = OVER
        state.needs = [False] * state.n
        _event(state, "the game is over")
        return
    state.age += 1
    setup.start_age(state)
