"""Every playable game in the browser's generic table (web/static/js/generic.js).

The generic table draws any game from its view and the labelled legal actions, so each game in
the registry is playable before (and besides) its dedicated view: ``/game/{id}?view=generic``.
One human seat clicks (seeded random choices among the offered buttons) against bots until the
score table appears; the page must raise no error and every click must advance the game.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from civtable import games, present
from tests.browser.vocabulary import scan_page
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow

MAX_CLICKS = 800


@pytest.mark.parametrize("game_id", games.available())
def test_generic_table_plays_a_whole_game(
    browser: Any, server: ServerProcess, game_id: str
) -> None:
    game = games.get(game_id)
    players = max(game.min_players, 3) if game.max_players >= 3 else game.min_players
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": game_id,
                "players": players,
                "seed": 5,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1),
                "take_seat": 0,
                "player_name": "Grace",
            },
        )
        assert r.status_code == 201, r.text
        doc = r.json()
    gid, token = doc["game"]["id"], doc["token"]
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.set_default_timeout(15000)
    page.goto(f"{server.url}/game/{gid}?view=generic#token={token}")
    rng = random.Random(7)
    clicks = 0
    # a game with a words module shows player words only (the raw view is in data-dev)
    worded = present.words_module(game_id) is not None
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            break
        seq = page.locator("body").get_attribute("data-view")
        # a push drawn while our previous move was in flight shows disabled buttons until the
        # move's reply arrives
        page.locator("button.act.generic:not([disabled])").first.wait_for()
        buttons = page.locator("button.act.generic:not([disabled])")
        assert buttons.count() >= 1, "our turn, but no move is offered"
        label = page.locator(".decision h3").inner_text()
        assert label.startswith("Your move")
        if worded and clicks % 5 == 0:
            scan_page(page, f"{game_id} in the generic table, click {clicks}")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.locator(f"body:not([data-view='{seq}'])").wait_for()
        clicks += 1
        assert clicks < MAX_CLICKS, f"{game_id}: no end after {clicks} clicks"
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == players
    assert page.locator(".panel.state dl.fields").count() >= 1
    # the developer's raw view is there, collapsed and marked for the vocabulary scanner
    assert page.locator("details[data-dev] .panel.state, details.panel.state[data-dev]").count()
    assert not page.locator("details[data-dev]").first.evaluate("e => e.open")
    if worded:
        scan_page(page, f"{game_id} in the generic table at the end")
    assert clicks >= 1
    context.close()
    assert not errors, errors
