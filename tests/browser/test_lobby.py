"""Creating each game from the lobby form (Debian's Chromium through Playwright).

The form shows 7 Wonders' wonder sides, and for the other games their named option sets
(``option_presets``: Through the Ages' first, shorter and peaceful games...). A game created
from the lobby is stored with the options the form chose.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow


def _create(page: Any, server: ServerProcess, game: str, preset: str | None) -> dict[str, Any]:
    page.goto(server.url + "/")
    page.locator("#seat-setup select").first.wait_for()
    page.select_option("#game-select", game)
    if preset is not None:
        page.select_option("#preset", preset)
    page.click("#create")
    page.wait_for_url("**/game/**")
    gid = page.url.rstrip("/").split("?")[0].split("/")[-1]
    doc: dict[str, Any] = httpx.get(f"{server.url}/api/games/{gid}").json()
    return doc


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [
        ("through-the-ages", None, {"mode": "full"}),
        ("through-the-ages", "first-game", {"mode": "first"}),
        ("through-the-ages", "world-wars", {"mode": "full", "peaceful": True, "world_wars": True}),
        ("deus", None, None),
        ("civilization-a-new-dawn", None, None),
    ],
)
def test_the_lobby_creates_every_game_with_its_options(
    browser: Any, server: ServerProcess, game: str, preset: str | None, options: Any
) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.locator("#seat-setup select").first.wait_for()
    page.select_option("#game-select", game)
    assert page.locator("#sides-label").is_hidden()  # 7 Wonders only
    doc = _create(page, server, game, preset)
    assert doc["game"] == game
    if options is not None:
        assert doc["options"] == options
    else:  # the game's defaults, stored explicitly
        defaults = httpx.get(f"{server.url}/api/game-types").json()["games"]
        assert doc["options"] == next(g for g in defaults if g["id"] == game)["default_options"]
    assert not errors
    page.close()
