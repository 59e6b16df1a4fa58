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
    LEVELS,
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
def cards_table() -> Table:
    """The 20 focus cards with their effect text."""
    table = Table(title="focus cards", show_lines=False)
    for col in ("card", "type", "level", "text"):
        table.add_column(col)
    for c in FOCUS_CARDS:
        text = c.text + (" [unverified]" if c.flag else "")
        _row(table, c.name, TYPES[c.type], LEVELS[c.level - 1], text)
    return table


def wonders_table() -> Table:
    """The 24 world wonders."""
    table = Table(title="world wonders")
    for col in ("wonder", "type", "era", "cost", "resources", "effect"):
        table.add_column(col)
    for w in WONDERS:
        _row(
            table,
            w.name,
            WONDER_TYPES[w.type],
            ("ancient", "medieval", "modern")[w.era],
            str(w.cost),
            "/".join(RESOURCES[r] for r in w.resources),
            w.text + (f" [{w.flag}]" if w.flag else ""),
        )
    return table


def leaders_table() -> Table:
    """The 8 leaders with abilities and start rows."""
    table = Table(title="leaders")
    for col in ("civilization", "leader", "ability", "start row"):
        table.add_column(col)
    for ld in LEADERS:
        row = ", ".join(FOCUS_CARDS[c].name for c in ld.start_row)
        _row(table, ld.civilization, ld.leader, f"{ld.ability_name}: {ld.ability_text}", row)
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
    """Print the focus cards, wonders and leaders."""
    console.print(cards_table())
    console.print(wonders_table())
    console.print(leaders_table())


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
    names = words.content(ctx.tr.lang)
    table = Table(title="players", show_lines=True)
    for col in ("player", "leader", "focus row (slot 1→5, trade tokens)", "tech dial", "holdings"):
        table.add_column(col)
    for p in view["player_state"]:
        row = " | ".join(
            names.cards.get(cid, cid) + (f" +{t}" if t else "")
            for cid, t in zip(p["row"], p["trade"], strict=True)
        )
        res = ", ".join(f"{v} {ctx.t(f'civ.resource.{k}')}" for k, v in p["resources"].items() if v)
        wonders = ", ".join(names.wonders.get(w, w) for w in p["wonders"]) or "none"
        marks = ", ".join(" / ".join(names.agendas.get(m, (m,))) for m in p["marks"]) or "none"
        hold = (
            f"{p['control_tokens']} control tokens · {p['cities_left']} cities to build · "
            f"{res or 'no resources'}\nwonders: {wonders}\nvictory marks: {marks}"
        )
        leader = (
            f"{names.leaders.get(p['leader'], '')} of {names.civilizations.get(p['leader'], '')}"
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
        console.rule(Text(f"Round {view['first_player_turn']} · event dial: {said['event']}"))
        console.print(
            Panel(
                map_text(view),
                title="map: R B G O cities, r b g o tokens, * reinforced",
                subtitle="g grass h hills f forest d desert m mountains ~ water "
                "N natural wonder $ city-state X barbarian",
            )
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
    """Marks, wonders and friendly spaces per seat."""
    res = state.result()
    table = Table(title="result")
    for col in ("seat", "victory cards marked", "wonders × 1000 + spaces", "place"):
        table.add_column(col)
    for s in range(len(res.scores)):
        _row(table, str(s), str(res.scores[s]), str(res.tiebreak[s]), str(res.ranking[s] + 1))
    return table


def winners_text(state: State) -> str:
    """Who won (or that the game was stopped by the turn cap)."""
    res = state.result()
    if res.extra.get("unfinished"):
        return "unfinished (turn cap reached; ranked by marks, wonders, spaces)"
    return "winner(s): " + ", ".join(f"seat {w}" for w in res.winners)


def render_result(console: Console, state: State) -> None:
    """Print the result table and the winners."""
    console.print(result_table(state))
    console.print(Text(winners_text(state), style="bold"))
