"""Civilization: A New Dawn: what the box holds and what can never be created or destroyed.

Developer tooling (issue 20): :func:`check` reads a state and lists every broken invariant,
:func:`leaks` lists hidden information that shows in a view. Neither changes the state; neither
is on the hot path. The box (CIV-1.1, CIV-1.3) and where each component can be:

* **Control tokens** -- 31 per player: in the player's supply, on the map (at most one per
  space, never on water, never together with a city or a barbarian, reinforced only if
  present), or beside a victory card as an agenda mark (CIV-22.2, CIV-A27). Supply + map +
  marks == 31; a mark whose token is still being chosen (a pending CIV-8.5 decision) is owed.
* **City figures** -- 1 capital and 7 cities per player: the capital stays on its space for the
  whole game (CIV-23.3); a city is unused or on the map. Unused + cities on the map == 7. A
  barbarian may share a space only with a capital (CIV-A25).
* **Caravans** -- 3 per player: set aside (locked), on the economy card or on the map (never on
  a barbarian, CIV-21.4/21.6). Unlocked figures == max(usable by the economy card, figures on
  the map) (CIV-10.2, CIV-A47).
* **World wonders** -- 24 cards and 24 tokens: each card is in its type's deck (top face up,
  CIV-3.7), removed unseen for 2-3 players, or built; a built wonder's token is on exactly one
  map space, and its card is held by the controller of that space (a city, or a control token
  with no city) or set aside unowned when nobody controls it (CIV-19.2-19.4, CIV-A12). The deck
  sizes per era follow CIV-3.7 (4p 2/2/2, 3p 1/2/2, 2p 1/1/2 per type).
* **City-states** -- one token per city-state whose space is on the map (8 at most): on its
  space while neutral (nothing else there), or on its conqueror's focus card while the space
  holds the conqueror's city or stand-in control token (CIV-15.2, CIV-16.3, CIV-23.4). Tokens of
  city-states not on the map stay in the box.
* **City-state diplomacy cards** -- 2 per city-state on the map: face up beside the map or held
  (at most one per player, CIV-17.2) while it is neutral; both face down while it is conquered
  (CIV-15.2); city-states not on the map keep both in the box (CIV-3.5).
* **Player diplomacy cards** -- 4 per player: with their owner or held by another player
  (never by the owner); at most 4 of one giver per holder (CIV-17.2 with Potala Palace).
* **Natural wonders** -- one token per natural-wonder space on the map: on its space or held by
  exactly one player, who then has a control token on that space (CIV-8.3, CIV-18.2-18.3);
  America's tokens lie on a focus card only while held by America (CIV-24).
* **Barbarians** -- 9 lettered tokens (A-I): on the map (never on water), defeated (off the map,
  CIV-15.1) or, if their spawn point is not on the map, in the box for the whole game (CIV-A40).
* **Resource tokens** -- 8 per type: in the supply, on a map space (only where printed, never
  under a control token) or held by a player (CIV-18.1, CIV-18.4).
* **Focus cards** -- 20 per player: 5 in the row (one per type unless Oxford University, D7)
  and the rest in the focus deck; each row card holds exactly one token place (CIV-7.5).
* **Trade tokens** are unlimited (CIV-23.1) but a card holds 0-3 (CIV-7.2); Great Zimbabwe's
  card holds at most its printed number.
* **Victory cards** -- 5: 3 drawn (4 in the epic game, CIV-25), distinct; marks only on drawn
  cards. Tech dials stay on 0-24 (CIV-9.2).

Hidden information (CIV-26.2): the order of the face-down wonder decks and the wonder cards
removed unseen for 2-3 players; :func:`leaks` reports any of those cards named in a view.
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Callable, Iterable
from itertools import chain, compress
from typing import TYPE_CHECKING, Any

from civtable.games.civilization_a_new_dawn.catalog import (
    CARAVANS,
    CITIES,
    CITY_STATES,
    CONTROL_TOKENS,
    DIAL_LAST,
    ERAS,
    FOCUS_CARDS,
    MAX_CARDS_PER_PLAYER_POTALA,
    NATURAL_WONDERS,
    RESOURCE_TOKENS,
    RESOURCES,
    TYPES,
    VICTORY_CARDS,
    VICTORY_DRAW,
    VICTORY_DRAW_EPIC,
    WATER,
    WONDER_REMOVAL,
    WONDER_TYPES,
    WONDERS,
)
from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

FOCUS_PER_PLAYER = len(FOCUS_CARDS)  # 5 types x levels I-IV (CIV-1.3)
ROW = len(TYPES)


def _owed(state: CivState, seat: int, purpose: int) -> list[K.Frame]:
    """Pending CIV-8.5 decisions of ``seat`` for ``purpose`` (a token still to be chosen)."""
    return [f for f in state.pending if f[0] == K.D_RECLAIM and f[1] == seat and f[3] == purpose]


def _reclaim_pending_at(state: CivState, s: int) -> bool:
    """A CIV-8.5 decision is about to put a token on ``s`` (a transient empty space)."""
    return any(f[0] == K.D_RECLAIM and f[2] == s for f in state.pending)


def check(state: CivState) -> list[str]:
    """Every broken invariant of ``state`` as a short developer-readable message (empty list =
    all hold): conservation of every component, no negative stock and the cheap structural
    rules listed in the module docstring. Pure: reads only, never changes the state.

    Each group first runs a cheap test (counts and scans done in C over the flat lists, facts
    of the map computed once per board) that holds only where the group's full check finds
    nothing; the full check, which names what broke, runs whenever the cheap test does not
    hold (or raises), so the messages are those of the full checks.

    Before either, a group whose inputs (the state's lists it reads, see ``_INPUTS``) are equal
    to those of the previous call, on which it found nothing, is not run again: it would find
    nothing again (see :class:`_Memo`)."""
    out: list[str] = []
    _map(state, out)
    memo = _MEMO
    try:
        snap, changed = memo.compare(state)
    except Exception:  # a broken state: every group runs
        snap, changed = None, -1
    passed = 0
    made = False
    cheap: _Cheap | None = None
    try:
        for g, (ok, full) in enumerate(_GROUPS):
            if snap is not None and (memo.passed >> g) & 1 and not changed & _INPUTS[g]:
                passed |= 1 << g
                continue
            if not made:
                made = True
                try:
                    if _lengths_ok(state):
                        cheap = _Cheap(state, memo.cheap, ~(memo.dirty | changed))
                except Exception:  # a broken state: every group's full check decides
                    cheap = None
                if cheap is not None and not cheap.sane:
                    cheap = None
            try:
                fine = cheap is not None and ok(cheap)
            except Exception:  # a broken state may break a cheap test: the full check decides
                fine = False
            if not fine:
                before = len(out)
                full(state, out)
                if len(out) != before:
                    continue
            passed |= 1 << g
    except BaseException:
        memo.forget()
        raise
    memo.keep(state, snap, passed, changed, cheap if made else memo.cheap)
    _victory(state, out)
    return out


# --- what check() remembers of its previous call --------------------------------------------------
# The state's lists each group of check() reads (its full check, its cheap test and the parts of
# _Cheap that test uses); "reclaim" = the pending CIV-8.5 frames (_owed, _reclaim_pending_at).
# Flat lists of ints, lists of lists of ints, and single ints.
_FLAT = (
    "tok",
    "reinf",
    "city",
    "barb",
    "res",
    "nw",
    "cs",
    "wtok",
    "leader",
    "capital",
    "dial",
    "supply",
    "cities_left",
    "marks",
    "barb_pos",
    "wremoved",
    "wonder_owner",
    "cs_owner",
    "cs_avail",
    "res_supply",
    "nw_card",
)
_NESTED = (
    "row",
    "trade",
    "place",
    "resources",
    "nw_held",
    "caravans",
    "cs_cards",
    "wdecks",
    "pcard_holder",
    "reclaim",
)
_SCALAR = ("gz",)
_FIELDS = _FLAT + _NESTED + _SCALAR
_BIT = {name: 1 << i for i, name in enumerate(_FIELDS)}
_BARB = _BIT["barb"] | _BIT["barb_pos"]


def _mask(*names: str) -> int:
    out = 0
    for name in names:
        out |= _BIT[name]
    return out


#: per group of _GROUPS (same order): the fields it reads
_GROUP_INPUTS: tuple[tuple[str, ...], ...] = (
    ("tok", "reinf", "city", "barb", "barb_pos", "supply", "marks", "reclaim"),  # control tokens
    ("city", "barb", "barb_pos", "capital", "cities_left"),  # cities
    ("caravans", "barb", "row"),  # caravans (the economy card: caravans_allowed)
    ("wdecks", "wremoved", "wtok", "wonder_owner", "city", "tok", "reclaim"),  # wonders
    ("cs", "cs_owner", "cs_cards", "cs_avail", "tok", "city", "reclaim"),  # city-states
    ("pcard_holder",),  # diplomacy
    ("nw", "nw_held", "nw_card", "tok", "leader", "reclaim"),  # natural wonders (is_leader)
    ("barb", "barb_pos"),  # barbarians
    ("res", "res_supply", "resources", "tok"),  # resources
    ("row", "place", "trade", "dial", "gz", "wtok"),  # focus cards (Oxford: wtok)
)
_INPUTS = tuple(_mask(*names) for names in _GROUP_INPUTS)


def _reclaims(state: CivState) -> list[list[int]]:
    """The pending CIV-8.5 frames (what ``_owed`` and ``_reclaim_pending_at`` read)."""
    return [f for f in state.pending if f[0] == K.D_RECLAIM]


_GET_FLAT = operator.attrgetter(*_FLAT)
_GET_NESTED = operator.attrgetter(*_NESTED[:-1])  # all but "reclaim"
_LISTS = {list}


class _Memo:
    """The values of every field in ``_FIELDS`` at the previous call of :func:`check` (copies,
    so later changes to the state do not reach them) and the groups that found nothing then.

    A group's messages are a function of its inputs (the board and player count, which must be
    the same objects, and the fields of ``_GROUP_INPUTS``): a group that found nothing on the
    previous call, none of whose fields differs now, finds nothing again. Fields are compared
    with ``==`` (lists of lists element by element), and only when every field is a list (of
    lists) of ints: ``sum`` of ints is an ``int``, of anything else not (or it raises), so a
    float equal to an int, which the checks would not treat as that int, or a tuple in place of
    a list turn the memo off for that call (every group runs). Bools and other int subclasses
    behave as their ints in every check. The board is compared by identity: boards are never
    changed after set-up (``_facts`` relies on that too)."""

    __slots__ = ("board", "cheap", "dirty", "passed", "players", "snap")

    def __init__(self) -> None:
        self.board: Any = None
        self.players = -1
        self.snap: list[Any] | None = None
        self.passed = 0
        #: the last sane _Cheap built, and the bits of the fields changed since its state
        self.cheap: _Cheap | None = None
        self.dirty = -1

    def forget(self) -> None:
        """Drop what was remembered (the next call runs every group)."""
        self.board = None
        self.snap = None
        self.passed = 0
        self.cheap = None
        self.dirty = -1

    def compare(self, state: CivState) -> tuple[list[Any] | None, int]:
        """The state's fields (in ``_FIELDS`` order) as the next memory (the old copy where
        equal) and the bits of the fields that differ from the remembered ones (all if nothing
        comparable is remembered); ``(None, -1)`` if a field is not of the expected shape."""
        flat = _GET_FLAT(state)
        nested = (*_GET_NESTED(state), _reclaims(state))
        gz = state.gz
        if set(map(type, flat)) != _LISTS or set(map(type, nested)) != _LISTS:
            return None, -1
        inner = list(chain.from_iterable(nested))
        if inner and set(map(type, inner)) != _LISTS:
            return None, -1
        if type(gz) is not int or type(sum(map(sum, flat)) + sum(map(sum, inner))) is not int:
            return None, -1
        cur = [*flat, *nested, gz]
        old = self.snap
        if old is None or state.board is not self.board or state.players != self.players:
            snap = [x[:] for x in flat] + [[y[:] for y in x] for x in nested] + [gz]
            return snap, -1
        differ = list(compress(range(len(cur)), map(operator.ne, cur, old)))
        snap = list(old)
        changed = 0
        for i in differ:
            x = cur[i]
            changed |= 1 << i
            if i < _N_FLAT:
                snap[i] = x[:]
            elif i < _N_LISTS:
                snap[i] = [y[:] for y in x]
            else:
                snap[i] = x
        return snap, changed

    def keep(
        self,
        state: CivState,
        snap: list[Any] | None,
        passed: int,
        changed: int,
        cheap: _Cheap | None,
    ) -> None:
        """Remember ``snap`` (from :meth:`compare`, with the bits ``changed`` since the previous
        call), the groups that found nothing and the last _Cheap (``cheap``: of this state if
        one was built now, else the one remembered)."""
        if snap is None or type(state.players) is not int:
            self.forget()
            return
        self.board = state.board
        self.players = state.players
        self.snap = snap
        self.passed = passed
        if cheap is None:
            self.cheap, self.dirty = None, -1
        elif cheap is self.cheap:
            self.dirty |= changed
        else:
            self.cheap, self.dirty = cheap, 0


_N_FLAT = len(_FLAT)
_N_LISTS = len(_FLAT) + len(_NESTED)
_MEMO = _Memo()


def _map(state: CivState, out: list[str]) -> None:
    n = state.board.size
    for name in ("tok", "reinf", "city", "barb", "res", "nw", "cs", "wtok"):
        if len(getattr(state, name)) != n:
            out.append(f"space list {name} has {len(getattr(state, name))} entries, map has {n}")
            return


def _control_tokens(state: CivState, out: list[str]) -> None:
    b = state.board
    on_map = [0] * state.players
    for s in range(b.size):
        t = state.tok[s]
        if t < -1 or t >= state.players:
            out.append(f"control token of unknown seat {t} on space {s}")
            continue
        if t < 0:
            if state.reinf[s]:
                out.append(f"space {s}: reinforced flag without a control token")
            continue
        on_map[t] += 1
        if b.terrain[s] == WATER:
            out.append(f"control token of seat {t} on water space {s}")
        if state.city[s] >= 0:
            out.append(f"space {s}: control token of seat {t} and city of seat {state.city[s]}")
        if state.barb[s] >= 0:
            out.append(f"space {s}: control token of seat {t} and a barbarian")
    for p in range(state.players):
        marks = bin(state.marks[p]).count("1")
        owed = len(_owed(state, p, C.RC_MARK))
        total = state.supply[p] + on_map[p] + marks - owed
        if state.supply[p] < 0:
            out.append(f"control tokens of seat {p}: supply {state.supply[p]} < 0")
        if total != CONTROL_TOKENS:
            out.append(
                f"control tokens of seat {p}: supply {state.supply[p]} + map {on_map[p]} + "
                f"marks {marks} - owed {owed} = {total}, box holds {CONTROL_TOKENS}"
            )


def _cities(state: CivState, out: list[str]) -> None:
    on_map = [0] * state.players
    for s, c in enumerate(state.city):
        if c < -1 or c >= state.players:
            out.append(f"city of unknown seat {c} on space {s}")
            continue
        if c < 0:
            continue
        on_map[c] += 1
        if state.board.terrain[s] == WATER:
            out.append(f"city of seat {c} on water space {s}")
        if state.barb[s] >= 0 and state.capital[c] != s:
            out.append(f"space {s}: a barbarian shares a (non-capital) city of seat {c}")
    for p in range(state.players):
        cap = state.capital[p]
        if cap >= 0 and state.city[cap] != p:
            out.append(f"capital of seat {p} (space {cap}) is not on its space")
        capital = 1 if cap >= 0 else 0  # a standard-map set-up may not have placed it yet
        if state.cities_left[p] < 0:
            out.append(f"cities of seat {p}: {state.cities_left[p]} unused < 0")
        if state.cities_left[p] + on_map[p] - capital != CITIES:
            out.append(
                f"cities of seat {p}: unused {state.cities_left[p]} + on the map "
                f"{on_map[p] - capital} = {state.cities_left[p] + on_map[p] - capital}, "
                f"box holds {CITIES} (and the capital)"
            )


def _caravans(state: CivState, out: list[str]) -> None:
    n = state.board.size
    for p in range(state.players):
        cv = state.caravans[p]
        if len(cv) != CARAVANS:
            out.append(f"caravans of seat {p}: {len(cv)} figures, box holds {CARAVANS}")
            continue
        for i, pos in enumerate(cv):
            if pos < -2 or pos >= n:
                out.append(f"caravan {i} of seat {p} at unknown position {pos}")
            elif pos >= 0 and state.barb[pos] >= 0:
                out.append(f"caravan {i} of seat {p} shares space {pos} with a barbarian")
        on_map = sum(1 for x in cv if x >= 0)
        unlocked = sum(1 for x in cv if x != -2)
        allowed = C.caravans_allowed(state, p)
        if unlocked != max(allowed, on_map):
            out.append(
                f"caravans of seat {p}: {unlocked} unlocked ({on_map} on the map), the economy "
                f"card allows {allowed}"
            )


def _wonders(state: CivState, out: list[str]) -> None:
    nw = len(WONDERS)
    # where each wonder card is: a deck (its type), removed unseen (-1) or on a space (-2 - s);
    # the places are named only for a message
    places: list[list[int]] = [[] for _ in range(nw)]
    for t, deck in enumerate(state.wdecks):
        for w in deck:
            places[w].append(t)
            if WONDERS[w].type != t:
                out.append(f"wonder {WONDERS[w].id} in the {WONDER_TYPES[t]} deck")
        eras = [WONDERS[w].era for w in deck]
        if eras != sorted(eras):
            out.append(f"{WONDER_TYPES[t]} wonder deck not ordered ancient to modern: {eras}")
    for w in state.wremoved:
        places[w].append(-1)
    for s, w in enumerate(state.wtok):
        if w >= 0:
            places[w].append(-2 - s)
    for w in range(nw):
        if len(places[w]) != 1:
            where = ", ".join(_wonder_place(p) for p in places[w]) or "nowhere"
            out.append(f"wonder {WONDERS[w].id} is in {len(places[w])} places: {where}")
        owner = state.wonder_owner[w]
        built = any(p <= -2 for p in places[w])
        if not built:
            if owner != -1:
                out.append(f"wonder {WONDERS[w].id} not built but held by seat {owner}")
            continue
        s = state.wtok.index(w)
        holder = state.city[s] if state.city[s] >= 0 else state.tok[s]
        if owner != holder and not _reclaim_pending_at(state, s):
            out.append(
                f"wonder {WONDERS[w].id} on space {s}: card held by seat {owner}, the space is "
                f"controlled by seat {holder}"
            )
    removal = WONDER_REMOVAL.get(state.players, {})
    for t in range(len(WONDER_TYPES)):
        for era in range(len(ERAS)):
            k = sum(1 for w in state.wremoved if WONDERS[w].type == t and WONDERS[w].era == era)
            want = int(removal.get(ERAS[era], 0))
            if k != want:
                out.append(
                    f"{WONDER_TYPES[t]} {ERAS[era]} wonders removed unseen: {k}, CIV-3.7 says "
                    f"{want} with {state.players} players"
                )


def _wonder_place(p: int) -> str:
    """A place of :func:`_wonders` in words."""
    if p >= 0:
        return f"{WONDER_TYPES[p]} deck"
    return "removed" if p == -1 else f"token on space {-2 - p}"


def _city_states(state: CivState, out: list[str]) -> None:
    b = state.board
    spaces = {c: s for s, c in enumerate(b.city_state) if c >= 0}
    for s, c in enumerate(state.cs):
        if c >= 0 and b.city_state[s] != c:
            out.append(f"city-state token {CITY_STATES[c].id} on space {s}, not its own")
    for c in range(len(CITY_STATES)):
        name = CITY_STATES[c].id
        owner = state.cs_owner[c]
        held = sum(1 for h in state.cs_cards if c in h)
        avail = state.cs_avail[c]
        if c not in spaces:
            if owner != -1 or held or avail != 0:
                out.append(
                    f"city-state {name} is not on the map but has owner {owner}, {held} held "
                    f"and {avail} face-up cards"
                )
            continue
        s = spaces[c]
        on_space = state.cs[s] == c
        if owner == -1:
            if not on_space:
                out.append(f"neutral city-state {name}: token not on its space {s}")
            if state.tok[s] >= 0 or state.city[s] >= 0:
                out.append(f"neutral city-state {name} shares space {s} with a token or city")
            if avail < 0 or avail + held != 2:
                out.append(
                    f"cards of neutral city-state {name}: face up {avail} + held {held}, box "
                    "holds 2"
                )
            continue
        if owner < 0 or owner >= state.players:
            out.append(f"city-state {name}: unknown owner {owner}")
            continue
        if on_space:
            out.append(f"city-state {name} conquered by seat {owner} but its token is on {s}")
        occupant = state.city[s] if state.city[s] >= 0 else state.tok[s]
        if occupant != owner and not _reclaim_pending_at(state, s):
            out.append(
                f"city-state {name} conquered by seat {owner}, its space {s} is held by {occupant}"
            )
        if avail != -1 or held:
            out.append(
                f"cards of conquered city-state {name}: {avail} face up and {held} held, both "
                "must be face down"
            )
    for p in range(state.players):
        if len(set(state.cs_cards[p])) != len(state.cs_cards[p]):
            out.append(f"seat {p} holds two cards of one city-state: {state.cs_cards[p]}")


def _diplomacy(state: CivState, out: list[str]) -> None:
    for g in range(state.players):
        for k, h in enumerate(state.pcard_holder[g]):
            if h == g or h < -1 or h >= state.players:
                out.append(f"diplomacy card {k} of seat {g} held by {h}")
    for p in range(state.players):
        for g in range(state.players):
            n = sum(1 for h in state.pcard_holder[g] if h == p)
            if g != p and n > MAX_CARDS_PER_PLAYER_POTALA:
                out.append(f"seat {p} holds {n} diplomacy cards of seat {g}")


def _natural_wonders(state: CivState, out: list[str]) -> None:
    b = state.board
    where: dict[int, list[str]] = {}
    for s, n in enumerate(state.nw):
        if n >= 0:
            where.setdefault(n, []).append(f"space {s}")
            if b.natural_wonder[s] != n:
                out.append(f"natural wonder {NATURAL_WONDERS[n].id} on space {s}, not its own")
            if state.tok[s] >= 0:
                out.append(f"natural wonder token on space {s} under a control token")
    for p in range(state.players):
        for n in state.nw_held[p]:
            where.setdefault(n, []).append(f"seat {p}")
            s = b.natural_wonder.index(n) if n in b.natural_wonder else -1
            if s >= 0 and state.tok[s] != p and not _reclaim_pending_at(state, s):
                out.append(
                    f"seat {p} holds natural wonder {NATURAL_WONDERS[n].id} without a control "
                    f"token on its space {s}"
                )
    for n in b.natural_wonder:
        if n >= 0 and len(where.get(n, [])) != 1:
            got = ", ".join(where.get(n, [])) or "nowhere"
            out.append(f"natural wonder {NATURAL_WONDERS[n].id} is in: {got}")
    for n in where:
        if n not in b.natural_wonder:
            out.append(f"natural wonder {NATURAL_WONDERS[n].id} is not on this map but in play")
    for n, k in enumerate(state.nw_card):
        if k < 0:
            continue
        holders = [p for p in range(state.players) if n in state.nw_held[p]]
        if not holders or not C.is_leader(state, holders[0], "america") or k >= ROW:
            out.append(f"natural wonder {NATURAL_WONDERS[n].id} lies on focus place {k}")


def _barbarians(state: CivState, out: list[str]) -> None:
    b = state.board
    for letter, pos in enumerate(state.barb_pos):
        spawn = letter in b.spawn
        if pos == -2 and spawn:
            out.append(f"barbarian {letter} kept in the box although its spawn point is on the map")
        elif pos != -2 and not spawn:
            out.append(f"barbarian {letter} in play although its spawn point is not on the map")
        if pos >= 0:
            if state.barb[pos] < 0 or state.barb_pos[state.barb[pos]] != pos:
                out.append(f"barbarian {letter} on space {pos} is not shown there")
            if b.terrain[pos] == WATER:
                out.append(f"barbarian {letter} on water space {pos}")
    for s, letter in enumerate(state.barb):
        if letter >= 0 and state.barb_pos[letter] != s:
            out.append(f"space {s} shows barbarian {letter}, which is at {state.barb_pos[letter]}")


def _resources(state: CivState, out: list[str]) -> None:
    for r in range(len(RESOURCES)):
        held = sum(state.resources[p][r] for p in range(state.players))
        on_map = sum(1 for x in state.res if x == r)
        total = state.res_supply[r] + held + on_map
        if total != RESOURCE_TOKENS or state.res_supply[r] < 0:
            out.append(
                f"{RESOURCES[r]} tokens: supply {state.res_supply[r]} + held {held} + map "
                f"{on_map} = {total}, box holds {RESOURCE_TOKENS}"
            )
        for p in range(state.players):
            if state.resources[p][r] < 0:
                out.append(f"seat {p} holds {state.resources[p][r]} {RESOURCES[r]}")
    for s, r in enumerate(state.res):
        if r >= 0 and (state.board.resource[s] != r or state.tok[s] >= 0):
            out.append(f"{RESOURCES[r]} token on space {s} where it cannot lie")


def _focus_cards(state: CivState, out: list[str]) -> None:
    mixed_ok = _oxford_built(state)
    for p in range(state.players):
        row = state.row[p]
        if len(row) != ROW or len(set(row)) != ROW:
            out.append(f"focus row of seat {p} is {row}: 5 distinct cards expected")
        if any(c < 0 or c >= FOCUS_PER_PLAYER for c in row):
            out.append(f"focus row of seat {p} names unknown cards: {row}")
            continue
        if sorted(state.place[p]) != sorted(row):
            out.append(f"token places of seat {p} {state.place[p]} are not its row {row}")
        types = sorted(FOCUS_CARDS[c].type for c in row)
        if types != list(range(ROW)) and not mixed_ok:
            out.append(f"focus row of seat {p} is not one card per type: {types}")
        for k, x in enumerate(state.trade[p]):
            if not 0 <= x <= 3:
                out.append(f"trade tokens of seat {p} on place {k}: {x} (CIV-7.2: 0-3)")
        if not 0 <= state.dial[p] <= DIAL_LAST:
            out.append(f"tech dial of seat {p} on {state.dial[p]}")
    from civtable.games.civilization_a_new_dawn.rules.turn import gz_cap

    if not 0 <= state.gz <= gz_cap():
        out.append(f"Great Zimbabwe holds {state.gz} trade tokens")


def _oxford_built(state: CivState) -> bool:
    """Oxford University has been built: a row may then hold several cards of one type (D7; a
    player who loses it keeps the row)."""
    return C.wonder_space(state, C.W["oxford_university"]) >= 0


def _victory(state: CivState, out: list[str]) -> None:
    want = VICTORY_DRAW_EPIC if state.options.get("epic") else VICTORY_DRAW
    v = state.victory
    if len(v) != want or len(set(v)) != want or any(not 0 <= x < len(VICTORY_CARDS) for x in v):
        out.append(f"victory cards {v}: {want} distinct of {len(VICTORY_CARDS)} expected")
    for p in range(state.players):
        if state.marks[p] >> len(v):
            out.append(f"seat {p} has a mark on an undrawn victory card ({state.marks[p]:b})")


# --- the cheap tests of check() -------------------------------------------------------------------
# Each ``_ok_*`` returns True only when the full check of its group would add no message (and
# could not raise); False sends the group to its full check.

_WTYPE = tuple(w.type for w in WONDERS)
_WERA = tuple(w.era for w in WONDERS)
_ALL_WONDERS = list(range(len(WONDERS)))
_FTYPE = tuple(c.type for c in FOCUS_CARDS)
_ROW_TYPES = list(range(ROW))
_NUM_CS = len(CITY_STATES)


class _MapFacts:
    """What check() needs of a board, computed once per board."""

    def __init__(self, b: Any) -> None:
        self.board = b  # kept so the board's id is not reused while cached
        self.water = frozenset(s for s in range(b.size) if b.terrain[s] == WATER)
        #: the entries of a per-space list on the water spaces, as a tuple
        self.water_of = _getter(sorted(self.water))
        # the only spaces a resource, natural-wonder or city-state token may lie on
        self.res_sp = [s for s, r in enumerate(b.resource) if r >= 0]
        self.res_of = _getter(self.res_sp)
        self.nw_sp = [s for s, x in enumerate(b.natural_wonder) if x >= 0]
        self.nw_of = _getter(self.nw_sp)
        self.cs_sp = [s for s, x in enumerate(b.city_state) if x >= 0]
        self.cs_of = _getter(self.cs_sp)
        self.cs_space = {c: s for s, c in enumerate(b.city_state) if c >= 0}
        self.nw_space: dict[int, int] = {}
        for s, n in enumerate(b.natural_wonder):
            self.nw_space.setdefault(n, s)  # the first space, as list.index finds it
        self.nw_on_map = sorted({n for n in b.natural_wonder if n >= 0})
        self.spawn = frozenset(b.spawn)


def _getter(spaces: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """The entries of a list at ``spaces``, as a tuple (one C call)."""
    if len(spaces) > 1:
        return operator.itemgetter(*spaces)
    return lambda v: tuple(v[s] for s in spaces)


_FACTS: dict[int, _MapFacts] = {}


def _facts(b: Any) -> _MapFacts:
    f = _FACTS.get(id(b))
    if f is None or f.board is not b:
        if len(_FACTS) > 64:
            _FACTS.clear()
        f = _FACTS[id(b)] = _MapFacts(b)
    return f


def _lengths_ok(state: CivState) -> bool:
    """Every per-space list has one entry per space (the cheap tests index them freely)."""
    n = state.board.size
    return n > 0 and all(
        len(x) == n
        for x in (
            state.tok,
            state.reinf,
            state.city,
            state.barb,
            state.res,
            state.nw,
            state.cs,
            state.wtok,
        )
    )


class _Cheap:
    """The state, its map facts, each seat's tokens and cities on the map and the occupied
    spaces of the sparse per-space lists, found with few passes over each list, for the cheap
    tests. ``sane``: every entry of the per-space lists is -1 or a seat, letter or id that may
    lie there (resource, natural-wonder and city-state tokens only on their printed spaces,
    each barbarian shown on its own space), so those spaces are every occupied one."""

    __slots__ = (
        "barb",
        "city",
        "city_count",
        "cs",
        "f",
        "n",
        "nw",
        "p",
        "res",
        "res_vals",
        "sane",
        "sane_barb",
        "sane_city",
        "sane_cs",
        "sane_nw",
        "sane_res",
        "sane_tok",
        "sane_wtok",
        "st",
        "tok_count",
        "wtok",
    )

    tok_count: list[int]
    city_count: list[int]
    city: list[int]
    barb: list[int]
    res_vals: tuple[int, ...]
    res: list[int]
    nw: list[int]
    cs: list[int]
    wtok: list[int]
    sane_tok: bool
    sane_city: bool
    sane_barb: bool
    sane_res: bool
    sane_nw: bool
    sane_cs: bool
    sane_wtok: bool

    def __init__(self, state: CivState, prev: _Cheap | None = None, same: int = 0) -> None:
        """``prev``: the _Cheap of an earlier state with the same board and player count;
        ``same``: the bits (``_BIT``) of the fields equal in both, whose parts are taken from
        ``prev`` instead of being found again (each part reads only its own fields)."""
        self.st = state
        self.f = f = _facts(state.board)
        self.p = p = state.players
        self.n = n = state.board.size
        if prev is None:
            same = 0
        if same & _BIT["tok"]:
            assert prev is not None
            self.tok_count, self.sane_tok = prev.tok_count, prev.sane_tok
        else:
            tok = state.tok
            self.tok_count = [tok.count(q) for q in range(p)]
            self.sane_tok = tok.count(-1) + sum(self.tok_count) == n
        if same & _BIT["city"]:
            assert prev is not None
            self.city_count, self.city, self.sane_city = prev.city_count, prev.city, prev.sane_city
        else:
            city = state.city
            self.city_count = [city.count(q) for q in range(p)]
            self.sane_city = city.count(-1) + sum(self.city_count) == n
            self.city = _places(city, self.city_count) if self.sane_city else []
        if same & _BARB == _BARB:
            assert prev is not None
            self.barb, self.sane_barb = prev.barb, prev.sane_barb
        else:
            # barbarians: where their letters say, and nowhere else
            barb = state.barb
            self.barb = [pos for pos in state.barb_pos if pos >= 0]
            sane = barb.count(-1) == n - len(self.barb)
            for letter, pos in enumerate(state.barb_pos):
                if pos >= 0 and (pos >= n or barb[pos] != letter):
                    sane = False
            self.sane_barb = sane
        if same & _BIT["res"]:
            assert prev is not None
            self.res_vals, self.res, self.sane_res = prev.res_vals, prev.res, prev.sane_res
        else:
            self.res_vals = f.res_of(state.res)
            self.res = _on(f.res_sp, self.res_vals)
            self.sane_res = _sparse_ok(state.res, self.res, n)
        if same & _BIT["nw"]:
            assert prev is not None
            self.nw, self.sane_nw = prev.nw, prev.sane_nw
        else:
            self.nw = _on(f.nw_sp, f.nw_of(state.nw))
            self.sane_nw = _sparse_ok(state.nw, self.nw, n)
        if same & _BIT["cs"]:
            assert prev is not None
            self.cs, self.sane_cs = prev.cs, prev.sane_cs
        else:
            self.cs = _on(f.cs_sp, f.cs_of(state.cs))
            self.sane_cs = _sparse_ok(state.cs, self.cs, n)
        if same & _BIT["wtok"]:
            assert prev is not None
            self.wtok, self.sane_wtok = prev.wtok, prev.sane_wtok
        else:
            wtok = state.wtok
            self.wtok = [] if wtok.count(-1) == n else [s for s, x in enumerate(wtok) if x != -1]
            self.sane_wtok = _non_negative(wtok, self.wtok)
        self.sane = (
            self.sane_tok
            and self.sane_city
            and self.sane_barb
            and self.sane_res
            and self.sane_nw
            and self.sane_cs
            and self.sane_wtok
        )


def _sparse_ok(values: list[int], found: list[int], n: int) -> bool:
    """No entry off the printed spaces (``found``: the printed spaces holding one), none
    negative but -1."""
    return values.count(-1) == n - len(found) and _non_negative(values, found)


def _places(values: list[int], counts: list[int]) -> list[int]:
    """Where each value ``q`` with ``counts[q]`` places stands, by the list's own search."""
    out: list[int] = []
    for q, k in enumerate(counts):
        i = -1
        for _ in range(k):
            i = values.index(q, i + 1)
            out.append(i)
    return out


def _on(spaces: list[int], values: tuple[int, ...]) -> list[int]:
    """The spaces among ``spaces`` whose entry (in ``values``) is not -1."""
    return [s for s, x in zip(spaces, values, strict=True) if x != -1]


def _non_negative(values: list[int], spaces: list[int]) -> bool:
    return all(values[s] >= 0 for s in spaces)


def _seat_lists_ok(x: Any, players: int) -> bool:
    return isinstance(x, list) and len(x) == players


def _ok_control_tokens(c: _Cheap) -> bool:
    st, p = c.st, c.p
    tok = st.tok
    for s in compress(range(c.n), st.reinf):
        if tok[s] < 0:
            return False
    if c.f.water_of(tok).count(-1) != len(c.f.water):  # no token on water
        return False
    for s in c.city:
        if tok[s] >= 0:
            return False
    for s in c.barb:
        if tok[s] >= 0:
            return False
    if not (_seat_lists_ok(st.supply, p) and _seat_lists_ok(st.marks, p)):
        return False
    for q in range(p):
        supply = st.supply[q]
        if supply < 0:
            return False
        marks = bin(st.marks[q]).count("1")
        if supply + c.tok_count[q] + marks - len(_owed(st, q, C.RC_MARK)) != CONTROL_TOKENS:
            return False
    return True


def _ok_cities(c: _Cheap) -> bool:
    st, p = c.st, c.p
    city = st.city
    if not (_seat_lists_ok(st.capital, p) and _seat_lists_ok(st.cities_left, p)):
        return False
    if c.f.water_of(city).count(-1) != len(c.f.water):  # no city on water
        return False
    for s in c.barb:  # a barbarian shares only a capital
        if city[s] >= 0 and st.capital[city[s]] != s:
            return False
    for q in range(p):
        cap = st.capital[q]
        if cap >= c.n or (cap >= 0 and city[cap] != q):
            return False
        left = st.cities_left[q]
        if left < 0 or left + c.city_count[q] - (1 if cap >= 0 else 0) != CITIES:
            return False
    return True


def _ok_caravans(c: _Cheap) -> bool:
    st, p, n = c.st, c.p, c.n
    if not _seat_lists_ok(st.caravans, p):
        return False
    for q in range(p):
        cv = st.caravans[q]
        if len(cv) != CARAVANS:
            return False
        on_map = 0
        unlocked = 0
        for pos in cv:
            if pos < -2 or pos >= n:
                return False
            if pos >= 0:
                if st.barb[pos] >= 0:
                    return False
                on_map += 1
            if pos != -2:
                unlocked += 1
        if unlocked != max(C.caravans_allowed(st, q), on_map):
            return False
    return True


_REMOVED: dict[int, list[tuple[int, int]]] = {}


def _removed_unseen(players: int) -> list[tuple[int, int]]:
    """(type, era) of each wonder CIV-3.7 removes unseen, sorted."""
    got = _REMOVED.get(players)
    if got is None:
        removal = WONDER_REMOVAL.get(players, {})
        got = _REMOVED[players] = sorted(
            (t, era)
            for t in range(len(WONDER_TYPES))
            for era in range(len(ERAS))
            for _ in range(int(removal.get(ERAS[era], 0)))
        )
    return got


def _ok_wonders(c: _Cheap) -> bool:
    st = c.st
    wtok, city, tok = st.wtok, st.city, st.tok
    owner = st.wonder_owner
    if len(owner) != len(WONDERS):
        return False
    built_at = c.wtok
    built = [wtok[s] for s in built_at]
    every = list(st.wremoved) + built
    for t, deck in enumerate(st.wdecks):
        every += deck
        era = -1
        for w in deck:
            if not 0 <= w < len(WONDERS) or _WTYPE[w] != t or _WERA[w] < era:
                return False
            era = _WERA[w]
    if sorted(every) != _ALL_WONDERS:  # each wonder card in exactly one place
        return False
    for s in built_at:
        holder = city[s] if city[s] >= 0 else tok[s]
        if owner[wtok[s]] != holder:
            return False
    if owner.count(-1) + len(built) != len(WONDERS) + sum(1 for w in built if owner[w] == -1):
        return False  # a wonder not built is held by nobody
    return sorted((_WTYPE[w], _WERA[w]) for w in st.wremoved) == _removed_unseen(st.players)


def _ok_city_states(c: _Cheap) -> bool:
    st, p = c.st, c.p
    cs, tok, city = st.cs, st.tok, st.city
    b_cs = st.board.city_state
    if len(st.cs_owner) != _NUM_CS or len(st.cs_avail) != _NUM_CS:
        return False
    for s in c.cs:
        if b_cs[s] != cs[s]:
            return False
    if not _seat_lists_ok(st.cs_cards, p):
        return False
    held_all: list[int] = []
    for h in st.cs_cards:
        if len(set(h)) != len(h):
            return False
        held_all += h
    spaces = c.f.cs_space
    for k in range(_NUM_CS):
        owner = st.cs_owner[k]
        held = held_all.count(k)
        avail = st.cs_avail[k]
        at = spaces.get(k)
        if at is None:
            if owner != -1 or held or avail != 0:
                return False
            continue
        s = at
        if owner == -1:
            if cs[s] != k or tok[s] >= 0 or city[s] >= 0 or avail < 0 or avail + held != 2:
                return False
            continue
        if owner < 0 or owner >= p or cs[s] == k or avail != -1 or held:
            return False
        if (city[s] if city[s] >= 0 else tok[s]) != owner:
            return False
    return True


def _ok_diplomacy(c: _Cheap) -> bool:
    p = c.p
    holders = c.st.pcard_holder
    if not _seat_lists_ok(holders, p):
        return False
    for g in range(p):
        hs = holders[g]
        for h in hs:
            if h == g or h < -1 or h >= p:
                return False
        if len(hs) > MAX_CARDS_PER_PLAYER_POTALA:
            for q in range(p):
                if hs.count(q) > MAX_CARDS_PER_PLAYER_POTALA:
                    return False
    return True


def _ok_natural_wonders(c: _Cheap) -> bool:
    st, p = c.st, c.p
    nw, tok = st.nw, st.tok
    b_nw = st.board.natural_wonder
    if not _seat_lists_ok(st.nw_held, p):
        return False
    where: list[int] = []
    for s in c.nw:
        n = nw[s]
        if b_nw[s] != n or tok[s] >= 0:
            return False
        where.append(n)
    nw_space = c.f.nw_space
    for q in range(p):
        for n in st.nw_held[q]:
            s = nw_space.get(n, -1)
            if s >= 0 and tok[s] != q:
                return False
            where.append(n)
    if sorted(where) != c.f.nw_on_map:  # each token on the map in exactly one place
        return False
    for n, k in enumerate(st.nw_card):
        if k >= 0:
            holders = [q for q in range(p) if n in st.nw_held[q]]
            if not holders or not C.is_leader(st, holders[0], "america") or k >= ROW:
                return False
    return True


def _ok_barbarians(c: _Cheap) -> bool:
    st, n = c.st, c.n
    barb, pos_of = st.barb, st.barb_pos
    spawn, water = c.f.spawn, c.f.water
    for letter, pos in enumerate(pos_of):
        if (pos == -2) == (letter in spawn) or pos < -2 or pos >= n:
            return False
        if pos >= 0 and (barb[pos] != letter or pos in water):
            return False
    return all(pos_of[barb[s]] == s for s in c.barb)


def _ok_resources(c: _Cheap) -> bool:
    st, p = c.st, c.p
    res, tok = st.res, st.tok
    if not _seat_lists_ok(st.resources, p):
        return False
    b_res = st.board.resource
    for s in c.res:
        if b_res[s] != res[s] or tok[s] >= 0:
            return False
    for r in range(len(RESOURCES)):
        supply = st.res_supply[r]
        held = 0
        for q in range(p):
            x = st.resources[q][r]
            if x < 0:
                return False
            held += x
        if supply < 0 or supply + held + c.res_vals.count(r) != RESOURCE_TOKENS:
            return False
    return True


def _ok_focus_cards(c: _Cheap) -> bool:
    st, p = c.st, c.p
    mixed_ok: bool | None = None
    for q in range(p):
        row = st.row[q]
        if len(row) != ROW or len(set(row)) != ROW or min(row) < 0 or max(row) >= FOCUS_PER_PLAYER:
            return False
        if sorted(st.place[q]) != sorted(row):
            return False
        if sorted([_FTYPE[k] for k in row]) != _ROW_TYPES:
            if mixed_ok is None:
                mixed_ok = _oxford_built(st)
            if not mixed_ok:
                return False
        for x in st.trade[q]:
            if not 0 <= x <= 3:
                return False
        if not 0 <= st.dial[q] <= DIAL_LAST:
            return False
    return 0 <= st.gz <= _gz_cap()


@functools.cache
def _gz_cap() -> int:
    from civtable.games.civilization_a_new_dawn.rules.turn import gz_cap

    return gz_cap()


_GROUPS: tuple[tuple[Callable[[_Cheap], bool], Callable[[CivState, list[str]], None]], ...] = (
    (_ok_control_tokens, _control_tokens),
    (_ok_cities, _cities),
    (_ok_caravans, _caravans),
    (_ok_wonders, _wonders),
    (_ok_city_states, _city_states),
    (_ok_diplomacy, _diplomacy),
    (_ok_natural_wonders, _natural_wonders),
    (_ok_barbarians, _barbarians),
    (_ok_resources, _resources),
    (_ok_focus_cards, _focus_cards),
)


# --- hidden information -------------------------------------------------------------------------
def hidden_wonders(state: CivState) -> list[int]:
    """The wonder cards nobody may identify (CIV-26.2): every face-down deck card and every
    card removed unseen (CIV-3.7)."""
    return [w for deck in state.wdecks for w in deck[1:]] + list(state.wremoved)


def _strings(doc: Any, acc: list[str]) -> list[str]:
    if isinstance(doc, str):
        acc.append(doc)
    elif isinstance(doc, dict):
        for k, v in doc.items():
            acc.append(str(k))
            _strings(v, acc)
    elif isinstance(doc, list | tuple):
        for v in doc:
            _strings(v, acc)
    return acc


def _plain_in_json(name: str) -> bool:
    """JSON text spells ``name`` as it is (nothing escaped) and it holds no word JSON writes
    outside a string or spells differently from ``str()`` (``True`` keys become ``true``)."""
    words = ("true", "false", "null", "none", "nan", "infinity")
    return json.dumps(name, ensure_ascii=False)[1:-1] == name and not any(
        word in name.lower() for word in words
    )


if not all(_plain_in_json(n) for w in WONDERS for n in (w.id, w.name)):  # pragma: no cover
    raise AssertionError("a wonder name JSON escapes: the leak scan's first pass would miss it")


def _fold(name: str) -> str:
    """``name`` as the leak scan's first pass compares it: lower case, spaces as underscores.
    Character by character for every character but the Greek capital sigma (whose lower case
    depends on its neighbours), so a name without one, found in a text, is found folded in the
    folded text."""
    return name.lower().replace(" ", "_")


if any("\u03a3" in n for w in WONDERS for n in (w.id, w.name)):  # pragma: no cover
    raise AssertionError("a wonder name holds a capital sigma: the folded search could miss it")

#: per wonder card: its id and name folded (usually one key)
_KEYS = tuple(tuple(sorted({_fold(w.id), _fold(w.name)})) for w in WONDERS)


@functools.cache
def _word(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (not inside a longer word)."""
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def _whole_word(name: str, text: str) -> bool:
    """``_word(name).search(text)`` found a match: the expression tried only where the name
    starts (found by the plain substring search, far cheaper than the expression's scan of a
    whole view; its look-behind still sees the character before)."""
    i = text.find(name)
    if i < 0:
        return False
    pattern = _word(name)
    while i >= 0:
        if pattern.match(text, i):
            return True
        i = text.find(name, i + 1)
    return False


#: JSON text of shared view parts (dicts and lists at the top of views), by id: (the part, the
#: part as read back from its text, the text, the wonders whose folded names are in it)
_PART_TEXT: dict[int, tuple[Any, Any, str, frozenset[int]]] = {}
#: parts seen once, by id (a part seen twice is shared: its text is kept)
_SEEN: dict[int, Any] = {}
#: entries kept at most in each (past it the cache starts again; it only bounds the memory)
PART_TEXTS = 4096


def _folded_in(text: str, wonders: Iterable[int]) -> list[int]:
    """Those of ``wonders`` a folded name of which is in ``text`` folded (see :func:`_fold`)."""
    low = text.lower().replace(" ", "_")
    return [w for w in wonders if any(k in low for k in _KEYS[w])]


def _shared_text(part: Any) -> tuple[str, frozenset[int]] | None:
    """``json.dumps(part, ensure_ascii=False)`` and the wonders :func:`_folded_in` it, if
    ``part`` was seen before (views share parts between positions and viewers: ``map_json``,
    ``view._part``); None for a part seen for the first time. A part's text is reused while
    the part is still equal (``==``) to what its text reads back as: then every string in it
    (keys and values) is the same, and the text can differ only in a number or a JSON word
    (``1`` for ``true``), which holds no name and never touches a string's characters. A
    part changed in place, or not equal to its read-back form (a tuple, an int key), is
    written again."""
    key = id(part)
    got = _PART_TEXT.get(key)
    if got is not None and got[0] is part:
        if part == got[1]:
            return got[2], got[3]
    elif _SEEN.get(key) is not part:
        if len(_SEEN) >= PART_TEXTS:
            _SEEN.clear()
        _SEEN[key] = part
        return None
    text = json.dumps(part, ensure_ascii=False, check_circular=False)
    found = frozenset(_folded_in(text, range(len(WONDERS))))
    if len(_PART_TEXT) >= PART_TEXTS:
        _PART_TEXT.clear()
    _PART_TEXT[key] = (part, json.loads(text), text, found)
    return text, found


def _view_texts(view: Any, hidden: list[int]) -> tuple[list[str], list[int]] | None:
    """The JSON text of a view in pieces (each shared dict or list at its top in its own piece,
    see :func:`_shared_text`; the rest and the keys of those in one more) and those of
    ``hidden`` whose folded names are in them, in order; None if the view is not a dict with
    string keys or a piece holds a backslash (then :func:`leaks` reads the whole text as it
    did). A name found in the whole text lies inside one string, so inside one piece, with
    the same characters on both sides (the string's own, or its quotes), and the other way
    round."""
    if type(view) is not dict:
        return None
    rest: dict[str, Any] = {}
    keys: list[str] = []
    texts: list[str] = []
    found: set[int] = set()
    for k, v in view.items():
        if type(k) is not str:
            return None
        if type(v) is dict or type(v) is list:
            got = _shared_text(v)
            if got is not None:
                keys.append(k)
                texts.append(got[0])
                found |= got[1]
                continue
        rest[k] = v
    head = json.dumps([rest, keys], ensure_ascii=False, check_circular=False)
    texts.append(head)
    if any("\\" in t for t in texts):
        return None
    found.update(_folded_in(head, [w for w in hidden if w not in found]))
    return texts, [w for w in hidden if w in found]


def leaks(state: CivState, viewer: int | None) -> list[str]:
    """Everything hidden from ``viewer`` (a seat, or None = spectator) that nevertheless appears
    in ``state.view(viewer)``: a face-down or removed wonder card named by id or name anywhere
    in the view (each wonder card is unique, so a hidden card's name is never legitimately
    public). Everything else in this game is public (CIV-26.2, CIV-A43)."""
    hidden = hidden_wonders(state)
    if not hidden:
        return []
    view = state.view(viewer)
    try:
        pieces = _view_texts(view, hidden)
    except (TypeError, ValueError, RecursionError):
        pieces = None
    if pieces is not None:
        texts, hidden = pieces
        out = []
        for w in hidden:
            for name in (WONDERS[w].id, WONDERS[w].name):
                if any(_whole_word(name, t) for t in texts):
                    where = "removed unseen" if w in state.wremoved else "face down"
                    out.append(f"view of {viewer} names the {where} wonder {name!r}")
                    break
        return out
    try:
        # One C-level pass first: the view as JSON text. A name inside a string of the view
        # is inside that text too (no name holds a character JSON escapes, checked at import),
        # so a card none of whose names is in it cannot match below: only the cards that may
        # are looked at, in the same order. Without a backslash the text holds every string
        # verbatim between quotes and JSON punctuation (no name holds a JSON word: checked at
        # import), so a whole-word match in it is a whole-word match in a string and back.
        # (check_circular off: a cycle then raises RecursionError instead of ValueError, and
        # the walk below raises as it did.)
        blob = json.dumps(view, ensure_ascii=False, check_circular=False)
    except (TypeError, ValueError, RecursionError):
        blob = None
    if blob is not None:
        # First one search per wonder in the text folded as its names are (_KEYS): a name in
        # the text is in the folded text as its key, so no card is dropped that the exact
        # search below would keep.
        low = blob.lower().replace(" ", "_")
        hidden = [w for w in hidden if any(k in low for k in _KEYS[w])]
        if not hidden:
            return []
        hidden = [w for w in hidden if WONDERS[w].id in blob or WONDERS[w].name in blob]
        if not hidden:
            return []
    text = blob if blob is not None and "\\" not in blob else "\n".join(_strings(view, []))
    out = []
    for w in hidden:
        for name in (WONDERS[w].id, WONDERS[w].name):
            if _whole_word(name, text):
                where = "removed unseen" if w in state.wremoved else "face down"
                out.append(f"view of {viewer} names the {where} wonder {name!r}")
                break
    return out
