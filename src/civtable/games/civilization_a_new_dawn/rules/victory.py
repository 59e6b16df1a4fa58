"""Victory (CIV-22): agenda marks after every change, the win check and its tie-breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from civtable.games.civilization_a_new_dawn.catalog import (
    CITIES,
    VICTORY_CARDS,
    WONDER_TYPES,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

WON_CAPITAL, REACHED_24 = 1, 2

#: the world wonders of each type (Economist, Militarist… agendas, CIV-22.1)
WONDERS_OF_TYPE: dict[str, tuple[int, ...]] = {
    name: tuple(w for w, wonder in enumerate(WONDERS) if wonder.type == t)
    for t, name in enumerate(WONDER_TYPES)
}


def condition_met(state: CivState, seat: int, cond: dict[str, Any]) -> bool:
    """Evaluate one decoded agenda condition (CIV-22.1, CIV-A8)."""
    kind = cond["kind"]
    if kind == "any_of":
        return any(condition_met(state, seat, c) for c in cond["of"])
    if kind == "cities_on_map":
        return 1 + CITIES - state.cities_left[seat] >= int(cond["count"])
    if kind == "control_world_wonders":
        owner = state.wonder_owner
        n = sum(1 for w in WONDERS_OF_TYPE[cond["wonder_type"]] if owner[w] == seat)
        return n >= int(cond["count"])
    if kind == "win_attack_against_rival_capital":
        return bool(state.won_capital[seat] & WON_CAPITAL)
    if kind == "control_conquered_city_states":
        return state.cs_owner.count(seat) >= int(cond["count"])
    if kind == "control_spaces_adjacent_to_water_or_map_edge":
        shore = C.friendly_bits(state, seat) & state.board.shore_mask
        return shore.bit_count() >= int(cond["count"])
    if kind == "reach_tech_dial_space":
        return bool(state.won_capital[seat] & REACHED_24)
    if kind == "control_mature_cities":
        count = int(cond["count"])
        return state.city.count(seat) >= count and len(C.mature_cities(state, seat)) >= count
    if kind == "control_natural_wonders":
        return len(state.nw_held[seat]) >= int(cond["count"])
    raise ValueError(f"unknown agenda condition {kind!r}")  # pragma: no cover


# What the agenda conditions read, as groups of inputs (bits). The marks and the victory cards
# themselves are in every group: when they change, every agenda is evaluated again.
G_MAP, G_CITIES, G_WONDERS, G_CSTATES, G_CAPITAL, G_NW, G_BORDERS = (1 << i for i in range(7))
#: per condition kind: the groups it reads (control_mature_cities: Sydney Opera House and Open
#: Borders count toward maturing, CIV-A26)
READS = {
    "cities_on_map": G_CITIES,
    "control_world_wonders": G_WONDERS,
    "win_attack_against_rival_capital": G_CAPITAL,
    "control_conquered_city_states": G_CSTATES,
    "control_spaces_adjacent_to_water_or_map_edge": G_MAP,
    "reach_tech_dial_space": G_CAPITAL,
    "control_mature_cities": G_MAP | G_WONDERS | G_BORDERS,
    "control_natural_wonders": G_NW,
}


def _reads(cond: dict[str, Any]) -> int:
    subs = cond.get("of")
    if isinstance(subs, list):
        out = 0
        for c in subs:
            out |= _reads(c)
        return out
    return READS[cond["kind"]]


#: per victory card: (agenda condition, the groups of inputs it reads) for each agenda
AGENDAS: tuple[tuple[tuple[dict[str, Any], int], ...], ...] = tuple(
    tuple((a.condition, _reads(a.condition)) for a in card.agendas) for card in VICTORY_CARDS
)

#: the groups of :func:`_inputs`, in order (the first two: victory cards and marks, all)
_GROUPS = (-1, -1, G_CITIES, G_WONDERS, G_CSTATES, G_CAPITAL, G_NW, G_BORDERS)


def _inputs(state: CivState) -> list[Any]:
    """What the agenda conditions read besides the map (tokens and cities), with the victory
    cards and the marks, one list per group of :data:`_GROUPS` (the state's own lists: copy
    before keeping). Held natural wonders and diplomacy cards are compared whole, a little more
    than the conditions read (a change there only costs an evaluation)."""
    return [
        state.victory,
        state.marks,
        state.cities_left,
        state.wonder_owner,
        state.cs_owner,
        state.won_capital,
        state.nw_held,
        state.pcard_holder,
    ]


def _snapshot(state: CivState) -> tuple[list[int], list[int], list[Any]]:
    """Copies of what the agenda conditions read, for ``state.agenda_seen``."""
    return (
        state.tok[:],
        state.city[:],
        [[x[:] if isinstance(x, list) else x for x in v] for v in _inputs(state)],
    )


def check_agendas(state: CivState) -> None:
    """CIV-22.2 / CIV-A53: mark every newly fulfilled agenda with a control token.

    Called after every change; it evaluates a condition again only when something it reads
    changed since the last evaluation (``state.agenda_seen`` holds copies of what that evaluation
    saw): an unmarked agenda was false then, and stays false while its inputs are the same.
    """
    seen = state.agenda_seen
    if seen is None:
        changed = -1
    else:
        changed = G_MAP if seen[0] != state.tok or seen[1] != state.city else 0
        for g, now, before in zip(_GROUPS, _inputs(state), seen[2], strict=True):
            if now != before:
                changed |= g
        if not changed:
            return
    for seat in range(state.players):
        for i, v in enumerate(state.victory):
            if state.marks[seat] >> i & 1:
                continue
            for cond, reads in AGENDAS[v]:
                if reads & changed and condition_met(state, seat, cond):
                    break
            else:
                continue  # no agenda of this card newly fulfilled
            card = VICTORY_CARDS[v]
            state.marks[seat] |= 1 << i
            if C.need_token(state, seat, C.RC_MARK):  # CIV-A27: a real token (CIV-8.5)
                state.supply[seat] -= 1
            if state.log is not None:
                met = [
                    i for i, a in enumerate(card.agendas) if condition_met(state, seat, a.condition)
                ]
                C.log(state, "agenda", seat=seat, card=card.id, agenda=met[0])
    state.agenda_seen = _snapshot(state)


def _keys(state: CivState, seat: int) -> tuple[int, int]:
    return len(C.wonders_of(state, seat)), C.friendly_spaces(state, seat)


def win_check(state: CivState) -> bool:
    """CIV-22.3: a player with a mark on every card wins; ties by wonders, then spaces."""
    full = (1 << len(state.victory)) - 1
    done = [s for s in range(state.players) if state.marks[s] & full == full]
    if not done:
        return False
    best = max(_keys(state, s) for s in done)
    state.winners = [s for s in done if _keys(state, s) == best]
    state.over = True
    state.pending.clear()
    C.log(state, "game_over", winners=list(state.winners))
    return True


def end_unfinished(state: CivState) -> None:
    """The optional turn cap (CIV-22.4, not a rule): stop, no winner by the rules."""
    state.over = True
    state.unfinished = True
    state.winners = []
    state.pending.clear()
    C.log(state, "game_over", winners=[], unfinished=1)
