"""The turn (CIV-5): start, choose a card, declare trade tokens, resolve, reset, next player.

:func:`advance` runs automatic frames until a decision with at least one legal action is on top
(or the game is over); :func:`apply` answers the top decision. Card effects are resolved by
pushing one ``S_STEP`` frame per decoded step (``catalog.Step``); :data:`OPS` maps each effect op
of the vocabulary to its named rule function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from civtable.core.errors import IllegalActionError
from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    CARD_INDEX,
    CITY_STATES,
    CULTURE,
    ECONOMY,
    FOCUS_CARDS,
    INDUSTRY,
    MILITARY,
    NATURAL_WONDERS,
    PLAYER_CARD_NAMES,
    RESOURCES,
    SCIENCE,
    TRADE_TOKEN_EFFECT,
    TYPES,
    WONDER_TYPES,
    WONDERS,
    Step,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import victory

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

OpFn = Callable[["CivState", int, int, int, Step, int], None]
#: effect op -> rule function(state, seat, card, slot, step, bonus); filled by the op modules
OPS: dict[str, OpFn] = {}


def op(name: str) -> Callable[[OpFn], OpFn]:
    """Register the rule function implementing effect op ``name``."""

    def deco(fn: OpFn) -> OpFn:
        OPS[name] = fn
        return fn

    return deco


def push(state: CivState, *frame: int) -> None:
    """Push a frame."""
    state.pending.append(list(frame))


#: automatic frames that may change the map or a player (agendas are checked after them)
CHANGING = frozenset({K.S_STEP, K.C_RESOLVE, K.E_SPAWN, K.E_MOVE, K.E_STACK, K.E_TRADE})


# --- engine -------------------------------------------------------------------------------------
def advance(state: CivState) -> None:
    """Run automatic frames until a decision with a legal action is on top."""
    auto, decisions, changing, check = K.AUTO, K.DECISIONS, CHANGING, victory.check_agendas
    done = A.DONE
    while not state.over:
        pending = state.pending
        if not pending:
            push(state, K.T_START, state.current)
        frame = pending[-1]
        kind = frame[0]
        if kind < 100:
            pending.pop()
            auto[kind](state, frame)
            if kind in changing:
                check(state)
            continue
        legal_fn, apply_fn = decisions[kind]
        acts = legal_fn(state, frame)
        if not acts:
            pending.pop()
            continue
        if len(acts) == 1 and acts[0] == done:  # the only answer: take it (e.g. a caravan
            apply_fn(state, frame, done)  # that must stop, CIV-10.6)
            check(state)
            continue
        state._legal = {frame[1]: acts}
        return
    state.pending.clear()
    state._legal = {}


def legal(state: CivState, seat: int) -> list[int]:
    """Legal actions of ``seat`` for the top decision."""
    if state.over or not state.pending:
        return []
    frame = state.pending[-1]
    if frame[1] != seat or frame[0] < 100:
        return []
    return K.DECISIONS[frame[0]][0](state, frame)


def apply(state: CivState, seat: int, action: int) -> None:
    """Answer the top decision (already validated as legal) and advance."""
    frame = state.pending[-1]
    if frame[1] != seat:  # pragma: no cover - guarded by State.apply
        raise IllegalActionError("not this seat's decision", seat=seat, action=action)
    K.DECISIONS[frame[0]][1](state, frame, action)
    victory.check_agendas(state)
    advance(state)


def describe_action(state: CivState, seat: int, action: int) -> str:
    """Readable label for an action of the current decision."""
    frame = state.pending[-1] if state.pending else [0, seat]
    fn = K.DESCRIBE.get(frame[0])
    if fn is not None:
        return fn(state, frame, action)
    return generic_label(state, action)


def describe_actions(state: CivState, seat: int, actions: list[int]) -> list[str]:
    """:func:`describe_action` of each action of ``actions``, in order."""
    frame = state.pending[-1] if state.pending else [0, seat]
    fn = K.DESCRIBE.get(frame[0])
    if fn is not None:
        return [fn(state, frame, a) for a in actions]
    labels = space_labels(state)
    sp = A.SPACE
    return [labels[a - sp] if a >= sp else generic_label(state, a) for a in actions]


def space_labels(state: CivState) -> tuple[str, ...]:
    """:func:`generic_label` of every space action, by space: made once per map (its
    coordinates, an immutable tuple, kept with them) and shared."""
    coords = state.board.coords
    last = _SPACE_LABELS
    if last[0] is not coords:
        last[0] = coords
        last[1] = tuple(f"space ({q},{r})" for q, r in coords)
    labels: tuple[str, ...] = last[1]
    return labels


#: the coordinates the last :func:`space_labels` call read and its labels
_SPACE_LABELS: list[Any] = [None, ()]


def place_label(state: CivState, seat: int, k: int) -> str:
    """ "science card" for the card holding place ``k``; its name too in an Oxford row."""
    card = state.place[seat][k]
    t = FOCUS_CARDS[card].type
    if t == k:
        return f"{TYPES[t]} card"
    return f"{TYPES[t]} card ({FOCUS_CARDS[card].name})"


def generic_label(state: CivState, action: int) -> str:
    """Label from the action range alone."""
    if action >= A.SPACE:  # the most common label first
        q, r = state.board.coords[action - A.SPACE]
        return f"space ({q},{r})"
    if action == A.DONE:
        return "done / skip"
    if action < A.TYPE:
        return f"option {action - A.OPT + 1}"
    if action < A.SLOT:
        if state.pending:
            return place_label(state, state.pending[-1][1], action - A.TYPE)
        return f"{TYPES[action - A.TYPE]} card"
    if action < A.RES:
        return f"slot {action - A.SLOT + 1}"
    if action < A.CARD:
        return RESOURCES[action - A.RES]
    if action < A.NW:
        return FOCUS_CARDS[action - A.CARD].name
    if action < A.WDECK:
        return NATURAL_WONDERS[action - A.NW].name
    if action < A.CSC:
        t = action - A.WDECK
        top = state.wdecks[t][0] if state.wdecks[t] else -1
        return f"{WONDER_TYPES[t]} wonder" + (f" {WONDERS[top].name}" if top >= 0 else "")
    if action < A.PCARD:
        return f"{CITY_STATES[action - A.CSC].name} card"
    if action < A.BARB:
        return f"{PLAYER_CARD_NAMES[action - A.PCARD]} card"
    return f"barbarian {BARBARIAN_LETTERS[action - A.BARB]}"


# --- CIV-5.2 / CIV-5.4 turn start ---------------------------------------------------------------
@K.auto(K.T_START, "turn start")
def run_turn_start(state: CivState, frame: K.Frame) -> None:
    """CIV-5.2: before the first player's turns: victory check, then the event dial."""
    seat = frame[1]
    state.taken = []
    state.arrived = []
    state.nw_used = []
    state.turn_flags = 0
    push(state, K.D_CHOOSE, seat)
    push(state, K.D_START, seat)
    if seat == state.first:
        state.fp_turns += 1
        if state.fp_turns >= 2:
            if victory.win_check(state):  # CIV-22.3, CIV-A1: victory first
                return
            limit = int(state.options.get("turn_limit") or 0)
            if limit and state.fp_turns > limit:
                victory.end_unfinished(state)
                return
            _events().advance_dial(state)  # CIV-20.1


def _events() -> Any:
    """The events module (imported on first use: it imports this module)."""
    if _EVENTS[0] is None:
        from civtable.games.civilization_a_new_dawn.rules import events

        _EVENTS[0] = events
    return _EVENTS[0]


#: the events module, once imported
_EVENTS: list[Any] = [None]


@K.auto(K.T_END, "turn end")
def run_turn_end(state: CivState, frame: K.Frame) -> None:
    """CIV-5.3: the turn passes clockwise."""
    state.current = (frame[1] + 1) % state.players
    push(state, K.T_START, state.current)


# --- CIV-5.3 step 1: choose ---------------------------------------------------------------------
@K.decision(K.D_CHOOSE, "choose a focus card")
def legal_choose(state: CivState, frame: K.Frame) -> list[int]:
    """Any of the five slots (CIV-5.3)."""
    return [A.SLOT + k for k in range(5)]


@K.applies(K.D_CHOOSE)
def apply_choose(state: CivState, frame: K.Frame, action: int) -> None:
    """Resolve the chosen card at its slot's strength, then reset it (CIV-5.3)."""
    seat = frame[1]
    state.pending.pop()
    k = action - A.SLOT + 1
    card = state.row[seat][k - 1]
    place = C.place_of(state, seat, card)  # stable while the card may be replaced (CIV-9.6)
    push(state, K.T_END, seat)
    push(state, K.T_AFTER_CARD, seat, card, k, place)
    push(state, K.T_RESET, seat, place)
    resolve_card(state, seat, card, effective_slot(state, seat, k))
    if maracana_offer(state, seat, FOCUS_CARDS[card].type, before=True):
        push(state, K.D_SWAP1, seat, 1)  # errata: resolve and reset economy first


def maracana_offer(state: CivState, seat: int, t: int, before: bool) -> bool:
    """Estádio do Maracanã: may resolve and reset the economy card (printed: after; errata:
    before) a non-economy card, once per turn."""
    if t == ECONOMY or state.turn_flags & C.F_MARACANA_USED:
        return False
    if C.place_of_type(state, seat, ECONOMY) < 0:  # an Oxford row without an economy card
        return False
    if bool(state.options.get("errata_maracana")) != before:
        return False
    if not C.has_wonder(state, seat, "estadio_do_maracana"):
        return False
    state.turn_flags |= C.F_MARACANA_USED
    return True


def effective_slot(state: CivState, seat: int, k: int) -> int:
    """Machu Picchu: slots 1-2 resolve two slots farther right (CIV-6.5 cap 5)."""
    if k <= 2 and C.has_wonder(state, seat, "machu_picchu"):
        return min(5, k + 2)
    return k


def resolve_card(state: CivState, seat: int, card: int, slot: int) -> None:
    """Push the resolution of ``card`` at strength ``slot``."""
    C.log(state, "resolve", seat=seat, card=FOCUS_CARDS[card].id, slot=slot)
    push(state, K.R_BEGIN, seat, card, slot)


@K.auto(K.R_BEGIN, "resolve begin")
def run_begin(state: CivState, frame: K.Frame) -> None:
    """CIV-7.3 / CIV-A18: declare trade tokens first (not for military)."""
    seat, card, slot = frame[1], frame[2], frame[3]
    t = FOCUS_CARDS[card].type
    k = C.place_of(state, seat, card)  # the tokens on this card (CIV-7.3)
    avail = state.trade[seat][k] + C.extra_tokens(state, seat, k)
    if t != MILITARY and avail > 0:
        push(state, K.D_SPEND, seat, card, slot, avail)
    else:
        push(state, K.R_STEPS, seat, card, slot, 0)


@K.decision(K.D_SPEND, "declare trade tokens")
def legal_spend(state: CivState, frame: K.Frame) -> list[int]:
    """0..available tokens (OPT + k = k tokens; DONE = none)."""
    return [A.DONE] + [A.OPT + k - 1 for k in range(1, frame[4] + 1)]


@K.applies(K.D_SPEND)
def apply_spend(state: CivState, frame: K.Frame, action: int) -> None:
    """Spend k tokens: city-state tokens first (kept, CIV-7.6), then trade tokens (lost)."""
    seat, card, slot = frame[1], frame[2], frame[3]
    state.pending.pop()
    k = 0 if action == A.DONE else action - A.OPT + 1
    if k and state.log is not None:
        C.log(state, "spend", seat=seat, card=FOCUS_CARDS[card].id, n=k)
    push(state, K.R_STEPS, seat, card, slot, k)
    spend(state, seat, C.place_of(state, seat, card), k)  # America's re-placement first


def spend(state: CivState, seat: int, t: int, k: int) -> None:
    """Spend ``k`` tokens from the seat's card holding place ``t`` (normally of type ``t``)."""
    for cs in C.usable_cs_tokens(state, seat, t):
        if k == 0:
            break
        state.nw_used.append(100 + cs)
        k -= 1
    for n in C.usable_nw_tokens(state, seat, t):  # America: kept, placed again
        if k == 0:
            break
        state.nw_used.append(n)
        C.america_gains(state, seat, n)
        k -= 1
    state.trade[seat][t] -= k


@K.decision(K.D_AMERICA, "America: focus card for the natural-wonder token")
def legal_america(state: CivState, frame: K.Frame) -> list[int]:
    """Any card of the row."""
    if frame[2] not in state.nw_held[frame[1]]:
        return []
    return [A.TYPE + t for t in range(5)]


@K.applies(K.D_AMERICA)
def apply_america(state: CivState, frame: K.Frame, action: int) -> None:
    """Put it there."""
    state.pending.pop()
    state.nw_card[frame[2]] = action - A.TYPE
    if state.log is not None:
        from civtable.games.civilization_a_new_dawn.catalog import NATURAL_WONDERS

        nid, card = NATURAL_WONDERS[frame[2]].id, C.card_at(state, frame[1], action - A.TYPE)
        C.log(state, "america", seat=frame[1], natural_wonder=nid, card=card)


def _spend_describe(state: CivState, frame: K.Frame, action: int) -> str:
    k = 0 if action == A.DONE else action - A.OPT + 1
    t = FOCUS_CARDS[frame[2]].type
    return f"spend {k} trade token(s) ({TRADE_TOKEN_EFFECT[t]})"


K.DESCRIBE[K.D_SPEND] = _spend_describe


@K.auto(K.R_STEPS, "resolve steps")
def run_steps(state: CivState, frame: K.Frame) -> None:
    """Push the card's steps for this slot (a sequence, or the choice of one option)."""
    seat, card, slot, spent = frame[1], frame[2], frame[3], frame[4]
    eff = FOCUS_CARDS[card].effects[slot - 1]
    if eff.choose_one:
        push(state, K.D_MODE, seat, card, slot, spent)
        return
    for i in range(len(eff.steps) - 1, -1, -1):
        push(state, K.S_STEP, seat, card, slot, i, spent if i == 0 else 0)
    if FOCUS_CARDS[card].type == SCIENCE and spent and len(eff.steps) > 1:
        # the science token bonus applies to the dial advance, whichever step it is
        for f in state.pending[-len(eff.steps) :]:
            st = eff.steps[f[4]]
            f[5] = spent if st.op == "advance_tech_dial" else 0


@K.auto(K.S_STEP, "card step")
def run_step(state: CivState, frame: K.Frame) -> None:
    """Run the named rule function of one decoded step."""
    seat, card, slot, i, bonus = frame[1], frame[2], frame[3], frame[4], frame[5]
    step = FOCUS_CARDS[card].effects[slot - 1].steps[i]
    OPS[step.op](state, seat, card, slot, step, bonus)


@K.decision(K.D_MODE, "choose the card's option")
def legal_mode(state: CivState, frame: K.Frame) -> list[int]:
    """Feasible options of a choose-one card (industry: city or wonder; military)."""
    seat, card, slot, spent = frame[1], frame[2], frame[3], frame[4]
    eff = FOCUS_CARDS[card].effects[slot - 1]
    out = []
    for i, st in enumerate(eff.steps):
        if FEASIBLE.get(st.op, _always)(state, seat, card, slot, st, spent):
            out.append(A.OPT + i)
    if FOCUS_CARDS[card].type == MILITARY or not out:
        out.insert(0, A.DONE)  # reinforce/attack are "up to" (CIV-0.5)
    return out


@K.applies(K.D_MODE)
def apply_mode(state: CivState, frame: K.Frame, action: int) -> None:
    """Run the chosen option."""
    seat, card, slot, spent = frame[1], frame[2], frame[3], frame[4]
    state.pending.pop()
    if action == A.DONE:
        return
    i = action - A.OPT
    step = FOCUS_CARDS[card].effects[slot - 1].steps[i]
    OPS[step.op](state, seat, card, slot, step, spent)


def _mode_describe(state: CivState, frame: K.Frame, action: int) -> str:
    if action == A.DONE:
        return "do nothing"
    step = FOCUS_CARDS[frame[2]].effects[frame[3] - 1].steps[action - A.OPT]
    return step.op.replace("_", " ")


K.DESCRIBE[K.D_MODE] = _mode_describe

FeasibleFn = Callable[["CivState", int, int, int, Step, int], bool]
FEASIBLE: dict[str, FeasibleFn] = {}


def _always(state: CivState, seat: int, card: int, slot: int, step: Step, spent: int) -> bool:
    return True


# --- CIV-5.3 step 3: reset ----------------------------------------------------------------------
def reset(state: CivState, seat: int, place: int) -> None:
    """Move the card holding ``place`` (normally the card of that type) to slot 1; cards to its
    left slide right (CIV-5.3, CIV-A2)."""
    row = state.row[seat]
    row.insert(0, row.pop(row.index(state.place[seat][place])))


@K.auto(K.T_RESET, "reset")
def run_reset(state: CivState, frame: K.Frame) -> None:
    """Reset the resolved card (its new card if replaced mid-resolution, CIV-A46)."""
    seat, t = frame[1], frame[2]
    reset(state, seat, t)
    if state.turn_flags & C.F_CAPITALISM and not state.turn_flags & C.F_CAPITALISM_USED:
        state.turn_flags &= ~C.F_CAPITALISM
        push(state, K.D_CAPITALISM, seat)


@K.auto(K.T_AFTER_CARD, "after the card")
def run_after_card(state: CivState, frame: K.Frame) -> None:
    """Triggered wonders and leader abilities after a card was resolved and reset.

    ``[T_AFTER_CARD, seat, card, slot, place]``: ``card`` is the card chosen (its type decides
    the Aztec and Maracanã triggers); it may have been replaced while resolving (a tech upgrade,
    Pyramids, Porcelain Tower; Oxford University even by another type), in which case the new
    card holds its ``place`` and stands in for it, as for the reset (CIV-9.6, CIV-A46, CIV-7.5).
    """
    seat, card, k = frame[1], frame[2], frame[3]
    t = FOCUS_CARDS[card].type
    if len(frame) > 4:
        place = frame[4]
    else:  # a frame saved before the place was recorded
        place = C.place_of(state, seat, card) if card in state.place[seat] else -1
    if t == MILITARY and state.turn_flags & C.F_WON_ATTACK and C.is_leader(state, seat, "aztec"):
        push(state, K.D_SWAP1, seat)  # Aztec, Legend of the Five Suns
    if (
        k == 5
        and place >= 0
        and C.has_wonder(state, seat, "venetian_arsenal")
        and not state.turn_flags & C.F_VENETIAN_USED
    ):
        state.turn_flags |= C.F_VENETIAN_USED  # you may resolve it again as though in slot 1
        push(state, K.D_SWAP1, seat, 2, place)  # a replaced card: its successor (CIV-9.6)
    if maracana_offer(state, seat, t, before=False):
        push(state, K.D_SWAP1, seat, 1)  # frame flag 1: Maracanã offer (see below)


# --- Capitalism (D6.3): resolve another card as though in slot 1 --------------------------------
@K.decision(K.D_CAPITALISM, "Capitalism: resolve another card from slot 1")
def legal_capitalism(state: CivState, frame: K.Frame) -> list[int]:
    """D6.3 "another card in your focus row" (by its place, normally its type), or decline."""
    pl = state.place[frame[1]]
    return [A.DONE] + [A.TYPE + k for k in range(5) if pl[k] != CARD_INDEX["capitalism"]]


@K.applies(K.D_CAPITALISM)
def apply_capitalism(state: CivState, frame: K.Frame, action: int) -> None:
    """Resolve that card as slot 1 without resetting it."""
    seat = frame[1]
    state.pending.pop()
    state.turn_flags |= C.F_CAPITALISM_USED
    if action == A.DONE:
        return
    resolve_card(state, seat, state.place[seat][action - A.TYPE], 1)


# --- Aztec swap and Maracanã offer (shared two-step frame) --------------------------------------
@K.decision(K.D_SWAP1, "swap / extra resolution")
def legal_swap1(state: CivState, frame: K.Frame) -> list[int]:
    """Aztec: first slot to swap (or skip); Maracanã (1) / Venetian Arsenal (2): yes or no."""
    if len(frame) > 2 and frame[2] in (1, 2):
        return [A.DONE, A.OPT]
    return [A.DONE] + [A.SLOT + k for k in range(5)]


@K.applies(K.D_SWAP1)
def apply_swap1(state: CivState, frame: K.Frame, action: int) -> None:
    """Continue the swap, or resolve and reset the economy card (Maracanã)."""
    seat = frame[1]
    state.pending.pop()
    if action == A.DONE:
        return
    if len(frame) > 2 and frame[2] == 2:  # Venetian Arsenal
        resolve_card(state, seat, state.place[seat][frame[3]], 1)
        return
    if len(frame) > 2 and frame[2] == 1:
        card = C.card_in_row(state, seat, ECONOMY)
        if card < 0:
            return
        k = state.row[seat].index(card) + 1
        push(state, K.T_RESET, seat, C.place_of(state, seat, card))
        resolve_card(state, seat, card, effective_slot(state, seat, k))
        return
    push(state, K.D_SWAP2, seat, action - A.SLOT)


@K.decision(K.D_SWAP2, "swap with")
def legal_swap2(state: CivState, frame: K.Frame) -> list[int]:
    """The second slot."""
    return [A.SLOT + k for k in range(5) if k != frame[2]]


@K.applies(K.D_SWAP2)
def apply_swap2(state: CivState, frame: K.Frame, action: int) -> None:
    """Swap the two cards."""
    seat, i = frame[1], frame[2]
    state.pending.pop()
    j = action - A.SLOT
    row = state.row[seat]
    row[i], row[j] = row[j], row[i]
    if state.log is not None:
        C.log(state, "swap", seat=seat, a=FOCUS_CARDS[row[j]].id, b=FOCUS_CARDS[row[i]].id)


# --- trade tokens onto own cards (CIV-7.2) ------------------------------------------------------
@K.decision(K.D_TRADE_TOKEN, "place a trade token")
def legal_trade_token(state: CivState, frame: K.Frame) -> list[int]:
    """Cards below the cap; none left -> the tokens are lost."""
    seat = frame[1]
    if frame[2] <= 0:
        return []
    out = [A.TYPE + t for t in range(5) if state.trade[seat][t] < 3]
    if C.has_wonder(state, seat, "great_zimbabwe") and state.gz < gz_cap():
        out.insert(0, GZ)  # Great Zimbabwe: tokens may go on the wonder card
    return out


GZ = A.OPT + 9  # "onto the Great Zimbabwe card"


def _trade_describe(state: CivState, frame: K.Frame, action: int) -> str:
    if action == GZ:
        return "trade token onto Great Zimbabwe"
    return f"trade token onto your {place_label(state, frame[1], action - A.TYPE)}"


K.DESCRIBE[K.D_TRADE_TOKEN] = _trade_describe


def gz_cap() -> int:
    """Great Zimbabwe's capacity (data)."""
    from civtable.games.civilization_a_new_dawn.catalog import WONDERS

    return int(WONDERS[C.W["great_zimbabwe"]].params.get("max_tokens_on_card", 4))


@K.applies(K.D_TRADE_TOKEN)
def apply_trade_token(state: CivState, frame: K.Frame, action: int) -> None:
    """One token onto that card."""
    seat = frame[1]
    if action == GZ:
        state.gz += 1
        if state.log is not None:
            C.log(state, "trade_token", seat=seat, wonder="great_zimbabwe")
    else:
        C.add_trade(state, seat, action - A.TYPE)
        if state.log is not None:
            C.log(state, "trade_token", seat=seat, card=C.card_at(state, seat, action - A.TYPE))
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()


def give_trade_tokens(state: CivState, seat: int, n: int) -> None:
    """Push the placement of ``n`` trade tokens from the supply."""
    if n > 0:
        push(state, K.D_TRADE_TOKEN, seat, n)


# --- resources of your choice -------------------------------------------------------------------
@K.decision(K.D_GAIN_RES, "gain a resource")
def legal_gain_res(state: CivState, frame: K.Frame) -> list[int]:
    """Types left in the supply (restriction 1: a type you have none of)."""
    seat, restrict = frame[1], frame[3]
    return [
        A.RES + r
        for r in range(4)
        if state.res_supply[r] > 0 and (not restrict or state.resources[seat][r] == 0)
    ]


@K.applies(K.D_GAIN_RES)
def apply_gain_res(state: CivState, frame: K.Frame, action: int) -> None:
    """Take it (CIV-18.4)."""
    C.gain_resource(state, frame[1], action - A.RES)
    if state.log is not None:
        C.log(state, "resource", seat=frame[1], resource=action - A.RES)
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()


TYPE_NAMES = TYPES
_ = (CULTURE, INDUSTRY)
