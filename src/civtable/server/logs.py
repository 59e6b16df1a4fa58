"""The server's logs: plain text lines or JSON lines (``civtable serve --log-format json``).

Every line is one event. A JSON line always has ``time`` (UTC, ISO 8601 with milliseconds),
``level``, ``logger``, ``event`` (a stable name: ``request``, ``move_committed``, ``startup``,
``shutdown`` ...; ``log`` for a plain message) and ``message``; and, where they apply,
``game_id``, ``game``, ``seat``, ``seat_kind``, ``seq``, ``moves``, ``method``, ``route``,
``status`` and ``latency_ms``. The text format writes the same fields as ``key=value`` after
the message.

What is never logged: seat tokens (a value after ``Bearer``, or under a key named like a token,
a password or an authorization is replaced by ``[redacted]``, in messages too), request bodies
and query strings, and action ids or labels (one may name a card its mover keeps hidden).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, TextIO

#: the formats ``--log-format`` accepts
FORMATS = ("text", "json")

#: the structured fields a record may carry (``extra=``), in the order they are written
FIELDS = (
    "game_id",
    "game",
    "seat",
    "seat_kind",
    "seq",
    "moves",
    "finished",
    "method",
    "route",
    "status",
    "latency_ms",
    "host",
    "port",
    "database",
)

#: record attributes of the logging module itself (anything else was passed with ``extra=``)
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}
#: extras of other libraries that are not worth a field (uvicorn's coloured copy of a message)
_SKIP = {"color_message", "event"}
_SECRET_KEY = re.compile(r"token|password|passwd|secret|authorization|cookie", re.I)
_SECRET_TEXT = (
    (re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"), r"\1[redacted]"),
    (
        re.compile(
            r"(?i)([\"']?(?:token|password|authorization)[\"']?\s*[:=]\s*[\"']?)[^\s\"',;}&]+"
        ),
        r"\1[redacted]",
    ),
    (re.compile(r"(://[^:/@\s]+:)[^@\s]+@"), r"\1[redacted]@"),  # database URLs
)
REDACTED = "[redacted]"


#: a cheap first look: most lines hold none of these, and skip the substitutions
_MAYBE_SECRET = re.compile(r"(?i)bearer|token|password|authorization|://")


@functools.lru_cache(maxsize=256)
def _secret_key(key: str) -> bool:
    return _SECRET_KEY.search(key) is not None


def redact(text: str) -> str:
    """``text`` with tokens, passwords and URL credentials replaced by ``[redacted]``."""
    if _MAYBE_SECRET.search(text) is None:
        return text
    for pattern, repl in _SECRET_TEXT:
        text = pattern.sub(repl, text)
    return text


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    """The structured fields of a record: the known ones in order, then any other extras."""
    out: dict[str, Any] = {}
    extras = {k: v for k, v in vars(record).items() if k not in _STANDARD and k not in _SKIP}
    for key in (*FIELDS, *sorted(set(extras) - set(FIELDS))):
        if key not in extras:
            continue
        value = extras[key]
        if _secret_key(key):
            value = REDACTED
        elif isinstance(value, str):
            value = redact(value)
        elif not isinstance(value, int | float | bool | type(None)):
            value = redact(str(value))
        out[key] = value
    return out


def _time(record: logging.LogRecord) -> str:
    stamp = datetime.fromtimestamp(record.created, UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per line (see the module doc)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a JSON line."""
        doc: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": str(getattr(record, "event", "log")),
            "message": redact(record.getMessage()),
        }
        doc.update(_fields(record))
        if record.exc_info:
            doc["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(doc, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message key=value ...``, one line per event (exceptions follow)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a text line."""
        parts = [
            _time(record),
            record.levelname,
            f"{record.name}:",
            redact(record.getMessage()),
        ]
        parts.extend(f"{k}={v}" for k, v in _fields(record).items())
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + redact(self.formatException(record.exc_info))
        return line


def configure(fmt: str = "text", level: str = "info", stream: TextIO | None = None) -> None:
    """Send every log record (civtable's and uvicorn's) to ``stream`` (stderr) in ``fmt``.

    Replaces the handlers of the root logger; uvicorn is then started with ``log_config=None``
    and ``access_log=False`` (civtable logs each request itself, with its route and latency).
    """
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    numeric = logging.getLevelName(level.upper())
    root.setLevel(numeric if isinstance(numeric, int) else logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
    access = logging.getLogger("uvicorn.access")
    access.handlers = []
    access.propagate = False


#: the loggers :func:`configure` changes (the root logger and uvicorn's)
_CONFIGURED = ("", "uvicorn", "uvicorn.error", "uvicorn.asgi", "uvicorn.access")


@contextlib.contextmanager
def preserved() -> Iterator[None]:
    """Put back, after the block, what :func:`configure` changes: the handlers, level and
    propagation of the root logger and of uvicorn's loggers. ``civtable serve`` runs inside
    it, so a server run in-process (as the tests do) leaves no handler on its ``stderr``: a
    test's captured stream is closed after the test, and any later record (of another test's
    thread) would fail to be written there."""
    saved = []
    for name in _CONFIGURED:
        logger = logging.getLogger(name)
        saved.append((logger, list(logger.handlers), logger.level, logger.propagate))
    try:
        yield
    finally:
        for logger, handlers, level, propagate in saved:
            logger.handlers[:] = handlers
            logger.setLevel(level)
            logger.propagate = propagate
