"""The structured game log of Through the Ages (issue 18): what happened, for the story a table
tells, as ``{"kind": ..., args}`` entries with card ids, seats and numbers (never English).

The rules call these helpers only when ``state.log`` is a list (a game shown at a table or
replayed), so simulations pay nothing. Entries with a ``"seat"`` key are seen by that seat only.

Kinds written here (the rest are the moves of :mod:`.moves`, with ``player``):

``effects``      ``{card, cause, changes}``: what a revealed event, an aggression, a war, a
                 colony or the final scoring did — ``changes`` is one entry per civilization that
                 changed (see :func:`changes`)
``event``        ``{card}``: an event revealed from the current events deck (TTA-12.3)
``territory``    ``{card}``: a territory revealed; its colonization auction begins (TTA-11.2)
``production``   ``{player, culture, science, food, resources, consumption, corruption,
                 famine, drawn}``: the end of a turn (TTA-8.3 - 8.8): culture and science
                 gained, the food and resources held after production less consumption and
                 corruption (net change), what consumption and corruption asked, the culture
                 lost to famine, the military cards drawn
``uprising``     ``{player, drawn}``: no production this turn (TTA-8.2)
``aggression_result`` ``{card, attacker, target, attack, defense, success}`` (TTA-6.4)
``war_result``   ``{card, declarer, target, attack, defense, winner}`` (TTA-6.5; winner None
                 on a tie)
``auction_won``  ``{card, player, bid}`` / ``auction_void`` ``{card}`` (TTA-11.2)
``colony``       ``{card, player}`` (TTA-11.6)
``pact_made``    ``{card, a, b}`` / ``pact_ends`` ``{card, a, b}`` (TTA-6.6, TTA-6.7)
``war_cancelled`` ``{card, declarer, target}`` (a party resigned, TTA-6.8)
``second_political_action`` ``{player, card}``: Julius Caesar's second political action
``final_scoring`` ``{changes}``: the full game's final scoring events and the shorter game's
                 final scoring (TTA-13.2, TTA-15.1)
``age`` ``{age}``, ``round`` ``{round}``, ``game_over`` ``{}``
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from civtable.core.api import JSON
from civtable.games.through_the_ages.catalog import BY_ID as _BY_ID
from civtable.games.through_the_ages.catalog import CARDS, SLOT_CARD
from civtable.games.through_the_ages.state import Civ, TTAState


class Snap(NamedTuple):
    """The public facts of one civilization that events and attacks change."""

    culture: int
    science: int
    food: int
    resources: int
    population: int  # workers on cards and unused
    yellow: int
    blue: int
    civil_actions: int
    military_actions: int
    military_cards: int
    workers: tuple[int, ...]
    leader: int
    wonders: tuple[int, ...]
    wip: int
    colonies: tuple[int, ...]
    special: tuple[int, ...]


def snap_civ(civ: Civ) -> Snap:
    """One civilization's :class:`Snap`."""
    from civtable.games.through_the_ages.rules import board

    return Snap(
        civ.culture,
        civ.science,
        board.stock(civ, False),
        board.stock(civ, True),
        sum(civ.workers) + civ.pool,
        civ.yellow,
        civ.blue,
        civ.ca,
        civ.ma + civ.temp_ma,
        len(civ.mhand),
        tuple(civ.workers),
        civ.leader,
        tuple(civ.wonders),
        civ.wip,
        tuple(civ.colonies),
        tuple(c for c in civ.special if c >= 0),
    )


def snap(state: TTAState) -> list[Snap]:
    """Every civilization's :class:`Snap`."""
    return [snap_civ(c) for c in state.civs]


_NUMBERS = (
    "culture",
    "science",
    "food",
    "resources",
    "population",
    "yellow",
    "blue",
    "civil_actions",
    "military_actions",
    "military_cards",
)


def civ_changes(seat: int, a: Snap, b: Snap) -> JSON | None:
    """What changed on one civilization between two snaps, or None.

    Numbers are differences (``"culture": -3``); cards are lists of ids: ``buildings_lost`` /
    ``buildings_gained`` (one id per building), ``leader_lost`` / ``leader_gained``,
    ``wonders_lost``, ``wonder_abandoned`` (an unfinished wonder taken away),
    ``colonies_lost`` / ``colonies_gained``, ``techs_lost`` / ``techs_gained``.
    """
    out: JSON = {}
    for name in _NUMBERS:
        d = getattr(b, name) - getattr(a, name)
        if d:
            out[name] = d
    lost: list[str] = []
    gained: list[str] = []
    for slot, (x, y) in enumerate(zip(a.workers, b.workers, strict=True)):
        if x != y and SLOT_CARD[slot] >= 0:
            (lost if y < x else gained).extend([CARDS[SLOT_CARD[slot]].id] * abs(y - x))
    if lost:
        out["buildings_lost"] = lost
    if gained:
        out["buildings_gained"] = gained
    if a.leader != b.leader:
        if a.leader >= 0:
            out["leader_lost"] = [CARDS[a.leader].id]
        if b.leader >= 0:
            out["leader_gained"] = [CARDS[b.leader].id]
    if a.wip != b.wip and a.wip >= 0 and a.wip not in b.wonders:
        out["wonder_abandoned"] = [CARDS[a.wip].id]
    for name, before, after in (
        ("wonders", a.wonders, b.wonders),
        ("colonies", a.colonies, b.colonies),
        ("techs", a.special, b.special),
    ):
        gone = [CARDS[c].id for c in before if c not in after]
        new = [CARDS[c].id for c in after if c not in before]
        if gone:
            out[f"{name}_lost"] = gone
        if new and name != "wonders":
            out[f"{name}_gained"] = new
    if not out:
        return None
    out["player"] = seat
    return out


def changes(state: TTAState, before: list[Snap]) -> list[JSON]:
    """Every civilization's changes since ``before`` (:func:`civ_changes`), in seat order."""
    out = []
    for seat, (a, civ) in enumerate(zip(before, state.civs, strict=True)):
        c = civ_changes(seat, a, snap_civ(civ))
        if c is not None:
            out.append(c)
    return out


def effects(state: TTAState, before: list[Snap], card: int, cause: str) -> None:
    """Log what ``card`` did since ``before`` (nothing when nothing changed)."""
    if state.log is None:
        return
    done = changes(state, before)
    if done:
        state.log.append(
            {"kind": "effects", "card": CARDS[card].id, "cause": cause, "changes": done}
        )


def revealed(state: TTAState, event: int) -> list[Snap]:
    """Log an event or territory revealed (TTA-12.3); the snap to diff its effects against."""
    card = CARDS[event]
    if state.log is not None:
        kind = "territory" if card.type == "territory" else "event"
        state.log.append({"kind": kind, "card": card.id})
    return snap(state)


def production(
    state: TTAState, seat: int, before: Snap, produced: bool, rates: tuple[int, ...]
) -> JSON:
    """The end-of-turn entry of ``seat`` (TTA-8.2 - 8.8), from the snap taken before production
    and the ratings it was computed with; the caller adds ``drawn`` and appends it."""
    from civtable.games.through_the_ages.rules import board

    civ = state.civs[seat]
    after = snap_civ(civ)
    if not produced:
        return {"kind": "uprising", "player": seat}
    culture = after.culture - before.culture
    famine = max(0, rates[0] - culture)
    return {
        "kind": "production",
        "player": seat,
        "culture": rates[0],
        "science": after.science - before.science,
        "food": after.food - before.food,
        "resources": after.resources - before.resources,
        "consumption": board.consumption(civ.yellow),
        "corruption": board.corruption(before.blue),
        "famine": famine,
    }


def resolve_wars(state: TTAState, seat: int, resolve: Callable[[], None]) -> None:
    """Run ``resolve`` (the wars ``seat`` declared last turn, TTA-5.2 step 3) and log each war's
    strengths and winner, then what the wars did."""
    from civtable.games.through_the_ages.rules import politics

    if state.log is None:
        resolve()
        return
    results: list[JSON] = []
    for card, declarer, target in _groups(state.wars, 3):
        if declarer != seat:
            continue
        attack = politics.strength(state.civs[declarer]) + sum(
            CARDS[c].attack_bonus for c in politics.pacts_between(state, declarer, target)
        )
        defense = politics.strength(state.civs[target])
        winner = None if attack == defense else declarer if attack > defense else target
        results.append(
            {
                "kind": "war_result",
                "card": CARDS[card].id,
                "declarer": declarer,
                "target": target,
                "attack": attack,
                "defense": defense,
                "winner": winner,
            }
        )
    before = snap(state)
    resolve()
    state.log.extend(results)
    if results:
        effects(state, before, _BY_ID[str(results[-1]["card"])], "war")


def _groups(xs: list[int], n: int) -> list[tuple[int, ...]]:
    return [tuple(xs[i : i + n]) for i in range(0, len(xs), n)]


def pacts_and_wars(state: TTAState, pacts: list[int], wars: list[int], since: int) -> None:
    """Log pacts made or ended and wars withdrawn since ``pacts``/``wars`` (copies of
    ``state.pacts``/``state.wars`` taken before an action; ``since``: the log's length then)."""
    log = state.log
    if log is None:
        return
    old, new = _groups(pacts, 4), _groups(state.pacts, 4)
    for card, owner, a, b in old:
        if (card, owner, a, b) not in new:
            log.append({"kind": "pact_ends", "card": CARDS[card].id, "a": a, "b": b})
    for card, owner, a, b in new:
        if (card, owner, a, b) not in old:
            log.append({"kind": "pact_made", "card": CARDS[card].id, "a": a, "b": b})
    now = _groups(state.wars, 3)
    resolved = {
        (e["card"], e["declarer"], e["target"])
        for e in log[since:]
        if e.get("kind") == "war_result"
    }
    for card, declarer, target in _groups(wars, 3):
        if (card, declarer, target) in now or (CARDS[card].id, declarer, target) in resolved:
            continue
        log.append(
            {
                "kind": "war_cancelled",
                "card": CARDS[card].id,
                "declarer": declarer,
                "target": target,
            }
        )


def final_scoring(state: TTAState, before: list[Snap]) -> None:
    """Log the culture each civilization gained in the final scoring (TTA-13.2, TTA-15.1)."""
    if state.log is None:
        return
    done = changes(state, before)
    state.log.append({"kind": "final_scoring", "changes": done})
