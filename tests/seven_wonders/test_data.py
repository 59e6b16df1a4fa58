"""The 7 Wonders data files: the shared validator on the package's copies, and the catalog built
from them (SW-1.2, SW-1.3, SW-2.2 .. SW-2.4, SW-2.10, SW-15)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from civtable.games.seven_wonders.catalog import (
    BOARDS,
    CARDS,
    DECKS,
    GUILDS,
    GUILDS_DRAWN,
    PURPLE,
)
from tests import shared_data

from .test_properties import new_game

SHARED = shared_data.SHARED
VALIDATOR = SHARED / "data" / "seven_wonders" / "validate.py"
SPEC = SHARED / "rules" / "seven_wonders.md"
DATA_FILES = ("cards.json", "wonders.json")


def package_data(name: str) -> Path:
    """Path of a data file shipped in the package."""
    return shared_data.package_data("civtable.games.seven_wonders", name)


def run_validator(folder: Path) -> subprocess.CompletedProcess[str]:
    """Run ``validate.py`` in ``folder`` (with the spec comparison when the spec exists)."""
    args = ["--spec", str(SPEC)] if SPEC.is_file() else ["--no-spec"]
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


def test_sw_15_package_data_passes_the_shared_validator(validator_dir: Path) -> None:
    proc = run_validator(validator_dir)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK: all" in proc.stdout
    if SPEC.is_file():
        assert "comparisons with" in proc.stdout  # the spec cross-check really ran


def test_sw_15_validator_rejects_broken_data(validator_dir: Path) -> None:
    """The validator run above can fail: a wrong copy count is caught."""
    path = validator_dir / "cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    card = next(c for c in doc["cards"] if c["age"] == 1 and c["color"] == "brown")
    key = next(iter(card["copies"]))
    card["copies"][key] += 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    proc = run_validator(validator_dir)
    assert proc.returncode != 0


def test_sw_15_package_data_is_the_shared_data() -> None:
    """SOURCE.md: the package's data files are unchanged copies of shared/data/seven_wonders."""
    if not VALIDATOR.is_file():
        pytest.skip("shared data not found")
    for name in DATA_FILES:
        shared = json.loads((VALIDATOR.parent / name).read_text(encoding="utf-8"))
        ours = json.loads(package_data(name).read_text(encoding="utf-8"))
        assert ours == shared, name


# --- the catalog ----------------------------------------------------------------------------------
def test_sw_1_2_card_types() -> None:
    assert len(CARDS) == 78
    assert len({c.id for c in CARDS}) == 78
    assert len({c.name for c in CARDS}) == 75
    assert len({(c.age, c.name) for c in CARDS}) == 78
    per_age = Counter(c.age for c in CARDS if c.color != PURPLE)
    assert per_age == {1: 27, 2: 23, 3: 18}
    assert len(GUILDS) == 10
    assert all(CARDS[g].age == 3 for g in GUILDS)
    assert [c.index for c in CARDS] == list(range(78))


def test_sw_1_3_boards_and_stages() -> None:
    assert len(BOARDS) == 7
    assert {b.id for b in BOARDS} == {
        "rhodes",
        "alexandria",
        "ephesus",
        "babylon",
        "olympia",
        "halikarnassus",
        "giza",
    }
    for board in BOARDS:
        for stages in board.sides:
            assert 2 <= len(stages) <= 4
            assert [s.number for s in stages] == list(range(1, len(stages) + 1))


@pytest.mark.parametrize("n", range(3, 8))
def test_sw_2_4_deck_sizes_are_7n_per_age(n: int) -> None:
    assert GUILDS_DRAWN[n] == n + 2  # SW-2.3
    for age in (1, 2, 3):
        deck = DECKS[(age, n)]
        guilds = GUILDS_DRAWN[n] if age == 3 else 0
        assert len(deck) + guilds == 7 * n
        assert all(CARDS[t].age == age and CARDS[t].color != PURPLE for t in deck)
    # SW-2.2: a bigger table adds cards, never removes them.
    if n > 3:
        for age in (1, 2, 3):
            assert not Counter(DECKS[(age, n - 1)]) - Counter(DECKS[(age, n)])
    # SW-2.10: 49/49/40 non-guild cards at 7 players.
    if n == 7:
        assert [len(DECKS[(age, 7)]) for age in (1, 2, 3)] == [49, 49, 40]


@pytest.mark.parametrize("players", range(2, 8))
def test_sw_2_10_new_game_deals_seven_cards_per_city(players: int) -> None:
    state = new_game(players, 100 + players, "A")
    n = 3 if players == 2 else players
    assert state.n == n
    assert sum(len(h) for h in state.hands) == 7 * n
    if players == 2:
        # SW-14.4.1: the controller has drawn the Free City's top card.
        assert sorted(len(h) for h in state.hands) == [6, 7, 8]
    else:
        assert all(len(h) == 7 for h in state.hands)
    deck_players = 3 if players == 2 else players
    assert Counter(t for h in state.hands for t in h) == Counter(DECKS[(1, deck_players)])
    assert all(city.coins == 3 for city in state.cities)  # SW-2.7
    assert len({city.board for city in state.cities}) == n  # SW-2.5
