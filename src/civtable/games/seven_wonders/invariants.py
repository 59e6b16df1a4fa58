"""7 Wonders: what the box holds and what can never be created or destroyed.

Developer tooling (``civtable fuzz``, the property tests): it reads a state and never changes it.

The box (SW-1.1, SW-15.2 .. SW-15.7): 49 Age I, 49 Age II and 50 Age III cards (40 + 10 guilds),
one copy of a card type per player-count mark. A game of ``n`` players (the 2-player variant
uses the 3-player cards, SW-14.2) uses, for every age, the cards marked ``<= n``; the rest stay in
the box, and so do the guilds that were not drawn (``n + 2`` are, SW-2.3). Each age deck holds
``7n`` cards (``7 x 3`` in the 2-player game: two hands and the Free City pile), all dealt at the
start of the age (SW-2.4, SW-3.2); later ages' decks are still in the box (shuffled when their age
begins). So at any moment:

* every dealt card is in exactly one place: a hand (the Free City pile is ``hands[0]`` in the
  2-player game), a city's structures, a city's stage markers (SW-4.4, never discarded), the
  discard pile (SW-4.6, SW-3.6), or a commitment / a payment choice not resolved yet (SW-8.1);
  together they are exactly the decks of the ages dealt so far plus, from Age III, ``n + 2``
  different guilds;
* hand sizes follow the turn: ``8 - turn`` cards per hand in a main step (cards already chosen
  this step included; the 2-player controller holds the Free City card it drew, and the pile
  holds ``7 - turn``, SW-14.4, SW-14.6), empty hands after turn 6 except Babylon's seventh card
  (SW-3.6, SW-8.4);
* coins are never negative (SW-7.10; the bank is unlimited, SW-0.7, so coins are not conserved);
* conflict tokens are unlimited (AMB-32) but each conflict of a finished age gives exactly one
  victory token (+1 / +3 / +5 for Ages I / II / III) and one defeat token (-1), or none on a tie
  (SW-11.1 .. SW-11.4): victories and defeats are equal in number, a city holds at most two
  tokens per finished age and no token of an age not finished, and its defeat count matches;
* a city never holds two structures of the same name (SW-4.3), has one stage marker per built
  stage and no more stages than its board side (SW-4.5), and its derived values (production,
  shields, science, colours, discounts) equal those rebuilt from its structures and stages.

:func:`leaks` checks a view against what SW-3.9 lets the viewer know, in two ways: no card
(by id or by name in a label) appears that the viewer cannot see anywhere, and the view does
not change when every card hidden from the viewer is dealt again at random (the guilds left in
the box included).
"""

from __future__ import annotations

import json
import re
from collections import Counter

from civtable.core.jsondiff import json_diff
from civtable.core.rng import Rng
from civtable.games.seven_wonders.actions import K_BUILD, K_DISCARD, K_STAGE
from civtable.games.seven_wonders.catalog import CARDS, DECKS, GUILDS, GUILDS_DRAWN, PURPLE
from civtable.games.seven_wonders.state import (
    EXTRA,
    HALI_PHASE,
    MAIN,
    OVER,
    City,
    SevenWondersState,
)

#: the copies of each card type in the box (a non-guild type: one per mark, SW-15.2 .. 15.4)
BOX: tuple[int, ...] = tuple(1 if c.color == PURPLE else max(c.copies) for c in CARDS)
#: victory token of the conflicts of each age (SW-11.3)
VICTORY = {1: 1, 2: 3, 3: 5}
HAND = 7  # SW-3.2


def _deck_players(state: SevenWondersState) -> int:
    return 3 if state.two_player else state.n


def cards_in_play(state: SevenWondersState) -> Counter[int]:
    """Every dealt card the state holds: hands (the Free City pile included), structures, stage
    markers, the discard pile, commitments and payment choices not resolved yet."""
    held: Counter[int] = Counter()
    for hand in state.hands:
        held.update(hand)
    for city in state.cities:
        held.update(city.built)
        held.update(city.stage_cards)
    held.update(state.discard)
    for commit in state.commits:
        if commit is not None:
            held[commit[1]] += 1
    for pending in state.await_pay:
        if pending is not None:
            held[pending[1]] += 1
    return held


def _chosen(state: SevenWondersState, c: int) -> int:
    """1 if city ``c`` chose its card of this step (committed or choosing a payment)."""
    return int(state.commits[c] is not None or state.await_pay[c] is not None)


def _check_cards(state: SevenWondersState, out: list[str]) -> None:
    """SW-2.2 .. SW-2.4, SW-14.2: the cards in play are the decks dealt so far."""
    held = cards_in_play(state)
    deck_players = _deck_players(state)
    expected: Counter[int] = Counter()
    for age in range(1, state.age + 1):
        expected.update(DECKS[(age, deck_players)])
    guilds = Counter({t: k for t, k in held.items() if CARDS[t].color == PURPLE})
    others = held - guilds
    for t in sorted(set(expected) | set(others)):
        if others[t] != expected[t]:
            out.append(
                f"{CARDS[t].name} (Age {CARDS[t].age}): {others[t]} in play, the decks of Ages "
                f"1..{state.age} for {deck_players} players hold {expected[t]}"
            )
    for t, k in sorted(held.items()):
        if k > BOX[t]:
            out.append(f"{CARDS[t].name}: {k} in play, the box holds {BOX[t]}")
    for t, k in sorted(guilds.items()):
        if k != 1:
            out.append(f"guild {CARDS[t].name} is in play {k} times")
    want = GUILDS_DRAWN[deck_players] if state.age == 3 else 0
    if sum(guilds.values()) != want:
        out.append(f"{sum(guilds.values())} guilds in play in Age {state.age}, expected {want}")
    total = sum(held.values())
    if total != HAND * state.n * state.age:
        out.append(
            f"{total} cards in play in Age {state.age}, {state.n} decks of {HAND} per age "
            f"deal {HAND * state.n * state.age}"
        )
    if len(state.discard_known) != len(state.discard):
        out.append(
            f"discard pile of {len(state.discard)} cards but {len(state.discard_known)} "
            "knowledge entries"
        )
    bad_known = [k for k in state.discard_known if not -1 <= k < state.players]
    if bad_known:
        out.append(f"discard pile known by seats {bad_known}, not seats of the game")


def _check_hands(state: SevenWondersState, out: list[str]) -> None:
    """SW-3.2 .. SW-3.6, SW-8.4, SW-14.4, SW-14.6: hand sizes by turn and phase."""
    n, turn = state.n, state.turn
    sizes = [len(h) for h in state.hands]
    if state.phase == MAIN:
        for c in range(n):
            if state.two_player and c == 0:
                want, have = HAND - turn, sizes[0]
                where = "the Free City pile"
            else:
                have = sizes[c] + _chosen(state, c)
                want = HAND + 1 - turn
                if state.two_player and state.controller == c:
                    have += _chosen(state, 0)
                    want += 1
                where = f"hand of city {c}"
            if have != want:
                out.append(f"{where}: {have} cards in turn {turn}, expected {want}")
    elif state.phase == HALI_PHASE:
        want = 0 if turn == 6 else HAND - turn
        for c in range(n):
            if sizes[c] != want:
                out.append(
                    f"hand of city {c}: {sizes[c]} cards during a Halikarnassus build in turn "
                    f"{turn}, expected {want}"
                )
    elif state.phase == EXTRA:
        for c in range(n):
            want = 1 - _chosen(state, c) if state.needs[c] else 0
            if sizes[c] != want:
                out.append(f"hand of city {c}: {sizes[c]} cards in Babylon's extra step")
    elif any(sizes):
        out.append(f"cards left in hands at the end of the game: {sizes}")


def _check_flow(state: SevenWondersState, out: list[str]) -> None:
    """Phase, turn, age and the decision bookkeeping agree."""
    n = state.n
    if not 1 <= state.age <= 3 or not 1 <= state.turn <= 6:
        out.append(f"age {state.age}, turn {state.turn}: out of range")
    if not (
        len(state.needs) == len(state.commits) == len(state.await_pay) == len(state.hands) == n
    ):
        out.append("per-city lists of different lengths")
        return
    for c in range(n):
        if state.commits[c] is not None and not state.needs[c]:
            out.append(f"city {c} holds a commitment but owes no decision")
        if state.await_pay[c] is not None and (not state.needs[c] or state.commits[c] is not None):
            out.append(f"city {c} chooses a payment outside its decision")
        commit = state.commits[c]
        if commit is not None:
            if commit[0] not in (K_BUILD, K_STAGE, K_DISCARD):
                out.append(f"city {c}: commitment of unknown kind {commit[0]}")
            if commit[2] < 0 or commit[3] < 0:
                out.append(f"city {c}: negative payment in its commitment {commit}")
    if state.two_player:
        if state.controller not in (1, 2):
            out.append(f"Free City controller {state.controller}, expected city 1 or 2")
    elif state.controller != -1:
        out.append(f"controller {state.controller} outside the 2-player game")
    if state.phase == OVER:
        if state.age != 3 or any(state.needs):
            out.append("the game is over before the end of Age III or with a decision owed")
    elif state.phase == HALI_PHASE:
        c = state.hali_city
        if not 0 <= c < n or state.needs != [i == c for i in range(n)]:
            out.append(f"Halikarnassus build of city {c} while cities {state.needs} decide")
    elif state.phase == EXTRA and (state.turn != 6 or sum(state.needs) != 1):
        out.append(f"Babylon's extra step in turn {state.turn} with {sum(state.needs)} deciders")
    if state.phase != EXTRA and state.hali_due != -1:
        out.append(f"a Halikarnassus build of city {state.hali_due} is due outside turn 6")
    if state.phase in (MAIN, EXTRA, HALI_PHASE) and not any(
        state.needs[c] and state.commits[c] is None for c in range(n)
    ):
        out.append("the game is not over but no city owes a decision")


def _check_tokens(state: SevenWondersState, city: City, label: str, out: list[str]) -> None:
    """SW-11: tokens of finished ages only, at most two per age, defeats counted."""
    done = 3 if state.phase == OVER else state.age - 1  # ages whose conflicts are resolved
    allowed = {-1} | {VICTORY[a] for a in range(1, done + 1)}
    odd = [t for t in city.tokens if t not in allowed]
    if odd:
        out.append(f"{label}: tokens {odd} after {done} finished age(s)")
    if len(city.tokens) > 2 * done:
        out.append(f"{label}: {len(city.tokens)} tokens after {done} finished age(s)")
    for a in range(1, done + 1):
        if city.tokens.count(VICTORY[a]) > 2:
            out.append(f"{label}: more than two victory tokens of Age {a}")
    if city.defeats != city.tokens.count(-1):
        out.append(f"{label}: {city.defeats} defeats counted, {city.tokens.count(-1)} tokens")


def _check_city(state: SevenWondersState, c: int, out: list[str]) -> None:
    city = state.cities[c]
    label = "the Free City" if state.two_player and c == 0 else f"city {c}"
    if city.coins < 0:
        out.append(f"{label}: {city.coins} coins (SW-7.10: never negative)")
    keys = [CARDS[t].key for t in city.built]
    dupes = sorted(k for k, v in Counter(keys).items() if v > 1)
    if dupes:
        out.append(f"{label}: two structures named {dupes} (SW-4.3)")
    if len(city.stage_cards) != city.stages or city.stages > len(city.board_stages):
        out.append(
            f"{label}: {city.stages} stages built, {len(city.stage_cards)} stage markers, "
            f"{len(city.board_stages)} stages on the board"
        )
    if city.free_used and not city.has_free_build:
        out.append(f"{label}: Olympia's free build used without the stage that grants it")
    _check_tokens(state, city, label, out)
    rebuilt = City.from_json(city.to_json())
    for name in (
        "keys",
        "colors",
        "shields",
        "science",
        "wilds",
        "own_sig",
        "trade_sig",
        "discount",
    ):
        if getattr(rebuilt, name) != getattr(city, name):
            out.append(
                f"{label}: derived {name} {getattr(city, name)} differs from "
                f"{getattr(rebuilt, name)} rebuilt from its structures and stages"
            )


def check(state: SevenWondersState) -> list[str]:
    """Every broken invariant of ``state`` (see the module docstring); empty when all hold."""
    out: list[str] = []
    _check_flow(state, out)
    if out and out[0].startswith("per-city"):
        return out
    _check_cards(state, out)
    _check_hands(state, out)
    for c in range(state.n):
        _check_city(state, c, out)
    victories = sum(1 for city in state.cities for t in city.tokens if t > 0)
    defeats = sum(1 for city in state.cities for t in city.tokens if t < 0)
    if victories != defeats:
        out.append(f"{victories} victory tokens but {defeats} defeat tokens (SW-11.3)")
    return out


# --- hidden information (SW-3.9) ----------------------------------------------------------------
def visible_cards(state: SevenWondersState, seat: int | None) -> set[int]:
    """Card types ``seat`` may see somewhere now (SW-3.9); ``None`` = a spectator."""
    known = {t for city in state.cities for t in city.built}  # structures are public
    if seat is None:
        return known
    for kind, _where, _, t in _places(state, seat):
        if kind == "seen":
            known.add(t)
    return known


def _places(state: SevenWondersState, seat: int | None) -> list[tuple[str, str, int, int]]:
    """Every dealt card outside the cities' structures as ``(seen|hidden, place, index, card)``
    from ``seat``'s point of view."""
    out: list[tuple[str, str, int, int]] = []
    own = state.city_of(seat) if seat is not None else -1
    deciding = state.current_city(seat) if seat is not None else -1
    mine = set(state.seat_cities(seat)) if seat is not None and state.phase != OVER else set()
    shown_hands = {own}
    if deciding >= 0 and state.two_player and deciding == 0 and state.phase != MAIN:
        shown_hands.add(0)  # the controller chooses from the Free City's last pile card
    for c, hand in enumerate(state.hands):
        for i, t in enumerate(hand):
            out.append(("seen" if c in shown_hands else "hidden", "hand", c * 100 + i, t))
    fc_markers = state.two_player and state.phase != OVER and state.controller == own
    for c, city in enumerate(state.cities):
        seen = c == own or (fc_markers and c == 0)
        for i, t in enumerate(city.stage_cards):
            out.append(("seen" if seen else "hidden", "marker", c * 100 + i, t))
    whole_pile = state.phase == HALI_PHASE and deciding >= 0 and deciding == state.hali_city
    for i, (t, k) in enumerate(zip(state.discard, state.discard_known, strict=True)):
        seen = whole_pile or (seat is not None and k == seat)
        out.append(("seen" if seen else "hidden", "discard", i, t))
    for c in range(state.n):
        commit, pending = state.commits[c], state.await_pay[c]
        if commit is not None:
            out.append(("seen" if c in mine else "hidden", "commit", c, commit[1]))
        if pending is not None:
            out.append(("seen" if c in mine else "hidden", "await", c, pending[1]))
    return out


_CARD_IDS = {c.id: c.index for c in CARDS}
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_NAMES = sorted({c.name for c in CARDS}, key=len, reverse=True)
_NAME_RE = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in _NAMES) + r")\b")


def _redeal(state: SevenWondersState, seat: int | None, rng: Rng) -> SevenWondersState:
    """A copy with every card hidden from ``seat`` dealt again at random among the hidden
    places (and, in Age III, the guilds left in the box)."""
    twin = state.copy()
    twin._legal = {}
    twin._plans = None
    hidden = [(where, i, t) for kind, where, i, t in _places(state, seat) if kind == "hidden"]
    pool = [t for _, _, t in hidden]
    if state.age == 3:
        in_play = cards_in_play(state)
        pool += [g for g in GUILDS if not in_play[g]]
    rng.shuffle(pool)
    for (where, i, _), t in zip(hidden, pool, strict=False):
        if where == "hand":
            twin.hands[i // 100][i % 100] = t
        elif where == "marker":
            twin.cities[i // 100].stage_cards[i % 100] = t
        elif where == "discard":
            twin.discard[i] = t
        elif where == "commit":
            commit = twin.commits[i]
            assert commit is not None
            twin.commits[i] = (commit[0], t, commit[2], commit[3], commit[4])
        else:
            pending = twin.await_pay[i]
            assert pending is not None
            twin.await_pay[i] = (pending[0], t, pending[2])
    return twin


def leaks(state: SevenWondersState, viewer: int | None) -> list[str]:
    """Everything hidden from ``viewer`` (SW-3.9) that shows in ``state.view(viewer)``: others'
    hands, the Free City pile, others' choices before they resolve, others' stage markers and
    discards, the guilds left in the box. A card type is flagged only if the viewer can see no
    copy of it anywhere (another copy may be public)."""
    out: list[str] = []
    doc = state.view(viewer)
    seen = visible_cards(state, viewer)
    texts = set(_STRING.findall(json.dumps(doc)))  # every string of the view (keys too)
    for s in sorted(texts):
        if s in _CARD_IDS and _CARD_IDS[s] not in seen:
            out.append(f"card {s} appears but the viewer can see no {CARDS[_CARD_IDS[s]].name}")
    # Free texts (labels, log lines) name cards; wonder names ("Statue of Zeus") are not scanned.
    visible_names = {CARDS[t].name for t in seen}
    free = [a.get("label", "") for a in doc.get("legal", [])]
    free += [e.get("text", "") for e in doc.get("log", [])]
    for text in free:
        for name in _NAME_RE.findall(text):
            if name not in visible_names:
                out.append(f"text {text!r} names {name}, which the viewer can see nowhere")
    # The view must not depend on the hidden cards: deal them again and compare.
    rng = Rng(len(state.history) * 1_000_003 + (viewer if viewer is not None else 7))
    other = _redeal(state, viewer, rng).view(viewer)
    changed = json_diff(doc, other, "view") if other != doc else []
    out += [f"changes when hidden cards are dealt again: {c}" for c in changed]
    return out
