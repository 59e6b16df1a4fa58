"""Message catalogs: the words players read, in every language civtable speaks.

The catalogs are gettext PO files, one per *domain* and language, inside the package::

    civtable/locale/<lang>/<domain>.po      e.g. locale/en/common.po, locale/en/deus.po

* A **language** is a folder of ``locale/`` (``en``, and whatever else is there): adding a
  language is adding its folder of catalogs, no code.
* A **domain** is a PO file of the English catalogue: ``common`` (the lobby, table chrome,
  shared words) and one per game (``seven_wonders``, ``through_the_ages``…), so each game's
  words live beside each other and nobody edits another game's file.
* A **message id** is a key, unique across domains by convention: a game's keys start with its
  domain's short prefix (``deus.log.build``), common keys do not. The English catalogue is the
  source of truth; other languages translate it key by key.
* **Placeholders** are ``{name}``; a plural message (PO ``msgid_plural``) picks its form by the
  language's plural rule for ``n`` (Russian and Ukrainian have three: 1 карта, 2 карты, 5 карт)
  and may use ``{n}`` itself.

Files are parsed with Babel (``babel.messages.pofile``) and plural rules come from the PO
header (``Plural-Forms``, evaluated by :func:`gettext.c2py`); the same catalogs are served to the
browser as JSON (:func:`browser_catalog`), with the CLDR plural categories in the order of the
PO forms so that ``Intl.PluralRules`` picks the same form there.
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.pofile import read_po

from civtable.core.errors import CivtableError
from civtable.present.content import content

#: the language every catalogue is written in first, and the fallback for a missing key
SOURCE_LANGUAGE = "en"

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_LANG = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?$")


class UnknownLanguageError(CivtableError, ValueError):
    """A language civtable has no catalogue for."""


class MessageError(CivtableError, KeyError):
    """A message key that does not exist, or a template given the wrong arguments."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


def _root() -> Traversable:
    return resources.files("civtable") / "locale"


@functools.cache
def languages() -> tuple[str, ...]:
    """The language codes with catalogues, the source language first, then alphabetically."""
    found = sorted(p.name for p in _root().iterdir() if p.is_dir() and _LANG.match(p.name))
    if SOURCE_LANGUAGE not in found:
        raise MessageError(f"no {SOURCE_LANGUAGE!r} catalogue in civtable/locale")
    return (SOURCE_LANGUAGE, *(x for x in found if x != SOURCE_LANGUAGE))


@functools.cache
def domains() -> tuple[str, ...]:
    """The catalogue domains (the PO files of the source language), ``common`` first."""
    names = sorted(
        p.name[:-3] for p in (_root() / SOURCE_LANGUAGE).iterdir() if p.name.endswith(".po")
    )
    return tuple(sorted(names, key=lambda d: (d != "common", d)))


def check_language(lang: str) -> str:
    """``lang`` if civtable speaks it; else :class:`UnknownLanguageError` naming the choices."""
    if not isinstance(lang, str) or lang not in languages():
        raise UnknownLanguageError(
            f"unsupported language {lang!r}; choose one of {', '.join(languages())}"
        )
    return lang


def negotiate(accept_language: str | None, default: str = SOURCE_LANGUAGE) -> str:
    """The best supported language for an HTTP ``Accept-Language`` header (``ru-RU,ru;q=0.9``)."""
    if not accept_language:
        return default
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        primary = tag.strip().lower().replace("_", "-").split("-")[0]
        if primary in languages() and q > 0:
            choices.append((-q, i, primary))
    return min(choices)[2] if choices else default


@dataclass(frozen=True)
class Catalog:
    """One language's messages across every domain."""

    lang: str
    #: key -> template, or the tuple of plural forms
    messages: Mapping[str, str | tuple[str, ...]]
    #: key -> its domain
    domain_of: Mapping[str, str]
    nplurals: int
    plural: Callable[[int], int]
    #: the CLDR category of each plural form, in form order (for ``Intl.PluralRules``)
    plural_categories: tuple[str, ...]


def _read(lang: str, domain: str) -> tuple[dict[str, str | tuple[str, ...]], int, str]:
    path = _root() / lang / f"{domain}.po"
    if not path.is_file():
        return {}, 0, ""
    with path.open("rb") as fh:
        po = read_po(fh, locale=lang, domain=domain)
    out: dict[str, str | tuple[str, ...]] = {}
    for msg in po:
        if not msg.id:
            continue
        key = msg.id[0] if isinstance(msg.id, (tuple, list)) else msg.id
        if isinstance(msg.string, (tuple, list)):
            forms = tuple(str(s) for s in msg.string)
            if all(forms):
                out[str(key)] = forms
        elif msg.string:
            out[str(key)] = str(msg.string)
    return out, po.num_plurals, po.plural_expr


def _categories(lang: str, plural: Callable[[int], int], n: int) -> tuple[str, ...]:
    locale = Locale.parse(lang)
    cats: list[str | None] = [None] * n
    for k in range(1000):
        i = plural(k)
        if 0 <= i < n and cats[i] is None:
            cats[i] = str(locale.plural_form(k))
    return tuple(c or "other" for c in cats)


@functools.cache
def catalog(lang: str) -> Catalog:
    """The messages of ``lang`` (every domain), parsed once."""
    check_language(lang)
    messages: dict[str, str | tuple[str, ...]] = {}
    domain_of: dict[str, str] = {}
    nplurals, expr = 2, "(n != 1)"
    for domain in domains():
        found, n, e = _read(lang, domain)
        if e:
            nplurals, expr = n, e
        for key, value in found.items():
            if key in domain_of:
                raise MessageError(
                    f"message {key!r} is in both {domain_of[key]}.po and {domain}.po ({lang})"
                )
            messages[key] = value
            domain_of[key] = domain
    plural = gettext.c2py(expr)
    return Catalog(
        lang=lang,
        messages=messages,
        domain_of=domain_of,
        nplurals=nplurals,
        plural=plural,
        plural_categories=_categories(lang, plural, nplurals),
    )


def placeholders(template: str) -> set[str]:
    """The ``{name}`` placeholders of a template."""
    return set(_PLACEHOLDER.findall(template))


def fill(template: str, args: Mapping[str, Any]) -> str:
    """``template`` with its placeholders replaced; a missing argument is a :class:`MessageError`.

    Only ``{name}`` is special (no format specs, no attribute access): braces around anything
    else are left as they are, so a translator cannot break or probe the formatting.
    """

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in args:
            raise MessageError(f"template {template!r} needs {{{name}}}")
        return str(args[name])

    return _PLACEHOLDER.sub(one, template)


class Translator:
    """Words in one language: ``t(key, **args)``, ``tn(key, n, **args)``, lists and names.

    A key missing from a translation falls back to the source language (and is reported by the
    catalogue-completeness test); a key missing everywhere is a :class:`MessageError`.
    """

    def __init__(self, lang: str = SOURCE_LANGUAGE) -> None:
        self.lang = check_language(lang)
        self._locale = Locale.parse(self.lang)  # parsed once: lists are joined on every render
        self._cat = catalog(self.lang)
        self._src = catalog(SOURCE_LANGUAGE)

    def has(self, key: str) -> bool:
        """Is ``key`` a message (in this language or the source language)?"""
        return key in self._cat.messages or key in self._src.messages

    def _lookup(self, key: str) -> tuple[str | tuple[str, ...], Catalog]:
        value = self._cat.messages.get(key)
        if value is not None:
            return value, self._cat
        value = self._src.messages.get(key)
        if value is not None:
            return value, self._src
        raise MessageError(f"no message {key!r}")

    def t(self, key: str, /, **args: Any) -> str:
        """The message ``key`` with ``args`` filled in (a plural message takes its ``n`` form)."""
        value, cat = self._lookup(key)
        if isinstance(value, tuple):
            n = args.get("n")
            if not isinstance(n, int):
                raise MessageError(f"plural message {key!r} needs an integer n")
            return fill(self._form(value, cat, n), args)
        return fill(value, args)

    def tn(self, key: str, n: int, /, **args: Any) -> str:
        """The plural message ``key`` for the count ``n`` (``{n}`` is available to it)."""
        return self.t(key, n=n, **args)

    @staticmethod
    def _form(forms: tuple[str, ...], cat: Catalog, n: int) -> str:
        i = cat.plural(abs(n))
        return forms[i] if 0 <= i < len(forms) else forms[-1]

    def maybe(self, key: str, default: str, /, **args: Any) -> str:
        """The message ``key`` if it exists, else ``default`` (content words with a fallback)."""
        return self.t(key, **args) if self.has(key) else default

    def content(self, pkg: str, key: str, english: str) -> str:
        """Game ``pkg``'s content text ``key`` (a card's name…) in this language, else
        ``english`` (see :mod:`civtable.present.content`)."""
        return content(pkg, self.lang).get(key, english)

    def join(self, items: Iterable[str], style: str = "standard") -> str:
        """``A, B and C`` in this language (``style="or"`` for ``A, B or C``)."""
        seq = [str(x) for x in items]
        if not seq:
            return ""
        if len(seq) == 1:
            return seq[0]
        return str(format_list(seq, style=style, locale=self._locale))  # type: ignore[arg-type]


def language_name(lang: str) -> str:
    """The language's own name for itself, e.g. ``русский``, capitalized for a menu."""
    name = Locale.parse(check_language(lang)).get_display_name(lang) or lang
    return name[:1].upper() + name[1:]


def browser_catalog(lang: str, want: Sequence[str] | None = None) -> dict[str, Any]:
    """The catalogue of ``lang`` as the browser reads it (``web/static/js/i18n.js``).

    ``want`` limits it to some domains (default: all). Keys missing from ``lang`` carry their
    source-language text, as :class:`Translator` falls back.
    """
    cat, src = catalog(check_language(lang)), catalog(SOURCE_LANGUAGE)
    chosen = set(want or domains())
    unknown = chosen - set(domains())
    if unknown:
        raise MessageError(f"no catalogue domain {sorted(unknown)[0]!r}")
    messages: dict[str, str | list[str]] = {}
    for key, domain in src.domain_of.items():
        if domain not in chosen:
            continue
        value = cat.messages.get(key)
        if value is None:
            value = src.messages[key]
            if isinstance(value, tuple):  # source forms, by the source language's categories
                forms = dict(zip(src.plural_categories, value, strict=True))
                value = tuple(forms.get(c, value[-1]) for c in cat.plural_categories)
        messages[key] = list(value) if isinstance(value, tuple) else value
    return {
        "lang": lang,
        "name": language_name(lang),
        "plural_categories": list(cat.plural_categories),
        "messages": messages,
    }
