"""The opt-in compiled build of the rules (issue 21): selection at import time.

``make compiled`` compiles the modules listed in ``scripts/compiled.toml`` with mypyc into
``build/compiled/`` (never beside the ``.py`` files) and writes a stamp there: the digest of every
source file the compiled code was built from. With ``CIVTABLE_COMPILED=1`` in the environment,
importing :mod:`civtable` calls :func:`enable_from_environment`, which installs an import finder
that loads those modules from the build instead of from ``src/``, but only if the stamp matches
the sources as they are now; otherwise it prints one line saying why and the pure-Python modules
are used. Without the variable nothing is looked at: pure Python, always.

Compiled code calls other functions of the same build directly, and the build is one shared
library (mypyc's group library, which every compiled module's small shim module imports by name
before it initialises), so the build is taken whole or not at all. The finder serves the group
library under that name too, so nothing is added to ``sys.path``.

``CIVTABLE_COMPILED_DIR`` points at another build directory (default: ``build/compiled`` of the
checkout this package is imported from).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

#: the environment variable that asks for the compiled build
ENV = "CIVTABLE_COMPILED"
#: the environment variable naming another build directory
ENV_DIR = "CIVTABLE_COMPILED_DIR"
#: the stamp ``make compiled`` writes last, in the build directory
STAMP = "stamp.json"
#: the stamp's format; a stamp of another format is a stale build
STAMP_FORMAT = 1

_REBUILD = "run `make compiled`"
_SRC = Path(__file__).resolve().parent.parent  # .../src (an editable checkout)


def default_dir() -> Path:
    """The build directory: ``CIVTABLE_COMPILED_DIR`` or ``build/compiled`` of the checkout."""
    named = os.environ.get(ENV_DIR)
    return Path(named) if named else _SRC.parent / "build" / "compiled"


def digest(path: Path) -> str:
    """The digest of one source file as the stamp records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def abi() -> dict[str, str]:
    """What a build must have been made for to load here (interpreter and extension suffix)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return {"cache_tag": str(sys.implementation.cache_tag), "ext_suffix": suffix}


@dataclass
class Status:
    """Which build runs: ``build`` is ``"compiled"`` or ``"pure"``; ``reason`` says why pure."""

    build: str = "pure"
    modules: tuple[str, ...] = ()
    directory: str = ""
    reason: str = "not asked for (CIVTABLE_COMPILED is not set)"
    games: tuple[str, ...] = field(default_factory=tuple)

    def label(self) -> str:
        """A short label for figures: ``pure`` or ``compiled (N modules: game, game)``."""
        if self.build != "compiled":
            return "pure"
        return f"compiled ({len(self.modules)} modules: {', '.join(self.games)})"


_status = Status()


def status() -> Status:
    """Which build this process runs."""
    return _status


class _Finder:
    """Finds the compiled modules (and their group library) in the build directory."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)

    def invalidate_caches(self) -> None:
        """Nothing cached (the import system's protocol)."""


def check(directory: Path) -> tuple[dict[str, Any] | None, str]:
    """The build's stamp if it matches the sources and this interpreter, else why not."""
    stamp_file = directory / STAMP
    try:
        stamp = json.loads(stamp_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"no compiled build in {directory} (run `make compiled`)"
    except (OSError, ValueError) as exc:
        return None, f"unreadable stamp {stamp_file}: {exc}"
    if not isinstance(stamp, dict) or stamp.get("format") != STAMP_FORMAT:
        return None, f"the compiled build in {directory} is of another format ({_REBUILD})"
    if stamp.get("abi") != abi():
        return None, f"the compiled build in {directory} is for another Python ({_REBUILD})"
    for rel, want in sorted(stamp["sources"].items()):
        path = _SRC / rel
        try:
            have = digest(path)
        except OSError:
            have = ""
        if have != want:
            return None, (
                f"the compiled build in {directory} is stale: src/{rel} changed since it was built"
                " (run `make compiled`)"
            )
    for name, rel in stamp["files"].items():
        if not (directory / rel).is_file():
            return None, f"the compiled build in {directory} lacks {name} (run `make compiled`)"
    return stamp, ""


def enable(directory: Path | None = None) -> Status:
    """Load the compiled modules from ``directory`` from now on, if its stamp matches.

    Call it before any module of the build is imported (``civtable/__init__`` does, when asked
    by the environment). A stale or missing build leaves the pure-Python modules in place and
    the reason in :func:`status`.
    """
    global _status
    directory = (directory or default_dir()).resolve()
    stamp, reason = check(directory)
    if stamp is None:
        _status = Status(directory=str(directory), reason=reason)
        return _status
    modules = tuple(stamp["modules"])
    early = [m for m in modules if m in sys.modules]
    if early:
        reason = f"{early[0]} was imported before the compiled build was enabled"
        _status = Status(directory=str(directory), reason=reason)
        return _status
    files = {name: directory / rel for name, rel in stamp["files"].items()}
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(files))
    _status = Status(
        build="compiled",
        modules=modules,
        directory=str(directory),
        reason="",
        games=tuple(stamp["games"]),
    )
    return _status


def enable_from_environment() -> Status:
    """:func:`enable` if ``CIVTABLE_COMPILED=1``; one line on stderr when it cannot."""
    value = os.environ.get(ENV, "")
    if value in ("", "0"):
        return _status
    if value != "1":
        sys.stderr.write(f"civtable: {ENV}={value!r} is not 0 or 1; running pure Python\n")
        return _status
    result = enable()
    if result.build != "compiled":
        sys.stderr.write(f"civtable: {result.reason}; running pure Python\n")
    return result
