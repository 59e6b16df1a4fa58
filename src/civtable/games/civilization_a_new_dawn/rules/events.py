"""The event dial (CIV-20) and barbarians (CIV-21): spawn, movement, stacking, trade."""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    DIRECTION_ORDER,
    EVENT_SECTIONS,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.turn import give_trade_tokens, push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

STACK_ROLLS_MAX = 30  # safety bound on stacking rerolls (never reached in practice)


def advance_dial(state: CivState) -> None:
    """CIV-20.1/20.2: turn the pointer one section and resolve its icon."""
    state.section = (state.section + 1) % len(EVENT_SECTIONS)
    event = EVENT_SECTIONS[state.section]
    C.log(state, "event_dial", section=state.section, icon=event)
    if event == "barbarian_spawn":
        push(state, K.E_SPAWN, state.first)
    elif event == "barbarian_movement":
        push(state, K.E_MOVE, state.first)
    elif event == "trade":
        push(state, K.E_TRADE, state.first)


# --- CIV-21.6 spawn -----------------------------------------------------------------------------
def spawn_space(state: CivState, letter: int) -> int:
    """The spawn point of a barbarian letter, -1 if not on the map (CIV-A40)."""
    for s, sp in enumerate(state.board.spawn):
        if sp == letter:
            return s
    return -1


@K.auto(K.E_SPAWN, "barbarian spawn")
def run_spawn(state: CivState, frame: K.Frame) -> None:
    """Defeated barbarians return unless a city, control token or barbarian blocks (CIV-A10)."""
    for letter, pos in enumerate(state.barb_pos):
        if pos != -1:
            continue
        s = spawn_space(state, letter)
        if s < 0 or state.city[s] >= 0 or state.tok[s] >= 0 or state.barb[s] >= 0:
            continue
        C.destroy_caravans_at(state, s)
        C.set_barbarian(state, s, letter)
        state.barb_pos[letter] = s
        C.log(state, "spawn", barbarian=BARBARIAN_LETTERS[letter], space=s)


# --- CIV-21.2-21.5 movement ---------------------------------------------------------------------
def roll_direction(state: CivState) -> int:
    """CIV-21.2 with the D11 substitute token: die d -> order[(o + d - 1) mod 6]."""
    d = state.rng.randbelow(6) + 1
    return DIRECTION_ORDER[(state.barb_offset + d - 1) % 6]


def _walk(state: CivState, s: int, direction: int) -> int:
    """One step in ``direction`` crossing water; -2 off the map, -1 no land reached."""
    b = state.board
    n = b.neighbours[s][direction]
    while n >= 0 and C.is_water(state, n):
        n = b.neighbours[n][direction]
    return -2 if n < 0 and b.neighbours[s][direction] < 0 else n


def destination(state: CivState, s: int, direction: int) -> int:
    """CIV-21.3: off the map -> opposite direction; water is crossed; no land -> stay (-1)."""
    n = _walk(state, s, direction)
    if n == -2 or n == -1:
        n = _walk(state, s, (direction + 3) % 6)
    return n if n >= 0 else -1


def _petra_blocks(state: CivState, n: int) -> bool:
    """Petra: barbarians cannot enter its controller's cities or reinforced tokens."""
    owner = C.owner_of(state, n)
    if owner < 0 or not C.has_wonder(state, owner, "petra"):
        return False
    return state.city[n] == owner or (state.tok[n] == owner and bool(state.reinf[n]))


def move_barbarian(state: CivState, letter: int, direction: int) -> None:
    """Move one barbarian one space and apply CIV-21.4 to the entered space."""
    s = state.barb_pos[letter]
    n = destination(state, s, direction)
    if n >= 0 and _petra_blocks(state, n) and state.options.get("errata_petra"):
        n = destination(state, s, (direction + 3) % 6)  # errata: the opposite direction instead
    if n < 0 or _petra_blocks(state, n):
        C.log(state, "barbarian_stays", barbarian=BARBARIAN_LETTERS[letter], space=s)
        return
    _leave(state, letter, s)
    C.log(state, "barbarian_move", barbarian=BARBARIAN_LETTERS[letter], space=n, source=s)
    if state.log is not None:
        for p, cv in enumerate(state.caravans):
            for pos in cv:
                if pos == n:
                    C.log(state, "caravan_destroyed", player=p, space=n)
    C.destroy_caravans_at(state, n)
    owner = state.tok[n]
    if owner >= 0 and state.reinf[n]:
        C.log(
            state, "barbarian_blocked", barbarian=BARBARIAN_LETTERS[letter], space=n, victim=owner
        )
        state.reinf[n] = 0  # pushed back (CIV-A22)
        _arrive(state, letter, s)
        return
    _arrive(state, letter, n)
    if owner >= 0:
        C.log(state, "barbarian_token", barbarian=BARBARIAN_LETTERS[letter], space=n, victim=owner)
    cs_here = state.board.city_state[n]
    if owner >= 0:
        C.lift_token(state, n)  # a stand-in's city-state is freed there (CIV-A11)
    c = state.city[n]
    if c >= 0:
        if state.capital[c] == n:
            k = min(2, C.total_trade(state, c))  # CIV-21.4, CIV-A35
            C.log(state, "barbarian_capital", barbarian=BARBARIAN_LETTERS[letter], victim=c, n=k)
            if k:
                push(state, K.D_DISCARD, c, k)
        else:
            C.log(state, "barbarian_city", barbarian=BARBARIAN_LETTERS[letter], space=n, victim=c)
            C.remove_city(state, n)
            w = state.wtok[n]
            if w >= 0:
                state.wonder_owner[w] = -1  # CIV-19.3, CIV-A12
            if cs_here >= 0 and state.cs_owner[cs_here] == c:
                C.reset_city_state(state, cs_here)  # CIV-A11


def remove_barbarian(state: CivState, letter: int) -> None:
    """A defeated barbarian leaves the map and waits to respawn (CIV-15.1)."""
    s = state.barb_pos[letter]
    if s >= 0:
        _leave(state, letter, s)
    state.barb_pos[letter] = -1


def _leave(state: CivState, letter: int, s: int) -> None:
    others = [i for i, p in enumerate(state.barb_pos) if p == s and i != letter]
    C.set_barbarian(state, s, others[0] if others else -1)


def _arrive(state: CivState, letter: int, n: int) -> None:
    state.barb_pos[letter] = n
    if state.barb[n] < 0:
        C.set_barbarian(state, n, letter)


@K.auto(K.E_MOVE, "barbarian movement")
def run_move(state: CivState, frame: K.Frame) -> None:
    """All barbarians move one space in the rolled direction, alphabetically (CIV-A52)."""
    direction = roll_direction(state)
    C.log(state, "barbarian_direction", direction=direction)
    push(state, K.E_STACK, state.first, 0)
    for letter, pos in enumerate(state.barb_pos):
        if pos >= 0:
            move_barbarian(state, letter, direction)


def stacked(state: CivState) -> list[int]:
    """Barbarians sharing a space with another barbarian."""
    out = []
    for letter, pos in enumerate(state.barb_pos):
        if pos >= 0 and sum(1 for p in state.barb_pos if p == pos) >= 2:
            out.append(letter)
    return out


@K.auto(K.E_STACK, "barbarian stacking")
def run_stack(state: CivState, frame: K.Frame) -> None:
    """CIV-21.5: roll and move one barbarian of a stack (chosen by the first player)."""
    if frame[2] >= STACK_ROLLS_MAX:
        return
    group = stacked(state)
    if not group:
        return
    direction = roll_direction(state)
    push(state, K.E_STACK, frame[1], frame[2] + 1)
    push(state, K.D_STACKPICK, state.first, direction)


@K.decision(K.D_STACKPICK, "choose the stacked barbarian to move")
def legal_stackpick(state: CivState, frame: K.Frame) -> list[int]:
    """Any barbarian of a stack (CIV-A24)."""
    return [A.BARB + b for b in stacked(state)]


@K.applies(K.D_STACKPICK)
def apply_stackpick(state: CivState, frame: K.Frame, action: int) -> None:
    """Move it in the rolled direction."""
    state.pending.pop()
    move_barbarian(state, action - A.BARB, frame[2])


@K.decision(K.D_DISCARD, "barbarians at your capital: discard a trade token")
def legal_discard(state: CivState, frame: K.Frame) -> list[int]:
    """Cards holding trade tokens."""
    if frame[2] <= 0:
        return []
    return [A.TYPE + t for t in range(5) if state.trade[frame[1]][t] > 0]


@K.applies(K.D_DISCARD)
def apply_discard(state: CivState, frame: K.Frame, action: int) -> None:
    """Discard it."""
    if state.log is not None:
        C.log(state, "discard", seat=frame[1], card=C.card_at(state, frame[1], action - A.TYPE))
    state.trade[frame[1]][action - A.TYPE] -= 1
    frame[2] -= 1
    if frame[2] <= 0:
        state.pending.pop()


# --- CIV-20.3 trade -----------------------------------------------------------------------------
@K.auto(K.E_TRADE, "trade event")
def run_trade(state: CivState, frame: K.Frame) -> None:
    """1 token per mature city; players place clockwise from the first player (CIV-A38)."""
    order = [(state.first + i) % state.players for i in range(state.players)]
    if state.log is not None:
        for seat in order:
            C.log(state, "trade_event", seat=seat, n=len(C.mature_cities(state, seat)))
    for seat in reversed(order):
        give_trade_tokens(state, seat, len(C.mature_cities(state, seat)))
