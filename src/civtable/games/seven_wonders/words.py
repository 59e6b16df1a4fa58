"""7 Wonders in player words: labels, log lines, the prompt, reasons and card texts.

Everything here reads a seat's view (``state.view(seat)``) and the static card tables, never the
full state, so it cannot reveal more than the view. Words come from the ``seven_wonders``
catalogue (``locale/<lang>/seven_wonders.po``, keys ``sw.…``) and the shared ``common`` one;
card, wonder and city names from the game data. See ``docs/presentation.md``.

:func:`render` returns, besides the keys every game has (``legal``, ``log``, ``prompt``,
``scores``):

* ``cities``: each city's name as the table shows it (the typed name, or "Free City");
* ``reasons``: for each card of the hand that cannot be built now, why (SW-4.2, SW-5, SW-7);
* ``stage_reason``: why no wonder stage can be built now (or absent);
* ``sell_reason``: why the Free City may not sell now (SW-14.5), when that is the case;
* ``chosen``: what the viewer chose this step, while it waits for the others (SW-8.1).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from civtable.core.api import JSON
from civtable.games.seven_wonders import hints as hints_module
from civtable.games.seven_wonders.actions import (
    DISCARD,
    FREE,
    HALI,
    HALI_PASS,
    PAY,
    PAY_BASE,
    STAGE,
)
from civtable.games.seven_wonders.catalog import (
    BOARD_INDEX,
    BOARDS,
    CARD_DOC,
    CARD_INDEX,
    CARDS,
    COLORS,
    N_CARDS,
    RESOURCES,
    WONDER_DOC,
)
from civtable.present import Ctx
from civtable.present.i18n import Translator

#: score categories in the rulebook's order (SW-12.1)
CATEGORIES = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds")

_RAW = frozenset("WSCO")


# --- content names --------------------------------------------------------------------------------
#: the package whose content texts (``data/i18n/<lang>.json``) name cards, wonders and cities
PKG = "seven_wonders"


def content_english() -> dict[str, str]:
    """Every content key of 7 Wonders with its English text from the card data (issue 19):
    ``card.<id>`` (78 cards), ``wonder.<board>`` (the wonder) and ``city.<board>`` (the city).
    Effects are not content: they are built from the ``sw.text.*`` templates."""
    out = {f"card.{card.id}": card.name for card in CARDS}
    for board in BOARDS:
        out[f"wonder.{board.id}"] = board.wonder
        out[f"city.{board.id}"] = board.name
    return out


def card_name(card_id: str, tr: Translator | None = None) -> str:
    """A card's name in the reader's language (the Russian edition's where it prints one)."""
    english = CARDS[CARD_INDEX[card_id]].name
    return tr.content(PKG, f"card.{card_id}", english) if tr is not None else english


def wonder_name(board_id: str, tr: Translator | None = None) -> str:
    """A board's wonder, e.g. "Colossus of Rhodes"."""
    english = BOARDS[BOARD_INDEX[board_id]].wonder
    return tr.content(PKG, f"wonder.{board_id}", english) if tr is not None else english


def board_city(board_id: str, tr: Translator | None = None) -> str:
    """A board's city, e.g. "Rhodes"."""
    english = BOARDS[BOARD_INDEX[board_id]].name
    return tr.content(PKG, f"city.{board_id}", english) if tr is not None else english


def city_name(view: JSON, c: int, ctx: Ctx) -> str:
    """A city as players call it: the name its player typed, or the Free City (SW-14)."""
    cities = view.get("cities") or []
    if 0 <= c < len(cities):
        seat = cities[c].get("seat")
        if seat is None:
            return ctx.t("sw.free_city")
        return ctx.player(int(seat))
    return ctx.t("player.nobody")


def _neighbours(view: JSON, c: int) -> tuple[int, int]:
    """(left, right) neighbour cities of ``c`` (SW-0.3: left is c + 1)."""
    n = len(view["cities"])
    return (c + 1) % n, (c - 1) % n


# --- card and stage texts ---------------------------------------------------------------------
def _resource(code: str, tr: Translator) -> str:
    return tr.t(f"sw.res.{code}")


def _amount(code: str, n: int, tr: Translator) -> str:
    """``n`` units of a resource, counted in the reader's language: "2 wood", "2 дерева"."""
    return tr.tn(f"sw.res_n.{code}", n)


def _units(units: list[list[str]], tr: Translator) -> str:
    """Production units: ``[["W"], ["W"]]`` → "2 wood", ``[["W", "C"]]`` → "wood or clay"."""
    singles: Counter[str] = Counter()
    parts: list[str] = []
    for unit in units:
        if len(unit) == 1:
            singles[unit[0]] += 1
        else:
            parts.append(tr.join([_resource(r, tr) for r in unit], "or"))
    counted = [_amount(code, k, tr) for code in RESOURCES if (k := singles[code])]
    return tr.join(counted + parts)


def _count_what(per: dict[str, Any], tr: Translator) -> str:
    things = [tr.t(f"sw.each.{x}") for x in per["count"]]
    return tr.join(things, "or")


def effect_text(effect: dict[str, Any], tr: Translator) -> str:
    """A card's or wonder stage's effect in full sentences (SW-9, SW-10), from its data."""
    out: list[str] = []
    if effect.get("produce"):
        out.append(tr.t("sw.text.produce", what=_units(effect["produce"], tr)))
    if effect.get("produce_private"):
        out.append(tr.t("sw.text.produce_private", what=_units(effect["produce_private"], tr)))
    if effect.get("shields"):
        out.append(tr.tn("sw.text.shields", int(effect["shields"])))
    if effect.get("coins"):
        out.append(tr.tn("sw.text.coins", int(effect["coins"])))
    if effect.get("vp"):
        out.append(tr.tn("sw.text.vp", int(effect["vp"])))
    if effect.get("science"):
        out.append(tr.t("sw.text.science", symbol=tr.t(f"sw.science.{effect['science']}")))
    if effect.get("science_wild"):
        out.append(tr.t("sw.text.science_wild"))
    trade = effect.get("trade_discount")
    if trade:
        kind = "raw" if set(trade["resources"]) <= _RAW else "manufactured"
        sides = sorted(trade["neighbours"])
        where = "both" if len(sides) == 2 else sides[0]
        names = tr.join([_resource(r, tr) for r in trade["resources"]])
        out.append(tr.t(f"sw.text.trade.{kind}.{where}", what=names))
    for key, unit in (("coins_per", "coins"), ("vp_per", "vp")):
        per = effect.get(key)
        if not per:
            continue
        where = "+".join(sorted(per["cities"]))
        place = tr.t(
            {
                "self": "sw.where.self",
                "left+right": "sw.where.neighbours",
                "left+right+self": "sw.where.all",
            }.get(where, "sw.where.all")
        )
        out.append(
            tr.tn(
                f"sw.text.{unit}_per",
                int(per["amount"]),
                what=_count_what(per, tr),
                where=place,
            )
        )
    if effect.get("power"):
        out.append(tr.t(f"sw.power.{effect['power']}"))
    return " ".join(out) if out else tr.t("sw.text.nothing")


def cost_text(resources: dict[str, int], coins: int, tr: Translator) -> str:
    """A cost in words: "2 wood and 1 coin", or "free"."""
    parts = [_amount(code, k, tr) for code in RESOURCES if (k := int(resources.get(code, 0)))]
    if coins:
        parts.append(tr.tn("n.coin", coins))
    return tr.join(parts) if parts else tr.t("sw.cost.free")


# --- payments -----------------------------------------------------------------------------------
def payment_text(view: JSON, c: int, left: int, right: int, bank: int, ctx: Ctx) -> str:
    """Who gets the coins of a payment: "2 coins to Bob and 1 coin to the bank" (SW-7.5)."""
    lc, rc = _neighbours(view, c)
    parts = []
    if left:
        parts.append(ctx.tn("sw.pay.to", left, name=city_name(view, lc, ctx)))
    if right:
        parts.append(ctx.tn("sw.pay.to", right, name=city_name(view, rc, ctx)))
    if bank:
        parts.append(ctx.tn("sw.pay.bank", bank))
    return ctx.join(parts) if parts else ctx.t("sw.pay.nothing")


# --- labels of legal actions --------------------------------------------------------------------
def _commitment(view: JSON, c: int | None) -> dict[str, Any]:
    if c is None:
        return {}
    found: dict[str, Any] = (view.get("commitments") or {}).get(str(c)) or {}
    return found


def label(view: JSON, action: int, ctx: Ctx, hints: JSON | None = None) -> str:
    """The player label of a legal ``action`` of the viewer's current decision."""
    c = view.get("deciding_for")
    if c is None:
        c = view.get("city")
    c = int(c) if c is not None else 0
    text = _label(view, c, action, ctx, hints)
    cities = view.get("cities") or []
    if 0 <= c < len(cities) and cities[c].get("seat") is None:
        return ctx.t("sw.for_free_city", action=text)  # SW-14.4
    return text


def _label(view: JSON, c: int, action: int, ctx: Ctx, hints: JSON | None) -> str:
    if action >= PAY:
        left, right = divmod(action - PAY, PAY_BASE)
        pending = _commitment(view, c)
        bank = 0
        if pending.get("action") == "build" and pending.get("card"):
            bank = CARDS[CARD_INDEX[pending["card"]]].coin_cost
        return ctx.t("sw.act.pay", payment=payment_text(view, c, left, right, bank, ctx))
    if action == HALI_PASS:
        return ctx.t("sw.act.hali_pass")
    t = action % N_CARDS
    card = CARDS[t]
    name = card_name(card.id, ctx.tr)
    if action >= HALI:
        return ctx.t("sw.act.hali", card=name)
    if action >= FREE:
        return ctx.t("sw.act.free", card=name)
    if action >= DISCARD:
        return ctx.t("sw.act.sell", card=name)
    cards = (hints or {}).get("cards") or {}
    if action >= STAGE:
        stage = (hints or {}).get("stage") or {}
        number = stage.get("number") or 0
        pays = stage.get("payments") or []
        how = _how(view, c, pays, 0, ctx)
        return ctx.t("sw.act.stage", card=name, stage=number, how=how)
    hint = cards.get(card.id) or {}
    if hint.get("chain"):
        return ctx.t("sw.act.build_chain", card=name, parent=card_name(hint["chain"], ctx.tr))
    how = _how(view, c, hint.get("payments") or [], card.coin_cost, ctx)
    return ctx.t("sw.act.build", card=name, how=how)


def _how(view: JSON, c: int, pays: list[list[int]], bank: int, ctx: Ctx) -> str:
    """How a build is paid: one way → who gets what; several → "choose how to pay next"."""
    if len(pays) > 1:
        return ctx.tn("sw.how.choose", len(pays))
    left, right = pays[0] if pays else (0, 0)
    if not (left or right or bank):
        return ctx.t("sw.how.free")
    return ctx.t("sw.how.pay", payment=payment_text(view, c, left, right, bank, ctx))


# --- log lines ----------------------------------------------------------------------------------
def log_line(view: JSON, e: JSON, ctx: Ctx) -> str:
    """One log event in player words (an event of an unknown kind keeps its developer text)."""
    kind = e.get("kind")
    city = int(e["city"]) if isinstance(e.get("city"), int) else -1
    name = city_name(view, city, ctx) if city >= 0 else ""
    if kind == "pay":
        payment = payment_text(view, city, int(e["left"]), int(e["right"]), int(e["bank"]), ctx)
        return ctx.t("sw.log.pay", city=name, payment=payment)
    if kind == "build":
        key = {"chain": "sw.log.build_chain", "olympia": "sw.log.build_olympia"}
        template = key.get(str(e.get("how")), "sw.log.build")
        return ctx.t(template, city=name, card=card_name(e["card"], ctx.tr))
    if kind == "stage":
        board = view["cities"][city]["board"]
        return ctx.t("sw.log.stage", city=name, stage=e["stage"], wonder=wonder_name(board, ctx.tr))
    if kind == "discard":
        return ctx.tn("sw.log.discard", int(e.get("coins", 3)), city=name)
    if kind == "discarded":
        return ctx.t("sw.log.discarded", card=card_name(e["card"], ctx.tr))
    if kind == "income":
        if "card" in e:
            what = card_name(e["card"], ctx.tr)
        else:
            what = ctx.t("sw.stage_n", stage=e["stage"])
        return ctx.tn("sw.log.income", int(e["coins"]), city=name, source=what)
    if kind == "hali_build":
        return ctx.t("sw.log.hali_build", city=name, card=card_name(e["card"], ctx.tr))
    if kind in ("hali_pass", "hali_nothing", "seventh"):
        return ctx.t(f"sw.log.{kind}", city=name)
    if kind == "battle":
        return _battle_line(view, e, ctx)
    if kind == "military":
        points = e.get("points") or []
        rows = [
            ctx.t("sw.log.military_one", city=city_name(view, i, ctx), points=_signed(p))
            for i, p in enumerate(points)
        ]
        return ctx.t("sw.log.military", age=_roman(int(e["age"])), list=ctx.join(rows))
    if kind == "age":
        direction = "right" if e.get("direction") == "right" else "left"
        return ctx.t(f"sw.log.age.{direction}", age=_roman(int(e["age"])))
    if kind == "game_over":
        return ctx.t("sw.log.game_over")
    return str(e.get("text", ""))


def _battle_line(view: JSON, e: JSON, ctx: Ctx) -> str:
    """SW-11: one conflict between neighbours — who won which token."""
    a, b = int(e["city"]), int(e["other"])
    sa, sb = int(e["shields"]), int(e["other_shields"])
    if sa == sb:
        return ctx.tn("sw.log.battle_tie", sa, a=city_name(view, a, ctx), b=city_name(view, b, ctx))
    (w, ws), (lo, ls) = ((a, sa), (b, sb)) if sa > sb else ((b, sb), (a, sa))
    return ctx.t(
        "sw.log.battle",
        winner=city_name(view, w, ctx),
        loser=city_name(view, lo, ctx),
        won=ctx.tn("sw.n.shield", ws),
        lost=ctx.tn("sw.n.shield", ls),
        points=int(e["points"]),
    )


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")


def _roman(n: int) -> str:
    return {1: "I", 2: "II", 3: "III"}.get(n, str(n))


# --- the prompt ---------------------------------------------------------------------------------
def prompt(view: JSON, ctx: Ctx) -> str:
    """What the viewer must do now, or whom the table waits for."""
    if view.get("result") is not None:
        return ctx.t("prompt.over")
    legal = view.get("legal") or []
    c = view.get("deciding_for")
    if legal and c is not None:
        c = int(c)
        free_city = view["cities"][c].get("seat") is None
        pending = _commitment(view, c)
        if pending.get("choosing_payment") is not None:
            card = card_name(pending["card"], ctx.tr)
            if pending.get("action") == "stage":
                number = int(view["cities"][c]["stages_built"]) + 1
                return ctx.t("sw.prompt.pay_stage", stage=number, card=card)
            return ctx.t("sw.prompt.pay", card=card)
        if view.get("phase") == "halikarnassus":
            return ctx.t("sw.prompt.hali")
        if view.get("phase") == "babylon_extra_step":
            return ctx.t("sw.prompt.seventh")
        if free_city:
            return ctx.t("sw.prompt.free_city")
        return ctx.t("sw.prompt.choose")
    waiting = [
        city_name(view, i, ctx)
        for i, city in enumerate(view.get("cities") or [])
        if city.get("deciding") and not city.get("committed")
    ]
    mine = list(chosen(view, ctx).values())
    if mine and waiting:
        return ctx.t("sw.prompt.chosen", chosen=ctx.join(mine), players=ctx.join(waiting))
    if not waiting:
        return ""
    return ctx.t("prompt.wait", players=ctx.join(waiting))


def chosen(view: JSON, ctx: Ctx) -> dict[str, str]:
    """What the viewer committed this step, per city it decides for (SW-8.1: still hidden)."""
    out: dict[str, str] = {}
    for key, commit in (view.get("commitments") or {}).items():
        if not commit.get("action") or commit.get("choosing_payment") is not None:
            continue
        c = int(key)
        card = card_name(commit["card"], ctx.tr)
        if commit["action"] == "discard":
            out[key] = ctx.t("sw.chosen.sell", card=card)
            continue
        left, right = int(commit.get("pay_left", 0)), int(commit.get("pay_right", 0))
        bank = (
            CARDS[CARD_INDEX[commit["card"]]].coin_cost
            if commit["action"] == "build" and not commit.get("free")
            else 0
        )
        if commit.get("free") == "chain":
            how = ctx.t("sw.how.chain")
        elif commit.get("free") == "olympia":
            how = ctx.t("sw.how.olympia")
        elif left or right or bank:
            how = ctx.t("sw.how.pay", payment=payment_text(view, c, left, right, bank, ctx))
        else:
            how = ctx.t("sw.how.free")
        key_name = "sw.chosen.stage" if commit["action"] == "stage" else "sw.chosen.build"
        out[key] = ctx.t(key_name, card=card, how=how)
    for key in out:
        if view["cities"][int(key)].get("seat") is None:
            out[key] = ctx.t("sw.chosen.free_city", choice=out[key])  # SW-14.4
    return out


# --- reasons ------------------------------------------------------------------------------------
def reasons(view: JSON, hints: JSON | None, ctx: Ctx) -> tuple[dict[str, str], str | None]:
    """Why each card of the hand cannot be built now, and why no stage can (SW-4, SW-5, SW-7)."""
    out: dict[str, str] = {}
    if not hints:
        return out, None
    for cid, h in (hints.get("cards") or {}).items():
        code = h.get("reason")
        if code:
            out[cid] = ctx.t(f"sw.why.{code}", card=card_name(cid, ctx.tr))
    stage = hints.get("stage") or {}
    code = stage.get("reason")
    return out, (ctx.t(f"sw.why.stage_{code}") if code else None)


# --- render -------------------------------------------------------------------------------------
def render(view: JSON, ctx: Ctx) -> JSON:
    """The player words of one 7 Wonders view (see the module doc)."""
    hints = hints_module.hints(view) if view.get("seat") is not None else None
    legal = {str(a["id"]): label(view, int(a["id"]), ctx, hints) for a in view.get("legal") or []}
    cities = [city_name(view, i, ctx) for i in range(len(view.get("cities") or []))]
    why, stage_why = reasons(view, hints, ctx)
    out: JSON = {
        "legal": legal,
        "log": [log_line(view, e, ctx) for e in view.get("log") or []],
        "prompt": prompt(view, ctx),
        "cities": cities,
        "reasons": why,
        "chosen": chosen(view, ctx),
    }
    if stage_why:
        out["stage_reason"] = stage_why
    c = view.get("deciding_for")
    if (
        c is not None
        and view["cities"][int(c)].get("seat") is None
        and view.get("legal")
        and not any(DISCARD <= int(a["id"]) < FREE for a in view["legal"] if isinstance(a, dict))
    ):
        out["sell_reason"] = ctx.t("sw.why.free_city_sell")  # SW-14.5
    if view.get("result") is not None:
        out["scores"] = {cat: ctx.t(f"sw.score.{cat}") for cat in CATEGORIES}
    return out


# --- the card list (``civtable cards seven-wonders``) ----------------------------------------
def card_entries(tr: Translator) -> list[dict[str, str]]:
    """Every card, then every wonder board, in player words in ``tr``'s language.

    Each entry has ``name``, ``kind`` (the card's colour and type, or "wonder board"), ``age``,
    ``cost`` and ``text`` (the effect, from the same templates the table uses; for a board the
    city's starting resource and every stage of sides A and B); a card that chains has
    ``chains`` (what makes it free, what it makes free). Empty fields are empty strings."""
    out: list[dict[str, str]] = []
    for raw in CARD_DOC["cards"]:
        card = CARDS[CARD_INDEX[raw["id"]]]
        chains = []
        if card.chains_from:
            names = [card_name(CARDS[i].id, tr) for i in card.chains_from]
            chains.append(tr.t("sw.ui.chains_from", cards=tr.join(names, "or")))
        if card.chains_to:
            names = [card_name(CARDS[i].id, tr) for i in card.chains_to]
            chains.append(tr.t("sw.ui.chains_to", cards=tr.join(names)))
        out.append(
            {
                "name": card_name(card.id, tr),
                "kind": tr.t(f"sw.color.{COLORS[card.color]}"),
                "age": tr.t("sw.ui.age", age=_roman(card.age)),
                "cost": cost_text(raw["cost"]["resources"], card.coin_cost, tr),
                "text": effect_text(raw["effect"], tr),
                "chains": ". ".join(chains),
            }
        )
    for raw_board in WONDER_DOC["boards"]:
        board = BOARDS[BOARD_INDEX[raw_board["id"]]]
        sides = []
        for side in ("A", "B"):
            stages = [
                tr.t(
                    "sw.entry.stage",
                    stage=int(st["stage"]),
                    cost=cost_text(st["cost"]["resources"], int(st["cost"].get("coins", 0)), tr),
                    effect=effect_text(st["effect"], tr),
                )
                for st in raw_board["sides"][side]["stages"]
            ]
            sides.append(tr.t("sw.entry.side", side=side, stages=" ".join(stages)))
        start = tr.t("sw.ui.starts_with", resource=_resource(RESOURCES[board.start_resource], tr))
        out.append(
            {
                "name": tr.t(
                    "sw.entry.board_name",
                    wonder=wonder_name(board.id, tr),
                    city=board_city(board.id, tr),
                ),
                "kind": tr.t("sw.entry.board"),
                "age": "",
                "cost": "",
                "text": " ".join([start, *sides]),
                "chains": "",
            }
        )
    return out
