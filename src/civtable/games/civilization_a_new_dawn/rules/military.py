"""Military (CIV-13 - CIV-16): reinforcing, attacks, the combat procedure and its results.

Ops: ``reinforce``, ``attack``. A combat is a ``C_RESOLVE`` frame holding both totals; the
attacker's and then the defender's trade-token spending (CIV-14.6) are decisions above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    CITY_STATE_DEFENCE,
    CITY_STATES,
    DEFENSIVE_PACT,
    FOCUS_CARDS,
    GRASS,
    HILLS,
    JOINT_WAR,
    MILITARY,
    WONDERS,
    Step,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.culture import within_bits
from civtable.games.civilization_a_new_dawn.rules.turn import give_trade_tokens, op, push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

# target kinds
BARB, CSTATE, TOKEN, CITY, CAPITAL = range(5)
# D_ATTACK flag bits
THROUGH_WATER, THROUGH_ANY = 1, 2


# --- CIV-13 reinforcing -----------------------------------------------------------------------
@op("reinforce")
def op_reinforce(state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int) -> None:
    """CIV-13.2: up to [slot] tokens (Mass Production: minus attacks made)."""
    n = step.maximum or slot
    if step.reduced_by_attacks:  # Mass Production: minus the attacks this resolution made
        n -= C.attacks_this_resolution(state)
    if n > 0:
        push(state, K.D_REINFORCE, seat, n)


@K.decision(K.D_REINFORCE, "reinforce a control token")
def legal_reinforce(state: CivState, frame: K.Frame) -> list[int]:
    """Own unreinforced tokens, or stop."""
    seat = frame[1]
    if frame[2] <= 0:
        return []
    reinf = state.reinf
    opts = [A.SPACE + s for s in C.indices(state.tok, seat) if not reinf[s]]
    return [A.DONE, *opts] if opts else []


@K.applies(K.D_REINFORCE)
def apply_reinforce(state: CivState, frame: K.Frame, action: int) -> None:
    """Flip it."""
    if action == A.DONE:
        state.pending.pop()
        return
    state.reinf[action - A.SPACE] = 1
    C.log(state, "reinforce", seat=frame[1], space=action - A.SPACE)
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()


# --- CIV-14 attacks -----------------------------------------------------------------------------
def _flags(card: int) -> int:
    ab = FOCUS_CARDS[card].abilities
    return (THROUGH_WATER if "attack_range_through_water" in ab else 0) | (
        THROUGH_ANY if "attack_range_through_any" in ab else 0
    )


@op("attack")
def op_attack(state: CivState, seat: int, card: int, slot: int, step: Step, bonus: int) -> None:
    """CIV-14.3: up to N attacks, each a separate combat."""
    mask = C.COUNT_MASK << C.BASE_SHIFT  # the attacks of this resolution count from here
    state.turn_flags = state.turn_flags & ~mask | C.attacks_this_turn(state) << C.BASE_SHIFT
    rng = 99 if C.has_wonder(state, seat, "pentagon") else step.range
    push(
        state,
        K.D_ATTACK,
        seat,
        step.attacks,
        rng,
        step.combat_bonus,
        step.bonus_vs_barbarian,
        slot,
        _flags(card),
        C.place_of(state, seat, card),  # where this card's trade tokens lie (CIV-7.5)
    )


def target_kind(state: CivState, seat: int, t: int) -> int:
    """What is attacked on ``t`` (-1: nothing attackable), CIV-14.1."""
    if state.barb[t] >= 0:
        return BARB
    if state.cs[t] >= 0:
        return CSTATE
    c = state.city[t]
    if c >= 0 and c != seat:
        return CAPITAL if state.capital[c] == t else CITY
    tk = state.tok[t]
    if tk >= 0 and tk != seat:
        return TOKEN
    return -1


def targets(state: CivState, seat: int, rng: int, flags: int) -> list[int]:
    """Targets within range of a friendly space not taken this turn (CIV-14.2, CIV-A36).

    A breadth-first search on the map's bitsets (:meth:`~.hexes.Board.grow`): each step of
    range reaches the spaces adjacent to the last ring. A land space holding an attackable
    thing (:func:`target_kind`: barbarians, a city-state, a rival's city or token) is a target
    when reached; the search goes on through free land, through water only with the cards that
    allow it, and through occupied spaces only with "any" range.
    """
    b = state.board
    occ = C.occupancy(state)  # once: each call compares the lists its bitsets came from
    friendly = occ.friendly
    sources = friendly[seat]
    for s in state.taken:
        sources &= ~b.bit[s]
    barbs = occ.barbs
    rivals = 0  # C.rival_bits
    for g, f in enumerate(friendly):
        if g != seat:
            rivals |= f
    blocked = barbs | rivals
    target = blocked | occ.cstates  # target_kind(...) >= 0
    found = sources & barbs
    water = b.water_mask
    through_water = bool(flags & (THROUGH_WATER | THROUGH_ANY))
    through_any = bool(flags & THROUGH_ANY)
    seen, frontier = sources, sources
    for _ in range(rng):
        ring = b.grow(frontier)
        land = ring & ~water
        found |= land & target
        nxt = land if through_any else land & ~blocked
        if through_water:
            nxt |= ring & water
        frontier = nxt & ~seen
        if not frontier:
            break
        seen |= frontier
    return b.spaces_of(found)


@K.decision(K.D_ATTACK, "attack a target")
def legal_attack(state: CivState, frame: K.Frame) -> list[int]:
    """Targets in reach, or stop attacking."""
    seat, left, rng, flags = frame[1], frame[2], frame[3], frame[7]
    if left <= 0:
        return []
    opts = [A.SPACE + t for t in targets(state, seat, rng, flags)]
    return [A.DONE, *opts] if opts else []


def defender_of(state: CivState, seat: int, t: int, kind: int) -> int:
    """Defending player (-1 barbarian, -2 city-state)."""
    if kind == BARB:
        return -1
    if kind == CSTATE:
        return -2
    return C.owner_of(state, t)


def attack_bonus(state: CivState, seat: int, t: int, kind: int, defender: int) -> int:
    """CIV-14.5 attacker bonuses from wonders, diplomacy cards and the leader: the part that
    depends on the target space (:func:`attack_bonus_at`) and the part that does not
    (:func:`attack_bonus_fixed`)."""
    return attack_bonus_fixed(state, seat, kind, defender) + attack_bonus_at(state, seat, t, kind)


def attack_bonus_fixed(state: CivState, seat: int, kind: int, defender: int) -> int:
    """The attacker's bonuses that do not depend on the target space (CIV-14.5): its wonders
    (Terracotta Army, Alhambra, Pentagon; Kremlin against a player with fewer reinforced
    tokens) and Joint War cards."""
    b = 0
    owner = state.wonder_owner
    for w, v in _ATTACK_WONDERS:
        if owner[w] == seat:
            b += v
    if (
        kind in (TOKEN, CITY, CAPITAL)
        and owner[_KREMLIN] == seat
        and _reinforced(state, seat) > _reinforced(state, defender)
    ):
        b += 4
    for g in range(state.players):
        if g != seat and g != defender and state.pcard_holder[g][JOINT_WAR] == seat:
            b += 2
    return b


def attack_bonus_at(state: CivState, seat: int, t: int, kind: int) -> int:
    """The attacker's bonuses that depend on the target space ``t`` (CIV-14.5): Big Ben's
    caravans next to it, Scythia on grassland or hills, Kabul and Carthage cards."""
    b = 0
    if state.wonder_owner[_BIG_BEN] == seat:
        b += 2 * sum(1 for p in state.caravans[seat] if p >= 0 and p in state.board.adjacent[t])
    if state.leader[seat] == _SCYTHIA and C.steppable_grass_hills(state, t):
        b += 3
    cs_here = state.board.city_state[t]  # -1 or the printed city-state (never its own card)
    held = state.cs_cards[seat]
    if kind in (CITY, CAPITAL, CSTATE) and _KABUL in held and cs_here != _KABUL:
        b += 3
    if _CARTHAGE in held and cs_here != _CARTHAGE:
        b += _carthage(state, seat, t)
    return b


#: (wonder, bonus) of the attacker's and the defender's wonders (CIV-14.5)
_ATTACK_WONDERS = tuple(
    (C.W[w], v) for w, v in (("terracotta_army", 2), ("alhambra", 2), ("pentagon", 2))
)
_DEFENCE_WONDERS = tuple(
    (C.W[w], v) for w, v in (("petra", 2), ("alhambra", 2), ("ruhr_valley", 5))
)
_BIG_BEN, _KREMLIN = C.W["big_ben"], C.W["kremlin"]
_SCYTHIA = C.L["scythia"]
_KABUL, _CARTHAGE = C.CS_ID["kabul"], C.CS_ID["carthage"]
_GRASS_HILLS = (GRASS, HILLS)  # C.steppable_grass_hills


def defence_bonus(state: CivState, d: int, t: int, attacker: int) -> int:
    """CIV-14.5 defender bonuses: :func:`defence_bonus_fixed` and :func:`defence_bonus_at`."""
    return defence_bonus_fixed(state, d, attacker) + defence_bonus_at(state, d, t)


def defence_bonus_fixed(state: CivState, d: int, attacker: int) -> int:
    """The defender's bonuses that do not depend on the space (CIV-14.5): its wonders (Petra,
    Alhambra, Ruhr Valley) and Defensive Pact cards."""
    b = 0
    owner = state.wonder_owner
    for w, v in _DEFENCE_WONDERS:
        if owner[w] == d:
            b += v
    for g in range(state.players):
        if g != d and g != attacker and state.pcard_holder[g][DEFENSIVE_PACT] == d:
            b += 2
    return b


def defence_bonus_at(state: CivState, d: int, t: int) -> int:
    """The defender's bonuses that depend on the attacked space ``t`` (CIV-14.5): Big Ben's
    caravans next to it, Scythia on grassland or hills, the Carthage card."""
    b = 0
    if state.wonder_owner[_BIG_BEN] == d:
        b += 2 * sum(1 for p in state.caravans[d] if p >= 0 and p in state.board.adjacent[t])
    if state.leader[d] == _SCYTHIA and C.steppable_grass_hills(state, t):
        b += 3
    if _CARTHAGE in state.cs_cards[d]:
        b += _carthage(state, d, t)
    return b


def _carthage(state: CivState, seat: int, t: int) -> int:
    """Carthage card: +1 per city-state token and friendly city within 2 of the space."""
    near = within_bits(state, state.board.bit[t], 2)
    occ = C.occupancy(state)
    return (near & (occ.cstates | occ.cities[seat])).bit_count()


def _reinforced(state: CivState, seat: int) -> int:
    reinf = state.reinf
    return sum(1 for s in C.indices(state.tok, seat) if reinf[s])


def defence_base(state: CivState, t: int, kind: int, defender: int) -> int:
    """Defender's value before the die (CIV-14.5)."""
    diff = C.difficulty(state, state.current, t)  # Japan's Divine Wind applies on its turn
    if kind == CSTATE:
        return CITY_STATE_DEFENCE
    if kind == BARB:
        return diff
    tok, reinf = state.tok, state.reinf
    rf = 1 if tok[t] == defender and reinf[t] else 0
    for n in state.board.adjacent[t]:
        if tok[n] == defender and reinf[n]:
            rf += 1
    return (2 * diff if kind in (CITY, CAPITAL) else diff) + rf


def attack_values(
    state: CivState, seat: int, ts: list[int], slot: int, bonus: int, bbonus: int
) -> list[tuple[int, int, int, int]]:
    """For each target space of ``ts``, what :func:`apply_attack` would compute before the
    dice (CIV-14.5): ``(kind, defender, attack, defence)`` with the attack card's ``slot``,
    ``bonus`` and barbarian bonus ``bbonus`` (-1: none). The same terms as
    :func:`attack_bonus`, :func:`defence_base` and :func:`defence_bonus`, with what does not
    depend on the target space computed once: the fixed bonuses per defender, the difficulty
    table, each defender's reinforced tokens as a bitset; the space-dependent bonuses only for
    the seats that have one (Big Ben, Scythia, Kabul, Carthage)."""
    b = state.board
    bit, adjm = b.bit, b.adjacent_mask
    diffs = C.difficulties(state, state.current)  # as defence_base: Divine Wind on its turn
    owner = state.wonder_owner
    held = state.cs_cards[seat]
    # attack_bonus_at's terms, what does not depend on the space read once
    ben = [p for p in state.caravans[seat] if p >= 0] if owner[_BIG_BEN] == seat else []
    scythia = state.leader[seat] == _SCYTHIA
    kabul = _KABUL in held
    carthage = _CARTHAGE in held
    att_at = bool(ben) or scythia or kabul or carthage
    occ = C.occupancy(state)
    near_mask = occ.cstates | occ.cities[seat]  # _carthage
    adjacent, cs_printed, terrain = b.adjacent, b.city_state, b.terrain
    fixed_att: dict[tuple[int, int], int] = {}
    # per defending seat: its fixed bonus, its reinforced tokens (bitset), whether a bonus
    # depends on the space
    per_def: dict[int, tuple[int, int, bool]] = {}
    out: list[tuple[int, int, int, int]] = []
    barb, cs, city, tok, capital = state.barb, state.cs, state.city, state.tok, state.capital
    for t in ts:
        # target_kind and defender_of
        if barb[t] >= 0:
            kind, d = BARB, -1
        elif cs[t] >= 0:
            kind, d = CSTATE, -2
        else:
            c = city[t]
            if c >= 0 and c != seat:
                kind, d = (CAPITAL if capital[c] == t else CITY), c
            else:
                tk = tok[t]
                kind = TOKEN if tk >= 0 and tk != seat else -1
                d = c if c >= 0 else tk  # C.owner_of
        fa = fixed_att.get((kind, d))
        if fa is None:
            fa = fixed_att[(kind, d)] = attack_bonus_fixed(state, seat, kind, d)
        att = slot + (bbonus if kind == BARB and bbonus >= 0 else bonus) + fa
        if att_at:  # attack_bonus_at
            cs_here = cs_printed[t]
            if ben:
                adj = adjacent[t]
                att += 2 * sum(1 for p in ben if p in adj)
            if scythia and (cs_here >= 0 or terrain[t] in _GRASS_HILLS):  # steppable_grass_hills
                att += 3
            if kabul and kind in (CITY, CAPITAL, CSTATE) and cs_here != _KABUL:
                att += 3
            if carthage and cs_here != _CARTHAGE:
                att += (within_bits(state, bit[t], 2) & near_mask).bit_count()
        if kind == CSTATE:
            dfn = CITY_STATE_DEFENCE
        elif kind == BARB:
            dfn = diffs[t]
        else:
            pd = per_def.get(d)
            if pd is None:
                rb = 0
                for s in b.spaces_of(C.occupancy(state).tokens[d]):
                    if state.reinf[s]:
                        rb |= bit[s]
                pd = per_def[d] = (
                    defence_bonus_fixed(state, d, seat),
                    rb,
                    owner[_BIG_BEN] == d
                    or state.leader[d] == _SCYTHIA
                    or _CARTHAGE in state.cs_cards[d],
                )
            rf = (pd[1] & (bit[t] | adjm[t])).bit_count()
            dfn = (2 * diffs[t] if kind in (CITY, CAPITAL) else diffs[t]) + rf + pd[0]
            if pd[2]:
                dfn += defence_bonus_at(state, d, t)
        out.append((kind, d, att, dfn))
    return out


def return_cards_on_declare(state: CivState, seat: int, t: int, kind: int, defender: int) -> None:
    """CIV-14.4 / CIV-A32: diplomacy cards from the attacked party go back at once."""
    if kind == CSTATE:
        cs = state.cs[t]
        if cs in state.cs_cards[seat]:
            state.cs_cards[seat].remove(cs)
            state.cs_avail[cs] += 1
    elif defender >= 0:
        holder = state.pcard_holder[defender]
        for k, h in enumerate(holder):
            if h == seat:
                holder[k] = -1


@K.applies(K.D_ATTACK)
def apply_attack(state: CivState, frame: K.Frame, action: int) -> None:
    """Declare the attack: return cards, roll both dice, ask for trade tokens."""
    seat = frame[1]
    if action == A.DONE:
        state.pending.pop()
        return
    frame[2] -= 1
    t = action - A.SPACE
    slot, bonus, bbonus = frame[6], frame[4], frame[5]
    kind = target_kind(state, seat, t)
    defender = defender_of(state, seat, t, kind)
    return_cards_on_declare(state, seat, t, kind, defender)
    card_bonus = bbonus if kind == BARB and bbonus >= 0 else bonus
    a_die = state.rng.randbelow(6) + 1
    d_die = state.rng.randbelow(6) + 1
    att = a_die + slot + card_bonus + attack_bonus(state, seat, t, kind, defender)
    dfn = d_die + defence_base(state, t, kind, defender)
    if defender >= 0:
        dfn += defence_bonus(state, defender, t, seat)
    state.turn_flags += 1 << C.ATTACKS_SHIFT
    if state.log is not None:
        C.log(
            state,
            "attack",
            seat=seat,
            space=t,
            target=kind,
            defender=defender,
            attacker_die=a_die,
            defender_die=d_die,
            attack=att,
            defence=dfn,
        )
    push(state, K.C_RESOLVE, seat, t, att, dfn, defender, kind)
    dk = C.place_of_type(state, defender, MILITARY) if defender >= 0 else -1
    if dk >= 0 and state.trade[defender][dk] > 0:
        push(state, K.D_DEF_SPEND, defender, seat, dk)
    ak = frame[8]
    avail = state.trade[seat][ak] + C.extra_tokens(state, seat, ak)
    if avail > 0:
        push(state, K.D_ATT_SPEND, seat, ak)


def _combat(state: CivState) -> K.Frame:
    for f in reversed(state.pending):
        if f[0] == K.C_RESOLVE:
            return f
    raise AssertionError("no combat in progress")  # pragma: no cover


@K.decision(K.D_ATT_SPEND, "attacker: spend military trade tokens")
def legal_att_spend(state: CivState, frame: K.Frame) -> list[int]:
    """0..available (+1 combat each, CIV-14.6)."""
    seat, k = frame[1], frame[2]
    n = state.trade[seat][k] + C.extra_tokens(state, seat, k)
    return [A.DONE] + [A.OPT + k - 1 for k in range(1, n + 1)]


@K.applies(K.D_ATT_SPEND)
def apply_att_spend(state: CivState, frame: K.Frame, action: int) -> None:
    """Add to the attacker's total."""
    from civtable.games.civilization_a_new_dawn.rules.turn import spend

    state.pending.pop()
    k = 0 if action == A.DONE else action - A.OPT + 1
    spend(state, frame[1], frame[2], k)
    _combat(state)[3] += k
    if k:
        C.log(state, "combat_spend", seat=frame[1], n=k, defending=0)


@K.decision(K.D_DEF_SPEND, "defender: spend military trade tokens")
def legal_def_spend(state: CivState, frame: K.Frame) -> list[int]:
    """0..tokens on the defender's military card (frame[3]: its place)."""
    n = state.trade[frame[1]][frame[3]]
    return [A.DONE] + [A.OPT + k - 1 for k in range(1, n + 1)]


@K.applies(K.D_DEF_SPEND)
def apply_def_spend(state: CivState, frame: K.Frame, action: int) -> None:
    """Add to the defender's total."""
    state.pending.pop()
    k = 0 if action == A.DONE else action - A.OPT + 1
    state.trade[frame[1]][frame[3]] -= k
    _combat(state)[4] += k
    if k:
        C.log(state, "combat_spend", seat=frame[1], n=k, defending=1)


def occupy(state: CivState, seat: int, t: int) -> None:
    """Put an unused city on ``t`` or, with none left, a reinforced token (CIV-23.4)."""
    if state.cities_left[seat] > 0:
        C.build_city(state, seat, t)
    elif C.need_token(state, seat, C.RC_OCCUPY, t):  # CIV-8.5: else the seat chooses first
        C.place_token(state, seat, t, 1)


@K.auto(K.C_RESOLVE, "combat result")
def run_resolve(state: CivState, frame: K.Frame) -> None:
    """CIV-14.7 and CIV-15: higher total wins, ties to the defender."""
    seat, t, att, dfn, defender, kind = frame[1:7]
    win = att > dfn
    if state.log is not None:
        C.log(
            state,
            "combat",
            seat=seat,
            space=t,
            target=kind,
            defender=defender,
            attack=att,
            defence=dfn,
            won=int(win),
        )
    if not win:
        return
    state.turn_flags |= C.F_WON_ATTACK
    if kind == BARB:  # CIV-15.1
        from civtable.games.civilization_a_new_dawn.rules.events import remove_barbarian

        if state.log is not None:
            from civtable.games.civilization_a_new_dawn.catalog import BARBARIAN_LETTERS as BL

            C.log(state, "barbarian_defeated", seat=seat, barbarian=BL[state.barb[t]], space=t)
        remove_barbarian(state, state.barb[t])
        if C.is_leader(state, seat, "sumeria"):
            push(state, K.D_GAIN_RES, seat, 1, 0)
        give_trade_tokens(state, seat, 1)
        return
    state.taken.append(t)  # CIV-15.7
    if kind == CSTATE:  # CIV-15.2
        cs = state.cs[t]
        C.log(state, "conquer", seat=seat, city_state=CITY_STATES[cs].id, space=t)
        state.cs[t] = -1
        state.cs_owner[cs] = seat
        occupy(state, seat, t)
        for h in state.cs_cards:
            if cs in h:
                h.remove(cs)
        state.cs_avail[cs] = -1
        return
    cs_here = state.board.city_state[t]
    if cs_here >= 0 and state.cs_owner[cs_here] == defender:  # CIV-16.4
        push(state, K.D_CONQLIB, seat, t, defender)
        return
    if kind == TOKEN:  # CIV-15.3
        C.log(state, "token_taken", seat=seat, space=t, victim=defender)
        C.transfer_token(state, t, seat)
        return
    if kind == CITY:  # CIV-15.4, CIV-15.6
        if state.log is not None:
            w = state.wtok[t]
            wid = WONDERS[w].id if w >= 0 else None
            C.log(state, "city_taken", seat=seat, space=t, victim=defender, wonder=wid)
        C.remove_city(state, t)
        occupy(state, seat, t)
        if state.wtok[t] >= 0:
            state.wonder_owner[state.wtok[t]] = seat
        return
    # CIV-15.5 capital
    C.log(state, "capital_won", seat=seat, space=t, victim=defender)
    state.won_capital[seat] |= 1
    n = min(2, C.total_trade(state, defender))
    w = state.wtok[t]
    if w >= 0:
        push(state, K.D_WMOVE, seat, w, t)
    if n > 0:
        push(state, K.D_RAID, seat, defender, n, 0)


@K.decision(K.D_CONQLIB, "conquer or liberate the city-state")
def legal_conqlib(state: CivState, frame: K.Frame) -> list[int]:
    """OPT: conquer; OPT + 1: liberate."""
    return [A.OPT, A.OPT + 1]


@K.applies(K.D_CONQLIB)
def apply_conqlib(state: CivState, frame: K.Frame, action: int) -> None:
    """CIV-16.4 (CIV-A29, CIV-A30)."""
    seat, t = frame[1], frame[2]
    state.pending.pop()
    cs = state.board.city_state[t]
    if state.log is not None:
        kind = "conquer" if action == A.OPT else "liberate"
        C.log(state, kind, seat=seat, city_state=CITY_STATES[cs].id, space=t, victim=frame[3])
    if state.city[t] >= 0:
        C.remove_city(state, t)
    else:
        C.lift_token(state, t, city_state_returns=False)
    w = state.wtok[t]
    if action == A.OPT:
        state.cs_owner[cs] = seat
        occupy(state, seat, t)
        if w >= 0:
            state.wonder_owner[w] = seat
        return
    if w >= 0:  # the token stays with the freed city-state: nobody controls it (CIV-19.3, A12)
        state.wonder_owner[w] = -1
    C.reset_city_state(state, cs)
    if state.cs_avail[cs] > 0 and cs not in state.cs_cards[seat]:
        state.cs_avail[cs] -= 1
        state.cs_cards[seat].append(cs)


@K.decision(K.D_RAID, "capital raid: take a trade token")
def legal_raid(state: CivState, frame: K.Frame) -> list[int]:
    """Defender's cards holding tokens."""
    d = frame[2]
    return [A.TYPE + t for t in range(5) if state.trade[d][t] > 0]


@K.applies(K.D_RAID)
def apply_raid(state: CivState, frame: K.Frame, action: int) -> None:
    """Take one; after the last, place them on your own cards."""
    d = frame[2]
    if state.log is not None:
        C.log(state, "raid", seat=frame[1], victim=d, card=C.card_at(state, d, action - A.TYPE))
    state.trade[d][action - A.TYPE] -= 1
    frame[3] -= 1
    frame[4] += 1
    if frame[3] <= 0 or C.total_trade(state, d) == 0:
        state.pending.pop()
        give_trade_tokens(state, frame[1], frame[4])


@K.decision(K.D_WMOVE, "move the captured wonder")
def legal_wmove(state: CivState, frame: K.Frame) -> list[int]:
    """CIV-15.6: one of your cities without a wonder."""
    seat = frame[1]
    return [A.SPACE + s for s in C.cities(state, seat) if state.wtok[s] < 0]


@K.applies(K.D_WMOVE)
def apply_wmove(state: CivState, frame: K.Frame, action: int) -> None:
    """Move the token and take the card."""
    seat, w, src = frame[1], frame[2], frame[3]
    state.pending.pop()
    state.wtok[src] = -1
    state.wtok[action - A.SPACE] = w
    state.wonder_owner[w] = seat
    if state.log is not None:
        C.log(state, "wonder_moved", seat=seat, wonder=WONDERS[w].id, space=action - A.SPACE)
