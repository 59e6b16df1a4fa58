"""docs/deployment.md stays true: its commands parse, and its metric and log tables match."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

from civtable.server.cli import configure_parser
from civtable.server.metrics import ServerMetrics

DOC = Path(__file__).resolve().parents[2] / "docs" / "deployment.md"


def _code(text: str) -> str:
    """The text of every fenced code block."""
    return "\n".join(re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.S | re.M))


def test_every_serve_command_of_the_deployment_doc_parses() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    commands = [
        line.split("civtable serve", 1)[1]
        for line in _code(DOC.read_text()).splitlines()
        if "civtable serve" in line
    ]
    assert len(commands) >= 2
    for rest in commands:
        args = parser.parse_args(shlex.split(rest))  # exits (fails the test) on an unknown option
        assert args.func is not None


def test_the_metrics_table_lists_exactly_the_metrics_served() -> None:
    served = set(re.findall(r"^# TYPE (\S+) ", ServerMetrics().render(), flags=re.M))
    table = DOC.read_text().split("| metric | kind | what |", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"`(civtable_[a-z_]+)", table))
    assert listed == served


def test_the_log_events_table_names_events_the_code_logs() -> None:
    text = DOC.read_text()
    table = text.split("| event | fields |", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    events = {name for first in rows for name in re.findall(r"`([a-z_]+)`", first)}
    src = Path(__file__).resolve().parents[2] / "src" / "civtable" / "server"
    code = "\n".join(p.read_text() for p in src.glob("*.py"))
    logged = set(re.findall(r'"event": "([a-z_]+)"', code))
    assert events
    assert events <= logged, events - logged
