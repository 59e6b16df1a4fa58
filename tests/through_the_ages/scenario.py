"""Build exact Through the Ages positions for the scenario and rule tests (TTA-T).

A position starts as a real ``new_game`` and is then edited only through the engine's own
structures (a civilization's banks, workers, cubes, cards in play, hands); the tests then go
through the public API (``legal_actions``, ``apply``) or the named rule functions.
Cards are catalog ids (``"irrigation"``, ``"moses"``)::

    s = action_phase(4)           # round 2, seat 0 to act, Age I
    c = s.civs[0]
    develop(c, "irrigation"); workers(c, irrigation=1)
    s.apply(0, act.POP)
"""

from __future__ import annotations

from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages import actions as act
from civtable.games.through_the_ages.catalog import BY_ID, CARDS
from civtable.games.through_the_ages.rules import board
from civtable.games.through_the_ages.state import PH_POLITICS, Civ, TTAState, to_box

__all__ = ["GAME", "act", "action_phase", "card", "cubes", "develop", "workers"]


def card(cid: str) -> int:
    """Catalog index of a card id."""
    return BY_ID[cid]


def action_phase(players: int = 4, seed: int = 0, mode: str = "first") -> TTAState:
    """A new game (the first game unless ``mode`` says ``"full"``) advanced to round 2, seat 0
    (the first player) to act in Age I, in the Action Phase, with full actions."""
    s = GAME.new_game(players, seed, {"mode": mode})
    s.first = s.current = 0
    s.round = 2
    s.age = 1
    s.first_refill = 0
    to_box(s, s.civil_decks[0])  # TTA-4.2: the rest of civil A leaves the game
    s.civil_decks[0] = []
    for c in s.civs:
        c.ca, c.ma = board.totals(c)
    s._legal = None
    return s


def develop(civ: Civ, *ids: str) -> None:
    """Put technologies (building, special or government) into play."""
    for cid in ids:
        c = CARDS[BY_ID[cid]]
        before = board.totals(civ)
        if c.tech_type == "government":
            civ.gov = c.idx
        elif c.special >= 0:
            civ.special[c.special] = c.idx
            board.enter_play(civ, c.idx)
        else:
            civ.developed.append(c.idx)
        board.sync_totals(civ, before)


def workers(civ: Civ, **counts: int) -> None:
    """Set the workers on building cards (by card id)."""
    for cid, n in counts.items():
        civ.workers[CARDS[BY_ID[cid]].slot] = n


def cubes(civ: Civ, **counts: int) -> None:
    """Set the blue cubes on farm/mine cards (by card id); the bank keeps the rest of the
    civilization's cubes (16 unless cards in play added some)."""
    for cid, n in counts.items():
        c = CARDS[BY_ID[cid]]
        civ.cubes[c.kind * 4 + c.age] = n
    civ.blue = civ.blue_total - sum(civ.cubes)


def politics_phase(players: int = 3, seed: int = 2, *, round_: int = 3, age: int = 1) -> TTAState:
    """Seat 0 at the start of its Politics Phase (TTA-6) of a full game, no military cards held."""
    s = action_phase(players, seed, mode="full")
    s.round = round_
    s.age = age
    s.phase = PH_POLITICS
    s.actor = -1
    for civ in s.civs:
        civ.mhand = []
    s._legal = None
    return s
