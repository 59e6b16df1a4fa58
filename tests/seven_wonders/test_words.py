"""7 Wonders in player words (games/seven_wonders/words.py, locale/en/seven_wonders.po).

Random games with the log on, rendered for every seat at every decision: every legal action gets
a label, every log event a line, and no rendered string carries engine vocabulary (the browser
tests' scanner, tests/browser/vocabulary.py). Plus the words of the cases a player asked for:
the military line says who won which token, payments name who gets the coins.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from civtable import games, present
from civtable.games.seven_wonders import words
from civtable.games.seven_wonders.actions import PAY, pay_action
from civtable.games.seven_wonders.catalog import CARD_DOC, WONDER_DOC
from tests.browser.vocabulary import findings

GAME = games.get("seven-wonders")
#: every kind of log event the rules emit (SW-3 .. SW-14)
KINDS = {
    "age", "pay", "build", "stage", "discard", "discarded", "income", "hali_build", "hali_pass",
    "hali_nothing", "seventh", "battle", "military", "game_over",
}  # fmt: skip


def _ctx(players: int, seat: int | None) -> present.Ctx:
    names = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Fay", "Gus")[:players]
    return present.Ctx(present.translator("en"), names, seat)


def _clean(texts: list[str]) -> None:
    hits = findings([("words", t) for t in texts])
    assert not hits, hits
    assert all(t.strip() for t in texts), texts


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (7, 4), (5, 5)])
def test_every_view_renders_in_player_words(players: int, seed: int) -> None:
    state = GAME.new_game(players, seed, {"sides": "B" if seed % 2 else "A"})
    state.log = []  # type: ignore[attr-defined]
    rng = random.Random(seed)
    while not state.is_terminal():
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            if not legal:
                continue
            view = state.view(seat)
            w = words.render(view, _ctx(players, seat))
            assert set(w["legal"]) == {str(a) for a in legal}  # every choice has a label
            _clean([*w["legal"].values(), w["prompt"], *w["reasons"].values()])
            state.apply(seat, rng.choice(legal))
    log = state.log  # type: ignore[attr-defined]
    for seat in (None, *range(players)):
        view = state.view(seat)
        w = words.render(view, _ctx(players, seat))
        assert len(w["log"]) == len(view["log"])
        _clean([*w["log"], w["prompt"], *w["scores"].values()])
        assert "Ann" in "".join(w["log"])  # names as typed, never "Player 1"
        assert "Player 1" not in "".join(w["log"])
    assert {e["kind"] for e in log} >= {"age", "pay", "build", "discard", "battle", "military"}
    assert {e["kind"] for e in log} <= KINDS


def test_every_log_kind_is_seen_over_many_games() -> None:
    seen: Counter[str] = Counter()
    for seed in range(12):
        players = 2 + seed % 6
        state = GAME.new_game(players, seed, {"sides": "B"})
        state.log = []  # type: ignore[attr-defined]
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in state.to_move():
                legal = state.legal_actions(seat)
                if legal:
                    state.apply(seat, rng.choice(legal))
        seen.update(e["kind"] for e in state.log)  # type: ignore[attr-defined]
        w = words.render(state.view(0), _ctx(players, 0))
        _clean(w["log"])
    assert KINDS - set(seen) <= {"hali_nothing", "seventh"}, seen  # rare powers


def test_sw_11_the_military_line_says_who_won_which_token() -> None:
    view = {"cities": [{"seat": 0}, {"seat": 1}, {"seat": 2}]}
    ctx = _ctx(3, None)
    win = {"kind": "battle", "age": 2, "city": 0, "other": 1, "shields": 1, "other_shields": 3,
           "points": 3}  # fmt: skip
    assert words.log_line(view, win, ctx) == (
        "Conflict: Bob (3 shields) defeats Ann (1 shield): Bob +3, Ann −1."
    )
    tie = {"kind": "battle", "age": 1, "city": 1, "other": 2, "shields": 1, "other_shields": 1,
           "points": 0}  # fmt: skip
    assert words.log_line(view, tie, ctx) == (
        "Conflict: Bob and Cleo tie with 1 shield each: no token."
    )
    total = {"kind": "military", "age": 3, "points": [6, -2, 0]}
    assert words.log_line(view, total, ctx) == (
        "Military points after Age III: Ann +6, Bob −2, and Cleo 0."
    )


def test_sw_7_payments_name_who_gets_the_coins_and_count_in_plurals() -> None:
    view = {"cities": [{"seat": None}, {"seat": 0}, {"seat": 1}]}  # 2 players: the Free City
    ctx = _ctx(2, 0)
    line = words.log_line(view, {"kind": "pay", "city": 1, "left": 1, "right": 2, "bank": 0}, ctx)
    assert line == "Ann pays 1 coin to Bob and 2 coins to Free City."
    one = words.log_line(view, {"kind": "income", "city": 0, "coins": 1, "card": "tavern"}, ctx)
    assert one == "Free City takes 1 coin (Tavern)."
    assert pay_action(1, 2) >= PAY


def test_card_texts_are_sentences_without_engine_words() -> None:
    tr = present.translator("en")
    texts = [words.effect_text(c["effect"], tr) for c in CARD_DOC["cards"]]
    texts += [
        words.effect_text(st["effect"], tr)
        for b in WONDER_DOC["boards"]
        for side in b["sides"].values()
        for st in side["stages"]
    ]
    _clean(texts)
    vineyard = next(c for c in CARD_DOC["cards"] if c["id"] == "vineyard")
    assert words.effect_text(vineyard["effect"], tr) == (
        "When built: 1 coin for each brown card in your city and your two neighbours' cities."
    )
    assert words.cost_text({"W": 2}, 1, tr) == "2 wood and 1 coin"
    assert words.cost_text({}, 0, tr) == "free"


@pytest.mark.parametrize("players", [2, 3, 7])
def test_sw_3_2_a_fresh_table_logs_the_start_of_age_one(players: int) -> None:
    """Age I starts inside new_game, before a log is switched on: switching the log on at the
    start records it, so a fresh table's log is not empty; the hash of the position is unchanged
    and Age II's start still follows in order."""
    state = GAME.new_game(players, 11, None)
    digest = state.state_hash()
    state.log = []  # type: ignore[attr-defined]
    assert state.log == [{"age": 1, "turn": 1, "kind": "age", "direction": "left"}]  # type: ignore[attr-defined]
    assert state.state_hash() == digest
    w = words.render(state.view(0), _ctx(players, 0))
    assert w["log"] == ["Age I begins: hands pass to the left."]
    assert state.copy().log == state.log  # type: ignore[attr-defined]
    rng = random.Random(1)
    while state.age == 1 and not state.is_terminal():  # type: ignore[attr-defined]
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    ages = [e["age"] for e in state.log if e["kind"] == "age"]  # type: ignore[attr-defined]
    assert ages == [1, 2]


def test_switching_the_log_on_mid_game_adds_nothing() -> None:
    state = GAME.new_game(3, 12, None)
    seat = state.to_move()[0]
    state.apply(seat, state.legal_actions(seat)[0])
    state.log = []  # type: ignore[attr-defined]
    assert state.log == []  # type: ignore[attr-defined]
