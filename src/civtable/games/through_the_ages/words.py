"""Through the Ages in player words (issue 18): labels, log lines, the prompt, reasons, scores.

:func:`render` reads one seat's view (never the state) and returns what its table shows, in the
reader's language, from the catalogue ``locale/<lang>/through_the_ages.po`` (keys ``tta.…``):

``legal``   action id → label, from each legal action's ``move`` (:mod:`.moves`)
``log``     one line per entry of ``view["log"]``, same order
``prompt``  what the viewer must do now, or whom the table waits for; ``hint`` adds the actions
            left and, with a full hand, what that means
``phase``   the phase of the turn in a few words (the top bar)
``why``     the viewer's reasons (:mod:`.reasons`) in words: ``row`` (per slot), ``hand`` (card
            id → {play, revolution}), ``military``, ``build``, ``population``, ``wonder``
``confirm_end`` the question to ask before ending a turn with actions left (None: no question)
``scores``  category → label, once the game is over

Card names and texts are content (issue 19): English from the card data
(:func:`content_english`), other languages from ``data/i18n/<lang>.json``, looked up by
:func:`card_name` and :func:`card_text`; :func:`card_entries` lists every card for
``civtable cards``.
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON
from civtable.games.through_the_ages.catalog import (
    AGES,
    BY_ID,
    CARDS,
    KINDS,
    PLAYER_TEXT,
    Card,
)
from civtable.present import Ctx, Translator

#: the game package, whose content files are ``data/i18n/<lang>.json``
PKG = "through_the_ages"

#: seats named in moves and log entries
_SEAT_KEYS = ("player", "target", "offerer", "attacker", "declarer", "winner", "a", "b")
#: cards named in moves and log entries
_CARD_KEYS = ("card", "to", "building", "colony", "wonder", "removed", "territory", "replaces")
#: numbers of a civilization's changes (logs.Snap), in the order they are told
_NUMBERS = (
    "culture",
    "science",
    "food",
    "resources",
    "population",
    "civil_actions",
    "military_actions",
    "military_cards",
)
#: card lists of a civilization's changes, in the order they are told
_CARD_LISTS = (
    "buildings_gained",
    "buildings_lost",
    "leader_gained",
    "leader_lost",
    "wonder_abandoned",
    "wonders_lost",
    "colonies_gained",
    "colonies_lost",
    "techs_gained",
    "techs_lost",
)
#: a stat of the card data (gain ops) -> the plural message counting it
_STAT_COUNT = {
    "food": "tta.n.food",
    "resources": "tta.n.resources",
    "culture_points": "tta.n.culture",
    "science_points": "tta.n.science",
    "population": "tta.n.population",
    "military_cards": "tta.n.military_card",
    "available_civil_actions": "tta.n.ca",
    "temporary_military_actions": "tta.n.temp_ma",
    "yellow_cubes": "tta.n.yellow",
    "blue_cubes": "tta.n.blue",
}


def content_english() -> dict[str, str]:
    """Every content text of the game in English, by key: ``card.<id>`` (the card's name) and
    ``card.<id>.text`` (its effect for players), from the card data."""
    out: dict[str, str] = {}
    for c in CARDS:
        out[f"card.{c.id}"] = c.name
        out[f"card.{c.id}.text"] = PLAYER_TEXT[c.idx]
    return out


def name_of(tr: Translator, card: Card) -> str:
    """``card``'s name in the translator's language."""
    return tr.content(PKG, f"card.{card.id}", card.name)


def text_of(tr: Translator, card: Card) -> str:
    """``card``'s effect text for players in the translator's language."""
    return tr.content(PKG, f"card.{card.id}.text", PLAYER_TEXT[card.idx])


def card_name(ctx: Ctx, cid: Any) -> str:
    """A card's name as the reader reads it."""
    idx = BY_ID.get(str(cid))
    if idx is None:
        return ctx.t("tta.card.unknown")
    return name_of(ctx.tr, CARDS[idx])


def card_text(ctx: Ctx, cid: Any) -> str:
    """A card's effect text as the reader reads it ("" for an unknown card)."""
    idx = BY_ID.get(str(cid))
    return "" if idx is None else text_of(ctx.tr, CARDS[idx])


def kind_text(tr: Translator, card: Card) -> str:
    """What a card is, in player words: ``farm``, ``government``, ``civil technology``,
    ``leader``, ``event``… (as the table's card detail says it)."""
    if card.type == "technology":
        if card.kind >= 0:
            return tr.t(f"tta.kind.{KINDS[card.kind]}")
        if card.tech_type == "special" and card.subtype:
            return tr.t(f"tta.special.{card.subtype}")
        if card.tech_type == "government":
            return tr.t("tta.tech.government")
    return tr.t(f"tta.type.{card.type}")


def card_entries(tr: Translator) -> list[dict[str, str]]:
    """Every card in the translator's language, for ``civtable cards``: ``id``, ``name``,
    ``text`` (its effect as the table shows it), ``age`` (``Age I``) and ``kind``."""
    return [
        {
            "id": c.id,
            "name": name_of(tr, c),
            "text": text_of(tr, c),
            "age": tr.t("tta.ui.age", age=AGES[c.age]),
            "kind": kind_text(tr, c),
        }
        for c in CARDS
    ]


def _sign(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def delta(ctx: Ctx, name: str, n: int) -> str:
    """A signed change: ``+3 culture``, ``−1 worker`` (plural by the size of the change)."""
    return ctx.tn(f"tta.delta.{name}", n, d=_sign(n))


def ops_text(ctx: Ctx, ops: Any) -> str:
    """A ``choose_one`` option of the card data (``gain``/``perform`` ops) in words."""
    parts: list[str] = []
    for op in ops or []:
        if op.get("op") == "gain":
            what = str(op.get("what"))
            amount = op.get("amount")
            key = _STAT_COUNT.get(what)
            if isinstance(amount, int) and key:
                parts.append(ctx.t("tta.op.gain", what=ctx.tn(key, amount)))
            else:
                parts.append(ctx.t("tta.op.gain_some", what=ctx.t(f"tta.stat.{what}")))
        elif op.get("op") == "perform":
            action = ctx.t(f"tta.perform.{op.get('action')}")
            disc = op.get("discount") or {}
            less = [
                ctx.tn(_STAT_COUNT.get(k, "tta.n.resources"), int(v)) for k, v in disc.items() if v
            ]
            parts.append(
                ctx.t("tta.op.perform_less", action=action, less=ctx.join(less)) if less else action
            )
    return ctx.join(parts) if parts else ctx.t("tta.op.nothing")


def _args(e: JSON, ctx: Ctx) -> dict[str, str]:
    """The formatted arguments of a move or log entry (templates use the ones they need)."""
    a: dict[str, str] = {}
    for k in _SEAT_KEYS:
        if isinstance(e.get(k), int):
            a[k] = ctx.player(int(e[k]))
    for k in _CARD_KEYS:
        if e.get(k):
            a[k] = card_name(ctx, e[k])
    cost = e.get("cost")
    if isinstance(cost, int):
        a["ca"] = ctx.tn("tta.n.ca", cost)
        a["ma"] = ctx.tn("tta.n.ma", cost)
        a["res"] = ctx.tn("tta.n.resources", cost)
        a["sci"] = ctx.tn("tta.n.science", cost)
    for k, key in (("food", "tta.n.food"), ("resources", "tta.n.resources")):
        if isinstance(e.get(k), int):
            a[k] = ctx.tn(key, int(e[k]))
    if isinstance(e.get("stages"), int):
        a["stages"] = ctx.tn("tta.n.stage", int(e["stages"]))
    for k in ("value", "attack", "defense", "bid", "side", "card_age", "age", "round"):
        if e.get(k) is not None:
            a[k] = str(e[k])
    if "ops" in e:
        a["option"] = ops_text(ctx, e["ops"])
    if "techs" in e:
        things = [card_name(ctx, c) for c in e["techs"]]
        if e.get("science"):
            things.append(ctx.tn("tta.n.science", int(e["science"])))
        a["things"] = ctx.join(things) if things else ctx.t("tta.op.nothing")
    for k in ("use", "gain"):
        if isinstance(e.get(k), str):
            a[k] = ctx.t(f"tta.stat.{e[k]}")
    if e.get("kind") == "end_turn":
        left = [
            ctx.tn(key, int(e.get(k) or 0))
            for k, key in (("ca", "tta.n.ca"), ("ma", "tta.n.ma"))
            if e.get(k)
        ]
        a["left"] = ctx.join(left)
    return a


def _variant(e: JSON) -> str:
    """The message variant of a move or entry (``tta.act.build.unit``…)."""
    kind = e.get("kind")
    if kind == "end_turn":
        return ".unused" if e.get("ca") or e.get("ma") else ""
    if kind == "build":
        return ".unit" if e.get("unit") else ""
    if kind == "develop":
        return ".government" if e.get("government") else ""
    if kind == "leader":
        return ".replace" if e.get("replaces") else ""
    if kind in ("pact_offer",):
        return ".side" if e.get("side") else ""
    if kind == "pact_answer":
        return (".accept" if e.get("accept") else ".refuse") + (".side" if e.get("side") else "")
    if kind == "bid":
        return ".pass" if not e.get("value") else ""
    if kind == "homer":
        return ".under" if e.get("under") else ".refund"
    if kind == "churchill":
        return f".{int(e.get('option') or 0)}"
    if kind == "free_build":
        return ".yes" if e.get("accept") else ".no"
    if kind == "aggression_result":
        return ".success" if e.get("success") else ".fail"
    if kind == "war_result":
        return ".win" if e.get("winner") is not None else ".tie"
    if kind == "destroy_for" and e.get("target") is not None and e.get("target") == e.get("player"):
        return ".own"
    if kind in ("pact_made", "pact_ends"):
        idx = BY_ID.get(str(e.get("card")))
        return ".sym" if idx is not None and CARDS[idx].symmetric else ""
    return ""


def label(move: JSON, ctx: Ctx) -> str:
    """The button label of a legal action from its ``move``."""
    variant = _variant({**move, "player": ctx.viewer})  # the viewer chooses
    key = f"tta.act.{move.get('kind')}{variant}"
    if not ctx.tr.has(key):
        key = "tta.act.unknown"
    text = ctx.t(key, **_args(move, ctx))
    return text[:1].upper() + text[1:]  # an option's words begin mid-sentence elsewhere


# --- the log ----------------------------------------------------------------------------------


def civ_changes(c: JSON, ctx: Ctx) -> str:
    """One civilization's changes (:func:`.logs.civ_changes`) in words: ``Ann: +3 culture,
    −2 food, loses Warriors``."""
    parts: list[str] = []
    pop = int(c.get("population") or 0)
    for name in _NUMBERS:
        n = c.get(name)
        if isinstance(n, int) and n:
            parts.append(delta(ctx, name, n))
    yellow = int(c.get("yellow") or 0) + pop  # yellow tokens beyond those the workers took
    if yellow:
        parts.append(delta(ctx, "yellow", yellow))
    blue = int(c.get("blue") or 0)
    if blue and not c.get("food") and not c.get("resources"):
        parts.append(delta(ctx, "blue", blue))
    for name in _CARD_LISTS:
        cards = c.get(name)
        if cards:
            names = [card_name(ctx, x) for x in cards]
            parts.append(ctx.t(f"tta.change.{name}", cards=ctx.join(names)))
    return ctx.t(
        "tta.log.player_changes",
        player=ctx.player(int(c.get("player", -1))),
        changes=ctx.join(parts) if parts else ctx.t("tta.change.nothing"),
    )


def _production(e: JSON, ctx: Ctx) -> str:
    parts: list[str] = []
    for name in ("culture", "science"):
        if e.get(name):
            parts.append(delta(ctx, name, int(e[name])))
    food, res = int(e.get("food") or 0), int(e.get("resources") or 0)
    eat, corrupt = int(e.get("consumption") or 0), int(e.get("corruption") or 0)
    parts.append(
        ctx.t("tta.prod.food_eaten", food=delta(ctx, "food", food), eaten=ctx.tn("tta.n.food", eat))
        if eat
        else delta(ctx, "food", food)
    )
    parts.append(
        ctx.t(
            "tta.prod.resources_corruption",
            resources=delta(ctx, "resources", res),
            lost=ctx.tn("tta.n.resources", corrupt),
        )
        if corrupt
        else delta(ctx, "resources", res)
    )
    if e.get("famine"):
        parts.append(ctx.t("tta.prod.famine", culture=delta(ctx, "culture", -int(e["famine"]))))
    if e.get("drawn"):
        parts.append(ctx.t("tta.prod.drawn", cards=ctx.tn("tta.n.military_card", int(e["drawn"]))))
    return ctx.t("tta.log.production", player=ctx.player(int(e["player"])), income=ctx.join(parts))


def log_line(e: JSON, ctx: Ctx) -> str:
    """One log entry in words."""
    kind = str(e.get("kind"))
    if kind == "production":
        return _production(e, ctx)
    if kind == "uprising":
        line = ctx.t("tta.log.uprising", player=ctx.player(int(e["player"])))
        if e.get("drawn"):
            line += " " + ctx.t(
                "tta.log.drawn", cards=ctx.tn("tta.n.military_card", int(e["drawn"]))
            )
        return line
    if kind in ("effects", "final_scoring"):
        told = [civ_changes(c, ctx) for c in e.get("changes") or []]
        key = (
            "tta.log.final_scoring"
            if kind == "final_scoring"
            else f"tta.log.effects.{e.get('cause')}"
        )
        if not ctx.tr.has(key):
            key = "tta.log.effects.event"
        return ctx.t(
            key,
            card=card_name(ctx, e.get("card")) if e.get("card") else "",
            changes="; ".join(told) if told else ctx.t("tta.change.nothing"),
        )
    if kind == "event":
        text = card_text(ctx, e.get("card"))
        return ctx.t("tta.log.event", card=card_name(ctx, e.get("card")), text=text)
    key = f"tta.log.{kind}{_variant(e)}"
    if not ctx.tr.has(key):
        key = f"tta.log.{kind}"
    if not ctx.tr.has(key):
        return ctx.t("tta.log.unknown", player=ctx.player(e.get("player")))
    return ctx.t(key, **_args(e, ctx))


# --- reasons ----------------------------------------------------------------------------------


def reason(r: Any, ctx: Ctx) -> str | None:
    """A reason of :mod:`.reasons` in words (None stays None: the action is possible)."""
    if not isinstance(r, dict):
        return None
    code = str(r.get("code"))
    args: dict[str, str] = {}
    for k in ("need", "have"):
        if isinstance(r.get(k), int):
            args[k] = str(r[k])
    if code in ("ca", "ma", "science", "food", "resources"):
        counter = {
            "ca": "tta.n.ca",
            "ma": "tta.n.ma",
            "science": "tta.n.science",
            "food": "tta.n.food",
            "resources": "tta.n.resources",
        }[code]
        args["need"] = ctx.tn(counter, int(r.get("need") or 0))
        args["have"] = str(int(r.get("have") or 0))
    if isinstance(r.get("limit"), int):
        args["limit"] = str(r["limit"])
    if isinstance(r.get("total"), int):
        args["total"] = str(r["total"])
    for k in ("card", "government"):
        if r.get(k):
            args[k] = card_name(ctx, r[k])
    if r.get("age"):
        args["age"] = str(r["age"])
    if isinstance(r.get("player"), int):
        args["player"] = ctx.player(int(r["player"]))
    key = f"tta.why.{code}"
    if not ctx.tr.has(key):
        key = "tta.why.not_now"
    return ctx.t(key, **args)


def _why(view: JSON, ctx: Ctx) -> JSON:
    w = view.get("why") or {}
    return {
        "general": reason(w.get("general"), ctx),
        "row": [reason(r, ctx) for r in w.get("row") or []],
        "hand": {
            cid: {k: reason(v, ctx) for k, v in entry.items()}
            for cid, entry in (w.get("hand") or {}).items()
        },
        "military": {cid: reason(v, ctx) for cid, v in (w.get("military") or {}).items()},
        "build": {cid: reason(v, ctx) for cid, v in (w.get("build") or {}).items()},
        "population": reason(w.get("population"), ctx),
        "wonder": reason(w.get("wonder"), ctx),
    }


# --- the prompt -------------------------------------------------------------------------------


def _pending_text(view: JSON, ctx: Ctx, mine: bool) -> str:
    """The running sub-decision: for the viewer deciding (``mine``) or for onlookers."""
    d = view.get("pending_detail") or {}
    kind = str(d.get("kind"))
    who = ctx.player(d.get("seat"))
    card = card_name(ctx, d["card"]) if d.get("card") else ""
    args: dict[str, str] = {"player": who, "card": card}
    if kind == "perform":
        args["action"] = ctx.t(f"tta.perform.{d.get('perform')}")
        if not d.get("card"):
            kind = "perform_free"
    elif kind == "discard":
        args["cards"] = ctx.tn("tta.n.military_card", int(d.get("count") or 0))
    elif kind == "defend":
        args.update(
            attacker=ctx.player(d.get("attacker")),
            target=ctx.player(d.get("target")),
            attack=str(d.get("attack")),
            defense=str(d.get("defense")),
        )
    elif kind == "accept":
        args["offerer"] = ctx.player(d.get("offerer"))
    elif kind == "bid":
        if d.get("high_bidder") is not None:
            args.update(high=str(d.get("high_bid")), bidder=ctx.player(d.get("high_bidder")))
            kind = "bid_high"
    elif kind == "send":
        args.update(force=str(d.get("force")), bid=str(d.get("bid")))
    elif kind == "option":
        kind = f"option.{d.get('what')}"
    elif kind == "agreement":
        args["ca"] = ctx.tn("tta.n.ca", int(d.get("budget") or 0))
    key = f"tta.{'prompt' if mine else 'wait'}.{kind}"
    if not ctx.tr.has(key):
        key = f"tta.{'prompt' if mine else 'wait'}.decision"
    return ctx.t(key, **args)


def _card_text(view: JSON, ctx: Ctx) -> str:
    """The text of the card a sub-decision is about (a territory auctioned, an aggression, an
    event's choice, a pact offered), so the player knows what is at stake."""
    d = view.get("pending_detail") or {}
    idx = BY_ID.get(str(d.get("card")))
    if idx is None or d.get("kind") in ("discard", "keep"):
        return ""
    text = card_text(ctx, d.get("card"))
    return ctx.t("tta.hint.card", card=card_name(ctx, d.get("card")), text=text)


def _left(civ: JSON, ctx: Ctx) -> str:
    parts = [ctx.tn("tta.n.ca", int(civ.get("civil_actions") or 0))]
    ma = int(civ.get("military_actions") or 0) + int(civ.get("temporary_military_actions") or 0)
    parts.append(ctx.tn("tta.n.ma", ma))
    return ctx.join(parts)


def _phase(view: JSON, ctx: Ctx) -> str:
    if view.get("result") or view.get("terminal"):
        return ctx.t("tta.phase.over")
    kind = (view.get("pending_detail") or {}).get("kind", "none")
    if kind != "none":
        key = f"tta.phase.pending.{kind}"
        return ctx.t(key if ctx.tr.has(key) else "tta.phase.decision")
    if view.get("round") == 1:
        return ctx.t("tta.phase.round_one")
    if view.get("phase") == "politics":
        return ctx.t(
            "tta.phase.second" if view.get("second_political_action") else "tta.phase.politics"
        )
    return ctx.t("tta.phase.action")


def prompt(view: JSON, ctx: Ctx) -> tuple[str, str]:
    """(what to do now or whom the table waits for, a hint) for the viewer."""
    if view.get("result") or view.get("terminal"):
        return ctx.t("tta.prompt.over"), ""
    seat = view.get("seat")
    actor = view.get("actor")
    current = view.get("current")
    kind = (view.get("pending_detail") or {}).get("kind", "none")
    civs = view.get("civs") or []
    mine = seat is not None and seat == actor and bool(view.get("legal"))
    if not mine:
        if kind != "none":
            return _pending_text(view, ctx, False), ""
        return ctx.t("tta.wait.turn", player=ctx.player(current), phase=_phase(view, ctx)), ""
    civ = civs[seat] if isinstance(seat, int) and seat < len(civs) else {}
    if kind != "none":
        return _pending_text(view, ctx, True), _card_text(view, ctx)
    hint = ctx.t("tta.hint.left", left=_left(civ, ctx))
    hand, limit = len(civ.get("hand") or []), int(civ.get("civil_hand_limit") or 0)
    if hand >= limit:
        hint += " " + ctx.t("tta.hint.hand_full", n=str(hand), limit=str(limit))
    if view.get("round") == 1:
        return ctx.t("tta.prompt.round_one"), hint
    if view.get("phase") == "politics":
        mode = (view.get("options") or {}).get("mode", "full")
        if view.get("second_political_action"):
            key = "tta.prompt.second_political_action"
        else:
            key = "tta.prompt.politics_first" if mode == "first" else "tta.prompt.politics"
        return ctx.t(key), hint
    return ctx.t("tta.prompt.action"), hint


def _confirm_end(view: JSON, ctx: Ctx) -> str | None:
    """The question before ending a turn with civil or military actions left (issue 18)."""
    seat = view.get("seat")
    for a in view.get("legal") or []:
        move = a.get("move") or {}
        if move.get("kind") != "end_turn":
            continue
        if not (move.get("ca") or move.get("ma")):
            return None
        q = ctx.t("tta.confirm.end", left=_args(move, ctx)["left"])
        if isinstance(seat, int) and view.get("round", 1) > 1 and move.get("ma"):
            q += " " + ctx.t(
                "tta.confirm.end_draw", cards=ctx.tn("tta.n.military_card", min(3, int(move["ma"])))
            )
        return q
    return None


def render(view: JSON, ctx: Ctx) -> JSON:
    """The player words of one view (see the module doc)."""
    text, hint = prompt(view, ctx)
    out: JSON = {
        "legal": {
            str(a["id"]): label(a.get("move") or {"kind": "unknown"}, ctx)
            for a in view.get("legal") or []
        },
        "log": [log_line(e, ctx) for e in view.get("log") or []],
        "prompt": text,
        "hint": hint,
        "phase": _phase(view, ctx),
        "confirm_end": _confirm_end(view, ctx),
    }
    if view.get("why") is not None:
        out["why"] = _why(view, ctx)
    result = view.get("result")
    if result:
        out["scores"] = {str(c): ctx.t(f"tta.score.{c}") for c in result.get("categories") or []}
    return out
