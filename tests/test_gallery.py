"""scripts/gallery.py: docs/gallery.md from the browser tests' screenshots (issue 18 item 9)."""

from __future__ import annotations

import importlib.util
import re
import struct
import zlib
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _gallery() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gallery", ROOT / "scripts" / "gallery.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _png(path: Path, width: int, height: int) -> None:
    """A valid, tiny PNG header of the given size (the gallery reads only the header)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    data = struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + data)


def test_the_gallery_pairs_desktop_and_phone_pictures_by_game_with_captions(
    tmp_path: Path,
) -> None:
    gallery = _gallery()
    shots = tmp_path / "screenshots"
    shots.mkdir()
    _png(shots / "sw-2p-table.png", 1280, 800)
    _png(shots / "sw-2p-table-phone.png", 390, 844)
    _png(shots / "deus-new-thing.png", 1280, 900)
    _png(shots / "lobby.png", 1280, 800)
    text = gallery.build(shots)
    assert text.index("## 7 Wonders") < text.index("## Deus") < text.index("## The platform")
    assert "### Two players with the Free City: the start of Age I" in text
    assert "| desktop (1280 px) | phone (390 px) |" in text
    assert "(screenshots/sw-2p-table-phone.png)" in text
    assert "### Deus: new thing" in text  # a caption from the file name
    assert gallery.png_size(shots / "lobby.png") == (1280, 800)


def test_the_committed_gallery_shows_only_pictures_that_exist() -> None:
    text = (ROOT / "docs" / "gallery.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\((screenshots/[^)]+\.png)\)", text)
    assert linked
    for rel in linked:
        assert (ROOT / "docs" / rel).is_file(), rel
    assert "(gallery.md)" in (ROOT / "README.md").read_text(encoding="utf-8").replace(
        "docs/gallery.md", "gallery.md"
    )
