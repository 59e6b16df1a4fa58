"""Terminal pieces every game's ``terminal.py`` shares: the numbered options, the event list,
the score breakdown and the winners line. Games add their own boards and cards around them."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from civtable.core.api import JSON, State


def actions_table(state: State, seat: int, actions: Sequence[int]) -> Table:
    """The numbered legal actions with their labels (numbers start at 1)."""
    table = Table(title="your options", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("action")
    for k, a in enumerate(actions, 1):
        table.add_row(str(k), state.describe(seat, a))
    return table


def render_events(console: Console, events: Sequence[JSON], title: str = "what happened") -> None:
    """Print log events (each with a readable ``text``) as a short list."""
    if not events:
        return
    body = Group(*(Text(f"• {e.get('text', e)}") for e in events))
    console.print(Panel(body, title=Text(title), title_align="left"))


def breakdown_table(state: State) -> Table:
    """The score breakdown: one row per category, one column per player, total and place."""
    result = state.result()
    table = Table(title="final score" if state.is_terminal() else "score so far")
    table.add_column("category")
    for s in range(state.players):
        table.add_column(f"Player {s + 1}", justify="right")
    for cat in result.categories:
        table.add_row(cat, *[str(result.breakdown[s][cat]) for s in range(state.players)])
    table.add_section()
    table.add_row(
        Text("total", style="bold"),
        *[Text(str(result.scores[s]), style="bold") for s in range(state.players)],
    )
    table.add_row("place", *[str(result.ranking[s] + 1) for s in range(state.players)])
    return table


def winners_text(state: State, unit: str = "points", shared_rule: str = "") -> str:
    """``Winner: Player 2 (seat 1) with 65 points``, or the co-winners (citing ``shared_rule``)."""
    result = state.result()
    names = ", ".join(f"Player {s + 1} (seat {s})" for s in result.winners)
    if len(result.winners) == 1:
        return f"Winner: {names} with {result.scores[result.winners[0]]} {unit}"
    return f"Shared victory{f' ({shared_rule})' if shared_rule else ''}: {names}"


__all__ = ["actions_table", "breakdown_table", "render_events", "winners_text"]
