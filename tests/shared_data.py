"""What the games' data tests share: the package's data files and running a shared validator.

``../shared/data/<game>/validate.py`` checks a game's JSON files against its schema (and, when
the specs are present, against ``../shared/rules``). Each game's ``test_data.py`` copies the
package's data next to the validator and runs it with that validator's own arguments.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # the repository root
SHARED = ROOT.parent / "shared"
SPEC_DIR = SHARED / "rules"


def package_data(package: str, name: str) -> Path:
    """Path of ``data/<name>`` shipped in the game package ``package`` (it must exist)."""
    path = Path(str(resources.files(package) / "data" / name))
    assert path.is_file(), f"missing package data file {name}"
    return path


def run_validator(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a copied ``validate.py`` with ``args``; the caller checks its exit code and output."""
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
