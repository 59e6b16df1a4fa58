"""Start-of-turn effects (CIV-5.4, CIV-A44): optional, in the order the player chooses.

Implemented: Hanging Gardens, Forbidden City, Oracle, Eiffel Tower, Great Zimbabwe (wonders) and
the Seoul and Geneva diplomacy cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import PLAYER_CARDS, WONDERS
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import culture
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.turn import push

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

HANGING, FORBIDDEN, ORACLE, SEOUL, GENEVA, EIFFEL, ZIMBABWE = range(7)
_FLAGS = (
    C.F_START_HG,
    C.F_START_FC,
    C.F_START_ORACLE,
    C.F_START_SEOUL,
    C.F_START_GENEVA,
    C.F_START_EIFFEL,
    C.F_START_GZ,
)
LABELS = (
    "Hanging Gardens: place 1 control token",
    "Forbidden City: destroy a rival control token",
    "Oracle: swap 2 adjacent focus cards",
    "Seoul: move a barbarian",
    "Geneva: exchange a diplomacy card taken from a player",
    "Eiffel Tower: a rival replaces one of two tokens with yours",
    "Great Zimbabwe: move trade tokens to focus cards",
)
NP = len(PLAYER_CARDS)


def _hg_frame(seat: int) -> K.Frame:
    p = WONDERS[C.W["hanging_gardens"]].params
    return [
        K.D_PLACE,
        seat,
        1,
        int(p.get("max_difficulty", 4)),
        culture.ADJ_CITY,
        1,
        -1,
        C.CTX_PLACE,
    ]


def forbidden_targets(state: CivState, seat: int) -> list[int]:
    """Rival control tokens adjacent to a friendly space."""
    b = state.board
    out = set()
    for s in range(b.size):
        if C.friendly(state, seat, s):
            for n in b.adjacent[s]:
                if state.tok[n] >= 0 and state.tok[n] != seat:
                    out.add(n)
    return sorted(out)


def seoul_moves(state: CivState) -> list[tuple[int, int]]:
    """(barbarian letter, destination) pairs: adjacent empty non-water spaces."""
    out = []
    for letter, pos in enumerate(state.barb_pos):
        if pos < 0:
            continue
        for n in state.board.adjacent[pos]:
            if not C.is_water(state, n) and C.empty(state, n):
                out.append((letter, n))
    return out


def available(state: CivState, seat: int) -> list[int]:
    """Start-of-turn effects the seat may still use this turn."""
    out: list[int] = []
    if seat not in state.wonder_owner and not state.cs_cards[seat]:
        return out  # every effect needs a world wonder or a city-state's diplomacy card
    f = state.turn_flags
    if (
        not f & C.F_START_HG
        and C.has_wonder(state, seat, "hanging_gardens")
        and state.supply[seat] > 0
        and culture.place_targets(state, seat, _hg_frame(seat))
    ):
        out.append(HANGING)
    if (
        not f & C.F_START_FC
        and C.has_wonder(state, seat, "forbidden_city")
        and forbidden_targets(state, seat)
    ):
        out.append(FORBIDDEN)
    if not f & C.F_START_ORACLE and C.has_wonder(state, seat, "oracle"):
        out.append(ORACLE)
    if not f & C.F_START_SEOUL and C.holds_cs_card(state, seat, "seoul") and seoul_moves(state):
        out.append(SEOUL)
    if (
        not f & C.F_START_GENEVA
        and C.holds_cs_card(state, seat, "geneva")
        and geneva_returns(state, seat)
    ):
        out.append(GENEVA)
    if (
        not f & C.F_START_EIFFEL
        and C.has_wonder(state, seat, "eiffel_tower")
        and state.supply[seat] > 0
        and eiffel_first(state, seat)
    ):
        out.append(EIFFEL)
    if (
        not f & C.F_START_GZ
        and state.gz > 0
        and C.has_wonder(state, seat, "great_zimbabwe")
        and min(state.trade[seat]) < 3
    ):
        out.append(ZIMBABWE)
    return out


@K.decision(K.D_START, "start-of-turn effects")
def legal_start(state: CivState, frame: K.Frame) -> list[int]:
    """Available effects, or go on to choosing a card."""
    opts = available(state, frame[1])
    return [A.DONE] + [A.OPT + k for k in opts] if opts else []


@K.applies(K.D_START)
def apply_start(state: CivState, frame: K.Frame, action: int) -> None:
    """Use one effect (the frame stays for the others)."""
    seat = frame[1]
    if action == A.DONE:
        state.pending.pop()
        return
    k = action - A.OPT
    state.turn_flags |= _FLAGS[k]
    C.log(state, "start_effect", seat=seat, effect=k)
    if k == HANGING:
        state.pending.append(_hg_frame(seat))
    elif k == FORBIDDEN:
        push(state, K.D_FC, seat)
    elif k == ORACLE:
        push(state, K.D_ORACLE, seat)
    elif k == SEOUL:
        push(state, K.D_SEOUL_FROM, seat)
    elif k == GENEVA:
        push(state, K.D_GENEVA_RET, seat)
    elif k == EIFFEL:
        push(state, K.D_EIFFEL1, seat)
    else:
        push(state, K.D_GZ_MOVE, seat)


def _start_describe(state: CivState, frame: K.Frame, action: int) -> str:
    return "go on to choose a focus card" if action == A.DONE else LABELS[action - A.OPT]


K.DESCRIBE[K.D_START] = _start_describe


@K.decision(K.D_FC, "Forbidden City: rival token to destroy")
def legal_fc(state: CivState, frame: K.Frame) -> list[int]:
    """Rival tokens adjacent to a friendly space."""
    return [A.SPACE + s for s in forbidden_targets(state, frame[1])]


@K.applies(K.D_FC)
def apply_fc(state: CivState, frame: K.Frame, action: int) -> None:
    """Destroy it (back to its owner's supply)."""
    state.pending.pop()
    s = action - A.SPACE
    C.log(state, "destroy_token", seat=frame[1], space=s, victim=state.tok[s])
    C.lift_token(state, s)  # a stand-in's city-state is freed (CIV-A11)


@K.decision(K.D_ORACLE, "Oracle: swap two adjacent cards")
def legal_oracle(state: CivState, frame: K.Frame) -> list[int]:
    """OPT + i swaps slots i+1 and i+2."""
    return [A.OPT + i for i in range(4)]


@K.applies(K.D_ORACLE)
def apply_oracle(state: CivState, frame: K.Frame, action: int) -> None:
    """Swap them."""
    state.pending.pop()
    i = action - A.OPT
    row = state.row[frame[1]]
    row[i], row[i + 1] = row[i + 1], row[i]
    if state.log is not None:
        from civtable.games.civilization_a_new_dawn.catalog import FOCUS_CARDS as FC

        C.log(state, "swap", seat=frame[1], a=FC[row[i + 1]].id, b=FC[row[i]].id)


@K.decision(K.D_SEOUL_FROM, "Seoul: barbarian to move")
def legal_seoul_from(state: CivState, frame: K.Frame) -> list[int]:
    """Barbarians with an adjacent empty non-water space."""
    return sorted({A.BARB + b for b, _ in seoul_moves(state)})


@K.applies(K.D_SEOUL_FROM)
def apply_seoul_from(state: CivState, frame: K.Frame, action: int) -> None:
    """Choose the destination next."""
    state.pending.pop()
    push(state, K.D_SEOUL_TO, frame[1], action - A.BARB)


@K.decision(K.D_SEOUL_TO, "Seoul: destination")
def legal_seoul_to(state: CivState, frame: K.Frame) -> list[int]:
    """Adjacent empty non-water spaces."""
    return sorted(A.SPACE + n for b, n in seoul_moves(state) if b == frame[2])


@K.applies(K.D_SEOUL_TO)
def apply_seoul_to(state: CivState, frame: K.Frame, action: int) -> None:
    """Move it (an empty space: nothing happens there)."""
    from civtable.games.civilization_a_new_dawn.rules.events import _arrive, _leave

    state.pending.pop()
    letter = frame[2]
    if state.log is not None:
        from civtable.games.civilization_a_new_dawn.catalog import BARBARIAN_LETTERS as BL

        src, dst = state.barb_pos[letter], action - A.SPACE
        C.log(state, "seoul", seat=frame[1], barbarian=BL[letter], source=src, space=dst)
    _leave(state, letter, state.barb_pos[letter])
    _arrive(state, letter, action - A.SPACE)


# --- Geneva (D3): return a card taken from a player and take a different one -------------------
def geneva_returns(state: CivState, seat: int) -> list[int]:
    """Held player cards (CARD + giver * 4 + kind) whose giver has another card available."""
    out: list[int] = []
    for g in range(state.players):
        holder = state.pcard_holder[g]
        if g == seat or -1 not in holder:
            continue
        out.extend(A.CARD + g * NP + k for k, h in enumerate(holder) if h == seat)
    return out


@K.decision(K.D_GENEVA_RET, "Geneva: card to return")
def legal_geneva_ret(state: CivState, frame: K.Frame) -> list[int]:
    """Returnable cards."""
    return geneva_returns(state, frame[1])


@K.applies(K.D_GENEVA_RET)
def apply_geneva_ret(state: CivState, frame: K.Frame, action: int) -> None:
    """Return it to its giver; choose the new card next."""
    state.pending.pop()
    g, k = divmod(action - A.CARD, NP)
    state.pcard_holder[g][k] = -1
    push(state, K.D_GENEVA_TAKE, frame[1], g, k)


@K.decision(K.D_GENEVA_TAKE, "Geneva: card to take")
def legal_geneva_take(state: CivState, frame: K.Frame) -> list[int]:
    """A different available card of the same player."""
    g, k = frame[2], frame[3]
    return [A.PCARD + j for j, h in enumerate(state.pcard_holder[g]) if h == -1 and j != k]


@K.applies(K.D_GENEVA_TAKE)
def apply_geneva_take(state: CivState, frame: K.Frame, action: int) -> None:
    """Take it."""
    state.pending.pop()
    state.pcard_holder[frame[2]][action - A.PCARD] = frame[1]
    if state.log is not None:
        back, took = PLAYER_CARDS[frame[3]], PLAYER_CARDS[action - A.PCARD]
        C.log(state, "geneva", seat=frame[1], giver=frame[2], returned=back, card=took)


# --- Eiffel Tower (D7) --------------------------------------------------------------------------
def eiffel_first(state: CivState, seat: int) -> list[int]:
    """Rival tokens whose owner has at least two tokens on the map."""
    counts = [0] * state.players
    for t in state.tok:
        if t >= 0:
            counts[t] += 1
    return [s for s, t in enumerate(state.tok) if t >= 0 and t != seat and counts[t] >= 2]


@K.decision(K.D_EIFFEL1, "Eiffel Tower: first rival token")
def legal_eiffel1(state: CivState, frame: K.Frame) -> list[int]:
    """Rival tokens of a player with two or more."""
    return [A.SPACE + s for s in eiffel_first(state, frame[1])]


@K.applies(K.D_EIFFEL1)
def apply_eiffel1(state: CivState, frame: K.Frame, action: int) -> None:
    """Second token next."""
    state.pending.pop()
    push(state, K.D_EIFFEL2, frame[1], action - A.SPACE)


@K.decision(K.D_EIFFEL2, "Eiffel Tower: second token of the same player")
def legal_eiffel2(state: CivState, frame: K.Frame) -> list[int]:
    """Other tokens of that player."""
    first = frame[2]
    owner = state.tok[first]
    return [A.SPACE + s for s, t in enumerate(state.tok) if t == owner and s != first]


@K.applies(K.D_EIFFEL2)
def apply_eiffel2(state: CivState, frame: K.Frame, action: int) -> None:
    """The victim chooses which one is replaced."""
    state.pending.pop()
    first = frame[2]
    push(state, K.D_EIFFEL_VICTIM, state.tok[first], frame[1], first, action - A.SPACE)


@K.decision(K.D_EIFFEL_VICTIM, "Eiffel Tower: which of your tokens is replaced")
def legal_eiffel_victim(state: CivState, frame: K.Frame) -> list[int]:
    """One of the two chosen spaces (CIV-26.3: the victim decides)."""
    return sorted([A.SPACE + frame[3], A.SPACE + frame[4]])


@K.applies(K.D_EIFFEL_VICTIM)
def apply_eiffel_victim(state: CivState, frame: K.Frame, action: int) -> None:
    """Replace it with an unreinforced token of the Eiffel Tower's controller."""
    state.pending.pop()
    C.log(state, "eiffel", seat=frame[2], victim=frame[1], space=action - A.SPACE)
    C.transfer_token(state, action - A.SPACE, frame[2])


@K.decision(K.D_GZ_MOVE, "Great Zimbabwe: move a token to a focus card")
def legal_gz_move(state: CivState, frame: K.Frame) -> list[int]:
    """Cards below the cap, or stop."""
    if state.gz <= 0:
        return []
    opts = [A.TYPE + t for t in range(5) if state.trade[frame[1]][t] < 3]
    return [A.DONE, *opts] if opts else []


@K.applies(K.D_GZ_MOVE)
def apply_gz_move(state: CivState, frame: K.Frame, action: int) -> None:
    """Move one token."""
    if action == A.DONE:
        state.pending.pop()
        return
    state.gz -= 1
    state.trade[frame[1]][action - A.TYPE] += 1
    if state.log is not None:
        C.log(state, "gz_move", seat=frame[1], card=C.card_at(state, frame[1], action - A.TYPE))
