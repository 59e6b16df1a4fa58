"""Shared helpers of the server tests: an in-process client and the hidden-card scanner."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import httpx
from fastapi.testclient import TestClient

from civtable.core.api import State
from civtable.games.seven_wonders.catalog import CARDS
from civtable.server.app import create_app

NAMES = {c.id: c.name for c in CARDS}
ALL_NAMES = sorted(set(NAMES.values()), key=len, reverse=True)


def make_client(db_url: str, **kwargs: Any) -> TestClient:
    """A TestClient around a fresh app (use it as a context manager to run the lifespan)."""
    return TestClient(create_app(db_url, **kwargs))


def auth(token: str | None) -> dict[str, str]:
    """The Authorization header of a seat token."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(
    client: httpx.Client,
    seats: list[str],
    *,
    seed: int = 7,
    take_seat: int | None = 0,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Create a 7 Wonders game; ``seats`` items are ``"human"`` or a bot name. ``client`` is
    a TestClient or an ``httpx.Client`` on a server process."""
    body = {
        "game": "seven-wonders",
        "players": len(seats),
        "seed": seed,
        "options": options if options is not None else {"sides": "A"},
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "take_seat": take_seat,
        **extra,
    }
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def merge_push(held: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any] | None:
    """The whole payload after a push (what ``api.js`` ``mergeDelta`` does): a ``state`` push
    replaces ``held``; a ``delta`` extends it (None when it is not based on ``held``)."""
    if msg.get("type") != "delta":
        return msg
    if held is None or held.get("version") != msg.get("base"):
        return None
    doc = {k: v for k, v in msg.items() if k not in ("base", "log_from", "words_log_from")}
    doc["type"] = "state"
    if "log_from" in msg:
        old = (held.get("view") or {}).get("log") or []
        doc["view"] = {**msg["view"], "log": old[: msg["log_from"]] + msg["view"]["log"]}
    if "words_log_from" in msg:
        old = (held.get("words") or {}).get("log") or []
        words = msg["words"]
        doc["words"] = {**words, "log": old[: msg["words_log_from"]] + words["log"]}
    return doc


# --- hidden cards ---------------------------------------------------------------------------------
def hidden_from(state: State, seat: int | None) -> tuple[set[str], set[str]]:
    """Card ids (and names) ``seat`` must not be shown in ``state``, from the full state.

    Hidden from a seat (SW-3.9): other cities' hands, their unresolved choices and their face-down
    wonder-stage markers, and discards it did not make. Card types repeat, so an id is only
    counted hidden if the seat cannot also see a card of that id legitimately (its own hand,
    its own choices, markers and discards, any built structure, the pile it may search).
    """
    doc = state.to_json()
    two = doc["players"] == 2
    own = None if seat is None else (seat + 1 if two else seat)
    cities = range(len(doc["cities"]))
    hidden: list[str] = []
    visible: list[str] = []
    for c in cities:
        mine = own is not None and c == own
        (visible if mine else hidden).extend(doc["hands"][c])
        (visible if mine else hidden).extend(doc["cities"][c]["stage_cards"])
        for pending in (doc["commits"][c], doc["await_pay"][c]):
            if pending is not None:
                (visible if mine else hidden).append(pending[1])
        visible.extend(doc["cities"][c]["structures"])
    if two and own is not None and doc["controller"] == own:  # the Free City is played by us
        visible.extend(doc["hands"][0])
        visible.extend(doc["cities"][0]["stage_cards"])
        for pending in (doc["commits"][0], doc["await_pay"][0]):
            if pending is not None:
                visible.append(pending[1])
    searching = doc["phase"] == "halikarnassus" and own is not None and doc["hali_city"] == own
    for card, known in zip(doc["discard"], doc["discard_known"], strict=True):
        (visible if (searching or (seat is not None and known == seat)) else hidden).append(card)
    ids = set(hidden) - set(visible)
    names = {NAMES[i] for i in ids} - {NAMES[i] for i in visible}
    return ids, names


def _texts(doc: Any) -> list[str]:
    """Every readable sentence of a payload (log texts, action labels, messages)."""
    out: list[str] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k in ("text", "label", "detail") and isinstance(v, str):
                out.append(v)
            else:
                out.extend(_texts(v))
    elif isinstance(doc, list):
        for v in doc:
            out.extend(_texts(v))
    return out


def leaks(payload: Any, ids: Iterable[str], names: Iterable[str]) -> list[str]:
    """Hidden card ids (as JSON strings anywhere) or card names (in sentences) in a payload."""
    doc = json.loads(payload) if isinstance(payload, str) else payload
    text = json.dumps(doc)
    found = [i for i in ids if f'"{i}"' in text]
    sentences = "\n".join(_texts(doc))
    for name in names:
        text_n = sentences
        for longer in ALL_NAMES:  # "Workshop" is not named by "Siege Workshop"
            if longer != name and name in longer:
                text_n = text_n.replace(longer, "#")
        if re.search(rf"\b{re.escape(name)}\b", text_n):
            found.append(name)
    return found
