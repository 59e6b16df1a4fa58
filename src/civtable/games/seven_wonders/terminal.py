"""7 Wonders in the terminal: rich renderables for the card list, a seat's decision and the score.

Used by the ``civtable`` command line (``cards``, ``play``, ``replay``). Everything a seat is shown
comes from :meth:`~civtable.core.State.view` (SW-3.9) plus the static card tables; the only
derived public fact read from the state itself is each city's production, which follows from its
public structures and board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from civtable import termkit
from civtable.core.api import JSON, State
from civtable.games.seven_wonders import words
from civtable.games.seven_wonders.catalog import (
    BOARDS,
    CARD_DOC,
    CARDS,
    COLORS,
    RESOURCES,
    SIDE_NAMES,
    WONDER_DOC,
    Card,
    card_by_id,
    describe_effect,
    format_cost,
)
from civtable.games.seven_wonders.state import City, SevenWondersState
from civtable.present.i18n import Translator
from civtable.termkit import actions_table, render_events

#: rich style per card colour (SW-0.4)
COLOR_STYLES = {
    "brown": "dark_orange3",
    "grey": "grey62",
    "blue": "bright_blue",
    "green": "green",
    "yellow": "yellow",
    "red": "red",
    "purple": "magenta",
}
AGE_NAMES = {1: "I", 2: "II", 3: "III"}
PLAYER_COUNTS = range(3, 8)


def _row(table: Table, *cells: str | Text) -> None:
    """Add a row; plain strings are shown literally (never parsed as rich markup)."""
    table.add_row(*(c if isinstance(c, Text) else Text(c) for c in cells))


def _tr() -> Translator:
    """The terminal reader's translator (content names in the reader's language)."""
    return termkit.ctx(None).tr


def _card_text(card: Card) -> Text:
    return Text(words.card_name(card.id, _tr()), style=COLOR_STYLES[COLORS[card.color]])


def _chains(card: Card) -> str:
    parts = []
    if card.chains_from:
        names = [words.card_name(CARDS[i].id, _tr()) for i in card.chains_from]
        parts.append(_tr().t("sw.term.free_with", cards=", ".join(names)))
    if card.chains_to:
        parts.append("→ " + ", ".join(words.card_name(CARDS[i].id, _tr()) for i in card.chains_to))
    return "; ".join(parts)


# --- the card list (civtable cards seven-wonders) ------------------------------------------------
def cards_table(age: int | None = None) -> Table:
    """Every card type (or one age's): age, colour, cost, effect, chains, copies per count."""
    title = "7 Wonders cards" + (f", Age {AGE_NAMES[age]}" if age else "")
    table = Table(title=title, show_lines=False)
    table.add_column("card")
    table.add_column("age", justify="center")
    table.add_column("colour")
    table.add_column("cost")
    table.add_column("effect")
    table.add_column("chains")
    for n in PLAYER_COUNTS:
        table.add_column(f"{n}p", justify="right")
    for card in CARDS:
        if age is not None and card.age != age:
            continue
        _row(
            table,
            _card_text(card),
            AGE_NAMES[card.age],
            COLORS[card.color],
            format_cost(card.cost, card.coin_cost),
            describe_effect(card.effect),
            _chains(card),
            *[str(card.copies[n]) for n in PLAYER_COUNTS],
        )
    table.caption = "np: copies in the deck for n players (guilds: n + 2 drawn at random, SW-2.3)"
    return table


def boards_table() -> Table:
    """The wonder boards with the cost and effect of every stage of both sides (SW-15.1)."""
    table = Table(title="7 Wonders boards", show_lines=True)
    table.add_column("board")
    table.add_column("produces")
    table.add_column("side")
    table.add_column("stages")
    for board in BOARDS:
        for side, stages in enumerate(board.sides):
            _row(
                table,
                f"{words.board_city(board.id, _tr())}\n{words.wonder_name(board.id, _tr())}"
                if side == 0
                else "",
                RESOURCES[board.start_resource] if side == 0 else "",
                SIDE_NAMES[side],
                "\n".join(
                    f"{s.number}. {format_cost(s.cost)}: {describe_effect(s.effect)}"
                    for s in stages
                ),
            )
    return table


def catalog_json(age: int | None = None) -> JSON:
    """The card list and the boards as JSON-ready data."""
    cards = [
        {
            "id": c.id,
            "name": c.name,
            "age": c.age,
            "color": COLORS[c.color],
            "cost": format_cost(c.cost, c.coin_cost),
            "effect": describe_effect(c.effect),
            "chains_from": [CARDS[i].id for i in c.chains_from],
            "chains_to": [CARDS[i].id for i in c.chains_to],
            "copies": {str(n): c.copies[n] for n in PLAYER_COUNTS},
        }
        for c in CARDS
        if age is None or c.age == age
    ]
    boards = [
        {
            "id": b.id,
            "name": b.name,
            "wonder": b.wonder,
            "produces": RESOURCES[b.start_resource],
            "sides": {
                SIDE_NAMES[k]: [
                    {
                        "stage": s.number,
                        "cost": format_cost(s.cost),
                        "effect": describe_effect(s.effect),
                    }
                    for s in stages
                ]
                for k, stages in enumerate(b.sides)
            },
        }
        for b in BOARDS
    ]
    return {"game": "seven-wonders", "age": age, "cards": cards, "boards": boards}


def render_catalog(console: Console, age: int | None = None) -> None:
    """Print the card list, then (without an age filter) the boards."""
    console.print(cards_table(age))
    if age is None:
        console.print(boards_table())


# --- a seat's decision --------------------------------------------------------------------------
def production_text(city: City) -> str:
    """What a city produces for itself: fixed units ("2 wood") then choices ("wood/clay")."""
    tr = _tr()
    parts = [tr.tn(f"sw.res_n.{RESOURCES[i]}", n) for i, n in enumerate(city.own_fixed) if n]
    parts += [
        "/".join(tr.t(f"sw.res.{RESOURCES[i]}") for i in range(7) if u >> i & 1)
        for u in city.own_choices
    ]
    return ", ".join(parts) or "-"


def header_text(view: JSON) -> str:
    """``Age II · turn 3/6 · hands pass right`` plus the special phase, if any."""
    tr = _tr()
    age = int(view["age"])
    direction = "right" if view["direction"] == "right" else "left"
    text = tr.t(f"sw.term.header.{direction}", age=AGE_NAMES.get(age, str(age)), turn=view["turn"])
    phase = view["phase"]
    if phase in ("babylon_extra_step", "halikarnassus", "over"):
        text += " · " + tr.t(f"sw.term.phase.{phase}")
    return text


def hand_table(view: JSON, title: str | None = None) -> Table:
    """The seat's hand with each card's colour, cost, effect and chains."""
    tr = _tr()
    table = Table(title=title or tr.t("sw.term.your_hand"), title_justify="left")
    for col in ("card", "cost", "effect", "chains"):
        table.add_column(tr.t(f"sw.term.col.{col}"))
    for cid in view.get("hand", []):
        card = card_by_id(cid)
        _row(
            table,
            _card_text(card),
            words.cost_text(_RAW_COSTS[cid], card.coin_cost, tr),
            words.effect_text(_RAW_CARDS[cid], tr),
            _chains(card),
        )
    return table


#: the data's effects, which the player texts are written from (words.effect_text)
_RAW_CARDS = {c["id"]: c["effect"] for c in CARD_DOC["cards"]}
_RAW_COSTS = {c["id"]: c["cost"]["resources"] for c in CARD_DOC["cards"]}
_RAW_STAGES = {
    (b["id"], side): [(st["effect"], st["cost"]) for st in b["sides"][side]["stages"]]
    for b in WONDER_DOC["boards"]
    for side in ("A", "B")
}


def _city_name(doc: JSON) -> str:
    """A city in the terminal: its player's name as given, or the Free City (SW-14)."""
    seat = doc.get("seat")
    return termkit.ctx(None).t("sw.free_city") if seat is None else termkit.name(int(seat))


def _structures(ids: Sequence[str]) -> Text:
    text = Text()
    for k, cid in enumerate(ids):
        if k:
            text.append(", ")
        text.append_text(_card_text(card_by_id(cid)))
    return text if ids else Text("-")


def cities_table(state: SevenWondersState, view: JSON) -> Table:
    """Every city's wonder, stages, coins, shields, military, science, production, structures."""
    me = view.get("city")
    tr = _tr()
    table = Table(title=tr.t("sw.term.cities"), title_justify="left", show_lines=True)
    for col in ("city", "wonder", "stages", "coins", "shields", "military", "science"):
        table.add_column(tr.t(f"sw.term.col.{col}"))
    table.add_column(tr.t("sw.term.col.production"))
    table.add_column(tr.t("sw.term.col.structures"))
    for doc in view["cities"]:
        c = int(doc["index"])
        name = tr.t("sw.term.you", name=_city_name(doc)) if c == me else _city_name(doc)
        if doc["committed"]:
            name += "\n" + tr.t("sw.term.chosen")
        sci_parts = [
            tr.t("sw.ui.science", n=v, symbol=tr.t(f"sw.science.{k}"))
            for k, v in doc["science"].items()
            if v
        ]
        if doc["science_wilds"]:
            sci_parts.append(tr.tn("sw.ui.wilds", int(doc["science_wilds"])))
        sci = ", ".join(sci_parts)
        _row(
            table,
            name,
            f"{words.wonder_name(doc['board'], _tr())} ({doc['side']})",
            f"{doc['stages_built']}/{doc['stages_total']}",
            str(doc["coins"]),
            str(doc["shields"]),
            f"{doc['military_points']:+d}" if doc["tokens"] else "0",
            sci or "-",
            production_text(state.cities[c]),
            _structures(doc["structures"]),
        )
    return table


def own_city_panel(state: SevenWondersState, view: JSON) -> Panel:
    """The seat's own board: every stage with its cost and effect, built ones ticked."""
    c = int(view["city"])
    city = state.cities[c]
    board = BOARDS[city.board]
    lines = []
    raw = _RAW_STAGES[(board.id, SIDE_NAMES[city.side])]
    tr = _tr()
    for s in city.board_stages:
        mark = "✓" if s.number <= city.stages else " "
        effect, cost = raw[s.number - 1]
        lines.append(
            tr.t(
                "sw.term.stage_line",
                mark=mark,
                stage=s.number,
                cost=words.cost_text(cost["resources"], int(cost.get("coins", 0)), tr),
                effect=words.effect_text(effect, tr),
            )
        )
    doc = view["cities"][c]
    tokens = " ".join(f"{t:+d}" for t in doc["tokens"]) or tr.t("sw.term.none")
    lines.append(tr.t("sw.term.status", coins=doc["coins"], shields=doc["shields"], tokens=tokens))
    lines.append(tr.t("sw.term.production", what=production_text(city)))
    if doc["free_build_available"]:
        lines.append(tr.t("sw.term.olympia"))
    title = tr.t(
        "sw.term.your_city", wonder=words.wonder_name(board.id, tr), side=SIDE_NAMES[city.side]
    )
    return Panel(Text("\n".join(lines)), title=Text(title), title_align="left")


def _pending_text(view: JSON) -> str | None:
    tr = _tr()
    for c, doc in view.get("commitments", {}).items():
        if "choosing_payment" in doc:
            what = (
                tr.t("sw.term.a_stage")
                if doc["action"] == "stage"
                else words.card_name(doc["card"], tr)
            )
            free_city = int(c) == 0 and view["players"] == 2
            return tr.t("sw.term.pay_for_free_city" if free_city else "sw.term.pay_for", what=what)
    return None


def render_decision(
    console: Console, state: State, seat: int, actions: Sequence[int], full: bool = True
) -> None:
    """Show ``seat`` everything it needs to decide now (``full=False``: only the question)."""
    assert isinstance(state, SevenWondersState)
    view = state.view(seat)
    if full:
        console.rule(Text(header_text(view)))
        console.print(cities_table(state, view))
        console.print(own_city_panel(state, view))
        if view.get("discard_pile"):
            pile = [card_by_id(cid) for cid in view["discard_pile"]]
            label = Text(_tr().t("sw.term.discard_pile") + ": ")
            console.print(label.append_text(_structures([c.id for c in pile])))
        console.print(hand_table(view))
    deciding = view.get("deciding_for")
    if state.two_player and deciding == 0:
        console.print(Text(_tr().t("sw.term.free_city_turn"), style="bold"))  # SW-14.4
    pending = _pending_text(view)
    if pending:
        console.print(Text(pending, style="bold"))
    console.print(actions_table(state, seat, actions))


def step_key(state: State) -> tuple[Any, ...]:
    """Changes whenever a new step starts: the full view is shown again then."""
    assert isinstance(state, SevenWondersState)
    return (state.age, state.turn, state.phase)


# --- the score ----------------------------------------------------------------------------------
def result_table(state: State) -> Table:
    """The score breakdown (SW-12.1): one row per category, one column per player.

    Below the categories: the total, the coins (the tie-breaker, SW-13.2) and the place. In the
    2-player variant the Free City gets a column too but no place (SW-14).
    """
    result = state.result()
    tr = _tr()
    view = state.view(None)
    names = {doc["seat"]: _city_name(doc) for doc in view["cities"] if doc["seat"] is not None}
    columns: list[tuple[str, dict[str, Any], str, str]] = [
        (
            names[s],
            {**result.breakdown[s], "total": result.scores[s]},
            str(result.tiebreak[s]) if result.tiebreak else "",
            str(result.ranking[s] + 1),
        )
        for s in range(state.players)
    ]
    free_city = result.extra.get("free_city")
    if isinstance(free_city, dict):
        fc_coins = str(view["cities"][0]["coins"])
        fc_points = {**free_city["breakdown"], "total": free_city["score"]}
        columns.append((tr.t("sw.free_city"), fc_points, fc_coins, "-"))
    table = Table(title=tr.t("sw.term.final_score" if state.is_terminal() else "sw.term.so_far"))
    table.add_column(tr.t("sw.term.col.category"))
    for name, _, _, _ in columns:
        table.add_column(name, justify="right")
    for cat in result.categories:
        label = tr.t(f"sw.score.{cat}") if tr.has(f"sw.score.{cat}") else cat
        _row(table, label, *[str(points[cat]) for _, points, _, _ in columns])
    table.add_section()
    total = [Text(str(points["total"]), style="bold") for _, points, _, _ in columns]
    _row(table, Text(tr.t("sw.term.total"), style="bold"), *total)
    _row(table, tr.t("sw.term.col.coins"), *[coins for _, _, coins, _ in columns])
    _row(table, tr.t("sw.term.place"), *[place for _, _, _, place in columns])
    return table


def winners_text(state: State) -> str:
    """``Winner: Player 2 (seat 1)`` or the co-winners (SW-13)."""
    return termkit.winners_text(state, "points", "SW-13.3")


def render_result(console: Console, state: State) -> None:
    """Print the breakdown table and the winners."""
    console.print(result_table(state))
    console.print(Text(winners_text(state), style="bold"))


__all__ = [
    "boards_table",
    "cards_table",
    "catalog_json",
    "cities_table",
    "hand_table",
    "header_text",
    "production_text",
    "render_catalog",
    "render_decision",
    "render_events",
    "render_result",
    "result_table",
    "step_key",
    "winners_text",
]
