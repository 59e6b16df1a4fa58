"""Playing Civilization: A New Dawn in a real browser through its table view (web/static/js/civ.js).

One person plays a whole 2-player game against a bot by clicking focus cards in their row, spaces
highlighted on the map and the decision buttons, until the score table appears. The clicks follow
the heuristic bot's choices (a finite, sensible game), and each must be an element of the page.
Every payload the page received is the seat's own view of the position at that sequence number.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.tables import (
    Planner,
    check_payloads_are_views,
    create_game,
    open_table,
    play_by_planner,
)
from tests.browser.test_play import _shot
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow


def test_civ_whole_game_in_the_table_view(browser: Any, server: ServerProcess) -> None:
    gid, token = create_game(server, "civilization-a-new-dawn", 2, 4, ["heuristic"])
    errors: list[str] = []
    page, wire = open_table(browser, server, gid, token, errors)
    page.locator("svg.hexmap").wait_for()
    assert page.locator("svg.hexmap g.cell").count() > 60  # the map built from the tiles
    assert page.locator("article.civ-player").count() == 2
    assert page.locator("article.civ-player.you .civ-focus").count() == 5  # the focus row
    # what each card would do now: its slot's strength and that slot's effect (CIV-6)
    assert page.locator("article.civ-player.you [data-testid=focus-now]").count() == 5
    assert page.locator("article.civ-player.you .ftext").count() == 5
    assert page.locator("[data-testid=victory-card]").count() >= 1  # with each player's marks
    _shot(page, "civ-table.png")
    clicks, on_map = play_by_planner(page, wire, Planner(server, gid), 2500)
    assert on_map >= 1
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == 2
    _shot(page, "civ-scores.png", full=True)
    page.context.close()
    assert not errors, errors
    assert check_payloads_are_views(server, gid, wire) >= clicks // 2
