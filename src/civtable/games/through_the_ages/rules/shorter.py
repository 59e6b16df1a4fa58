"""The shorter game (TTA-15.1): two ages with the full rules, scored by Age III events.

Setup (:mod:`.setup`) deals each player two Age III events face down, not looked at until the
end of Age I, and three face up; civil and military Age III are not used. At the end of Age I
every player keeps one of his two events (a decision, in turn order from the current player);
a war may be declared as the shared War over Culture (:mod:`.politics`); the game ends as the
first game (Age II running out starts the game-ending age, TTA-4.4); final scoring: 6 culture
per completed Age II wonder, the face-up events for everybody, then all kept events, shuffled,
one by one for everybody (:func:`final_scoring`).
"""

from __future__ import annotations

from civtable.games.through_the_ages import actions as ax
from civtable.games.through_the_ages.catalog import CARDS, SHORTER_WONDER
from civtable.games.through_the_ages.state import F_RESIGNED, P_KEEP, TTAState, to_box


def end_of_age_one(state: TTAState) -> None:
    """Queue every player's choice of the Age III event to keep (TTA-15.1)."""
    from civtable.games.through_the_ages.rules import politics

    for seat in politics.order_from(state, state.current):
        if len(state.civs[seat].secret) > 1:
            politics.push(state, seat, [P_KEEP])


def keep_actions(state: TTAState) -> list[int]:
    """``OPTION+i``: keep the i-th of one's face-down events."""
    return [ax.OPTION + i for i in range(len(state.civs[state.decider()].secret))]


def keep(state: TTAState, action: int) -> None:
    """Keep one event; the other is discarded face down (out of the game)."""
    civ = state.civs[state.decider()]
    kept = civ.secret.pop(action - ax.OPTION)
    to_box(state, civ.secret)
    civ.secret = [kept]


def describe(state: TTAState, seat: int, action: int) -> str:
    """``keep Impact of Science``."""
    secret = state.civs[seat].secret
    i = action - ax.OPTION
    return f"keep {CARDS[secret[i]].name}" if 0 <= i < len(secret) else f"option {i}"


def wonder_culture(state: TTAState, seat: int) -> int:
    """6 culture per completed Age II wonder (TTA-15.1)."""
    civ = state.civs[seat]
    return SHORTER_WONDER * sum(1 for w in (*civ.wonders, *civ.ruins) if CARDS[w].age == 2)


def final_scoring(state: TTAState) -> list[int]:
    """TTA-15.1 final scoring; applies it and returns what each seat gained."""
    from civtable.games.through_the_ages.rules import impact

    start = [c.culture for c in state.civs]
    for seat, civ in enumerate(state.civs):
        if not civ.flags & F_RESIGNED:
            civ.culture += wonder_culture(state, seat)
    for card in state.faceup:
        impact.apply_impact(state, card, first_as_current=True)
    kept = [c for civ in state.civs if not civ.flags & F_RESIGNED for c in civ.secret]
    state.rng.shuffle(kept)
    for card in kept:
        impact.apply_impact(state, card, first_as_current=True)
    return [c.culture - b for c, b in zip(state.civs, start, strict=True)]


def projection(state: TTAState) -> list[int]:
    """What final scoring would give now (for results while the game runs); as there, a
    resigned player's wonders and kept events count for nobody (TTA-6.8)."""
    from civtable.games.through_the_ages.rules import impact

    live = [not civ.flags & F_RESIGNED for civ in state.civs]
    extra = [wonder_culture(state, s) if live[s] else 0 for s in range(state.players)]
    cards = [*state.faceup, *(c for s, civ in enumerate(state.civs) if live[s] for c in civ.secret)]
    for card in cards:
        for seat, g in enumerate(impact.impact_culture(state, card, first_as_current=True)):
            extra[seat] += g
    return extra
