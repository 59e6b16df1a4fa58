"""7 Wonders in Russian and Ukrainian (issue 19): plural forms, whole games rendered without a
word of English, every log template in every language, and the Russian edition's card names."""

from __future__ import annotations

import random
from typing import Any

import pytest

from civtable import games, present
from civtable.games.seven_wonders import words
from civtable.games.seven_wonders.catalog import CARD_DOC, WONDER_DOC
from tests.browser.vocabulary import english_left, findings
from tests.seven_wonders.test_words import KINDS

GAME = games.get("seven-wonders")
LANGS = ("ru", "uk")
NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна")

#: (key, {lang: forms at 1, 2, 5, 21}) of the domain's count messages
PLURALS: list[tuple[str, dict[str, tuple[str, str, str, str]]]] = [
    ("sw.ui.hand_size", {
        "ru": ("1 карта на руке", "2 карты на руке", "5 карт на руке", "21 карта на руке"),
        "uk": ("1 карта в руці", "2 карти в руці", "5 карт у руці", "21 карта в руці"),
    }),
    ("sw.ui.discard_pile", {
        "ru": ("сброс: 1 карта", "сброс: 2 карты", "сброс: 5 карт", "сброс: 21 карта"),
        "uk": ("скид: 1 карта", "скид: 2 карти", "скид: 5 карт", "скид: 21 карта"),
    }),
    ("sw.n.shield", {
        "ru": ("1 щит", "2 щита", "5 щитов", "21 щит"),
        "uk": ("1 щит", "2 щити", "5 щитів", "21 щит"),
    }),
    ("sw.pay.bank", {
        "ru": ("1 монета в банк", "2 монеты в банк", "5 монет в банк", "21 монета в банк"),
        "uk": ("1 монета в банк", "2 монети в банк", "5 монет у банк", "21 монета в банк"),
    }),
    ("sw.res_n.S", {
        "ru": ("1 камень", "2 камня", "5 камней", "21 камень"),
        "uk": ("1 камінь", "2 камені", "5 каменів", "21 камінь"),
    }),
    ("sw.text.vp", {
        "ru": ("В конце игры дает 1 победное очко.", "В конце игры дает 2 победных очка.",
               "В конце игры дает 5 победных очков.", "В конце игры дает 21 победное очко."),
        "uk": ("Наприкінці гри дає 1 переможне очко.", "Наприкінці гри дає 2 переможні очки.",
               "Наприкінці гри дає 5 переможних очок.", "Наприкінці гри дає 21 переможне очко."),
    }),
    ("sw.log.discard", {
        "ru": ("Анна сбрасывает карту и получает 1 монету.",
               "Анна сбрасывает карту и получает 2 монеты.",
               "Анна сбрасывает карту и получает 5 монет.",
               "Анна сбрасывает карту и получает 21 монету."),
        "uk": ("Анна скидає карту й отримує 1 монету.", "Анна скидає карту й отримує 2 монети.",
               "Анна скидає карту й отримує 5 монет.", "Анна скидає карту й отримує 21 монету."),
    }),
]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("key", "forms"), PLURALS, ids=[k for k, _ in PLURALS])
def test_count_messages_take_the_three_plural_forms(
    key: str, forms: dict[str, tuple[str, ...]], lang: str
) -> None:
    tr = present.translator(lang)
    args = {"city": "Анна"} if key == "sw.log.discard" else {}
    assert tuple(tr.tn(key, n, **args) for n in (1, 2, 5, 21)) == forms[lang]


def _play(players: int, seed: int, sides: str) -> tuple[Any, list[tuple[int, Any]]]:
    """A fixed-seed game with the log on: the final state and every decision's (seat, view)."""
    state = GAME.new_game(players, seed, {"sides": sides})
    state.log = []  # type: ignore[attr-defined]
    rng = random.Random(seed)
    views: list[tuple[int, Any]] = [(0, state.view(0))]  # a fresh table (its log: Age I begins)
    while not state.is_terminal():
        for seat in state.to_move():
            legal = state.legal_actions(seat)
            if not legal:
                continue
            views.append((seat, state.view(seat)))
            state.apply(seat, rng.choice(legal))
    views += [(s, state.view(s)) for s in range(players)]
    return state, views


def _texts(w: dict[str, Any]) -> list[str]:
    out = [*w["legal"].values(), *w["log"], w["prompt"], *w["cities"], *w["reasons"].values()]
    out += [*w["chosen"].values(), *w.get("scores", {}).values()]
    out += [w[k] for k in ("stage_reason", "sell_reason") if k in w]
    return [t for t in out if t]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("players", "seed", "sides"), [(2, 3, "B"), (3, 7, "A"), (7, 4, "B")])
def test_a_whole_game_renders_without_english(
    lang: str, players: int, seed: int, sides: str
) -> None:
    """Every decision of a fixed-seed game and the final views, through present.render in
    ``lang``: no Latin word but the allowed ones (Roman numerals, the board sides A and B), no
    engine vocabulary, and the log opens with Age I."""
    state, views = _play(players, seed, sides)
    seen = set()
    for seat, view in views:
        ctx = present.Ctx(present.translator(lang), NAMES[:players], seat)
        w = present.render("seven-wonders", view, ctx)
        assert len(w["log"]) == len(view["log"])
        texts = [("words", t) for t in _texts(w)]
        hits = english_left(texts, lang) + findings(texts)
        assert not hits, hits[:5]
        seen.update(e["kind"] for e in view["log"])
    assert state.log[0]["kind"] == "age"
    assert {"age", "build", "battle", "military", "game_over"} <= seen


#: an event of every kind the rules log (SW-3 .. SW-14), with sample values
SAMPLES: list[dict[str, Any]] = [
    {"kind": "age", "age": 1, "direction": "left"},
    {"kind": "age", "age": 2, "direction": "right"},
    {"kind": "pay", "city": 1, "left": 2, "right": 1, "bank": 1},
    {"kind": "build", "city": 0, "card": "scriptorium"},
    {"kind": "build", "city": 1, "card": "library", "how": "chain"},
    {"kind": "build", "city": 2, "card": "palace", "how": "olympia"},
    {"kind": "stage", "city": 2, "stage": 2},
    {"kind": "discard", "city": 0, "coins": 3},
    {"kind": "discarded", "city": 0, "card": "theater", "seat": 0},
    {"kind": "income", "city": 1, "coins": 5, "card": "vineyard"},
    {"kind": "income", "city": 1, "coins": 9, "stage": 2},
    {"kind": "hali_build", "city": 2, "card": "gardens"},
    {"kind": "hali_pass", "city": 2},
    {"kind": "hali_nothing", "city": 2},
    {"kind": "seventh", "city": 0},
    {"kind": "battle", "age": 3, "city": 0, "other": 1, "shields": 4, "other_shields": 1,
     "points": 5},
    {"kind": "battle", "age": 1, "city": 1, "other": 2, "shields": 2, "other_shields": 2,
     "points": 0},
    {"kind": "military", "age": 3, "points": [4, -2, 0]},
    {"kind": "game_over"},
]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_every_log_template_formats_in_every_language(lang: str) -> None:
    assert {e["kind"] for e in SAMPLES} == KINDS
    view = {
        "cities": [
            {"seat": 0, "board": "giza"},
            {"seat": 1, "board": "rhodes"},
            {"seat": 2, "board": "babylon"},
        ]
    }
    ctx = present.Ctx(present.translator(lang), NAMES[:3], 0)
    lines = [words.log_line(view, e, ctx) for e in SAMPLES]
    texts = [("log", line) for line in lines]
    assert not english_left(texts, lang) + findings(texts)
    assert all(line.strip() for line in lines)
    english = [words.log_line(view, e, present.Ctx(names=NAMES[:3], viewer=0)) for e in SAMPLES]
    assert all(a != b for a, b in zip(lines, english, strict=True))


def test_russian_card_list_gives_the_russian_editions_names() -> None:
    """The names the Russian rulebook prints (shared/seeds/001_…: its examples, the Age III
    notes and the guild list), and the card texts in Russian from the table's templates."""
    entries = {e["name"]: e for e in words.card_entries(present.translator("ru"))}
    printed = [
        "Хранилище манускриптов", "Библиотека", "Суд", "Лесной склад", "Конюшни", "Аптека",
        "Муниципалитет", "Торговая палата", "Гильдия судовладельцев", "Гильдия ученых",
        "Восточная торговая фактория", "Колосс Родосский (Родос)", "Пирамиды Гизы (Гиза)",
    ]  # fmt: skip
    for name in printed:
        assert name in entries, name
    scriptorium = entries["Хранилище манускриптов"]
    assert scriptorium["text"] == "Научный символ: табличка."
    assert scriptorium["cost"] == "1 папирус"
    assert scriptorium["age"] == "Эпоха I"
    assert scriptorium["chains"] == "Дает бесплатную постройку: Суд и Библиотека"
    assert entries["Муниципалитет"]["text"] == "В конце игры дает 6 победных очков."
    assert len(entries) == len(CARD_DOC["cards"]) - 3 + len(WONDER_DOC["boards"])  # 3 repeats
    texts = [("entry", v) for e in entries.values() for v in e.values() if v]
    assert not english_left(texts, "ru") + findings(texts)


def test_every_card_entry_has_player_words_in_english_too() -> None:
    entries = words.card_entries(present.translator("en"))
    assert len(entries) == len(CARD_DOC["cards"]) + len(WONDER_DOC["boards"])
    assert all(e["name"] and e["text"] and e["kind"] for e in entries)
    loom = next(e for e in entries if e["name"] == "Loom")
    assert loom == {
        "name": "Loom",
        "kind": "manufactured goods (grey)",
        "age": "Age I",
        "cost": "free",
        "text": "Produces 1 loom each turn.",
        "chains": "",
    }
    texts = [("entry", v) for e in entries for v in e.values() if v]
    assert not findings(texts)


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_speaks_the_readers_language(lang: str) -> None:
    """``civtable play`` / ``replay`` (terminal.py): the header, the cities, the seat's own board
    and the final score in ``lang``, with the content names of the data."""
    from rich.console import Console

    from civtable import termkit
    from civtable.games.seven_wonders import terminal

    state, _ = _play(3, 7, "A")
    termkit.set_reader(NAMES[:3], lang)
    try:
        console = Console(width=200, record=True)
        view = state.view(0)
        console.print(terminal.header_text(view))
        console.print(terminal.cities_table(state, view))
        console.print(terminal.own_city_panel(state, view))
        console.print(terminal.result_table(state))
        text = console.export_text()
    finally:
        termkit.set_reader(())
    assert not english_left([("terminal", line) for line in text.splitlines()], lang)
    wonder = words.wonder_name(view["cities"][0]["board"], present.translator(lang))
    assert wonder in text
    assert present.translator(lang).t("sw.score.treasury") in text
