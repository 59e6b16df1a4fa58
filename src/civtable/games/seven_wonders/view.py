"""What each seat may know (SW-3.9, AMB-25), and determinization for search bots.

:func:`view` is the only place that decides visibility. Public: every city's structures, stages
built, coins, tokens, hand sizes, who has committed, discard-pile size, age, turn. Private to a
seat: its own hand, its pending commitment, its own stage markers and the cards it discarded; the
Halikarnassus player sees the whole pile while choosing. Nobody sees others' hands, the Free City
pile, others' choices before they resolve, or the guilds left out of the game.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from civtable.core.api import JSON
from civtable.core.rng import Rng
from civtable.games.seven_wonders.actions import (
    CHAIN,
    FREE,
    HALI,
    K_BUILD,
    K_DISCARD,
    K_STAGE,
    OLYMPIA,
    STAGE,
)
from civtable.games.seven_wonders.catalog import (
    BOARDS,
    CARDS,
    COLORS,
    GUILDS,
    N_CARDS,
    PURPLE,
    SCIENCE,
)
from civtable.games.seven_wonders.rules import turn
from civtable.games.seven_wonders.state import EXTRA, HALI_PHASE, MAIN, OVER, PHASE_NAMES

if TYPE_CHECKING:
    from civtable.games.seven_wonders.state import SevenWondersState

KIND_NAMES = {K_BUILD: "build", K_STAGE: "stage", K_DISCARD: "discard"}


_CARD_IDS = tuple(c.id for c in CARDS)

#: per board and side: its id, wonder, side letter, number of stages, and the number of stages
#: to build before its free build (SW-10.8; 99: the side has none)
_SIDES = tuple(
    tuple(
        (b.id, b.wonder, "AB"[side], len(stages), turn.FREE_BUILD_AT[b.index][side])
        for side, stages in enumerate(b.sides)
    )
    for b in BOARDS
)
#: the science symbols and structure colours, as keys of the view's dicts (literal dicts are
#: several times cheaper to build than ``dict(zip(...))``)
_SCI0, _SCI1, _SCI2 = SCIENCE
_COL0, _COL1, _COL2, _COL3, _COL4, _COL5, _COL6 = COLORS
#: "Player 1" .. "Player 7"
_PLAYER_NAMES = tuple(f"Player {s + 1}" for s in range(7))


def _city_public(state: SevenWondersState, c: int) -> JSON:
    city = state.cities[c]
    board_id, wonder, side, stages_total, free_stage = _SIDES[city.board][city.side]
    ids = _CARD_IDS
    tokens = city.tokens
    sci = city.science
    col = city.colors
    needs = state.needs[c]
    if state.two_player:
        fc = c == 0
        seat: int | None = None if fc else c - 1
        name = "Free City" if fc else _PLAYER_NAMES[c - 1]
        hand_size = _hand_size(state, c)
    else:
        seat = c
        name = _PLAYER_NAMES[c]
        hand_size = len(state.hands[c])
        if needs and (state.commits[c] is not None or state.await_pay[c] is not None):
            hand_size += 1
    return {
        "index": c,
        "seat": seat,
        "name": name,
        "board": board_id,
        "wonder": wonder,
        "side": side,
        "stages_built": city.stages,
        "stages_total": stages_total,
        "coins": city.coins,
        "tokens": tokens[:],
        "military_points": sum(tokens),
        "defeat_tokens": city.defeats,
        "shields": city.shields,
        "science": {_SCI0: sci[0], _SCI1: sci[1], _SCI2: sci[2]},
        "science_wilds": city.wilds,
        "structures": [ids[t] for t in city.built],
        "colors": {
            _COL0: col[0],
            _COL1: col[1],
            _COL2: col[2],
            _COL3: col[3],
            _COL4: col[4],
            _COL5: col[5],
            _COL6: col[6],
        },
        "hand_size": hand_size,
        "deciding": needs,
        "committed": needs and state.commits[c] is not None,
        "free_build_available": not city.free_used and city.stages >= free_stage,
    }


def _hand_size(state: SevenWondersState, c: int) -> int:
    """Cards in a player's hand at the start of the step (cards chosen this step included),
    so that the public size does not depend on hidden choices."""
    if state.two_player and c == 0:
        return 0
    size = len(state.hands[c])
    chosen_from = [c]
    if state.two_player and state.phase == MAIN and state.controller == c:
        chosen_from.append(0)  # the Free City's card came from the controller's hand
    for x in chosen_from:
        if state.needs[x] and (state.commits[x] is not None or state.await_pay[x] is not None):
            size += 1
    return size


def view(state: SevenWondersState, seat: int | None, *, labels: bool = True) -> JSON:
    """JSON-ready view for ``seat`` (``None`` = spectator); ``labels=False`` skips the
    readable labels of the legal actions (ids only), for fast machine observers."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} in a {state.players}-player game")
    doc: JSON = {
        "game": state.game.id,
        "players": state.players,
        "seat": seat,
        "age": state.age,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "direction": "right" if state.age == 2 else "left",
        "to_move": list(state.to_move()),
        "cities": [_city_public(state, c) for c in range(state.n)],
        "discard_size": len(state.discard),
        "free_city_pile_size": len(state.hands[0]) if state.two_player else 0,
        "controller": state.seat_of(state.controller) if state.two_player else None,
    }
    if seat is not None:
        own = state.city_of(seat)
        doc["city"] = own
        ids = _CARD_IDS
        doc["hand"] = [ids[t] for t in state.hands[own]]
        doc["stage_cards"] = [ids[t] for t in state.cities[own].stage_cards]
        known = state.discard_known
        doc["my_discards"] = (
            [ids[t] for t, k in zip(state.discard, known, strict=True) if k == seat]
            if seat in known
            else []
        )
        mine: dict[str, Any] = {}
        for c in state.seat_cities(seat):
            commit = state.commits[c] if state.needs[c] else None
            pending = state.await_pay[c]
            if commit is not None:
                mine[str(c)] = {
                    "action": KIND_NAMES[commit[0]],
                    "card": CARDS[commit[1]].id,
                    "pay_left": commit[2],
                    "pay_right": commit[3],
                    "free": {CHAIN: "chain", OLYMPIA: "olympia"}.get(commit[4]),
                }
            elif pending is not None:
                mine[str(c)] = {
                    "action": KIND_NAMES[pending[0]],
                    "card": CARDS[pending[1]].id,
                    "choosing_payment": [list(p) for p in pending[2]],
                }
        doc["commitments"] = mine
        deciding = state.current_city(seat)
        doc["deciding_for"] = deciding if deciding >= 0 else None
        if state.phase == HALI_PHASE and deciding == state.hali_city:
            doc["discard_pile"] = [CARDS[t].id for t in state.discard]  # SW-10.11
        if state.two_player and state.phase != OVER and state.controller == own:
            doc["stage_cards_free_city"] = [CARDS[t].id for t in state.cities[0].stage_cards]
        if labels:
            legal = state.legal_actions(seat)
            doc["legal"] = [
                {"id": a, "label": text}
                for a, text in zip(legal, turn.describe_all(state, seat, legal), strict=True)
            ]
        else:
            doc["legal"] = [{"id": a} for a in state.legal_actions(seat)]
    if state.log is not None:
        doc["log"] = [e for e in state.log if "seat" not in e or e["seat"] == seat]
    if state.phase == OVER:
        doc["result"] = state.result().to_json()
    return doc


def remembered_hands(state: SevenWondersState, seat: int) -> dict[int, list[int]]:
    """What ``seat`` remembers of the hands it passed this age (SW-3.5, SW-3.9).

    Maps each city (other than the seat's) now holding a hand the seat held earlier this age to
    the cards that hand may still contain: the hand as the seat last saw it, minus the card the
    seat played from it, minus the structures built from it since (public). The hidden plays
    made from it since (wonder stages, discards, and this step's unresolved choices) are not
    removed: they hide which card left, so the list holds ``len(hand)`` cards plus one per hidden
    play. Derived from ``state.history`` (each seat's last plays of the age), so an empty entry
    (2-player game, Babylon's extra step, Halikarnassus choosing from the pile, a state whose
    history was dropped) means "nothing remembered". Cards are card-type indices; lists are
    multisets. The 2-player variant has its own memory (:func:`_remembered_two_player`).
    """
    if state.two_player:
        return _remembered_two_player(state, seat)
    if state.phase not in (MAIN, HALI_PHASE):
        return {}
    if state.phase == HALI_PHASE and state.hali_city == seat:
        # The seat sees the whole pile (SW-10.11), remembered discards included, and cannot
        # tell which copy of a card came from which hand: nothing remembered (uniform re-deal).
        return {}
    n, turn_now = state.n, state.turn
    step = -1 if state.age == 2 else 1  # SW-3.5: hand lineage h is held by h + step*(t-1)
    # Plays (main-step actions) each city made this age: turn_now - 1 resolved, plus this
    # step's choice if made (its card already left the hand).
    made = [turn_now - 1 if state.phase == MAIN else turn_now] * n
    if state.phase == MAIN:
        for c in range(n):
            if state.needs[c] and (state.commits[c] is not None or state.await_pay[c] is not None):
                made[c] += 1
    plays: list[list[int]] = [[] for _ in range(n)]  # per city, its actions, latest first
    missing = sum(made)
    for s_, a in reversed(state.history):
        if missing == 0:
            break
        if a < HALI and len(plays[s_]) < made[s_]:  # build/stage/discard/free, not pay/hali
            plays[s_].append(a)
            missing -= 1
    if missing:
        return {}
    for p in plays:
        p.reverse()  # p[t - 1] = the action of turn t
    own = seat
    resolved = turn_now if state.phase == HALI_PHASE else turn_now - 1
    memory: dict[int, list[int]] = {}
    for t_seen in range(1, turn_now):
        h = (own - step * (t_seen - 1)) % n  # the lineage the seat held at turn t_seen
        holder = (h + step * (turn_now - 1)) % n
        if holder == own:
            continue
        # Full contents at turn t_seen: current hand + every play from h at turns >= t_seen
        # (the truth, used only to rebuild what the seat saw: its hand at turn t_seen).
        cards = state.hands[holder][:]
        for t in range(t_seen, turn_now + 1):
            c = (h + step * (t - 1)) % n
            if t <= len(plays[c]):
                cards.append(plays[c][t - 1] % N_CARDS)
        # Minus the seat's own play and later public builds from that hand.
        cards.remove(plays[own][t_seen - 1] % N_CARDS)
        for t in range(t_seen + 1, resolved + 1):  # resolved turns: this step's are hidden
            c = (h + step * (t - 1)) % n
            a = plays[c][t - 1]
            if a < STAGE or a >= FREE:  # SW-3.9: built structures are public
                cards.remove(a % N_CARDS)
        memory[holder] = cards  # later t_seen overwrite: the latest sighting is the tightest
    return memory


def _remembered_two_player(state: SevenWondersState, seat: int) -> dict[int, list[int]]:
    """2-player memory (SW-14.4): the players exchange hands every turn, so from turn 2 of an age
    a seat knows the hand its opponent took: the cards it left them. When the opponent controls
    the Free City this turn, they also drew the top card of the Free City pile, which the seat
    has not seen: the list then holds one card fewer than the opponent's hand (with this step's
    unresolved choices, their own and the Free City's), and determinization deals that card from
    the unseen ones.

    Which card was drawn is found by replaying the game's history from its seed (the truth,
    used only to take the drawn card out of the opponent's hand); without a complete history,
    nothing is remembered.
    """
    if state.phase != MAIN or state.turn < 2 or not state.history:
        return {}
    opp = 3 - state.city_of(seat)
    cities = [opp, 0] if state.controller == opp else [opp]
    cards = state.hands[opp][:]
    for c in cities:
        commit, pending = state.commits[c], state.await_pay[c]
        if commit is not None and state.needs[c]:
            cards.append(commit[1])
        if pending is not None:
            cards.append(pending[1])
    if state.controller == opp:
        drawn = _drawn_card(state)
        if drawn is None or drawn not in cards:
            return {}
        cards.remove(drawn)
    return {opp: sorted(cards)}


def _drawn_card(state: SevenWondersState) -> int | None:
    """The card the Free City's controller drew at the start of this step (SW-14.4.1), from a
    replay of ``state.history``; None if the replay does not reach this step."""
    from civtable.games.seven_wonders.rules import setup

    replay = setup.new_game(state.game, state.players, state.seed, state.options)
    drawn: int | None = None
    key = (0, 0)
    try:
        for s_, a in state.history:
            replay.apply(s_, a)
            if replay.phase == MAIN and (replay.age, replay.turn) != key:
                key = (replay.age, replay.turn)  # a new step: nobody has chosen yet
                drawn = replay.hands[replay.controller][-1]
    except Exception:  # pragma: no cover - a history that does not replay: remember nothing
        return None
    if key != (state.age, state.turn) or sorted(replay.hands[0]) != sorted(state.hands[0]):
        return None
    return drawn


def determinize(state: SevenWondersState, seat: int, rng: Rng) -> SevenWondersState:
    """Re-deal everything ``seat`` cannot see, keeping what it can and what it remembers (SW-3.9).

    Unseen cards: other seats' hands and not-yet-resolved choices, the Free City pile, discards
    and stage markers the seat did not place. They are dealt back into the same places with the
    same sizes, consistently with the seat's memory of passed hands (:func:`remembered_hands`):
    a hand the seat held earlier this age gets a uniform random subset of the cards it may
    still contain (what the seat saw, minus its own play and the public builds since); the
    cards of that subset's complement (removed by the hidden plays since) and every other unseen
    card go uniformly to the remaining places, except that hands the seat never held draw only
    from cards it has not seen in a passed hand. Which hidden play took which remembered card is
    not tracked further (a stage marker or discard may receive any such leftover). In Age III
    the guilds among the unremembered unseen cards are re-drawn from the guilds the seat has not
    seen, so the set of guilds in play is re-sampled too. Future decks are not dealt yet; the
    new state's generator is re-seeded, so they differ. Seats that had already chosen this step
    (hidden until it resolves) choose again on the new cards, as the heuristic player would
    (:func:`civtable.games.seven_wonders.heuristic.choose`): a search that samples their choices
    at random meets opponents far weaker than they are whenever it decides after them. In the
    2-player variant the seat
    remembers the hand it left its opponent (SW-14.4; a card the opponent drew from the Free City
    pile is dealt from the unseen cards). Not used during Babylon's extra step (uniform re-deal).

    Everything that does not depend on the draws (the memory, the places, the pool of unseen
    cards, the guilds that may be re-drawn) is worked out once per state and seat
    (:func:`_plan`, kept by the state until it changes); each call only draws and deals.
    """
    plans = state._plans
    if plans is None:
        plans = state._plans = {}
    plan = plans.get(seat)
    if plan is None:
        plan = plans[seat] = _plan(state, seat)
    base, remembered, pool, guilds, hand_slots, slots, recommit, legal = plan
    s = base.copy()
    hands = s.hands
    leftovers: list[int] = []
    for c, cards, size in remembered:
        picked = rng.sample(cards, size)
        hands[c][:size] = picked  # 2 players: a card the opponent drew follows, from the pool
        rest = cards[:]
        for t in picked:
            rest.remove(t)
        leftovers += rest
    pool = pool[:]
    if guilds is not None:
        hidden_guilds, candidates = guilds
        for i, g in zip(hidden_guilds, rng.sample(candidates, len(hidden_guilds)), strict=True):
            pool[i] = g
    # Hands never held take cards the seat has not seen; everything else shares the rest.
    rng.shuffle(pool)
    for c, k in hand_slots:
        hands[c][k] = pool.pop()
    pool += leftovers
    rng.shuffle(pool)
    cities = s.cities
    discard = s.discard
    for (c, k), t in zip(slots, pool, strict=True):
        if c >= 0:
            cities[c].stage_cards[k] = t
        else:
            discard[k] = t
    if recommit:
        from civtable.games.seven_wonders.heuristic import choose
    for c in recommit:
        decider = s.decider(c)
        while s.commits[c] is None:
            s._legal = {}
            turn.apply(s, decider, choose(s, decider, rng))
    # The seat's own legal actions depend only on what it sees: the same in every sample.
    s._legal = {} if legal is None else {seat: legal}
    s.rng = rng.fork()
    return s


#: what :func:`determinize` works out once per state and seat: the state with what the seat
#: cannot see still in place (history and log dropped, other seats' choices of this step back in
#: their hands), the remembered hands ``(city, cards it may hold, size)``, the pool of the other
#: unseen cards, the Age III guilds ``(pool indexes of hidden guilds, guilds that may replace
#: them)`` or None, the places of the hands never held ``(city, position)``, the other places
#: ``(city, stage marker position)`` or ``(-1, discard position)``, the cities to re-choose, and
#: the seat's legal actions if it owes a decision (then no re-choice can resolve the step)
_Plan = tuple[
    "SevenWondersState",
    list[tuple[int, list[int], int]],
    list[int],
    tuple[list[int], list[int]] | None,
    list[tuple[int, int]],
    list[tuple[int, int]],
    list[int],
    list[int] | None,
]


def _plan(state: SevenWondersState, seat: int) -> _Plan:
    """The part of :func:`determinize` that does not depend on the draws."""
    memory = remembered_hands(state, seat)
    s = state.copy()
    s.history = []
    s.log = None
    s._legal = {}
    own_cities = set(s.seat_cities(seat)) if s.phase != OVER else {s.city_of(seat)}
    own = s.city_of(seat)
    # Others' hidden choices of this step go back to their hands; those who had committed
    # choose again (in determinize, with the heuristic), so who has chosen stays as the seat
    # sees it.
    recommit = []
    for c in range(s.n):
        if c in own_cities:
            continue
        hand = s.hands[s.controller] if (s.two_player and c == 0 and s.phase == 0) else s.hands[c]
        commit, pending = s.commits[c], s.await_pay[c]
        if commit is not None and s.needs[c]:
            hand.append(commit[1])
            s.commits[c] = None
            recommit.append(c)
        if pending is not None:
            hand.append(pending[1])
            s.await_pay[c] = None
    pool: list[int] = []
    slots: list[tuple[int, int]] = []  # (city, stage marker position) or (-1, discard position)
    hand_slots: list[tuple[int, int]] = []  # (city, position)
    for c in range(s.n):
        if c == own:
            continue
        # The Free City's last card is seen by its controller in Babylon's extra step (SW-14.10).
        for k, t in enumerate([] if s.phase == EXTRA and c in own_cities else s.hands[c]):
            pool.append(t)
            hand_slots.append((c, k))
        for k, t in enumerate(s.cities[c].stage_cards):
            if not (s.two_player and c == 0 and s.controller == own):
                pool.append(t)
                slots.append((c, k))
    see_pile = s.phase == HALI_PHASE and s.hali_city in own_cities
    for k, (t, known) in enumerate(zip(s.discard, s.discard_known, strict=True)):
        if known != seat and not see_pile:
            pool.append(t)
            slots.append((-1, k))
    # Remembered cards leave the general pool. They are unseen, so they are in it, unless a
    # Halikarnassus build took one from the discard pile since: such cards are dropped.
    remembered = []
    counts = Counter(pool)
    for c in sorted(memory):
        cards = []
        for t in memory[c]:
            if counts[t] > 0:
                counts[t] -= 1
                cards.append(t)
        size = len(s.hands[c])
        # 2 players: the opponent's hand may hold one card more, drawn from the Free City pile
        drawn = 1 if s.two_player and s.controller == c else 0
        if len(cards) < size - drawn:  # pragma: no cover - inconsistent memory: forget it
            counts.update(cards)
            del memory[c]
            continue
        for t in cards:
            pool.remove(t)
        remembered.append((c, cards, min(size, len(cards))))
    # The unseen cards in a fixed order, so a re-deal depends on the seat's view only and not
    # on where the hidden cards really lie (issue 22: same view, same samples, same search).
    pool.sort()
    guilds = None
    if s.age == 3:
        # Every card left in place is known to the seat (structures, own hand, own choices,
        # own markers and discards, the Free City's markers for its controller, the pile while
        # resolving Halikarnassus), and so are the remembered ones: no re-drawn guild may
        # duplicate one of them (SW-2.3).
        kept = [t for c, h in enumerate(s.hands) if c not in memory for t in h] + s.discard
        kept += [t for c in s.cities for t in c.built + c.stage_cards]
        kept += [x[1] for x in s.commits if x is not None]
        kept += [x[1] for x in s.await_pay if x is not None]
        seen = ({t for t in kept if CARDS[t].color == PURPLE} - set(pool)) | {
            t for cards in memory.values() for t in cards if CARDS[t].color == PURPLE
        }
        hidden_guilds = [i for i, t in enumerate(pool) if CARDS[t].color == PURPLE]
        guilds = (hidden_guilds, [g for g in GUILDS if g not in seen])
    # Own city before the Free City: the order in which a controller decides (SW-14.4).
    recommit.sort(key=lambda c: (s.two_player and c == 0, c))
    # A remembered hand's first places take remembered cards; places beyond its memory (the card
    # a 2-player opponent drew) are dealt like a hand never held.
    kept_size = {c: size for c, _, size in remembered}
    hand_slots = [(c, k) for c, k in hand_slots if k >= kept_size.get(c, 0)]
    legal = turn.legal_actions(s, seat) if s.current_city(seat) >= 0 else None
    return s, remembered, pool, guilds, hand_slots, slots, recommit, legal
