"""Creating each game from the lobby form (Debian's Chromium through Playwright).

The form shows 7 Wonders' wonder sides, and for the other games their named option sets
(``option_presets``: Through the Ages' first, shorter and peaceful games...). A game created
from the lobby is stored with the options the form chose.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser.vocabulary import check_layout, scan_page
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


def test_the_lobby_describes_variants_links_rules_and_offers_languages(
    browser: Any, server: ServerProcess
) -> None:
    """Issue 18 item 6: each variant described where it is chosen; the rules one click away.
    Issue 19's groundwork: the lobby speaks through the catalogues and offers the languages."""
    errors: list[str] = []
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = browser.new_page(viewport=viewport)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type in ("error", "warning") and errors.append(m.text))
        page.goto(server.url + "/")
        page.locator("body[data-ready='1']").wait_for()
        scan_page(page, "in the lobby")
        check_layout(page, "in the lobby", prompt=False)
        languages = httpx.get(f"{server.url}/api/languages").json()["languages"]
        options = page.locator("#lang-select option").evaluate_all("els => els.map(e => e.value)")
        assert options == [lang["code"] for lang in languages]
        # 7 Wonders: the wonder sides, each explained
        page.select_option("#game-select", "seven-wonders")
        help_text = page.locator("[data-testid=option-help]")
        page.select_option("#sides", "A")
        assert "side A" in help_text.inner_text()
        page.select_option("#sides", "B")
        assert "side B" in help_text.inner_text()
        assert page.locator("#rules-link").get_attribute("href") == "/rules/seven-wonders"
        # a game with presets: each has a name and, once its game writes it, a description
        page.select_option("#game-select", "through-the-ages")
        presets = page.locator("#preset option").evaluate_all("els => els.map(e => e.textContent)")
        assert presets
        assert all(p and "-" not in p and "_" not in p for p in presets)
        assert page.locator("#rules-link").get_attribute("href") == "/rules/through-the-ages"
        scan_page(page, "in the lobby, Through the Ages chosen")
        page.close()
    page = browser.new_page()
    page.goto(server.url + "/")
    page.locator("body[data-ready='1']").wait_for()
    with page.context.expect_page() as popup:
        page.click("#rules-link")
    rules = popup.value
    rules.locator("[data-testid=rules]").wait_for()
    assert "how to play" in rules.title().lower()
    scan_page(rules, "on the rules page")
    page.context.close()
    assert not errors, errors
