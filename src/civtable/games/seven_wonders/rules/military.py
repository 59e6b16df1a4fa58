"""Military conflicts at the end of each age (SW-11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from civtable.games.seven_wonders.state import SevenWondersState

# SW-11.3: victory token value per age; a defeat is always -1.
VICTORY_POINTS = {1: 1, 2: 3, 3: 5}


def resolve_conflicts(state: SevenWondersState) -> None:
    """SW-11.1: every pair of neighbouring cities ``(i, LEFT(i))`` fights once.

    With the event log on, each conflict is logged (``battle``: the two cities, their shields
    and the victory token's value, 0 on a tie) and then every city's military points so far
    (``military``), so the log says who won what."""
    win = VICTORY_POINTS[state.age]
    cities = state.cities
    log = state.log
    for i in range(state.n):
        j = (i + 1) % state.n
        a, b = cities[i], cities[j]
        if log is not None:
            log.append(
                {
                    "age": state.age,
                    "turn": state.turn,
                    "kind": "battle",
                    "city": i,
                    "other": j,
                    "shields": a.shields,
                    "other_shields": b.shields,
                    "points": 0 if a.shields == b.shields else win,
                }
            )
        if a.shields == b.shields:  # SW-11.3: no token on a tie
            continue
        winner, loser = (a, b) if a.shields > b.shields else (b, a)
        winner.tokens.append(win)
        loser.tokens.append(-1)
        loser.defeats += 1
    if log is not None:
        log.append(
            {
                "age": state.age,
                "turn": state.turn,
                "kind": "military",
                "points": [sum(c.tokens) for c in cities],
            }
        )
