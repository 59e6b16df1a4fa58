"""Every playable game in the browser's generic table (web/static/js/generic.js).

The generic table draws any game from its view and the labelled legal actions, so each game in
the registry is playable before (and besides) its dedicated view: ``/game/{id}?view=generic``.
One human seat clicks (seeded random choices among the offered buttons) against bots until the
score table appears; the page must raise no error and every click must advance the game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from civtable import games, present
from tests.browser.tables import click_generic_move, create_game
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
    gid, token = create_game(
        server, game_id, players, 5, ["random"] * (players - 1), player_name="Grace"
    )
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
        if worded and clicks % 5 == 0:
            scan_page(page, f"{game_id} in the generic table, click {clicks}")
        _count, label = click_generic_move(page, rng)
        assert label.startswith("Your move"), label
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


def test_hot_seat_shows_nothing_private_while_bots_move(
    browser: Any, server: ServerProcess
) -> None:
    """Two people share a browser with a slow bot (Deus, turns in order): while the bot thinks
    the page shows a neutral screen, never the last person's table, and the next person gets
    the table only behind the hand-over screen."""
    from civtable.games.deus.words import card_name

    en = present.translator("en")
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.goto(server.url + "/")
    page.locator("body[data-ready='1']").wait_for()
    page.select_option("#game-select", "deus")
    page.select_option("#players", "3")
    page.fill("#player-name", "Ann")
    page.fill("#seed", "3")
    page.select_option("[data-testid=seat-kind-1]", "local")
    page.fill("[data-testid=seat-name-1]", "Bob")
    page.select_option("[data-testid=seat-kind-2]", "bot:hard")  # thinks about a second
    page.click("#create")
    page.wait_for_url("**/game/**")
    gid = page.url.split("#")[0].rstrip("/").split("/")[-1]
    held = json.loads(page.evaluate("localStorage.getItem('civtable.seats')"))[gid]
    tokens = {s["seat"]: s["token"] for s in held["seats"]}
    assert set(tokens) == {0, 1}
    page.goto(f"{server.url}/game/{gid}?view=generic")
    rng = random.Random(3)
    waits = handovers = 0
    screens = "[data-testid=handover], [data-testid=handover-waiting], body[data-your-turn='1']"
    for _ in range(40):
        page.locator(screens).first.wait_for()
        if page.locator("[data-testid=handover-waiting]").count():
            text = page.locator("body").inner_text()
            assert page.locator("button.act.generic").count() == 0
            for tok in tokens.values():
                view = httpx.get(
                    f"{server.url}/api/games/{gid}/state",
                    headers={"Authorization": f"Bearer {tok}"},
                ).json()["view"]
                for cid in view["hand"]:
                    assert card_name(cid, en) not in text, "a hand shows while the bot moves"
            scan_page(page, "while the bot moves")
            waits += 1
            page.locator("[data-testid=handover], body[data-your-turn='1']").first.wait_for()
            continue
        if page.locator("[data-testid=handover]").count():
            handovers += 1
            page.click("[data-testid=handover-ready]")
            page.locator("body[data-your-turn='1']").wait_for()
        seq = page.locator("body").get_attribute("data-view")
        click_generic_move(page, rng)
        page.locator(f"body:not([data-view='{seq}'])").wait_for()
        if waits >= 2 and handovers >= 2:
            break
    assert waits >= 2, "the neutral screen never showed while the bot moved"
    assert handovers >= 2
    context.close()
    assert not errors, errors
