"""Through the Ages in player words (games/through_the_ages/words.py, issue 18): every log entry
of random games renders, every legal action gets a label, reasons and prompts read as a player
reads, nothing of the engine's vocabulary shows; the catalogue has every key the table uses."""

from __future__ import annotations

import random
import re
from collections import Counter
from importlib import resources
from typing import Any

import pytest

from civtable import present
from civtable.bots import make_bot
from civtable.core.api import JSON
from civtable.games.through_the_ages import GAME, words
from civtable.games.through_the_ages import actions as act
from civtable.games.through_the_ages.catalog import BY_ID, PLAYER_TEXT
from civtable.present.i18n import catalog
from tests.browser.vocabulary import findings

NAMES = ("Ann", "Bob", "Cid", "Dee")
#: what a fallback template reads: never expected for a real action or log entry
FALLBACKS = ("Choose this", "makes a choice", "a card")


def _ctx(seat: int | None) -> present.Ctx:
    return present.Ctx(present.translator("en"), NAMES, seat)


def _strings(doc: Any) -> list[str]:
    if isinstance(doc, str):
        return [doc]
    if isinstance(doc, dict):
        return [s for v in doc.values() for s in _strings(v)]
    if isinstance(doc, list):
        return [s for v in doc for s in _strings(v)]
    return []


def _check(view: JSON, seat: int | None, kinds: Counter[str]) -> None:
    w = words.render(view, _ctx(seat))
    legal = view.get("legal") or []
    assert set(w["legal"]) == {str(a["id"]) for a in legal}
    for a in legal:
        label = w["legal"][str(a["id"])]
        assert label, a
        assert label != words.label({"kind": "unknown"}, _ctx(seat)), a
    assert len(w["log"]) == len(view.get("log") or [])
    for e, line in zip(view.get("log") or [], w["log"], strict=True):
        kinds[str(e["kind"])] += 1
        assert line, e
        assert not any(f in line for f in FALLBACKS[:2]), (e, line)
    texts = [*_strings(w), w["prompt"]]
    hits = findings([("words", t) for t in texts])
    assert not hits, hits[:5]
    if seat is not None and view.get("seat") == seat:
        assert w["prompt"]


@pytest.mark.parametrize(
    ("mode", "players", "seed", "bots"),
    [
        ("full", 4, 1, "heuristic"),
        ("full", 3, 5, "random"),
        ("first", 2, 2, "heuristic"),
        ("shorter", 3, 3, "heuristic"),
        ("full", 2, 7, "random"),
    ],
)
def test_every_log_entry_and_legal_action_of_random_games_renders(
    mode: str, players: int, seed: int, bots: str
) -> None:
    s = GAME.new_game(players, seed, {"mode": mode})
    s.log = []
    players_bots = [make_bot(bots, seed + i) for i in range(players)]
    kinds: Counter[str] = Counter()
    rng = random.Random(seed)
    step = 0
    while not s.is_terminal() and step < 700:
        if step % 9 == 0:
            for seat in (None, *range(players)):
                _check(s.view(seat), seat, kinds)
        seat = s.to_move()[0]
        a = players_bots[seat].choose(s, seat)
        if a == act.RESIGN and rng.random() < 0.95:
            a = next(x for x in s.legal_actions(seat) if x != act.RESIGN)
        s.apply(seat, a)
        step += 1
    for seat in (None, *range(players)):
        _check(s.view(seat), seat, kinds)
    assert {"take", "end_turn", "production", "round"} <= set(kinds)
    if mode != "first":
        assert "event" in kinds or "territory" in kinds


def test_plural_and_signed_numbers() -> None:
    ctx = _ctx(0)
    assert ctx.tn("tta.n.ca", 1) == "1 civil action"
    assert ctx.tn("tta.n.ca", 2) == "2 civil actions"
    assert ctx.tn("tta.n.military_card", 1) == "1 military card"
    assert words.delta(ctx, "culture", 3) == "+3 culture"
    assert words.delta(ctx, "resources", -1) == "\u22121 resource"
    assert words.delta(ctx, "resources", -2) == "\u22122 resources"
    assert words.delta(ctx, "population", 1) == "+1 worker"
    line = words.log_line(
        {
            "kind": "production",
            "player": 1,
            "culture": 2,
            "science": 1,
            "food": -1,
            "resources": 3,
            "consumption": 2,
            "corruption": 0,
            "famine": 0,
            "drawn": 1,
        },
        ctx,
    )
    assert line == (
        "End of Bob's turn: +2 culture, +1 science, \u22121 food (after eating 2 food), "
        "+3 resources, and draws 1 military card."
    )


def test_a_full_hand_and_unused_actions_are_explained() -> None:
    """The newcomer who ended turns with a full hand and every civil action unused is told
    why the row is closed and asked before ending the turn."""
    from tests.through_the_ages.scenario import action_phase

    s = action_phase(2, 3)
    civ = s.civs[0]
    civ.hand = [c for c in s.row if c >= 0 and GAME_CARD_TYPE(c) != "wonder"][:4]
    s._legal = None
    w = words.render(s.view(0), _ctx(0))
    assert "Civil hand full" in w["hint"]
    row = w["why"]["row"]
    reasons = [r for slot, r in enumerate(row) if s.row[slot] >= 0 and r]
    assert reasons
    assert all("hand is full" in r for r in reasons)
    assert w["confirm_end"].startswith(
        "End your turn with 4 civil actions and 2 military actions unused?"
    )


def GAME_CARD_TYPE(c: int) -> str:  # noqa: N802 - a tiny helper named like the data it reads
    from civtable.games.through_the_ages.catalog import CARDS

    return CARDS[c].type


def test_card_texts_for_players_carry_no_rule_ids() -> None:
    assert not findings([("card text", t) for t in PLAYER_TEXT])
    assert not any(re.search(r"TTA-|AMB-", t) for t in PLAYER_TEXT)


def test_card_texts_for_players_carry_no_source_notes() -> None:
    """The data notes where its sources disagree; players read only the effect."""
    assert not any(re.search(r"\bBGA\b|\bPT\b", t) for t in PLAYER_TEXT)
    wealthy = PLAYER_TEXT[BY_ID["wealthy_territory_i"]]
    assert wealthy == "Permanent: +3 blue cubes. Immediate: 5 resources."


def test_every_preset_of_the_lobby_has_a_title_and_a_help() -> None:
    messages = catalog("en").messages
    for name in GAME.option_presets:
        assert isinstance(messages.get(f"tta.preset.{name}"), str), name
        assert isinstance(messages.get(f"tta.preset.{name}.help"), str), name


def test_every_catalogue_key_the_table_uses_exists() -> None:
    js = (resources.files("civtable") / "web" / "static" / "js" / "tta.js").read_text("utf-8")
    keys = set(re.findall(r'"(tta\.[a-z_.]+)"', js))
    # keys built in the table from data: card types, building kinds, specials, units, scores
    from civtable.games.through_the_ages.catalog import CARDS, KINDS
    from civtable.games.through_the_ages.scoring import CATEGORIES, FULL_CATEGORIES

    keys |= {f"tta.type.{c.type}" for c in CARDS}
    keys |= {f"tta.kind.{k}" for k in KINDS} | {f"tta.kinds.{k}" for k in KINDS}
    keys |= {f"tta.special.{c.subtype}" for c in CARDS if c.tech_type == "special"}
    keys |= {f"tta.tech.{c.tech_type}" for c in CARDS if c.tech_type in ("government", "special")}
    keys |= {f"tta.unit.{u}" for u in ("infantry", "cavalry", "artillery")}
    keys |= {f"tta.score.{c}" for c in (*CATEGORIES, *FULL_CATEGORIES)}
    messages = catalog("en").messages
    assert keys
    assert not sorted(k for k in keys if k not in messages)
    filled = [
        re.sub(r"\{[a-z_]+\}", "7", form)
        for k, v in messages.items()
        if k.startswith("tta.")
        for form in ((v,) if isinstance(v, str) else v)
    ]
    assert not findings([("catalogue", text) for text in filled])


def _ids(doc: Any) -> set[str]:
    from civtable.games.through_the_ages.catalog import BY_ID

    out: set[str] = set()
    if isinstance(doc, str):
        if doc in BY_ID:
            out.add(doc)
    elif isinstance(doc, dict):
        for v in doc.values():
            out |= _ids(v)
    elif isinstance(doc, list):
        for v in doc:
            out |= _ids(v)
    return out


def test_tta_3_3_moves_reasons_and_words_reveal_no_hidden_card() -> None:
    """The view's new parts (each legal action's move, the reasons, the log) and the words made
    from them name no military card of another hand and no card of the event decks, unless the
    seat sees that card elsewhere; private log entries reach their seat only."""
    from civtable.games.through_the_ages.catalog import BY_ID, CARDS

    for seed, players in ((3, 4), (8, 3)):
        s = GAME.new_game(players, seed, {"mode": "full"})
        s.log = []
        rng = random.Random(seed)
        for step in range(600):
            if s.is_terminal():
                break
            if step % 11 == 0:
                for seat in range(players):
                    view = s.view(seat)
                    public = {k: v for k, v in view.items() if k not in ("legal", "why", "log")}
                    seen = _ids(public) | _ids(view.get("log"))
                    secret = {
                        CARDS[c].id for o, civ in enumerate(s.civs) if o != seat for c in civ.mhand
                    }
                    secret |= {CARDS[c].id for c in s.events}
                    secret |= {
                        CARDS[c].id
                        for c, by in zip(s.future, s.future_by, strict=True)
                        if by != seat
                    }
                    hidden = secret - seen
                    assert not (_ids(view.get("legal")) | _ids(view.get("why"))) & hidden
                    w = words.render(view, _ctx(seat))
                    text = " ".join(_strings({k: w[k] for k in ("legal", "why", "prompt", "hint")}))
                    names = {CARDS[BY_ID[c]].name for c in hidden} - {
                        CARDS[BY_ID[c]].name for c in seen
                    }
                    assert not [n for n in names if n in text]
                    for e in view["log"]:
                        assert e.get("seat", seat) == seat
                        assert e.get("others") != seat
                        if "others" in e:
                            assert "card" not in e
            seat = s.to_move()[0]
            legal = [a for a in s.legal_actions(seat) if a != act.RESIGN]
            s.apply(seat, rng.choice(legal))
