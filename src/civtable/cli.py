"""The ``civtable`` command line: list games and cards, play against bots, simulate, fuzz, replay,
bench.

Every command returns an exit code instead of raising: 0 on success, 1 when the command could not
do its job (a bad replay file, a simulation with crashed games, a fuzz run that found a failure),
2 for bad arguments (an unknown
game or bot, a player count out of range). Errors are one clear line on stderr, never a traceback.
Tests call :func:`main` in-process with an argument list.

What a player or an analyst reads is in the language of ``--lang`` (a global option, also accepted
after the command), by default the one of the environment (``LC_ALL``, then ``LC_MESSAGES``, then
``LANG``: ``ru_RU.UTF-8`` reads Russian; a language civtable does not speak reads English). The
words come from the ``common`` catalogue and the games' words modules (:mod:`civtable.present`);
``--json`` output stays language-neutral, and ``--help`` is for developers and stays English.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import secrets
import signal
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, NoReturn

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from civtable import __version__, games, present, termkit
from civtable.bots import UnknownBotError, make_bot
from civtable.core.api import JSON, Game, State
from civtable.core.errors import (
    CivtableError,
    InvalidOptionsError,
    SerializationError,
    UnknownGameError,
)
from civtable.core.replay import Replay
from civtable.server import add_serve_parser
from civtable.sim import bench
from civtable.sim.fuzz import DEFAULT_FOLLOW, DEFAULT_MAX_STEPS, FuzzConfig, GameOutcome, fuzz
from civtable.sim.fuzz_runs import (
    DEFAULT_BATCH_GAMES,
    DEFAULT_BATCH_SECONDS,
    FuzzRun,
    fuzz_to_dir,
)
from civtable.sim.ladder import add_ladder_parser
from civtable.sim.report import add_report_parser
from civtable.sim.simulate import GameRecord, SimConfig, bot_seed, default_bot, simulate, validate
from civtable.sim.tournament import add_tournament_parser

#: terminal renderers per game id (a module with the functions of ``seven_wonders.terminal``)
TERMINALS = {
    "seven-wonders": "civtable.games.seven_wonders.terminal",
    "through-the-ages": "civtable.games.through_the_ages.terminal",
    "civilization-a-new-dawn": "civtable.games.civilization_a_new_dawn.terminal",
    "deus": "civtable.games.deus.terminal",
}


class UsageError(CivtableError):
    """Bad command-line arguments (exit code 2)."""

    def __init__(self, message: str, usage: str = "") -> None:
        super().__init__(message)
        self.usage = usage


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so ``main`` can return a code."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message, self.format_usage())


# --- helpers ------------------------------------------------------------------------------------
def env_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment: the first set of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    (``ru_RU.UTF-8`` → ``ru``), if civtable speaks it; else the source language (English)."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].lower()
            return code if code in present.languages() else present.SOURCE_LANGUAGE
    return present.SOURCE_LANGUAGE


def _tr(args: argparse.Namespace) -> present.Translator:
    """The translator of the command line's reader (``--lang``)."""
    return present.translator(getattr(args, "lang", None) or present.SOURCE_LANGUAGE)


def _game_name(game: Game, tr: present.Translator) -> str:
    return present.game_name(game.id, tr, game.name)


def _game(game_id: str) -> Game:
    """The game, or a clear error for unknown and planned games."""
    return games.get(game_id)


def _terminal(game: Game) -> Any:
    """The terminal renderer module of a game (typed loosely: one module per game)."""
    name = TERMINALS.get(game.id)
    if name is None:
        raise UsageError(f"{game.name} has no terminal interface yet")
    module: ModuleType = importlib.import_module(name)
    return module


def _check_players(game: Game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise UsageError(
            f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}"
        )


def _bot_list(text: str | None, game: Game | None = None, players: int | None = None) -> list[str]:
    """The specs of ``--bots``, each checked (for ``game`` with ``players`` seats if given)."""
    if text is None:
        return [default_bot()]
    specs = [b.strip() for b in text.split(",")]
    if not all(specs):
        raise UsageError(f"--bots must be a comma-separated list of bot names, got {text!r}")
    for spec in specs:
        # raises UnknownBotError with the known names (and, given the game, the bot's own
        # checks for it, e.g. ismcts:…:eval=NAME)
        make_bot(spec, 0, game=None if game is None else game.id, players=players)
    return specs


def _options(game: Game, text: str | None) -> JSON | None:
    """``--options``: a JSON object, or the name of a preset the game defines (``option_presets``,
    e.g. ``first-game`` for Through the Ages); the game validates the options themselves."""
    if text is None:
        return None
    presets: dict[str, JSON] = getattr(game, "option_presets", None) or {}
    if text.lstrip().startswith("{"):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--options is not a valid JSON object: {exc}") from exc
        if not isinstance(doc, dict):
            raise UsageError("--options must be a JSON object")
        return doc
    if text in presets:
        return dict(presets[text])
    known = ", ".join(sorted(presets)) or "none"
    raise UsageError(
        f"--options must be a JSON object or a preset of {game.name} (presets: {known}), "
        f"not {text!r}"
    )


def _positive(name: str, value: int | None) -> None:
    if value is not None and value < 1:
        raise UsageError(f"{name} must be at least 1, not {value}")


def _print_json(doc: Any) -> None:
    sys.stdout.write(json.dumps(doc, indent=1) + "\n")
    sys.stdout.flush()


def _enable_log(state: State) -> None:
    """Switch on a state's event log (games with a terminal interface keep one in ``log``)."""
    state.log = []  # type: ignore[attr-defined]


def _log(state: State) -> list[JSON]:
    """The events logged so far."""
    log: list[JSON] | None = getattr(state, "log", None)
    return log if log is not None else []


def _ask(out: Console, prompt: str) -> str | None:
    """Read a line; ``None`` at end of input."""
    try:
        return out.input(prompt, markup=False)
    except EOFError:
        out.print()
        return None


# --- games --------------------------------------------------------------------------------------
def cmd_games(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable games``: the registry as a table."""
    rows = [
        {
            "id": info.id,
            "name": info.name,
            "players": info.players,
            "status": "playable" if info.module is not None else "planned",
        }
        for info in games.REGISTRY.values()
    ]
    if args.json:
        _print_json(rows)
        return 0
    tr = _tr(args)
    table = Table(title=tr.t("games.title"))
    for col in ("id", "name", "players", "status"):
        table.add_column(tr.t(f"games.col.{col}"))
    for row in rows:
        style = "green" if row["status"] == "playable" else "dim"
        table.add_row(
            row["id"],
            present.game_name(row["id"], tr, row["name"]),
            row["players"],
            Text(tr.t(f"games.{row['status']}"), style=style),
        )
    out.print(table)
    return 0


# --- cards --------------------------------------------------------------------------------------
def cmd_cards(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable cards GAME``: every card and board of a game."""
    game = _game(args.game)
    term = _terminal(game)
    if args.age is not None and args.age not in (1, 2, 3):
        raise UsageError(f"--age must be 1, 2 or 3, not {args.age}")
    if args.json:
        _print_json(term.catalog_json(args.age))
        return 0
    tr = _tr(args)
    module = present.words_module(game.id)
    entries_of = getattr(module, "card_entries", None) if module is not None else None
    if callable(entries_of):
        # the game's cards in player words, in the reader's language (its words module); the
        # numbers of copies per player count are in --json
        out.print(card_entries_table(entries_of(tr), tr, _game_name(game, tr), args.age))
    else:
        term.render_catalog(out, args.age)
    return 0


_ROMAN = {1: "I", 2: "II", 3: "III"}


def card_entries_table(
    entries: list[dict[str, str]], tr: present.Translator, game_name: str, age: int | None
) -> Table:
    """A words module's ``card_entries(tr)`` as a table: name, the optional columns in the order
    they first appear (``age``, ``kind``…, headed by ``term.<key>`` words), then the text. With
    ``age``, only entries whose ``age`` names it (``2``, ``II``, ``Эпоха II``)."""
    if age is not None:
        wanted = {str(age), _ROMAN.get(age, str(age))}
        entries = [
            e
            for e in entries
            if wanted & set(str(e.get("age", "")).replace("·", " ").replace(",", " ").split())
        ]
    extra: list[str] = []
    for e in entries:
        # an entry's "id" is the developer's key (for --json and tests), not a player word
        extra.extend(k for k in e if k not in ("name", "text", "id") and k not in extra)
    table = Table(title=tr.t("term.cards_of", game=game_name), show_lines=True)
    table.add_column(tr.t("term.name"))
    for key in extra:
        table.add_column(tr.t(f"term.{key}") if tr.has(f"term.{key}") else key.replace("_", " "))
    table.add_column(tr.t("term.text"))
    for e in entries:
        table.add_row(
            Text(str(e.get("name", ""))),
            *(Text(str(e.get(k, ""))) for k in extra),
            Text(str(e.get("text", ""))),
        )
    return table


# --- play ---------------------------------------------------------------------------------------
def _choose(out: Console, count: int, tr: present.Translator | None = None) -> int | None:
    """Ask for an option number 1..count; ``None`` to quit (q or end of input)."""
    tr = tr or present.translator()
    while True:
        line = _ask(out, tr.t("cli.choice", count=count))
        if line is None:
            return None
        line = line.strip().lower()
        if line in ("q", "quit", "exit"):
            return None
        try:
            k = int(line)
        except ValueError:
            what = (
                tr.t("cli.not_a_number", text=repr(line), count=count)
                if line
                else tr.t("cli.nothing_typed", count=count)
            )
            out.print(Text(what, style="red"))
            continue
        if not 1 <= k <= count:
            out.print(Text(tr.t("cli.out_of_range", k=k, count=count), style="red"))
            continue
        return k - 1


def _seat_list(text: str, players: int) -> list[int]:
    """``--humans 0,2``: distinct seats in range."""
    try:
        seats = [int(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise UsageError(f"--humans must be comma-separated seat numbers, got {text!r}") from exc
    if not seats or len(set(seats)) != len(seats):
        raise UsageError(f"--humans must list distinct seats, got {text!r}")
    for seat in seats:
        if not 0 <= seat < players:
            raise UsageError(f"--humans: seat {seat} is not between 0 and {players - 1}")
    return sorted(seats)


#: clears the screen and the terminal's scrollback, then homes the cursor (hot-seat hand-over)
CLEAR = "\033[2J\033[3J\033[H"


def _hand_over(out: Console, name: str, tr: present.Translator | None = None) -> bool:
    """Hot seat: hide the previous player's screen until the next one is ready; False to quit."""
    tr = tr or present.translator()
    out.file.write(CLEAR)
    out.file.flush()
    out.print(Text(tr.t("cli.pass_keyboard", name=name), style="bold"))
    line = _ask(out, tr.t("cli.ready", name=name))
    if line is None or line.strip().lower() in ("q", "quit", "exit"):
        return False
    out.file.write(CLEAR)
    out.file.flush()
    return True


def cmd_play(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable play GAME``: human seats at this terminal (one, or several taking turns at the
    keyboard: ``--humans 0,1`` or ``--hotseat``) against bots in the other seats."""
    game = _game(args.game)
    term = _terminal(game)
    _check_players(game, args.players)
    if args.hotseat:
        humans = list(range(args.players))
    elif args.humans is not None:
        humans = _seat_list(args.humans, args.players)
    else:
        if not 0 <= args.seat < args.players:
            raise UsageError(f"--seat must be between 0 and {args.players - 1}, not {args.seat}")
        humans = [args.seat]
    args.seat = humans[0]  # the replay file records the first seat played here
    typed = [n.strip() for n in args.names.split(",")] if args.names else []
    if len(typed) > args.players:
        raise UsageError(f"--names: {len(typed)} names for {args.players} players")
    specs = _bot_list(args.bots, game, args.players)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    options: JSON = _options(game, args.options) or {}
    if args.sides is not None:
        options["sides"] = args.sides
    state = game.new_game(args.players, seed, options)
    _enable_log(state)
    others = [s for s in range(args.players) if s not in humans]
    bot_of = {s: specs[k % len(specs)] for k, s in enumerate(others)}
    bots = {s: make_bot(bot_of[s], bot_seed(seed, s)) for s in others}
    records = [
        {"kind": "bot", "bot": bot_of[s], "name": typed[s] if s < len(typed) else ""}
        if s in bot_of
        else {"kind": "human", "name": typed[s] if s < len(typed) else ""}
        for s in range(args.players)
    ]
    tr = _tr(args)
    termkit.set_reader(present.seat_names(records, tr), tr.lang)
    opponents = ", ".join(
        tr.t("cli.bot_seat", n=s, bot=bot_of[s])
        for s in others  # the --bots spec as typed
    ) or tr.t("cli.no_bots")
    if len(humans) == 1:
        who = tr.t("cli.you_are", n=humans[0], name=termkit.name(humans[0]))
    else:
        seats_here = ", ".join(tr.t("term.seat_of", name=termkit.name(s), n=s) for s in humans)
        who = tr.t("cli.playing_here", seats=seats_here)
    header = tr.t(
        "cli.play_header",
        game=_game_name(game, tr),
        players=tr.tn("n.player", args.players),
        seed=seed,
        who=who,
        opponents=opponents,
    )
    out.print(Text(header))
    hot = len(humans) > 1
    seen = dict.fromkeys(humans, 0)
    last_key: dict[int, tuple[Any, ...] | None] = dict.fromkeys(humans)
    at_keyboard: int | None = None if hot else humans[0]
    while not state.is_terminal():
        movers = state.to_move()
        if not movers:
            raise CivtableError("the game is not over but nobody has a decision to make")
        for s in movers:
            if s not in humans and state.legal_actions(s):
                state.apply(s, bots[s].choose(state, s))
        due = [s for s in state.to_move() if s in humans and state.legal_actions(s)]
        if not due:
            continue
        # simultaneous decisions (7 Wonders) ask each seat here in turn, the one already at the
        # keyboard first
        human = at_keyboard if at_keyboard in due else due[0]
        if hot and human != at_keyboard:
            if not _hand_over(out, termkit.name(human), tr):
                out.print(Text(tr.t("cli.abandoned", seed=seed)))
                _save_play(args, state, out)
                return 0
            at_keyboard = human
            last_key[human] = None
        events, seen[human] = termkit.event_lines(state, human, seen[human])
        term.render_events(out, events)
        actions = state.legal_actions(human)
        key = term.step_key(state)
        if hot:
            out.print(Text(tr.t("cli.to_play", name=termkit.name(human), n=human), style="bold"))
        term.render_decision(out, state, human, actions, full=key != last_key[human])
        last_key[human] = key
        k = _choose(out, len(actions), tr)
        if k is None:
            out.print(Text(tr.t("cli.abandoned", seed=seed)))
            _save_play(args, state, out)
            return 0
        state.apply(human, actions[k])
    if hot:
        out.file.write(CLEAR)
    events, _ = termkit.event_lines(
        state, None if hot else humans[0], seen[humans[0]] if not hot else 0
    )
    if hot:  # everyone looks at the end: only public events, and the result
        events = [e for e in events if e.get("seat") is None][-12:]
    term.render_events(out, events)
    term.render_result(out, state)
    _save_play(args, state, out)
    return 0


def _save_play(args: argparse.Namespace, state: State, out: Console) -> None:
    if args.save:
        path = Replay.of(state, source="civtable play", human_seat=args.seat).save(args.save)
        out.print(Text(_tr(args).t("cli.replay_written", path=path)))


# --- simulate -----------------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable simulate GAME``: many bot games, a summary (exit 1 if a game crashed)."""
    game = _game(args.game)
    _check_players(game, args.players)
    _positive("--games", args.games)
    _positive("--max-rounds", args.max_rounds)
    _positive("--workers", args.workers)
    config = SimConfig(
        game=game.id,
        players=args.players,
        games=args.games,
        seed=args.seed,
        bots=tuple(_bot_list(args.bots)),
        max_rounds=args.max_rounds,
        options=_options(game, args.options),
    )
    validate(config)
    tr = _tr(args)
    show_progress = not args.json and err.is_terminal
    progress = Progress(
        TextColumn(tr.t("sim.progress")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not show_progress,
    )
    with progress:
        task = progress.add_task("games", total=config.games)

        def advance(record: GameRecord) -> None:
            progress.advance(task)

        summary = simulate(config, workers=args.workers, save_dir=args.save, on_record=advance)
    doc = summary.to_json()
    if args.json:
        _print_json(doc)
    else:
        _render_summary(out, doc, tr)
    for e in doc["error_details"]:
        err.print(
            Text(
                tr.t(
                    "sim.failed",
                    index=e["index"],
                    seed=e["seed"],
                    error=e["error"],
                    replay=e["replay"],
                )
            )
        )
    return 1 if summary.errors else 0


def _render_summary(out: Console, doc: JSON, tr: present.Translator | None = None) -> None:
    tr = tr or present.translator()
    header = tr.t(
        "sim.header",
        game=present.game_name(doc["game"], tr),
        games=tr.tn("n.game", doc["games"]),
        players=tr.tn("n.player", doc["players"]),
    )
    out.print(Text(header, "bold"))
    table = Table(show_header=False)
    table.add_column("")
    table.add_column("", justify="right")
    keys = ("completed", "truncated", "errors", "seed", "seconds", "games_per_second")
    for key in (*keys, "decisions_per_second", "mean_decisions", "mean_rounds"):
        table.add_row(tr.t(f"sim.row.{key}"), Text(str(doc[key])))
    out.print(table)
    seats = Table(title=tr.t("sim.by_seat"))
    for col in ("seat", "bot", "wins", "win_pct", "mean_score"):
        seats.add_column(tr.t(f"sim.col.{col}"), justify="right" if col != "bot" else "left")
    done = doc["completed"] or 1
    for s in range(doc["players"]):
        wins = doc["wins_by_seat"][s]
        mean = doc["mean_score"][s]
        seats.add_row(
            str(s),
            Text(doc["bots"][s]),
            str(wins),
            f"{100 * wins / done:.1f}",
            "-" if mean is None else f"{mean:.2f}",
        )
    out.print(seats)
    if len(doc["wins_by_bot"]) > 1:
        by_bot = Table(title=tr.t("sim.wins_by_bot"), caption=tr.t("sim.shared_split"))
        by_bot.add_column(tr.t("sim.col.bot"))
        by_bot.add_column(tr.t("sim.col.wins"), justify="right")
        for bot, share in doc["wins_by_bot"].items():
            by_bot.add_row(Text(bot), f"{share:g}")
        out.print(by_bot)


# --- fuzz ---------------------------------------------------------------------------------------
def cmd_fuzz(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable fuzz GAME``: random legal play with every check after every decision (exit 1
    if any check failed)."""
    game = _game(args.game)
    _check_players(game, args.players)
    _positive("--games", args.games)
    _positive("--max-steps", args.max_steps)
    _positive("--workers", args.workers)
    _positive("--follow", args.follow)
    _positive("--round-trip-every", args.round_trip_every)
    _positive("--probes-every", args.probes_every)
    if args.leaks_every < 0:
        raise UsageError(f"--leaks-every must be 0 (off) or more, not {args.leaks_every}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {args.seed}")
    config = FuzzConfig(
        game=game.id,
        players=args.players,
        games=args.games,
        seed=args.seed,
        options=_options(game, args.options),
        max_steps=args.max_steps,
        leaks_every=args.leaks_every,
        round_trip_every=args.round_trip_every,
        probes_every=args.probes_every,
        follow=args.follow,
        log=args.log,
    )
    progress = Progress(
        TextColumn("fuzzing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=args.json or not err.is_terminal,
    )
    with progress:
        task = progress.add_task("games", total=config.games)

        def advance(outcome: GameOutcome) -> None:
            progress.advance(task)

        doc: JSON | None
        if args.out is None:
            doc = fuzz(
                config, workers=args.workers, save_dir=args.save, on_outcome=advance
            ).to_json()
        else:
            doc = _fuzz_to_dir(args, config, progress, task, advance, err)
    if doc is None:
        return 130  # stopped by a signal; what finished is in --out
    if args.json:
        _print_json(doc)
    else:
        _render_fuzz(out, doc)
    return 1 if doc["failures"] else 0


def _fuzz_to_dir(
    args: argparse.Namespace,
    config: FuzzConfig,
    progress: Progress,
    task: TaskID,
    advance: Callable[[GameOutcome], None],
    err: Console,
) -> JSON | None:
    """``fuzz --out DIR``: a resumable run (``sim/fuzz_runs.py``); ``None`` when stopped by a
    signal, after the finished games were written."""
    if args.save is not None:
        raise UsageError(
            "--save and --out do not go together: with --out the replays of "
            "failing games are written to DIR/replays"
        )
    _positive("--batch", args.batch)

    def started(done: int) -> None:
        progress.update(task, completed=min(done, config.games))

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, stop)
    try:
        return fuzz_to_dir(
            config,
            args.out,
            workers=args.workers,
            batch_games=args.batch,
            on_start=started,
            on_outcome=advance,
        )
    except KeyboardInterrupt:
        run = FuzzRun(args.out, config)
        err.print(
            f"stopped: {run.done} games finished and written to {args.out}; "
            "the same command continues the run"
        )
        return None
    finally:
        signal.signal(signal.SIGTERM, old)


def _render_fuzz(out: Console, doc: JSON) -> None:
    out.print(
        Text(
            f"{doc['game']}: {doc['games']} games, {doc['players']} players, seeds "
            f"{doc['seed']}..{doc['seed'] + doc['games'] - 1}",
            "bold",
        )
    )
    table = Table(show_header=False)
    table.add_column("")
    table.add_column("value", justify="right")
    for key in ("completed", "truncated", "moves", "checks", "seconds", "games_per_second"):
        table.add_row(key.replace("_", " "), Text(str(doc[key])))
    table.add_row("failures", Text(str(len(doc["failures"])), "red" if doc["failures"] else ""))
    out.print(table)
    kinds = Table(title="checks by kind")
    kinds.add_column("check")
    kinds.add_column("count", justify="right")
    for kind, n in doc["checks_by_kind"].items():
        kinds.add_row(kind.replace("_", " "), str(n))
    out.print(kinds)
    for note in doc["notes"]:
        out.print(Text(f"note: {note}", "yellow"))
    if doc.get("out"):
        out.print(Text(f"results of {doc['batches']} batches in {doc['out']}"))
    for f in doc["failures"]:
        out.print(
            Text(
                f"FAILED game seed {f['seed']}, step {f['step']}, {f['check'].replace('_', ' ')}: "
                f"{f['what']}",
                "red",
            )
        )
        for more in f["messages"][1:6]:
            out.print(Text(f"    {more}"))
        if len(f["messages"]) > 6:
            out.print(Text(f"    ... and {len(f['messages']) - 6} more"))
        out.print(Text(f"  reproduce: {f['command']}"))
        if f["replay"]:
            out.print(Text(f"  replay: {f['replay']}"))
    if not doc["failures"]:
        out.print(Text("no failure", "green"))


# --- replay -------------------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable replay FILE``: step through a saved game with its event log."""
    replay = Replay.load(args.file)
    game = _game(replay.game)
    term = _terminal(game)
    seat = args.seat
    if seat is not None and not 0 <= seat < replay.players:
        raise UsageError(f"--seat must be between 0 and {replay.players - 1}, not {seat}")
    interactive = args.step or (not args.all and sys.stdin.isatty() and out.is_terminal)
    try:
        state = game.new_game(replay.players, replay.seed, game.upgrade_options(replay.options))
    except InvalidOptionsError as exc:
        raise SerializationError(f"{args.file}: {exc}") from exc
    _enable_log(state)
    tr = _tr(args)
    termkit.set_reader((), tr.lang)
    who = tr.t("cli.show_all") if seat is None else tr.t("cli.show_seat", n=seat)
    header = tr.t(
        "cli.replay_header",
        game=_game_name(game, tr),
        players=tr.tn("n.player", replay.players),
        seed=replay.seed,
        decisions=tr.tn("n.decision", len(replay.actions)),
        who=who,
    )
    out.print(Text(header))
    events, seen = termkit.event_lines(state, seat, 0)
    if events:  # what the setup logged before any move (7 Wonders: Age I begins)
        term.render_events(out, events)
    step: list[Text] = []
    for i, (s, action) in enumerate(replay.actions):
        if s not in state.to_move() or action not in state.legal_actions(s):
            raise SerializationError(
                f"{args.file}: decision {i} (seat {s}, action {action}) is not legal there"
            )
        shown = seat is None or s == seat
        label = ""
        if shown:  # the move in the words its mover read (the developer's label as a fallback)
            found = termkit.words(state, s)
            label = str(((found or {}).get("legal") or {}).get(str(action)) or "")
            label = label or state.describe(s, action)
        state.apply(s, action)
        if shown:
            step.append(Text(f"{termkit.name(s)}: {label}", style="dim"))
        events, seen = termkit.event_lines(state, seat, seen)
        if not events and not state.is_terminal():
            continue
        if events:
            first = events[0]
            out.rule(Text(_when(first, tr)))
        for line in step:
            out.print(line)
        step = []
        term.render_events(out, events)
        if interactive and not state.is_terminal():
            answer = _ask(out, tr.t("cli.next_or_quit"))
            if answer is None or answer.strip().lower() in ("q", "quit"):
                return 0
    if not state.is_terminal():
        decisions = tr.tn("n.decision", len(replay.actions))
        out.print(Text(tr.t("cli.replay_short", decisions=decisions)))
    if replay.meta.get("error"):
        out.print(Text(tr.t("cli.recorded_error", error=replay.meta["error"]), style="red"))
    term.render_result(out, state)
    return 0


def _when(event: JSON, tr: present.Translator | None = None) -> str:
    """A log event's place in the game ("Age 2 · turn 3", "round 7", …) from the keys it has."""
    tr = tr or present.translator()
    parts = [
        tr.t(f"when.{key}", n=event[key])
        for key in ("age", "round", "turn")
        if event.get(key) is not None
    ]
    return " · ".join(parts) or tr.t("when.next")


# --- bench --------------------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace, out: Console, err: Console) -> int:
    """``civtable bench``: the benchmark suite of ``benchmarks/run.py``, quickly."""
    _positive("--games", args.games)
    game = _game(args.game)
    players = args.players
    if players is None:  # every table size, or 3, 4 and the largest when there are more
        sizes = range(game.min_players, game.max_players + 1)
        players = ",".join(str(n) for n in (sizes if len(sizes) <= 3 else (3, 4, sizes[-1])))
    try:
        counts = [int(x) for x in players.split(",")]
    except ValueError:
        raise UsageError(
            f"--players must be a comma-separated list of numbers, got {players!r}"
        ) from None
    for n in counts:
        _check_players(game, n)
    if not args.json:
        out.print(Text(f"measuring {game.name} on one core, {args.games} games per player count…"))
    doc = bench.run_suite(
        games=args.games, warmup=args.warmup, game_id=game.id, player_counts=counts
    )
    if args.json:
        _print_json(doc)
    else:
        out.print(bench_table(doc))
    return 0


def bench_table(doc: JSON) -> Table:
    """The benchmark report as a table (one column per player count)."""
    results = doc["results"]
    table = Table(
        title=f"{doc['game']} speed, one core",
        caption=f"{doc['implementation']} {doc['python']}, {doc['machine']}, {doc['build']} build",
    )
    table.add_column("measure")
    for r in results:
        table.add_column(f"{r['players']} players", justify="right")
    rows = [
        ("random full games / s", "games_per_second", "{:,.1f}"),
        ("decisions / s", "decisions_per_second", "{:,.0f}"),
        ("decisions per game", "mean_decisions", "{:.1f}"),
        ("apply (validated), µs", "apply_us", "{:.1f}"),
        ("state copies / s", "copies_per_second", "{:,.0f}"),
        ("copy, µs", "copy_us", "{:.2f}"),
        ("copy / apply", "copy_per_apply", "{:.2f}×"),
        ("views / s", "views_per_second", "{:,.0f}"),
        ("view / apply", "view_per_apply", "{:.2f}×"),
        ("legal_actions / s (uncached)", "legal_actions_per_second", "{:,.0f}"),
        ("legal_actions / apply", "legal_per_apply", "{:.2f}×"),
    ]
    for label, key, fmt in rows:
        table.add_row(label, *[fmt.format(r[key]) for r in results])
    return table


# --- parser -------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = _Parser(prog="civtable", description="Civilization board games: engines and bots.")
    parser.add_argument("--version", action="version", version=f"civtable {__version__}")
    parser.add_argument("--lang", metavar="LANG", help=_LANG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("games", help="list the games and their status")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("cards", help="list every card and wonder board of a game")
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument("--age", type=int, help="only the cards of this age (1-3)")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=cmd_cards)

    p = sub.add_parser(
        "play", help="play against bots in the terminal (one seat, or several in turn: hot seat)"
    )
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 .. players-1 (default 0)")
    p.add_argument(
        "--humans",
        metavar="SEATS",
        help="hot seat: these seats (e.g. 0,1) are people taking turns at this keyboard",
    )
    p.add_argument("--hotseat", action="store_true", help="hot seat: every seat is a person here")
    p.add_argument("--names", help="the players' names, comma-separated in seat order")
    p.add_argument("--bots", help="bots for the other seats, cycled (default: heuristic/random)")
    p.add_argument("--seed", type=int, help="game seed (default: random, printed)")
    p.add_argument("--sides", choices=("A", "B", "random"), help="wonder board sides")
    p.add_argument("--options", metavar="OPTS", help="game options: a JSON object or a preset name")
    p.add_argument("--save", metavar="FILE", help="write the game's replay to FILE at the end")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="play many bot games and summarize")
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--bots", help="comma-separated bots cycled over the seats")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--max-rounds", type=int, help="stop a game after R decision rounds")
    p.add_argument("--save", metavar="DIR", help="write every game's replay to DIR")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--options", metavar="OPTS", help="game options: a JSON object or a preset name")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "fuzz",
        help="random legal play with every check after every decision",
        description=(
            "Play random legal games and check, after every decision: the game's invariants "
            "(component conservation), that no view shows hidden information, that illegal "
            "input is refused without a change, that the JSON round trip and the replay "
            "reproduce the state. Game i uses the seed SEED + i; every failure prints the "
            "command that reproduces it."
        ),
    )
    p.add_argument("game", help="game id, e.g. seven-wonders")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--options", metavar="OPTS", help="game options: a JSON object or a preset name")
    p.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help=f"stop a game after N decisions (default {DEFAULT_MAX_STEPS})",
    )
    p.add_argument(
        "--leaks-every",
        type=int,
        default=1,
        metavar="K",
        help="check the views for leaks every K decisions (default 1; 0 = never)",
    )
    p.add_argument(
        "--round-trip-every",
        type=int,
        default=1,
        metavar="K",
        help="check the JSON round trip every K decisions (default 1)",
    )
    p.add_argument(
        "--probes-every",
        type=int,
        default=1,
        metavar="K",
        help=(
            "try every kind of illegal input every K decisions (default 1), and one kind in "
            "turn at the decisions between (always every kind after setup, at round trips and "
            "at the end)"
        ),
    )
    p.add_argument(
        "--follow",
        type=int,
        default=DEFAULT_FOLLOW,
        metavar="N",
        help=f"decisions a state restored from JSON is played on (default {DEFAULT_FOLLOW})",
    )
    p.add_argument(
        "--log",
        action="store_true",
        help="keep each game's event log, so the leak checks read the log lines of views too",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--save", metavar="DIR", help="write the replay of every failing game to DIR")
    p.add_argument(
        "--out",
        metavar="DIR",
        help=(
            "a resumable run: append each batch's results to DIR (batches.jsonl, summary.json, "
            "replays/); the same command on the same DIR continues after the last finished game"
        ),
    )
    p.add_argument(
        "--batch",
        type=int,
        default=DEFAULT_BATCH_GAMES,
        metavar="N",
        help=(
            f"with --out: write a batch every N games (default {DEFAULT_BATCH_GAMES}) "
            f"or every {DEFAULT_BATCH_SECONDS:g} seconds"
        ),
    )
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser("replay", help="step through a saved game")
    p.add_argument("file", help="a replay file (civtable-replay JSON)")
    p.add_argument("--seat", type=int, help="show only what this seat saw")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--step", action="store_true", help="pause after every step")
    mode.add_argument("--all", action="store_true", help="print every step without pausing")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="measure the engine's speed (see benchmarks/)")
    p.add_argument("--games", type=int, default=20, help="games per player count (default 20)")
    p.add_argument("--warmup", type=int, default=2, help="warm-up games (default 2)")
    p.add_argument(
        "--players",
        default=None,
        help="player counts, e.g. 3,4 (default: all, or 3,4 and the largest if more than 3)",
    )
    p.add_argument("--game", default="seven-wonders", help="game id (default seven-wonders)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_bench)

    add_tournament_parser(sub)
    add_report_parser(sub)
    add_ladder_parser(sub)
    add_serve_parser(sub)
    for command in sub.choices.values():  # `civtable cards deus --lang ru` reads as well
        command.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS, help=_LANG_HELP)
    return parser


_LANG_HELP = (
    "language of the output (en, ru, uk; default: from LC_ALL / LC_MESSAGES / LANG, else en)"
)


def _choose_language(args: argparse.Namespace, usage: str = "") -> None:
    """``args.lang``: the checked ``--lang``, else the environment's language (see the module
    doc); an unknown ``--lang`` is a :class:`UsageError` naming the choices."""
    given = getattr(args, "lang", None)
    if given is None:
        args.lang = env_language()
        return
    try:
        args.lang = present.check_language(str(given).strip().lower())
    except present.UnknownLanguageError as exc:
        raise UsageError(f"--lang: {exc}", usage) from exc


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code (never raises for bad input)."""
    out = Console()
    err = Console(stderr=True)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        _choose_language(args, parser.format_usage())
    except UsageError as exc:
        err.print(Text(exc.usage.rstrip()))
        err.print(Text(f"civtable: error: {exc}"))
        return 2
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    try:
        code: int = args.func(args, out, err)
        return code
    except (UsageError, UnknownGameError, InvalidOptionsError, UnknownBotError) as exc:
        err.print(Text(f"civtable {args.command}: error: {exc}"))
        return 2
    except (CivtableError, OSError) as exc:  # OSError: a file that cannot be written
        err.print(Text(f"civtable {args.command}: error: {exc}"))
        return 1
    except KeyboardInterrupt:
        err.print(Text(_tr(args).t("cli.interrupted")))
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
