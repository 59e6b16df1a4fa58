"""Playing Deus in a real browser through its table view (web/static/js/deus.js).

One person plays whole games against bots (2 players, and the maximum of 4) by clicking cards in
the hand, regions highlighted on the map and the prompt bar's buttons, until the score table
appears. The clicks follow the heuristic bot's choices, and each must be an element of the page.
At every step the page is scanned for engine vocabulary (tests/browser/vocabulary.py) and its
layout checked (the prompt bar in view, no sideways scroll), at both viewports now and then.
Every payload the page received is the seat's own view of the position at that sequence number
(DEUS-20), tentative steps included. Another test starts an offering and a construction and
withdraws them (Cancel, Back): nothing is stored, nobody else sees anything.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from civtable.games.deus import actions as act
from civtable.server.hub import rebuild
from civtable.store import Store
from tests.browser.tables import Planner, create_game, stored_payloads
from tests.browser.test_play import Wire, _new_page, _shot
from tests.browser.vocabulary import (
    check_layout,
    english_left,
    findings,
    page_texts,
    scan_language,
    scan_page,
)
from tests.deus.test_i18n import pending_common_words
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CLICKABLE = "button.act[data-action]:not([disabled]), svg.hexmap g.cell.target"


def _open(
    browser: Any, server: ServerProcess, gid: str, token: str, errors: list[str], lang: str = ""
) -> Any:
    page = _new_page(browser, DESKTOP, errors)
    wire = Wire(page)
    query = f"?lang={lang}" if lang else ""
    page.goto(f"{server.url}/game/{gid}{query}#token={token}")
    page.locator("svg.hexmap").wait_for()
    page.locator("[data-testid=prompt]").wait_for()
    return page, wire


def _both_viewports(page: Any, context: str, shot: str | None = None) -> None:
    """Check the layout at 1280×800 and at 390×844 (and take the screenshots)."""
    check_layout(page, f"{context} (desktop)")
    if shot:
        page.evaluate("window.scrollTo(0, 0)")
        _shot(page, f"{shot}.png")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    if shot:
        page.evaluate("window.scrollTo(0, 0)")
    check_layout(page, f"{context} (phone)")
    scan_page(page, f"{context} (phone)")
    if shot:
        _shot(page, f"{shot}-phone.png")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(100)


def _click(page: Any, action: int) -> bool:
    """Click the element of ``action`` (a button or a highlighted region); confirm an edge
    placement (it costs VP). True if it was a region of the map."""
    element = page.locator(
        f"button.act[data-action='{action}']:not([disabled]), "
        f"svg.hexmap g.cell.target[data-action='{action}']"
    )
    assert element.count() >= 1, f"legal action {action} has no element on the page"
    on_map = element.first.evaluate("e => e.tagName.toLowerCase()") == "g"
    element.first.click()
    if act.EDGE <= action < act.RES:
        page.locator("[data-testid=confirm-yes]").click()
    return on_map


class HeldPlanner(Planner):
    """The planner of tests/browser/tables.py, aware of the seat's tentative steps: a
    construction or an offering in progress is not stored until it is complete, so its steps
    (the last clicks, as many as the page's ``data-view`` counts) are applied on top."""

    held: list[int]

    def next_action(self) -> int:
        state = self.sync().copy()
        for a in self.held:
            state.apply(self.seat, a)
        return self.bot.choose(state, self.seat)


#: English words of the ``common`` catalogue seen on a ru/uk page while this branch has no
#: ``common`` catalogue in that language (reported by the language runs, see :func:`_scan`)
COMMON_LEFT: set[str] = set()


def _scan(page: Any, lang: str, context: str) -> None:
    """:func:`scan_page` in English; :func:`scan_language` in ``lang`` (while the ``common``
    catalogue of ``lang`` is not there yet, its English words are noted, not failed)."""
    if not lang:
        scan_page(page, context)
        return
    pending = pending_common_words(lang)
    if not pending:
        scan_language(page, lang, context)
        return
    texts = page_texts(page)
    hits = findings(texts)
    for hit in english_left(texts, lang):
        left = set(re.findall(r"'([^']+)'", hit.split(" in ", 1)[0]))
        if left <= pending:
            COMMON_LEFT.add(hit.split(": ", 1)[-1][:80])
        else:
            hits.append(hit)
    assert not hits, f"{lang} page shows {context}:\n" + "\n".join(hits[:20])


def _play(
    page: Any,
    wire: Wire,
    planner: HeldPlanner,
    max_clicks: int,
    shots: str,
    lang: str = "",
) -> tuple[int, int]:
    """Click the planner's choices until the game is over, scanning every step (in ``lang``
    when given: no English left on the page)."""
    clicks = on_map = 0
    seen: set[str] = set()
    clicked: list[int] = []
    planner.held = []
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            return clicks, on_map
        shown = page.locator("body").get_attribute("data-view")
        page.locator(CLICKABLE).first.wait_for()
        _scan(page, lang, f"at click {clicks}")
        check_layout(page, f"at click {clicks}")
        action = planner.next_action()
        kind, _ = act.split(action)
        what = None
        if page.locator("[data-testid=offering]").count():
            what = "offering"
        elif kind in ("region", "edge") and page.locator("svg.hexmap g.cell.target").count() > 1:
            what = "place"
        if what and what not in seen and shots:
            seen.add(what)
            name = "deus-offering" if what == "offering" else "deus-placement"
            _both_viewports(page, f"{what} at click {clicks}", name)
        elif clicks % 40 == 20:
            _both_viewports(page, f"at click {clicks}")
        if clicks == 3:  # a card's full text on tap, scanned too
            page.locator("[data-testid=hand-card] button.name").first.click()
            page.locator("[data-testid=detail]").wait_for()
            _scan(page, lang, "card detail")
            page.locator("[data-testid=detail-close]").click()
        on_map += _click(page, action)
        page.locator(f"body:not([data-view='{shown}'])").wait_for()
        clicked.append(action)
        held = int(str(page.locator("body").get_attribute("data-view")).split(".")[1])
        planner.held = clicked[len(clicked) - held :] if held else []
        clicks += 1
        wire.flush()
        assert clicks < max_clicks, f"no end after {max_clicks} clicks"


def _payloads_are_views(server: ServerProcess, gid: str, wire: Wire) -> int:
    """Every state payload the page got is its seat's view at that sequence number, after its
    tentative steps (the next moves of that seat in the stored log: this game withdrew none)."""
    record, log, payloads = stored_payloads(
        server, gid, wire, key=lambda p: (int(p["seq"]), int(p.get("tentative") or 0))
    )
    state = rebuild(record, [])
    applied = 0
    for payload in payloads:
        while applied < payload["seq"]:
            state.apply(*log[applied])
            applied += 1
        shown = state
        held = int(payload.get("tentative") or 0)
        if held:
            shown = state.copy()
            for seat, action in log[applied : applied + held]:
                assert seat == payload["you"]
                shown.apply(seat, action)
        assert payload["view"] == shown.view(payload["you"]), f"seq {payload['seq']}+{held}"
    return len(payloads)


def _whole_game(browser: Any, server: ServerProcess, players: int, seed: int, shots: str) -> None:
    bots = ["heuristic", "random", "heuristic"][: players - 1]
    gid, token = create_game(server, "deus", players, seed, bots)
    errors: list[str] = []
    page, wire = _open(browser, server, gid, token, errors)
    cells = {2: 4 * 7, 3: 6 * 7, 4: 7 * 7}[players]  # tiles of 7 regions (DEUS-3.5)
    assert page.locator("svg.hexmap g.cell").count() == cells
    assert page.locator("[data-testid=hand-card]").count() == 5  # DEUS-4.6
    assert page.locator("article.deus-player").count() == players
    scan_page(page, "at the start")
    if shots:
        _both_viewports(page, "at the start", "deus-table")
    clicks, placed = _play(page, wire, HeldPlanner(server, gid), 900, shots)
    assert placed >= 1  # legal regions were highlighted and clicked (DEUS-7.4)
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == players
    scan_page(page, "at the end")
    check_layout(page, "at the end")
    if shots:
        _both_viewports(page, "at the end", "deus-scores")
    log = page.locator(".deus-log li")
    assert log.count() > clicks // 2  # the story of the game, in player words
    page.context.close()
    assert not errors, errors
    assert _payloads_are_views(server, gid, wire) >= clicks // 2


def test_deus_whole_game_two_players_in_the_table_view(browser: Any, server: ServerProcess) -> None:
    _whole_game(browser, server, 2, 34, "")


def test_deus_whole_game_four_players_in_the_table_view(
    browser: Any, server: ServerProcess
) -> None:
    _whole_game(browser, server, 4, 9, "shots")


def _whole_game_in(browser: Any, server: ServerProcess, lang: str, seed: int) -> None:
    """A whole 2-player game read in ``lang`` (``?lang=``, 1280×800), the person named in that
    language: every step scanned for English left and engine vocabulary, the layout checked."""
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": "deus",
                "players": 2,
                "seed": seed,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
                "take_seat": 0,
                "player_name": {"ru": "Анна", "uk": "Оксана"}[lang],
            },
        )
        assert r.status_code == 201, r.text
        gid, token = r.json()["game"]["id"], r.json()["token"]
    errors: list[str] = []
    page, wire = _open(browser, server, gid, token, errors, lang)
    assert page.locator("html").get_attribute("lang") in (lang, None)
    _scan(page, lang, "at the start")
    check_layout(page, "at the start")
    prompt = page.locator("[data-testid=prompt]").inner_text()
    assert re.search(r"[А-Яа-яІіЇїЄєҐґ]", prompt), prompt
    clicks, placed = _play(page, wire, HeldPlanner(server, gid), 900, "", lang)
    assert placed >= 1
    page.locator("[data-testid=scores]").wait_for()
    _scan(page, lang, "at the end")
    check_layout(page, "at the end")
    assert page.locator(".deus-log li").count() > clicks // 2
    page.context.close()
    assert not errors, errors
    if COMMON_LEFT:
        print(
            f"\n{lang}: common words still English on this branch:",
            *sorted(COMMON_LEFT),
            sep="\n  ",
        )


@pytest.mark.parametrize(("lang", "seed"), [("ru", 34), ("uk", 12)])
def test_deus_whole_game_in_russian_and_ukrainian(
    browser: Any, server: ServerProcess, lang: str, seed: int
) -> None:
    _whole_game_in(browser, server, lang, seed)


def _api_state(server: ServerProcess, gid: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{server.url}/api/games/{gid}/state", headers=headers, params={"lang": "en"})
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def _stored(server: ServerProcess, gid: str) -> list[tuple[int, int]]:
    store = Store.open(server.db_url)
    moves = store.moves(gid)
    store.close()
    return moves


def test_deus_offering_and_construction_withdrawn_leave_no_trace(
    browser: Any, server: ServerProcess
) -> None:
    """DEUS-10.1 and DEUS-7.3/7.4: the cards of an offering and the card, payment and region of a
    construction can be taken back until the step that reveals something; the stored moves and
    log, another seat's view and a spectator's stay as they were."""
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": "deus",
                "players": 2,
                "seed": 4,
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "take_seat": 0,
                "player_name": "Ann",
            },
        )
        assert r.status_code == 201, r.text
        gid, token = r.json()["game"]["id"], r.json()["token"]
        bob = http.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
    errors: list[str] = []
    page, _wire = _open(browser, server, gid, token, errors)
    page.locator("body[data-your-turn='1']").wait_for()
    moves = _stored(server, gid)
    mine = _api_state(server, gid, token)
    bob_before = _api_state(server, gid, bob)
    watcher_before = _api_state(server, gid, None)
    hand = page.locator("[data-testid=hand-card]").count()

    def unchanged(context: str) -> None:
        assert _stored(server, gid) == moves, context
        for before, who in ((bob_before, bob), (watcher_before, None)):
            now = _api_state(server, gid, who)
            assert now["view"] == before["view"], context
            assert now["words"] == before["words"], context
            assert now["seq"] == before["seq"], context

    # an offering: the top card, then one more card under it (nothing drawn yet)
    page.locator("button.act[data-kind=offer]").first.click()
    page.locator("[data-testid=offering]").wait_for()
    assert page.locator("[data-testid=hand-card]").count() == hand - 1
    page.locator("button.act[data-kind=add]").first.click()
    page.locator("body[data-view$='.2']").wait_for()
    prompt = page.locator("[data-testid=prompt]")
    assert "Offering 2 cards" in prompt.inner_text()
    scan_page(page, "offering in progress")
    _both_viewports(page, "offering in progress")
    unchanged("during the offering")
    page.locator("[data-testid=back]").click()  # one step back: one card left in the offering
    page.locator("body[data-view$='.1']").wait_for()
    assert "Offering 1 card" in prompt.inner_text()
    page.locator("[data-testid=cancel]").click()
    page.locator("body[data-view$='.0']").wait_for()
    assert page.locator("[data-testid=offering]").count() == 0
    assert page.locator("[data-testid=hand-card]").count() == hand
    unchanged("after cancelling the offering")
    after = _api_state(server, gid, token)
    assert after["view"] == mine["view"]
    assert after["tentative"] == 0

    # a construction: the card (and its payment), then cancelled before the region is chosen
    build = page.locator("button.act[data-kind=build]")
    assert build.count() >= 1, "no constructible card in this deal"
    build.first.click()
    page.locator("body[data-view$='.0']").wait_for(state="detached")
    assert page.locator("[data-testid=cancel]").count() == 1
    unchanged("during the construction")
    page.locator("[data-testid=cancel]").click()
    page.locator("body[data-view$='.0']").wait_for()
    unchanged("after cancelling the construction")
    assert _api_state(server, gid, token)["view"] == mine["view"]
    page.context.close()
    assert not errors, errors
