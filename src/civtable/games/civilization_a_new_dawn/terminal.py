"""Civilization: A New Dawn in the terminal: card lists, a seat's decision and the result.

Used by the ``civtable`` command line (``cards``, ``play``, ``replay``), modelled on
``games/seven_wonders/terminal.py``. Everything shown comes from :meth:`State.view` plus the
static tables; the map is drawn as rows of hexes with one letter per terrain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from civtable import present, termkit
from civtable.core.api import JSON, State
from civtable.games.civilization_a_new_dawn import words
from civtable.games.civilization_a_new_dawn.catalog import (
    FOCUS_CARDS,
    LEADERS,
    PROVISIONAL,
    RESOURCES,
    TYPES,
    WONDER_TYPES,
    WONDERS,
)
from civtable.termkit import actions_table
from civtable.termkit import render_events as render_events  # log lines in player words

TERRAIN_LETTER = {
    "grassland": "g",
    "hills": "h",
    "forest": "f",
    "desert": "d",
    "mountains": "m",
    "water": "~",
    "natural_wonder": "N",
}
SEAT_MARK = "RBGO"


def _row(table: Table, *cells: str | Text) -> None:
    table.add_row(*(c if isinstance(c, Text) else Text(c) for c in cells))


# --- civtable cards -------------------------------------------------------------------------------
def cards_table(ctx: present.Ctx | None = None) -> Table:
    """Every focus card, world wonder, city-state, natural wonder and leader in the reader's
    words (:func:`.words.card_entries`)."""
    ctx = ctx or termkit.ctx(None)
    t = ctx.t
    table = Table(title=t("civ.term.catalog"), show_lines=False)
    for col in ("name", "kind", "text"):
        table.add_column(t(f"civ.term.col.{col}"))
    for e in words.card_entries(ctx.tr):
        _row(table, e["name"], e["kind"], e["text"])
    return table


def catalog_json(age: int | None = None) -> JSON:
    """Cards, wonders and leaders as JSON-ready data (``age`` is ignored)."""
    return {
        "game": "civilization-a-new-dawn",
        "focus_cards": [
            {"id": c.id, "name": c.name, "type": TYPES[c.type], "level": c.level, "text": c.text}
            for c in FOCUS_CARDS
        ],
        "wonders": [
            {
                "id": w.id,
                "name": w.name,
                "type": WONDER_TYPES[w.type],
                "cost": w.cost,
                "resources": [RESOURCES[r] for r in w.resources],
                "text": w.text,
            }
            for w in WONDERS
        ],
        "leaders": [
            {"id": ld.id, "leader": ld.leader, "ability": ld.ability_text} for ld in LEADERS
        ],
        "provisional": list(PROVISIONAL),
    }


def render_catalog(console: Console, age: int | None = None) -> None:
    """Print the focus cards, wonders, city-states, natural wonders and leaders (``age`` is not
    used: Civilization has no ages)."""
    console.print(cards_table())


# --- a seat's decision --------------------------------------------------------------------------
def map_text(view: JSON) -> Text:
    """The map as offset rows: terrain letter, or the owner's letter (upper = city)."""
    spaces = view["map"]["spaces"]
    board = view["board"]
    barbs = {int(v) for v in board["barbarians"].values() if int(v) >= 0}
    cells: dict[tuple[int, int], str] = {}
    for sp in spaces:
        i = int(sp["i"])
        ch = TERRAIN_LETTER[sp["terrain"]]
        if sp.get("city_state") and str(i) in board["city_states"]:
            ch = "$"
        if board["control"][i] >= 0:
            ch = SEAT_MARK[board["control"][i]].lower()
            if board["reinforced"][i]:
                ch = "*"
        if board["city"][i] >= 0:
            ch = SEAT_MARK[board["city"][i]]
        if i in barbs:
            ch = "X"
        cells[(int(sp["q"]), int(sp["r"]))] = ch
    rows = sorted({r for _, r in cells})
    qs = [q for q, _ in cells]
    lines = []
    for r in rows:
        line = " " * (r - rows[0])
        for q in range(min(qs), max(qs) + 1):
            line += (cells.get((q, r)) or " ") + " "
        lines.append(line.rstrip())
    return Text("\n".join(lines))


def players_table(view: JSON, ctx: present.Ctx | None = None) -> Table:
    """Each player's row, tokens, dial and holdings, in player words."""
    ctx = ctx or present.Ctx(viewer=view.get("seat"))
    t, tn = ctx.t, ctx.tn
    names = words.content(ctx.tr.lang)
    table = Table(title=t("civ.term.players"), show_lines=True)
    for col in ("player", "leader", "row", "dial", "holdings"):
        table.add_column(t(f"civ.term.col.{col}"))
    none = t("civ.term.none")
    for p in view["player_state"]:
        row = " | ".join(
            names.cards.get(cid, cid) + (f" +{n}" if n else "")
            for cid, n in zip(p["row"], p["trade"], strict=True)
        )
        res = ", ".join(
            ctx.t("civ.ui.count_of", n=v, what=ctx.t(f"civ.resource.{k}"))
            for k, v in p["resources"].items()
            if v
        )
        wonders = ", ".join(names.wonders.get(w, w) for w in p["wonders"]) or none
        marks = ", ".join(" / ".join(names.agendas.get(m, (m,))) for m in p["marks"]) or none
        hold = t(
            "civ.term.holdings",
            tokens=tn("civ.ui.tokens", int(p["control_tokens"])),
            cities=tn("civ.ui.cities_left", int(p["cities_left"])),
            resources=res or t("civ.term.no_resources"),
            wonders=wonders,
            marks=marks,
        )
        leader = t(
            "civ.ui.leader_title",
            leader=names.leaders.get(p["leader"], ""),
            civ=names.civilizations.get(p["leader"], ""),
        )
        _row(table, ctx.player(int(p["seat"])), leader, row, str(p["dial"]), hold)
    return table


def render_decision(
    console: Console, state: State, seat: int, actions: Sequence[int], full: bool = True
) -> None:
    """Show ``seat`` the map, the players and the current question, in player words."""
    view = state.view(seat)
    ctx = termkit.ctx(seat)
    said = words.render(view, ctx)
    if full:
        round_ = ctx.t("civ.ui.round", n=view["first_player_turn"])
        console.rule(Text(round_ + " · " + ctx.t("civ.ui.event", event=said["event"])))
        console.print(
            Panel(map_text(view), title=ctx.t("civ.term.map"), subtitle=ctx.t("civ.term.map_key"))
        )
        console.print(players_table(view, ctx))
    console.print(Text(str(said["prompt"]), style="bold"))
    if said.get("hint"):
        console.print(Text(str(said["hint"])))
    console.print(actions_table(state, seat, actions))


def step_key(state: State) -> tuple[Any, ...]:
    """Changes when a new turn starts."""
    view = state.view(None, labels=False)
    return (view["current"], view["first_player_turn"])


def result_table(state: State) -> Table:
    """Marks, wonders and friendly spaces per seat, in the reader's words."""
    ctx = termkit.ctx(None)
    t = ctx.t
    res = state.result()
    table = Table(title=t("civ.term.result"))
    for col in ("player", "marks", "tiebreak", "place"):
        table.add_column(t(f"civ.term.col.{col}"))
    for s in range(len(res.scores)):
        wonders, spaces = divmod(int(res.tiebreak[s]), 1000)
        _row(
            table,
            ctx.player(s),
            str(res.scores[s]),
            t("civ.term.tiebreak", wonders=wonders, spaces=spaces),
            str(res.ranking[s] + 1),
        )
    return table


def winners_text(state: State) -> str:
    """Who won (or that the game was stopped by the turn cap), in the reader's words."""
    ctx = termkit.ctx(None)
    res = state.result()
    if res.extra.get("unfinished"):
        return ctx.t("civ.prompt.unfinished")
    key = "ui.winners" if len(res.winners) > 1 else "ui.winner"
    return ctx.t(key, players=ctx.join([ctx.player(w) for w in res.winners]))


def render_result(console: Console, state: State) -> None:
    """Print the result table and the winners."""
    console.print(result_table(state))
    console.print(Text(winners_text(state), style="bold"))
