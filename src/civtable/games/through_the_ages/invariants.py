"""Through the Ages: what the box holds and what can never be created or destroyed.

Developer tooling (issue 20): :func:`check` reads a state and lists every broken invariant,
:func:`leaks` lists hidden information that shows in a view. Neither changes the state; neither
is on the hot path. The box (TTA-1.1-1.3, TTA-2.2) and where each component can be:

* **Blue cubes** -- 16 per player at setup (TTA-1.3), in exactly one of: the blue bank, a farm
  or mine card in play (food, resources; TTA-1.5.2) or a stage of the unfinished wonder.
  The box is unlimited: cards with blue symbols (Justice System and Civil Service +3, Taj
  Mahal +1, territories +k, Vast Territory -1) add cubes when they enter play and return them
  when they leave, and events take some (Civil Unrest, Crime Wave) -- always through
  ``board.gain_blue``/``lose_blue`` (TTA-1.11: a loss the bank cannot cover comes off the
  cards). Bank + cards + wonder stages == ``Civ.blue_total``.
* **Yellow cubes** -- 25 per player at setup: 18 in the yellow bank, 1 unused worker, 6
  workers on the board's technologies (TTA-1.3). A cube is in the yellow bank, an unused
  worker or a worker on a card in play; cards with yellow symbols, Alexander, War over
  Territory, Uncertain Borders and the 2 cubes returned at the end of Ages I-III (TTA-4.3)
  move cubes between the box and the bank (``board.gain_yellow``/``lose_yellow``; losing:
  only what the bank holds). Bank + unused + on cards == ``Civ.yellow_total``.
* **White and red cubes** -- the government's and cards' civil and military actions
  (TTA-1.9): available ones are never negative nor more than the total (TTA-1.10), one more
  civil action with Hammurabi's military action used as one (TTA-7.3).
* **Cards** -- the eight decks by back, civil A, I, II, III and military A, I, II, III, with
  the copies of this player count (TTA-2.2; the first game: no Age III and, in ages I-II, no
  aggressions, wars or pacts, TTA-2.6; the peaceful game: no aggressions, wars or pacts,
  TTA-15.2; the shorter game: of Age III only the military events, TTA-15.1). Every card is
  in exactly one place: a deck; the card row; a civil hand; in play (technologies, the
  government, special technologies, the leader, the unfinished wonder, completed and
  face-down wonders); a military hand; the military discards of its age; the current, future
  or past events; the shorter game's face-up and face-down Age III events; a colony; the
  common tactics area or its owner's play area (an exclusive tactic, TTA-10.3); a pact or war
  in play (the shorter game: the card played for a shared War over Culture, which itself
  lies beside the board and is not counted); an aggression, pact offer or territory being
  resolved; or out of the game in the box, counted per deck by ``TTAState.boxed`` (the rest of
  Age A's military cards and of civil A, cards swept from the row, played action cards,
  replaced leaders, governments and special technologies, antiquated cards, merged tactics,
  the shorter game's unused and discarded Age III events, the cards of the decks trimmed and
  the hands of a player who resigned, TTA-6.8). A resigned civilization's cards in play stay
  on its board, out of the game with it. The board's printed technologies never move.
* **Structure** -- workers and cubes only on technologies in play, an unfinished wonder's
  stages below its number, each special technology of its type, a leader in hand or in play
  of an age its owner has taken a leader of, pact sides matching the pacts in play, the row of
  13 slots, resigned players holding nothing.

Hidden information (TTA-6.1, TTA-6.2, TTA-15.1): the civil and military decks, the military
discards, the current and future events (Joan of Arc's owner sees the top current event in
his Politics Phase), other players' military hands and face-down Age III events (one's own
only from the end of Age I). :func:`leaks` reports any of those cards named in a view other
than where that seat may see it.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any

from civtable.games.through_the_ages.catalog import (
    AGES,
    CARDS,
    NCARDS,
    SLOT_CARD,
    civil_deck,
    military_deck,
)
from civtable.games.through_the_ages.rules import effects, politics, setup, turn
from civtable.games.through_the_ages.state import (
    BOX_OF,
    F_RESIGNED,
    P_ACCEPT,
    P_BID,
    P_CHOOSE,
    P_DEFEND,
    P_OPTION,
    P_PERFORM,
    P_SEND,
    TTAState,
)

#: ``TTAState.boxed`` index -> the deck's name in messages
DECKS: tuple[str, ...] = tuple(f"{d} {a}" for d in ("civil", "military") for a in AGES)
#: pending kinds whose second entry is a card on its way between places
_IN_FLIGHT = (P_DEFEND, P_ACCEPT, P_BID, P_SEND)


@lru_cache(maxsize=64)
def composition(
    players: int, mode: str, peaceful: bool, keep_pacts: bool
) -> tuple[Counter[int], ...]:
    """The cards of each deck in a game of ``players`` with these options (TTA-2.2, TTA-2.6,
    TTA-15.1, TTA-15.2), as in :func:`.rules.setup.new_game`; index as ``TTAState.boxed``."""
    first = mode == "first"
    out: list[Counter[int]] = []
    for age in range(4):
        no_age_iii = age == 3 and mode in ("first", "shorter")
        out.append(Counter() if no_age_iii else Counter(civil_deck(age, players)))
    for age in range(4):
        if age == 3 and mode == "first":
            deck: list[int] = []
        elif age == 3 and mode == "shorter":
            deck = [c for c in military_deck(3, players, False) if CARDS[c].type == "event"]
        else:
            deck = military_deck(age, players, first)
            if age and peaceful:
                deck = setup.peaceful_filter(deck, keep_pacts)
        out.append(Counter(deck))
    return tuple(out)


def _composition(state: TTAState) -> tuple[Counter[int], ...]:
    o = state.options
    return composition(
        state.players,
        str(o.get("mode", "first")),
        bool(o.get("peaceful")),
        bool(o.get("peaceful_pacts")),
    )


def places(state: TTAState) -> Counter[int]:
    """How many times each card is in a place of the game (not the box, not the board's
    printed technologies)."""
    # one list, counted once: far cheaper than updating a Counter place by place
    cards: list[int] = []
    for a in range(4):
        cards += state.civil_decks[a]
        cards += state.mil_decks[a]
        cards += state.mil_discards[a]
    cards += [c for c in state.row if c >= 0]
    for lst in (state.events, state.future, state.past, state.faceup, state.common):
        cards += lst
    cards += state.pacts[0::4]
    shorter = state.options.get("mode") == "shorter"
    # the shorter game's shared War over Culture lies beside the board (TTA-15.1)
    cards += [c for c in state.wars[0::3] if not (shorter and c == politics.SHARED_WAR)]
    cards += state.war_cards[0::3]
    for civ in state.civs:
        for lst in (civ.hand, civ.mhand, civ.wonders, civ.ruins, civ.colonies, civ.secret):
            cards += lst
        cards += [c for c in civ.developed if BOX_OF[c] >= 0]
        cards += [
            c for c in (civ.gov, civ.leader, civ.wip, *civ.special) if c >= 0 and BOX_OF[c] >= 0
        ]
        if civ.tactic_own and civ.tactic >= 0:
            cards.append(civ.tactic)  # an exclusive tactic lies in its owner's play area
    for item in (state.pending, *(q[1:] for q in state.queue)):
        if item[0] in _IN_FLIGHT and len(item) > 1 and item[1] >= 0:
            cards.append(item[1])
    return Counter(cards)


@lru_cache(maxsize=64)
def _limits(
    players: int, mode: str, peaceful: bool, keep_pacts: bool
) -> tuple[dict[int, int], tuple[int, ...]]:
    """(card -> copies its deck holds, for every card of a deck; cards per deck) of the
    :func:`composition` with these arguments."""
    comp = composition(players, mode, peaceful, keep_pacts)
    limit = {c: comp[BOX_OF[c]][c] for c in range(NCARDS) if BOX_OF[c] >= 0}
    return limit, tuple(sum(d.values()) for d in comp)


def _cards(state: TTAState) -> list[str]:
    out: list[str] = []
    comp = _composition(state)
    o = state.options
    limit, totals = _limits(
        state.players,
        str(o.get("mode", "first")),
        bool(o.get("peaceful")),
        bool(o.get("peaceful_pacts")),
    )
    n = places(state)
    placed = [0] * len(DECKS)
    for c, k in n.items():
        most = limit.get(c)
        if most is not None and k <= most:  # a card of a deck, within its copies
            placed[BOX_OF[c]] += k
            continue
        if not 0 <= c < NCARDS:
            out.append(f"card index {c} in a place: no such card")
            continue
        d = BOX_OF[c]
        if d < 0:
            out.append(f"{CARDS[c].name}, printed on the board, in {k} other places")
            continue
        placed[d] += k
        if k > comp[d][c]:
            out.append(f"{CARDS[c].name} ({DECKS[d]}): in {k} places, the game has {comp[d][c]}")
    for d, name in enumerate(DECKS):
        total = totals[d]
        boxed = state.boxed[d]
        if boxed < 0 or placed[d] + boxed != total:
            out.append(
                f"{name} deck: {placed[d]} in places + {boxed} in the box = "
                f"{placed[d] + boxed}, the game has {total}"
            )
    for where, cards, deck in (
        ("the card row", state.row, "civil"),
        ("events", state.events, "military"),
    ):
        out += [f"{where} holds {CARDS[c].name}" for c in cards if c >= 0 and CARDS[c].deck != deck]
    return out


def _units_sent(state: TTAState, seat: int) -> int:
    """Units ``seat`` has sent to colonize so far (``P_SEND`` items list their slots)."""
    items = [q[1:] for q in state.queue if q[0] == seat]
    if state.actor == seat:
        items.append(state.pending)
    return sum(len(item) - 5 for item in items if item[0] == P_SEND)


def _civ(state: TTAState, seat: int) -> list[str]:
    civ = state.civs[seat]
    who = f"seat {seat}"
    out: list[str] = []
    for name in (
        "blue",
        "yellow",
        "pool",
        "culture",
        "science",
        "ca",
        "ma",
        "temp_ma",
        "mpool",
        "spool",
    ):
        v = getattr(civ, name)
        if v < 0:
            out.append(f"{name} of {who} is {v}")
    if min(civ.cubes) < 0 or min(civ.workers) < 0:
        out.append(f"negative cubes or workers on the cards of {who}")
    wonder = civ.wip_stages if civ.wip >= 0 else 0
    blue = civ.blue + sum(civ.cubes) + wonder
    if blue != civ.blue_total:
        out.append(
            f"blue cubes of {who}: bank {civ.blue} + cards {sum(civ.cubes)} + wonder {wonder} = "
            f"{blue}, the civilization has {civ.blue_total}"
        )
    sent = _units_sent(state, seat)  # a colonization force on its way (TTA-11.5)
    yellow = civ.yellow + civ.pool + sum(civ.workers) + sent
    if yellow != civ.yellow_total:
        out.append(
            f"yellow cubes of {who}: bank {civ.yellow} + unused {civ.pool} + on cards "
            f"{sum(civ.workers)} + sent {sent} = {yellow}, the civilization has {civ.yellow_total}"
        )
    if civ.wip < 0 and civ.wip_stages:
        out.append(f"{who} has {civ.wip_stages} wonder stages and no unfinished wonder")
    if civ.wip >= 0 and not 0 <= civ.wip_stages < len(CARDS[civ.wip].stages):
        out.append(f"{CARDS[civ.wip].name} of {who}: {civ.wip_stages} stages built, unfinished")
    dev = set(civ.developed)
    for slot, w in enumerate(civ.workers):
        if w and SLOT_CARD[slot] not in dev:
            out.append(f"{w} workers of {who} on {CARDS[SLOT_CARD[slot]].name}, not in play")
    for i, k in enumerate(civ.cubes):  # cubes[i]: the farm (i < 4) or mine of that age
        if k and SLOT_CARD[i] not in dev:
            out.append(f"{k} blue cubes of {who} on {CARDS[SLOT_CARD[i]].name}, not in play")
    if len(dev) != len(civ.developed):
        out.append(f"{who} has a technology in play twice")
    for i, sp in enumerate(civ.special):
        if sp >= 0 and CARDS[sp].special != i:
            out.append(f"{CARDS[sp].name} of {who} in the wrong special slot")
    for c in (*civ.hand, *([civ.leader] if civ.leader >= 0 else [])):
        card = CARDS[c]
        if card.deck != "civil":
            out.append(f"{who} holds {card.name} as a civil card")
        elif card.type == "leader" and not civ.leader_ages >> card.age & 1:
            out.append(f"{who} has {card.name} without having taken an Age {card.age} leader")
    out += [
        f"{who} holds {CARDS[c].name} as a military card"
        for c in civ.mhand
        if CARDS[c].deck != "military"
    ]
    # TTA-1.9/1.10 action cubes: the available ones within the totals
    f = effects.fx(civ)
    hammurabi = 1 if civ.used & turn.USED_HAMMURABI else 0
    if civ.ca > f.ca + hammurabi:
        out.append(f"{who} has {civ.ca} civil actions available of {f.ca}")
    if civ.ma > f.ma:
        out.append(f"{who} has {civ.ma} military actions available of {f.ma}")
    if civ.flags & F_RESIGNED and (civ.hand or civ.mhand):
        out.append(f"{who} resigned and still holds cards")
    return out


def _table(state: TTAState) -> list[str]:
    out: list[str] = []
    if len(state.row) != 13:
        out.append(f"the card row has {len(state.row)} slots")
    if len(state.future) != len(state.future_by):
        out.append(f"{len(state.future)} future events, {len(state.future_by)} preparers")
    if len(state.pacts) % 4 or len(state.wars) % 3 or len(state.war_cards) % 3:
        out.append("pacts, wars or war cards are not whole entries")
    sides: Counter[tuple[int, int]] = Counter()
    p = state.pacts
    for i in range(0, len(p) - 3, 4):
        card, owner, a, b = p[i : i + 4]
        if a == b or owner not in (a, b):
            out.append(f"{CARDS[card].name}: parties {a} and {b}, owner {owner}")
        sides[(a, card * 2)] += 1
        sides[(b, card * 2 + 1)] += 1
    held = Counter((seat, ps) for seat, civ in enumerate(state.civs) for ps in civ.pside)
    if held != sides:
        out.append("the pact sides held differ from the pacts in play")
    shorter = state.options.get("mode") == "shorter"
    w = state.wars
    shared = sorted(
        (w[i + 1], w[i + 2])
        for i in range(0, len(w) - 2, 3)
        if shorter and w[i] == politics.SHARED_WAR
    )
    wc = state.war_cards
    if shared != sorted((wc[i + 1], wc[i + 2]) for i in range(0, len(wc) - 2, 3)):
        out.append("the shorter game's shared wars and their played cards differ")
    for i in range(0, len(w) - 2, 3):
        for seat in w[i + 1 : i + 3]:
            if not politics.active(state, seat):
                out.append(f"a war in play involves seat {seat}, who resigned")
    for item in state.queue:
        if not politics.active(state, item[0]):
            out.append(f"a decision is queued for seat {item[0]}, who resigned")
    return out


def check(state: TTAState) -> list[str]:
    """Every broken invariant of ``state`` as a short developer-readable message (empty list =
    all hold): cubes and cards conserved (see the module docstring), no negative stock, and
    the cheap structural invariants. Pure: reads only, never changes the state."""
    out = _cards(state) + _table(state)
    for seat in range(state.players):
        out += _civ(state, seat)
    return out


# --- hidden information -----------------------------------------------------------------------


def _hidden_and_seen(state: TTAState, viewer: int | None) -> tuple[set[int], set[int]]:
    """(cards in places hidden from ``viewer``, cards ``viewer`` may see somewhere)."""
    from civtable.games.through_the_ages.view import peeks

    hidden: list[int] = []
    for a in range(4):
        hidden += state.civil_decks[a] + state.mil_decks[a] + state.mil_discards[a]
    top = -1 if viewer is None or not peeks(state, viewer) else state.events[-1]
    hidden += [
        c for i, c in enumerate(state.events) if not (c == top and i == len(state.events) - 1)
    ]
    hidden += state.future
    seen: list[int] = [c for c in state.row if c >= 0]
    seen += [*state.past, *state.faceup, *state.common, *state.pacts[0::4], *state.wars[0::3]]
    if top >= 0:
        seen.append(top)
    for seat, civ in enumerate(state.civs):
        seen += [*civ.hand, *civ.developed, *civ.wonders, *civ.ruins, *civ.colonies, civ.gov]
        seen += [c for c in (civ.leader, civ.wip, civ.tactic, *civ.special) if c >= 0]
        if seat == viewer:
            seen += civ.mhand
            (seen if state.age >= 2 else hidden).extend(civ.secret)
        else:
            hidden += [*civ.mhand, *civ.secret]
    for item in (state.pending, *(q[1:] for q in state.queue)):
        # a card being resolved is face up: an action card played, an aggression, a pact
        # offered, a territory auctioned, the event or attack asking an option
        c = item[2] if item[0] == P_OPTION else item[1] if item[0] in _NAMED else -1
        if c >= 0:
            seen.append(c)
    return set(hidden), set(seen)


#: pending kinds whose second entry is the card being resolved (``P_OPTION``: the third)
_NAMED = (*_IN_FLIGHT, P_PERFORM, P_CHOOSE)


_IDS = {c.id: c.idx for c in CARDS}
#: every card name as a whole word, the longest first ("Engineering Genius" before
#: "Engineering", "Impact of Architecture" before "Architecture")
_NAMES = re.compile(
    r"\b("
    + "|".join(re.escape(n) for n in sorted({c.name for c in CARDS}, key=len, reverse=True))
    + r")\b"
)


def _strings(doc: Any, path: str, out: list[tuple[str, str]]) -> None:
    if isinstance(doc, str):
        out.append((path, doc))
    elif isinstance(doc, dict):
        for k, v in doc.items():
            if k != "log":
                _strings(v, f"{path}.{k}", out)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _strings(v, f"{path}[{i}]", out)


def _texts(doc: Any, out: list[str]) -> None:
    """The strings of :func:`_strings` without their paths (cheaper; the paths are found only
    for a leak)."""
    if isinstance(doc, str):
        out.append(doc)
    elif isinstance(doc, dict):
        for k, v in doc.items():
            if k != "log":
                _texts(v, out)
    elif isinstance(doc, list):
        for v in doc:
            _texts(v, out)


def leaks(state: TTAState, viewer: int | None) -> list[str]:
    """Every card hidden from ``viewer`` (a seat, or None = spectator) that nevertheless
    appears in ``state.view(viewer)``: by id anywhere in the view (the log aside), by name in
    the labels of its legal actions; plus log entries meant for another seat. A card also
    visible to ``viewer`` elsewhere (another copy face up, its own hand) is not a leak."""
    hidden, seen = _hidden_and_seen(state, viewer)
    secret = hidden - seen
    doc = state.view(viewer)
    texts: list[str] = []
    _texts(doc, texts)
    out: list[str] = []
    if any(_IDS.get(text, -1) in secret for text in texts):
        strings: list[tuple[str, str]] = []
        _strings(doc, "view", strings)
        for path, text in strings:
            c = _IDS.get(text, -1)
            if c in secret:
                out.append(f"{path} names {CARDS[c].name}, hidden from {_who(viewer)}")
    names = {CARDS[c].name for c in secret} - {CARDS[c].name for c in seen}
    if names:
        for entry in doc.get("legal", ()):
            for m in _NAMES.finditer(str(entry.get("label", ""))):
                if m.group(1) in names:
                    out.append(f"the label of action {entry['id']} names {m.group(1)}, hidden")
    for entry in doc.get("log", ()):
        if "seat" in entry and entry["seat"] != viewer:
            out.append(f"a log entry of seat {entry['seat']} shown to {_who(viewer)}")
    return out


def _who(viewer: int | None) -> str:
    return "spectators" if viewer is None else f"seat {viewer}"


__all__ = ["DECKS", "check", "composition", "leaks", "places"]
