"""``civtable serve``: run the web server (uvicorn) on a store.

The main ``civtable`` command adds this subcommand with :func:`add_serve_parser`; the same
command runs standalone as ``python -m civtable.server [--host] [--port] [--db URL]``.
``--workers N`` (PostgreSQL only) starts N server processes on the one port: uvicorn's
supervisor binds it, starts the processes (each builds its app with :func:`worker_app`) and
starts a new one when one dies.
Importing this module is cheap: FastAPI and uvicorn load only when the server starts.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from typing import Any

log = logging.getLogger("civtable.server")
#: the environment variable that hands ``serve``'s options to the processes of ``--workers``
WORKER_CONFIG = "CIVTABLE_SERVE_CONFIG"


def add_serve_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to an ``argparse`` subparsers object; its ``func(args, out, err)`` runs it."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="play in the browser: start the web server"
    )
    configure_parser(p)
    return p


def configure_parser(p: argparse.ArgumentParser) -> None:
    """The options of ``serve``."""
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        metavar="URL",
        help="database URL: sqlite:///path/file.db or postgresql://user:pw@host/db "
        "(default: civtable.db in the user data directory, or $CIVTABLE_DB)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on this port (default 1); more than one needs PostgreSQL: "
        "they share its games, push each other's moves and take over the bots of one that dies",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="pause before each bot move, for a more natural pace (default 0)",
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="answer 408 when a request's body has not arrived after this long (default 10)",
    )
    p.add_argument(
        "--max-bot-seconds",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="longest search a bot may spend on one decision (default 5; levels hard 1, expert 5)",
    )
    p.add_argument(
        "--max-bot-iterations",
        type=int,
        default=20_000,
        metavar="N",
        help="most search iterations a bot may run for one decision (default 20000)",
    )
    p.add_argument(
        "--bot-processes",
        type=int,
        default=2,
        metavar="N",
        help="worker processes in which bots search, so no search slows the server's own "
        "process (default 2; 0 = threads of the server process)",
    )
    p.add_argument(
        "--ws-deflate",
        action="store_true",
        help="compress WebSocket pushes (permessage-deflate): less traffic, but every socket "
        "compresses every push itself (default off; pushes are deltas)",
    )
    p.add_argument(
        "--suggest-bot",
        default="ismcts:1s:clock=cpu",
        metavar="SPEC",
        help="the search behind 'suggest a move' (an ismcts spec; default ismcts:1s:clock=cpu)",
    )
    p.add_argument(
        "--max-games-per-hour",
        type=int,
        default=120,
        metavar="N",
        help="games one address may create per hour (default 120; 0 = no limit)",
    )
    p.add_argument(
        "--max-sockets-per-client",
        type=int,
        default=64,
        metavar="N",
        help="live connections one address may hold open (default 64; 0 = no limit)",
    )
    p.add_argument(
        "--max-spectators",
        type=int,
        default=200,
        metavar="N",
        help="spectators one game may have (default 200; 0 = no limit)",
    )
    p.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="server log lines: text, or json (one JSON object per line: time, level, event, "
        "game id, seat, latency ...; never tokens or hidden cards); default text",
    )
    p.add_argument(
        "--shutdown-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="on SIGTERM or Ctrl-C, how long to wait for requests in progress before they are "
        "cancelled (default 30)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug"),
        help="server log level (default info)",
    )
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace, out: Any = None, err: Any = None) -> int:
    """Run the server until interrupted; returns an exit code (1 if it cannot start). The
    logging set-up it makes lasts as long as the server runs."""
    from civtable.server import logs

    with logs.preserved():
        return _cmd_serve(args, out, err)


def _cmd_serve(args: argparse.Namespace, out: Any, err: Any) -> int:
    from civtable.store import Store, default_db_url

    if not 0 < args.port < 65536:
        _say(err, f"civtable serve: error: --port must be 1-65535, not {args.port}", error=True)
        return 2
    for flag, value in (
        ("--body-timeout", args.body_timeout),
        ("--max-bot-seconds", args.max_bot_seconds),
        ("--max-bot-iterations", args.max_bot_iterations),
        ("--shutdown-timeout", args.shutdown_timeout),
    ):
        if not 0 < value < float("inf"):
            _say(err, f"civtable serve: error: {flag} must be positive, not {value}", error=True)
            return 2
    for flag, count in (
        ("--max-games-per-hour", args.max_games_per_hour),
        ("--max-sockets-per-client", args.max_sockets_per_client),
        ("--max-spectators", args.max_spectators),
        ("--bot-processes", args.bot_processes),
    ):
        if count < 0:
            _say(err, f"civtable serve: error: {flag} must be 0 or more, not {count}", error=True)
            return 2
    if args.workers < 1:
        _say(
            err,
            f"civtable serve: error: --workers must be 1 or more, not {args.workers}",
            error=True,
        )
        return 2
    from civtable.bots import UnknownBotError, make_bot
    from civtable.bots.ismcts import IsmctsBot

    try:
        suggest_ok = isinstance(make_bot(args.suggest_bot, 0), IsmctsBot)
    except UnknownBotError:
        suggest_ok = False
    if not suggest_ok:
        _say(
            err,
            f"civtable serve: error: --suggest-bot must be an ismcts spec such as "
            f"ismcts:1s:clock=cpu, not {args.suggest_bot!r}",
            error=True,
        )
        return 2
    url = args.db or default_db_url()
    shown = _masked(url)
    try:
        store = Store.open(url)
    except Exception as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        _say(err, f"civtable serve: error: cannot open the database {shown}: {reason}", error=True)
        return 1
    if args.workers > 1:
        dialect = store.dialect
        store.close()
        if dialect != "postgresql":
            _say(
                err,
                f"civtable serve: error: --workers {args.workers} needs PostgreSQL "
                "(--db postgresql://user:pw@host/db): a SQLite file is one process's database; "
                "run one process (--workers 1) on SQLite",
                error=True,
            )
            return 2
        return _serve_workers(args, url, shown, out, err)
    import uvicorn

    from civtable.server import logs

    logs.configure(args.log_format, args.log_level)
    app = _app(args, store=store)
    _say(
        out,
        f"civtable: web server at http://{args.host}:{args.port} (database: {shown}); "
        "Ctrl-C stops it",
    )
    log.info(
        "serving",
        extra={"event": "startup", "host": args.host, "port": args.port, "database": shown},
    )
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_per_message_deflate=args.ws_deflate,
        log_config=None,  # logs.configure did it
        access_log=False,  # the app logs every request itself (route, status, latency)
        timeout_graceful_shutdown=args.shutdown_timeout,
    )
    server = uvicorn.Server(config)

    # Graceful shutdown on SIGTERM (and Ctrl-C): uvicorn stops listening, lets requests in
    # progress finish (their moves are committed), closes sockets with 1012 ("service
    # restart": clients reconnect), then the app's lifespan stops the bots (after any commit
    # under way) and the store closes. uvicorn raises the signal again once it is done; this
    # handler makes that a clean exit with code 0 instead of death by SIGTERM, and a SIGTERM
    # that comes before uvicorn's handlers are in place asks for the same graceful stop.
    def on_sigterm(signum: int, _frame: Any) -> None:
        server.should_exit = True

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    except SystemExit as exc:  # uvicorn exits when it cannot listen (e.g. the port is taken)
        if exc.code not in (0, None):
            _cannot_listen(err, args)
            return 1
    finally:
        signal.signal(signal.SIGTERM, previous)
        store.close()
    log.info("stopped", extra={"event": "stopped"})
    return 0


def _app(args: argparse.Namespace, *, store: Any = None, url: str | None = None) -> Any:
    """The web application of ``serve``'s options (on an open ``store``, or one it opens)."""
    from civtable.bots import BotLimits
    from civtable.server.app import create_app
    from civtable.server.limits import ClientLimits

    limits = BotLimits(max_seconds=args.max_bot_seconds, max_iterations=args.max_bot_iterations)
    clients = ClientLimits(
        games_per_hour=args.max_games_per_hour,
        sockets_per_client=args.max_sockets_per_client,
        spectators_per_game=args.max_spectators,
    )
    return create_app(
        url,
        store=store,
        bot_delay=args.bot_delay,
        bot_processes=args.bot_processes,
        bot_limits=limits,
        body_timeout=args.body_timeout,
        client_limits=clients,
        suggest_bot=args.suggest_bot,
    )


def worker_app() -> Any:
    """The app of one ``--workers`` process: ``serve``'s options come in :data:`WORKER_CONFIG`
    (uvicorn calls this in each process it starts)."""
    from civtable.server import logs

    options = json.loads(os.environ[WORKER_CONFIG])
    args = argparse.Namespace(**options)
    logs.configure(args.log_format, args.log_level)
    return _app(args, url=args.db)


def _serve_workers(args: argparse.Namespace, url: str, shown: str, out: Any, err: Any) -> int:
    """Run ``args.workers`` server processes on one port (PostgreSQL): uvicorn's supervisor
    binds the port, starts the processes, starts a new one when one dies, and on SIGTERM or
    Ctrl-C stops them all gracefully (each finishes its requests and commits)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from civtable.server import logs

    logs.configure(args.log_format, args.log_level)
    options = {k: v for k, v in vars(args).items() if k != "func"}
    options["db"] = url
    os.environ[WORKER_CONFIG] = json.dumps(options)
    config = uvicorn.Config(
        "civtable.server.cli:worker_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        ws_per_message_deflate=args.ws_deflate,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=args.shutdown_timeout,
    )
    try:
        sock = config.bind_socket()
    except SystemExit:
        _cannot_listen(err, args)
        return 1
    _say(
        out,
        f"civtable: {args.workers} server processes at http://{args.host}:{args.port} "
        f"(database: {shown}); Ctrl-C stops them",
    )
    log.info(
        "serving",
        extra={
            "event": "startup",
            "host": args.host,
            "port": args.port,
            "database": shown,
            "workers": args.workers,
        },
    )
    try:
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()
    log.info("stopped", extra={"event": "stopped"})
    return 0


def _masked(url: str) -> str:
    """The URL with its password hidden."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]


def _cannot_listen(err: Any, args: argparse.Namespace) -> None:
    _say(
        err,
        f"civtable serve: error: cannot listen on {args.host}:{args.port} (is the port in use?)",
        error=True,
    )


def _say(console: Any, text: str, *, error: bool = False) -> None:
    if console is not None and hasattr(console, "print"):
        console.print(text, markup=False, highlight=False)
    else:
        print(text, file=sys.stderr if error else sys.stdout, flush=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m civtable.server``: the ``serve`` command on its own."""
    parser = argparse.ArgumentParser(prog="civtable serve", description="Run the web server.")
    configure_parser(parser)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code
