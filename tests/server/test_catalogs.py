"""The UI catalogues of Deus and Civilization: A New Dawn (served to their table views)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from civtable.games.civilization_a_new_dawn import actions as civ_actions
from civtable.games.civilization_a_new_dawn.catalog import FOCUS_CARDS, LEADERS, WONDERS
from civtable.games.deus import actions as deus_actions
from civtable.games.deus.catalog import CARDS, COLORS, GODS, RESOURCES
from tests.server.helpers import make_client


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def test_deus_catalog_has_every_card_god_and_action_range(client: TestClient) -> None:
    cat = client.get("/api/game-types/deus/catalog").json()
    assert len(cat["cards"]) == len(CARDS)
    for card in CARDS:
        doc = cat["cards"][card.id]
        assert doc["index"] == card.index
        assert doc["color"] == COLORS[card.color]
        assert doc["cost"] == {RESOURCES[r]: n for r, n in enumerate(card.cost) if n}  # DEUS-7.3
    assert {g["name"] for g in cat["gods"].values()} == {g.name for g in GODS}  # DEUS-10.2
    assert cat["actions"]["REGION"] == deus_actions.REGION
    assert cat["actions"]["SPACE"] == deus_actions.ACTION_SPACE


def test_civ_6_catalog_says_what_every_focus_card_does_in_every_slot(client: TestClient) -> None:
    cat = client.get("/api/game-types/civilization-a-new-dawn/catalog").json()
    assert set(cat["focus_cards"]) == {c.id for c in FOCUS_CARDS}
    for card in FOCUS_CARDS:
        slots = cat["focus_cards"][card.id]["slots"]
        assert sorted(slots) == ["1", "2", "3", "4", "5"]
        assert all(text.strip() for text in slots.values())
    pottery = cat["focus_cards"]["pottery"]["slots"]
    assert "difficulty 1" in pottery["1"]  # CIV-11: the slot sets the terrain difficulty
    assert "difficulty 5" in pottery["5"]
    assert set(cat["leaders"]) == {ld.id for ld in LEADERS}
    assert set(cat["wonders"]) == {w.id for w in WONDERS}
    assert cat["actions"]["SPACE"] == civ_actions.SPACE
