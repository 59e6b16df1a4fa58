"""Playing Civilization: A New Dawn in a real browser through its table view (web/static/js/civ.js).

One person plays whole games (2 players, and the maximum of 4) against bots by clicking the
choices of the prompt bar, focus cards in their row and spaces highlighted on the map, until the
score table appears. The clicks follow the heuristic bot's choices (a finite, sensible game), and
each must be an element of the page. At every step the page is scanned for engine vocabulary
(``scan_page``) and, at some steps, its layout is checked at 1280×800 and 390×844
(``check_layout``: no sideways scroll, the prompt bar in view). A focus card's resolution is held
as tentative steps (``State.move_open``): the planner follows them, and a test withdraws one and
checks that nothing of it was stored or shown to another seat. Screenshots go to docs/screenshots.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from civtable.core.api import State
from civtable.server.hub import rebuild
from tests.browser.tables import Planner, create_game, open_table, stored_payloads
from tests.browser.test_play import Wire, _new_page, _shot
from tests.browser.vocabulary import check_layout, scan_language, scan_page
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow

GAME = "civilization-a-new-dawn"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CLICK = "button.act[data-action='{a}']:not([disabled]), svg.hexmap g.cell.target[data-action='{a}']"


class HeldPlanner(Planner):
    """The heuristic's choices in the position the page shows: the stored moves plus this
    seat's tentative steps (a focus card being resolved is not stored until it is done)."""

    def __init__(self, server: ServerProcess, gid: str, seat: int = 0, seed: int = 1) -> None:
        super().__init__(server, gid, seat, seed)
        self.held: list[int] = []

    def shown(self) -> State:
        """The position on the page."""
        state = self.sync().copy()
        for a in self.held:
            state.apply(self.seat, a)
        return state

    def next_action(self) -> int:
        return self.bot.choose(self.shown(), self.seat)

    def clicked(self, action: int, tentative: int) -> None:
        """After a click: the page holds ``tentative`` steps (the last ones clicked)."""
        steps = [*self.held, action]
        self.held = steps[len(steps) - tentative :] if tentative else []


def committed_payloads_are_views(server: ServerProcess, gid: str, wire: Any) -> int:
    """Every payload of a committed position (no tentative steps) is exactly its seat's view at
    that sequence number; a payload with tentative steps is the seat's own (it is never sent to
    another seat: the hub pushes held steps to their seat only)."""
    record, log, payloads = stored_payloads(server, gid, wire)
    state = rebuild(record, [])
    applied = checked = 0
    for payload in payloads:
        if payload.get("tentative"):
            assert payload["you"] == 0, "held steps are shown to their seat only"
            continue
        while applied < payload["seq"]:
            state.apply(*log[applied])
            applied += 1
        assert payload["view"] == state.view(payload["you"]), f"seq {payload['seq']}"
        checked += 1
    return checked


def _view_marker(page: Any) -> tuple[int, int]:
    seq, _, tent = str(page.locator("body").get_attribute("data-view")).partition(".")
    return int(seq), int(tent or 0)


def _both_viewports(page: Any, context: str) -> None:
    check_layout(page, f"{context} at 1280x800")
    page.set_viewport_size(PHONE)
    page.locator("[data-testid=prompt]").first.wait_for()
    check_layout(page, f"{context} at 390x844")
    scan_page(page, f"{context} at 390x844")
    page.set_viewport_size(DESKTOP)


def _scan(page: Any, lang: str, context: str) -> None:
    """The engine-vocabulary scan, and in a language run no English left (issue 19)."""
    if lang:
        scan_language(page, lang, context)
    else:
        scan_page(page, context)


def play_civ(
    page: Any,
    planner: HeldPlanner,
    max_clicks: int,
    shots: str = "",
    layout_every: int = 40,
    lang: str = "",
) -> tuple[int, int]:
    """Click the planner's choices until the game is over; (clicks, map clicks). With ``lang``
    every step is scanned for English left on the page too."""
    clicks = on_map = 0
    kinds_seen: set[int] = set()
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            return clicks, on_map
        marker = page.locator("body").get_attribute("data-view")
        _scan(page, lang, f"before click {clicks}")
        state = planner.shown()
        kind = state.pending[-1][0]  # type: ignore[attr-defined]
        if clicks % layout_every == 0 or kind not in kinds_seen:
            check_layout(page, f"click {clicks}")
        if not lang and (
            clicks in (0, 60, 200) or (shots and kind not in kinds_seen and len(kinds_seen) < 3)
        ):
            _both_viewports(page, f"click {clicks}")
        kinds_seen.add(kind)
        action = planner.next_action()
        element = page.locator(CLICK.format(a=action))
        assert element.count() >= 1, f"legal action {action} has no element on the page"
        if element.first.evaluate("e => e.tagName.toLowerCase()") == "g":
            on_map += 1
        element.first.click()
        confirm = page.locator("[data-testid=confirm-yes]")
        if confirm.count():  # ending a card without using it asks first
            confirm.click()
        page.locator(f"body:not([data-view='{marker}'])").wait_for()
        planner.clicked(action, _view_marker(page)[1])
        clicks += 1
        assert clicks < max_clicks, f"no end after {max_clicks} clicks"


def _whole_game(browser: Any, server: ServerProcess, players: int, seed: int) -> None:
    bots = ["heuristic"] * (players - 1)
    gid, token = create_game(server, GAME, players, seed, bots)
    errors: list[str] = []
    page, wire = open_table(browser, server, gid, token, errors)
    page.set_viewport_size(DESKTOP)
    page.locator("svg.hexmap").wait_for()
    assert page.locator("svg.hexmap g.cell").count() > 60  # the map built from the tiles
    assert page.locator("article.civ-player").count() == players
    assert page.locator("article.civ-player.you .civ-focus").count() == 5  # the focus row
    # what each card does now: the text of its slot (CIV-6), and a legend for the map symbols
    assert page.locator("article.civ-player.you [data-testid=focus-now]").count() == 5
    assert page.locator("details.civ-legend li").count() >= 15
    assert page.locator("[data-testid=victory-card]").count() >= 1  # with each player's marks
    assert page.locator("svg.hexmap text.civ-row-label").count() >= 8  # the board reference
    tag = f"civ-{players}p"
    _shot(page, f"{tag}-table.png")
    page.set_viewport_size(PHONE)
    _shot(page, f"{tag}-table-phone.png")
    page.set_viewport_size(DESKTOP)
    planner = HeldPlanner(server, gid)
    clicks, on_map = play_civ(page, planner, 600, shots=tag)
    assert on_map >= 1
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == players
    scan_page(page, "the final scores")
    _shot(page, f"{tag}-scores.png", full=True)
    page.set_viewport_size(PHONE)
    check_layout(page, "the final scores at 390x844", prompt=False)
    _shot(page, f"{tag}-scores-phone.png")
    page.context.close()
    assert not errors, errors
    assert committed_payloads_are_views(server, gid, wire) >= clicks // 4


def test_civ_whole_game_two_players(browser: Any, server: ServerProcess) -> None:
    _whole_game(browser, server, 2, 12)


def test_civ_whole_game_four_players(browser: Any, server: ServerProcess) -> None:
    _whole_game(browser, server, 4, 5)


#: the person's name in a language run: a page read in Russian or Ukrainian shows Cyrillic names
PERSON = {"ru": "Анна", "uk": "Оксана"}


def _game_in(browser: Any, server: ServerProcess, lang: str, seed: int) -> None:
    """A whole 2-player game played from a table opened with ``?lang=``, at 1280×800: every step
    scanned for engine vocabulary and for English left (``scan_language``), the layout checked."""
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": GAME,
                "players": 2,
                "seed": seed,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
                "take_seat": 0,
                "player_name": PERSON[lang],
            },
        )
        assert r.status_code == 201, r.text
        gid, token = r.json()["game"]["id"], r.json()["token"]
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    wire = Wire(page)
    page.goto(f"{server.url}/game/{gid}?lang={lang}#token={token}")
    page.locator("svg.hexmap").wait_for()
    assert page.locator("html").get_attribute("lang") in (lang, None)
    page.locator("details.civ-legend").first.evaluate("d => d.open = true")
    _scan(page, lang, "the table with its legend open")
    check_layout(page, "the table")
    # the board reference in the language's letters
    labels = page.locator("svg.hexmap text.civ-row-label").all_text_contents()
    assert labels, "no row letters"
    assert all("А" <= ch <= "я" for label in labels for ch in label), labels
    planner = HeldPlanner(server, gid)
    clicks, _ = play_civ(page, planner, 600, layout_every=25, lang=lang)
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    _scan(page, lang, "the final scores")
    check_layout(page, "the final scores", prompt=False)
    _shot(page, f"civ-{lang}-scores.png", full=True)
    page.context.close()
    assert not errors, errors
    assert committed_payloads_are_views(server, gid, wire) >= clicks // 4


def test_civ_whole_game_in_russian(browser: Any, server: ServerProcess) -> None:
    _game_in(browser, server, "ru", 12)


def test_civ_whole_game_in_ukrainian(browser: Any, server: ServerProcess) -> None:
    _game_in(browser, server, "uk", 7)


def test_civ_a_card_resolution_can_be_withdrawn(browser: Any, server: ServerProcess) -> None:
    """CIV-5.3 resolution steps are tentative: Cancel returns to the focus-card choice, nothing
    is stored, the other seat's view and the stored log are as before (issue 18 item 4)."""
    gid, token = create_game(server, GAME, 2, 4, ["heuristic"])
    errors: list[str] = []
    page, _ = open_table(browser, server, gid, token, errors)
    page.set_viewport_size(DESKTOP)
    page.locator("body[data-your-turn='1']").wait_for()
    planner = HeldPlanner(server, gid)
    with httpx.Client(base_url=server.url) as http:

        def stored() -> tuple[int, Any, Any]:
            doc = http.get(f"/api/games/{gid}/state", params={"lang": "en"}).json()
            return doc["seq"], doc["view"], doc["view"].get("log")

        # play until this seat's card choice leads to a decision (a compound move)
        for _ in range(60):
            page.locator("body[data-your-turn='1']").wait_for()
            state = planner.shown()
            if state.pending[-1][0] == 101:  # D_CHOOSE: choose a focus card (rules/kinds.py)
                before = stored()
                shown = page.locator("body").get_attribute("data-view")
                # a card with a decision after it: industry (a space or a wonder) or culture
                slot = next(
                    (a for a in state.legal_actions(0) if _held_after(state, a)),
                    None,
                )
                if slot is not None:
                    page.locator(f"button.act[data-action='{slot}']").first.click()
                    page.locator(f"body:not([data-view='{shown}'])").wait_for()
                    seq, tent = _view_marker(page)
                    assert tent == 1, "choosing the card is held as a tentative step"
                    assert stored() == before  # nothing stored, the spectator sees the old state
                    page.locator("[data-testid=cancel]").click()
                    page.locator(f"body[data-view='{seq}.0']").wait_for()
                    assert stored() == before
                    assert page.locator("[data-testid=prompt-slot]").count() == 5
                    scan_page(page, "after cancel")
                    _shot(page, "civ-cancelled.png")
                    break
            marker = page.locator("body").get_attribute("data-view")
            action = planner.next_action()
            page.locator(CLICK.format(a=action)).first.click()
            confirm = page.locator("[data-testid=confirm-yes]")
            if confirm.count():
                confirm.click()
            page.locator(f"body:not([data-view='{marker}'])").wait_for()
            planner.clicked(action, _view_marker(page)[1])
        else:
            pytest.fail("no card choice with a decision after it in 60 clicks")
    page.context.close()
    assert not errors, errors


def _held_after(state: State, action: int) -> bool:
    after = state.copy()
    after.apply(0, action)
    return after.move_open(0)
