"""Build the opt-in compiled rules (issue 21): ``make compiled`` runs this with the venv's Python.

Compiles the modules ``scripts/compiled.toml`` lists with mypyc (the mypy of the test
dependencies) and the system C compiler into ``build/compiled/`` (out of the source tree):

- ``lib/``: the extension modules, laid out as packages, and mypyc's group library;
- ``c/`` and ``temp/``: the generated C and the object files (kept: the C compiler runs again
  only when the generated C changed);
- ``stamp.json``, written last: the interpreter it is for, the modules and their files, and
  the digest of every source file the compiled code depends on (see ``civtable.compiled``).

``--ci`` builds only the games marked ``ci = true``; ``--game G`` (repeatable) only those games;
``--print-tests`` prints the test files that replay those games (``make test-compiled``).
Without mypyc or a C compiler it fails with the reason, and the pure-Python package is unchanged.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
LIST = ROOT / "scripts" / "compiled.toml"
#: the name of mypyc's shared library of the build (a top-level module name)
GROUP = "civtable_compiled"


def selected(listing: Path, ci: bool, games: list[str]) -> dict[str, list[str]]:
    """game -> modules, as the list file says, filtered by ``--ci`` / ``--game``."""
    table = tomllib.loads(listing.read_text(encoding="utf-8"))
    unknown = sorted(set(games) - set(table))
    if unknown:
        raise SystemExit(f"build_compiled: no game {unknown[0]!r} in {listing}")
    out: dict[str, list[str]] = {}
    for game, entry in table.items():
        if games and game not in games:
            continue
        if ci and not entry.get("ci", False):
            continue
        out[game] = list(entry["modules"])
    return out


def source(module: str) -> Path:
    """The source file of a module of the package."""
    path = SRC.joinpath(*module.split(".")).with_suffix(".py")
    if not path.is_file():
        raise SystemExit(f"build_compiled: {module} has no source file {path}")
    return path


def dependencies(modules: list[str], games: list[str]) -> list[Path]:
    """Every source file the compiled code depends on, for the stamp.

    The modules the compiled ones import when they run (found by importing them in a fresh
    pure-Python interpreter), plus every module of the games compiled (their type-only imports).
    """
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(json.dumps(sorted(getattr(m, '__file__', None) or '' "
        "for n, m in list(sys.modules.items()) if n.split('.')[0] == 'civtable')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CIVTABLE_COMPILED"}
    env["PYTHONPATH"] = str(SRC)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    files = {Path(f).resolve() for f in json.loads(out) if f.endswith(".py")}
    for game in games:
        package = SRC / "civtable" / "games" / game.replace("-", "_")
        files.update(p.resolve() for p in package.rglob("*.py"))
    return sorted(f for f in files if f.is_relative_to(SRC))


def main(argv: list[str] | None = None) -> int:
    """Build, then write the stamp."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled")
    parser.add_argument("--ci", action="store_true", help="only the games marked ci = true")
    parser.add_argument("--game", action="append", default=[], help="only this game")
    parser.add_argument("--list", type=Path, default=LIST, help="another module list (trials)")
    parser.add_argument("--force", action="store_true", help="build even if up to date")
    parser.add_argument(
        "--print-tests",
        action="store_true",
        help="print the test files that replay the selected games, and build nothing",
    )
    args = parser.parse_args(argv)
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as exc:
        raise SystemExit(
            f"build_compiled: mypyc is missing ({exc}); run `make install-test`"
        ) from exc
    sys.path.insert(0, str(SRC))
    from civtable.compiled import STAMP, STAMP_FORMAT, abi, check, digest

    chosen = selected(args.list, args.ci, args.game)
    if args.print_tests:
        for game in sorted(chosen):
            folder = Path("tests", game.replace("-", "_"))
            print(folder / "test_fingerprints.py", folder / "test_properties.py")
        return 0
    modules = [m for ms in chosen.values() for m in ms]
    if not modules:
        raise SystemExit("build_compiled: no module selected")
    out: Path = args.out.resolve()
    stamp_now, _ = check(out)
    if not args.force and stamp_now is not None and stamp_now["modules"] == modules:
        print(f"build_compiled: {out} is up to date ({len(modules)} modules)")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    (out / STAMP).unlink(missing_ok=True)  # no stamp while the build is incomplete
    started = time.monotonic()
    # the digests of the sources as compiled, taken before mypyc reads them: a source edited
    # during the build must not be stamped as up to date
    deps = dependencies(modules, sorted(chosen))
    sources = {p.relative_to(SRC).as_posix(): digest(p) for p in deps}
    paths = [str(source(m).relative_to(ROOT)) for m in modules]
    os.chdir(ROOT)  # mypy reads its configuration (pyproject.toml) from here
    extensions = mypycify(paths, target_dir=str(out / "c"), group_name=GROUP, opt_level="3")
    generated = time.monotonic()
    os.chdir(out)  # setuptools must not read the project's pyproject.toml
    setup(
        name="civtable-compiled",
        ext_modules=extensions,
        script_name="build_compiled",
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            str(out / "lib"),
            "--build-temp",
            str(out / "temp"),
        ],
    )
    files: dict[str, str] = {}
    suffix = abi()["ext_suffix"]
    for name in [*modules, f"{GROUP}__mypyc"]:
        rel = Path("lib", *name.split(".")).as_posix() + suffix
        if not (out / rel).is_file():
            raise SystemExit(f"build_compiled: the build made no {rel}")
        files[name] = rel
    for old in (out / "lib").rglob("*" + suffix):  # modules of an older list
        if old.relative_to(out).as_posix() not in files.values():
            old.unlink()
    stamp = {
        "format": STAMP_FORMAT,
        "abi": abi(),
        "games": sorted(chosen),
        "modules": modules,
        "files": files,
        "sources": sources,
    }
    changed = sorted(rel for rel, d in sources.items() if digest(SRC / rel) != d)
    if changed:
        raise SystemExit(
            f"build_compiled: {', '.join(changed)} changed during the build; no stamp written"
            " (run it again)"
        )
    (out / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"build_compiled: {len(modules)} modules of {', '.join(sorted(chosen))} in"
        f" {time.monotonic() - started:.0f} s (mypyc {generated - started:.0f} s, C compiler"
        f" {time.monotonic() - generated:.0f} s) -> {out}"
        f" (use with CIVTABLE_COMPILED=1)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
