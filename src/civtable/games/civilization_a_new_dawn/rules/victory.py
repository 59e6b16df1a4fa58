"""Victory (CIV-22): agenda marks after every change, the win check and its tie-breaks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from civtable.games.civilization_a_new_dawn.catalog import (
    CITIES,
    OPEN_BORDERS,
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


Check = Callable[["CivState", int, C.Occupancy], bool]


def _compile(cond: dict[str, Any]) -> Check:
    """:func:`condition_met` of ``cond`` as a function of the state, the seat and the map's
    bitsets (:func:`~.common.occupancy` of the state), with the condition's fields read once
    here (the agenda check runs after every change)."""
    kind = cond["kind"]
    if kind == "any_of":
        subs = tuple(_compile(c) for c in cond["of"])
        return lambda state, seat, occ: any(f(state, seat, occ) for f in subs)
    count = int(cond.get("count", 0))
    if kind == "cities_on_map":
        return lambda state, seat, occ: 1 + CITIES - state.cities_left[seat] >= count
    if kind == "control_world_wonders":
        ws = WONDERS_OF_TYPE[cond["wonder_type"]]
        return lambda state, seat, occ: sum(1 for w in ws if state.wonder_owner[w] == seat) >= count
    if kind == "win_attack_against_rival_capital":
        return lambda state, seat, occ: bool(state.won_capital[seat] & WON_CAPITAL)
    if kind == "control_conquered_city_states":
        return lambda state, seat, occ: state.cs_owner.count(seat) >= count
    if kind == "control_spaces_adjacent_to_water_or_map_edge":
        return lambda state, seat, occ: (
            (occ.friendly[seat] & state.board.shore_mask).bit_count() >= count
        )
    if kind == "reach_tech_dial_space":
        return lambda state, seat, occ: bool(state.won_capital[seat] & REACHED_24)
    if kind == "control_mature_cities":
        return lambda state, seat, occ: (
            occ.cities[seat].bit_count() >= count
            and len(C.mature_cities_of(state, seat, occ, C.maturing_bits_of(state, seat, occ)))
            >= count
        )
    if kind == "control_natural_wonders":
        return lambda state, seat, occ: len(state.nw_held[seat]) >= count
    raise ValueError(f"unknown agenda condition {kind!r}")  # pragma: no cover


#: per victory card: (the groups of inputs the agenda reads, its compiled condition) for each
#: agenda
AGENDAS: tuple[tuple[tuple[int, Check], ...], ...] = tuple(
    tuple((_reads(a.condition), _compile(a.condition)) for a in card.agendas)
    for card in VICTORY_CARDS
)


def _card_reads(agendas: tuple[tuple[int, Check], ...]) -> int:
    out = 0
    for reads, _ in agendas:
        out |= reads
    return out


#: per victory card: the groups of inputs any of its agendas reads
CARD_READS: tuple[int, ...] = tuple(_card_reads(a) for a in AGENDAS)


def _snapshot(state: CivState, occ: C.Occupancy) -> tuple[C.Occupancy, list[Any]]:
    """What the agenda conditions read, for ``state.agenda_seen``: the map's bitsets ``occ``
    (:func:`~.common.occupancy`, kept as they are: a change of the map makes new ones), and
    copies per group of the victory cards and marks (every group), the cities left, the wonder
    owners, the city-state owners, the capital/dial flags, the held natural wonders and the
    diplomacy cards (Open Borders; held natural wonders and diplomacy cards are compared whole,
    a little more than the conditions read: a change there only costs an evaluation)."""
    return (
        occ,
        [
            state.victory[:],
            state.marks[:],
            state.cities_left[:],
            state.wonder_owner[:],
            state.cs_owner[:],
            state.won_capital[:],
            [h[:] for h in state.nw_held],
            [h[:] for h in state.pcard_holder],
        ],
    )


def check_agendas(state: CivState) -> None:
    """CIV-22.2 / CIV-A53: mark every newly fulfilled agenda with a control token.

    Called after every change; it evaluates a condition again only when something it reads
    changed since the last evaluation (``state.agenda_seen`` holds what that evaluation saw):
    an unmarked agenda was false then, and stays false while its inputs are the same.

    The map (control tokens and cities) counts as unchanged when the state still keeps the
    bitsets the last evaluation used (``state.occupancy``) and the token and city lists equal
    the copies those were made from; else when the current bitsets
    (:func:`~.common.occupancy`) hold the same per-seat token and city bitsets (the same list
    objects: a change of a token or a city makes new ones, so a new object with the same
    contents only costs an evaluation).
    """
    seen = state.agenda_seen
    kept = state.occupancy
    occ: C.Occupancy | None = None
    if seen is None:
        changed = -1
    else:
        was = seen[1]  # the groups, in the order of _snapshot
        if was[0] != state.victory or was[1] != state.marks:
            changed = -1
        else:
            last = seen[0]
            if kept is last and kept.tok == state.tok and kept.city == state.city:
                changed = 0
            else:
                occ = C.occupancy(state)
                same = occ.tokens is last.tokens and occ.cities is last.cities
                changed = 0 if same else G_MAP
            if was[2] != state.cities_left:
                changed |= G_CITIES
            if was[3] != state.wonder_owner:
                changed |= G_WONDERS
            if was[4] != state.cs_owner:
                changed |= G_CSTATES
            if was[5] != state.won_capital:
                changed |= G_CAPITAL
            if was[6] != state.nw_held:
                changed |= G_NW
            if was[7] != state.pcard_holder:
                changed |= G_BORDERS
            if not changed:
                return
    if occ is None:
        occ = C.occupancy(state)
    victory, marks = state.victory, state.marks
    for seat in range(state.players):
        seat_changed = changed
        if changed != -1 and changed & G_MAP and seen is not None:
            seat_changed = _map_change_for(state, seat, changed, occ, seen[0])
            if not seat_changed:
                continue
        for i, v in enumerate(victory):
            if marks[seat] >> i & 1 or not CARD_READS[v] & seat_changed:
                continue
            for reads, fulfilled in AGENDAS[v]:
                if reads & seat_changed and fulfilled(state, seat, occ):
                    break
            else:
                continue  # no agenda of this card newly fulfilled
            card = VICTORY_CARDS[v]
            marks[seat] |= 1 << i
            if C.need_token(state, seat, C.RC_MARK):  # CIV-A27: a real token (CIV-8.5)
                state.supply[seat] -= 1
            if state.log is not None:
                met = [
                    i for i, a in enumerate(card.agendas) if condition_met(state, seat, a.condition)
                ]
                C.log(state, "agenda", seat=seat, card=card.id, agenda=met[0])
    state.agenda_seen = _snapshot(state, occ)


def _map_change_for(
    state: CivState, seat: int, changed: int, occ: C.Occupancy, last: C.Occupancy
) -> int:
    """``changed`` (with ``G_MAP``) as the seat's map conditions see it: they read the seat's
    own tokens and cities (its friendly spaces, its cities and the tokens maturing them), and
    other seats' tokens and cities only with the Sydney Opera House or a rival's Open Borders
    card (:func:`~.common.maturing_bits`, CIV-A26); when none of what the seat reads changed,
    ``G_MAP`` is left out."""
    if occ.tokens[seat] != last.tokens[seat] or occ.cities[seat] != last.cities[seat]:
        return changed
    if state.wonder_owner[C.SYDNEY] == seat:
        return changed
    for g in range(state.players):
        if g != seat and state.pcard_holder[g][OPEN_BORDERS] == seat:
            return changed
    return changed & ~G_MAP


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
