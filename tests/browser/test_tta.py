"""Playing Through the Ages in a real browser through its table view (web/static/js/tta.js).

One person plays a whole 3-player first game (TTA-14) against two bots by clicking the take
buttons on the card row, the build / upgrade / destroy buttons on the cards of their own board,
the play buttons in their hand and the remaining decision buttons, until the final breakdown
appears. Another plays a whole 4-player full game (TTA-13) against three bots, the heuristic
choosing each click: political actions on the military cards, defences, pact answers, bids and
the other decisions of the Politics Phase must all be on the page. Every payload the page
received is the seat's own view of the position at that sequence number (military hands and
decks stay hidden, TTA-3.3).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages.scoring import CATEGORIES
from civtable.games.through_the_ages.state import TTAState
from tests.browser.tables import CLICKABLE, check_payloads_are_views, create_game, open_table
from tests.browser.test_play import Wire, _shot
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow


def test_tta_14_whole_first_game_in_the_table_view(browser: Any, server: ServerProcess) -> None:
    gid, token = create_game(
        server, "through-the-ages", 3, 7, ["heuristic", "random"], {"mode": "first"}
    )
    errors: list[str] = []
    page, wire = open_table(browser, server, gid, token, errors)
    page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
    # TTA-3.1: the card row has 13 slots; TTA-2: every player starts with the board's
    # technologies (Agriculture, Bronze, Philosophy, Religion, Warriors, Despotism)
    assert page.locator(".tta-slots > .tta-slot").count() == 13
    assert page.locator("article.tta-player").count() == 3
    board = page.locator("article.tta-player.you")
    for card in ("agriculture", "bronze", "philosophy", "religion", "warriors", "despotism"):
        assert board.locator(f"[data-card={card}]").count() == 1, card
    # the decision is drawn on the cards: in round 1 only taking is possible (TTA-5.1), and the
    # take buttons sit on the row's cards
    takes = page.locator(".tta-slot button.act[data-action]")
    assert takes.count() >= 1
    assert page.locator("button.act[data-action]").count() == takes.count() + 1  # + end
    _shot(page, "tta-table.png", full=True)

    clicks, kinds = _play_to_the_end(page, wire, random.Random(5), 600)
    # clicks went to buttons on the row's cards, the board's cards and the hand, not only to
    # the decision panel
    assert kinds["row"] >= 3, kinds
    assert kinds["board"] + kinds["hand"] >= 1, kinds
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == 3
    # TTA-14.4: the breakdown lists every first-game category
    assert scores.locator("tbody tr").count() == len(CATEGORIES) + 2  # + total and place
    _shot(page, "tta-scores.png", full=True)
    page.context.close()
    assert not errors, errors
    assert clicks >= 20
    assert check_payloads_are_views(server, gid, wire) >= clicks // 2


def _play_to_the_end(
    page: Any, wire: Wire, rng: random.Random, max_clicks: int
) -> tuple[int, dict[str, int]]:
    """Click seeded random legal buttons until the game is over, saving a screenshot after 30
    clicks. Returns the clicks and where they were."""
    clicks = 0
    kinds = {"row": 0, "board": 0, "hand": 0, "panel": 0}
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            return clicks, kinds
        if clicks == 30:
            _shot(page, "tta-midgame.png", full=True)
        seq = page.locator("body").get_attribute("data-view")
        options = page.locator(CLICKABLE)
        # a payload pushed while the previous move was being sent is drawn with the buttons
        # disabled until the move's own answer re-enables them: wait for that
        options.first.wait_for(timeout=10000)
        button = options.nth(rng.randrange(options.count()))
        where = button.evaluate(
            "b => b.closest('.tta-slot') ? 'row' : b.closest('.tta-player') ? 'board'"
            " : b.closest('.tta-hand') ? 'hand' : 'panel'"
        )
        kinds[where] += 1
        button.click()
        page.locator(f"body:not([data-view='{seq}'])").wait_for()
        clicks += 1
        wire.flush()
        assert clicks < max_clicks, f"no end after {max_clicks} clicks"


def test_tta_13_whole_full_game_with_politics_in_the_table_view(
    browser: Any, server: ServerProcess
) -> None:
    from tests.browser.tables import Planner, play_by_planner

    gid, token = create_game(
        server, "through-the-ages", 4, 11, ["heuristic", "heuristic", "random"], {"mode": "full"}
    )
    errors: list[str] = []
    page, wire = open_table(browser, server, gid, token, errors)
    page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
    assert page.locator("[data-testid=politics]").count() == 1  # event decks, pacts, wars
    planner = Planner(server, gid, seed=3)
    from civtable.games.through_the_ages import actions as act

    shots: list[int] = []

    def politics_shot(page: Any, clicks: int, action: int) -> None:
        # the first political action the human seat takes: a screenshot of the Politics Phase
        if not shots and act.PREPARE <= action < act.OPTION:
            shots.append(clicks)
            _shot(page, "tta-politics.png", full=True)

    clicks, _ = play_by_planner(page, wire, planner, 3000, politics_shot)
    assert shots  # the human seat took a political action through its card's button
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == 4
    state = planner.sync()
    assert isinstance(state, TTAState)
    assert state.is_terminal()
    assert state.age == 4  # TTA-4.4: the full game ends in Age IV
    # the human seat took part in the politics: it prepared events (TTA-6.2) at least
    mine = [a for seat, a in state.history if seat == 0]
    assert any(act.PREPARE <= a < act.OPTION for a in mine)
    # TTA-6.4 / TTA-11 / TTA-12: it also answered decisions of other players' turns (a defence,
    # a bid, an event's choice) through the page: replay the game and count them
    replay = GAME.new_game(4, 11, {"mode": "full"})
    answered = 0
    for seat, a in state.history:
        answered += int(seat == 0 and replay.current != 0)
        replay.apply(seat, a)
    assert answered >= 1
    _shot(page, "tta-full-scores.png", full=True)
    page.context.close()
    assert not errors, errors
    assert clicks >= 100
    assert check_payloads_are_views(server, gid, wire) >= clicks // 2
