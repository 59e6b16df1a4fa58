"""``civtable serve`` / ``python -m civtable.server``: options and clear failures."""

from __future__ import annotations

import argparse

import pytest

from civtable.server import add_serve_parser, cmd_serve, main


def test_serve_parser_plugs_into_a_command_line() -> None:
    parser = argparse.ArgumentParser(prog="civtable")
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--port", "9001", "--db", "sqlite:///x.db"])
    assert (args.host, args.port, args.db, args.bot_delay) == (
        "127.0.0.1",
        9001,
        "sqlite:///x.db",
        0.0,
    )
    assert args.func is cmd_serve


def test_serve_refuses_a_bad_port_and_an_unreachable_database(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--port", "0"]) == 2
    assert "--port" in capsys.readouterr().err
    # nothing listens on port 9 of loopback: the database cannot be opened
    assert main(["--db", "postgresql://u:p@127.0.0.1:9/none", "--port", "8001"]) == 1
    err = capsys.readouterr().err
    assert "cannot open the database" in err
    assert ":p@" not in err  # the password is not printed
