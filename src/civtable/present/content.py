"""Game content in every language: card, wonder, leader, god, place and event names and texts.

Content words are data, kept beside each game's card data (issue 19):
``civtable/games/<pkg>/data/i18n/<lang>.json``. English comes from the card data itself (each
game's ``words.content_english()`` lists every key with its English text); another language's
file gives each key its text and where the text comes from::

    {
      "language": "ru",
      "sources": {"rulebook": "7 Чудес, правила русского издания (shared/seeds/001_…)"},
      "entries": {
        "card.loom_age1": {"text": "Ткацкая мастерская", "from": "rulebook"},
        "card.loom_age1.text": {"text": "…", "from": "translated"}
      }
    }

``from`` is ``"rulebook"`` when the text is the name or wording the rulebook of that language
prints, ``"translated"`` when the rulebook does not give it and civtable translated it (so an
edition's printed name can replace it later). ``tests/present/test_content.py`` checks that every
language has every key of every game, and nothing else.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from civtable.core.errors import CivtableError

#: where a content text comes from
ORIGINS = ("rulebook", "translated")


class ContentError(CivtableError, ValueError):
    """A content file is malformed (a clear message naming the file and the entry)."""


@dataclass(frozen=True)
class ContentCatalogue:
    """One game's content texts in one language (empty for the source language)."""

    game: str
    lang: str
    #: key -> text
    texts: Mapping[str, str]
    #: key -> "rulebook" | "translated"
    origins: Mapping[str, str]
    #: origin -> the book or edition it names
    sources: Mapping[str, str]

    def get(self, key: str, english: str) -> str:
        """The text of ``key`` in this language, else ``english`` (the card data's own text)."""
        return self.texts.get(key, english)


def content_path(pkg: str, lang: str) -> Traversable:
    """The content file of game package ``pkg`` in ``lang`` (it may not exist)."""
    return resources.files("civtable") / "games" / pkg / "data" / "i18n" / f"{lang}.json"


@functools.cache
def content(pkg: str, lang: str) -> ContentCatalogue:
    """The content texts of game package ``pkg`` (``seven_wonders``…) in ``lang``.

    A language without a file for the game has no texts (every lookup falls back to English).
    """
    path = content_path(pkg, lang)
    if not path.is_file():
        return ContentCatalogue(pkg, lang, {}, {}, {})
    where = f"civtable/games/{pkg}/data/i18n/{lang}.json"
    return parse(path.read_text(encoding="utf-8"), pkg, lang, where)


def parse(text: str, pkg: str, lang: str, where: str) -> ContentCatalogue:
    """A content file's text as a catalogue; :class:`ContentError` naming ``where`` if malformed."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{where}: not JSON ({exc})") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("entries"), dict):
        raise ContentError(f"{where}: needs an object with 'entries'")
    if raw.get("language") != lang:
        raise ContentError(f"{where}: 'language' must be {lang!r}")
    sources = raw.get("sources", {})
    if not isinstance(sources, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in sources.items()
    ):
        raise ContentError(f"{where}: 'sources' must map an origin to a text")
    texts: dict[str, str] = {}
    origins: dict[str, str] = {}
    for key, entry in raw["entries"].items():
        if not isinstance(entry, dict):
            raise ContentError(f"{where}: entry {key!r} must be an object")
        value, origin = entry.get("text"), entry.get("from")
        if not isinstance(value, str) or not value.strip():
            raise ContentError(f"{where}: entry {key!r} has no text")
        if origin not in ORIGINS:
            raise ContentError(f"{where}: entry {key!r}: 'from' must be one of {ORIGINS}")
        texts[key] = value
        origins[key] = origin
    return ContentCatalogue(pkg, lang, texts, origins, dict(sources))
