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
import re
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
    rules listed in the module docstring. Pure: reads only, never changes the state."""
    out: list[str] = []
    _map(state, out)
    _control_tokens(state, out)
    _cities(state, out)
    _caravans(state, out)
    _wonders(state, out)
    _city_states(state, out)
    _diplomacy(state, out)
    _natural_wonders(state, out)
    _barbarians(state, out)
    _resources(state, out)
    _focus_cards(state, out)
    _victory(state, out)
    return out


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


@functools.cache
def _word(name: str) -> re.Pattern[str]:
    """``name`` as a whole word (not inside a longer word)."""
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def leaks(state: CivState, viewer: int | None) -> list[str]:
    """Everything hidden from ``viewer`` (a seat, or None = spectator) that nevertheless appears
    in ``state.view(viewer)``: a face-down or removed wonder card named by id or name anywhere
    in the view (each wonder card is unique, so a hidden card's name is never legitimately
    public). Everything else in this game is public (CIV-26.2, CIV-A43)."""
    hidden = hidden_wonders(state)
    if not hidden:
        return []
    text = "\n".join(_strings(state.view(viewer), []))
    out = []
    for w in hidden:
        for name in (WONDERS[w].id, WONDERS[w].name):
            # the plain substring test first: a whole-word match needs it, and it is far
            # cheaper than the regular expression over a whole view (the answer is the same)
            if name in text and _word(name).search(text):
                where = "removed unseen" if w in state.wremoved else "face down"
                out.append(f"view of {viewer} names the {where} wonder {name!r}")
                break
    return out
