"""Difficulty levels and the bot budget caps of a server (issues 22 and 23)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from civtable import games
from civtable.bots import LEVELS, BotLimitError, BotLimits, UnknownBotError, make_bot
from civtable.bots.heuristic import HeuristicBot
from civtable.bots.ismcts import IsmctsBot
from civtable.server.app import create_app
from tests.server.helpers import make_client


def test_levels_are_bots_in_their_own_right() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard", "expert"]
    easy, normal = make_bot("easy", 1), make_bot("normal", 1)
    assert isinstance(easy, HeuristicBot)
    assert easy.epsilon == pytest.approx(0.3)
    assert isinstance(normal, HeuristicBot)
    assert normal.epsilon == 0
    hard, expert = make_bot("hard", 1), make_bot("expert", 1)
    assert isinstance(hard, IsmctsBot)
    assert hard.config.seconds == 1.0
    assert isinstance(expert, IsmctsBot)
    assert expert.config.seconds == 5.0
    with pytest.raises(UnknownBotError, match="takes no options"):
        make_bot("hard:10s")


def test_easy_plays_legal_moves_and_differs_from_normal() -> None:
    state = games.get("seven-wonders").new_game(4, 3)
    easy, normal = make_bot("easy", 5), make_bot("normal", 5)
    picks_easy, picks_normal = [], []
    while not state.is_terminal():
        for seat in state.to_move():
            a, b = easy.choose(state, seat), normal.choose(state, seat)
            assert a in state.legal_actions(seat)
            picks_easy.append(a)
            picks_normal.append(b)
            state.apply(seat, b)
    assert picks_easy != picks_normal


@pytest.mark.parametrize("spec", ["heuristic:eps=2", "heuristic:x", "heuristic:eps=nan"])
def test_bad_heuristic_options_are_refused(spec: str) -> None:
    with pytest.raises(UnknownBotError, match="bad heuristic option"):
        make_bot(spec)


@pytest.mark.parametrize("spec", ["ismcts:infs", "ismcts:nans", "ismcts:-1s", "ismcts:0i"])
def test_unbounded_or_empty_budgets_are_refused(spec: str) -> None:
    with pytest.raises(UnknownBotError, match="budget"):
        make_bot(spec)


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("ismcts:1e9s", "at most 5 s"),
        ("ismcts:6s", "at most 5 s"),
        ("ismcts:99999999999i", "at most 20000"),
    ],
)
def test_limits_refuse_over_budget_specs(spec: str, why: str) -> None:
    with pytest.raises(BotLimitError, match=why):
        BotLimits().check(spec)


def test_limits_accept_levels_and_capped_specs() -> None:
    limits = BotLimits()
    for spec in ["random", *LEVELS, "heuristic", "ismcts:200ms", "ismcts:500i:clock=cpu"]:
        assert limits.check(spec) == spec
    strict = BotLimits(allow_custom=False)
    assert strict.check("hard") == "hard"
    with pytest.raises(BotLimitError, match="offers the bots random, easy"):
        strict.check("ismcts:200ms")
    with pytest.raises(UnknownBotError, match="unknown bot"):
        limits.check("nope")


@pytest.mark.parametrize("spec", ["ismcts:1e9s", "ismcts:infs", "ismcts:99999999999i"])
def test_server_refuses_over_limit_bots_with_422(sqlite_url: str, spec: str) -> None:
    with make_client(sqlite_url) as client:
        before = client.get("/api/games").json()["games"]
        r = client.post(
            "/api/games",
            json={
                "game": "seven-wonders",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": spec}, {"kind": "bot"}],
                "take_seat": 0,
            },
        )
        assert r.status_code == 422, r.text
        assert r.json()["code"] in ("bot_over_limit", "unknown_bot")
        assert client.get("/api/games").json()["games"] == before
        types = client.get("/api/game-types").json()
        assert types["bots"] == ["random", "easy", "normal", "hard", "expert"]


def test_limits_check_a_search_option_against_the_game() -> None:
    """``eval=NAME`` names one of the game's evaluations: checked when the game is known."""
    limits = BotLimits()
    assert limits.check("ismcts:1s:eval=first", "deus", 4) == "ismcts:1s:eval=first"
    with pytest.raises(UnknownBotError, match="use auto, none, first, lead"):
        limits.check("ismcts:1s:eval=nope", "deus", 4)
    with pytest.raises(UnknownBotError, match="has no such evaluation"):
        limits.check("ismcts:1s:eval=first", "seven-wonders", 3)


def test_server_refuses_an_unknown_evaluation_with_422(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        before = client.get("/api/games").json()["games"]
        r = client.post(
            "/api/games",
            json={
                "game": "deus",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:1s:eval=nope"}],
                "take_seat": 0,
            },
        )
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "unknown_bot"
        assert "use auto, none, first, lead" in r.json()["detail"]
        assert client.get("/api/games").json()["games"] == before


def test_server_bot_limits_are_configurable(sqlite_url: str) -> None:
    with TestClient(create_app(sqlite_url, bot_limits=BotLimits(max_seconds=0.5))) as client:
        r = client.post(
            "/api/games",
            json={
                "game": "seven-wonders",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:1s"}, {"kind": "bot"}],
            },
        )
        assert r.status_code == 422
        assert "at most 0.5 s" in r.json()["detail"]
