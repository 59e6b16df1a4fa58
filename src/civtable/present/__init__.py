"""The presentation layer: turning what the engine says into the words a player reads.

The rules core speaks in structure — a seat's ``view()`` with ids and numbers, legal actions as
integer ids (with a developer's ``describe()`` label), log events as ``{"kind": ..., args}``.
Everything a *player* reads is made here and in each game's ``words`` module, from that
structure and the message catalogues (:mod:`civtable.present.i18n`), in the reader's language:

* ``civtable.games.<pkg>.words`` (found by convention, like ``heuristic``) defines
  ``render(view, ctx) -> dict``: the player words of one view — at least ``legal`` (action id
  → label), ``log`` (one line per log event, in order), ``prompt`` (what to do now, or whom the
  table waits for) and, once the game is over, ``scores`` (category → label) — plus whatever its
  table needs (reasons a choice is not legal now, previews of what an action gives, place names).
* :class:`Ctx` carries the reader's :class:`~civtable.present.i18n.Translator`, the players'
  names as they typed them, and the viewing seat.
* The server adds ``render``'s result to a payload as ``words`` when the client asks for a
  language; the terminal and the reports call the same functions.

No rule lives here and nothing here changes a state: it reads views only, so it can never reveal
more than the view it is given.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from civtable.core.api import JSON
from civtable.present.i18n import (
    SOURCE_LANGUAGE,
    MessageError,
    Translator,
    UnknownLanguageError,
    browser_catalog,
    check_language,
    domains,
    language_name,
    languages,
    negotiate,
)

__all__ = [
    "SOURCE_LANGUAGE",
    "Ctx",
    "MessageError",
    "Translator",
    "UnknownLanguageError",
    "browser_catalog",
    "check_language",
    "domains",
    "game_name",
    "language_name",
    "languages",
    "negotiate",
    "render",
    "seat_names",
    "translator",
    "words_module",
]


@functools.cache
def translator(lang: str = SOURCE_LANGUAGE) -> Translator:
    """The (shared, immutable) translator of ``lang``."""
    return Translator(lang)


@dataclass(frozen=True)
class Ctx:
    """Who reads, in which language, and what the players are called."""

    tr: Translator = field(default_factory=lambda: translator(SOURCE_LANGUAGE))
    #: each seat's name as the table shows it (the name typed, or a default from the catalogue)
    names: tuple[str, ...] = ()
    #: the seat whose view is rendered (None: a spectator or a replay)
    viewer: int | None = None

    def t(self, key: str, /, **args: Any) -> str:
        """Shorthand for ``self.tr.t``."""
        return self.tr.t(key, **args)

    def tn(self, key: str, n: int, /, **args: Any) -> str:
        """Shorthand for ``self.tr.tn``."""
        return self.tr.tn(key, n, **args)

    def player(self, seat: int | None) -> str:
        """A seat's name; ``you`` is not substituted (log lines read the same for everyone)."""
        if seat is None or not isinstance(seat, int) or seat < 0:
            return self.t("player.nobody")
        if seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.t("player.default", n=seat + 1)

    def join(self, items: Sequence[str], style: str = "standard") -> str:
        """``A, B and C`` in the reader's language."""
        return self.tr.join(items, style)


def seat_names(
    seats: Sequence[Any], tr: Translator | None = None, *, bot_words: dict[str, str] | None = None
) -> tuple[str, ...]:
    """Names for a table's seats from records with ``seat``, ``kind``, ``bot`` and ``name``
    (mappings or objects): the name a person typed, else ``Player N`` / ``Bot N (level)``."""
    tr = tr or translator()
    out: list[str] = []
    for i, s in enumerate(seats):
        get = s.get if isinstance(s, dict) else lambda k, _s=s: getattr(_s, k, None)
        name = str(get("name") or "").strip()
        if get("kind") == "bot":
            spec = str(get("bot") or "")
            level = (bot_words or {}).get(spec) or bot_level_name(spec, tr)
            out.append(
                name
                if name and not name.endswith(" bot")
                else tr.t("player.bot", n=i + 1, level=level)
            )
        else:
            out.append(name or tr.t("player.default", n=i + 1))
    return tuple(out)


def game_name(game_id: str, tr: Translator | None = None, default: str | None = None) -> str:
    """A game's name in the reader's language (``game.<pkg>`` of the ``common`` catalogue), else
    ``default`` (the registry's English name) or the id."""
    tr = tr or translator()
    return tr.maybe("game." + game_id.replace("-", "_"), default or game_id)


def bot_level_name(spec: str, tr: Translator) -> str:
    """A bot spec (``heuristic``, ``ismcts:1s``…) in player words."""
    kind = spec.split(":", 1)[0]
    key = f"bot.{kind}"
    return tr.t(key) if tr.has(key) else tr.t("bot.other")


class WordsModule(Protocol):
    """What a game's ``words`` module provides."""

    def render(self, view: JSON, ctx: Ctx) -> JSON:  # pragma: no cover - protocol
        """The player words of one view."""
        ...


def words_module(game_id: str) -> ModuleType | None:
    """``civtable.games.<pkg>.words`` of a game, or None when it has none."""
    name = f"civtable.games.{game_id.replace('-', '_')}.words"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise  # the module exists but something it imports does not
        return None


def render(game_id: str, view: JSON, ctx: Ctx) -> JSON:
    """The player words of ``view`` (see the module doc); a game without a ``words`` module gets
    its legal actions' labels as they are and no log lines."""
    module = words_module(game_id)
    if module is not None:
        out: JSON = module.render(view, ctx)
        return out
    legal = view.get("legal") or []
    return {
        "legal": {str(a["id"]): str(a.get("label", "")) for a in legal if isinstance(a, dict)},
        "log": [],
        "prompt": "",
    }
