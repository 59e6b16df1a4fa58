"""Game content in every language (issue 19): complete, nothing extra, origins marked."""

from __future__ import annotations

import pytest

from civtable import present
from civtable.present import content as cmod
from civtable.present.i18n import placeholders

GAMES = ("seven_wonders", "through_the_ages", "civilization_a_new_dawn", "deus")
GAME_IDS = {
    "seven_wonders": "seven-wonders",
    "through_the_ages": "through-the-ages",
    "civilization_a_new_dawn": "civilization-a-new-dawn",
    "deus": "deus",
}
OTHER_LANGS = [lang for lang in present.languages() if lang != present.SOURCE_LANGUAGE]


def _english(pkg: str) -> dict[str, str]:
    words = present.words_module(GAME_IDS[pkg])
    assert words is not None, pkg
    assert hasattr(words, "content_english"), f"{pkg}.words needs content_english()"
    eng = words.content_english()
    assert eng
    assert all(isinstance(v, str) and v for v in eng.values())
    return dict(eng)


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("pkg", GAMES)
def test_every_content_entry_exists_in_every_language(pkg: str, lang: str) -> None:
    english = _english(pkg)
    cat = cmod.content(pkg, lang)
    missing = sorted(set(english) - set(cat.texts))
    extra = sorted(set(cat.texts) - set(english))
    assert not missing, f"{pkg} {lang}: {len(missing)} missing, e.g. {missing[:5]}"
    assert not extra, f"{pkg} {lang}: unknown keys {extra[:5]}"
    for key, text in cat.texts.items():
        assert placeholders(text) == placeholders(english[key]), (pkg, lang, key)
    assert set(cat.origins.values()) <= set(cat.sources), f"{pkg} {lang}: name every source"


def test_a_missing_content_file_falls_back_to_english() -> None:
    cat = cmod.content("seven_wonders", "xx")
    assert cat.texts == {}
    assert cat.get("card.anything", "Loom") == "Loom"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("{", "not JSON"),
        ("[]", "needs an object with 'entries'"),
        ('{"language": "uk", "entries": {}}', "'language' must be 'ru'"),
        ('{"language": "ru", "entries": {"a": "b"}}', "entry 'a' must be an object"),
        ('{"language": "ru", "entries": {"a": {"text": " ", "from": "rulebook"}}}', "no text"),
        ('{"language": "ru", "entries": {"a": {"text": "б", "from": "guess"}}}', "'from' must"),
        ('{"language": "ru", "sources": [], "entries": {}}', "'sources' must"),
    ],
)
def test_malformed_content_files_are_clear_errors(text: str, match: str) -> None:
    with pytest.raises(cmod.ContentError, match=match):
        cmod.parse(text, "seven_wonders", "ru", "ru.json")


def test_parse_reads_texts_origins_and_sources() -> None:
    cat = cmod.parse(
        '{"language": "ru", "sources": {"rulebook": "Правила"},'
        ' "entries": {"card.loom": {"text": "Ткацкая мастерская", "from": "rulebook"}}}',
        "seven_wonders",
        "ru",
        "ru.json",
    )
    assert cat.get("card.loom", "Loom") == "Ткацкая мастерская"
    assert cat.origins == {"card.loom": "rulebook"}
    assert cat.sources == {"rulebook": "Правила"}
