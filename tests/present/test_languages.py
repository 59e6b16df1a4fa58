"""Russian and Ukrainian beside English: plural forms at 1, 2, 5, 21 and every message of every
language filled with sample values (issue 19)."""

from __future__ import annotations

import pytest

from civtable import present
from civtable.present import i18n

#: the languages with three plural forms (one, few, many): 1 карта, 2 карты, 5 карт, 21 карта
SLAVIC = ("ru", "uk")

#: counts that pick each Slavic form, and 21 (one again: the rule is on the last digit)
COUNTS = (1, 2, 5, 21)


@pytest.mark.parametrize(
    ("lang", "key", "expected"),
    [
        ("ru", "n.card", ("1 карта", "2 карты", "5 карт", "21 карта")),
        ("uk", "n.card", ("1 карта", "2 карти", "5 карт", "21 карта")),
        ("ru", "n.player", ("1 игрок", "2 игрока", "5 игроков", "21 игрок")),
        ("uk", "n.player", ("1 гравець", "2 гравці", "5 гравців", "21 гравець")),
        ("ru", "n.point", ("1 очко", "2 очка", "5 очков", "21 очко")),
        ("uk", "n.coin", ("1 монета", "2 монети", "5 монет", "21 монета")),
        ("ru", "n.game", ("1 партия", "2 партии", "5 партий", "21 партия")),
        ("uk", "n.move", ("1 хід", "2 ходи", "5 ходів", "21 хід")),
    ],
)
def test_slavic_plurals_at_1_2_5_21(lang: str, key: str, expected: tuple[str, ...]) -> None:
    tr = present.translator(lang)
    assert tuple(tr.tn(key, n) for n in COUNTS) == expected


@pytest.mark.parametrize("lang", SLAVIC)
def test_every_common_count_message_takes_its_three_forms(lang: str) -> None:
    """Every ``n.*`` message of the common catalogue: 1 and 21 read alike (form one), 2 (few) and
    5 (many) each differ from it, and 11/12 take the many/few forms (not one)."""
    tr = present.translator(lang)
    cat = i18n.catalog(lang)
    keys = [k for k, d in cat.domain_of.items() if d == "common" and k.startswith("n.")]
    assert len(keys) >= 5
    for key in keys:
        forms = cat.messages[key]
        assert isinstance(forms, tuple), key
        assert len(forms) == 3, key
        one, few, many = (i18n.fill(f, {"n": 0}) for f in forms)
        assert len({one, few, many}) >= 2, f"{lang} {key}: the forms do not differ: {forms}"
        assert tr.tn(key, 1) == i18n.fill(forms[0], {"n": 1})
        assert tr.tn(key, 21) == i18n.fill(forms[0], {"n": 21})
        assert tr.tn(key, 2) == i18n.fill(forms[1], {"n": 2})
        assert tr.tn(key, 5) == i18n.fill(forms[2], {"n": 5})
        assert tr.tn(key, 11) == i18n.fill(forms[2], {"n": 11})
        assert tr.tn(key, 12) == i18n.fill(forms[2], {"n": 12})
        assert tr.tn(key, 22) == i18n.fill(forms[1], {"n": 22})


def _samples(template: str) -> dict[str, object]:
    return {name: f"<{name}>" for name in i18n.placeholders(template)}


@pytest.mark.parametrize("lang", present.languages())
def test_every_message_of_every_domain_formats_with_sample_values(lang: str) -> None:
    """Each message of the language (every domain) filled through the Translator with sample
    values for the placeholders its English source has (a plural one at n = 1, 2, 5, 21): no
    error, no placeholder left, and every sample it names is in the result."""
    tr = present.translator(lang)
    src = i18n.catalog(present.SOURCE_LANGUAGE)
    cat = i18n.catalog(lang)
    checked = 0
    for key, value in cat.messages.items():
        source = src.messages.get(key)
        assert source is not None, f"{lang} {key}: not in the English catalogue"
        names: dict[str, object] = {}
        for form in source if isinstance(source, tuple) else (source,):
            names.update(_samples(form))
        forms = value if isinstance(value, tuple) else (value,)
        for n in COUNTS if isinstance(value, tuple) else (None,):
            args = dict(names)
            if n is not None:
                args["n"] = n
            elif "n" in names:
                args["n"] = 3
            text = tr.t(key, **args)
            assert not i18n.placeholders(text), f"{lang} {key}: {text!r}"
            used = set().union(*(i18n.placeholders(f) for f in forms))
            for name in used - {"n"}:
                assert f"<{name}>" in text, f"{lang} {key}: {{{name}}} lost in {text!r}"
            checked += 1
    assert checked >= len([k for k, d in cat.domain_of.items() if d == "common"]), (
        f"{lang}: too few messages checked"
    )


def test_game_names_and_language_names_read_in_their_language() -> None:
    assert present.game_name("seven-wonders", present.translator("ru")) == "7 Чудес"
    assert present.game_name("deus", present.translator("uk")) == "Деус"
    assert present.game_name("deus") == "Deus"
    assert present.game_name("no-such-game", default="X") == "X"
    names = {lang: present.language_name(lang) for lang in present.languages()}
    assert names == {"en": "English", "ru": "Русский", "uk": "Українська"}


def test_every_registered_game_has_a_name_in_the_catalogue() -> None:
    """``game.<pkg>`` names each game of the registry; in English it is the registry's name."""
    from civtable import games

    for info in games.REGISTRY.values():
        key = "game." + info.id.replace("-", "_")
        assert present.translator().has(key), key
        assert present.game_name(info.id) == info.name
