"""The platform in Russian and Ukrainian (issue 19): the lobby and the generic table read with no
English left, the language chosen by ``Accept-Language`` and remembered, ``?lang=`` for shared
links, and errors shown in the reader's language (Debian's Chromium through Playwright)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from civtable import games, present
from tests.browser.tables import click_generic_move, create_game
from tests.browser.vocabulary import check_layout, scan_language
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow

LANGS = ("ru", "uk")
#: moves played (and scanned) in each generic table
MOVES = 3


def _lobby(page: Any, url: str) -> None:
    page.goto(url)
    page.locator("body[data-ready='1']").wait_for()


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_reads_in_the_language(browser: Any, server: ServerProcess, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _lobby(page, f"{server.url}/?lang={lang}")
    assert page.evaluate("document.documentElement.lang") == lang
    tr = present.translator(lang)
    assert page.locator("#new-title").inner_text() == tr.t("lobby.new_game")
    options = page.locator("#lang-select option").all_inner_texts()
    assert options == ["English", "Русский", "Українська"]
    names = page.locator("#game-select option").all_inner_texts()
    assert present.game_name("seven-wonders", tr) in names
    assert page.title() == tr.t("page.title", page=tr.t("nav.lobby"))
    for game_id in games.available():
        page.select_option("#game-select", game_id)
        scan_language(page, lang, f"lobby with {game_id} chosen")
    check_layout(page, "lobby", prompt=False)
    context.close()
    assert not errors, errors


def test_accept_language_picks_the_language_and_the_choice_is_remembered(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(locale="ru-RU")  # Accept-Language: ru-RU
    page = context.new_page()
    _lobby(page, f"{server.url}/")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.locator("#create").inner_text() == "Создать партию"
    assert page.locator("#lang-select").input_value() == "ru"
    # the reader picks Ukrainian: the page reloads in it, and this browser remembers it
    page.select_option("#lang-select", "uk")
    page.locator("html[lang='uk'] body[data-ready='1']").wait_for()
    assert page.locator("#create").inner_text() == "Створити партію"
    other = context.new_page()
    _lobby(other, f"{server.url}/")
    assert other.evaluate("document.documentElement.lang") == "uk"
    # a shared link's ?lang= wins for that page
    _lobby(other, f"{server.url}/?lang=en")
    assert other.locator("#create").inner_text() == "Create game"
    _lobby(other, f"{server.url}/")
    assert other.evaluate("document.documentElement.lang") == "uk"
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_an_error_is_shown_in_the_language(browser: Any, server: ServerProcess, lang: str) -> None:
    """A server error reaches the page as JSON (code + English detail): the page shows the
    catalogue's sentence for the code, never the server's English."""
    tr = present.translator(lang)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{server.url}/game/no-such-game?lang={lang}")
    panel = page.locator(".panel.error")
    panel.wait_for()
    text = panel.inner_text()
    assert tr.t("table.cannot_open") in text
    assert tr.t("error.not_found") in text
    assert "no game" not in text
    scan_language(page, lang, "a game that does not exist")
    # a refused request from the lobby: a toast in the reader's language
    _lobby(page, f"{server.url}/?lang={lang}")
    page.route(
        "**/api/games",
        lambda route: (
            route.fulfill(
                status=409,
                content_type="application/json",
                body='{"detail": "seat 1 of game x is taken", "code": "seat_taken", "status": 409}',
            )
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.click("#create")
    toast = page.locator(".toast.error").last
    toast.wait_for()
    assert toast.inner_text() == tr.t("error.seat_taken")
    # an answer without a known code: the general sentence with the status
    page.route(
        "**/api/games",
        lambda route: (
            route.fulfill(
                status=418,
                content_type="application/json",
                body='{"detail": "teapot", "code": "x"}',
            )
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.click("#create")
    page.locator(".toast.error", has_text=tr.t("error.http", status=418)).wait_for()
    context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", games.available())
def test_the_generic_table_reads_in_the_language(
    browser: Any, server: ServerProcess, game_id: str, lang: str
) -> None:
    tr = present.translator(lang)
    game = games.get(game_id)
    players = max(game.min_players, 3) if game.max_players >= 3 else game.min_players
    gid, token = create_game(
        server, game_id, players, 11, ["random"] * (players - 1), player_name="Анна"
    )
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15000)
    page.goto(f"{server.url}/game/{gid}?view=generic&lang={lang}#token={token}")
    rng = random.Random(3)
    for move in range(MOVES):
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            break
        page.locator("button.act.generic:not([disabled])").first.wait_for()
        where = f"{game_id} in the generic table, move {move}"
        scan_language(page, lang, where)
        check_layout(page, where)
        seq = page.locator("body").get_attribute("data-view")
        count, label = click_generic_move(page, rng)
        assert label == tr.tn("generic.your_move", count)
        page.locator(f"body:not([data-view='{seq}'])").wait_for()
    title = page.locator("#game-title").inner_text()
    assert title.startswith(present.game_name(game_id, tr))
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", LANGS)
def test_the_replay_viewer_reads_in_the_language(
    browser: Any, server: ServerProcess, lang: str
) -> None:
    """A finished game of bots (Deus, two seats) stepped through in the replay viewer with the
    generic table (the games' own tables are scanned by their tests), as a spectator and as a
    seat."""
    import time

    tr = present.translator(lang)
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": "deus",
                "players": 2,
                "seed": 4,
                "seats": [{"kind": "bot", "bot": "random"}] * 2,
            },
        )
        assert r.status_code == 201, r.text
        gid = r.json()["game"]["id"]
        deadline = time.monotonic() + 120
        while http.get(f"/api/games/{gid}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.5)
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    for view in ("&view=generic",):
        page.goto(f"{server.url}/replay/{gid}?lang={lang}{view}")
        page.locator("body[data-step]").wait_for()
        assert page.locator("#as-label").inner_text() == tr.t("replay.view_as")
        assert page.locator("#first").get_attribute("title") == tr.t("replay.first")
        title = page.locator("#game-title").inner_text()
        assert title == tr.t("replay.title", game="Деус", players=tr.tn("n.player", 2))
        scan_language(page, lang, f"replay start{view}")
        last = int(page.locator("body").get_attribute("data-step") or 0)
        page.locator("#slider").fill(str(last // 2))
        page.locator(f"body[data-step='{last // 2}']").wait_for()
        page.select_option("#as", "0")
        page.locator("#step-label").wait_for()
        scan_language(page, lang, f"replay middle{view}")
        page.click("#last")
        page.locator(f"body[data-step='{last}']").wait_for()
        scan_language(page, lang, f"replay end{view}")
    context.close()
    assert not errors, errors
