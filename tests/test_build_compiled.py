"""scripts/build_compiled.py stamps the sources as they were compiled (issue 21 tooling).

mypyc and the C compiler are replaced by fakes that make the files a build makes, so these
cases run in a second; the source tree is a copy, so editing it mid-build touches nothing real.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULE = "civtable.games.deus.scoring"


def _script(tmp: Path) -> ModuleType:
    """The build script, loaded as a module whose tree is a copy in ``tmp``."""
    spec = importlib.util.spec_from_file_location(
        "build_compiled_under_test", ROOT / "scripts" / "build_compiled.py"
    )
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    shutil.copytree(ROOT / "src", tmp / "src", ignore=shutil.ignore_patterns("__pycache__"))
    mod.ROOT = tmp
    mod.SRC = tmp / "src"
    (tmp / "one.toml").write_text(f'[deus]\nci = true\nmodules = ["{MODULE}"]\n', encoding="utf-8")
    return mod


def _fake_tools(monkeypatch: pytest.MonkeyPatch, during: Callable[[], None]) -> None:
    """mypycify runs ``during`` (mypyc reading the sources); setup makes the extension files."""
    mypyc_build = pytest.importorskip("mypyc.build")
    setuptools = pytest.importorskip("setuptools")
    from civtable.compiled import abi

    def mypycify(paths: list[str], **_: Any) -> list[str]:
        during()
        return []

    def setup(**kwargs: Any) -> None:
        args = kwargs["script_args"]
        lib = Path(args[args.index("--build-lib") + 1])
        suffix = abi()["ext_suffix"]
        for name in (MODULE, "civtable_compiled__mypyc"):
            path = lib.joinpath(*name.split(".")).with_name(name.split(".")[-1] + suffix)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")

    monkeypatch.setattr(mypyc_build, "mypycify", mypycify)
    monkeypatch.setattr(setuptools, "setup", setup)


def _build(mod: ModuleType, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    out = tmp / "out"
    monkeypatch.chdir(tmp)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script puts its SRC first
    assert mod.main(["--list", str(tmp / "one.toml"), "--out", str(out), "--force"]) == 0
    return out


def test_stamp_records_the_sources_as_compiled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mod = _script(tmp_path)
    _fake_tools(monkeypatch, lambda: None)
    out = _build(mod, tmp_path, monkeypatch)
    stamp = json.loads((out / "stamp.json").read_text(encoding="utf-8"))
    from civtable.compiled import digest

    rel = "civtable/games/deus/scoring.py"
    assert stamp["sources"][rel] == digest(tmp_path / "src" / rel)
    assert stamp["modules"] == [MODULE]


def test_a_source_edited_during_the_build_is_not_stamped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mod = _script(tmp_path)
    source = tmp_path / "src" / "civtable" / "games" / "deus" / "scoring.py"

    def edit() -> None:  # the developer saves a change while mypyc runs
        source.write_text(source.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")

    _fake_tools(monkeypatch, edit)
    with pytest.raises(SystemExit, match=r"scoring\.py changed during the build; no stamp written"):
        _build(mod, tmp_path, monkeypatch)
    assert not (tmp_path / "out" / "stamp.json").exists()
