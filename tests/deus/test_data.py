"""The Deus data files: the shared validator on the package's copies, and the catalog built from
them (DEUS-2, DEUS-3, DEUS-4, D.1, D.2)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from civtable.core.rng import Rng
from civtable.games.deus.catalog import (
    BY_PLAYERS,
    CARDS,
    COLORS,
    DECK,
    EFFECT_KINDS,
    GODS,
    LAYOUTS,
    build_board,
    random_tiles,
    villages_adjacent,
)
from civtable.games.deus.rules import effects
from tests import shared_data

SHARED = shared_data.SHARED
VALIDATOR = SHARED / "data" / "deus" / "validate.py"
SPEC_DIR = SHARED / "rules"
DATA_FILES = ("cards.json", "gods.json", "boards.json", "setup.json")


def package_data(name: str) -> Path:
    """Path of a data file shipped in the package."""
    return shared_data.package_data("civtable.games.deus", name)


def run_validator(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``validate.py`` in ``folder`` (with the spec comparison when the spec exists)."""
    spec = (SPEC_DIR / "deus.md").is_file()
    args = ["--spec-dir", str(SPEC_DIR)] if spec else ["--no-spec"]
    return shared_data.run_validator(folder / "validate.py", *args)


@pytest.fixture
def validator_dir(tmp_path: Path) -> Path:
    """A folder holding the shared validator next to copies of the package's data files."""
    if not VALIDATOR.is_file():
        pytest.skip(f"shared validator not found at {VALIDATOR}")
    shutil.copy(VALIDATOR, tmp_path / "validate.py")
    for name in DATA_FILES:
        shutil.copy(package_data(name), tmp_path / name)
    return tmp_path


def test_deus_data_package_copy_passes_the_shared_validator(validator_dir: Path) -> None:
    proc = run_validator(validator_dir)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK: all" in proc.stdout
    if (SPEC_DIR / "deus.md").is_file():
        assert "spec cross-check" in proc.stdout  # the spec comparison really ran


def test_deus_data_validator_rejects_broken_data(validator_dir: Path) -> None:
    """The validator run above can fail: a wrong copy count is caught."""
    path = validator_dir / "cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][0]["copies"] += 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run_validator(validator_dir).returncode != 0


def test_deus_data_package_data_is_the_shared_data() -> None:
    """SOURCE.md: the package's data files are unchanged copies of shared/data/deus."""
    if not VALIDATOR.is_file():
        pytest.skip("shared data not found")
    for name in DATA_FILES:
        shared = json.loads((VALIDATOR.parent / name).read_text(encoding="utf-8"))
        ours = json.loads(package_data(name).read_text(encoding="utf-8"))
        assert ours == shared, name


# --- the catalog ----------------------------------------------------------------------------------
def test_deus_2_2_deck_of_96_cards_16_per_colour() -> None:
    assert len(DECK) == 96
    per_color = Counter(CARDS[t].color for t in DECK)
    assert per_color == dict.fromkeys(range(len(COLORS)), 16)
    assert len(CARDS) == 72


def test_deus_catalog_every_effect_kind_has_a_named_rule_function() -> None:
    assert [f.__name__ for f in effects.EFFECTS] == list(EFFECT_KINDS)
    assert {CARDS[t].effect.kind for t in DECK} == set(range(len(EFFECT_KINDS)))


def test_deus_10_gods_one_per_colour() -> None:
    assert [COLORS[g.color] for g in GODS] == list(COLORS)
    names = {COLORS[g.color]: g.name for g in GODS}
    assert names == {
        "brown": "Vesta",
        "yellow": "Minerva",
        "blue": "Neptune",
        "red": "Mars",
        "green": "Ceres",
        "purple": "Jupiter",
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deus_3_5_reference_layouts(players: int) -> None:
    pc = BY_PLAYERS[players]
    board = build_board(LAYOUTS[pc.layout])
    assert board.size == 7 * pc.tiles  # DEUS-3.1
    assert len(board.villages) == pc.tiles
    assert not villages_adjacent(board)
    assert sum(board.village_vp) == {2: 18, 3: 27, 4: 31}[players]  # X18
    assert all(3 <= vp <= 6 for vp in board.village_vp)  # X3


@pytest.mark.parametrize("seed", range(6))
def test_deus_3_5_random_boards_have_no_adjacent_villages(seed: int) -> None:
    for players in (2, 3, 4):
        tiles = random_tiles(players, Rng(seed))
        board = build_board(tiles)
        assert not villages_adjacent(board)
        assert len({t[1][:-1] for t in tiles}) == len(tiles)  # no physical tile twice
        assert board.size == 7 * BY_PLAYERS[players].tiles


@pytest.mark.parametrize(
    ("card_id", "function"),
    [
        ("BRN-09", "gain_per"),
        ("GRN-01", "produce_at_one_building"),
        ("GRN-06", "produce_in_region"),
        ("BLU-05", "sell"),
        ("BLU-13", "buy"),
        ("YEL-08", "activate"),
        ("RED-01", "steal"),
        ("RED-02", "move_armies"),
        ("RED-06", "take_from_village"),
        ("PUR-12", "score_per"),
    ],
)
def test_deus_d2_card_effects_are_found_by_card_id(card_id: str, function: str) -> None:
    assert effects.rule_function(card_id).__name__ == function
