"""Through the Ages in the terminal: card list, a seat's decision and the score.

Used by the ``civtable`` command line (``cards``, ``play``, ``replay``), modelled on
``games/seven_wonders/terminal.py``. Everything a seat is shown comes from
:meth:`~civtable.core.State.view` plus the static card tables, in the reader's language
(:func:`civtable.termkit.set_reader`): labels from the ``tta.term.*`` messages, card names and
texts from the content data (:mod:`.words`).
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
from civtable.games.through_the_ages import words
from civtable.games.through_the_ages.catalog import (
    AGES,
    BY_ID,
    CARDS,
    STATS,
    TAKE_COST,
    Card,
)
from civtable.games.through_the_ages.state import TTAState
from civtable.present import Translator
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


def _tr() -> Translator:
    """The translator of the terminal's reader."""
    return termkit.ctx(None).tr


def _name(cid: str | int) -> str:
    """A card's name (by id or index) in the reader's language."""
    card = CARDS[cid] if isinstance(cid, int) else CARDS[BY_ID[cid]]
    return words.name_of(_tr(), card)


def _names(cids: Sequence[str | int]) -> str:
    return ", ".join(_name(c) for c in cids)


def _symbols(vec: tuple[int, ...]) -> str:
    tr = _tr()
    return ", ".join(
        f"{'+' if v > 0 else ''}{v} {tr.t(f'tta.term.stat.{STATS[i]}')}"
        for i, v in enumerate(vec)
        if v
    )


def card_text(card: Card) -> str:
    """A one-line summary of a card's numbers, in the reader's language."""
    tr = _tr()
    parts = []
    if card.science_cost:
        parts.append(tr.t("tta.term.science_cost", n=card.science_cost))
    if card.revolution_cost:
        parts.append(tr.t("tta.term.revolution_cost", n=card.revolution_cost))
    if card.build_cost:
        parts.append(tr.t("tta.term.build_cost", n=card.build_cost))
    if any(card.per_worker):
        parts.append(tr.t("tta.term.per_worker", stats=_symbols(card.per_worker)))
    if any(card.in_play):
        parts.append(tr.t("tta.term.in_play", stats=_symbols(card.in_play)))
    if card.urban_limit:
        parts.append(tr.t("tta.term.urban_limit", n=card.urban_limit))
    if card.stages:
        parts.append(tr.t("tta.term.stages", stages="-".join(str(s) for s in card.stages)))
    return "; ".join(parts)


def _effect_text(card: Card) -> str:
    return words.text_of(_tr(), card)


def render_events(console: Console, events: Sequence[JSON], title: str = "what happened") -> None:
    """Print structured log events (:mod:`.logs`) in player words (:mod:`.words`); an event
    only one seat saw is marked with that seat."""
    if not events:
        return
    ctx = termkit.ctx(None)
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
    tr = _tr()
    table = Table(title=tr.t("tta.term.cards_title"))
    for col in ("age", "card", "type", "numbers", "effect", "copies"):
        table.add_column(tr.t(f"tta.term.col.{col}"))
    for c in _selected(age):
        table.add_row(
            AGES[c.age],
            Text(words.name_of(tr, c), style=TYPE_STYLES.get(c.type, "")),
            words.kind_text(tr, c),
            card_text(c),
            _effect_text(c),
            "/".join(str(n) for n in c.copies),
        )
    return table


def catalog_json(age: int | None = None) -> JSON:
    """The civil cards as JSON (``civtable cards through-the-ages --json``): ids and structure,
    names and texts in the reader's language."""
    return {
        "game": "through-the-ages",
        "cards": [
            {
                "id": c.id,
                "name": words.name_of(_tr(), c),
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
    tr = _tr()
    args = {"round": view["round"], "age": view["age"], "player": termkit.name(view["current"])}
    if view["last_round"] >= 0:
        text = tr.t("tta.term.header_last", last=view["last_round"], **args)
    else:
        text = tr.t("tta.term.header", **args)
    deciding = view.get("to_move") or []
    if deciding and deciding[0] != view["current"]:
        text += " (" + tr.t("tta.term.answers", player=termkit.name(deciding[0])) + ")"
    return text


def politics_lines(state: TTAState) -> list[str]:
    """Public facts of the military part: event decks, past events, pacts, wars, colonies."""
    tr = _tr()
    line = tr.t("tta.term.events", current=len(state.events), future=len(state.future))
    if state.past:
        line += "; " + tr.t("tta.term.past", cards=_names(state.past[-4:]))
    lines = [line]
    p = state.pacts
    for i in range(0, len(p), 4):
        card, _owner, a, b = p[i : i + 4]
        lines.append(tr.t("tta.term.pact", card=_name(card), a=termkit.name(a), b=termkit.name(b)))
    w = state.wars
    for i in range(0, len(w), 3):
        lines.append(
            tr.t(
                "tta.term.war",
                card=_name(w[i]),
                declarer=termkit.name(w[i + 1]),
                target=termkit.name(w[i + 2]),
            )
        )
    for seat, civ in enumerate(state.civs):
        if civ.colonies:
            lines.append(
                tr.t("tta.term.colonies", player=termkit.name(seat), cards=_names(civ.colonies))
            )
    if state.faceup:
        lines.append(tr.t("tta.term.faceup", cards=_names(state.faceup)))
    return lines


def row_table(view: JSON, cost_for: int | None = None) -> Table:
    """The card row with the printed taking costs (TTA-3.1)."""
    tr = _tr()
    table = Table(title=tr.t("tta.term.row"), title_justify="left")
    table.add_column(tr.t("tta.term.col.slot"), justify="right")
    table.add_column(tr.t("tta.term.col.cost"), justify="right")
    table.add_column(tr.t("tta.term.col.card"))
    table.add_column(tr.t("tta.term.col.numbers"))
    for i, cid in enumerate(view["row"]):
        if cid is None:
            table.add_row(str(i + 1), str(TAKE_COST[i]), "-", "")
            continue
        c = CARDS[BY_ID[cid]]
        table.add_row(
            str(i + 1),
            str(TAKE_COST[i]),
            Text(f"{words.name_of(tr, c)} ({AGES[c.age]})", style=TYPE_STYLES.get(c.type, "")),
            card_text(c),
        )
    del cost_for
    return table


def civs_table(view: JSON) -> Table:
    """One column per civilization: ratings, banks, stocks and cards in play."""
    tr = _tr()
    table = Table(title=tr.t("tta.term.civs"))
    table.add_column("")
    civs = view["civs"]
    for doc in civs:
        table.add_column(termkit.name(doc["seat"]), justify="right")
    rows: list[tuple[str, Callable[[JSON], str]]] = [
        ("culture", lambda d: f"{d['culture']} (+{d['culture_rate']})"),
        ("science", lambda d: f"{d['science']} (+{d['science_rate']})"),
        ("strength", lambda d: str(d["strength"])),
        ("happiness", lambda d: f"{d['happiness']} / {d['discontent']}"),
        ("food", lambda d: f"{d['food']} / {d['resources']}"),
        ("yellow", lambda d: f"{d['yellow_bank']} / {d['worker_pool']}"),
        ("blue", lambda d: str(d["blue_bank"])),
        (
            "actions",
            lambda d: (
                f"{d['civil_actions']}/{d['civil_actions_total']} "
                f"{d['military_actions']}/{d['military_actions_total']}"
            ),
        ),
        ("government", lambda d: _name(d["government"])),
        ("leader", lambda d: _name(d["leader"]) if d["leader"] else "-"),
        ("wonders", lambda d: _names(d["wonders"]) or "-"),
        ("unfinished_wonder", lambda d: _wip(d)),
        ("special", lambda d: _names(d["special"]) or "-"),
        ("hand", lambda d: _names(d["hand"]) or "-"),
        ("military", lambda d: str(d["military_hand_size"])),
    ]
    for label, fn in rows:
        table.add_row(tr.t(f"tta.term.civ.{label}"), *[fn(d) for d in civs])
    return table


def _wip(doc: JSON) -> str:
    if not doc["unfinished_wonder"]:
        return "-"
    c = CARDS[BY_ID[doc["unfinished_wonder"]]]
    return f"{words.name_of(_tr(), c)} {doc['wonder_stages_built']}/{len(c.stages)}"


def buildings_table(view: JSON, seat: int) -> Table:
    """The seat's technologies in play with their workers."""
    doc = view["civs"][seat]
    tr = _tr()
    table = Table(title=tr.t("tta.term.buildings"), title_justify="left")
    table.add_column(tr.t("tta.term.col.technology"))
    table.add_column(tr.t("tta.term.col.workers"), justify="right")
    table.add_column(tr.t("tta.term.col.numbers"))
    for cid, n in doc["workers"].items():
        c = CARDS[BY_ID[cid]]
        table.add_row(f"{words.name_of(tr, c)} ({AGES[c.age]})", str(n), card_text(c))
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
            console.print(_tr().t("tta.term.military", cards=_names(mil)))
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
