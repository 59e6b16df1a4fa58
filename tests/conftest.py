"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest

from civtable import games

PLANNED = "planned-game"


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line reads its default language from LC_ALL / LC_MESSAGES / LANG: tests run
    in English whatever the developer's locale (a test of another language says so)."""
    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def planned_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """A registry entry for a game that is listed but not implemented (all four real games are
    playable now, so the "planned" paths are exercised with this stand-in)."""
    registry = dict(games.REGISTRY)
    registry[PLANNED] = games.GameInfo(PLANNED, "A Planned Game", None, "2-4")
    monkeypatch.setattr(games, "REGISTRY", registry)
    return PLANNED
