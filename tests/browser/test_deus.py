"""Playing Deus in a real browser through its table view (web/static/js/deus.js).

One person plays a whole 3-player game against two bots by clicking cards in the hand, regions
highlighted on the map and the decision buttons, until the score table appears. The clicks follow
the heuristic bot's choices, and each must be an element of the page. Every payload the
page received is the seat's own view of the position at that sequence number (DEUS-20: the view
decides visibility, and tests/test_contract.py shows it does not change when hidden cards are
re-dealt).
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


def test_deus_whole_game_in_the_table_view(browser: Any, server: ServerProcess) -> None:
    gid, token = create_game(server, "deus", 3, 11, ["heuristic", "random"])
    errors: list[str] = []
    page, wire = open_table(browser, server, gid, token, errors)
    page.locator("svg.hexmap").wait_for()
    assert page.locator("svg.hexmap g.cell").count() == 6 * 7  # 6 tiles of 7 regions (DEUS-3.5)
    assert page.locator("[data-testid=hand-card]").count() == 5  # DEUS-4.6
    assert page.locator("article.deus-player").count() == 3
    _shot(page, "deus-table.png")
    clicks, placed = play_by_planner(page, wire, Planner(server, gid), 1500)
    assert placed >= 1  # legal regions were highlighted and clicked (DEUS-7.4)
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == 3
    _shot(page, "deus-scores.png", full=True)
    page.context.close()
    assert not errors, errors
    assert check_payloads_are_views(server, gid, wire) >= clicks // 2
