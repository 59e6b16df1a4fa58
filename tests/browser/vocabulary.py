"""What must never reach a player's screen, kept in one place (issue 18).

Every table's browser test calls :func:`scan_page` at every step it plays: it reads all
visible text of the page plus every ``title``, ``aria-label``, ``placeholder`` and ``alt``
attribute, and fails on engine vocabulary:

* snake_case words (``friendly_city``, ``loom_age1``) and dict/list reprs (``{'``, ``['``);
* rule ids (``SW-``, ``TTA-``, ``CIV-``, ``DEUS-``, ``AMB-``);
* Deus' internal hex coordinates (``S3.NW``, ``S0.C``) and "space <number>";
* placeholders left in brackets (``[slot]``, ``{card}``) and ``P<number>`` player names;
* ``undefined``, ``null``, ``NaN``, ``[object Object]``.

:func:`scan_language` (issue 19) fails on untranslated English on a page read in a language written
in Cyrillic (Russian, Ukrainian): every word in Latin letters is English left behind unless it is
one of the proper names in :data:`LATIN_ALLOWED`, the one list of them.

:func:`check_layout` asserts the page is no wider than the viewport and that the prompt bar
(``[data-testid=prompt]``) is inside the viewport.
"""

from __future__ import annotations

import re
from typing import Any

#: (name, pattern) of every kind of engine vocabulary; a match anywhere fails the test
PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("snake_case word", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")),
    ("dict or list repr", re.compile(r"\{'|\['|\{\"|\[\"")),
    ("rule id", re.compile(r"\b(?:SW|TTA|CIV|DEUS|AMB)-\w")),
    ("map coordinate", re.compile(r"\bS\d+\.(?:C|N|S|E|W|NE|NW|SE|SW)\b")),
    ("space number", re.compile(r"\bspace \d+", re.IGNORECASE)),
    ("placeholder", re.compile(r"\[[a-z_]+\]|\{[a-z_]+\}")),
    ("P<number> name", re.compile(r"\bP\d+\b")),
    ("undefined/null/NaN", re.compile(r"\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]")),
)

#: text of the page that is not for players and is skipped (the API docs page, a developer view)
SKIP_SELECTORS = ("[data-dev]", "script", "style", "noscript")

_COLLECT = """
(skip) => {
  const out = [];
  const skipped = (el) => skip.some((s) => el.closest(s));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || skipped(el)) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const text = node.textContent.trim();
    if (text) out.push(["text", text]);
  }
  for (const el of document.querySelectorAll("[title],[aria-label],[placeholder],[alt]")) {
    if (skipped(el)) continue;
    for (const attr of ["title", "aria-label", "placeholder", "alt"]) {
      const v = el.getAttribute(attr);
      if (v && v.trim()) out.push([attr, v.trim()]);
    }
  }
  for (const el of document.querySelectorAll("svg title")) {
    if (!skipped(el) && el.textContent.trim()) out.push(["svg title", el.textContent.trim()]);
  }
  out.push(["document title", document.title]);
  return out;
}
"""


def findings(texts: list[tuple[str, str]]) -> list[str]:
    """Every hit of :data:`PATTERNS` in ``(where, text)`` pairs, as readable messages."""
    out = []
    for where, text in texts:
        for name, pattern in PATTERNS:
            m = pattern.search(text)
            if m:
                out.append(f"{name} {m.group(0)!r} in {where}: {text[:160]!r}")
    return out


def page_texts(page: Any) -> list[tuple[str, str]]:
    """All text a player can read on the page, with where it was found."""
    return [(str(w), str(t)) for w, t in page.evaluate(_COLLECT, list(SKIP_SELECTORS))]


def scan_page(page: Any, context: str = "") -> None:
    """Fail with every engine-vocabulary hit on the page."""
    hits = findings(page_texts(page))
    assert not hits, (
        f"engine vocabulary on screen{(' ' + context) if context else ''}:\n" + "\n".join(hits[:20])
    )


#: words a Russian or Ukrainian page may show in Latin letters: the product's name, Roman
#: numerals (ages, eras, levels), names players and tests type, "English" (the language picker
#: names every language in that language), and the letters A–H printed on Civilization's
#: barbarian tokens (both rulebooks print them in Latin: «Жетон D»). Nothing else is allowed.
LATIN_ALLOWED = frozenset(
    {"civtable", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "A", "B", "C"}
    | {"D", "E", "F", "G", "H"}
    | {"English"}
)

_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: languages whose pages must have no Latin words but :data:`LATIN_ALLOWED`
CYRILLIC = frozenset({"ru", "uk"})


def english_left(texts: list[tuple[str, str]], lang: str) -> list[str]:
    """Every Latin-letter word of ``texts`` that is not an allowed proper name (for ``lang``)."""
    if lang not in CYRILLIC:
        return []
    out = []
    for where, text in texts:
        words = [w for w in _LATIN_WORD.findall(text) if w not in LATIN_ALLOWED]
        if words:
            out.append(f"untranslated {words[:5]} in {where}: {text[:160]!r}")
    return out


def scan_language(page: Any, lang: str, context: str = "") -> None:
    """Fail on engine vocabulary and on English left untranslated on a page read in ``lang``."""
    texts = page_texts(page)
    hits = findings(texts) + english_left(texts, lang)
    assert not hits, f"{lang} page shows{(' ' + context) if context else ''}:\n" + "\n".join(
        hits[:20]
    )


def check_layout(page: Any, context: str = "", *, prompt: bool = True) -> None:
    """The page does not scroll sideways, and the prompt bar is inside the viewport."""
    width = page.viewport_size["width"]
    height = page.viewport_size["height"]
    doc_width = page.evaluate("document.documentElement.scrollWidth")
    assert doc_width <= width, f"page is {doc_width}px wide in a {width}px viewport {context}"
    if prompt:
        bar = page.locator("[data-testid=prompt]").first
        box = None
        for _ in range(5):  # a push may redraw the table (and its prompt) while we look
            bar.wait_for(state="visible")
            box = bar.bounding_box()
            if box is not None:
                break
        assert box is not None, f"no prompt bar {context}"
        where = f"prompt bar at {box} {context}"
        assert box["y"] >= 0, where
        assert box["y"] + min(box["height"], 60) <= height, where
        assert box["x"] >= 0, where
        assert box["x"] + box["width"] <= width + 1, where
