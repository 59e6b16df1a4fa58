#!/usr/bin/env python3
"""Build ``docs/gallery.md``: every screenshot the browser tests write, by game, with captions.

The browser tests save their pictures in ``docs/screenshots/`` (``<game>-*.png``; a phone
picture has the same name ending in ``-phone``, see ``tests/browser/``). To refresh both::

    CIVTABLE_UPDATE_SCREENSHOTS=1 .venv/bin/pytest -q -p no:xdist tests/browser
    .venv/bin/python scripts/gallery.py            # writes docs/gallery.md
    .venv/bin/python scripts/gallery.py --check    # exit 1 if docs/gallery.md is out of date

Captions come from :data:`CAPTIONS`, else from the file name; each picture is labelled with its
viewport, read from the PNG itself (1280 wide: desktop, 390 wide: phone).
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
OUT = ROOT / "docs" / "gallery.md"

#: (file-name prefix, section title); the first matching prefix wins, "" catches the rest
GROUPS = (
    ("sw-", "7 Wonders"),
    ("tta-", "Through the Ages: A New Story of Civilization"),
    ("civ-", "Sid Meier's Civilization: A New Dawn"),
    ("deus-", "Deus"),
    ("", "The platform: lobby, 7 Wonders' first table, replays"),
)

#: captions of known pictures (without "-phone"); others are made from the file name
CAPTIONS = {
    "sw-2p-table": "Two players with the Free City: the start of Age I",
    "sw-2p-scores": "Two players: the final score, the Free City's column beside the players'",
    "sw-7p-table": "Seven players: the start of Age I",
    "sw-7p-scores": "Seven players: the final score",
    "sw-payment-cancel": "Choosing who gets your coins; Cancel takes the card back",
    "sw-hotseat-handover": "Hot seat: the hand-over screen between two people at one screen",
    "lobby": "The lobby: new game, your games, open tables",
    "table": "7 Wonders, four players: a turn of Age I",
    "table-phone-spectator": "7 Wonders watched by a spectator on a phone",
    "payment-choice": "7 Wonders: the payment chooser",
    "scores": "7 Wonders: the final score table",
    "replay": "The replay viewer, as one seat",
    "tta-table": "Through the Ages: the table",
    "tta-midgame": "Through the Ages: in the middle of the game",
    "tta-politics": "Through the Ages: the politics phase",
    "tta-scores": "Through the Ages: the final score",
    "tta-full-scores": "Through the Ages, full game: the final score",
    "civ-table": "Civilization: A New Dawn: the table",
    "civ-targets": "Civilization: A New Dawn: choosing a target on the map",
    "civ-scores": "Civilization: A New Dawn: the final score",
    "deus-table": "Deus: the table",
    "deus-placement": "Deus: placing a building",
    "deus-scores": "Deus: the final score",
}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    with path.open("rb") as fh:
        head = fh.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG")
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def viewport(path: Path) -> str:
    """"desktop (1280 px)" or "phone (390 px)" from the picture's width."""
    width, _ = png_size(path)
    return f"phone ({width} px)" if width <= 600 else f"desktop ({width} px)"


def caption(stem: str) -> str:
    """The caption of a picture (its name without ``-phone``)."""
    if stem in CAPTIONS:
        return CAPTIONS[stem]
    for prefix, title in GROUPS:
        if prefix and stem.startswith(prefix):
            rest = stem[len(prefix) :].replace("-", " ")
            return f"{title.split(':')[0]}: {rest}"
    return stem.replace("-", " ").capitalize()


def build(shots: Path = SHOTS) -> str:
    """The text of ``docs/gallery.md`` for the pictures in ``shots``."""
    files = sorted(p for p in shots.glob("*.png"))
    pairs: dict[str, dict[str, Path]] = {}
    for f in files:
        stem = f.stem
        kind = "phone" if stem.endswith("-phone") else "desk"
        base = stem[: -len("-phone")] if kind == "phone" else stem
        pairs.setdefault(base, {})[kind] = f
    lines = [
        "# Gallery",
        "",
        "Every table of civtable as the browser tests see it, at 1280×800 and 390×844. Made by",
        "`scripts/gallery.py` from the pictures the browser tests save in `docs/screenshots/`",
        "(`CIVTABLE_UPDATE_SCREENSHOTS=1` refreshes them); do not edit by hand.",
        "",
    ]
    used: set[str] = set()
    for prefix, title in GROUPS:
        group = [
            b for b in pairs if b not in used and (b.startswith(prefix) if prefix else True)
        ]
        if not group:
            continue
        used.update(group)
        lines += [f"## {title}", ""]
        for base in sorted(group):
            shots_of = pairs[base]
            lines += [f"### {caption(base)}", ""]
            cells = []
            for kind in ("desk", "phone"):
                f = shots_of.get(kind)
                if f is not None:
                    rel = f.relative_to(shots.parent).as_posix()
                    cells.append((viewport(f), f"![{caption(base)}, {viewport(f)}]({rel})"))
            lines.append("| " + " | ".join(c[0] for c in cells) + " |")
            lines.append("|" + "---|" * len(cells))
            lines.append("| " + " | ".join(c[1] for c in cells) + " |")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` verify) ``docs/gallery.md``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the gallery is stale")
    args = parser.parse_args(argv)
    text = build()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print("docs/gallery.md is out of date: run scripts/gallery.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({text.count('![')} pictures)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
