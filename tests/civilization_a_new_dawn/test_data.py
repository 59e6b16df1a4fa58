"""The package data: the shared validate.py on the package's copies (CIV data tables D1-D13),
and the catalog decoded from them (CIV-1.1, CIV-6.6, CIV-9.3, CIV-20.2, D12.2 check values)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from civtable.games.civilization_a_new_dawn import catalog as cat
from civtable.games.civilization_a_new_dawn.hexes import (
    build_board,
    first_game_layout,
    holes,
    placed_cells,
    standard_layout,
)
from tests import shared_data

SHARED = shared_data.SHARED
VALIDATOR = SHARED / "data" / "civilization_a_new_dawn" / "validate.py"
SPEC_DIR = SHARED / "rules"
DATA_FILES = (
    "sources", "vocabulary", "focus_cards", "wonders", "leaders", "city_states", "diplomacy",
    "natural_wonders", "victory_cards", "dials", "layouts",
)  # fmt: skip


def package_data(name: str) -> Path:
    """Path of a data file shipped in the package."""
    return shared_data.package_data("civtable.games.civilization_a_new_dawn", name)


@pytest.fixture
def validator_dir(tmp_path: Path) -> Path:
    """``data/civilization_a_new_dawn`` (validator + package copies) and ``rules`` (tiles)."""
    if not VALIDATOR.is_file():
        pytest.skip(f"shared validator not found at {VALIDATOR}")
    data = tmp_path / "data" / "civilization_a_new_dawn"
    rules = tmp_path / "rules"
    data.mkdir(parents=True)
    rules.mkdir()
    shutil.copy(VALIDATOR, data / "validate.py")
    shutil.copy(package_data("README.md"), data / "README.md")
    for name in DATA_FILES:
        shutil.copy(package_data(name + ".json"), data / (name + ".json"))
    shutil.copy(package_data("tiles.json"), rules / "civilization_a_new_dawn_tiles.json")
    for md in ("civilization_a_new_dawn.md", "civilization_a_new_dawn_data.md"):
        if (SPEC_DIR / md).is_file():
            shutil.copy(SPEC_DIR / md, rules / md)
    return data


def run(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run the validator in ``folder``."""
    return shared_data.run_validator(
        folder / "validate.py", "--rules", str(folder.parents[1] / "rules")
    )


def test_civ_data_package_copies_pass_the_shared_validator(validator_dir: Path) -> None:
    proc = run(validator_dir)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def test_civ_data_validator_rejects_broken_data(validator_dir: Path) -> None:
    path = validator_dir / "focus_cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][0]["effect_by_slot"]["3"]["steps"][0]["count"] = 5
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert run(validator_dir).returncode != 0


def test_civ_6_6_focus_card_table() -> None:
    assert len(cat.FOCUS_CARDS) == 20
    assert [c.name for c in cat.FOCUS_CARDS if c.type == cat.MILITARY] == [
        "Masonry", "Iron Working", "Mass Production", "Flight",
    ]  # fmt: skip
    # CIV-8.4 token counts, CIV-10.1 caravans/moves, CIV-11.3 ranges (from any slot)
    assert [c.effects[2].steps[0].count for c in cat.FOCUS_CARDS if c.type == cat.CULTURE] == [
        2, 2, 2, 3,
    ]  # fmt: skip
    eco = [c.effects[0].steps[0] for c in cat.FOCUS_CARDS if c.type == cat.ECONOMY]
    assert [(s.caravans, s.move) for s in eco] == [(1, 3), (2, 4), (2, 6), (3, 6)]
    ind = [c.effects[0].steps[0].range for c in cat.FOCUS_CARDS if c.type == cat.INDUSTRY]
    assert ind == [2, 3, 4, 5]
    nat = cat.FOCUS_CARDS[cat.CARD_INDEX["nationalism"]]
    assert nat.effects[4].steps[1].base_production == 7  # CIV-12.3


def test_civ_9_3_dials_and_20_2_sections() -> None:
    assert cat.TIER_SPACES == {3: 2, 6: 2, 10: 3, 14: 3, 19: 4, 24: 4}
    assert cat.dial_next(24) == 15
    assert cat.dial_next(3) == 4
    assert cat.EVENT_SECTIONS == (
        "barbarian_spawn", "", "barbarian_movement", "trade", "barbarian_movement",
    )  # fmt: skip


def test_civ_3_11_first_game_layout_check_values() -> None:
    for players, size, caps in (
        (2, 100, [(-3, -3), (4, 0)]),
        (3, 131, [(-3, -3), (4, 0), (7, -9)]),
        (4, 161, [(-3, -3), (4, 0), (7, -9), (-7, 8)]),
    ):
        placements, water = first_game_layout(players)
        b = build_board(placements, water)
        assert b.size == size
        assert [b.coords[s] for s in b.capitals()] == caps
    placements, water = first_game_layout(4)
    b = build_board(placements, water)
    assert b.coords[b.city_state.index(cat.CS_INDEX["geneva"])] == (-6, 3)
    assert b.coords[b.spawn.index(cat.BARBARIAN_LETTERS.index("D"))] == (3, -1)


def test_civ_4_standard_map_obeys_placement_rules() -> None:
    from civtable.core.rng import Rng

    for players in (2, 3):
        placements, water, caps = standard_layout(players, Rng(players))
        assert len(placements) == 10 + 3 * (players - 2) or len(placements) < 4 + 3 * players
        assert len(set(caps)) == players
        assert all(c in cat.CAPITAL_TILES for c in caps)
        occupied: set[tuple[int, int]] = set()
        for i, p in enumerate(placements):
            cells = placed_cells(p)
            assert not occupied & set(cells)  # CIV-4.6(a)
            if i >= 4:
                touched = {
                    (q + dq, r + dr)
                    for q, r in cells
                    for dq, dr in cat.DIR_VECTORS
                    if (q + dq, r + dr) in occupied
                }
                assert len(touched) >= cat.MIN_CONTACT  # CIV-4.6(b)
            occupied |= set(cells)
        assert sorted(holes(occupied | set(water))) == []  # CIV-4.6(e): holes filled
        assert len(water) <= cat.WATER_TOKENS
