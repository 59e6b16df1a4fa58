"""The Politics Phase (TTA-6), aggressions, wars, pacts, resignation, and the decision queue.

A political action may set off decisions of other seats: the target's defence (TTA-6.4), the
partner's answer to a pact (TTA-6.6), a colonization auction (TTA-11), an event's choices
(TTA-12). They run one at a time through ``state.queue`` (items ``[seat, kind, ...]``): the
seat of the running one is ``state.actor`` and its data ``state.pending``; when the queue is
empty the turn is the current player's again (:func:`advance`).

The Politics Phase is not a separate step of play: while ``state.phase`` is a politics phase,
the current player's legal actions are the political actions *and* every Action-Phase action;
the first Action-Phase action ends the Politics Phase (TTA-5.2 steps 4-5).
"""

from __future__ import annotations

from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import (
    BY_ID,
    CARDS,
    DEFENSE_DISCARD,
    NCARDS,
    PACT_SIDES,
    RESIGN_CULTURE,
    SHORTER_WAR,
    STR,
)
from civtable.games.through_the_ages.rules import board, effects
from civtable.games.through_the_ages.state import (
    F_CAESAR,
    F_RESIGNED,
    P_ACCEPT,
    P_DEFEND,
    P_NONE,
    PH_ACTION,
    PH_POLITICS,
    PH_SECOND,
    Civ,
    TTAState,
    to_box,
)

#: the shorter game's shared war card (TTA-15.1)
SHARED_WAR = BY_ID[SHORTER_WAR]
_ALEXANDER = next(c.idx for c in CARDS if c.id == "alexander_the_great")
_COLUMBUS = next(c.idx for c in CARDS if c.id == "christopher_columbus")
#: ``P_OPTION`` kinds of this module (events.py has its own, from 16 up)
W_PLUNDER = 1  # (W_PLUNDER, card, target, amount): v = food taken, the rest resources
W_TECHWAR = 2  # (W_TECHWAR, card, loser, advantage): v = bit mask of the loser's specials
W_INFILTRATE = 3  # (W_INFILTRATE, card, target): v = 0 the leader, 1 the unfinished wonder
W_ANNEX = 4  # (W_ANNEX, card, target): v = index in the target's colonies
W_RAID = 5  # (W_RAID, card, target, step, printed costs so far): v = building slot


# --- seats, order and comparisons (TTA-12.6) --------------------------------------------------


def active(state: TTAState, seat: int) -> bool:
    """Has ``seat`` not resigned?"""
    return not state.civs[seat].flags & F_RESIGNED


def active_count(state: TTAState) -> int:
    """Players still in the game (TTA-6.8: the rules of that player count apply)."""
    return sum(1 for c in state.civs if not c.flags & F_RESIGNED)


def order_from(state: TTAState, start: int) -> list[int]:
    """Active seats clockwise from ``start`` (included if active)."""
    n = state.players
    return [(start + i) % n for i in range(n) if active(state, (start + i) % n)]


def strength(civ: Civ) -> int:
    """The strength rating (TTA-10.1)."""
    return board.ratings(civ)[2]


def ranked(state: TTAState, values: list[int], start: int | None = None) -> list[int]:
    """Active seats from the most to the least by ``values``; ties favour ``start`` (the
    current player by default), then the players after him clockwise (TTA-12.6, TTA-AMB-18):
    "strongest/most" is the first, "weakest/least" the last."""
    order = order_from(state, state.current if start is None else start)
    pos = {s: i for i, s in enumerate(order)}
    return sorted(order, key=lambda s: (-values[s], pos[s]))


def strengths(state: TTAState) -> list[int]:
    """Every seat's strength rating."""
    return [strength(c) for c in state.civs]


# --- the decision queue ---------------------------------------------------------------------


def push(state: TTAState, seat: int, item: list[int]) -> None:
    """Queue a decision of ``seat`` after the ones already queued."""
    state.queue.append([seat, *item])


def now(state: TTAState, seat: int, item: list[int]) -> None:
    """Queue a decision of ``seat`` before every queued one (a follow-up of the running one)."""
    state.queue.insert(0, [seat, *item])


def advance(state: TTAState) -> None:
    """Start the next queued decision that has a choice, or give the turn back to the
    current player (``pending`` empty, ``actor`` -1)."""
    from civtable.games.through_the_ages.rules import civil

    while state.queue:
        item = state.queue.pop(0)
        state.actor = item[0]
        state.pending = item[1:]
        state._legal = None
        if civil.legal_actions(state):
            return
        if not skip(state):
            return
    state.pending = [P_NONE]
    state.actor = -1  # the current player decides again


def skip(state: TTAState) -> bool:
    """A queued decision with no legal answer resolves without one (e.g. nobody to bid):
    apply its "nothing" outcome; False if it cannot be skipped (never expected)."""
    from civtable.games.through_the_ages.rules import events

    return events.skip(state)


# --- political actions (TTA-6) ---------------------------------------------------------------


def full_game(state: TTAState) -> bool:
    """Aggressions, wars, pacts and resignation exist only in the full game (TTA-14.1)."""
    return bool(state.options.get("mode", "first") != "first")


def in_politics(state: TTAState) -> bool:
    """May the current player still take a political action this turn?"""
    return state.phase != PH_ACTION


def _ma(civ: Civ) -> int:
    return civ.ma + civ.temp_ma


def spend_ma(civ: Civ, n: int) -> None:
    """Spend ``n`` military actions, temporary ones first."""
    t = min(civ.temp_ma, n)
    civ.temp_ma -= t
    civ.ma -= n - t


def pacifist(civ: Civ) -> bool:
    """Mahatma Gandhi in play."""
    return effects.has_hook(civ, "pacifist")


def attack_cost(state: TTAState, card: int, target: int) -> int:
    """The printed MA cost, doubled against Gandhi (TTA-6.4 step 1)."""
    return CARDS[card].ma_cost * _cost_factor(state, target)


def _cost_factor(state: TTAState, target: int) -> int:
    """What an attack's printed cost is multiplied by against ``target`` (Gandhi)."""
    factor = 1
    for _c, op in effects.ops_of(state.civs[target], "continuous"):
        if op["op"] == "hook" and op["key"] == "pacifist":  # the multiplier from the data
            factor *= int(op.get("params", {}).get("opponent_cost_multiplier", 2))
    return factor


def pacts_between(state: TTAState, a: int, b: int) -> list[int]:
    """Pact cards in play with ``a`` and ``b`` as the two parties."""
    p = state.pacts
    return [
        p[i]
        for i in range(0, len(p), 4)
        if (p[i + 2] == a and p[i + 3] == b) or (p[i + 2] == b and p[i + 3] == a)
    ]


def attack_allowed(state: TTAState, attacker: int, target: int) -> bool:
    """No pact between the two forbids attacks (TTA-6.4 step 2, TTA-6.5 step 1)."""
    return all(CARDS[c].attacks != "forbidden" for c in pacts_between(state, attacker, target))


def attack_strengths(state: TTAState, attacker: int, target: int) -> tuple[int, int]:
    """(attacker, target) strength for an attack: pacts ending on attack removed first, the
    attacker's when-attacking bonus (Open Borders +2) added (TTA-6.4 step 2)."""
    a = strength(state.civs[attacker])
    t = strength(state.civs[target])
    p = state.pacts
    for i in range(0, len(p), 4):
        card, _owner, sa, sb = p[i : i + 4]
        if {sa, sb} != {attacker, target}:
            continue
        c = CARDS[card]
        if c.attacks == "ends_pact":  # the pact's strength symbols go with it
            a -= PACT_SIDES[card * 2 + (0 if sa == attacker else 1)].in_play[STR]
            t -= PACT_SIDES[card * 2 + (0 if sa == target else 1)].in_play[STR]
        a += c.attack_bonus
    return a, t


def _is_side_b_of_sovereignty(state: TTAState, target: int) -> bool:
    p = state.pacts
    return any(not CARDS[p[i]].war_on_b and p[i + 3] == target for i in range(0, len(p), 4))


def _has_requirement(state: TTAState, card: int, target: int) -> bool:
    req = CARDS[card].requires
    civ = state.civs[target]
    if req == "target_has_colony":
        return bool(civ.colonies)
    if req == "target_has_leader_or_unfinished_wonder":
        return civ.leader >= 0 or civ.wip >= 0
    return True


def political_actions(state: TTAState, out: list[int]) -> None:
    """Append the current player's legal political actions (TTA-6.1)."""
    seat = state.current
    civ = state.civs[seat]
    full = full_game(state)
    shared = SHARED_WAR if state.options.get("mode") == "shorter" else -1
    ma = _ma(civ)
    # the seats no pact protects from this player, with attack_cost()'s factor (once per call)
    open_to: list[tuple[int, int]] | None = None
    strengths: dict[int, tuple[int, int]] = {}  # attack_strengths() by target
    for c in set(civ.mhand):
        card = CARDS[c]
        t = card.type
        if t in ("event", "territory"):
            out.append(ax.PREPARE + c)  # TTA-6.2
            if t == "territory" and full and civ.leader == _COLUMBUS:
                out.append(ax.COLUMBUS + c)  # TTA-11.7
        elif not full:
            continue
        elif t == "aggression" and not pacifist(civ):
            if open_to is None:
                open_to = _open_to(state, seat)
            for target, factor in open_to:
                if ma < card.ma_cost * factor:  # attack_cost()
                    continue
                if not _has_requirement(state, c, target):
                    continue
                st = strengths.get(target)
                if st is None:
                    st = strengths[target] = attack_strengths(state, seat, target)
                if st[0] > st[1]:  # strictly stronger
                    out.append(ax.AGGRESS + c * 4 + target)
        elif t == "war" and not pacifist(civ) and state.last_round != state.round:
            if open_to is None:
                open_to = _open_to(state, seat)
            for target, factor in open_to:
                if _is_side_b_of_sovereignty(state, target):
                    continue
                if ma >= card.ma_cost * factor:  # attack_cost()
                    out.append(ax.WAR + c * 4 + target)
                if shared >= 0 and ma >= CARDS[shared].ma_cost * factor:
                    out.append(ax.SHARED + c * 4 + target)  # TTA-15.1
        elif t == "pact" and active_count(state) >= 3:
            for target in order_from(state, seat):
                if target == seat:
                    continue
                out.append(ax.PACT + c * 8 + target * 2)
                if not card.symmetric:
                    out.append(ax.PACT + c * 8 + target * 2 + 1)
    if not full:
        return
    p = state.pacts
    for i in range(0, len(p), 4):
        if seat in (p[i + 2], p[i + 3]):
            out.append(ax.CANCEL + p[i])  # TTA-6.7
    if state.age < 4:
        out.append(ax.RESIGN)  # TTA-6.8 (not in Age IV)
    if civ.leader == _ALEXANDER:
        out.append(ax.ALEXANDER)


def _open_to(state: TTAState, seat: int) -> list[tuple[int, int]]:
    """The other seats in order from ``seat`` that no pact protects from it
    (:func:`attack_allowed`), each with :func:`_cost_factor`."""
    return [
        (target, _cost_factor(state, target))
        for target in order_from(state, seat)
        if target != seat and attack_allowed(state, seat, target)
    ]


def after_political_action(state: TTAState) -> None:
    """One political action per turn; Julius Caesar allows a second one once per game."""
    civ = state.civs[state.current]
    if state.phase == PH_SECOND:
        civ.flags |= F_CAESAR
        state.phase = PH_ACTION
    elif (
        state.phase == PH_POLITICS
        and not civ.flags & F_CAESAR
        and effects.has_hook(civ, "extra_political_action")
    ):
        state.phase = PH_SECOND
    else:
        state.phase = PH_ACTION


def apply_political(state: TTAState, action: int) -> None:
    """Apply a political action of the current player (its follow-ups are queued)."""
    from civtable.games.through_the_ages.rules import events

    seat = state.current
    civ = state.civs[seat]
    after_political_action(state)
    if action < ax.AGGRESS:
        events.prepare(state, seat, action - ax.PREPARE)
    elif action < ax.WAR:
        card, target = divmod(action - ax.AGGRESS, 4)
        aggression(state, seat, card, target)
    elif action < ax.PACT:
        card, target = divmod(action - ax.WAR, 4)
        declare_war(state, seat, card, target)
    elif action >= ax.SHARED:  # the shorter game's shared War over Culture (TTA-15.1)
        card, target = divmod(action - ax.SHARED, 4)
        spend_ma(civ, attack_cost(state, SHARED_WAR, target))
        civ.mhand.remove(card)
        _end_pacts_on_attack(state, seat, target)
        state.wars.extend((SHARED_WAR, seat, target))
        state.war_cards.extend((card, seat, target))  # discarded after the resolution
    elif action < ax.CANCEL:
        card, rest = divmod(action - ax.PACT, 8)
        target, side = divmod(rest, 2)
        civ.mhand.remove(card)
        push(state, target, [P_ACCEPT, card, seat, target, side])
    elif action < ax.RESIGN:
        remove_pact(state, action - ax.CANCEL)
    elif action == ax.RESIGN:
        from civtable.games.through_the_ages.rules import turn

        resign(state, seat)
        if not state.over:
            turn.next_turn(state)  # the resigning player's turn ends at once
    elif action == ax.ALEXANDER:
        before = board.totals(civ)
        board.leave_play(civ, civ.leader)
        to_box(state, (civ.leader,))
        civ.leader = -1
        board.sync_totals(civ, before)
        board.gain_yellow(civ, 1)  # a cube from the box to the yellow bank
    else:  # COLUMBUS: colonize from hand without sending units (TTA-11.7)
        card = action - ax.COLUMBUS
        before = board.totals(civ)
        board.leave_play(civ, civ.leader)
        to_box(state, (civ.leader,))
        civ.leader = -1
        board.sync_totals(civ, before)
        civ.mhand.remove(card)
        events.gain_colony(state, seat, card)


# --- aggressions (TTA-6.4) -------------------------------------------------------------------


def aggression(state: TTAState, seat: int, card: int, target: int) -> None:
    """Reveal, pay, end pacts that end on attack, and ask the target to defend."""
    civ = state.civs[seat]
    spend_ma(civ, attack_cost(state, card, target))
    civ.mhand.remove(card)
    attack, defense = attack_strengths(state, seat, target)
    _end_pacts_on_attack(state, seat, target)
    push(state, target, [P_DEFEND, card, seat, target, attack, defense, 0])


def defend_actions(state: TTAState) -> list[int]:
    """The target's answers: play a bonus card, discard a card for +1, or stop (TTA-6.4)."""
    p = state.pending
    civ = state.civs[p[3]]
    out = [ax.DONE]
    if p[6] < board.totals(civ)[1]:  # cards used <= MA total
        for c in set(civ.mhand):
            if CARDS[c].type == "bonus":
                out.append(ax.PLAY + c)
            out.append(ax.DISCARD + c)
    return sorted(out)


def defend(state: TTAState, action: int) -> None:
    """Apply one defence step; ``DONE`` resolves the aggression."""
    p = state.pending
    card, attacker, target, attack, defense, used = p[1:7]
    civ = state.civs[target]
    if action == ax.DONE:
        state.mil_discards[CARDS[card].age].append(card)
        if defense < attack:
            aggression_succeeds(state, card, attacker, target)
        return
    if ax.PLAY <= action < ax.REVOLT:
        c = action - ax.PLAY
        defense += CARDS[c].defense
    else:
        c = action - ax.DISCARD
        defense += DEFENSE_DISCARD
    civ.mhand.remove(c)
    state.mil_discards[CARDS[c].age].append(c)
    now(state, target, [P_DEFEND, card, attacker, target, attack, defense, used + 1])


def aggression_succeeds(state: TTAState, card: int, attacker: int, target: int) -> None:
    """The card's effect against the target (cards file C-13, ops in the data)."""
    from civtable.games.through_the_ages.rules import events

    events.run_ops(state, card, CARDS[card].ops, aggressor=attacker, target=target)


def _end_pacts_on_attack(state: TTAState, a: int, b: int) -> None:
    for card in pacts_between(state, a, b):
        if CARDS[card].attacks == "ends_pact":
            remove_pact(state, card)


# --- wars (TTA-6.5) --------------------------------------------------------------------------


def _is_shared(state: TTAState, card: int) -> bool:
    """The shorter game's shared War over Culture stays beside the board (TTA-15.1)."""
    return card == SHARED_WAR and state.options.get("mode") == "shorter"


def declare_war(state: TTAState, seat: int, card: int, target: int) -> None:
    """Pay, end pacts that end on attack; the war waits in the declarer's play area."""
    civ = state.civs[seat]
    spend_ma(civ, attack_cost(state, card, target))
    civ.mhand.remove(card)
    _end_pacts_on_attack(state, seat, target)
    state.wars.extend((card, seat, target))


def resolve_wars(state: TTAState, seat: int) -> None:
    """TTA-5.2 step 3: the wars ``seat`` declared last turn resolve now."""
    from civtable.games.through_the_ages.rules import events

    w = state.wars
    i = 0
    while i < len(w):
        card, declarer, target = w[i : i + 3]
        if declarer != seat:
            i += 3
            continue
        del w[i : i + 3]
        a, d = strength(state.civs[declarer]), strength(state.civs[target])
        for c in pacts_between(state, declarer, target):
            a += CARDS[c].attack_bonus  # when-attacking bonus (Open Borders)
        _discard_war(state, card, declarer, target)
        if a == d:
            continue  # equal strength: no effect
        winner, loser = (declarer, target) if a > d else (target, declarer)
        events.run_ops(
            state, card, CARDS[card].ops, winner=winner, loser=loser, advantage=abs(a - d)
        )


def _discard_war(state: TTAState, card: int, declarer: int, target: int) -> None:
    """A war resolved or cancelled: its card goes to its age's discards; for the shorter game's
    shared War over Culture, which stays beside the board, the card played to declare it
    (TTA-15.1: "the played card is discarded after resolution")."""
    if _is_shared(state, card):
        wc = state.war_cards
        i = next(i for i in range(0, len(wc), 3) if wc[i + 1] == declarer and wc[i + 2] == target)
        card = wc[i]
        del wc[i : i + 3]
    state.mil_discards[CARDS[card].age].append(card)


# --- pacts (TTA-6.6, TTA-6.7) ----------------------------------------------------------------


def answer_pact(state: TTAState, accept: bool) -> None:
    """The partner accepts (the pact enters play) or refuses (back to the offerer's hand)."""
    card, offerer, partner, side = state.pending[1:5]
    if not accept:
        state.civs[offerer].mhand.append(card)
        return
    # one pact card in one's own play area: a new one cancels the old one (TTA-6.6 step 3)
    p = state.pacts
    for i in range(0, len(p), 4):
        if p[i + 1] == offerer:
            remove_pact(state, p[i])
            break
    a, b = (offerer, partner) if side == 0 else (partner, offerer)
    state.pacts.extend((card, offerer, a, b))
    for seat, s in ((a, 0), (b, 1)):
        civ = state.civs[seat]
        before = board.totals(civ)
        civ.pside.append(card * 2 + s)
        board.sync_totals(civ, before)
    sync_pacts(state)


def remove_pact(state: TTAState, card: int) -> None:
    """A pact leaves play (cancelled, antiquated, replaced, or a party resigned)."""
    p = state.pacts
    for i in range(0, len(p), 4):
        if p[i] != card:
            continue
        _c, _owner, a, b = p[i : i + 4]
        del p[i : i + 4]
        for seat, s in ((a, 0), (b, 1)):
            civ = state.civs[seat]
            before = board.totals(civ)
            civ.pside.remove(card * 2 + s)
            board.sync_totals(civ, before)
        state.mil_discards[CARDS[card].age].append(card)
        sync_pacts(state)
        return


def sync_pacts(state: TTAState) -> None:
    """International Tourism: each side's culture from the partner's completed wonders."""
    for civ in state.civs:
        civ.xculture = 0
    p = state.pacts
    for i in range(0, len(p), 4):
        card, _o, a, b = p[i : i + 4]
        if CARDS[card].id == "international_tourism":
            ca, cb = state.civs[a], state.civs[b]
            ca.xculture = len(cb.wonders) + len(cb.ruins)
            cb.xculture = len(ca.wonders) + len(ca.ruins)


# --- resignation (TTA-6.8) -------------------------------------------------------------------


def resign(state: TTAState, seat: int) -> None:
    """Leave the game: wars against ``seat`` are cancelled (7 culture each declarer), its own
    wars and pacts end, its cards leave play; one player left: the game ends."""
    w = state.wars
    i = 0
    while i < len(w):
        card, declarer, target = w[i : i + 3]
        if target == seat or declarer == seat:
            del w[i : i + 3]
            _discard_war(state, card, declarer, target)
            if target == seat:
                state.civs[declarer].culture += RESIGN_CULTURE
        else:
            i += 3
    p = state.pacts
    for card in [p[i] for i in range(0, len(p), 4) if seat in (p[i + 2], p[i + 3])]:
        remove_pact(state, card)
    civ = state.civs[seat]
    civ.flags |= F_RESIGNED
    to_box(state, civ.mhand)
    to_box(state, civ.hand)
    civ.mhand = []
    civ.hand = []
    left = active_count(state)
    if left <= 1:
        state.over = 1
    else:
        trim_future_decks(state, left)


def trim_future_decks(state: TTAState, players: int) -> None:
    """TTA-6.8 ("future decks trimmed"): the civil and military decks of the ages still to
    come keep the cards of a ``players``-player game (TTA-2.2: the civil cards marked for more
    players and, at two, the pacts leave the game); the current age's decks are untouched."""
    for decks in (state.civil_decks, state.mil_decks):
        for age in range(state.age + 1, 4):
            room = {c: CARDS[c].copies[players - 2] for c in set(decks[age])}
            kept = []
            for c in decks[age]:
                if room[c] > 0:
                    room[c] -= 1
                    kept.append(c)
                else:
                    to_box(state, (c,))
            decks[age] = kept


def describe(state: TTAState, seat: int, action: int) -> str:
    """Labels of the political and sub-decision actions."""
    from civtable.games.through_the_ages.rules import events

    name = _name
    if action < ax.AGGRESS:
        card = CARDS[action - ax.PREPARE]
        return f"prepare {card.name} ({card.type}, Age {('A', 'I', 'II', 'III')[card.age]})"
    if action < ax.WAR:
        c, t = divmod(action - ax.AGGRESS, 4)
        return f"aggression {name(c)} against seat {t} ({attack_cost(state, c, t)} MA)"
    if action < ax.PACT:
        c, t = divmod(action - ax.WAR, 4)
        return f"declare {name(c)} on seat {t} ({attack_cost(state, c, t)} MA)"
    if action < ax.CANCEL:
        c, rest = divmod(action - ax.PACT, 8)
        t, side = divmod(rest, 2)
        if CARDS[c].symmetric:
            return f"offer {name(c)} to seat {t}"
        return f"offer {name(c)} to seat {t}, you as side {'AB'[side]}"
    if action < ax.RESIGN:
        return f"cancel the pact {name(action - ax.CANCEL)}"
    if action == ax.RESIGN:
        return "resign from the game"
    if action == ax.ALEXANDER:
        return "remove Alexander the Great: +1 yellow cube"
    if action < ax.OPTION:
        return f"Christopher Columbus: colonize {name(action - ax.COLUMBUS)} from hand"
    return events.describe(state, seat, action)


def _name(card: int) -> str:
    return CARDS[card].name if 0 <= card < NCARDS else "?"
