"""``civtable --lang``: what a player or an analyst reads on the command line in English, Russian
or Ukrainian (issue 19); the default comes from LC_ALL / LC_MESSAGES / LANG."""

from __future__ import annotations

import io
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from civtable import present
from civtable.cli import env_language, main

#: Latin words a Russian or Ukrainian output may keep: ids and values the user typed on the
#: command line (bots, the --seed option), the product, the rating system's name, and the keys
_LATIN_OK = {"civtable", "heuristic", "random", "seed", "q", "Enter", "OpenSkill", "n", "I"}


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "220")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def latin(text: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if w not in _LATIN_OK}


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "uk_UA.UTF-8"}, "uk"),
        ({"LC_ALL": "uk_UA.UTF-8", "LANG": "ru_RU.UTF-8"}, "uk"),
        ({"LC_ALL": "", "LC_MESSAGES": "ru_RU", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_environment(
    env: dict[str, str], expected: str
) -> None:
    assert env_language(env) == expected


@pytest.mark.parametrize(
    "argv",
    [
        ("--lang", "xx", "games"),
        ("cards", "deus", "--lang", "xx"),
        ("--lang", "de", "simulate", "deus", "--players", "2", "--games", "1"),
    ],
)
def test_an_unknown_language_is_a_usage_error_naming_the_choices(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert "--lang" in err
    assert "en, ru, uk" in err


def test_simulate_summary_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--lang", "ru", "simulate", "deus", "--players", "2", "--games", "1")
    assert code == 0
    assert out.splitlines()[0] == "Деус: 1 партия, 2 игрока"
    for word in ("завершено", "по местам", "средний счёт", "партий в секунду"):
        assert word in out
    assert not latin(out), latin(out)


def test_lang_from_the_environment_and_after_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    code, out, _ = run(capsys, "simulate", "deus", "--players", "2", "--games", "2")
    assert code == 0
    assert out.splitlines()[0] == "Деус: 2 партії, 2 гравці"
    # an explicit --lang wins over the environment, before or after the command
    code, out, _ = run(capsys, "simulate", "deus", "--players", "2", "--games", "2", "--lang", "en")
    assert out.splitlines()[0] == "Deus: 2 games, 2 players"
    code, out, _ = run(capsys, "--lang", "ru", "simulate", "deus", "--players", "2", "--games", "5")
    assert out.splitlines()[0] == "Деус: 5 партий, 2 игрока"


def _saved_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    code, _, _ = run(
        capsys, "simulate", "seven-wonders", "--players", "3", "--games", "1",
        "--save", str(tmp_path),
    )  # fmt: skip
    assert code == 0
    (path,) = tmp_path.glob("*.json")
    return path


def test_replay_in_russian_and_ukrainian(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = _saved_replay(capsys, tmp_path)
    code, out, _ = run(capsys, "--lang", "ru", "replay", str(path), "--all")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("7 Чудес, запись партии: 3 игрока, раздача ")
    assert first.endswith("; показано: всё")
    assert "Эпоха 1 · ход 1" in out
    assert "что произошло" in out
    assert re.search(r"Победитель: .+ \(место \d\), \d+ очк", out) or "Общая победа" in out
    code, out, _ = run(capsys, "replay", str(path), "--all", "--seat", "1", "--lang", "uk")
    assert code == 0
    assert "запис партії: 3 гравці" in out.splitlines()[0]
    assert out.splitlines()[0].endswith("показано: те, що бачило місце 1")
    code, out, _ = run(capsys, "replay", str(path), "--all")
    assert out.startswith("7 Wonders replay: 3 players, seed ")


def test_play_in_russian(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n99\n"))
    code, out, _ = run(
        capsys, "--lang", "ru", "play", "seven-wonders", "--players", "3", "--seed", "1"
    )
    assert code == 0
    assert out.startswith("7 Чудес, 3 игрока, раздача 1. Вы на месте 0 (Игрок 1); место 1: ")
    assert "ваши варианты" in out
    assert "действие" in out
    assert "ваш выбор [1-" in out
    assert "'x' — не число: введите число от 1 до" in out
    assert "99 — вне диапазона" in out
    assert "Партия прервана; --seed 1 раздаст ту же партию снова." in out


def test_report_in_ukrainian(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    code, out, _ = run(
        capsys, "--lang", "uk", "report", "deus", "--players", "2", "--games", "2",
        "--out", str(target),
    )  # fmt: skip
    assert code == 0
    assert "звіт (2 партії) записано в" in out
    page = target.read_text(encoding="utf-8")
    assert '<html lang="uk">' in page
    for words in (
        "<h1>Деус: звіт про баланс</h1>",
        "Деус, 2 гравці, 2 завершені партії (0 помилок)",
        "<h2>Частка перемог за місцями</h2>",
        "<h2>Розподіл очок</h2>",
        "<th>комп&#x27;ютер</th>",
        "<th>частка перемог</th>",
        "місце 0",
    ):
        assert words in page, words
    text = re.sub(
        r"(?s)<style>.*?</style>|<[^>]+>|data:image/png;base64,[A-Za-z0-9+/=]+", " ", page
    )
    text = re.sub(r"&[a-z#0-9]+;", " ", text)
    assert not latin(text), latin(text)


def test_cards_prints_the_words_modules_entries_in_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A words module with ``card_entries(tr)``: ``civtable cards GAME --lang ru`` prints those
    (name, the extra columns, text; ``--age`` keeps the entries of that age); so does English."""
    seen: list[str] = []

    def card_entries(tr: present.Translator) -> list[dict[str, str]]:
        seen.append(tr.lang)
        return [
            {"name": "Лесопилка", "age": "Эпоха I", "text": "Даёт дерево."},
            {"name": "Акведук", "age": "Эпоха II", "kind": "гражданское", "text": "5 очков."},
        ]

    fake = SimpleNamespace(card_entries=card_entries)
    real = present.words_module
    monkeypatch.setattr(
        present, "words_module", lambda g: fake if g == "seven-wonders" else real(g)
    )
    code, out, _ = run(capsys, "cards", "seven-wonders", "--lang", "ru")
    assert code == 0
    assert seen == ["ru"]
    assert "7 Чудес: карты" in out
    for word in ("название", "эпоха", "вид", "текст", "Лесопилка", "Акведук", "гражданское"):
        assert word in out
    code, out, _ = run(capsys, "--lang", "ru", "cards", "seven-wonders", "--age", "2")
    assert "Акведук" in out
    assert "Лесопилка" not in out
    code, out, _ = run(capsys, "--lang", "en", "cards", "seven-wonders")
    assert seen == ["ru", "ru", "en"]  # English reads the same entries, in English


def test_games_lists_the_names_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "--lang", "uk")
    assert code == 0
    for words in ("ігри civtable", "назва", "7 Чудес", "Деус", "можна грати"):
        assert words in out
    code, out, _ = run(capsys, "games")
    assert "Deus" in out
    assert "playable" in out
