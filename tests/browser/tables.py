"""Shared steps of the browser tests that play a whole game through a game's table view."""

from __future__ import annotations

import random
from typing import Any

import httpx

from civtable import games
from civtable.bots import make_bot
from civtable.core.api import State
from civtable.server.hub import rebuild
from civtable.store import Store
from tests.browser.test_play import Wire, _new_page
from tests.server.procs import ServerProcess

DESKTOP = {"width": 1280, "height": 900}
#: what a player can click in the dedicated table views: decision buttons and map targets
CLICKABLE = "button.act[data-action]:not([disabled]), svg.hexmap g.cell.target"


def create_game(
    server: ServerProcess,
    game: str,
    players: int,
    seed: int,
    bots: list[str],
    options: dict[str, Any] | None = None,
    player_name: str = "Tester",
) -> tuple[str, str]:
    """A game with seat 0 taken by a person named ``player_name`` and the other seats by
    ``bots``; (id, token)."""
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/games",
            json={
                "game": game,
                "players": players,
                "seed": seed,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in bots],
                "take_seat": 0,
                "player_name": player_name,
                "options": options or {},
            },
        )
        assert r.status_code == 201, r.text
        doc = r.json()
    return doc["game"]["id"], doc["token"]


#: click one of the enabled move buttons of the generic table (chosen by a number in [0, 1));
#: returns how many there were and the decision's heading, or 0 when none is there now
_CLICK_ONE = """(r) => {
  const b = [...document.querySelectorAll('button.act.generic:not([disabled])')];
  const h3 = document.querySelector(".decision h3");
  if (!b.length || !h3) return [0, ""];
  const label = h3.textContent;
  b[Math.floor(r * b.length)].click();
  return [b.length, label];
}"""


def click_generic_move(page: Any, rng: random.Random, tries: int = 60) -> tuple[int, str]:
    """Click a random enabled move of the generic table, picking and clicking in one step
    inside the page: pushes of other seats' moves redraw the table (and a push drawn while our
    previous move was in flight shows disabled buttons until its reply arrives), so a button
    found in one look may be gone at the next. Returns (buttons offered, decision heading)."""
    for _ in range(tries):
        count, label = page.evaluate(_CLICK_ONE, rng.random())
        if count:
            return int(count), str(label)
        page.wait_for_timeout(250)
    raise AssertionError("our turn, but no move is offered")


def open_table(
    browser: Any, server: ServerProcess, gid: str, token: str, errors: list[str]
) -> tuple[Any, Wire]:
    """The game's page for the seat of ``token``, with every payload recorded."""
    page = _new_page(browser, DESKTOP, errors)
    wire = Wire(page)
    page.goto(f"{server.url}/game/{gid}#token={token}")
    return page, wire


def stored_payloads(
    server: ServerProcess, gid: str, wire: Wire, key: Any = lambda p: int(p["seq"])
) -> tuple[Any, list[tuple[int, int]], list[Any]]:
    """The stored game (record, move log) and the state payloads of it the page received,
    sorted by ``key`` (default: sequence number)."""
    wire.flush()
    store = Store.open(server.db_url)
    record, log = store.get_game(gid), store.moves(gid)
    store.close()
    payloads = sorted(
        (
            p
            for p in wire.payloads
            if isinstance(p, dict) and p.get("type") == "state" and p.get("id") == gid
        ),
        key=key,
    )
    return record, log, payloads


def check_payloads_are_views(server: ServerProcess, gid: str, wire: Wire) -> int:
    """Every state payload the page got is exactly its seat's view at that sequence number."""
    record, log, payloads = stored_payloads(server, gid, wire)
    state = rebuild(record, [])  # replayed once, forward, with the event log on
    applied = 0
    for payload in payloads:
        while applied < payload["seq"]:
            state.apply(*log[applied])
            applied += 1
        assert payload["view"] == state.view(payload["you"]), f"seq {payload['seq']}"
    return len(payloads)


class Planner:
    """Chooses the clicks of a whole game like the heuristic bot would, from the game's own move
    log (read from the database the server writes), so a test plays a sensible, finite game.

    Every chosen action id must be on the page as an element carrying ``data-action``: a button
    or a highlighted map space. A legal action the table view offers no element for fails the
    test.
    """

    def __init__(self, server: ServerProcess, gid: str, seat: int = 0, seed: int = 1) -> None:
        self.db_url, self.gid, self.seat = server.db_url, gid, seat
        store = Store.open(self.db_url)
        record = store.get_game(gid)
        store.close()
        game = games.get(record.game)
        self.state: State = game.new_game(
            record.players, record.seed, game.upgrade_options(record.options)
        )
        self.done = 0
        self.bot = make_bot("heuristic", seed)

    def sync(self) -> State:
        """The stored game's position now (every move so far applied)."""
        store = Store.open(self.db_url)
        moves = store.moves(self.gid)
        store.close()
        for seat, action in moves[self.done :]:
            self.state.apply(seat, action)
        self.done = len(moves)
        return self.state

    def next_action(self) -> int:
        """The heuristic's choice for the seat in the position the page shows now."""
        return self.bot.choose(self.sync(), self.seat)


def play_by_planner(
    page: Any, wire: Wire, planner: Planner, max_clicks: int, before_click: Any = None
) -> tuple[int, int]:
    """Click the planner's choices until the game is over. Returns (clicks, map clicks).
    ``before_click(page, clicks, action)``, if given, runs before each click."""
    clicks = on_map = 0
    while True:
        page.locator("body[data-your-turn='1'], body[data-status='over']").first.wait_for()
        if page.locator("body").get_attribute("data-status") == "over":
            return clicks, on_map
        seq = page.locator("body").get_attribute("data-view")
        page.locator(CLICKABLE).first.wait_for()
        action = planner.next_action()
        element = page.locator(
            f"button.act[data-action='{action}']:not([disabled]), "
            f"svg.hexmap g.cell.target[data-action='{action}']"
        )
        assert element.count() >= 1, f"legal action {action} has no element on the page"
        if before_click is not None:
            before_click(page, clicks, action)
        if element.first.evaluate("e => e.tagName.toLowerCase()") == "g":
            on_map += 1
        element.first.click()
        page.locator(f"body:not([data-view='{seq}'])").wait_for()
        clicks += 1
        wire.flush()
        assert clicks < max_clicks, f"no end after {max_clicks} clicks"
