"""The Civilization terminal speaks player words (issue 18): `civtable play` and `civtable
replay` show names, prompts, labels and log lines, never engine vocabulary."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from civtable.cli import main
from tests.browser.vocabulary import findings

CIV = "civilization-a-new-dawn"


def _vocabulary(text: str) -> list[str]:
    """Engine vocabulary in the output (the file path the game was saved to aside)."""
    lines = [("terminal", line) for line in text.splitlines() if line.strip() and "/" not in line]
    return findings(lines)


def test_play_and_replay_in_player_words(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 40 + "q\n"))
    save = tmp_path / "civ.json"
    code = main(["play", CIV, "--players", "2", "--seed", "3", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Choose a focus card to resolve" in out
    assert "resolves" in out  # log lines
    assert "Cleopatra" in out  # the leader by name, not by id
    assert not _vocabulary(out), _vocabulary(out)[:5]
    code = main(["replay", str(save), "--all"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Player 1: " in out
    assert not _vocabulary(out), _vocabulary(out)[:5]
