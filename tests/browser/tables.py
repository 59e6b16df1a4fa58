"""Shared steps of the browser tests that play a whole game through a game's table view."""

from __future__ import annotations

import random
from typing import Any

import httpx

from civtable.server.hub import rebuild
from civtable.store import Store
from tests.browser.test_play import Wire, _new_page
from tests.server.procs import ServerProcess

DESKTOP = {"width": 1280, "height": 900}
#: what a player can click in the dedicated table views: decision buttons and map targets
CLICKABLE = "button.act[data-action]:not([disabled]), svg.hexmap g.cell.target"
TARGETS = "svg.hexmap g.cell.target"


def create_game(
    server: ServerProcess, game: str, players: int, seed: int, bots: list[str]
) -> tuple[str, str]:
    """A game with seat 0 taken by a person and the other seats by ``bots``; (id, token)."""
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": game,
                "players": players,
                "seed": seed,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots],
                "take_seat": 0,
                "player_name": "Tester",
            },
        )
        assert r.status_code == 201, r.text
        doc = r.json()
    return doc["game"]["id"], doc["token"]


def open_table(
    browser: Any, server: ServerProcess, gid: str, token: str, errors: list[str]
) -> tuple[Any, Wire]:
    """The game's page for the seat of ``token``, with every payload recorded."""
    page = _new_page(browser, DESKTOP, errors)
    wire = Wire(page)
    page.goto(f"{server.url}/game/{gid}#token={token}")
    return page, wire


def play_to_the_end(
    page: Any, wire: Wire, rng: random.Random, max_clicks: int, on_target: Any = None
) -> tuple[int, int]:
    """Click seeded random choices until the game is over; map targets are preferred when the
    decision is a placement. Returns (clicks, clicks on map targets)."""
    clicks = on_map = 0
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            return clicks, on_map
        seq = page.locator("body").get_attribute("data-seq")
        targets = page.locator(TARGETS)
        if targets.count() and rng.random() < 0.9:
            if on_map == 0 and on_target is not None:
                on_target()
            on_map += 1
            targets.nth(rng.randrange(targets.count())).click()
        else:
            options = page.locator(CLICKABLE)
            assert options.count() >= 1, "our turn, but nothing to click"
            options.nth(rng.randrange(options.count())).click()
        page.locator(f"body:not([data-seq='{seq}'])").wait_for()
        clicks += 1
        wire.flush()
        assert clicks < max_clicks, f"no end after {max_clicks} clicks"


def check_payloads_are_views(server: ServerProcess, gid: str, wire: Wire) -> int:
    """Every state payload the page got is exactly its seat's view at that sequence number."""
    wire.flush()
    store = Store.open(server.db_url)
    record, log = store.get_game(gid), store.moves(gid)
    store.close()
    checked = 0
    for payload in wire.payloads:
        if not (
            isinstance(payload, dict)
            and payload.get("type") == "state"
            and payload.get("id") == gid
        ):
            continue
        state = rebuild(record, log[: payload["seq"]])
        assert payload["view"] == state.view(payload["you"]), f"seq {payload['seq']}"
        checked += 1
    return checked
