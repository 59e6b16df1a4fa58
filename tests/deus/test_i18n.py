"""Deus in Russian and Ukrainian (issue 19): plural forms, played games' views and every log kind
rendered with no English left, the content data (names and texts of the Russian rulebook) and
``card_entries`` for ``civtable cards deus --lang``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from civtable import present
from civtable.games.deus import words
from civtable.games.deus.catalog import CARDS, GODS
from civtable.present import content as cmod
from civtable.present import i18n
from tests.browser.vocabulary import english_left

from .scenario import new
from .test_words import GAMES, LOG_KINDS, clean, log_samples, random_game, strings

LANGS = ("ru", "uk")
#: players' names as people type them in these languages
NAMES = ("Анна", "Борис", "Вера", "Гриша")


def ctx(lang: str, seat: int | None, players: int) -> present.Ctx:
    return present.Ctx(present.translator(lang), NAMES[:players], seat)


def pending_common_words(lang: str) -> frozenset[str]:
    """The Latin words of the English ``common`` catalogue while ``lang`` has no ``common``
    catalogue yet (another helper's domain, merged separately); empty once it has one, so the
    check is then complete."""
    cat = i18n.catalog(lang)
    if "common" in set(cat.domain_of.values()):
        return frozenset()
    src = i18n.catalog("en")
    words_: set[str] = set()
    for key, text in src.messages.items():
        if src.domain_of[key] == "common":
            for form in text if isinstance(text, tuple) else (text,):
                words_ |= set(re.findall(r"[A-Za-z][A-Za-z'’-]*", form))
    words_.add("Deus")  # the game's name as the platform sends it (``game_name``)
    return frozenset(words_)


def no_english(texts: list[str], lang: str, where: str) -> None:
    """No Latin word left in ``texts`` but the allowed names (and, on a branch without the
    ``common`` catalogue of ``lang``, its English words)."""
    pending = pending_common_words(lang)
    left = [
        hit
        for hit in english_left([(where, t) for t in texts], lang)
        if not set(re.findall(r"'([^']+)'", hit.split(" in ", 1)[0])) <= pending
    ]
    assert not left, "\n".join(left[:10])


# --- plural forms: 1, 2, 5, 21 -------------------------------------------------------------------
PLURALS: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "ru": {
        "deus.n.gold": ("1 золотой", "2 золотых", "5 золотых", "21 золотой"),
        "deus.n.stone": ("1 камень", "2 камня", "5 камней", "21 камень"),
        "deus.n.wheat": ("1 пшеница", "2 пшеницы", "5 пшеницы", "21 пшеница"),
        "deus.n.buildings": ("1 постройка", "2 постройки", "5 построек", "21 постройка"),
        "deus.n.piece.army": ("1 армия", "2 армии", "5 армий", "21 армия"),
        "deus.n.piece.ship": ("1 корабль", "2 корабля", "5 кораблей", "21 корабль"),
        "deus.offer.draw": (
            "1 карта из колоды",
            "2 карты из колоды",
            "5 карт из колоды",
            "21 карта из колоды",
        ),
        "deus.ui.hand_n": ("1 карта в руке", "2 карты в руке", "5 карт в руке", "21 карта в руке"),
    },
    "uk": {
        "deus.n.gold": ("1 золотий", "2 золоті", "5 золотих", "21 золотий"),
        "deus.n.stone": ("1 камінь", "2 камені", "5 каменів", "21 камінь"),
        "deus.n.wheat": ("1 пшениця", "2 пшениці", "5 пшениці", "21 пшениця"),
        "deus.n.buildings": ("1 споруда", "2 споруди", "5 споруд", "21 споруда"),
        "deus.n.piece.army": ("1 армія", "2 армії", "5 армій", "21 армія"),
        "deus.n.piece.ship": ("1 корабель", "2 кораблі", "5 кораблів", "21 корабель"),
        "deus.offer.draw": (
            "1 карта з колоди",
            "2 карти з колоди",
            "5 карт з колоди",
            "21 карта з колоди",
        ),
        "deus.ui.hand_n": ("1 карта в руці", "2 карти в руці", "5 карт у руці", "21 карта в руці"),
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_deus_count_messages_have_three_plural_forms(lang: str) -> None:
    tr = present.translator(lang)
    for key, forms in PLURALS[lang].items():
        assert tuple(tr.tn(key, n) for n in (1, 2, 5, 21)) == forms, key


@pytest.mark.parametrize("lang", LANGS)
def test_deus_log_offer_line_agrees_with_its_count(lang: str) -> None:
    c = ctx(lang, 0, 2)
    e = {"kind": "offer", "player": 0, "god": 3, "top": "RED-01", "gold": 0, "piece": -1}
    lines = [words.log_line(None, {**e, "cards": n, "vp": n, "drawn": 0}, c) for n in (1, 2, 5)]
    card = {"ru": ("1 карту", "2 карты", "5 карт"), "uk": ("1 карту", "2 карти", "5 карт")}[lang]
    for line, want in zip(lines, card, strict=True):
        assert want in line, line
    assert "Анна" in lines[0]
    assert {"ru": "Марс", "uk": "Марс"}[lang] in lines[0]
    assert {"ru": "«Центурион»", "uk": "«Центуріон»"}[lang] in lines[0]


# --- whole played games and every log kind, no English left -----------------------------------
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_deus_played_game_views_render_with_no_english(
    lang: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    """Every 17th position of a fixed-seed game, seen by every seat and a spectator, rendered with
    ``present.render``: labels, log, prompt, hints, reasons, previews, gods, scores."""
    kinds: set[str] = set()
    positions = random_game(players, seed, options, every=17)
    for s in positions:
        for seat in [*range(players), None]:
            v = s.view(seat)
            w = present.render("deus", v, ctx(lang, seat, players))
            texts = strings(w)
            clean(texts, f"{lang} seat {seat}")
            no_english(texts, lang, f"{lang} seat {seat}")
            assert len(w["log"]) == len(v["log"])
        kinds |= {e["kind"] for e in s.log or []}
    assert positions[-1].is_terminal()
    assert "scores" in present.render("deus", positions[-1].view(0), ctx(lang, 0, players))
    assert {"build", "offer", "pay", "activate", "gain", "round", "game_over"} <= kinds


@pytest.mark.parametrize("lang", LANGS)
def test_deus_every_log_kind_renders_with_no_english(lang: str) -> None:
    """Every kind of entry the rules write (all of LOG_KINDS), with and without a view."""
    v = new(2).view(0)
    samples = log_samples()
    assert {e["kind"] for e in samples} == LOG_KINDS
    c = ctx(lang, 0, 2)
    for e in samples:
        e = {"round": 4, **e}
        for view in (v, None):
            line = words.log_line(view, e, c)
            assert line, e
            assert line != c.t("deus.log.unknown"), e
            clean([line], e["kind"])
            no_english([line], lang, e["kind"])
            if "player" in e:
                assert NAMES[e["player"]] in line


# --- content data and card entries --------------------------------------------------------------
def test_deus_content_names_are_the_russian_rulebooks() -> None:
    """The names the Russian rulebook prints (its "Эффекты карт" section), marked as such."""
    ru = cmod.content("deus", "ru")
    tr = present.translator("ru")
    printed = {
        "BRN-01": "Гильдия лесорубов",
        "GRN-09": "Кирпичное производство",
        "BLU-13": "Камбуз",
        "YEL-07": "Лаборатория (синяя)",
        "RED-03": "Боевые слоны",
        "RED-06": "Осадная башня",
    }
    for cid, name in printed.items():
        assert words.card_name(cid, tr) == name
        assert ru.origins[f"card.{cid}"] == "rulebook"
    assert words.god_name(1, tr) == "Минерва"  # the rulebook names Minerva (yellow)
    assert ru.origins["god.minerva"] == "rulebook"
    assert ru.origins["god.mars"] == "translated"
    uk = cmod.content("deus", "uk")
    assert set(uk.origins.values()) == {"translated"}  # no Ukrainian rulebook


def test_deus_card_entries_in_russian_give_the_rulebooks_names_and_texts() -> None:
    tr = present.translator("ru")
    entries = words.card_entries(tr)
    assert len(entries) == len(CARDS) + len(GODS)
    by_id = {e["id"]: e for e in entries}
    assert by_id["RED-01"]["name"] == "Центурион"
    assert by_id["RED-01"]["kind"] == "красная карта (военная)"
    assert by_id["RED-01"]["cost"] == "1 пшеница"
    assert by_id["BRN-05"]["name"] == "Торговая точка (лес)"
    assert by_id["BRN-05"]["text"] == "Получите 3 золотых за каждый контролируемый вами лес."
    assert by_id["PUR-11"]["text"].startswith("В конце игры получите по 4 ПО")
    assert by_id["minerva"]["name"] == "Минерва"
    assert by_id["minerva"]["kind"] == "бог (жёлтый)"
    for e in entries:
        assert e["name"]
        assert e["text"]
        assert e["kind"]
        no_english(list(e.values())[1:], "ru", e["id"])  # the id is not shown as a word


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_deus_card_entries_every_language(lang: str) -> None:
    tr = present.translator(lang)
    entries = words.card_entries(tr)
    assert [e["id"] for e in entries] == [c.id for c in CARDS] + [g.id for g in GODS]
    for c, e in zip(CARDS, entries, strict=False):
        assert e["text"] == words.effect_text(c, tr)
        assert e["copies"] == str(c.copies)
    if lang == "en":
        assert entries[0]["name"] == "Lumberjacks' Guild"
        assert entries[0]["text"] == "Gain 1 VP for each forest you occupy."
    else:
        no_english([e["text"] for e in entries] + [e["name"] for e in entries], lang, "cards")


@pytest.mark.parametrize("lang", LANGS)
def test_deus_server_catalogue_and_terminal_speak_the_language(lang: str) -> None:
    from civtable import termkit
    from civtable.games.deus import terminal
    from civtable.server.deus import catalog

    doc = catalog(lang)
    texts = [x for c in doc["cards"].values() for x in (c["name"], c["text"], c["cost_text"])]
    texts += [x for g in doc["gods"].values() for x in (g["name"], g["text"])]
    no_english(texts, lang, "server catalogue")
    termkit.set_reader(NAMES[:2], lang)
    try:
        j = terminal.catalog_json()
        no_english([c["name"] for c in j["cards"]] + [g["name"] for g in j["gods"]], lang, "json")
        s = new(2)
        header = terminal.header_text(s.view(0))
        no_english([header.replace("Деус", "")], lang, "header")
        assert "Анна" in header or "Борис" in header
    finally:
        termkit.set_reader()


def test_deus_template_texts_fall_back_for_a_language_without_content() -> None:
    """Without a content entry the effect text is made from the language's templates."""
    tr = present.translator("ru")
    c = CARDS[0]
    made = words._effect_template(c, tr)
    assert "ПО" in made
    assert "лес" in made
