"""7 Wonders at the table standard of issue 18, in a real browser (Debian's Chromium).

* Whole games through the UI at 2 players (the Free City, SW-14) and at 7, bots in the other
  seats: at every step the page shows player words only (tests/browser/vocabulary.py) and the
  prompt bar is in view without sideways scrolling, at 1280×800 and, at a few steps, 390×844.
* The payment step can be withdrawn (SW-7.10, a tentative step): Cancel leaves the position,
  the stored log and every other seat's view exactly as before the card was chosen.
* Hot seat (issue 18 item 10): two people at one browser, set up in the lobby; while one is to
  move, nothing of the other's hand is on the page, and a hand-over screen stands between them.
* Whole games in Russian and in Ukrainian (issue 19, ``?lang=``): at every step no English word
  is on the page (tests/browser/vocabulary.py scan_language) and the layout holds.
* /docs renders every operation of the API (Swagger UI 5 reading the OpenAPI 3.1 document).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from civtable.games.seven_wonders.catalog import CARD_INDEX, CARDS
from civtable.store import Store
from tests.browser.test_play import DESKTOP, PHONE, Wire, _choose, _new_page, _shot
from tests.browser.vocabulary import check_layout, scan_language, scan_page
from tests.server.procs import ServerProcess

pytestmark = pytest.mark.slow


def _create(
    server: ServerProcess, players: int, seed: int, humans: int = 1, name: str = "Tester"
) -> dict[str, Any]:
    """A game with ``humans`` person seats (seat 0 named ``name``; the others join as Uma, Vic…)
    and heuristic bots; returns the creation answer plus ``tokens`` of the person seats."""
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": "heuristic"}] * (
        players - humans
    )
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": "seven-wonders",
                "players": players,
                "seed": seed,
                "seats": seats,
                "take_seat": 0,
                "player_name": name,
            },
        )
        assert r.status_code == 201, r.text
        doc: dict[str, Any] = r.json()
        doc["tokens"] = [doc["token"]]
        for seat, name in zip(range(1, humans), ("Uma", "Vic"), strict=False):
            j = http.post(f"/api/games/{doc['game']['id']}/join", json={"seat": seat, "name": name})
            assert j.status_code == 200, j.text
            doc["tokens"].append(j.json()["token"])
    return doc


def _state(server: ServerProcess, gid: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{server.url}/api/games/{gid}/state", headers=headers)
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def _stored(server: ServerProcess, gid: str) -> list[tuple[int, int]]:
    store = Store.open(server.db_url)
    moves = store.moves(gid)
    store.close()
    return moves


def _phone_check(page: Any, context: str, shot: str | None = None) -> None:
    page.set_viewport_size(PHONE)
    page.locator("[data-testid=prompt]").wait_for()
    check_layout(page, f"{context} at 390×844")
    scan_page(page, f"{context} at 390×844")
    if shot:
        page.evaluate("window.scrollTo(0, 0)")
        _shot(page, shot)
    page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (7, 3)])
def test_sw_whole_game_in_player_words_at_both_viewports(
    browser: Any, server: ServerProcess, players: int, seed: int
) -> None:
    doc = _create(server, players, seed)
    gid, token = doc["game"]["id"], doc["token"]
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    wire = Wire(page)
    page.goto(f"{server.url}/game/{gid}#token={token}")
    page.locator("body[data-your-turn='1']").wait_for()
    tag = f"sw-{players}p"
    _shot(page, f"{tag}-table.png")
    _phone_check(page, "at the start", f"{tag}-table-phone.png")
    moves = 0
    free_city_moves = 0
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            break
        shown = page.locator("body").get_attribute("data-view")
        scan_page(page, f"at move {moves}")
        check_layout(page, f"at move {moves}")
        prompt = page.locator("[data-testid=prompt]").inner_text()
        assert prompt.strip(), "the prompt says what to do"
        if "Free City" in prompt:
            free_city_moves += 1  # SW-14.4: the controller chooses the Free City's move
        if moves in (7, 25):
            _phone_check(page, f"at move {moves}")
        _choose(page).click()
        page.locator(f"body:not([data-view='{shown}'])").wait_for()
        moves += 1
        wire.flush()
        assert moves < 80
    scores = page.locator("[data-testid=scores]")
    scores.wait_for()
    assert scores.locator("tr.total td").count() == players + (1 if players == 2 else 0)
    page.evaluate("window.scrollTo(0, 0)")
    scan_page(page, "at the end")
    check_layout(page, "at the end")
    _shot(page, f"{tag}-scores.png")
    _phone_check(page, "at the end", f"{tag}-scores-phone.png")
    log = page.locator("ol.log").inner_text()
    assert "Tester" in log  # names as typed
    assert "Player 1" not in log
    assert "Military points after Age III" in log  # SW-11: who got which token
    if players == 2:
        assert free_city_moves >= 9  # control alternates every turn (SW-14.3)
        assert page.locator("th.fc").inner_text() == "Free City"
        assert "Free City" in log
    page.context.close()
    assert not errors, errors


#: what the Russian and Ukrainian logs must say (the start of Age I, the last military line)
LOG_WORDS = {
    "ru": ("Начинается эпоха I:", "Военные очки после эпохи III"),
    "uk": ("Починається епоха I:", "Військові очки після епохи III"),
}


@pytest.mark.parametrize(("lang", "players", "seed"), [("ru", 2, 21), ("uk", 3, 5)])
def test_sw_whole_game_in_russian_and_ukrainian(
    browser: Any, server: ServerProcess, lang: str, players: int, seed: int
) -> None:
    """Issue 19: a whole game read in ``lang`` (a shared link with ``?lang=``), no English word
    on the page at any step, the log in the language from the start of Age I to the end."""
    name = "Анна"
    doc = _create(server, players, seed, name=name)
    gid, token = doc["game"]["id"], doc["token"]
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    page.goto(f"{server.url}/game/{gid}?lang={lang}#token={token}")
    page.locator("body[data-your-turn='1']").wait_for()
    first = page.locator("ol.log li").first.inner_text()
    assert LOG_WORDS[lang][0] in first, first  # a fresh table logs the start of Age I
    moves = 0
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            break
        shown = page.locator("body").get_attribute("data-view")
        scan_language(page, lang, f"at move {moves}")
        check_layout(page, f"at move {moves}")
        assert page.locator("[data-testid=prompt]").inner_text().strip()
        _choose(page).click()
        page.locator(f"body:not([data-view='{shown}'])").wait_for()
        moves += 1
        assert moves < 80
    page.locator("[data-testid=scores]").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    scan_language(page, lang, "at the end")
    check_layout(page, "at the end")
    log = page.locator("ol.log").inner_text()
    assert name in log
    assert LOG_WORDS[lang][1] in log
    page.context.close()
    assert not errors, errors


def test_sw_7_10_cancel_the_payment_leaves_everything_as_it_was(
    browser: Any, server: ServerProcess
) -> None:
    """A card with several ways to pay: choosing it opens the payment step, held tentatively
    (nobody else sees it, nothing is stored); Cancel takes the card back and the state, the
    stored log and the other seats' views are exactly as before."""
    doc = _create(server, 3, 1, humans=3)
    gid, (t0, t1, t2) = doc["game"]["id"], doc["tokens"]
    target = None
    with httpx.Client(base_url=server.url) as http:
        for _ in range(40):  # play on by the API until seat 0 may build with a payment choice
            for tok in (t1, t2, t0):
                st = _state(server, gid, tok)
                legal = st["view"]["legal"]
                if not legal:
                    continue
                labels = [a["label"] for a in legal]
                if tok == t0:
                    choice = [a for a in legal if "choose the payment next" in a["label"]]
                    if choice:
                        target = choice[0]["id"]
                        break
                    pick = [a for a in legal if a["label"].startswith("discard")] or legal
                else:  # the others build what they can: their production is for sale
                    pick = [
                        a
                        for a, label in zip(legal, labels, strict=True)
                        if label.startswith("build") and "choose" not in label
                    ] or legal
                r = http.post(
                    f"/api/games/{gid}/moves",
                    json={"seq": st["seq"], "action": pick[0]["id"]},
                    headers={"Authorization": f"Bearer {tok}"},
                )
                assert r.status_code == 200, r.text
            if target is not None:
                break
    assert target is not None, "seed 1 should offer seat 0 a payment choice"
    before = {
        "mine": _state(server, gid, t0),
        "other": _state(server, gid, t1),
        "third": _state(server, gid, t2),
        "spectator": _state(server, gid, None),
        "stored": _stored(server, gid),
    }
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    wire = Wire(page)
    page.goto(f"{server.url}/game/{gid}#token={t0}")
    page.locator("body[data-your-turn='1']").wait_for()
    hand = page.locator("[data-testid=hand-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    log_lines = page.locator("ol.log li").count()
    page.locator(f"button.act[data-action='{target}']").click()
    page.locator("[data-testid=payment-choice]").wait_for()
    scan_page(page, "in the payment step")
    check_layout(page, "in the payment step")
    cancel = page.locator("[data-testid=prompt] [data-testid=cancel]")
    assert cancel.is_visible()  # the way back is in the prompt bar, in view
    _shot(page, "sw-payment-cancel.png")
    _phone_check(page, "in the payment step", "sw-payment-cancel-phone.png")
    # held, not stored, seen by nobody else
    assert _stored(server, gid) == before["stored"]
    assert _state(server, gid, t1)["view"] == before["other"]["view"]
    assert _state(server, gid, t2)["view"] == before["third"]["view"]
    assert _state(server, gid, None)["view"] == before["spectator"]["view"]
    held = _state(server, gid, t0)
    assert held["tentative"] == 1
    card = CARDS[target % len(CARDS)].id
    assert any(
        c.get("card") == card and "choosing_payment" in c
        for c in held["view"]["commitments"].values()
    )
    shown = page.locator("body").get_attribute("data-view")
    cancel.click()
    page.locator(f"body:not([data-view='{shown}'])").wait_for()
    page.locator("[data-testid=hand-card]").first.wait_for()
    assert page.locator("[data-testid=payment-choice]").count() == 0
    after_hand = page.locator("[data-testid=hand-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(after_hand) == sorted(hand)
    assert page.locator("ol.log li").count() == log_lines  # no trace in the log
    mine = _state(server, gid, t0)
    assert mine["tentative"] == 0
    assert mine["view"] == before["mine"]["view"]
    assert _state(server, gid, t1)["view"] == before["other"]["view"]
    assert _state(server, gid, t2)["view"] == before["third"]["view"]
    assert _state(server, gid, None)["view"] == before["spectator"]["view"]
    assert _stored(server, gid) == before["stored"]
    # the card can be chosen again, and paid for this time
    page.locator(f"button.act[data-action='{target}']").click()
    page.locator("[data-testid=payment-choice] button.payopt").first.wait_for()
    shown = page.locator("body").get_attribute("data-view")
    page.locator("[data-testid=payment-choice] button.payopt").first.click()
    page.locator(f"body:not([data-view='{shown}'])").wait_for()
    assert len(_stored(server, gid)) == len(before["stored"]) + 2  # the card and its payment
    wire.flush()
    page.context.close()
    assert not errors, errors


def _hand(page: Any) -> list[str]:
    return sorted(
        page.locator("[data-testid=hand-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )


def test_a_push_while_our_move_is_in_flight_does_not_offer_our_turn_again(
    browser: Any, server: ServerProcess
) -> None:
    """The page's own move is on its way (held here at the network) when another seat's move is
    pushed: the table drawn from that push is this seat's turn without the move just made, so the
    page must not say "your turn" (``data-your-turn``) until the move's reply is shown; a test or
    player acting on it would choose twice. Then the reply shows the next turn as usual."""
    doc = _create(server, 3, 4, humans=3)
    gid, (t0, t1, _t2) = doc["game"]["id"], doc["tokens"]
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    page.goto(f"{server.url}/game/{gid}#token={t0}")
    page.locator("body[data-your-turn='1']").wait_for()
    held: list[Any] = []
    page.route("**/moves*", lambda route: held.append(route))
    shown = page.locator("body").get_attribute("data-view")
    _choose(page).click()
    page.locator("#app.busy").wait_for(state="attached")
    for _ in range(40):  # the request is held
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    assert page.locator("body").get_attribute("data-your-turn") == "0"
    other = _state(server, gid, t1)
    pick = other["view"]["legal"][-1]["id"]  # the other seat sells a card
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            f"/api/games/{gid}/moves",
            json={"seq": other["seq"], "action": pick},
            headers={"Authorization": f"Bearer {t1}"},
        )
        assert r.status_code == 200, r.text
    page.locator(f"body:not([data-view='{shown}'])").wait_for()  # the push is drawn
    assert page.locator("#app.busy").count() == 1
    assert page.locator("body").get_attribute("data-your-turn") == "0"
    assert page.locator("body").get_attribute("data-busy") == "1"
    held[0].continue_()
    page.unroute("**/moves*")
    page.locator("#app:not(.busy)").wait_for(state="attached")
    page.locator(f"body[data-seq='{other['seq'] + 2}']").wait_for(state="attached")
    mine = _state(server, gid, t0)
    assert mine["seq"] == other["seq"] + 2  # both moves stored, ours once
    expected = "1" if mine["view"]["legal"] else "0"
    assert page.locator("body").get_attribute("data-your-turn") == expected
    page.context.close()
    assert not errors, errors


def test_hot_seat_two_people_at_one_browser_never_see_each_others_hand(
    browser: Any, server: ServerProcess
) -> None:
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    page.goto(server.url + "/")
    page.locator("body[data-ready='1']").wait_for()
    page.select_option("#players", "3")
    page.fill("#player-name", "Ann")
    page.fill("#seed", "17")
    page.select_option("[data-testid=seat-kind-1]", "local")
    page.fill("[data-testid=seat-name-1]", "Bob")
    page.select_option("[data-testid=seat-kind-2]", "bot:normal")
    scan_page(page, "in the lobby")
    page.click("#create")
    page.wait_for_url("**/game/**")
    gid = page.url.rstrip("/").split("/")[-1]
    held = json.loads(page.evaluate("localStorage.getItem('civtable.seats')"))[gid]
    tokens = {s["seat"]: s["token"] for s in held["seats"]}
    assert set(tokens) == {0, 1}  # this browser holds both people's seats
    names = {0: "Ann", 1: "Bob"}
    handovers = 0
    for _ in range(8):  # four turns: each person chooses once per turn
        page.locator("[data-testid=handover], body[data-your-turn='1']").first.wait_for()
        if page.locator("[data-testid=handover]").count():
            seat = int(page.locator("[data-testid=handover]").get_attribute("data-seat") or -1)
            # the hand-over screen: nothing of anybody's hand on the page
            assert page.locator("[data-testid=hand-card]").count() == 0
            assert page.locator("section.city").count() == 0
            text = page.locator("body").inner_text()
            assert f"Pass the device to {names[seat]}" in text
            for other in tokens:
                for cid in _state(server, gid, tokens[other])["view"]["hand"]:
                    assert CARDS[CARD_INDEX[cid]].name not in text
            scan_page(page, "on the hand-over screen")
            if handovers == 0:
                _shot(page, "sw-hotseat-handover.png")
            handovers += 1
            page.click("[data-testid=handover-ready]")
            page.locator("body[data-your-turn='1']").wait_for()
        who = page.locator("#whoami").inner_text()
        seat = 0 if "Ann" in who else 1
        other = 1 - seat
        mine = _state(server, gid, tokens[seat])["view"]["hand"]
        theirs = _state(server, gid, tokens[other])["view"]["hand"]
        if not page.locator("[data-testid=payment-choice]").count():
            assert _hand(page) == sorted(mine), who  # the seat to move sees its own hand only
        only_theirs = set(theirs) - set(mine)
        assert not only_theirs & set(
            page.locator("section.decision [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
        )
        scan_page(page, f"{names[seat]} to move")
        shown = page.locator("body").get_attribute("data-view")
        _choose(page).click()
        page.locator(f"body:not([data-view='{shown}'])").wait_for()
    assert handovers >= 4
    page.context.close()
    assert not errors, errors


def test_docs_render_every_operation_offline(browser: Any, server: ServerProcess) -> None:
    spec = httpx.get(f"{server.url}/openapi.json").json()
    assert spec["openapi"].startswith("3.1")
    operations = [(method.upper(), path) for path, item in spec["paths"].items() for method in item]
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    outside: list[str] = []
    page.on(
        "request", lambda r: r.url.startswith(server.url) or outside.append(r.url)
    )  # nothing from elsewhere
    page.goto(f"{server.url}/docs")
    page.locator(".opblock").first.wait_for()
    assert "does not specify a valid version field" not in page.locator("body").inner_text()
    shown = page.locator(".opblock").evaluate_all(
        "els => els.map(e => [e.querySelector('.opblock-summary-method').textContent,"
        " e.querySelector('.opblock-summary-path').dataset.path])"
    )
    assert sorted(map(tuple, shown)) == sorted(operations)
    assert not outside, outside
    page.context.close()
    assert not errors, errors


def test_seat_storage_reads_the_single_seat_entries_written_before_hot_seat(
    browser: Any, server: ServerProcess
) -> None:
    """A browser that stored its seat in the old one-seat form ({seat, token, name, at}) still
    plays that seat and lists the game; taking a second seat keeps the first."""
    doc = _create(server, 3, 5)
    gid, token = doc["game"]["id"], doc["token"]
    errors: list[str] = []
    page = _new_page(browser, DESKTOP, errors)
    page.goto(server.url + "/")
    page.locator("body[data-ready='1']").wait_for()
    old = {gid: {"seat": 0, "token": token, "name": "Tester", "at": 1}}
    page.evaluate("doc => localStorage.setItem('civtable.seats', JSON.stringify(doc))", old)
    page.goto(f"{server.url}/game/{gid}")
    page.locator("body[data-your-turn='1']").wait_for()
    assert page.locator("#whoami").inner_text().startswith("you: Tester")
    assert page.locator("[data-testid=handover]").count() == 0  # one seat: no hand-over
    page.goto(server.url + "/")
    page.locator(f"#my-games li.game[data-game='{gid}']").wait_for()
    stored = page.evaluate(
        """gid => import('/static/js/api.js').then((api) => {
             api.rememberSeat('other-game', 2, 'tok2', 'Zed');
             return [api.seatsFor(gid), api.allTokens().length];
           })""",
        gid,
    )
    assert stored[0] == [{"seat": 0, "token": token, "name": "Tester"}]
    assert stored[1] == 2
    page.context.close()
    assert not errors, errors
