"""Through the Ages in the terminal: card list, a seat's decision and the score.

Used by the ``civtable`` command line (``cards``, ``play``, ``replay``), modelled on
``games/seven_wonders/terminal.py``. Everything a seat is shown comes from
:meth:`~civtable.core.State.view` plus the static card tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from civtable import termkit
from civtable.core.api import JSON, State
from civtable.games.through_the_ages.catalog import (
    AGES,
    BY_ID,
    CARDS,
    PLAYER_TEXT,
    STATS,
    TAKE_COST,
    Card,
)
from civtable.games.through_the_ages.state import TTAState
from civtable.termkit import actions_table, breakdown_table

TYPE_STYLES = {
    "technology": "bright_white",
    "leader": "green",
    "wonder": "magenta",
    "action": "yellow",
    "event": "cyan",
    "territory": "cyan",
    "tactic": "red",
    "aggression": "red",
    "war": "red",
    "pact": "blue",
    "bonus": "red",
}


def _symbols(vec: tuple[int, ...]) -> str:
    return ", ".join(f"{'+' if v > 0 else ''}{v} {STATS[i]}" for i, v in enumerate(vec) if v)


def card_text(card: Card) -> str:
    """A one-line summary of a card's numbers and effect."""
    parts = []
    if card.science_cost:
        parts.append(f"science {card.science_cost}")
    if card.revolution_cost:
        parts.append(f"revolution {card.revolution_cost}")
    if card.build_cost:
        parts.append(f"build {card.build_cost}")
    if any(card.per_worker):
        parts.append(f"per worker: {_symbols(card.per_worker)}")
    if any(card.in_play):
        parts.append(f"in play: {_symbols(card.in_play)}")
    if card.urban_limit:
        parts.append(f"urban limit {card.urban_limit}")
    if card.stages:
        parts.append("stages " + "-".join(str(s) for s in card.stages))
    return "; ".join(parts)


def _effect_text(card: Card) -> str:
    return PLAYER_TEXT[card.idx]


def render_events(console: Console, events: Sequence[JSON], title: str = "what happened") -> None:
    """Print structured log events (:mod:`.logs`) in player words (:mod:`.words`); an event
    only one seat saw is marked with that seat."""
    from civtable import present
    from civtable.games.through_the_ages import words

    if not events:
        return
    ctx = present.Ctx(present.translator())
    lines = []
    for e in events:
        line = words.log_line(e, ctx) if "kind" in e else str(e.get("text", ""))
        if isinstance(e.get("seat"), int):
            line = f"({ctx.player(int(e['seat']))}) {line}"
        lines.append(Text(f"• {line}"))
    console.print(Panel(Group(*lines), title=Text(title), title_align="left"))


def _selected(age: int | None) -> list[Card]:
    return [c for c in CARDS if c.deck in ("civil", "board") and (age is None or c.age == age)]


def cards_table(age: int | None = None) -> Table:
    """Every civil card (and the board technologies), optionally of one age (0..3)."""
    table = Table(title="Through the Ages civil cards")
    for col in ("age", "card", "type", "numbers", "effect", "copies 2/3/4"):
        table.add_column(col)
    for c in _selected(age):
        kind = c.tech_type or c.type
        table.add_row(
            AGES[c.age],
            Text(c.name, style=TYPE_STYLES.get(c.type, "")),
            kind if c.subtype is None else f"{kind}/{c.subtype}",
            card_text(c),
            _effect_text(c),
            "/".join(str(n) for n in c.copies),
        )
    return table


def catalog_json(age: int | None = None) -> JSON:
    """The civil cards as JSON (``civtable cards through-the-ages --json``)."""
    return {
        "game": "through-the-ages",
        "cards": [
            {
                "id": c.id,
                "name": c.name,
                "age": AGES[c.age],
                "type": c.type,
                "tech_type": c.tech_type,
                "subtype": c.subtype,
                "summary": card_text(c),
                "effect": _effect_text(c),
                "copies": {"2": c.copies[0], "3": c.copies[1], "4": c.copies[2]},
            }
            for c in _selected(age)
        ],
    }


def render_catalog(console: Console, age: int | None = None) -> None:
    """Print the card table."""
    console.print(cards_table(age))


def header_text(view: JSON) -> str:
    """Round, age, whose turn (and who decides now, if another player answers)."""
    last = f", last round {view['last_round']}" if view["last_round"] >= 0 else ""
    text = f"Round {view['round']}, Age {view['age']}{last}: player {view['current'] + 1} to act"
    deciding = view.get("to_move") or []
    if deciding and deciding[0] != view["current"]:
        text += f" (player {deciding[0] + 1} answers)"
    return text


def politics_lines(state: TTAState) -> list[str]:
    """Public facts of the military part: event decks, past events, pacts, wars, colonies."""
    lines = [
        f"events: {len(state.events)} current, {len(state.future)} future"
        + (f"; past: {', '.join(CARDS[c].name for c in state.past[-4:])}" if state.past else "")
    ]
    p = state.pacts
    for i in range(0, len(p), 4):
        card, _owner, a, b = p[i : i + 4]
        lines.append(f"pact {CARDS[card].name}: A = P{a + 1}, B = P{b + 1}")
    w = state.wars
    for i in range(0, len(w), 3):
        lines.append(f"war {CARDS[w[i]].name}: P{w[i + 1] + 1} on P{w[i + 2] + 1}")
    for seat, civ in enumerate(state.civs):
        if civ.colonies:
            names = ", ".join(CARDS[c].name for c in civ.colonies)
            lines.append(f"P{seat + 1} colonies: {names}")
    if state.faceup:
        lines.append("face-up Age III events: " + ", ".join(CARDS[c].name for c in state.faceup))
    return lines


def row_table(view: JSON, cost_for: int | None = None) -> Table:
    """The card row with the printed taking costs (TTA-3.1)."""
    table = Table(title="card row", title_justify="left")
    table.add_column("slot", justify="right")
    table.add_column("cost", justify="right")
    table.add_column("card")
    table.add_column("numbers")
    for i, cid in enumerate(view["row"]):
        if cid is None:
            table.add_row(str(i + 1), str(TAKE_COST[i]), "-", "")
            continue
        c = CARDS[BY_ID[cid]]
        table.add_row(
            str(i + 1),
            str(TAKE_COST[i]),
            Text(f"{c.name} ({AGES[c.age]})", style=TYPE_STYLES.get(c.type, "")),
            card_text(c),
        )
    del cost_for
    return table


def civs_table(view: JSON) -> Table:
    """One column per civilization: ratings, banks, stocks and cards in play."""
    table = Table(title="civilizations")
    table.add_column("")
    civs = view["civs"]
    for doc in civs:
        table.add_column(f"P{doc['seat'] + 1}", justify="right")
    rows: list[tuple[str, Callable[[JSON], str]]] = [
        ("culture (+rate)", lambda d: f"{d['culture']} (+{d['culture_rate']})"),
        ("science (+rate)", lambda d: f"{d['science']} (+{d['science_rate']})"),
        ("strength", lambda d: str(d["strength"])),
        ("happiness / discontent", lambda d: f"{d['happiness']} / {d['discontent']}"),
        ("food / resources", lambda d: f"{d['food']} / {d['resources']}"),
        ("yellow bank / pool", lambda d: f"{d['yellow_bank']} / {d['worker_pool']}"),
        ("blue bank", lambda d: str(d["blue_bank"])),
        (
            "CA / MA",
            lambda d: (
                f"{d['civil_actions']}/{d['civil_actions_total']} "
                f"{d['military_actions']}/{d['military_actions_total']}"
            ),
        ),
        ("government", lambda d: CARDS[BY_ID[d["government"]]].name),
        ("leader", lambda d: CARDS[BY_ID[d["leader"]]].name if d["leader"] else "-"),
        ("wonders", lambda d: ", ".join(CARDS[BY_ID[w]].name for w in d["wonders"]) or "-"),
        ("unfinished wonder", lambda d: _wip(d)),
        ("special techs", lambda d: ", ".join(CARDS[BY_ID[w]].name for w in d["special"]) or "-"),
        ("hand", lambda d: ", ".join(CARDS[BY_ID[w]].name for w in d["hand"]) or "-"),
        ("military cards", lambda d: str(d["military_hand_size"])),
    ]
    for label, fn in rows:
        table.add_row(label, *[fn(d) for d in civs])
    return table


def _wip(doc: JSON) -> str:
    if not doc["unfinished_wonder"]:
        return "-"
    c = CARDS[BY_ID[doc["unfinished_wonder"]]]
    return f"{c.name} {doc['wonder_stages_built']}/{len(c.stages)}"


def buildings_table(view: JSON, seat: int) -> Table:
    """The seat's technologies in play with their workers."""
    doc = view["civs"][seat]
    table = Table(title="your buildings", title_justify="left")
    table.add_column("technology")
    table.add_column("workers", justify="right")
    table.add_column("numbers")
    for cid, n in doc["workers"].items():
        c = CARDS[BY_ID[cid]]
        table.add_row(f"{c.name} ({AGES[c.age]})", str(n), card_text(c))
    return table


def render_decision(
    console: Console, state: State, seat: int, actions: Sequence[int], full: bool = True
) -> None:
    """Show ``seat`` everything it needs to decide now (``full=False``: only the question)."""
    assert isinstance(state, TTAState)
    view = state.view(seat)
    if full:
        console.rule(Text(header_text(view)))
        console.print(row_table(view))
        console.print(civs_table(view))
        console.print(buildings_table(view, seat))
        mil = view.get("military_hand") or []
        if mil:
            console.print("military cards: " + ", ".join(CARDS[BY_ID[m]].name for m in mil))
        for line in politics_lines(state):
            console.print(line)
    console.print(actions_table(state, seat, actions))


def step_key(state: State) -> tuple[Any, ...]:
    """Changes whenever a new turn starts: the full view is shown again then."""
    assert isinstance(state, TTAState)
    return (state.round, state.current, state.decider(), state.pending[0], len(state.history))


def result_table(state: State) -> Table:
    """The score breakdown (TTA-13 / TTA-14): one row per category, one column per player."""
    return breakdown_table(state)


def winners_text(state: State) -> str:
    """``Winner: Player 2 (seat 1) with 65 culture`` or the co-winners (TTA-13.2, TTA-14)."""
    assert isinstance(state, TTAState)
    rule = "TTA-14" if state.options.get("mode") == "first" else "TTA-13.2"
    return termkit.winners_text(state, "culture", rule)


def render_result(console: Console, state: State) -> None:
    """Print the breakdown table and the winners."""
    console.print(result_table(state))
    console.print(Text(winners_text(state), style="bold"))


__all__ = [
    "actions_table",
    "buildings_table",
    "card_text",
    "cards_table",
    "catalog_json",
    "civs_table",
    "header_text",
    "politics_lines",
    "render_catalog",
    "render_decision",
    "render_events",
    "render_result",
    "result_table",
    "row_table",
    "step_key",
    "winners_text",
]
