"""Suggest a move (issue 22): the bot's top three moves for a seat's own decision, searched from
that seat's view only, within the server's budget, allowed or not by the table's creator."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable import games
from civtable.bots.ismcts import IsmctsBot, parse_spec
from civtable.server.hub import Hub
from tests.server.helpers import auth, make_client

SPEC = "ismcts:30i"


def _game(client: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    r = client.post(
        "/api/games",
        json={
            "game": game,
            "players": len(seats),
            "seed": 5,
            "seats": seats,
            "take_seat": 0,
            "player_name": "Ann",
            **extra,
        },
    )
    assert r.status_code == 201, r.text
    return r.json()


def _wait_for_turn(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    for _ in range(400):
        p = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
        if p["view"] and p["view"].get("legal"):
            return p  # type: ignore[no-any-return]
    raise AssertionError("never our turn")


BOTS = [{"kind": "bot", "bot": "random"}] * 2


def _people(client: TestClient, game: str) -> tuple[str, list[str]]:
    """A three-person game (nobody moves but the test), suggestions allowed; (id, tokens)."""
    doc = _game(client, game, [{"kind": "human"}] * 3, suggestions=True)
    gid, tokens = doc["game"]["id"], [doc["token"]]
    for seat in (1, 2):
        r = client.post(f"/api/games/{gid}/join", json={"seat": seat, "name": f"P{seat}"})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return gid, tokens


@pytest.mark.parametrize(
    "game", ["seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus"]
)
def test_suggestions_are_legal_moves_of_that_seat_and_change_nothing(
    db_url: str, game: str
) -> None:
    with make_client(db_url, suggest_bot=SPEC) as client:
        gid, tokens = _people(client, game)
        views = [
            client.get(f"/api/games/{gid}/state?lang=en", headers=auth(t)).json() for t in tokens
        ]
        seat = next(i for i, p in enumerate(views) if p["view"].get("legal"))
        p, token = views[seat], tokens[seat]
        log_before = client.get(f"/api/games/{gid}/replay").json()
        r = client.post(
            f"/api/games/{gid}/suggest?lang=en", json={"seq": p["seq"]}, headers=auth(token)
        )
        assert r.status_code == 200, r.text
        s = r.json()
        assert s["seat"] == seat
        legal = {int(a["id"]) for a in p["view"]["legal"]}
        moves = s["moves"]
        assert len(moves) == min(3, len(legal))
        assert {m["action"] for m in moves} <= legal
        assert all(m["visits"] > 0 and 0.0 <= m["win_rate"] <= 1.0 for m in moves)
        for m in moves:  # labelled as the table labels the move
            assert m["label"] == p["words"]["legal"][str(m["action"])]
        assert s["iterations"] == 30
        for t, before in zip(tokens, views, strict=True):  # nobody's view changed
            after = client.get(f"/api/games/{gid}/state?lang=en", headers=auth(t)).json()
            assert (after["seq"], after["view"]) == (before["seq"], before["view"])
        assert client.get(f"/api/games/{gid}/replay").json() == log_before
        others = [t for i, t in enumerate(tokens) if not views[i]["view"].get("legal")]
        for t in others:  # a seat with no decision gets no suggestion
            r = client.post(f"/api/games/{gid}/suggest", json={"seq": p["seq"]}, headers=auth(t))
            assert r.status_code == 409


def test_suggestions_are_seeded_by_the_position(db_url: str) -> None:
    with make_client(db_url, suggest_bot=SPEC) as client:
        doc = _game(client, "deus", [{"kind": "human"}, *BOTS])
        gid, token = doc["game"]["id"], doc["token"]
        p = _wait_for_turn(client, gid, token)
        ask = lambda: client.post(  # noqa: E731
            f"/api/games/{gid}/suggest", json={"seq": p["seq"]}, headers=auth(token)
        ).json()
        assert ask() == ask()


def test_a_suggestion_is_the_same_for_two_hidden_states_with_the_same_view() -> None:
    """The search sees determinizations of the seat's view only: swapping the hidden cards for
    another arrangement with the same view gives the same suggestion (seeded)."""
    from civtable.core.rng import Rng

    for game_id in ("deus", "through-the-ages", "civilization-a-new-dawn"):
        state = games.get(game_id).new_game(3, seed=2)
        seat = state.to_move()[0]
        other = state.determinize(seat, Rng(99))
        assert other.view(seat) == state.view(seat)
        assert other.state_hash() != state.state_hash()
        one = IsmctsBot(parse_spec("60i"), seed=4).explain(state, seat, 3)
        two = IsmctsBot(parse_spec("60i"), seed=4).explain(other, seat, 3)
        assert one == two, game_id


def test_off_when_the_creator_says_so_or_for_several_people(db_url: str) -> None:
    with make_client(db_url, suggest_bot=SPEC) as client:
        off = _game(client, "deus", [{"kind": "human"}, *BOTS], suggestions=False)
        assert off["game"]["suggestions"] is False
        gid, token = off["game"]["id"], off["token"]
        p = _wait_for_turn(client, gid, token)
        r = client.post(f"/api/games/{gid}/suggest", json={"seq": p["seq"]}, headers=auth(token))
        assert r.status_code == 403
        assert r.json()["code"] == "suggestions_off"
        two = _game(client, "deus", [{"kind": "human"}, {"kind": "human"}, BOTS[0]])
        assert two["game"]["suggestions"] is False  # two people: off unless the creator allows
        allowed = _game(
            client, "deus", [{"kind": "human"}, {"kind": "human"}, BOTS[0]], suggestions=True
        )
        assert allowed["game"]["suggestions"] is True


def test_bad_requests_are_clear_errors_and_change_nothing(db_url: str) -> None:
    with make_client(db_url, suggest_bot=SPEC) as client:
        doc = _game(client, "deus", [{"kind": "human"}, *BOTS])
        gid, token = doc["game"]["id"], doc["token"]
        p = _wait_for_turn(client, gid, token)
        url = f"/api/games/{gid}/suggest"
        assert client.post(url, json={"seq": p["seq"]}).status_code == 401  # no token
        assert client.post(url, json={"seq": p["seq"]}, headers=auth("x" * 40)).status_code == 403
        r = client.post(url, json={"seq": p["seq"] + 5}, headers=auth(token))
        assert r.status_code == 409
        assert client.post(url, json={"seq": -1}, headers=auth(token)).status_code == 422
        assert client.post(url, json={}, headers=auth(token)).status_code == 422
        after = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
        assert after["seq"] == p["seq"]


def test_the_suggestion_bot_must_be_a_search(tmp_path: Any) -> None:
    from civtable.store import Store

    store = Store.open(f"sqlite:///{tmp_path}/x.db")
    with pytest.raises(ValueError, match="must be an ismcts spec"):
        Hub(store, suggest_bot="heuristic")
    store.close()


@pytest.mark.parametrize("game", ["seven-wonders", "civilization-a-new-dawn"])
def test_a_suggestion_from_a_bot_worker_process_is_the_one_searched_in_the_server(
    sqlite_url: str, tmp_path: Any, game: str
) -> None:
    """Issue 23: with bot worker processes the search runs there, on the state sent as JSON,
    and answers exactly what the in-process search answers."""
    answers = []
    for processes, url in ((0, sqlite_url), (1, f"sqlite:///{tmp_path / 'procs.db'}")):
        with make_client(url, suggest_bot=SPEC, bot_processes=processes) as client:
            gid, tokens = _people(client, game)
            p = _wait_for_turn(client, gid, tokens[0])
            r = client.post(
                f"/api/games/{gid}/suggest", json={"seq": p["seq"]}, headers=auth(tokens[0])
            )
            assert r.status_code == 200, r.text
            answers.append(r.json())
            hub = client.app.state.hub  # type: ignore[attr-defined]
            assert (hub._procs is not None) == bool(processes)
    assert answers[0] == answers[1]
    assert answers[0]["moves"]
