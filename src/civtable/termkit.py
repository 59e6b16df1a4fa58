"""Terminal pieces every game's ``terminal.py`` shares: the numbered options, the event list,
the score breakdown and the winners line. Games add their own boards and cards around them.

Labels and log lines are the player words of :mod:`civtable.present` (the game's ``words``
module) when the game has one, in the reader's language and with the players' names as the
command line was given them (:func:`set_reader`); a game without words falls back to the
developer's ``describe()`` labels and the events' own ``text``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from civtable import present
from civtable.core.api import JSON, State

#: the reader of the terminal: language and the players' names (set by the command line)
_reader: dict[str, object] = {"lang": present.SOURCE_LANGUAGE, "names": ()}


def set_reader(names: Sequence[str] = (), lang: str = present.SOURCE_LANGUAGE) -> None:
    """Who reads the terminal: the seats' names and the language of the words."""
    _reader["names"] = tuple(names)
    _reader["lang"] = present.check_language(lang)


def ctx(seat: int | None) -> present.Ctx:
    """The presentation context of the terminal's reader, viewing as ``seat``."""
    names = _reader["names"]
    assert isinstance(names, tuple)
    return present.Ctx(present.translator(str(_reader["lang"])), names, seat)


def tr() -> present.Translator:
    """The translator of the terminal's reader."""
    return present.translator(str(_reader["lang"]))


def name(seat: int) -> str:
    """A seat's name for the terminal (the name given, else "Player N")."""
    return ctx(None).player(seat)


def words(state: State, seat: int | None) -> JSON | None:
    """The player words of ``seat``'s view, or None when the game has no words module."""
    game_id = state.game.id
    if present.words_module(game_id) is None:
        return None
    return present.render(game_id, state.view(seat), ctx(seat))


def actions_table(state: State, seat: int, actions: Sequence[int]) -> Table:
    """The numbered legal actions with their labels (numbers start at 1)."""
    found = words(state, seat)
    labels: dict[str, str] = dict(found["legal"]) if found else {}
    table = Table(title=tr().t("term.options"), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column(tr().t("term.action"))
    for k, a in enumerate(actions, 1):
        table.add_row(str(k), labels.get(str(a)) or state.describe(seat, a))
    return table


def event_lines(state: State, seat: int | None, start: int) -> tuple[list[JSON], int]:
    """The log events from position ``start`` of the state's log that ``seat`` may see (None:
    every event, private ones marked), each with its player words as ``text``; and the log's
    length (the next ``start``)."""
    log: list[JSON] | None = getattr(state, "log", None)
    if not log:
        return [], 0
    out: list[JSON] = []
    texts: dict[int | None, list[str] | None] = {}

    def lines_of(viewer: int | None) -> list[str] | None:
        if viewer not in texts:
            found = words(state, viewer)
            texts[viewer] = list(found["log"]) if found and found.get("log") else None
        return texts[viewer]

    # the position of each event in the filtered log of each viewer (same order as the log)
    viewers: list[int | None] = [None, *range(state.players)]
    count = dict.fromkeys(viewers, 0)
    for i, e in enumerate(log):
        private = e.get("seat")
        at = {}
        for v in viewers:
            if private is None or private == v:
                at[v] = count[v]
                count[v] += 1
        if i < start or (private is not None and seat is not None and private != seat):
            continue
        viewer = private if private is not None else seat
        lines = lines_of(viewer)
        k = at[viewer]
        text = lines[k] if lines is not None and k < len(lines) else str(e.get("text", ""))
        if private is not None and seat is None:
            text = tr().t("term.private", n=private, text=text)
        out.append({**e, "text": text})
    return out, len(log)


def render_events(console: Console, events: Sequence[JSON], title: str | None = None) -> None:
    """Print log events (each with a readable ``text``) as a short list (titled "what happened"
    in the reader's language unless ``title`` is given)."""
    if not events:
        return
    title = tr().t("term.what_happened") if title is None else title
    body = Group(*(Text(f"• {e.get('text', e)}") for e in events))
    console.print(Panel(body, title=Text(title), title_align="left"))


def breakdown_table(state: State) -> Table:
    """The score breakdown: one row per category, one column per player, total and place."""
    result = state.result()
    t = tr()
    table = Table(title=t.t("term.final_score" if state.is_terminal() else "term.score_so_far"))
    table.add_column(t.t("term.category"))
    for s in range(state.players):
        table.add_column(name(s), justify="right")
    found = words(state, None) if state.is_terminal() else None
    labels: dict[str, str] = dict((found or {}).get("scores") or {})
    for cat in result.categories:
        table.add_row(
            labels.get(cat, cat), *[str(result.breakdown[s][cat]) for s in range(state.players)]
        )
    table.add_section()
    table.add_row(
        Text(t.t("term.total"), style="bold"),
        *[Text(str(result.scores[s]), style="bold") for s in range(state.players)],
    )
    table.add_row(t.t("term.place"), *[str(result.ranking[s] + 1) for s in range(state.players)])
    return table


def winners_text(state: State, unit: str = "points", shared_rule: str = "") -> str:
    """``Winner: Ann (seat 1) with 65 points``, or the co-winners (citing ``shared_rule``)."""
    result = state.result()
    t = tr()
    names = ", ".join(t.t("term.seat_of", name=name(s), n=s) for s in result.winners)
    if len(result.winners) == 1:
        score = result.scores[result.winners[0]]
        # "points" is the catalogue's counted word; a game's own unit is its caller's words
        points = t.tn("n.point", score) if unit == "points" else f"{score} {unit}"
        return t.t("term.winner", players=names, points=points)
    del shared_rule  # the rule is the developer's reference, not the player's
    return t.t("term.shared_victory", players=names)


__all__ = [
    "actions_table",
    "breakdown_table",
    "ctx",
    "event_lines",
    "name",
    "render_events",
    "set_reader",
    "tr",
    "winners_text",
    "words",
]
