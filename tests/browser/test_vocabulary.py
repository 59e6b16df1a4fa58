"""The engine-vocabulary scanner of the browser tests catches what it is meant to catch."""

from __future__ import annotations

import pytest

from tests.browser.vocabulary import english_left, findings


@pytest.mark.parametrize(
    "text",
    [
        "friendly_city",
        "spend 1 trade token(s) ({'adds_to': 'control tokens placed'})",
        "Oracle (TTA-7.2.9, TTA-7.2.10)",
        "builds a temple at S1.E",
        "builds a city on space 48",
        "a tooltip with [slot]",
        "P1 wins",
        "score undefined",
        "NaN coins",
        "Majority {card}",
    ],
)
def test_engine_words_are_found(text: str) -> None:
    assert findings([("text", text)])


@pytest.mark.parametrize(
    "text",
    [
        "Ann builds the Lighthouse of Alexandria",
        "Pay 2 coins to Bob",
        "Sparta (Spartan Shield) — Age II",
        "Culture: 12 points",
        "3 spaces highlighted on the map",
        "Player 2",
        "Bot 3 (normal)",
    ],
)
def test_player_words_pass(text: str) -> None:
    assert not findings([("text", text)])


@pytest.mark.parametrize(
    ("lang", "text", "left"),
    [
        ("ru", "Анна строит Маяк", False),
        ("ru", "Эпоха II · 3 карты", False),
        ("ru", "Анна builds the Lighthouse", True),
        ("uk", "Гравець 2: Loom", True),
        ("uk", "civtable — Нова гра", False),
        ("en", "Ann builds the Lighthouse", False),
    ],
)
def test_english_left_on_a_cyrillic_page_is_found(lang: str, text: str, left: bool) -> None:
    assert bool(english_left([("text", text)], lang)) is left
