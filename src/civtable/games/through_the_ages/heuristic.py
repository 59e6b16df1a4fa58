"""A greedy one-ply heuristic: value every legal action by the civilization's projected final
score after it (culture so far, the first game's TTA-14 bonuses or the full game's Age III
events, rates times the rounds left, stocks, workers and hand), and pick the best.

Military and politics: strength counts for itself and, more, when it falls behind the strongest
opponent (the weakest civilization is the one aggressions, wars and bad events hit, TTA-6.4,
TTA-12.6); colonies count through their effects; military cards in hand are worth keeping (bonus
cards defend). In its own turn its unused military actions are worth the military cards they
will draw at the end of the turn (TTA-8.8, up to the hand limit), so it spends them (a unit, a
tactic played or copied, TTA-7.3) only for more than those cards. In the full game preparing an
Age III scoring event counts the lead it would give (TTA-12.8, TTA-13.2). The bot never resigns,
bids for a territory only up to a value it puts on it, and defends an aggression when a card can
stop it (the look-ahead follows its own decisions).

It decides on what its seat can see (its view): another seat's military hand counts by its
size, and a look-ahead that would draw unseen military cards is not played on the true decks
(:func:`_seen_value`).

For ISMCTS (:mod:`civtable.bots.ismcts`): :func:`action_values` (the values :func:`choose`
compares) ranks the search's root moves, :func:`evaluate` scores cut-off playouts and
:func:`search_clock` counts the cut-off (``ISMCTS_CUTOFF``) in the searching seat's turns.
"""

from __future__ import annotations

import math

from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import (
    CARDS,
    EVENT_CULTURE,
    MIL_DRAW_MAX,
    military_deck,
)
from civtable.games.through_the_ages.rules import board, impact, row
from civtable.games.through_the_ages.scoring import breakdown
from civtable.games.through_the_ages.state import (
    F_RESIGNED,
    P_BID,
    P_DEFEND,
    P_DISCARD,
    P_NONE,
    P_OPTION,
    Civ,
    TTAState,
)
from civtable.games.through_the_ages.view import peeks

#: ISMCTS cuts its playouts off and scores the position with :func:`evaluate` (``k=auto``): a
#: full game is ~250 decisions a player and a heuristic playout to the end costs a large part of
#: a second. The cut-off counts :func:`search_clock` ticks, the searching seat's turns: with 1
#: every playout (the root move, the rest of the seat's turn, the other seats' turns and the
#: seat's next turn, all played by :func:`choose`) is scored at the start of the seat's turn
#: after next, so root moves that take different numbers of actions are compared at the same
#: point of the game. On 24 positions of two-player heuristic games (top 6 moves valued by 3
#: full heuristic playouts each), the move chosen at 1 CPU-second gained +9.8 ± 5.4 points of
#: final margin over the heuristic's with 1, +0.5 ± 3.4 with 0, and -3.7 ± 3.5 with playouts
#: to the end (``k=end:top=4``, too few of them); see ``benchmarks/README.md``.
ISMCTS_CUTOFF = 1


def search_clock(state: State, seat: int) -> int:
    """The number of turns ``seat`` has begun (TTA-4: rounds of turns from the first player):
    the ISMCTS cut-off counts these, so that a playout cut off after ``k`` ticks stops at the
    start of one of the searching seat's turns whatever number of actions the root move took.

    >>> from civtable import games
    >>> s = games.get("through-the-ages").new_game(players=2, seed=1)
    >>> search_clock(s, s.current), search_clock(s, 1 - s.current)
    (1, 0)
    """
    assert isinstance(state, TTAState)
    n = state.players
    if (seat - state.first) % n <= (state.current - state.first) % n:
        return state.round
    return state.round - 1


def rounds_left(state: TTAState) -> float:
    """Rough number of this seat's turns left (cards left in the row's future decks)."""
    if state.last_round >= 0:
        return max(0.0, state.last_round - state.round + 0.5)
    last = 4 if state.options.get("mode", "first") == "full" else 3
    decks = state.civil_decks
    cards = 0
    for a in range(max(1, state.age), last):
        cards += len(decks[a])
    per_round = 2.5 * state.players + 1.0
    return 1.0 + cards / per_round


#: per card: its worth in hand before the ``late`` factor (action cards 1.0)
_HAND_WORTH: tuple[float, ...] = tuple(
    0.5 + 0.2 * card.age if card.type != "action" else 1.0 for card in CARDS
)
#: per card: its worth developed before the rounds factor (civil cards only, else None)
_DEVELOPED_WORTH: tuple[float | None, ...] = tuple(
    1.0 + 1.5 * card.age if card.deck == "civil" else None for card in CARDS
)


def potential(state: TTAState, seat: int, *, hand_seen: bool = True) -> float:
    """Projected final score of ``seat``; with ``hand_seen`` False its military hand counts
    by its size alone (the face-down hand as another seat sees it)."""
    civ = state.civs[seat]
    r = rounds_left(state)
    rates = board.ratings(civ)
    culture_rate, science_rate, strength, happy = rates
    food_p, res_p = board.production(civ)
    full = state.options.get("mode", "first") != "first"
    score = float(civ.culture if full else sum(breakdown(civ, rates).values()))
    v = score + culture_rate * r
    late = min(1.0, r / 3.0)
    v += 0.35 * late * civ.science + 0.3 * science_rate * r
    v += 0.25 * board.stock(civ, False) + 0.3 * board.stock(civ, True)
    v += (0.25 * food_p + 0.35 * res_p) * min(r, 6.0)
    v += 1.0 * late * civ.pool + 0.05 * strength + 0.2 * happy
    total_ca, _ = board.totals(civ)
    v += 1.5 * total_ca * min(r, 5.0) / 5.0
    for c in civ.hand:
        v += _HAND_WORTH[c] * late
    r4 = min(r, 4.0)
    for c in civ.developed:
        w = _DEVELOPED_WORTH[c]
        if w is not None:
            v += w * r4 / 4.0
    if civ.wip >= 0:
        v += 2.0 * civ.wip_stages
    eat = board.consumption(civ.yellow)
    if eat > food_p:
        v -= 2.0 * (eat - food_p) * r4
    if max(0, board.happiness_required(civ.yellow) - happy) > civ.pool:  # turn.uprising()
        v -= 6.0
    return v + _military(state, seat, strength, r, hand_seen)


def _military(state: TTAState, seat: int, strength: int, r: float, hand_seen: bool) -> float:
    """Strength, and the gap to the strongest opponent; military cards (by their size alone
    unless ``hand_seen``); colonies."""
    civ = state.civs[seat]
    others = [board.ratings(c)[2] for o, c in enumerate(state.civs) if o != seat and _live(c)]
    gap = max(others, default=0) - strength
    lead = strength - min(others, default=0)
    v = 0.3 * strength - 1.2 * max(0, gap) * min(r, 4.0) / 4.0 + 0.4 * min(max(0, lead), 8)
    if hand_seen:
        for c in civ.mhand:
            v += _MILITARY_WORTH[c]
    else:
        v += UNSEEN_MILITARY_WORTH * len(civ.mhand)
    if seat == state.current and not state.over:
        v += _unused_actions_value(state, civ, r)
    return v + 2.0 * len(civ.colonies)


#: the worth of one military card drawn at the end of the turn (TTA-8.8), before the hand
#: room and ``late`` factors: its use later (an event prepared for culture, a bonus card that
#: defends, a tactic, an aggression) is worth more than the bare card in hand
DRAW_WORTH = 2.0
#: a card drawn beyond the military hand limit is discarded at the next turn end (TTA-8.1);
#: it is worth only the choice it gives
DRAW_OVER_LIMIT = 0.2
#: any unused military action of the current turn: a tie-break against actions that spend one
#: and change nothing, beyond the three draws or where none are drawn (civil actions get no
#: such value: tried, it made the heuristic skip civil actions of small projected gain that
#: pay later, and it won only 24 of 100 two-player games against the heuristic without it)
UNUSED_MA = 0.02


def _unused_actions_value(state: TTAState, civ: Civ, r: float) -> float:
    """What the current seat's unused actions are still worth this turn: each unused military
    action draws a military card at the end of the turn (TTA-8.8: real or temporary ones, at
    most 3; none in round 1, in the game-ending age or without a military deck), so spending
    one forgoes a card; and a small tie-break per unused action, so that an action that
    changes nothing (a tactic copied that forms no better army, TTA-7.3.5) loses to ending
    the turn. Only the sizes of the decks, which are public, are looked at."""
    mil = civ.ma + civ.temp_ma
    v = UNUSED_MA * mil
    age = state.age
    if mil <= 0 or state.round == 1 or not 1 <= age < row.game_end_age(state):
        return v
    if not (state.mil_decks[age] or state.mil_discards[age]):
        return v
    draws = min(MIL_DRAW_MAX, mil)
    room = max(0, board.hand_limits(civ)[1] - len(civ.mhand))
    kept = min(draws, room)
    worth = DRAW_WORTH * min(1.0, r / 2.0)
    return v + worth * (kept + DRAW_OVER_LIMIT * (draws - kept))


#: per military card: its worth in hand (bonus cards defend)
_MILITARY_WORTH: tuple[float, ...] = tuple(0.6 if card.type == "bonus" else 0.3 for card in CARDS)


def _mean_military_worth() -> float:
    """The mean :data:`_MILITARY_WORTH` of a military card of Ages I-III (the four-player
    full game's decks, TTA-2.2): the worth of a card in a hand another seat cannot see."""
    deck = [c for age in (1, 2, 3) for c in military_deck(age, 4, False)]
    return sum(_MILITARY_WORTH[c] for c in deck) / len(deck)


#: the worth of a military card nobody but its owner has seen (TTA-6.1: military cards are secret)
UNSEEN_MILITARY_WORTH = _mean_military_worth()


def _live(civ: Civ) -> bool:
    """Still in the game (a resigned civilization is compared with nobody, TTA-6.8)."""
    return not civ.flags & F_RESIGNED


def evaluate(state: State, seat: int) -> float:
    """Win estimate in [0, 1]: logistic of the lead over the best opponent."""
    assert isinstance(state, TTAState)
    if state.is_terminal():
        res = state.result()
        return 1.0 / len(res.winners) if seat in res.winners else 0.0
    mine = potential(state, seat)
    best = max(
        (potential(state, o) for o, c in enumerate(state.civs) if o != seat and _live(c)),
        default=0.0,
    )
    return 1.0 / (1.0 + math.exp(-(mine - best) / 8.0))


def _value_after(
    state: TTAState, seat: int, action: int, depth: int, piles: tuple[int, ...] | None
) -> float:
    """Potential after ``action``, following the seat's own pending decisions (action cards).
    ``piles``: the military piles' sizes before the look-ahead (:func:`_piles`); one that
    draws from them raises :class:`_UnseenDrawError` (``None``: a sample, draws are fine)."""
    if (
        state.pending[0] == P_DISCARD
        and state.pending[1] == 1
        and ax.DISCARD <= action < ax.HAMMURABI
    ):
        return _last_discard_value(state, seat, action - ax.DISCARD)
    s = state.scratch_copy()
    s._apply(seat, action)  # a legal action: apply()'s checks would only repeat that
    if s.pending[0] == P_DEFEND and s.pending[2] == seat and not s.is_terminal():
        return _aggression_value(s, seat, depth, piles)
    if ax.WAR <= action < ax.PACT:
        return _leaf(s, seat, piles) + _war_gain(state, seat, action)
    _settle(s, seat)
    if depth > 0 and s.pending[0] != P_NONE and s.decider() == seat and not s.is_terminal():
        return max(_value_after(s, seat, a, depth - 1, piles) for a in s.legal_actions(seat))
    return _leaf(s, seat, piles)


class _UnseenDrawError(Exception):
    """A look-ahead drew military cards that its seat has not seen (TTA-8.8 and the effects
    that draw): :func:`_seen_value` values the action on a sample of the hidden cards."""


def _piles(state: TTAState) -> tuple[int, ...]:
    """The sizes of the military decks and of their face-down discards: a draw makes one of
    them smaller (the deck, or the discards it re-shuffles when it runs out, TTA-8.8)."""
    return (*map(len, state.mil_decks), *map(len, state.mil_discards))


def _leaf(s: TTAState, seat: int, piles: tuple[int, ...] | None) -> float:
    """:func:`potential` at the end of a look-ahead that must not have drawn from ``piles``."""
    if piles is not None and any(a < b for a, b in zip(_piles(s), piles, strict=True)):
        raise _UnseenDrawError
    return potential(s, seat)


#: the seed of the sample :func:`_seen_value` deals from a seat's view
SAMPLE_SEED = 0


def _seen_value(state: TTAState, seat: int, action: int, sample: list[TTAState]) -> float:
    """:func:`_value_after` from what the seat can see. A look-ahead that draws military
    cards (an action card or a colony that draws, an event Joan of Arc's owner reveals, a
    re-shuffle of the discards) would show the seat the true top of the face-down deck. Such
    an action is valued instead on a sample of the hidden cards dealt from the seat's view
    with a fixed seed (:func:`~civtable.games.through_the_ages.view.determinize`: the same
    view gives the same sample), made once a decision (``sample`` holds it)."""
    try:
        return _value_after(state, seat, action, 2, _piles(state))
    except _UnseenDrawError:
        pass
    if not sample:
        sample.append(state.determinize(seat, Rng(SAMPLE_SEED)))
    return _value_after(sample[0], seat, action, 2, None)


def _last_discard_value(state: TTAState, seat: int, card: int) -> float:
    """The last excess military card discarded (TTA-8.1) ends the turn: production, then the
    military cards drawn (TTA-8.8), which the seat has not seen, and the same for every
    choice. So the discards are compared before that, by what leaves the hand."""
    s = state.scratch_copy()
    s.civs[seat].mhand.remove(card)
    s.mil_discards[CARDS[card].age].append(card)
    return potential(s, seat)


def _settle(s: TTAState, seat: int) -> None:
    """Let other seats make the choices an effect leaves them (e.g. a plunderer's mix of food
    and resources), each greedily for itself as ``seat`` can reckon it
    (:func:`_reply_value`), so the effect on ``seat`` shows."""
    for _ in range(4):
        if s.is_terminal() or s.pending[0] != P_OPTION or s.decider() == seat:
            return
        other = s.decider()
        legal = s.legal_actions(other)
        best = max(legal, key=lambda a: _reply_value(s, other, a))
        s.apply(other, best)


def _reply_value(state: TTAState, other: int, action: int) -> float:
    """The potential of another seat after its reply, with its military hand counted by its
    size: the cards are face down (TTA-8.1), so the deciding seat cannot weigh them."""
    s = state.scratch_copy()
    s._apply(other, action)  # a legal action
    return potential(s, other, hand_seen=False)


def _aggression_value(s: TTAState, seat: int, depth: int, piles: tuple[int, ...] | None) -> float:
    """An aggression played (TTA-6.4): the value if the target does not defend, weighted by a
    guess of whether it can (its military cards, at most its MA total, as +2 each)."""
    _card, _attacker, target, attack, defense = s.pending[1:6]
    tciv = s.civs[target]
    cards = min(len(tciv.mhand), board.totals(tciv)[1])
    p_success = 0.85 if defense + 2 * cards < attack else 0.35
    t = s.scratch_copy()
    t.apply(target, ax.DONE)
    while not t.is_terminal() and t.pending[0] != P_NONE and t.decider() == seat:
        legal = t.legal_actions(seat)
        best = max(legal, key=lambda a: _value_after(t, seat, a, 0, piles) if depth > 0 else 0.0)
        t.apply(seat, best)
    return p_success * _leaf(t, seat, piles) + (1 - p_success) * _leaf(s, seat, piles)


def _war_gain(state: TTAState, seat: int, action: int) -> float:
    """A war declared (TTA-6.5) resolves next turn by the strength difference: a rough value
    of winning it by today's difference (culture, yellow cubes, science), minus losing it."""
    card, target = divmod(action - ax.WAR, 4)
    adv = board.ratings(state.civs[seat])[2] - board.ratings(state.civs[target])[2]
    if adv == 0:
        return 0.0
    stake = {"war_over_culture": 5 + abs(adv), "war_over_territory": 3 * (1 + abs(adv) // 5)}
    value = float(stake.get(CARDS[card].id, 0.6 * abs(adv)))
    return 0.7 * value if adv > 2 else -value


def action_values(state: State, seat: int) -> dict[int, float]:
    """The value :func:`choose` gives every legal action of ``seat`` (higher is better): the
    projected final score after it (:func:`potential`, following the seat's own pending
    decisions). Resigning is valued far below everything (the bot never resigns); in a
    colonization auction (TTA-11.2) the bid :func:`choose` makes is valued 1 and the others 0.
    The ISMCTS bot ranks its root moves by these values (paired rollout search).

    >>> from civtable import games
    >>> s = games.get("through-the-ages").new_game(players=2, seed=2)
    >>> sorted(action_values(s, 0)) == s.legal_actions(0)
    True
    """
    assert isinstance(state, TTAState)
    legal = state.legal_actions(seat)
    values = dict.fromkeys(legal, RESIGN_VALUE)
    plain = [a for a in legal if a != ax.RESIGN]
    if len(plain) == 1:
        values[plain[0]] = 0.0
    elif state.pending[0] == P_BID:
        pick = _bid(state, plain)
        for a in plain:
            values[a] = 1.0 if a == pick else 0.0
    else:
        values.update(_values(state, seat, plain))
    return values


#: the value :func:`action_values` gives resigning (TTA-6.8): never a choice of the heuristic
RESIGN_VALUE = -1e9


def _values(state: TTAState, seat: int, legal: list[int]) -> dict[int, float]:
    """Every action's :func:`potential` afterwards (ending the turn: the potential now)."""
    values: dict[int, float] = {}
    sample: list[TTAState] = []  # the seat's sample of the hidden cards, made when needed
    for a in legal:
        if a == ax.END and state.pending[0] == P_NONE:
            # ending realizes production that any other action gets too: compare with now
            values[a] = potential(state, seat) - 0.01
        elif ax.PREPARE <= a < ax.AGGRESS:
            card = a - ax.PREPARE
            if peeks(state, seat):  # Joan of Arc: the seat sees the event it reveals (TTA-6.1)
                values[a] = _seen_value(state, seat, a, sample)
            else:
                values[a] = _prepare_value(state, seat, card)
            values[a] += _impact_gain(state, seat, card)
        else:
            values[a] = _seen_value(state, seat, a, sample)
    return values


def _prepare_value(state: TTAState, seat: int, card: int) -> float:
    """Preparing an event (TTA-6.2) as the seat can foresee it: the card leaves its hand for
    the future deck and its level is scored in culture. The event it then reveals is the top
    of the face-down current deck (TTA-12.1), unknown to the seat, so its effect is not
    counted (applying the action on the true state would show it: a bot must decide on what
    its seat can know)."""
    s = state.scratch_copy()
    civ = s.civs[seat]
    civ.mhand.remove(card)
    civ.culture += EVENT_CULTURE[CARDS[card].age]
    return potential(s, seat)


#: the weight of an Age III scoring event's projected lead (:func:`_impact_gain`)
IMPACT_WEIGHT = 0.7


def _impact_gain(state: TTAState, seat: int, card: int) -> float:
    """The full game: an Age III event prepared (TTA-6.2) is scored for everybody when it is
    revealed (TTA-12.8) or at the end (TTA-13.2), so preparing it is worth the culture it
    would give ``seat`` today over the average opponent's (weighted, things change)."""
    if card not in impact.IMPACT_EVENTS or state.options.get("mode", "first") != "full":
        return 0.0
    gains = impact.impact_culture(state, card, first_as_current=True)
    others = [gains[o] for o, c in enumerate(state.civs) if o != seat and _live(c)]
    if not others:
        return 0.0
    return IMPACT_WEIGHT * (gains[seat] - sum(others) / len(others))


def choose(state: State, seat: int, rng: Rng) -> int:
    """The legal action with the best :func:`potential` afterwards (random tie-break)."""
    assert isinstance(state, TTAState)
    legal = [a for a in state.legal_actions(seat) if a != ax.RESIGN]  # never resigns
    if len(legal) == 1:
        return legal[0]
    if state.pending[0] == P_BID:
        return _bid(state, legal)
    best: list[int] = []
    best_v = -1e18
    for a, v in _values(state, seat, legal).items():
        if v > best_v + 1e-9:
            best_v = v
            best = [a]
        elif abs(v - best_v) <= 1e-9:
            best.append(a)
    return rng.choice(best)


def _bid(state: TTAState, legal: list[int]) -> int:
    """Colonization (TTA-11.2): outbid by one up to the territory's rough worth (its level's
    base plus a bit per round left), else pass."""
    card = CARDS[state.pending[1]]
    worth = 2 + 2 * card.age + int(min(rounds_left(state), 6.0) / 2)
    want = ax.OPTION + state.pending[2] + 1
    return want if want in legal and want - ax.OPTION <= worth else ax.OPTION
