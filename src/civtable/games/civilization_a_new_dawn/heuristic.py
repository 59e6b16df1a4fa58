"""A greedy Civilization: A New Dawn player and a static evaluation (the "heuristic" bot).

:func:`score` values a position for one seat: agenda marks dominate (CIV-22), then the progress
toward the unmarked agendas of the drawn victory cards (the better of the two per card), then
general material: friendly spaces, cities and mature cities, focus-card levels, dial, trade
tokens, resources, natural and world wonders. Opponents' scores are subtracted with a weight.

Progress has a slope wherever a step toward an agenda exists, so the greedy search keeps moving
toward one it can still complete: Populous counts the share of friendly neighbours of each city
that can still mature (a city next to another city or a neutral city-state cannot, CIV-A26/A37);
Preservationist counts natural wonders within reach (free next to one's city, or under a rival
token next to a friendly space). A term for the culture card's slot values the wanted spaces it
could reach (CIV-8.2: a mountain or natural wonder needs slot 5), so the bot lets the card slide
right instead of resetting it from slot 1 every few turns; without these, two-player games used
to stall on Populous/Preservationist until the turn cap (issue 20).

:func:`choose` picks a focus card by simulating the whole turn for each of the five slots
(sub-decisions taken greedily, one ply each) and keeping the best end-of-turn score; every other
decision is one ply: apply each legal action to a copy and keep the best score. Copies get a
fresh random generator so the bot never sees future dice. Everything it reads is public
(CIV-26.2); the face-down wonder decks are not used.

For the ISMCTS bot (issue 22): :func:`action_values` gives the scores :func:`choose` ranks by
(the search's root moves, compared on shared deals), :func:`search_worthy` says which decisions
it searches (the focus-card choice), and :func:`evaluate` scores its cut-off playouts with a win
chance fitted on heuristic games (:data:`WIN_WEIGHTS`) rather than from :func:`own_score`, which
predicts the winners of heuristic games hardly better than chance. :func:`playout_policy` is
the cheaper playout player of ``ismcts:…:policy=fast`` (an option, not the default).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import compress, count
from typing import TYPE_CHECKING, NamedTuple

from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.catalog import (
    CULTURE,
    DIAL_LAST,
    FOCUS_CARDS,
    VICTORY_CARDS,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules.victory import WONDERS_OF_TYPE

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

MARK = 25.0
PROGRESS = 12.0
TURN_STEPS = 40
SAMPLE = 8  # options tried per sub-decision inside the focus-card simulations
#: options tried per sub-decision in the focus-card simulations of :func:`playout_policy`
PLAYOUT_SAMPLE = 2
RIPE = 0.6  # Populous: weight of a not-yet-mature city's share of friendly neighbours
NEAR = 0.5  # Preservationist: weight of a natural wonder within reach
OPTION = 0.5  # value of a wanted space the culture card could take from its slot


#: ISMCTS cuts its playouts off this many decision rounds after the expansion and scores the
#: position with :func:`evaluate` (``k=auto``). A heuristic playout of a whole Civilization game is
#: slow (one takes about 6 CPU-s at 3 players), so a 1-second search could not finish one;
#: with the cut-off it runs about 30 iterations per CPU-second (issue 22).
ISMCTS_CUTOFF = 6

#: ISMCTS defaults for this game (see :func:`civtable.bots.ismcts.game_config`): a game is won or
#: lost (CIV-22.3), so a finished playout scores its win, not a margin of marks.
ISMCTS_SETTINGS = "reward=win"


def _features(state: CivState, seat: int) -> dict[str, int]:
    """Counts of the seat's material; ``own``, ``immature``, ``unreachable`` and ``free`` are
    bitsets (:class:`~.hexes.Board`) for the agenda terms."""
    b = state.board
    occ = C.occupancy(state)
    own, cities = occ.tokens[seat], occ.cities[seat]
    reinf = state.reinf
    mature = C.mature_cities(state, seat)
    immature = cities
    for s in mature:
        immature &= ~b.bit[s]
    unreachable = occ.cstates
    for c in occ.cities:
        unreachable |= c
    return {
        "tokens": own.bit_count(),
        "reinforced": sum(reinf[s] for s in b.spaces_of(own)),
        "cities": (cities & ~own).bit_count(),
        "shore": ((own | cities) & b.shore_mask).bit_count(),
        "mature": len(mature),
        "own": own,
        "immature": immature,  # the seat's cities that are not mature
        "unreachable": unreachable,  # never a control token: cities and city-states
        "free": b.valid_mask & ~(b.water_mask | occ.occupied | occ.barbs | occ.cstates),
    }


def _shared_features(state: CivState, seat: int, shared: _Shared) -> dict[str, int]:
    """:func:`_features` from what :func:`_shared_inputs` already derived for every seat (the
    bitsets, the unreachable and free spaces, the reinforced tokens): the same counts and sets,
    without deriving them again for each seat (checked against :func:`_features` in
    ``test_heuristic.py``)."""
    b = state.board
    occ = shared.occ
    own, cities = occ.tokens[seat], occ.cities[seat]
    mature = C.mature_cities(state, seat)
    immature = cities
    for s in mature:
        immature &= ~b.bit[s]
    if shared.counts:  # a reinforcement flag above 1: add the values, as _features does
        reinf = state.reinf
        reinforced = sum(reinf[s] for s in b.spaces_of(own))
    else:
        reinforced = (shared.reinforced & own).bit_count()
    return {
        "tokens": own.bit_count(),
        "reinforced": reinforced,
        "cities": (cities & ~own).bit_count(),
        "shore": ((own | cities) & b.shore_mask).bit_count(),
        "mature": len(mature),
        "own": own,
        "immature": immature,
        "unreachable": shared.unreachable,
        "free": shared.free,
    }


def _ripeness(state: CivState, seat: int, s: int, f: dict[str, int] | None = None) -> float:
    """How far city ``s`` is from maturing (CIV-2.9): the share of its land neighbours holding
    the seat's control tokens; -1 when a neighbour can never hold one (a city or a neutral
    city-state there, CIV-A26/A37). ``f``: the seat's :func:`_features`, if known."""
    if f is None:
        f = _features(state, seat)
    land = state.board.land_adjacent_mask[s]
    if land & f["unreachable"]:
        return -1.0
    n = land.bit_count()
    return (land & f["own"]).bit_count() / n if n else 1.0


def _populous(state: CivState, seat: int, f: dict[str, int]) -> float:
    """Mature cities, plus part credit for the nearly mature ones, out of 5 (CIV-22.1)."""
    need = 5 - f["mature"]
    if need <= 0:
        return 1.0
    part = sorted(
        (max(0.0, _ripeness(state, seat, s, f)) for s in state.board.spaces_of(f["immature"])),
        reverse=True,
    )[:need]
    return min(1.0, (f["mature"] + RIPE * sum(part)) / 5)


def _preservationist(state: CivState, seat: int) -> float:
    """Held natural wonders, plus part credit for ones within reach: a free one next to the
    seat's city (a culture card from slot 5 takes it, CIV-8.3) or a rival's next to a friendly
    space (a won attack takes it, CIV-15.3)."""
    held = len(state.nw_held[seat])
    if held >= 2:
        return 1.0
    b = state.board
    occ = C.occupancy(state)
    cities, friendly = occ.cities[seat], occ.friendly[seat]
    near = 0
    for s in b.natural_wonder_spaces:
        if b.natural_wonder[s] in state.nw_held[seat]:
            continue
        t = state.tok[s]
        if t < 0:
            near += bool(b.adjacent_mask[s] & cities)  # free, next to the seat's city
        elif t != seat:
            near += bool(b.adjacent_mask[s] & friendly)  # a rival's, next to a friendly space
    return min(1.0, (held + NEAR * min(near, 2 - held)) / 2)


def _progress(state: CivState, seat: int, cond: dict[str, object], f: dict[str, int]) -> float:
    kind = cond["kind"]
    if kind == "any_of":
        subs = cond["of"]
        assert isinstance(subs, list)
        return max(_progress(state, seat, c, f) for c in subs)
    if kind == "cities_on_map":
        return f["cities"] / 8
    if kind == "control_world_wonders":
        owner = state.wonder_owner
        n = sum(1 for w in WONDERS_OF_TYPE[str(cond["wonder_type"])] if owner[w] == seat)
        return min(1.0, n / 2)
    if kind == "win_attack_against_rival_capital":
        return 1.0 if state.won_capital[seat] & 1 else 0.0
    if kind == "control_conquered_city_states":
        return state.cs_owner.count(seat) / 2
    if kind == "control_spaces_adjacent_to_water_or_map_edge":
        return min(1.0, f["shore"] / 15)
    if kind == "reach_tech_dial_space":
        return 1.0 if state.won_capital[seat] & 2 else state.dial[seat] / DIAL_LAST
    if kind == "control_mature_cities":
        return _populous(state, seat, f)
    if kind == "control_natural_wonders":
        return _preservationist(state, seat)
    return 0.0


Progress = Callable[["CivState", int, dict[str, int]], float]


def _compile(cond: dict[str, object]) -> Progress:
    """:func:`_progress` of ``cond`` as a function, the condition's fields read once."""
    kind = cond["kind"]
    if kind == "any_of":
        subs = cond["of"]
        assert isinstance(subs, list)
        fns = tuple(_compile(c) for c in subs)
        return lambda state, seat, f: max(fn(state, seat, f) for fn in fns)
    if kind == "control_world_wonders":
        ws = WONDERS_OF_TYPE[str(cond["wonder_type"])]

        def wonders(state: CivState, seat: int, f: dict[str, int]) -> float:
            owner = state.wonder_owner
            n = sum(1 for w in ws if owner[w] == seat)
            return min(1.0, n / 2)

        return wonders
    if kind in _SIMPLE:
        return _SIMPLE[str(kind)]
    return lambda state, seat, f: _progress(state, seat, cond, f)


def _cities_on_map(state: CivState, seat: int, f: dict[str, int]) -> float:
    return f["cities"] / 8


def _won_capital(state: CivState, seat: int, f: dict[str, int]) -> float:
    return 1.0 if state.won_capital[seat] & 1 else 0.0


def _city_states(state: CivState, seat: int, f: dict[str, int]) -> float:
    return state.cs_owner.count(seat) / 2


def _shore(state: CivState, seat: int, f: dict[str, int]) -> float:
    return min(1.0, f["shore"] / 15)


def _dial(state: CivState, seat: int, f: dict[str, int]) -> float:
    return 1.0 if state.won_capital[seat] & 2 else state.dial[seat] / DIAL_LAST


def _nature(state: CivState, seat: int, f: dict[str, int]) -> float:
    return _preservationist(state, seat)


#: :func:`_progress` of the condition kinds without fields, as functions
_SIMPLE: dict[str, Progress] = {
    "cities_on_map": _cities_on_map,
    "win_attack_against_rival_capital": _won_capital,
    "control_conquered_city_states": _city_states,
    "control_spaces_adjacent_to_water_or_map_edge": _shore,
    "reach_tech_dial_space": _dial,
    "control_mature_cities": _populous,
    "control_natural_wonders": _nature,
}


def _kinds(cond: dict[str, object], out: set[str]) -> set[str]:
    out.add(str(cond["kind"]))
    subs = cond.get("of")
    if isinstance(subs, list):
        for c in subs:
            _kinds(c, out)
    return out


#: per victory card: the :func:`_progress` of each of its agendas, compiled
AGENDA_PROGRESS: tuple[tuple[Progress, ...], ...] = tuple(
    tuple(_compile(a.condition) for a in card.agendas) for card in VICTORY_CARDS
)

#: per victory card: every condition kind its agendas name
KINDS: tuple[frozenset[str], ...] = tuple(
    frozenset(k for a in card.agendas for k in _kinds(a.condition, set())) for card in VICTORY_CARDS
)


def _culture_targets(
    state: CivState, seat: int, wanted: set[str], f: dict[str, int] | None
) -> tuple[int, int]:
    """The culture card's slot and the bitset of the spaces it could take for the unmarked
    agendas (0, 0 when none): each wanted space is an empty neighbour of a city that can still
    mature, for Populous, or a free natural wonder next to a city, for Preservationist."""
    populous = "control_mature_cities" in wanted
    nature = "control_natural_wonders" in wanted and len(state.nw_held[seat]) < 2
    if not (populous or nature):
        return 0, 0
    slot = C.slot_of(state, seat, CULTURE)
    if not slot:
        return 0, 0
    if f is None:
        f = _features(state, seat)
    b = state.board
    immature, free = f["immature"], f["free"]
    wonders = 0  # spaces with a natural-wonder token still on the map
    if nature:
        for s in b.natural_wonder_spaces:
            if state.nw[s] >= 0:
                wonders |= b.bit[s]
    targets = 0
    for s in b.spaces_of(C.occupancy(state).cities[seat]):
        around = b.adjacent_mask[s] & free
        if populous and immature & b.bit[s] and _ripeness(state, seat, s, f) >= 0:
            targets |= around
        elif nature:
            targets |= around & wonders
    return slot, targets


def _culture_option(
    state: CivState, seat: int, wanted: set[str], f: dict[str, int] | None = None
) -> float:
    """What the culture card's slot is worth for the unmarked agendas: each wanted space
    (:func:`_culture_targets`) counts by how far the slot reaches its difficulty (CIV-8.2).

    A culture card resolved early, from a low slot, can never take a mountain or a natural
    wonder (difficulty 5); this term lets the bot wait until the card has slid right instead of
    resetting it every few turns and stalling on those agendas.
    """
    slot, targets = _culture_targets(state, seat, wanted, f)
    if not targets:
        return 0.0
    # a function of the map, the slot, the targets and the difficulty modifiers alone:
    # remembered for the map of the memos (:func:`_keep_memos_for`)
    memo = _REACH if state.board is _MEMO_BOARD[0] else {}
    key = (id(state.board), slot, targets, C._modifiers(state, seat, C.CTX_PLACE))
    got = memo.get(key)
    if got is not None:
        return got
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    # the three best reaches, best first: the targets in order of difficulty (a reach falls as
    # the difficulty rises), counted per difficulty on the map's bitsets of the land spaces
    # within each difficulty; below 1 a difficulty counts as 1
    top = max(C.difficulties(state, seat, C.CTX_PLACE))
    reach: list[float] = []
    seen = 0
    for d in range(1, max(1, top) + 1):
        within = (targets & C.land_within(state, seat, C.CTX_PLACE, d)).bit_count()
        if within > seen:
            reach += [min(1.0, slot / d) ** 2] * min(within - seen, 3 - len(reach))
            seen = within
            if len(reach) == 3:
                break
    got = memo[key] = OPTION * sum(reach)
    return got


def _culture_option_by_space(
    state: CivState, seat: int, wanted: set[str], f: dict[str, int] | None = None
) -> float:
    """:func:`_culture_option` computed space by space (its definition; ``test_heuristic.py``
    checks the two agree)."""
    slot, targets = _culture_targets(state, seat, wanted, f)
    if not targets:
        return 0.0
    diff = C.difficulties(state, seat, C.CTX_PLACE)
    b = state.board
    reach = sorted(
        (min(1.0, slot / max(1, diff[n])) ** 2 for n in b.spaces_of(targets)), reverse=True
    )
    return OPTION * sum(reach[:3])


def own_score(state: CivState, seat: int, shared: _Shared | None = None) -> float:
    """Absolute value of the seat's position (``shared``: :func:`_shared_inputs` of the
    position, if known; the value is the same)."""
    f = _features(state, seat) if shared is None else _shared_features(state, seat, shared)
    v = 0.0
    wanted: set[str] = set()
    for i, vc in enumerate(state.victory):
        if state.marks[seat] >> i & 1:
            v += MARK
        else:
            fns = AGENDA_PROGRESS[vc]
            p = fns[0](state, seat, f)
            for fn in fns[1:]:  # the best agenda of the card (max, first of equals)
                q = fn(state, seat, f)
                if q > p:
                    p = q
            v += PROGRESS * p * p
            wanted |= KINDS[vc]
    v += 0.5 * f["tokens"] + 0.2 * f["reinforced"] + 2.0 * f["cities"] + 1.0 * f["mature"]
    v += 1.5 * sum(FOCUS_CARDS[c].level - 1 for c in state.row[seat])
    v += 0.12 * state.dial[seat]
    v += 0.35 * sum(state.trade[seat]) + 0.6 * sum(state.resources[seat])
    v += 1.2 * len(state.nw_held[seat]) + 2.0 * state.wonder_owner.count(seat)
    v += 0.8 * len(state.cs_cards[seat]) + 1.5 * state.cs_owner.count(seat)
    v += _culture_option(state, seat, wanted, f)
    return v


class _Shared(NamedTuple):
    """What :func:`_seat_inputs` takes from the position for every seat alike."""

    common: int  # the number of the tuple of what every seat's score reads (:data:`_COMMON`)
    occ: C.Occupancy
    unreachable: int  # cities and city-states: never a control token
    free: int  # spaces a control token could take
    reinforced: int  # spaces with a reinforced token
    counts: bool  # a reinforcement entry above 1 (then ``reinforced`` is not the whole story)


def _shared_inputs(state: CivState) -> _Shared:
    """What :func:`own_score` reads for every seat alike (see :func:`_seat_inputs`): the
    victory cards, the wonder and city-state owners, the tokens on the natural-wonder spaces
    and the natural-wonder tokens there (the map's bitsets are those of one map: the memo is
    only ever used within one game); then, as bitsets that enter each seat's inputs only
    around its cities or under its tokens, the unreachable, free and reinforced spaces."""
    b = state.board
    occ = C.occupancy(state)
    unreachable = occ.cstates
    for c in occ.cities:
        unreachable |= c
    free = b.valid_mask & ~(b.water_mask | occ.occupied | occ.barbs | occ.cstates)
    tok, nw, reinf, bit = state.tok, state.nw, state.reinf, b.bit
    reinforced = 0
    for s in compress(range(len(reinf)), reinf):
        reinforced |= bit[s]
    common: tuple[object, ...] = (
        id(b),
        tuple(state.victory),
        tuple(state.wonder_owner),
        tuple(state.cs_owner),
        tuple([tok[s] for s in b.natural_wonder_spaces]),
        tuple([nw[s] for s in b.natural_wonder_spaces]),
    )
    counts = max(reinf) > 1
    if counts:  # a flag is 0 or 1; should a count ever lie there, key on every value
        common += (tuple(reinf),)
    number = _COMMON.get(common)
    if number is None:  # hashed once here, not again in each seat's key
        if len(_COMMON) >= MEMO_SIZE:
            _COMMON.clear()
        number = _COMMON[common] = next(_NUMBERS)
    return _Shared(number, occ, unreachable, free, reinforced, counts)


def _seat_inputs(state: CivState, seat: int, shared: _Shared) -> tuple[object, ...]:
    """Everything :func:`own_score` reads for ``seat``: equal inputs, equal score.

    Of the map: the seat's control tokens and cities, what counts toward maturing its cities
    (CIV-2.9/A26), its reinforced tokens, and the unreachable and free spaces next to its
    cities (the only ones its ripeness and culture option look at); so a change elsewhere on the
    map leaves its value remembered."""
    occ = shared.occ
    own, cities = occ.tokens[seat], occ.cities[seat]
    b = state.board
    near_key = (id(b), cities)
    near = _NEAR.get(near_key)
    if near is None:
        if len(_NEAR) >= MEMO_SIZE:
            _NEAR.clear()
        near = _NEAR[near_key] = b.grow(cities)
    return (
        seat,
        shared.common,
        own,
        cities,
        C._maturing_bits(state, seat, occ),
        shared.unreachable & near,
        shared.free & near,
        shared.reinforced & own,
        state.marks[seat],
        state.won_capital[seat],
        state.dial[seat],
        tuple(state.row[seat]),
        tuple(state.place[seat]),
        tuple(state.trade[seat]),
        tuple(state.resources[seat]),
        tuple(state.nw_held[seat]),
        tuple(state.cs_cards[seat]),
        state.current == seat,  # Japan's Divine Wind (difficulty)
        state.leader[seat],
    )


#: own_score by its inputs (:func:`_seat_inputs`): the candidates of one decision often leave
#: the other seats' values unchanged, and the decisions of one turn score many of the positions
#: the focus-card choice already played out. Kept from decision to decision while the map is the
#: same (:func:`_keep_memos_for`, called by :func:`score`); cleared when it grows past
#: :data:`MEMO_SIZE` (a few decisions' worth), only to bound the memory.
_MEMO: dict[tuple[object, ...], float] = {}
MEMO_SIZE = 20_000
#: the spaces next to a seat's cities by (map, cities bitset), for :func:`_seat_inputs`; cleared
#: with :data:`_MEMO`
_NEAR: dict[tuple[int, int], int] = {}
#: :func:`_culture_option` on the memos' map by (map, slot, targets bitset, difficulty
#: modifiers); cleared with :data:`_MEMO`
_REACH: dict[tuple[int, int, int, tuple[bool, bool, bool]], float] = {}
#: the map the memos were filled on: held, so that no other map can take its ``id`` (the keys
#: name a map by its ``id``) while the memos are kept
_MEMO_BOARD: list[object] = [None]


#: a number per tuple of what every seat's score reads (:func:`_shared_inputs`), for the keys of
#: :data:`_MEMO`; numbers are never given twice, so clearing this only costs misses
_COMMON: dict[tuple[object, ...], int] = {}
_NUMBERS = count()


def _keep_memos_for(state: CivState) -> None:
    """Keep the memos for scoring ``state`` (:func:`score`); clear them when its map is another.

    Every memo entry is a function of its key alone (``test_heuristic.py`` checks remembered
    scores against scores computed afresh across whole games), so keeping them from one
    decision to the next changes no value, only how often one is computed."""
    if _MEMO_BOARD[0] is not state.board:
        _MEMO.clear()
        _NEAR.clear()
        _COMMON.clear()
        _REACH.clear()
        _MEMO_BOARD[0] = state.board


def _memo_own_score(state: CivState, seat: int, shared: _Shared) -> float:
    """:func:`own_score`, remembered by its inputs (``shared``: :func:`_shared_inputs`)."""
    key = _seat_inputs(state, seat, shared)
    v = _MEMO.get(key)
    if v is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        v = _MEMO[key] = own_score(state, seat, shared)
    return v


def score(state: CivState, seat: int) -> float:
    """The seat's value minus a share of the best opponent's."""
    if state.over:
        if seat in state.winners:
            return 1000.0
        if state.winners:
            return -1000.0
    _keep_memos_for(state)
    shared = _shared_inputs(state)
    mine = _memo_own_score(state, seat, shared)
    others = [_memo_own_score(state, s, shared) for s in range(state.players) if s != seat]
    return mine - 0.4 * max(others) if others else mine


def _try(state: CivState, seat: int, action: int, rng: Rng) -> CivState:
    s2 = state.branch(Rng(rng.next_u64()))
    s2.apply(seat, action)
    return s2


def _greedy_step(
    state: CivState, seat: int, rng: Rng, limit: int = 0
) -> tuple[int, CivState | None]:
    """The best of the legal actions (at most ``limit`` of them, sampled) by :func:`score` one
    ply ahead, and the look-ahead position it was scored on when that position is exactly what
    applying it to ``state`` gives (the action drew no random number; its copy had a random
    generator of its own), else None."""
    acts = state.legal_actions(seat)
    if len(acts) == 1:
        return acts[0], None
    if limit and len(acts) > limit:
        acts = rng.sample(acts, limit)
    best, best_v, best_s = acts[0], -math.inf, None
    for a in acts:
        r = Rng(rng.next_u64())
        start = r.state
        s2 = state.branch(r)
        s2.apply(seat, a)
        v = score(s2, seat) + rng.random() * 1e-3
        if v > best_v:
            best, best_v, best_s = a, v, (s2 if r.state == start else None)
    return best, best_s


def _finish_turn(state: CivState, seat: int, rng: Rng, sample: int = SAMPLE) -> CivState:
    """Play the seat's remaining decisions of this turn greedily (on ``state``, or on the
    look-ahead position of the chosen action when that is the same position), each among at
    most ``sample`` of its options."""
    for _ in range(TURN_STEPS):
        if state.over or state.to_move() != (seat,) or state.current != seat:
            break
        top = state.pending[-1][0]
        if top in (K.D_CHOOSE, K.D_START):
            break
        action, after = _greedy_step(state, seat, rng, sample)
        if after is None:
            state.apply(seat, action)
        else:  # the same position as ``state.apply(seat, action)`` gives, but for the dice
            after.rng, after.log, after.history = state.rng, state.log, state.history
            after.history.append((seat, action))
            state = after
    return state


def _values(state: CivState, seat: int, rng: Rng, sample: int = SAMPLE) -> dict[int, float]:
    """:func:`score` after each legal action: after the whole turn it starts (sub-decisions
    greedy, each among at most ``sample`` options) for a focus card, one ply for everything
    else; plus a tie-breaking jitter below 1e-3 (drawn from ``rng`` in the order of the legal
    actions)."""
    acts = state.legal_actions(seat)
    out: dict[int, float] = {}
    if state.pending and state.pending[-1][0] == K.D_CHOOSE:
        for a in acts:
            s2 = _finish_turn(_try(state, seat, a, rng), seat, rng, sample)
            out[a] = score(s2, seat) + rng.random() * 1e-3
    else:
        for a in acts:
            out[a] = score(_try(state, seat, a, rng), seat) + rng.random() * 1e-3
    return out


def action_values(state: State, seat: int, rng: Rng | None = None) -> dict[int, float]:
    """The heuristic's value of every legal action of ``seat`` (higher is better): the move
    scores :func:`choose` ranks by; the move prior of the ISMCTS bot (paired root rollouts).

    ``rng`` (default: one seeded by the position's length of history) gives the copies their
    dice and breaks ties.

    >>> from civtable import games
    >>> s = games.get("civilization-a-new-dawn").new_game(players=2, seed=3)
    >>> sorted(action_values(s, s.to_move()[0])) == s.legal_actions(s.to_move()[0])
    True
    """
    from civtable.games.civilization_a_new_dawn.state import CivState

    assert isinstance(state, CivState)
    if rng is None:
        rng = Rng(len(state.history))
    return _values(state, seat, rng)


def choose(state: State, seat: int, rng: Rng) -> int:
    """Best action by simulation (focus card) or one ply (everything else)."""
    from civtable.games.civilization_a_new_dawn.state import CivState

    assert isinstance(state, CivState)
    acts = state.legal_actions(seat)
    if len(acts) == 1:
        return acts[0]
    best, best_v = acts[0], -math.inf
    for a, v in _values(state, seat, rng).items():
        if v > best_v:
            best, best_v = a, v
    return best


def playout_policy(state: State, seat: int, rng: Rng) -> int:
    """The cheaper player of the ISMCTS playouts (``ismcts:…:policy=fast``): :func:`choose`,
    but a focus card's turn (CIV-5.2) is simulated with each sub-decision taken among at most
    :data:`PLAYOUT_SAMPLE` of its options instead of :data:`SAMPLE`; every other decision is
    :func:`choose`'s own one-ply move (so the bot's unsearched sub-decisions in the game are
    the heuristic's)."""
    from civtable.games.civilization_a_new_dawn.state import CivState

    assert isinstance(state, CivState)
    acts = state.legal_actions(seat)
    if len(acts) == 1:
        return acts[0]
    if not (state.pending and state.pending[-1][0] == K.D_CHOOSE):
        return choose(state, seat, rng)
    best, best_v = acts[0], -math.inf
    for a, v in _values(state, seat, rng, PLAYOUT_SAMPLE).items():
        if v > best_v:
            best, best_v = a, v
    return best


def search_worthy(state: State, seat: int) -> bool:
    """Whether ISMCTS searches this decision (its ``search_worthy`` hook): the choice of a focus
    card (CIV-5.2), the turn's strategic decision; its sub-decisions (spaces, targets, tokens) are
    the heuristic's one-ply moves."""
    pending: list[list[int]] = getattr(state, "pending", [])
    return bool(pending) and pending[-1][0] == K.D_CHOOSE


def win_features(state: CivState, seat: int) -> tuple[float, ...]:
    """What :func:`evaluate` weighs for ``seat`` (:data:`WIN_WEIGHTS`, in this order): marked
    victory cards, the work left on the unmarked ones (the sum of ``1 - progress``, progress the
    better agenda's, as :func:`own_score` measures it), the work left on the furthest of them
    (CIV-22.1 asks for every card, so the slowest decides), cities on the map, mature cities,
    world wonders, tech dial, focus-card levels above the first, control tokens on the map."""
    f = _features(state, seat)
    marks, remain, worst = 0, 0.0, 0.0
    for i, vc in enumerate(state.victory):
        if state.marks[seat] >> i & 1:
            marks += 1
        else:
            left = 1.0 - min(1.0, max(fn(state, seat, f) for fn in AGENDA_PROGRESS[vc]))
            remain += left
            worst = max(worst, left)
    return (
        float(marks),
        remain,
        worst,
        float(f["cities"]),
        float(f["mature"]),
        float(state.wonder_owner.count(seat)),
        float(state.dial[seat]),
        float(sum(FOCUS_CARDS[c].level - 1 for c in state.row[seat])),
        float(f["tokens"]),
    )


#: weights of :func:`win_features` in :func:`evaluate`: a conditional-logit model (the win chance
#: of each seat is the softmax of its weighted features) fitted by maximum likelihood on
#: positions of heuristic games (every third decision of 99 two-player and 60 four-player games,
#: labelled by their winners; issue 22). Log-loss on held-out games (5-fold, by game): 0.605 in
#: two-player games and 1.310 in four-player games (chance 0.693 / 1.386); a softmax of
#: :func:`own_score` at its best-fitting temperature gives 0.677 / 1.356, the former evaluation
#: (that softmax at temperature 10) 0.848 / 1.705 on all the games (overconfident).
WIN_WEIGHTS: tuple[float, ...] = (0.077, -0.909, -1.168, 0.001, 0.015, 0.101, 0.046, 0.129, -0.043)


def evaluate(state: State, seat: int) -> float:
    """Win-chance estimate in [0, 1] (ISMCTS scores its cut-off playouts with it): the softmax
    over the seats of :data:`WIN_WEIGHTS` times :func:`win_features`; exact at the end.

    A position in the middle of a turn is valued at the end of that turn, the player to move
    finishing it greedily (as :func:`choose` simulates a turn, on a copy): a cut-off playout
    is then compared at turn boundaries, not in the middle of a card's effects."""
    from civtable.games.civilization_a_new_dawn.state import CivState

    assert isinstance(state, CivState)
    if state.over:
        return state.result().rewards()[seat]
    mover = state.current
    mid_turn = state.pending and state.pending[-1][0] not in (K.D_CHOOSE, K.D_START)
    if mid_turn and state.to_move() == (mover,):  # the mover ends its turn greedily first
        state = _finish_turn(state.branch(state.rng.copy()), mover, state.rng.copy())
        if state.over:
            return state.result().rewards()[seat]
    vals = [
        sum(w * x for w, x in zip(WIN_WEIGHTS, win_features(state, s), strict=True))
        for s in range(state.players)
    ]
    m = max(vals)
    exps = [math.exp(v - m) for v in vals]
    return exps[seat] / sum(exps)
