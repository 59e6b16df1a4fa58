"""Civilization in Russian and Ukrainian (issue 19): plurals, whole played games, content names.

The catalogues (``locale/{ru,uk}/civilization_a_new_dawn.po``) and the content data
(``data/i18n/{ru,uk}.json``) follow the Russian rulebook (``shared/seeds/000_…``) and the
Ukrainian one (``shared/seeds/003_…``). A real fixed-seed game with the log on is rendered for
every seat at many positions in both languages and must leave no English word on screen
(``english_left``: only the proper names of ``LATIN_ALLOWED``); every log kind the rules emit is
also rendered from a made-up event.
"""

from __future__ import annotations

from collections import Counter

import pytest

from civtable import games, present
from civtable.bots import make_bot
from civtable.core.api import JSON
from civtable.games.civilization_a_new_dawn import terminal, words
from civtable.server.civilization_a_new_dawn import catalog
from tests.browser.vocabulary import english_left, findings
from tests.civilization_a_new_dawn.test_words import SAMPLES, texts

GAME = games.get("civilization-a-new-dawn")
LANGS = ("ru", "uk")
NAMES = {"ru": ("Анна", "Борис", "Вера", "Глеб"), "uk": ("Оксана", "Богдан", "Тарас", "Леся")}


def common_english(lang: str) -> list[str]:
    """The English of the ``common`` messages this game's words use, while the ``common``
    catalogue of ``lang`` is not there yet (it is another helper's part of issue 19): their lines
    are left out of the scan until then, and scanned in full once it exists."""
    tr = present.translator(lang)
    keys = ("prompt.wait", "player.nobody", "ui.winner", "ui.winners")
    en = present.translator("en")
    return [en.t(k, players="").strip() for k in keys if tr.t(k, players="") == en.t(k, players="")]


def ctx(lang: str, players: int, seat: int | None) -> present.Ctx:
    return present.Ctx(present.translator(lang), names=NAMES[lang][:players], viewer=seat)


# --- plurals: three forms, 1 / 2 / 5 / 21 ---------------------------------------------------------
PLURALS = {
    "ru": {
        "civ.n.token": ("жетон контроля", "жетона контроля", "жетонов контроля", "жетон контроля"),
        "civ.n.trade": ("жетон торговли", "жетона торговли", "жетонов торговли", "жетон торговли"),
        "civ.n.space": ("клетка", "клетки", "клеток", "клетка"),
        "civ.n.caravan": ("караван", "каравана", "караванов", "караван"),
        "civ.ui.mature": ("зрелый город", "зрелых города", "зрелых городов", "зрелый город"),
        "civ.ui.friendly": (
            "дружественная клетка",
            "дружественные клетки",
            "дружественных клеток",
            "дружественная клетка",
        ),
    },
    "uk": {
        "civ.n.token": ("жетон контролю", "жетони контролю", "жетонів контролю", "жетон контролю"),
        "civ.n.trade": ("жетон торгівлі", "жетони торгівлі", "жетонів торгівлі", "жетон торгівлі"),
        "civ.n.space": ("гекс", "гекси", "гексів", "гекс"),
        "civ.n.caravan": ("караван", "каравани", "караванів", "караван"),
        "civ.ui.mature": (
            "розвинуте місто",
            "розвинуті міста",
            "розвинутих міст",
            "розвинуте місто",
        ),
        "civ.ui.friendly": ("дружній гекс", "дружні гекси", "дружніх гексів", "дружній гекс"),
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_count_messages_take_three_plural_forms_at_1_2_5_21(lang: str) -> None:
    tr = present.translator(lang)
    for key, forms in PLURALS[lang].items():
        got = tuple(tr.tn(key, n) for n in (1, 2, 5, 21))
        assert got == tuple(f"{n} {f}" for n, f in zip((1, 2, 5, 21), forms, strict=True)), key


@pytest.mark.parametrize("lang", LANGS)
def test_log_plurals_in_a_sentence(lang: str) -> None:
    s = GAME.new_game(2, 1, {})
    view = s.view(0)
    view["log"] = [
        {"kind": "spend", "player": 1, "card": "currency", "n": n} for n in (1, 2, 5, 21)
    ]
    lines = words.render(view, ctx(lang, 2, 0))["log"]
    want = {
        "ru": ("1 жетон торговли", "2 жетона торговли", "5 жетонов торговли", "21 жетон торговли"),
        "uk": ("1 жетон торгівлі", "2 жетони торгівлі", "5 жетонів торгівлі", "21 жетон торгівлі"),
    }[lang]
    for line, part in zip(lines, want, strict=True):
        assert part in line, line
        assert line.startswith(NAMES[lang][1]), line


# --- a whole played game in each language --------------------------------------------------------
def played_game(players: int, seed: int, map_: str) -> list[tuple[int, JSON]]:
    """(step, view) of every seat and a spectator every few steps of a heuristic game."""
    s = GAME.new_game(players, seed, {"map": map_})
    s.log = []
    bots = [make_bot("heuristic", seed + k) for k in range(players)]
    out: list[tuple[int, JSON]] = []
    step = 0
    while not s.is_terminal() and step < 3000:
        seat = s.to_move()[0]
        if step % 7 == 0:
            out += [(step, s.view(v)) for v in (None, *range(players))]
        s.apply(seat, bots[seat].choose(s, seat))
        step += 1
    out += [(step, s.view(v)) for v in (None, *range(players))]
    return out


@pytest.fixture(scope="module")
def game_views() -> list[tuple[int, JSON]]:
    return played_game(3, 5, "standard_random") + played_game(2, 3, "first_game")


@pytest.mark.parametrize("lang", LANGS)
def test_a_played_game_leaves_no_english_in_ru_and_uk(
    lang: str, game_views: list[tuple[int, JSON]]
) -> None:
    hits: list[str] = []
    kinds: Counter[str] = Counter()
    pending = common_english(lang)
    for step, view in game_views:
        w = words.render(view, ctx(lang, len(view["player_state"]), view.get("seat")))
        found = [(k, v) for k, v in texts(w) if not any(p and p in v for p in pending)]
        hits += findings(found) + [f"step {step}: {h}" for h in english_left(found, lang)]
        kinds.update(str(e["kind"]) for e in view.get("log") or [])
    assert not hits, "\n".join(sorted(set(hits))[:20])
    # the games reached the common kinds of events, and the game ended
    assert {"resolve", "place", "city", "dial", "event_dial", "attack", "combat"} <= set(kinds)
    assert game_views[-1][1]["over"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_log_kind_renders_in_ru_and_uk_without_english(lang: str) -> None:
    s = GAME.new_game(2, 1, {})
    view = s.view(0)
    view["log"] = list(SAMPLES)
    lines = words.render(view, ctx(lang, 2, 0))["log"]
    fallback = present.translator(lang).t("civ.log.other")
    assert fallback not in lines
    assert not english_left([("log", line) for line in lines], lang)
    assert not findings([("log", line) for line in lines])
    english = words.render(view, present.Ctx(present.translator("en"), names=("A", "B")))["log"]
    assert all(a != b for a, b in zip(lines, english, strict=True))


@pytest.mark.parametrize("lang", LANGS)
def test_board_references_use_the_languages_letters(lang: str) -> None:
    s = GAME.new_game(4, 3, {})
    w = words.render(s.view(None), ctx(lang, 4, None))
    letters = "".join(letter for _, letter in w["rows"])
    assert letters, w["rows"]
    assert all("А" <= ch <= "я" for ch in letters), letters
    assert len(set(w["refs"])) == len(w["refs"])
    assert w["refs"][0][0] in letters


@pytest.mark.parametrize("lang", LANGS)
def test_web_catalogue_and_terminal_speak_the_language(lang: str) -> None:
    cat = catalog(lang)
    found: list[tuple[str, str]] = []
    for group in ("focus_cards", "leaders", "wonders", "city_states", "natural_wonders"):
        for cid, entry in cat[group].items():
            for k, v in entry.items():
                if k in ("name", "text", "leader", "civilization", "ability"):
                    found.append((f"{group} {cid} {k}", str(v)))
    for kid, entry in cat["diplomacy"].items():
        found += [(f"diplomacy {kid}", entry["name"]), (f"diplomacy {kid}", entry["text"])]
    for vid, agendas in cat["victory_cards"].items():
        found += [(f"victory {vid}", a["name"] + " " + a["text"]) for a in agendas]
    assert not english_left(found, lang)
    table = terminal.cards_table(present.Ctx(present.translator(lang)))
    assert not english_left([("title", str(table.title))], lang)


# --- content names the rulebooks print ------------------------------------------------------------
#: names printed by the Russian rulebook (000_…) and the Ukrainian one (003_…)
RULEBOOK_NAMES = {
    "ru": {
        "Заморская торговля",  # Foreign Trade, "«Заморская торговля» (Foreign Trade)"
        "Обработка железа",  # Iron Working, the combat example
        "Гончарное дело",  # Pottery, the city-building example
        "Полет",  # Flight, the translator's note on tech levels
        "Запретный дворец",  # Forbidden City, the wonder-building example
        "Сеул",  # the caravan example
    },
    "uk": {
        "Зовнішня торгівля",  # "Foreign Trade" (Зовнішня торгівля)
        "Металургія",  # "Iron Working" (Металургія)
        "Гончарна справа",  # "Pottery" (Гончарна справа)
        "Політ",  # "Flight" (Політ)
        "Заборонене місто",  # Заборонене місто (Forbidden City)
        "Сеул",  # Сеул, наукове місто-держава
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_card_entries_give_the_rulebooks_names(lang: str) -> None:
    entries = words.card_entries(present.translator(lang))
    names = {e["name"] for e in entries}
    assert RULEBOOK_NAMES[lang] <= names
    assert all(e["name"] and e["text"] and e["kind"] for e in entries)
    assert len(entries) == len(words.card_entries(present.translator("en")))
    assert not english_left([(e["name"], e["name"] + " " + e["text"]) for e in entries], lang)
    cat = present.content.content("civilization_a_new_dawn", lang)
    for key in ("card.foreign_trade", "card.iron_working", "wonder.forbidden_city"):
        assert cat.origins[key] == "rulebook"
    assert cat.origins["card.early_empire"] == "translated"


def test_russian_agenda_names_are_the_rulebooks() -> None:
    names = {n for v in words.content("ru").agendas.values() for n in v}
    assert {"Цивилизованный", "Хапуга", "Параноик", "Технофил", "Защитник природы"} <= names
