"""Views and determinization: military hands, deck orders and event decks are hidden.

Civil hands are public (TTA-3.3); the military hand of a seat is visible to that seat only;
decks and the current and future events show only their sizes (the future deck's cards are face
down, TTA-6.2); past events, pacts, wars, colonies and the tactics are public. In the shorter
game (TTA-15.1) the face-up Age III events are public and a player's own face-down ones are
shown to him from the end of Age I on.
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter

from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.through_the_ages import actions, moves, reasons
from civtable.games.through_the_ages.catalog import CARDS, military_deck
from civtable.games.through_the_ages.rules import board, civil, effects, events, politics
from civtable.games.through_the_ages.state import (
    CIV_INTS,
    CIV_LISTS,
    F_RESIGNED,
    P_ACCEPT,
    P_AGREEMENT,
    P_BID,
    P_CHOOSE,
    P_DEFEND,
    P_DISCARD,
    P_OPTION,
    P_PERFORM,
    P_SEND,
    PH_ACTION,
    PH_SECOND,
    Civ,
    TTAState,
)

#: per card: its id, and its building slot (``kind * 4 + age``; -1: not a building technology)
_ID: tuple[str, ...] = tuple(c.id for c in CARDS)
_SLOT: tuple[int, ...] = tuple(c.kind * 4 + c.age if c.kind >= 0 else -1 for c in CARDS)
_TECH: tuple[bool, ...] = tuple(c.type == "technology" for c in CARDS)
#: card ids with None last: ``_ID_OR_NONE[-1]`` is an empty row slot's
_ID_OR_NONE: tuple[str | None, ...] = (*_ID, None)


def _ids(cards: list[int]) -> list[str]:
    return list(map(_ID_AT, cards))


_ID_AT = _ID.__getitem__


#: every field of a civilization, ints first (:data:`~.state.CIV_INTS`, then the lists)
_FIELDS_OF = attrgetter(*CIV_INTS, *CIV_LISTS)
_NINTS = len(CIV_INTS)
#: the fields of a :func:`civ_public` document that are containers (copied for every caller,
#: written out in :func:`civ_public`; a test checks the two agree)
_CIV_CONTAINERS = (
    "workers",
    "cubes",
    "special",
    "wonders",
    "hand",
    "build_costs",
    "colonies",
    "ruins",
    "develop_costs",
)


def civ_public(state: TTAState, seat: int, *, memo: bool = True) -> JSON:
    """What everybody sees of one civilization.

    It depends on the civilization alone, so the state remembers, per seat, the last document
    and the civilization's whole content it came from (every int and list of
    :class:`~.state.Civ`); while the content compares equal the document is used again (the
    seats that did not change since the last view). Every call returns its own containers.
    ``memo=False`` works it out afresh (the tests compare the two).
    """
    civ = state.civs[seat]
    if not memo:
        return _civ_public(civ, seat)
    fields = _FIELDS_OF(civ)
    known = state._civ_views[seat]
    if known is not None and known[0] == fields:
        doc = known[1]
    else:
        doc = _civ_public(civ, -1)
        state._civ_views[seat] = (fields[:_NINTS] + tuple(map(list.copy, fields[_NINTS:])), doc)
    # a new dict in the document's key order; every container of _CIV_CONTAINERS copied
    return {
        **doc,
        "seat": seat,
        "workers": doc["workers"].copy(),
        "cubes": doc["cubes"].copy(),
        "special": doc["special"].copy(),
        "wonders": doc["wonders"].copy(),
        "hand": doc["hand"].copy(),
        "build_costs": doc["build_costs"].copy(),
        "colonies": doc["colonies"].copy(),
        "ruins": doc["ruins"].copy(),
        "develop_costs": doc["develop_costs"].copy(),
    }


def _civ_public(civ: Civ, seat: int) -> JSON:
    """:func:`civ_public` computed (``seat`` is only written into the document)."""
    f = effects.fx(civ)  # derived once for every field below
    culture_rate, science_rate, strength, happy = board.ratings(civ)
    ca_total, ma_total = f.ca, f.ma  # board.totals
    food, res = board.production(civ)
    costs = board.building_costs(civ, f)  # board.building_cost of every slot
    return {
        "seat": seat,
        "culture": civ.culture,
        "science": civ.science,
        "culture_rate": culture_rate,
        "science_rate": science_rate,
        "strength": strength,
        "happiness": happy,
        "discontent": max(0, board.happiness_required(civ.yellow) - happy),  # board.discontent
        "yellow_bank": civ.yellow,
        "blue_bank": civ.blue,
        "worker_pool": civ.pool,
        "food": board.stock(civ, False),
        "resources": board.stock(civ, True),
        "food_production": food,
        "resource_production": res,
        "workers": {_ID[c]: civ.workers[_SLOT[c]] for c in civ.developed},
        "cubes": list(civ.cubes),
        "government": _ID[civ.gov],
        "special": [CARDS[c].id for c in civ.special if c >= 0],
        "leader": CARDS[civ.leader].id if civ.leader >= 0 else None,
        "wonders": _ids(civ.wonders),
        "unfinished_wonder": CARDS[civ.wip].id if civ.wip >= 0 else None,
        "wonder_stages_built": civ.wip_stages,
        "civil_actions": civ.ca,
        "military_actions": civ.ma,
        "temporary_military_actions": civ.temp_ma,
        "civil_actions_total": ca_total,
        "military_actions_total": ma_total,
        "hand": _ids(civ.hand),
        "tactic": CARDS[civ.tactic].id if civ.tactic >= 0 else None,
        "tactic_exclusive": bool(civ.tactic_own),
        "military_hand_size": len(civ.mhand),
        "next_population_cost": board.pop_cost(civ.yellow),
        "consumption": board.consumption(civ.yellow),
        "corruption": board.corruption(civ.blue),
        # for UIs: limits and this civilization's discounted building costs (TTA-7.2.3, 7.6)
        "civil_hand_limit": f.ca + f.chand,  # board.hand_limits
        "military_hand_limit": f.ma + f.mhand,
        "urban_limit": board.urban_limit(civ),
        "build_costs": {_ID[c]: costs[_SLOT[c]] for c in civ.developed if _SLOT[c] >= 0},
        "colonies": _ids(civ.colonies),
        "ruins": _ids(civ.ruins),
        "resigned": bool(civ.flags & F_RESIGNED),
        "secret_events": len(civ.secret),
        # science to develop each technology in the (public) civil hand after modifiers (TTA-7.2.9)
        "develop_costs": {
            _ID[c]: civil.develop_cost(civ, CARDS[c], f) for c in civ.hand if _TECH[c]
        },
    }


#: ``pending_detail["kind"]`` by pending decision kind (``state.P_*`` order)
PENDING_KINDS = (
    "none",
    "perform",
    "choose",
    "discard",
    "homer",
    "defend",
    "accept",
    "bid",
    "send",
    "option",
    "agreement",
    "keep",
)


def _pending_detail(state: TTAState) -> JSON:
    """The pending decision in words for UIs: its kind, the seat deciding, the card asking and
    its public data (an aggression's strengths, a pact's sides, the auction's high bid...)."""
    p = state.pending
    kind = p[0]
    doc: JSON = {
        "kind": PENDING_KINDS[kind] if 0 <= kind < len(PENDING_KINDS) else str(kind),
        "seat": state.decider(),
    }
    if kind in (P_PERFORM, P_CHOOSE, P_DEFEND, P_ACCEPT, P_BID, P_SEND, P_OPTION) and p[1] >= 0:
        doc["card"] = CARDS[p[2] if kind == P_OPTION else p[1]].id
    if kind == P_PERFORM:  # what the played card lets the player do (TTA-7.2.11)
        doc.update(perform=civil.PERFORM_KINDS[p[2]], discount=p[3])
    elif kind == P_OPTION:
        doc["what"] = _option_kind(p[1])
    if kind == P_DISCARD and len(p) > 1:
        doc["count"] = p[1]
    elif kind == P_DEFEND:
        doc.update(attacker=p[2], target=p[3], attack=p[4], defense=p[5], cards_used=p[6])
    elif kind == P_ACCEPT:
        doc.update(offerer=p[2], partner=p[3], offerer_side="AB"[p[4]])
    elif kind == P_BID:
        doc.update(high_bid=p[2], high_bidder=p[3] if p[3] >= 0 else None)
    elif kind == P_SEND:
        doc.update(bid=p[2], force=events.force(state), units_sent=len(p) - 5)
    elif kind == P_AGREEMENT:
        doc["budget"] = p[1]
    return doc


def _option_kind(what: int) -> str:
    """The meaning of a ``P_OPTION`` decision's answers, by name (see the ``W_*`` constants)."""
    names = {
        politics.W_PLUNDER: "plunder",
        politics.W_TECHWAR: "tech_war",
        politics.W_INFILTRATE: "infiltrate",
        politics.W_ANNEX: "annex",
        politics.W_RAID: "raid",
        events.W_MIX_GAIN: "mix_gain",
        events.W_MIX_LOSE: "mix_lose",
        events.W_CHOOSE: "choose",
        events.W_FREEBUILD: "free_build",
        events.W_DESTROY: "destroy",
        events.W_LOSEWORKER: "lose_worker",
        events.W_MDISCARD: "military_discard",
        events.W_COLONY_LOSE: "lose_colony",
        events.W_RAVAGES: "ravages",
    }
    return names.get(what, "other")


def _row_costs(state: TTAState, costs: list[int]) -> list[int | None]:
    """TTA-3.1/3.2: the civil actions a seat would pay for each row slot (None: empty slot),
    from its :func:`~.rules.civil.take_costs`."""
    return [None if c < 0 else costs[s] for s, c in enumerate(state.row)]


#: a move not looked for yet in :data:`.moves.STATIC_MOVES`
_UNKNOWN: JSON = {}


def view(state: TTAState, seat: int | None, *, labels: bool = True, memo: bool = True) -> JSON:
    """Everything ``seat`` may know (``None``: spectator). ``memo=False`` works every part out
    afresh, without the remembered civilizations of :func:`civ_public` and action labels of
    :func:`.actions.describe`, each label, move and reason on its own (the same document)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    # civil.take_cost of each slot for the seat (the current player's for a spectator)
    civ = state.civs[state.current if seat is None else seat]
    f = effects.fx(civ)
    take_costs = civil.take_costs(state, civ, f)
    terminal = state.is_terminal()
    decider = state.decider()  # = state.to_move()[0] while the game runs
    doc: JSON = {
        "game": state.game.id,
        "players": state.players,
        "options": dict(state.options),
        "seat": seat,
        "round": state.round,
        "age": ("A", "I", "II", "III", "IV")[state.age],
        "first_player": state.first,
        "current": state.current,
        "to_move": [] if terminal else [decider],
        # the seat deciding now: the current player or one answering another seat (TTA-6.4)
        "actor": None if terminal else decider,
        "last_round": state.last_round,
        "terminal": terminal,
        "row": list(map(_ID_OR_NONE.__getitem__, state.row)),  # None: an empty slot (-1)
        "civil_deck_sizes": list(map(len, state.civil_decks)),
        "military_deck_sizes": list(map(len, state.mil_decks)),
        "military_discard_sizes": list(map(len, state.mil_discards)),
        "current_events": len(state.events),
        "future_events": len(state.future),
        "past_events": _ids(state.past),
        "faceup_events": _ids(state.faceup),
        "phase": "action" if state.phase == PH_ACTION else "politics",
        # Julius Caesar: the Politics Phase goes on for a second political action
        "second_political_action": state.phase == PH_SECOND,
        "pacts": [
            {
                "card": CARDS[state.pacts[i]].id,
                "owner": state.pacts[i + 1],
                "a": state.pacts[i + 2],
                "b": state.pacts[i + 3],
            }
            for i in range(0, len(state.pacts), 4)
        ],
        "wars": [
            {
                "card": CARDS[state.wars[i]].id,
                "declarer": state.wars[i + 1],
                "target": state.wars[i + 2],
            }
            for i in range(0, len(state.wars), 3)
        ],
        "common_tactics": _ids(state.common),
        "pending": state.pending[0],
        "pending_detail": _pending_detail(state),
        "row_costs": _row_costs(state, take_costs),
        "civs": [civ_public(state, s, memo=memo) for s in range(state.players)],
    }
    if seat is not None:
        doc["military_hand"] = _ids(state.civs[seat].mhand)
        if peeks(state, seat):  # Joan of Arc: the top current event (TTA-6.1)
            doc["top_current_event"] = CARDS[state.events[-1]].id
        if state.age >= 2:  # the shorter game: one's own Age III events, from the end of Age I
            doc["secret_events"] = _ids(state.civs[seat].secret)
        legal = state.legal_actions(seat)
        if labels and memo:
            # ``move``: what each action does, as structure (the words module labels it); the
            # seat's take costs, effects and legal set are worked out once for all of them
            describe, move = actions.describe, moves.move  # describe = state.describe
            static = moves.STATIC_MOVES
            pending = state.pending[0]
            entries: list[JSON] = []
            for a in legal:
                key = a * 16 + pending
                m = static.get(key, _UNKNOWN)
                if m is None:  # a move of the position
                    m = move(state, seat, a, take_costs=take_costs, f=f)
                elif m is _UNKNOWN:
                    m = move(state, seat, a, take_costs=take_costs, f=f)
                    static[key] = m.copy() if moves.depends_on_id_alone(a, pending) else None
                else:
                    m = m.copy()
                entries.append({"id": a, "label": describe(state, seat, a), "move": m})
            doc["legal"] = entries
            # why the seat's cards cannot be taken or played now (issue 18)
            doc["why"] = reasons.why(state, seat, take_costs, legal=set(legal), f=f)
        elif labels:  # the same, every part worked out on its own (no remembered label)
            doc["legal"] = [
                {
                    "id": a,
                    "label": actions.describe(state, seat, a, memo=False),
                    "move": moves.move(state, seat, a),
                }
                for a in legal
            ]
            doc["why"] = reasons.why(state, seat)
        else:
            doc["legal"] = [{"id": a} for a in legal]
    if state.log is not None:
        # an entry with "seat" is that seat's alone; one with "others" is for everybody but
        # that seat (the public side of a private move, which the seat reads in full)
        doc["log"] = [
            e
            for e in state.log
            if ("seat" not in e or e["seat"] == seat) and ("others" not in e or e["others"] != seat)
        ]
    if terminal:
        doc["result"] = state.result().to_json()
    return doc


def _redeal_events(state: TTAState, s: TTAState, seat: int, rng: Rng) -> None:
    """Events and territories ``seat`` has not seen are re-dealt among the places it cannot
    see, age by age (a military card's back shows its age): the current events, the future
    cards others prepared (TTA-6.2), the other hands, the decks, the face-down discards and
    the cards of that age not in the game (Age A's box, TTA-2.4). Positions keep their kind
    (an event or territory stays one), so a re-dealt future deck holds only what can be
    prepared. Joan of Arc's owner keeps the top current event he saw."""
    first = s.options.get("mode", "first") == "first"
    known_top = peeks(state, seat)
    for age in range(4):
        places: list[tuple[list[int], int]] = []
        _places(places, s.events, age, len(s.events) - 1 if known_top else -1)
        for i, c in enumerate(s.future):
            if s.future_by[i] != seat and CARDS[c].age == age:
                places.append((s.future, i))
        for o, civ in enumerate(s.civs):
            if o != seat:
                _places(places, civ.mhand, age)
        _places(places, s.mil_decks[age], age)
        _places(places, s.mil_discards[age], age)
        if not places:
            continue
        pool = [cards[i] for cards, i in places]
        everywhere: list[int] = [*s.events, *s.future, *s.past, *s.faceup, *s.mil_decks[age]]
        everywhere += s.mil_discards[age]
        for civ in s.civs:
            everywhere += civ.mhand + civ.colonies + civ.secret
        for item in (s.pending, *(q[1:] for q in s.queue)):
            if item[0] in (P_BID, P_SEND):
                everywhere.append(item[1])  # a territory being auctioned or colonized (TTA-11)
        outside = Counter(
            c for c in military_deck(age, s.players, first) if CARDS[c].type in _PREPARABLE
        ) - Counter(everywhere)
        pool += list(outside.elements())  # not in play: the box, antiquated, unseen
        pool.sort()
        rng.shuffle(pool)
        for (cards, i), c in zip(places, pool, strict=False):
            cards[i] = c


def _places(out: list[tuple[list[int], int]], cards: list[int], age: int, skip: int = -1) -> None:
    """The positions of ``cards`` holding an event or territory of ``age`` (but ``skip``)."""
    for i, c in enumerate(cards):
        if i != skip and CARDS[c].age == age and CARDS[c].type in _PREPARABLE:
            out.append((cards, i))


_PREPARABLE = ("event", "territory")


def peeks(state: TTAState, seat: int) -> bool:
    """Joan of Arc: her owner may look at the top current event at the start of his Politics
    Phase (TTA-6.1, hook ``peek_current_event``); the engine shows it for the whole phase."""
    return (
        seat == state.current
        and state.phase != PH_ACTION
        and bool(state.events)
        and effects.has_hook(state.civs[seat], "peek_current_event")
    )


def determinize(state: TTAState, seat: int, rng: Rng) -> TTAState:
    """Re-deal the unseen cards: other military hands, military decks and face-down discards,
    civil decks, current events; the sample gets a generator of its own (a future of its own)."""
    s = state.copy()
    for age in range(4):
        # face-down discards are pooled too (who discarded what is not tracked, so the seat's
        # own discards are re-dealt as well: the search never sees others' discards)
        pool: list[int] = list(s.mil_decks[age]) + list(s.mil_discards[age])
        n_discards = len(s.mil_discards[age])
        sizes: list[tuple[int, int]] = []
        for o, civ in enumerate(s.civs):
            if o == seat:
                continue
            mine = [c for c in civ.mhand if CARDS[c].age == age]
            if mine:
                sizes.append((o, len(mine)))
                pool.extend(mine)
                civ.mhand = [c for c in civ.mhand if CARDS[c].age != age]
        # sorted first: the re-deal depends on what the seat sees, not on the true order
        pool.sort()
        rng.shuffle(pool)
        for o, n in sizes:
            s.civs[o].mhand.extend(pool[:n])
            del pool[:n]
        s.mil_discards[age] = pool[:n_discards]
        s.mil_decks[age] = pool[n_discards:]
        s.civil_decks[age].sort()
        rng.shuffle(s.civil_decks[age])
    _redeal_events(state, s, seat, rng)
    # the shorter game: face-down Age III events of the others (and one's own before the end
    # of Age I) are re-dealt from those and the unused ones (TTA-15.1)
    if s.options.get("mode") == "shorter":
        hidden = [o for o in range(s.players) if o != seat or s.age < 2]
        known = set(s.faceup) | (set(s.civs[seat].secret) if s.age >= 2 else set())
        pool = [
            c
            for c in military_deck(3, s.players, False)
            if CARDS[c].type == "event" and c not in known
        ]
        rng.shuffle(pool)
        for o in hidden:
            n = len(s.civs[o].secret)
            s.civs[o].secret = pool[:n]
            del pool[:n]
    # the state's generator fixes every later shuffle (the future events becoming current,
    # TTA-12.2; military discards reshuffled, TTA-8.8): a sample draws its own future
    s.rng = rng.fork()
    s._legal = None
    return s
