"""Deus in the terminal: rich renderables for the card list, a seat's decision and the score.

Used by the ``civtable`` command line (``cards``, ``play``, ``replay``). Everything a seat is shown
comes from :meth:`~civtable.core.State.view` (DEUS-20) plus the static tables of the catalog
(card texts, region coordinates of the board).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from civtable import present, termkit
from civtable.core.api import JSON, State
from civtable.games.deus import words
from civtable.games.deus.catalog import CARDS, COLORS, GODS, RESOURCES, Card, card_by_id
from civtable.games.deus.state import DeusState
from civtable.termkit import breakdown_table

#: rich style per card colour (DEUS-5.1)
COLOR_STYLES = {
    "brown": "dark_orange3",
    "yellow": "yellow",
    "blue": "bright_blue",
    "red": "red",
    "green": "green",
    "purple": "magenta",
}


def _row(table: Table, *cells: str | Text) -> None:
    """Add a row; plain strings are shown literally (never parsed as rich markup)."""
    table.add_row(*(c if isinstance(c, Text) else Text(c) for c in cells))


def format_cost(card: Card) -> str:
    """``1 wood and 1 wheat`` (gold part included, DEUS-7.3.4)."""
    return words.cost_text(card, _tr())


def _ctx(seat: int | None = None) -> present.Ctx:
    """Player words in the reader's language and names (:func:`civtable.termkit.set_reader`)."""
    return termkit.ctx(seat)


def _t(key: str, **args: Any) -> str:
    return _tr().t(key, **args)


def render_events(console: Console, events: Sequence[JSON], title: str = "") -> None:
    """Print log events in player words (regions by their number on the map)."""
    if not events:
        return
    ctx = _ctx()
    lines = [Text(f"• {words.log_line(None, e, ctx)}") for e in events]
    head = Text(title or _t("deus.term.events"))
    console.print(Panel(Group(*lines), title=head, title_align="left"))


def actions_table(state: State, seat: int, actions: Sequence[int]) -> Table:
    """The numbered legal actions with their player labels (numbers start at 1)."""
    view = state.view(seat)
    ctx = _ctx(seat)
    table = Table(title=_t("deus.term.options"), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column(_t("deus.term.col.action"))
    for k, a in enumerate(actions, 1):
        table.add_row(str(k), Text(words.label(view, a, ctx)))
    return table


def _tr() -> present.Translator:
    return termkit.ctx(None).tr


def _text(card: Card) -> str:
    """A card's full text in player words."""
    return words.effect_text(card, _tr())


def _card_text(card: Card) -> Text:
    return Text(words.card_name(card.id, _tr()), style=COLOR_STYLES[COLORS[card.color]])


def cards_table() -> Table:
    """Every card type: id, name, colour, copies, cost, effect."""
    table = Table(title=_t("deus.term.cards"))
    for col in ("id", "card", "copies", "cost", "effect"):
        table.add_column(_t(f"deus.term.col.{col}"))
    for c in CARDS:
        _row(table, c.id, _card_text(c), str(c.copies), format_cost(c), _text(c))
    return table


def gods_table() -> Table:
    """The six gods and their powers (DEUS-10)."""
    table = Table(title=_t("deus.term.gods"))
    for col in ("colour", "god", "power"):
        table.add_column(_t(f"deus.term.col.{col}"))
    tr = _tr()
    for g in GODS:
        style = COLOR_STYLES[COLORS[g.color]]
        _row(
            table,
            Text(words.color_name(g.color, tr), style=style),
            words.god_name(g.color, tr),
            words.god_text(g.color, tr),
        )
    return table


def catalog_json(age: int | None = None) -> JSON:
    """The card list and gods as JSON-ready data (``age`` is ignored: Deus has no ages)."""
    del age
    return {
        "game": "deus",
        "cards": [
            {
                "id": c.id,
                "key": c.key,
                "name": words.card_name(c.id, _tr()),
                "color": COLORS[c.color],
                "copies": c.copies,
                "cost": format_cost(c),
                "effect": _text(c),
                "rule": c.rule,
            }
            for c in CARDS
        ],
        "gods": [
            {
                "name": words.god_name(g.color, _tr()),
                "color": COLORS[g.color],
                "power": words.god_text(g.color, _tr()),
            }
            for g in GODS
        ],
    }


def render_catalog(console: Console, age: int | None = None) -> None:
    """Print the card list and the gods."""
    del age
    console.print(cards_table())
    console.print(gods_table())


# --- a seat's decision --------------------------------------------------------------------------
def header_text(view: JSON) -> str:
    """``Deus — Round 7 · the game ends after round 9 — Player 2 to move``."""
    ctx = _ctx()
    return ctx.t(
        "deus.term.header",
        round=words.round_line(view, ctx),
        player=ctx.player(int(view["current"])),
        temples=int(view["temples_left"]),
        deck=int(view["deck_size"]),
    )


def map_text(state: DeusState, view: JSON) -> Text:
    """The board as a hex picture: the region's number (as in the log and the choices), terrain
    letter, owner digit, pieces (villages show VP)."""
    b = state.board
    if not b.axial:
        return Text("")
    xs = {r: 2 * q + rr for r, (q, rr) in enumerate(b.axial)}
    rows: dict[int, list[int]] = {}
    for r, (_, rr) in enumerate(b.axial):
        rows.setdefault(rr, []).append(r)
    minx = min(xs.values())
    vil = {v["id"]: v for v in view["villages"]}
    out = Text()
    for rr in sorted(rows):
        line = Text()
        col = 0
        for r in sorted(rows[rr], key=lambda x: xs[x]):
            x = (xs[r] - minx) * 5
            line.append(" " * max(0, x - col))
            reg = view["regions"][r]
            letter = _t(f"deus.term.land.{reg['terrain']}")
            num = str(r + 1)
            if reg["terrain"] == "village":
                v = vil[reg["id"]]
                land = _t("deus.term.land.village")
                cell = f"{num}{land}{'x' if v['attacked'] else v['vp']}".ljust(10)
                line.append(cell, style="bold red")
            else:
                owner = "" if reg["owner"] is None else str(reg["owner"] + 1)
                pieces = "".join(_t(f"deus.term.piece.{p}") for p in reg["pieces"])
                cell = f"{num}{letter}{owner}{pieces}".ljust(10)
                line.append(cell, style="bold" if owner else "dim")
            col = x + 10
        out.append_text(line)
        out.append("\n")
    return out


def players_table(view: JSON) -> Table:
    """Every player's public stocks and tableau (VP only where visible)."""
    table = Table(title=_t("deus.ui.players"))
    tr = _tr()
    res_head = "/".join(words.res_name(r, tr) for r in range(len(RESOURCES)))
    for col in ("player", "gold", "vp", "res", "pieces", "hand", "tableau"):
        table.add_column(res_head if col == "res" else _t(f"deus.term.col.{col}"))
    for p in view["player_states"]:
        res = "/".join(str(p["resources"][r]) for r in RESOURCES)
        pieces = " ".join(f"{_t(f'deus.term.letter.{k}')}{v}" for k, v in p["board_pieces"].items())
        tableau = Text()
        for color, cards in p["columns"].items():
            if cards:
                short = words.color_name(COLORS.index(color), _tr())[:3]
                tableau.append(f"{short}:{len(cards)} ", style=COLOR_STYLES[color])
        vp = "?" if p["vp"] is None else str(p["vp"])
        _row(
            table,
            _ctx().player(int(p["seat"])),
            str(p["gold"]),
            vp,
            res,
            pieces,
            str(p["hand_size"]),
            tableau,
        )
    return table


def hand_table(view: JSON, title: str = "") -> Table:
    """The seat's hand with costs and effects."""
    table = Table(title=title or _t("deus.ui.your_hand"), title_justify="left")
    for col in ("card", "cost", "effect"):
        table.add_column(_t(f"deus.term.col.{col}"))
    for cid in view.get("hand", []):
        c = card_by_id(cid)
        _row(table, _card_text(c), format_cost(c), _text(c))
    return table


def render_decision(
    console: Console, state: State, seat: int, actions: Sequence[int], full: bool = True
) -> None:
    """Show ``seat`` everything it needs to decide now (``full=False``: only the question)."""
    assert isinstance(state, DeusState)
    view = state.view(seat)
    if full:
        console.rule(Text(header_text(view)))
        console.print(map_text(state, view))
        console.print(players_table(view))
        console.print(hand_table(view))
    prompt = words.prompt(view, _ctx(seat))
    console.print(Text(f"{prompt['text']} {prompt['hint']}".strip(), style="bold"))
    console.print(actions_table(state, seat, actions))


def step_key(state: State) -> tuple[Any, ...]:
    """Changes whenever a new turn starts: the full view is shown again then."""
    assert isinstance(state, DeusState)
    return (state.round, state.cur)


# --- the score ----------------------------------------------------------------------------------
def result_table(state: State) -> Table:
    """The score breakdown (DEUS-19): one row per category, one column per player."""
    return breakdown_table(state)


def winners_text(state: State) -> str:
    """``Winner: Player 2 (seat 1)`` or the co-winners (AMB-29)."""
    return termkit.winners_text(state, "points", "AMB-29")


def render_result(console: Console, state: State) -> None:
    """Print the breakdown table and the winners."""
    console.print(result_table(state))
    console.print(Text(winners_text(state), style="bold"))


__all__ = [
    "cards_table",
    "catalog_json",
    "gods_table",
    "hand_table",
    "header_text",
    "map_text",
    "players_table",
    "render_catalog",
    "render_decision",
    "render_events",
    "render_result",
    "result_table",
    "step_key",
    "winners_text",
]
