"""The Deus terminal renderer (``civtable cards/play/replay deus``) draws from views only."""

from __future__ import annotations

import io

from rich.console import Console

from civtable.cli import TERMINALS
from civtable.core.rng import Rng
from civtable.games.deus import terminal
from civtable.games.deus.catalog import card_by_id

from .test_properties import new_game


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=160, color_system=None), buf


def test_deus_terminal_is_registered_and_renders_a_game() -> None:
    assert TERMINALS["deus"] == "civtable.games.deus.terminal"
    state = new_game(3, 2)
    rng = Rng(3)
    for _ in range(80):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    console, buf = _console()
    seat = state.to_move()[0]
    terminal.render_decision(console, state, seat, state.legal_actions(seat))
    out = buf.getvalue()
    assert "your options" in out
    assert "Round" in out
    assert "P1" not in out  # seats are "Player 1", never "P1" (issue 18)
    hidden = {card_by_id(c).label for s in range(3) if s != seat for c in state.view(s)["hand"]}
    mine = {card_by_id(c).label for c in state.view(seat)["hand"]}
    for label in hidden - mine:
        assert label not in out  # cards of other hands are never printed
    terminal.render_result(console, state)
    assert "total" in buf.getvalue()


def test_deus_terminal_catalog() -> None:
    doc = terminal.catalog_json()
    assert len(doc["cards"]) == 72
    assert sum(c["copies"] for c in doc["cards"]) == 96
    assert len(doc["gods"]) == 6
    console, buf = _console()
    terminal.render_catalog(console)
    assert "Minerva" in buf.getvalue()
