"""The message catalogues: parsing, plural rules, fallbacks and the browser's copy."""

from __future__ import annotations

import pytest
from babel import Locale

from civtable import present
from civtable.present import i18n


def test_languages_start_with_the_source_language() -> None:
    langs = present.languages()
    assert langs[0] == "en"
    assert i18n.domains()[0] == "common"


def test_translator_fills_placeholders_and_plurals() -> None:
    tr = present.translator("en")
    assert tr.t("player.default", n=3) == "Player 3"
    assert tr.tn("n.card", 1) == "1 card"
    assert tr.tn("n.card", 21) == "21 cards"
    assert tr.join(["A", "B"]) == "A and B"
    assert tr.join(["A", "B"], "or") == "A or B"


def test_missing_keys_and_arguments_are_clear_errors() -> None:
    tr = present.translator("en")
    with pytest.raises(present.MessageError, match=r"no message 'no\.such\.key'"):
        tr.t("no.such.key")
    with pytest.raises(present.MessageError, match=r"needs \{n\}"):
        tr.t("player.default")
    with pytest.raises(present.MessageError, match="integer n"):
        tr.t("n.card")
    assert tr.maybe("no.such.key", "fallback") == "fallback"


def test_fill_leaves_other_braces_alone() -> None:
    assert i18n.fill("{a} {0} {a.b} {X} {a:>3}", {"a": 1}) == "1 {0} {a.b} {X} {a:>3}"
    assert i18n.placeholders("{who} gives {n} to {whom}") == {"who", "n", "whom"}


def test_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(present.UnknownLanguageError, match="choose one of en"):
        present.translator("xx")
    with pytest.raises(present.UnknownLanguageError):
        present.check_language(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("en-GB,en;q=0.8", "en"),
        ("de-DE,de;q=0.9", "en"),
        ("xx;q=abc, en;q=0.1", "en"),
        (",,;;q=", "en"),
    ],
)
def test_negotiate_reads_accept_language(header: str | None, expected: str) -> None:
    assert present.negotiate(header) == expected


def test_negotiate_prefers_higher_quality_then_order() -> None:
    langs = present.languages()
    for lang in langs:
        assert present.negotiate(f"de;q=1, {lang};q=0.5") == lang
        assert present.negotiate(f"{lang}-XX") == lang


@pytest.mark.parametrize("lang", present.languages())
def test_plural_categories_follow_the_po_header(lang: str) -> None:
    """The browser picks a form by CLDR category; the server by the PO header's rule: the two
    must agree for every count."""
    cat = i18n.catalog(lang)
    locale = Locale.parse(lang)
    for n in range(1001):
        assert cat.plural_categories[cat.plural(n)] == locale.plural_form(n), n


@pytest.mark.parametrize("lang", present.languages())
def test_every_catalogue_has_every_source_key_and_plural_form(lang: str) -> None:
    """Catalogues complete: every key of the English source exists in every language, every
    plural message has all the language's forms, and the placeholders are the same."""
    src, cat = i18n.catalog("en"), i18n.catalog(lang)
    missing = sorted(set(src.messages) - set(cat.messages))
    assert not missing, f"{lang}: {len(missing)} untranslated keys, e.g. {missing[:10]}"
    extra = sorted(set(cat.messages) - set(src.messages))
    assert not extra, f"{lang}: keys not in the English catalogue: {extra[:10]}"
    for key, value in cat.messages.items():
        source = src.messages[key]
        assert isinstance(value, tuple) == isinstance(source, tuple), key
        forms = value if isinstance(value, tuple) else (value,)
        if isinstance(value, tuple):
            assert len(value) == cat.nplurals, key
        want = set().union(
            *(i18n.placeholders(f) for f in (source if isinstance(source, tuple) else (source,)))
        )
        for form in forms:
            got = i18n.placeholders(form)
            assert got <= want | {"n"}, f"{lang} {key}: unknown placeholders {got - want}"


def test_browser_catalogue_is_the_same_source() -> None:
    doc = present.browser_catalog("en", ["common"])
    assert doc["lang"] == "en"
    assert doc["plural_categories"] == ["one", "other"]
    assert doc["messages"]["n.card"] == ["{n} card", "{n} cards"]
    assert doc["messages"]["player.default"] == "Player {n}"
    assert all(i18n.catalog("en").domain_of[k] == "common" for k in doc["messages"])
    with pytest.raises(present.MessageError, match="no catalogue domain"):
        present.browser_catalog("en", ["nope"])


def test_seat_names_use_typed_names_and_catalogue_defaults() -> None:
    seats = [
        {"seat": 0, "kind": "human", "name": "Ann"},
        {"seat": 1, "kind": "human", "name": ""},
        {"seat": 2, "kind": "bot", "bot": "heuristic", "name": ""},
        {"seat": 3, "kind": "bot", "bot": "ismcts:1s", "name": "ismcts:1s bot"},
    ]
    assert present.seat_names(seats) == ("Ann", "Player 2", "Bot 3 (normal)", "Bot 4 (strong)")
    ctx = present.Ctx(names=("Ann",))
    assert ctx.player(0) == "Ann"
    assert ctx.player(1) == "Player 2"
    assert ctx.player(None) == "nobody"


def test_render_without_a_words_module_passes_labels() -> None:
    view = {"legal": [{"id": 3, "label": "do it"}]}
    assert present.render("no-such-game", view, present.Ctx())["legal"] == {"3": "do it"}


def test_every_catalogue_key_the_web_pages_use_exists() -> None:
    """A literal t("key") / tn("key", …) in the browser's code, or a data-t="key" in a page,
    names a message of the English catalogue (a missing one would show its key to players)."""
    import re
    from importlib import resources

    from civtable.present.i18n import catalog

    static = resources.files("civtable") / "web" / "static"
    call = re.compile(r"\btn?\(\s*\"([a-z][a-z0-9_]*\.[a-z0-9_.]*[a-z0-9_])\"")
    attr = re.compile(r'data-t="([^"]+)"')
    keys = set(catalog("en").messages)
    missing = []
    found = 0
    for folder, pattern in (("js", call), ("", attr)):
        base = static / folder if folder else static
        for f in base.iterdir():
            if f.name.endswith((".js", ".html")):
                for key in pattern.findall(f.read_text(encoding="utf-8")):
                    found += 1
                    if key not in keys:
                        missing.append(f"{f.name}: {key}")
    assert found > 100  # the pages do speak through the catalogues
    assert not missing, missing
