"""The Through the Ages data files: the shared validator on the package's copies, and the
catalog built from them (TTA-1.8, TTA-2.2, TTA-2.4, TTA-2.6, TTA-D)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from civtable.games.through_the_ages.catalog import (
    CARDS,
    NCARDS,
    SLOT_CARD,
    civil_deck,
    military_deck,
)
from civtable.games.through_the_ages.rules import effects
from tests import shared_data

SHARED = shared_data.SHARED
VALIDATOR = SHARED / "data" / "through_the_ages" / "validate.py"
RULES = SHARED / "rules" / "through_the_ages.md"
CARDS_MD = SHARED / "rules" / "through_the_ages_cards.md"
DATA_FILES = ("cards.json", "board.json")


def package_data(name: str) -> Path:
    """Path of a data file shipped in the package."""
    return shared_data.package_data("civtable.games.through_the_ages", name)


def run_validator(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``validate.py`` in ``folder`` (with the spec comparison when the specs exist)."""
    if RULES.is_file() and CARDS_MD.is_file():
        args = ["--rules-md", str(RULES), "--cards-md", str(CARDS_MD)]
    else:
        args = ["--no-spec"]
    return shared_data.run_validator(folder / "validate.py", *args)


@pytest.fixture
def validator_dir(tmp_path: Path) -> Path:
    """A folder holding the shared validator next to copies of the package's data files."""
    if not VALIDATOR.is_file():
        pytest.skip(f"shared validator not found at {VALIDATOR}")
    shutil.copy(VALIDATOR, tmp_path / "validate.py")
    shutil.copy(SHARED / "data" / "through_the_ages" / "README.md", tmp_path / "README.md")
    for name in DATA_FILES:
        shutil.copy(package_data(name), tmp_path / name)
    return tmp_path


def test_tta_d_package_data_passes_the_shared_validator(validator_dir: Path) -> None:
    proc = run_validator(validator_dir)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "RESULT: PASS" in proc.stdout


def test_tta_d_validator_rejects_broken_data(validator_dir: Path) -> None:
    path = validator_dir / "cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    c = next(c for c in doc["cards"] if c["id"] == "irrigation")
    c["copies"]["4"] += 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run_validator(validator_dir).returncode != 0


def test_tta_d_package_data_is_the_shared_data() -> None:
    if not VALIDATOR.is_file():
        pytest.skip("shared data not found")
    for name in DATA_FILES:
        shared = json.loads((VALIDATOR.parent / name).read_text(encoding="utf-8"))
        ours = json.loads(package_data(name).read_text(encoding="utf-8"))
        assert ours == shared, name


def test_tta_2_2_civil_deck_sizes() -> None:
    for players, size in ((2, 44), (3, 50), (4, 53)):
        assert len(civil_deck(0, players)) == 20
        for age in (1, 2, 3):
            assert len(civil_deck(age, players)) == size


def test_tta_2_6_first_game_military_decks() -> None:
    assert len(military_deck(1, 4, True)) == 37
    assert len(military_deck(2, 4, True)) == 33
    assert len(military_deck(1, 4, False)) == 45
    kinds = Counter(CARDS[c].type for c in military_deck(1, 3, True))
    assert set(kinds) <= {"event", "territory", "tactic", "bonus"}


def test_tta_1_8_every_building_slot_has_one_card() -> None:
    assert NCARDS == 236
    assert sum(1 for s in SLOT_CARD if s >= 0) == 34
    for slot, cid in enumerate(SLOT_CARD):
        if cid >= 0:
            assert CARDS[cid].slot == slot


def test_every_civil_hook_is_classified() -> None:
    """Each hook key of a civil card is either implemented or explicitly left to part 2."""
    for c in CARDS:
        for op in c.ops:
            if op["op"] == "hook":
                assert op["key"] in effects.IMPLEMENTED_HOOKS | effects.PART2_HOOKS, op["key"]
