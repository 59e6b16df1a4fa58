"""The opt-in compiled build of the rules (issue 21, :mod:`civtable.compiled`).

Selection happens when :mod:`civtable` is imported, so each case runs a fresh interpreter. The
cases that need a build use the first one found whose stamp matches the sources
(``CIVTABLE_COMPILED_DIR``, ``build/compiled-ci`` of ``make test``, ``build/compiled`` of ``make
compiled``) and are skipped, saying so, when there is none. That the compiled rules give the
same games is shown by the fingerprint and property tests, which ``make test`` runs again on the
compiled build (``make test-compiled``); :func:`test_the_compiled_build_runs_when_asked` makes
sure that run really used it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from civtable import compiled

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
import civtable.compiled as c
from civtable import games
modules = {}
for name in c.status().modules or ["civtable.games.seven_wonders.rules.turn"]:
    __import__(name)
    modules[name] = sys.modules[name].__file__
state = games.get(sys.argv[1]).new_game(4, 11)
while not state.is_terminal():
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    state.apply(seat, legal[(len(state.history) * 7) % len(legal)])
group = sys.modules.get("civtable_compiled__mypyc")
print(json.dumps({
    "build": c.status().build,
    "label": c.status().label(),
    "modules": modules,
    "group": getattr(group, "__file__", None),
    "path": sys.path,
    "hash": state.state_hash(),
}))
"""


def probe(
    env_compiled: str | None, directory: Path | None = None, game: str = "seven-wonders"
) -> tuple[dict[str, Any], str]:
    """Run :data:`PROBE` (a game of ``game``) in a fresh interpreter; its report and stderr."""
    env = {k: v for k, v in os.environ.items() if k not in (compiled.ENV, compiled.ENV_DIR)}
    if env_compiled is not None:
        env[compiled.ENV] = env_compiled
    if directory is not None:
        env[compiled.ENV_DIR] = str(directory)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, game], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout), done.stderr


def fresh_build() -> Path:
    """A build whose stamp matches the sources, or skip."""
    named = os.environ.get(compiled.ENV_DIR)
    candidates = [Path(named)] if named else []
    candidates += [ROOT / "build" / "compiled-ci", ROOT / "build" / "compiled"]
    for directory in candidates:
        stamp, _ = compiled.check(directory)
        if stamp is not None:
            return directory
    pytest.skip("no up-to-date compiled build (make compiled or make compiled-ci builds one)")


def test_without_the_variable_the_rules_are_pure_python() -> None:
    report, err = probe(None)
    assert report["build"] == "pure"
    assert report["label"] == "pure"
    assert all(f.endswith(".py") for f in report["modules"].values())
    assert report["group"] is None
    assert err == ""
    report0, err0 = probe("0")
    assert (report0["build"], err0) == ("pure", "")


def stamp_of(directory: Path) -> dict[str, Any]:
    """The build's stamp."""
    doc: dict[str, Any] = json.loads((directory / compiled.STAMP).read_text(encoding="utf-8"))
    return doc


def test_the_build_is_used_when_asked_and_gives_the_same_game() -> None:
    directory = fresh_build().resolve()
    game = stamp_of(directory)["games"][0]
    pure, _ = probe(None, game=game)
    report, err = probe("1", directory, game)
    assert err == ""
    assert report["build"] == "compiled"
    assert report["label"].startswith("compiled (")
    suffix = compiled.abi()["ext_suffix"]
    for name, file in report["modules"].items():
        assert file.endswith(suffix), name
        assert Path(file).is_relative_to(directory / "lib"), name
    # mypyc's group library, which every shim imports by name, came from the build directory
    # through the finder, not from sys.path (the build directory is not on it).
    assert report["group"] is not None
    assert Path(report["group"]).is_relative_to(directory / "lib")
    assert not any(str(directory) in p for p in report["path"])
    assert report["hash"] == pure["hash"]  # the same seed and moves: the same state


def test_a_stale_build_is_refused_in_one_line_and_the_pure_rules_run(tmp_path: Path) -> None:
    build = tmp_path / "build"
    shutil.copytree(fresh_build(), build)
    stamp = stamp_of(build)
    rel = stamp["modules"][-1].replace(".", "/") + ".py"
    assert rel in stamp["sources"]
    stamp["sources"][rel] = "0" * 64  # as if turn.py had been edited after the build
    (build / compiled.STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    report, err = probe("1", build)
    assert report["build"] == "pure"
    assert all(f.endswith(".py") for f in report["modules"].values())
    assert report["group"] is None
    assert err.count("\n") == 1
    assert f"stale: src/{rel} changed" in err
    assert "running pure Python" in err


def test_a_build_for_another_python_is_refused(tmp_path: Path) -> None:
    build = tmp_path / "build"
    shutil.copytree(fresh_build(), build)
    stamp = stamp_of(build)
    stamp["abi"]["cache_tag"] = "cpython-27"
    (build / compiled.STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    report, err = probe("1", build)
    assert report["build"] == "pure"
    assert "for another Python" in err


def test_a_missing_build_or_a_bad_value_is_said_and_the_pure_rules_run(tmp_path: Path) -> None:
    report, err = probe("1", tmp_path / "nothing")
    assert report["build"] == "pure"
    assert err.strip() == (
        f"civtable: no compiled build in {tmp_path / 'nothing'} (run `make compiled`);"
        " running pure Python"
    )
    report, err = probe("yes")
    assert report["build"] == "pure"
    assert "CIVTABLE_COMPILED='yes' is not 0 or 1" in err


def test_enabling_after_the_rules_were_imported_is_refused() -> None:
    directory = fresh_build().resolve()
    first = stamp_of(directory)["modules"][0]
    code = (
        "import civtable.compiled as c, sys\n"
        f"import {first}\n"
        f"s = c.enable(__import__('pathlib').Path({str(directory)!r}))\n"
        "print(s.build, '|', s.reason)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in (compiled.ENV, compiled.ENV_DIR)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith(f"pure | {first} ")
    assert "was imported before the compiled build was enabled" in out


def test_the_compiled_build_runs_when_asked() -> None:
    """In ``make test-compiled`` (CIVTABLE_COMPILED=1) the tests really run the compiled rules."""
    if os.environ.get(compiled.ENV) != "1":
        pytest.skip("CIVTABLE_COMPILED=1 is not set: the pure-Python run")
    status = compiled.status()
    assert status.build == "compiled", status.reason
    suffix = compiled.abi()["ext_suffix"]
    for name in status.modules:
        __import__(name)
        assert sys.modules[name].__file__ is not None
        assert sys.modules[name].__file__.endswith(suffix), name
