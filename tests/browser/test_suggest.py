"""Suggest a move at the table (issue 22): in every game the prompt bar offers the bot's
suggestion for one's own decision, shown as three labelled moves with their figures."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.tables import create_game
from tests.browser.test_play import DESKTOP, _new_page
from tests.browser.vocabulary import scan_language, scan_page
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow

GAMES = ["seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus"]


@pytest.mark.parametrize("game", GAMES)
def test_a_suggestion_shows_three_labelled_moves(
    browser: Any, server: ServerProcess, game: str
) -> None:
    gid, token = create_game(server, game, 3, 4, ["random", "random"])
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    page.set_default_timeout(60000)
    page.goto(f"{server.url}/game/{gid}#token={token}")
    page.locator("body[data-your-turn='1']").wait_for()
    if not page.locator("[data-testid=suggest]").count():  # a forced first step: take it
        page.locator("[data-testid=suggest]").wait_for()
    seq = page.locator("body").get_attribute("data-view")
    page.click("[data-testid=suggest]")
    items = page.locator("[data-testid=suggestions] li")
    items.first.wait_for()
    assert items.count() == 3
    for i in range(3):
        text = items.nth(i).inner_text()
        assert "playout" in text
        assert "estimated chance to win" in text
        label = items.nth(i).locator("b").inner_text().strip()
        assert label, text
    scan_page(page, f"{game} suggestions")
    page.click("[data-testid=detail-close]")
    # asking changed nothing: the same position, still our decision
    assert page.locator("body").get_attribute("data-view") == seq
    assert page.locator("body").get_attribute("data-your-turn") == "1"
    page.context.close()
    assert not errors, errors


def test_suggestions_in_russian_and_off_when_not_allowed(
    browser: Any, server: ServerProcess
) -> None:
    gid, token = create_game(server, "deus", 2, 4, ["random"], player_name="Анна")
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    page.set_default_timeout(60000)
    page.goto(f"{server.url}/game/{gid}?lang=ru#token={token}")
    page.locator("body[data-your-turn='1']").wait_for()
    page.click("[data-testid=suggest]")
    page.locator("[data-testid=suggestions] li").first.wait_for()
    assert "Подсказки бота" in page.locator("[data-testid=detail]").inner_text()
    scan_language(page, "ru", "suggestions in Russian")
    page.context.close()
    import httpx

    r = httpx.post(
        f"{server.url}/api/games",
        json={
            "game": "deus",
            "players": 2,
            "seed": 4,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "take_seat": 0,
            "suggestions": False,
        },
    )
    off = r.json()
    page = _new_page(browser, DESKTOP, errors)
    page.goto(f"{server.url}/game/{off['game']['id']}#token={off['token']}")
    page.locator("body[data-your-turn='1']").wait_for()
    assert page.locator("[data-testid=suggest]").count() == 0
    page.context.close()
    assert not errors, errors
