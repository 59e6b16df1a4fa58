"""Armies, tactics and strength (TTA-10) and the tactic military actions (TTA-7.3.4-7.3.6).

Strength = units + armies' tactical strength + card symbols (TTA-10.1). Armies form
automatically to maximize the total tactical strength (TTA-10.4): only whether a unit is
outdated for the tactic matters (two or more ages older than the tactics card, TTA-10.5), so
the optimum is computed on counts: as many normal armies as the fresh units allow, then
outdated ones; air forces double the best armies, one per army (TTA-10.6); Genghis Khan's
infantry may fill cavalry slots (TTA-10.8: every split is tried).
"""

from __future__ import annotations

from civtable.games.through_the_ages.catalog import CARDS
from civtable.games.through_the_ages.rules import effects
from civtable.games.through_the_ages.state import Civ, TTAState, to_box

INF, CAV, ART, AIR = 7, 8, 9, 10
#: ``Civ.used`` bit of the once-per-turn tactic play or copy (re-exported by :mod:`.turn`)
USED_TACTIC = 16


def _armies(fresh: list[int], old: list[int], req: tuple[int, int, int]) -> tuple[int, int]:
    """(normal armies, outdated armies) from per-type fresh/outdated unit counts."""
    need = [i for i in range(3) if req[i]]
    if not need:
        return 0, 0
    normal = min(fresh[i] // req[i] for i in need)
    total = min((fresh[i] + old[i]) // req[i] for i in need)
    return normal, total - normal


_ARMY: dict[tuple[int, ...], int] = {}
_ARMY_MAX = 50_000  # memo entries kept (cleared beyond that)


def army_strength(civ: Civ) -> int:
    """Tactical strength of the current tactic's armies (0 without a tactic); memoized by the
    tactic, Genghis Khan's hook and the unit workers, the only inputs."""
    if civ.tactic < 0:
        return 0
    genghis = effects.has_hook(civ, "infantry_as_cavalry")
    key = (civ.tactic, genghis, *civ.workers[INF * 4 : AIR * 4 + 4])
    v = _ARMY.get(key)
    if v is None:
        if len(_ARMY) >= _ARMY_MAX:
            _ARMY.clear()
        v = _ARMY[key] = _army_strength(civ, genghis)
    return v


def _army_strength(civ: Civ, genghis: bool) -> int:
    return armies_of(civ.tactic, civ.workers, genghis)


def armies_of(tactic: int, workers: list[int], genghis: bool) -> int:
    """Tactical strength of the armies formable from ``workers`` (workers per building slot)
    under ``tactic`` (TTA-10.4-10.6, TTA-10.8); also the colonization force's armies among
    the units sent (TTA-11.4, TTA-AMB-33)."""
    card = CARDS[tactic]
    fresh = [0, 0, 0]
    old = [0, 0, 0]
    for i, kind in enumerate((INF, CAV, ART)):
        for a in range(4):
            n = workers[kind * 4 + a]
            if card.age - a >= 2:
                old[i] += n
            else:
                fresh[i] += n
    air = sum(workers[AIR * 4 + a] for a in range(4))
    splits = [(0, 0)]
    if genghis:
        splits = [(x, y) for x in range(fresh[0] + 1) for y in range(old[0] + 1)]
    best = 0
    for xf, xo in splits:
        f = [fresh[0] - xf, fresh[1] + xf, fresh[2]]
        o = [old[0] - xo, old[1] + xo, old[2]]
        normal, outdated = _armies(f, o, card.army)
        values = [card.tactic] * normal + [card.tactic_old] * outdated
        doubled = sum(values[: min(air, len(values))])  # air forces double the best armies
        best = max(best, sum(values) + doubled)
    return best


def can_play_tactic(civ: Civ, card: int) -> bool:
    """TTA-7.3.4: 1 MA, a tactics card from hand, one play-or-copy per turn."""
    return CARDS[card].type == "tactic" and not civ.used & USED_TACTIC and civ.ma + civ.temp_ma >= 1


def can_copy_tactic(state: TTAState, civ: Civ, card: int) -> bool:
    """TTA-7.3.5: 2 MA, a card of the common tactics area (even one's own earlier tactic)."""
    return (
        card in state.common
        and card != civ.tactic
        and not civ.used & USED_TACTIC
        and civ.ma + civ.temp_ma >= 2
    )


def _spend_ma(civ: Civ, n: int) -> None:
    t = min(civ.temp_ma, n)
    civ.temp_ma -= t
    civ.ma -= n - t


def play_tactic(state: TTAState, civ: Civ, card: int) -> None:
    """The card goes to the owner's play area with the banner on it (exclusive this round)."""
    _spend_ma(civ, 1)
    civ.mhand.remove(card)
    civ.tactic = card
    civ.tactic_own = 1
    civ.used |= USED_TACTIC


def copy_tactic(state: TTAState, civ: Civ, card: int) -> None:
    """Move the banner onto a card of the common tactics area."""
    _spend_ma(civ, 2)
    civ.tactic = card
    civ.tactic_own = 0
    civ.used |= USED_TACTIC


def release_tactic(state: TTAState, civ: Civ) -> None:
    """TTA-5.2 step 2 / TTA-10.3: one's exclusive tactic moves to the common area (an
    identical card already there is merged: the duplicate leaves the game)."""
    if civ.tactic_own:
        civ.tactic_own = 0
        if civ.tactic not in state.common:
            state.common.append(civ.tactic)
        else:
            to_box(state, (civ.tactic,))
