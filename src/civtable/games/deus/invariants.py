"""Deus: what the box holds and what can never be created or destroyed.

Developer tooling (``civtable fuzz``, the property tests): it reads a state and never changes it.

The box (DEUS-2, D.1) and where each component can be:

* **96 building cards** (DEUS-2.2, 16 per colour; the completed deck of ``deus_data.md`` section
  3): each card is in exactly one place - the draw deck, the discard pile, a hand, a column of a
  tableau (a blind-built card face down, DEUS-21.3), the offering being made (DEUS-10.1) or, for
  the moment between paying and placing, the card being constructed (DEUS-7). A hand never holds
  more than 10 cards (DEUS-5.4).
* **25 wooden pieces per player**, 5 of each of the 5 types (DEUS-2.3): on the player board, in
  the personal supply or on the map (DEUS-5.3), never negative anywhere. Pieces never return
  from the map and a construction always places its piece (DEUS-7.2), so each player has on the
  map exactly as many pieces of a type as cards in the column of that colour (blind cards
  included, DEUS-21.3).
* **7 temples** (DEUS-2.4): one per tile in the general supply (4 / 6 / 7 for 2 / 3 / 4 players,
  DEUS-4.3.1), the rest in the box; supply + temples on the map = the tiles used. A temple stands
  in a region of the player who built it (it pins the army, DEUS-8.7), so a player's temples on
  the map are at most their temple cards, and exactly as many while the supply still holds a
  temple (DEUS-8.5).
* **80 resources**, 20 of each type (DEUS-2.8): 5 per player of each type in the general supply
  (DEUS-4.3.2), the rest in the box; general supply + every player's stock = 5 x players per
  type at all times (payments and sales go back to the supply, gains come from it, DEUS-7.3.2,
  DEUS-11.6), none negative.
* Gold and VP are unlimited (DEUS-2.6, DEUS-2.7, DEUS-4.3.4): never negative, not conserved.
  Village VP only go down (Siege Tower, attacks) and an attacked village holds none (DEUS-9.4).

Besides: one owner per region, an owner iff pieces (DEUS-7.4.4, AMB-37); nothing on a village
(DEUS-7.4.5); at sea only a ship, and an army only on its owner's ship (DEUS-7.4.6, DEUS-16.3);
the end of the game is fixed exactly when a trigger holds (DEUS-18.1); every seat has played
the turns of the rounds so far (DEUS-6.1); each player builds blind at most once (DEUS-21.3).

:func:`leaks` checks a view against DEUS-20: no card appears that the viewer can see nowhere,
no other player's VP shows unless they are public, and the view does not change when the cards,
VP, free-start picks and generator hidden from the viewer are replaced at random.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from civtable.core.jsondiff import json_diff
from civtable.core.rng import Rng
from civtable.games.deus.catalog import (
    ARMY,
    BY_PLAYERS,
    CARDS,
    COLOR_PIECE,
    DECK,
    HAND_LIMIT,
    PIECES,
    PURPLE,
    RESOURCES,
    SEA,
    SHIP,
    TEMPLE,
    VILLAGE,
)
from civtable.games.deus.state import (
    BLIND_MARK,
    COLUMN_PH,
    OVER,
    PAY_PH,
    PICK,
    PLACE,
    DeusState,
)

PIECES_PER_TYPE = 5  # DEUS-2.3
TEMPLES_IN_BOX = 7  # DEUS-2.4
RESOURCES_IN_BOX = 20  # DEUS-2.8, per type
CARDS_IN_BOX = 96  # DEUS-2.2
_BOX: Counter[int] = Counter(DECK)
_SORTED_BOX = sorted(DECK)
_PIECE_COLOR = tuple(COLOR_PIECE.index(p) for p in range(len(PIECES)))  # piece type -> colour


def _card(t: int) -> int:
    return t - BLIND_MARK if t >= BLIND_MARK else t


def building(state: DeusState) -> int:
    """The card being constructed between its payment and its placement, or -1."""
    if state.phase in (COLUMN_PH, PAY_PH, PLACE) and state.ctx:
        return state.ctx[0]
    return -1


def _card_list(state: DeusState) -> list[int]:
    """Every card of the state by type, in one list (see :func:`cards_held`)."""
    held = [*state.deck, *state.discard, *state.offer]
    for hand in state.hands:
        held += hand
    for cols in state.cols:
        for col in cols:
            held += col
    t = building(state)
    if t >= 0:
        held.append(t)
    if held and max(held) >= BLIND_MARK:
        held = [_card(t) for t in held]
    return held


def cards_held(state: DeusState) -> Counter[int]:
    """Every card of the state by type: deck, discard pile, hands, tableaux (blind cards by
    their type), the offering in progress and the card being constructed."""
    return Counter(_card_list(state))


def _check_cards(state: DeusState, out: list[str]) -> None:
    cards = _card_list(state)
    cards.sort()
    if cards != _SORTED_BOX:  # the same multiset or not; the counts name what differs
        held = Counter(cards)
        if len(cards) != CARDS_IN_BOX:
            out.append(f"{len(cards)} cards in the game, the box holds {CARDS_IN_BOX}")
        for t in sorted(set(held) | set(_BOX)):
            if held[t] != _BOX[t]:
                out.append(
                    f"card {CARDS[t].label}: {held[t]} in the game, the deck holds {_BOX[t]}"
                )
    for s, hand in enumerate(state.hands):
        if len(hand) > HAND_LIMIT:
            out.append(f"seat {s} holds {len(hand)} cards (DEUS-5.4: at most {HAND_LIMIT})")
    for s, cols in enumerate(state.cols):
        try:
            fine = _columns_ok(state, s, cols)
        except Exception:  # a broken tableau: the card-by-card check decides
            fine = False
        if not fine:
            _check_columns(state, s, cols, out)


_COLOR = tuple(c.color for c in CARDS)


def _columns_ok(state: DeusState, s: int, cols: list[list[int]]) -> bool:
    """Seat ``s``'s tableau passes :func:`_check_columns` (it would add no message): no blind
    card, every card in its colour's column (looked up in C), no blind building used unless
    the card being constructed is blind."""
    for c, col in enumerate(cols):
        if col and (
            max(col) >= BLIND_MARK or tuple(map(_COLOR.__getitem__, col)).count(c) != len(col)
        ):
            return False
    blinds = int(state.phase in (COLUMN_PH, PAY_PH, PLACE) and state.cur == s and _blind_ctx(state))
    return blinds == state.blind_used[s] and state.blind_used[s] in (0, 1)


def _check_columns(state: DeusState, s: int, cols: list[list[int]], out: list[str]) -> None:
    """Seat ``s``'s tableau card by card: colours, blind cards and their count (DEUS-21.3)."""
    for c, col in enumerate(cols):
        for t in col:
            blind = t >= BLIND_MARK
            if blind and c == PURPLE:
                out.append(f"seat {s}: a blind card in the temple column (DEUS-21.3)")
            elif not blind and CARDS[t].color != c:
                out.append(f"seat {s}: {CARDS[t].label} in the column of colour {c}")
    blinds = sum(t >= BLIND_MARK for col in cols for t in col)
    blinds += int(
        state.phase in (COLUMN_PH, PAY_PH, PLACE) and state.cur == s and _blind_ctx(state)
    )
    if blinds != state.blind_used[s] or state.blind_used[s] not in (0, 1):
        out.append(
            f"seat {s}: {blinds} blind card(s), blind building used "
            f"{state.blind_used[s]} (DEUS-21.3: once per game)"
        )


def _blind_ctx(state: DeusState) -> bool:
    if state.phase == COLUMN_PH:
        return True
    return state.phase in (PAY_PH, PLACE) and len(state.ctx) > 2 and bool(state.ctx[2])


_MASKS = 1 << (TEMPLE + 1)  # every piece mask of a region (bits 0..TEMPLE)
_BITS = tuple(tuple(p for p in range(TEMPLE + 1) if m >> p & 1) for m in range(_MASKS))
_SEA_OK = (1 << SHIP) | (1 << ARMY)
#: per terrain kind (village, sea, land): which non-empty masks _check_map accepts there
_ALLOWED = (
    tuple(False for _ in range(_MASKS)),
    tuple(m != 0 and not m & ~_SEA_OK and bool(m & (1 << SHIP)) for m in range(_MASKS)),
    tuple(m != 0 and not m & (1 << SHIP) for m in range(_MASKS)),
)
_KIND: dict[int, tuple[object, tuple[int, ...]]] = {}  # id(board) -> (board, kind per region)


def _kinds(b: object, terrain: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    got = _KIND.get(id(b))
    if got is None or got[0] is not b:
        if len(_KIND) > 64:
            _KIND.clear()
        kinds = tuple(0 if t == VILLAGE else 1 if t == SEA else 2 for t in terrain)
        got = _KIND[id(b)] = (b, kinds)
    return got[1]


def _map_counts(state: DeusState) -> list[list[int]] | None:
    """Each seat's pieces on the map by type (temples last) when every region holds what
    :func:`_check_map` accepts (it would add no message), else None: only the regions with
    an owner are visited, and every region with pieces must be one of them."""
    mask, owner = state.mask, state.owner
    if len(mask) != len(owner):
        return None
    n = state.players
    owned = [r for r, o in enumerate(owner) if o >= 0]
    if len(mask) - mask.count(0) != len(owned):  # pieces without an owner
        return None
    kinds = _kinds(state.board, state.board.terrain)
    on_map = [[0] * (len(PIECES) + 1) for _ in range(n)]
    for r in owned:
        m, o = mask[r], owner[r]
        if o >= n or not 0 < m < _MASKS or not _ALLOWED[kinds[r]][m]:
            return None
        row = on_map[o]
        for p in _BITS[m]:
            row[p] += 1
    return on_map


def _check_map(state: DeusState, out: list[str]) -> list[list[int]]:
    """Regions hold what DEUS-7.4 allows; returns each seat's pieces on the map by type
    (temples last). The cheap count of :func:`_map_counts` first; the region-by-region
    check, which names what broke, whenever it does not hold."""
    fast = _map_counts(state)
    if fast is not None:
        return fast
    return _check_regions(state, out)


def _check_regions(state: DeusState, out: list[str]) -> list[list[int]]:
    """:func:`_check_map` region by region, naming what broke."""
    b = state.board
    n = state.players
    on_map = [[0] * (len(PIECES) + 1) for _ in range(n)]
    held: Counter[tuple[int, int]] = Counter()  # (owner, pieces) -> regions
    for r, (m, o) in enumerate(zip(state.mask, state.owner, strict=True)):
        if not m and o < 0:
            continue  # an empty region without an owner breaks nothing below
        where = b.ids[r]
        if (m == 0) != (o < 0) or o >= n:
            out.append(f"region {where}: owner {o} with pieces {m:b} (DEUS-7.4.4, AMB-37)")
            continue
        if m >> (TEMPLE + 1):
            out.append(f"region {where}: unknown piece bits {m:b}")
        if b.terrain[r] == VILLAGE and m:
            out.append(f"village {where} holds pieces (DEUS-7.4.5)")
        elif b.terrain[r] == SEA:
            if m & ~((1 << SHIP) | (1 << ARMY)):
                out.append(f"sea region {where} holds a land piece (DEUS-7.4.6)")
            if m and not m & (1 << SHIP):
                out.append(f"sea region {where}: an army without its owner's ship (DEUS-16.3)")
        elif m & (1 << SHIP):
            out.append(f"land region {where} holds a ship (DEUS-7.4.6)")
        held[o, m] += 1
    for (o, m), k in held.items():  # the pieces counted once per distinct region content
        for p in range(len(PIECES) + 1):
            if m >> p & 1:
                on_map[o][p] += k
    return on_map


def _check_pieces(state: DeusState, on_map: list[list[int]], out: list[str]) -> None:
    n = state.players
    picking = state.phase == PICK
    for s in range(n):
        for p, name in enumerate(PIECES):
            board, personal, placed = state.onboard[s][p], state.personal[s][p], on_map[s][p]
            if board < 0 or personal < 0:
                out.append(f"seat {s} {name}: board {board}, personal supply {personal}")
            if board + personal + placed != PIECES_PER_TYPE:
                out.append(
                    f"seat {s} {name} pieces: board {board} + personal supply {personal} + map "
                    f"{placed} = {board + personal + placed}, the box holds {PIECES_PER_TYPE}"
                )
            color = _PIECE_COLOR[p]
            column = len(state.cols[s][color])
            if placed != column:
                out.append(
                    f"seat {s}: {placed} {name} piece(s) on the map but {column} card(s) in the "
                    "column of that colour (each construction places one piece, DEUS-7.2)"
                )
        if picking and sum(state.picks[s]) > int(state.options["free_start"]):
            out.append(f"seat {s} picked {sum(state.picks[s])} pieces (DEUS-21.1)")
    total = state.temples + sum(on_map[s][TEMPLE] for s in range(n))
    supply = BY_PLAYERS[n].temples
    if state.temples < 0 or total != supply:
        out.append(
            f"temples: supply {state.temples} + map {total - state.temples} = {total}, "
            f"{supply} were put in the supply (DEUS-4.3.1; the box holds {TEMPLES_IN_BOX})"
        )
    for s in range(n):
        cards = len(state.cols[s][PURPLE])
        placed = on_map[s][TEMPLE]
        if placed > cards or (state.temples > 0 and placed != cards):
            out.append(
                f"seat {s}: {placed} temple(s) on the map, {cards} temple card(s) played "
                f"(DEUS-8.4, DEUS-8.5; supply {state.temples})"
            )


def _check_stocks(state: DeusState, out: list[str]) -> None:
    n = state.players
    per_type = BY_PLAYERS[n].resources_per_type
    for r, name in enumerate(RESOURCES):
        stock = [state.res[s][r] for s in range(n)]
        if state.supply[r] < 0 or min(stock) < 0:
            out.append(f"{name}: supply {state.supply[r]}, stocks {stock} (never negative)")
        if state.supply[r] + sum(stock) != per_type:
            out.append(
                f"{name}: supply {state.supply[r]} + stocks {sum(stock)} = "
                f"{state.supply[r] + sum(stock)}, {per_type} were put in the supply "
                f"(DEUS-4.3.2; the box holds {RESOURCES_IN_BOX})"
            )
    for s in range(n):
        if state.gold[s] < 0 or state.vp[s] < 0:
            out.append(f"seat {s}: gold {state.gold[s]}, VP {state.vp[s]} (never negative)")
    b = state.board
    for i, v in enumerate(b.villages):
        if not 0 <= state.vvp[i] <= b.village_vp[i]:
            out.append(f"village {b.ids[v]}: {state.vvp[i]} VP, set up with {b.village_vp[i]}")
        if state.vatt[i] and state.vvp[i]:
            out.append(f"village {b.ids[v]} was attacked but holds {state.vvp[i]} VP (DEUS-9.4)")


def _check_flow(state: DeusState, out: list[str]) -> None:
    n = state.players
    triggered = state.temples == 0 or bool(state.vatt and all(state.vatt))
    if triggered != (state.end_round >= 0):
        out.append(
            f"end trigger {'holds' if triggered else 'does not hold'} but the final round is "
            f"{state.end_round} (DEUS-18.1)"
        )
    if state.end_round >= 0 and state.phase != OVER and state.round > state.end_round:
        out.append(f"round {state.round} is after the final round {state.end_round}")
    if not 0 <= state.first < n or not 0 <= state.cur < n:
        out.append(f"first player {state.first}, current {state.cur}")
        return
    played = {(state.first + k) % n for k in range((state.cur - state.first) % n)}
    for s in range(n):
        want = state.round - 1 + (s in played)
        if state.turns[s] != want:
            out.append(f"seat {s} has played {state.turns[s]} turns in round {state.round}")


def check(state: DeusState) -> list[str]:
    """Every broken invariant of ``state`` (see the module docstring); empty when all hold."""
    out: list[str] = []
    _check_cards(state, out)
    on_map = _check_map(state, out)
    _check_pieces(state, on_map, out)
    _check_stocks(state, out)
    _check_flow(state, out)
    return out


# --- hidden information (DEUS-20) ---------------------------------------------------------------
def visible_cards(state: DeusState, seat: int | None) -> set[int]:
    """Card types ``seat`` may see somewhere now (DEUS-20); ``None`` = a spectator."""
    seen = {t for cols in state.cols for col in cols for t in col if t < BLIND_MARK}
    if state.discard:
        seen.add(state.discard[-1])  # the top of the discard pile (DEUS-10.1)
    if state.offer:
        seen.add(state.offer[0])  # the offering's top card
    t = building(state)
    if t >= 0 and not _blind_ctx(state):
        seen.add(t)  # a card constructed face up
    if seat is None:
        return seen
    seen.update(state.hands[seat])
    seen.update(_card(t) for col in state.cols[seat] for t in col)
    if seat == state.cur:
        seen.update(state.offer)
        if t >= 0:
            seen.add(t)
    return seen


_IDS = {c.id: c.index for c in CARDS}
# Card ids look like "BRN-09" (a blind card of the viewer's own: "BRN-09*"); the scan looks for
# that shape only, and falls back to every string if the data ever changes it.
_ID_SHAPE = r"[A-Z]{3}-[0-9]{2}"
_STRING = re.compile(
    rf'"({_ID_SHAPE})\*?"'
    if all(re.fullmatch(_ID_SHAPE, i) for i in _IDS)
    else r'"((?:[^"\\]|\\.)*)"'
)


def _redeal(state: DeusState, seat: int | None, rng: Rng) -> DeusState:
    """A copy in which everything hidden from ``seat`` is replaced at random: other hands, the
    deck, the discard pile under its top card, other seats' blind cards, the hidden cards of
    another seat's offering and blind construction, other seats' VP (unless public), their
    free-start picks, and the generator."""
    twin = state.copy()
    twin._legal = {}
    slots: list[tuple[str, int, int, int]] = []
    pool: list[int] = []
    for p in range(state.players):
        if p == seat:
            continue
        for k, t in enumerate(state.hands[p]):
            slots.append(("hand", p, 0, k))
            pool.append(t)
        for c, col in enumerate(state.cols[p]):
            for k, t in enumerate(col):
                if t >= BLIND_MARK:
                    slots.append(("blind", p, c, k))
                    pool.append(t - BLIND_MARK)
    for k, t in enumerate(state.deck):
        slots.append(("deck", 0, 0, k))
        pool.append(t)
    for k, t in enumerate(state.discard[:-1]):
        slots.append(("discard", 0, 0, k))
        pool.append(t)
    if state.cur != seat:
        for k in range(1, len(state.offer)):
            slots.append(("offer", 0, 0, k))
            pool.append(state.offer[k])
        if building(state) >= 0 and _blind_ctx(state):
            slots.append(("ctx", 0, 0, 0))
            pool.append(state.ctx[0])
    rng.shuffle(pool)
    for (where, p, c, k), t in zip(slots, pool, strict=True):
        if where == "hand":
            twin.hands[p][k] = t
        elif where == "blind":
            twin.cols[p][c][k] = t + BLIND_MARK
        elif where == "deck":
            twin.deck[k] = t
        elif where == "discard":
            twin.discard[k] = t
        elif where == "offer":
            twin.offer[k] = t
        else:
            twin.ctx[0] = t
    public_vp = bool(state.options.get("public_vp")) or state.phase == OVER
    for p in range(state.players):
        if p == seat:
            continue
        if not public_vp:
            twin.vp[p] += 1 + rng.randbelow(20)
        if state.phase == PICK:
            picks = [0] * len(PIECES)
            for _ in range(sum(state.picks[p])):
                picks[
                    rng.choice([x for x in range(len(PIECES)) if picks[x] < PIECES_PER_TYPE])
                ] += 1
            twin.picks[p] = picks
    twin.rng = rng.fork()
    return twin


def leaks(state: DeusState, viewer: int | None) -> list[str]:
    """Everything hidden from ``viewer`` (DEUS-20.1) that shows in ``state.view(viewer)``:
    other hands, the deck, the discard pile under its top card, others' blind cards and hidden
    offering cards, others' VP unless public (DEUS-20.3), others' free-start picks (DEUS-21.1).
    A card type is flagged only if the viewer can see no copy of it anywhere."""
    out: list[str] = []
    doc = state.view(viewer)
    seen = visible_cards(state, viewer)
    texts = set(_STRING.findall(json.dumps(doc)))  # the card ids of the view
    for s in sorted(texts):
        base = s[:-1] if s.endswith("*") else s  # the viewer's own blind cards are starred
        if base in _IDS and _IDS[base] not in seen:
            out.append(f"card {base} appears but the viewer can see no {CARDS[_IDS[base]].label}")
    public_vp = bool(state.options.get("public_vp")) or state.phase == OVER
    if not public_vp:
        for p, row in enumerate(doc.get("player_states", [])):
            if p != viewer and row.get("vp") is not None:
                out.append(f"the VP of seat {p} show although VP are hidden (DEUS-20.1)")
    rng = Rng(len(state.history) * 1_000_003 + (viewer if viewer is not None else 7))
    other = _redeal(state, viewer, rng).view(viewer)
    changed = json_diff(doc, other, "view") if other != doc else []
    out += [f"changes when hidden information is dealt again: {c}" for c in changed]
    return out
