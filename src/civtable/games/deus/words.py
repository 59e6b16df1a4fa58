"""Deus in player words: action labels, log lines, the prompt, reasons, previews and card texts.

Everything here reads a seat's view (``state.view(seat)``, DEUS-20) and the static tables of the
catalog, never the full state, so it cannot reveal more than the view. Words come from the
``deus`` catalogue (``locale/<lang>/deus.po``, keys ``deus.…``) and the shared ``common`` one;
card and god names and card texts are content data (:func:`content_english`, and
``data/i18n/<lang>.json`` for the other languages). See ``docs/presentation.md``.

**Places.** A region is named by what a player sees, its terrain, plus the short number the
table draws on every hex of the map: ``Forest 13``, ``Sea 9``, ``Village 1`` (the number is the
region's index + 1, so it is the same on every screen and in the terminal).

:func:`render` returns, besides the keys every game has (``legal``, ``log``, ``prompt``,
``scores``):

* ``hint``: a short explanation under the prompt (what the choice means, what it gives now);
* ``round``: the round line of the top bar ("Round 7 · final round");
* ``places``: each region's name; ``regions``: each region's description (terrain, owner,
  pieces, village VP, edge) for its tooltip and detail popup;
* ``reasons``: for each card of the viewer's hand that cannot be constructed now, why
  (DEUS-7.1 .. 7.4, DEUS-8.2 .. 8.5);
* ``previews``: for offering actions (start, add, finish), exactly what the offering would give
  this seat now (DEUS-10.3 .. 10.5); for a construction, the column it activates (DEUS-7.6);
* ``gods``: each god's name, power and what a one-card offering to it would give now;
* ``now``: per seat, per card of its tableau, what the card would give if activated now (or,
  for a temple card, what it scores now, DEUS-17).
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import (
    BUILDING_COLORS,
    CARD_INDEX,
    CARDS,
    CNT_COLOR_SETS,
    CNT_OCCUPIED_LAND,
    CNT_OWNED,
    CNT_PAIRS_MIN,
    CNT_PROD_LAND,
    CNT_REGIONS_MIN,
    CNT_TABLEAU,
    CNT_TEMPLE_CARDS,
    CNT_VILLAGES_ARMIES,
    COLOR_PIECE,
    COLORS,
    COUNTER_NAMES,
    E_ACTIVATE,
    E_BUY,
    E_GAIN_PER,
    E_MOVE,
    E_PRODUCE_ONE,
    E_PRODUCE_REGION,
    E_SCORE_PER,
    E_SELL,
    E_STEAL,
    EDGE_VP,
    G_CARDS,
    G_GOLD,
    G_PIECES,
    G_VP,
    GODS,
    GOLD_PER_RESOURCE,
    HAND_LIMIT,
    LAND_RESOURCE,
    MAJORITY_VP,
    PIECES,
    PURPLE,
    REFILL_TO,
    RESOURCES,
    TERRAINS,
    Card,
    Counter,
)
from civtable.games.deus.scoring import CATEGORIES
from civtable.present import Ctx
from civtable.present.i18n import Translator

NRES = len(RESOURCES)
#: the package of the game's content data (``data/i18n/<lang>.json``)
PKG = "deus"
#: the god whose offering brings back a piece of each type (DEUS-10.4)
GOD_OF_PIECE: dict[int, int] = {g.piece: g.color for g in GODS if g.piece >= 0}
_TARGET_PURPOSES = ("produce_one", "produce_region", "steal", "siege", "army_to_move")


# --- content names ----------------------------------------------------------------------------
def card(card_id: str) -> Card:
    """The card type of a spec id (``BRN-01``); a face-down card of one's own ends in ``*``."""
    return CARDS[CARD_INDEX[card_id.rstrip("*")]]


def card_name(card_id: str, tr: Translator) -> str:
    """A card's name as the table shows it: the printed name, with the land, resource, colour
    or number that tells apart the cards sharing it ("Trading Post (forest)"), in ``tr``'s
    language (content data, ``data/i18n/<lang>.json``; English from the card data)."""
    c = card(card_id)
    return tr.content(PKG, f"card.{c.id}", c.label)


def god_name(color: int, tr: Translator) -> str:
    """The god of a colour (DEUS-10.2), in ``tr``'s language (content data)."""
    g = GODS[color]
    return tr.content(PKG, f"god.{g.id}", g.name)


def content_english() -> dict[str, str]:
    """Every content key of Deus with its English text from the card data (issue 19): each
    card's name (``card.<id>``) and effect text (``card.<id>.text``), each god's name
    (``god.<id>``). Other languages give each key in ``data/i18n/<lang>.json``."""
    en = Translator("en")
    out: dict[str, str] = {}
    for c in CARDS:
        out[f"card.{c.id}"] = c.label
        out[f"card.{c.id}.text"] = _effect_template(c, en)
    for g in GODS:
        out[f"god.{g.id}"] = g.name
    return out


def card_entries(tr: Translator) -> list[dict[str, str]]:
    """One entry per card type (the 72 of the 96-card deck) and per god, in player words of
    ``tr``'s language, for ``civtable cards deus --lang``: ``name``, ``kind`` (the card's colour
    and kind, or "god"), ``cost``, ``copies`` and ``text`` (the effect as the table shows it)."""
    out: list[dict[str, str]] = []
    for c in CARDS:
        out.append(
            {
                "id": c.id,
                "name": card_name(c.id, tr),
                "kind": tr.t(f"deus.kind.{COLORS[c.color]}"),
                "cost": cost_text(c, tr),
                "copies": str(c.copies),
                "text": effect_text(c, tr),
            }
        )
    for g in GODS:
        out.append(
            {
                "id": g.id,
                "name": god_name(g.color, tr),
                "kind": tr.t("deus.kind.god", color=color_name(g.color, tr)),
                "cost": "",
                "copies": "",
                "text": god_text(g.color, tr),
            }
        )
    return out


def color_name(color: int, tr: Translator) -> str:
    """A card colour: "brown", ... (the column of the player board)."""
    return tr.t(f"deus.color.{COLORS[color]}")


def res_name(r: int, tr: Translator) -> str:
    """A resource: "wood", "stone", "clay", "wheat"."""
    return tr.t(f"deus.res.{RESOURCES[r]}")


def res_amount(r: int, n: int, tr: Translator) -> str:
    """``n`` units of resource ``r``: "2 wood"."""
    return tr.tn(f"deus.n.{RESOURCES[r]}", n)


def gold(n: int, tr: Translator) -> str:
    """``n`` gold."""
    return tr.tn("deus.n.gold", n)


def vp(n: int, tr: Translator) -> str:
    """``n`` VP."""
    return tr.tn("deus.n.vp", n)


def piece_name(p: int, tr: Translator) -> str:
    """A piece type in the singular ("army", "production building"); ``len(PIECES)`` = a
    temple."""
    name = PIECES[p] if p < len(PIECES) else "temple"
    return tr.t(f"deus.piece.{name}")


def a_piece(p: int, tr: Translator) -> str:
    """One piece with its article: "an army", "a temple" (``len(PIECES)``)."""
    name = PIECES[p] if p < len(PIECES) else "temple"
    return tr.t(f"deus.a.{name}")


def pieces(p: int, n: int, tr: Translator) -> str:
    """``n`` pieces of type ``p``: "2 armies"."""
    return tr.tn(f"deus.n.piece.{PIECES[p]}", n)


def terrain_word(t: int, tr: Translator) -> str:
    """A terrain as a common noun ("forest"), for card texts."""
    return tr.t(f"deus.terrain.{TERRAINS[t]}")


def place(view: JSON | None, r: int | None, tr: Translator) -> str:
    """A region by what a player sees: "Forest 13" (the number is drawn on the map)."""
    if r is None or r < 0:
        return tr.t("deus.place.none")
    regions = (view or {}).get("regions") or []
    if 0 <= r < len(regions):
        return tr.t(f"deus.place.{regions[r]['terrain']}", n=r + 1)
    return tr.t("deus.place.region", n=r + 1)


def cost_text(c: Card, tr: Translator) -> str:
    """A printed cost: "1 wood and 1 wheat", or "free" (DEUS-7.3, 7.3.4)."""
    parts = [res_amount(r, n, tr) for r, n in enumerate(c.cost) if n]
    if c.cost_gold:
        parts.append(gold(c.cost_gold, tr))
    return tr.join(parts) if parts else tr.t("deus.cost.free")


# --- card texts -------------------------------------------------------------------------------
def _counter_args(per: Counter, tr: Translator) -> dict[str, Any]:
    kind = per.kind
    if kind in (CNT_OCCUPIED_LAND, CNT_PROD_LAND):
        return {"land": terrain_word(per.param, tr)}
    if kind in (CNT_REGIONS_MIN, CNT_PAIRS_MIN):
        return {"min": per.param}
    if kind == CNT_TABLEAU:
        return {"color": color_name(per.param, tr)}
    if kind == CNT_OWNED:
        if per.param == G_GOLD:
            return {"unit": per.unit}
        return {"res": res_name(per.param, tr), "unit": per.unit}
    return {}


def _counter_key(per: Counter) -> str:
    name = COUNTER_NAMES[per.kind]
    if per.kind == CNT_REGIONS_MIN and per.param == 1:
        return "occupied_regions"
    if per.kind == CNT_OWNED:
        return "owned_gold" if per.param == G_GOLD else "owned_res"
    return name


def _gain_key(g: int) -> str:
    if g < NRES:
        return "res"
    return {G_VP: "vp", G_GOLD: "gold", G_CARDS: "cards", G_PIECES: "pieces"}[g]


def _lot_text(lot: tuple[int, ...], tr: Translator, times: int = 1) -> str:
    return tr.join([res_amount(r, k * times, tr) for r, k in enumerate(lot) if k])


def _price_text(price_gold: int, price_vp: int, tr: Translator) -> str:
    parts = []
    if price_gold:
        parts.append(gold(price_gold, tr))
    if price_vp:
        parts.append(vp(price_vp, tr))
    return tr.join(parts)


def effect_text(c: Card, tr: Translator) -> str:
    """A card's effect in full sentences (DEUS-12 .. DEUS-17): the content text of ``tr``'s
    language (the rulebook's wording where it prints one), else made from the card data with
    the ``deus.text.*`` templates."""
    english = _TEXTS_EN.get(c.id)
    if english is None:
        english = _TEXTS_EN[c.id] = _effect_template(c, Translator("en"))
    if tr.lang == "en":
        return english
    text = tr.content(PKG, f"card.{c.id}.text", "")
    return text or _effect_template(c, tr)


#: English effect texts by card id (made once from the templates)
_TEXTS_EN: dict[str, str] = {}


def _effect_template(c: Card, tr: Translator) -> str:
    """A card's effect made from its data with the ``deus.text.*`` templates of ``tr``."""
    e = c.effect
    k = e.kind
    if k in (E_GAIN_PER, E_SCORE_PER):
        assert e.per is not None
        args = _counter_args(e.per, tr)
        if k == E_SCORE_PER:
            body = tr.tn(f"deus.text.temple.{_counter_key(e.per)}", e.amount, **args)
            return f"{body} {tr.t('deus.text.temple_cap', cap=e.cap)}"
        if e.gain < NRES:
            args["res"] = res_name(e.gain, tr)
        return tr.tn(f"deus.text.{_gain_key(e.gain)}.{_counter_key(e.per)}", e.amount, **args)
    if k == E_PRODUCE_ONE:
        return tr.tn("deus.text.produce_one", e.amount)
    if k == E_PRODUCE_REGION:
        land = e.land
        return tr.tn(
            "deus.text.produce_region",
            e.amount,
            land=terrain_word(land, tr),
            res=res_name(LAND_RESOURCE[land], tr),
        )
    if k == E_SELL:
        price = _price_text(e.price_gold, e.price_vp, tr)
        kinds = [r for r, n in enumerate(e.lot) if n]
        if len(kinds) == 1 and e.lot[kinds[0]] == 1:
            if e.max_lots < 0:
                return tr.t("deus.text.sell_any", res=res_name(kinds[0], tr), price=price)
            return tr.tn("deus.text.sell_upto", e.max_lots, res=res_name(kinds[0], tr), price=price)
        return tr.tn(
            "deus.text.sell_lots", max(e.max_lots, 0), lot=_lot_text(e.lot, tr), price=price
        )
    if k == E_BUY:
        return tr.tn("deus.text.buy", e.max, price=gold(e.price_gold, tr))
    if k == E_ACTIVATE:
        return tr.t("deus.text.lab", color=color_name(e.color, tr))
    if k == E_STEAL:
        what = gold(e.amount, tr) if e.item == G_GOLD else vp(e.amount, tr)
        return tr.t("deus.text.steal", what=what)
    if k == E_MOVE:
        key = "deus.text.move_each" if e.each else "deus.text.move_one"
        return tr.tn(key, e.max)
    return tr.t("deus.text.siege", what=vp(e.amount, tr))  # take_from_village


def god_text(color: int, tr: Translator) -> str:
    """A god's power in full sentences (DEUS-10.3 .. 10.5), made from its data."""
    g = GODS[color]
    out = []
    if g.gold:
        out.append(tr.t("deus.god.gold", what=gold(g.gold, tr)))
    if g.vp:
        out.append(tr.t("deus.god.vp", what=vp(g.vp, tr)))
    if g.resource_choice:
        out.append(tr.tn("deus.god.resource_choice", g.resource_choice))
    if g.piece_choice:
        out.append(tr.tn("deus.god.piece_choice", g.piece_choice))
    if g.piece >= 0:
        out.append(tr.t("deus.god.piece_back", piece=a_piece(g.piece, tr)))
    out.append(tr.t("deus.god.refill", refill=REFILL_TO, limit=HAND_LIMIT))
    if g.extra_cards:
        out.append(tr.tn("deus.god.extra_cards", g.extra_cards))
    return " ".join(out)


# --- reading the view -------------------------------------------------------------------------
def _player(view: JSON, seat: int) -> JSON:
    for p in view.get("player_states") or []:
        if p["seat"] == seat:
            found: JSON = p
            return found
    return {}


def _village_attacked(view: JSON) -> dict[str, bool]:
    return {v["id"]: bool(v["attacked"]) for v in view.get("villages") or []}


def count(view: JSON, seat: int, per: Counter) -> int | None:
    """A card's counter for ``seat`` evaluated on the public view (DEUS-11.3, 11.4, 14.3,
    16.7, 17), the same numbers :func:`civtable.games.deus.rules.effects.count` computes;
    None when the view lacks what it needs (hidden VP are never used)."""
    regions = view.get("regions") or []
    mine = [g for g in regions if g.get("owner") == seat]
    kind = per.kind
    if kind == CNT_OCCUPIED_LAND:
        return sum(1 for g in mine if g["terrain"] == TERRAINS[per.param])
    if kind in (CNT_REGIONS_MIN, CNT_PAIRS_MIN):
        k = sum(1 for g in mine if len(g["pieces"]) >= per.param)
        return k // 2 if kind == CNT_PAIRS_MIN else k
    if kind == CNT_PROD_LAND:
        return sum(1 for g in mine if "prod" in g["pieces"] and g["terrain"] == TERRAINS[per.param])
    me = _player(view, seat)
    if not me:
        return None
    cols = me.get("columns") or {}
    if kind == CNT_TABLEAU:
        return len(cols.get(COLORS[per.param], []))
    if kind == CNT_TEMPLE_CARDS:
        return len(cols.get("purple", []))
    if kind == CNT_COLOR_SETS:
        return min(len(cols.get(COLORS[c], [])) for c in BUILDING_COLORS)
    if kind == CNT_OWNED:
        amount = me["gold"] if per.param == G_GOLD else me["resources"][RESOURCES[per.param]]
        return int(amount) // per.unit
    if kind == CNT_VILLAGES_ARMIES:
        attacked = _village_attacked(view)
        armies = {
            i for i, g in enumerate(regions) if g.get("owner") == seat and "army" in g["pieces"]
        }
        return sum(
            1
            for g in regions
            if g["terrain"] == "village"
            and not attacked.get(g["id"], False)
            and any(n in armies for n in g.get("adjacent") or [])
        )
    return None


def card_value(view: JSON, seat: int, c: Card, tr: Translator) -> str | None:
    """What a card of ``seat`` would give if activated now ("3 VP"), or what a temple card scores
    now (capped, DEUS-8.8); None for cards whose result depends on a choice."""
    e = c.effect
    if e.per is None or e.kind not in (E_GAIN_PER, E_SCORE_PER):
        return None
    n = count(view, seat, e.per)
    if n is None:
        return None
    if e.kind == E_SCORE_PER:
        return vp(min(e.cap, e.amount * n), tr)
    amount = e.amount * n
    g = e.gain
    if g < NRES:
        supply = (view.get("supply") or {}).get(RESOURCES[g], amount)
        return res_amount(g, min(amount, int(supply)), tr)
    if g == G_VP:
        return vp(amount, tr)
    if g == G_GOLD:
        return gold(amount, tr)
    if g == G_CARDS:
        return tr.tn("n.card", amount)
    return tr.tn("deus.n.buildings", amount)


def card_now(view: JSON, seat: int, c: Card, tr: Translator) -> str | None:
    """:func:`card_value` as a sentence: "If activated now: 3 VP", "Scores 8 VP now"."""
    what = card_value(view, seat, c, tr)
    if what is None:
        return None
    key = "deus.now.temple" if c.effect.kind == E_SCORE_PER else "deus.now.gain"
    return tr.t(key, what=what)


# --- offerings (DEUS-10) ----------------------------------------------------------------------
def offering_outcome(view: JSON, color: int, n: int, hand_after: int) -> dict[str, int]:
    """What discarding ``n`` cards to the god of ``color`` gives the viewer now, the hand
    holding ``hand_after`` cards after the discard, as numbers: ``gold`` and ``vp`` (DEUS-10.3),
    ``resources`` and ``pieces`` of the player's choice (Ceres, Jupiter; only what the general or
    personal supply holds, DEUS-11.6), ``piece`` (the type of the piece moved back, DEUS-10.4;
    -1 none; ``no_piece`` the god's type when the personal supply has none left) and ``drawn``
    (the refill to 5 and Minerva's extra cards, up to the hand limit and the cards left,
    DEUS-10.5, DEUS-7.8)."""
    g = GODS[color]
    me = _player(view, int(view.get("seat") or 0))
    personal = {k: int(x) for k, x in (me.get("personal_supply") or {}).items()}
    supply = sum(int(x) for x in (view.get("supply") or {}).values())
    back = g.piece >= 0 and personal.get(PIECES[g.piece], 0) > 0
    want = max(0, REFILL_TO - hand_after) + n * g.extra_cards
    cards_left = int(view.get("deck_size") or 0) + int(view.get("discard_size") or 0) + n
    return {
        "gold": n * g.gold,
        "vp": n * g.vp,
        "resources": min(n * g.resource_choice, supply),
        "pieces": min(n * g.piece_choice, sum(personal.values()) - (1 if back else 0)),
        "piece": g.piece if back else -1,
        "no_piece": g.piece if g.piece >= 0 and not back else -1,
        "drawn": max(0, min(want, HAND_LIMIT - hand_after, cards_left)),
    }


def offering_gains(view: JSON, color: int, n: int, hand_after: int, ctx: Ctx) -> str:
    """:func:`offering_outcome` in words: "2 gold, a ship back to your player board and 3 cards
    drawn"."""
    g = GODS[color]
    o = offering_outcome(view, color, n, hand_after)
    parts: list[str] = []
    if g.gold:
        parts.append(gold(o["gold"], ctx.tr))
    if g.vp:
        parts.append(vp(o["vp"], ctx.tr))
    if g.resource_choice:
        k = o["resources"]
        parts.append(ctx.tn("deus.offer.resources", k) if k else ctx.t("deus.offer.no_resources"))
    if g.piece_choice:
        k = o["pieces"]
        parts.append(ctx.tn("deus.offer.pieces", k) if k else ctx.t("deus.offer.no_pieces"))
    if o["piece"] >= 0:
        parts.append(ctx.t("deus.offer.piece_back", piece=a_piece(o["piece"], ctx.tr)))
    elif o["no_piece"] >= 0:
        parts.append(ctx.t("deus.offer.no_piece_back", piece=piece_name(o["no_piece"], ctx.tr)))
    if o["drawn"]:
        parts.append(ctx.tn("deus.offer.draw", o["drawn"]))
    return ctx.join(parts) if parts else ctx.t("deus.offer.nothing")


# --- labels of legal actions ------------------------------------------------------------------
def _pending(view: JSON) -> JSON:
    found: JSON = view.get("pending") or {}
    return found


def _pay_label(view: JSON, code: int, ctx: Ctx) -> str:
    t = _pending(view).get("card")
    c = card(t) if t else CARDS[0]
    units = act.pay_units(code)
    parts = [res_amount(r, n - units[r], ctx.tr) for r, n in enumerate(c.cost) if n - units[r]]
    g = c.cost_gold + GOLD_PER_RESOURCE * sum(units)
    if g:
        parts.append(gold(g, ctx.tr))
    what = ctx.join(parts) if parts else ctx.t("deus.cost.free")
    swapped = [res_amount(r, k, ctx.tr) for r, k in enumerate(units) if k]
    if swapped:
        return ctx.t("deus.act.pay_swap", what=what, instead=ctx.join(swapped))
    return ctx.t("deus.act.pay", what=what)


def _sell_label(view: JSON, lots: int, ctx: Ctx) -> str:
    c = card(_pending(view)["card"])
    e = c.effect
    if lots == 0:
        return ctx.t("deus.act.sell_none")
    price = _price_text(e.price_gold * lots, e.price_vp * lots, ctx.tr)
    return ctx.t("deus.act.sell", what=_lot_text(e.lot, ctx.tr, lots), price=price)


def _target_label(view: JSON, r: int, ctx: Ctx) -> str:
    p = _pending(view)
    where = place(view, r, ctx.tr)
    purpose = p.get("purpose")
    c = card(p["card"]) if p.get("card") else None
    regions = view.get("regions") or []
    if purpose == "produce_one":
        res = LAND_RESOURCE[TERRAINS.index(regions[r]["terrain"])]
        amount = c.effect.amount if c else 1
        return ctx.t("deus.act.produce", place=where, what=res_amount(res, amount, ctx.tr))
    if purpose == "produce_region" and c is not None:
        res = LAND_RESOURCE[c.effect.land]
        n = c.effect.amount * len(regions[r]["pieces"])
        return ctx.t("deus.act.produce", place=where, what=res_amount(res, n, ctx.tr))
    if purpose == "steal" and c is not None:
        victims = sorted(
            {regions[n]["owner"] for n in regions[r].get("adjacent") or []}
            - {None, view.get("seat")}
        )
        if not victims:
            return ctx.t("deus.act.steal_nobody", place=where)
        names = ctx.join([ctx.player(int(v)) for v in victims])
        return ctx.t("deus.act.steal", place=where, players=names)
    if purpose == "siege" and c is not None:
        village = next((v for v in view.get("villages") or [] if v["id"] == regions[r]["id"]), None)
        left = int(village["vp"]) if village else 0
        return ctx.t("deus.act.siege", place=where, what=vp(min(c.effect.amount, left), ctx.tr))
    if purpose == "army_to_move":
        return ctx.t("deus.act.army", place=where)
    if purpose == "destination":
        if r == p.get("army_region"):
            return ctx.t("deus.act.stay", place=where)
        return ctx.t("deus.act.move_to", place=where)
    return where


def label(view: JSON, action: int, ctx: Ctx) -> str:
    """The player label of a legal ``action`` of the viewer's current decision."""
    kind, arg = act.split(action)
    phase = view.get("phase")
    tr = ctx.tr
    if kind == "build":
        return ctx.t("deus.act.build", card=card_name(CARDS[arg].id, ctx.tr))
    if kind == "offer":
        c = CARDS[arg]
        return ctx.t("deus.act.offer", god=god_name(c.color, ctx.tr), card=card_name(c.id, ctx.tr))
    if kind == "add":
        return ctx.t("deus.act.add", card=card_name(CARDS[arg].id, ctx.tr))
    if kind == "blind":
        return ctx.t("deus.act.blind", card=card_name(CARDS[arg].id, ctx.tr))
    if kind == "done":
        key = {
            "offering": "deus.act.finish_offering",
            "buy": "deus.act.stop_buying",
            "main": "deus.act.pass",
        }.get(str(phase), "deus.act.stop_moving")
        return ctx.t(key)
    if kind == "pay":
        return _pay_label(view, arg, ctx)
    if kind in ("region", "edge"):
        if phase == "place":
            where = place(view, arg, tr)
            if kind == "edge":
                return ctx.t("deus.act.place_edge", place=where, cost=vp(EDGE_VP, tr))
            return ctx.t("deus.act.place", place=where)
        if phase == "target":
            return _target_label(view, arg, ctx)
        return place(view, arg, tr)
    if kind == "res":
        if phase == "buy":
            c = card(_pending(view)["card"])
            return ctx.t(
                "deus.act.buy", what=res_amount(arg, 1, tr), price=gold(c.effect.price_gold, tr)
            )
        return ctx.t("deus.act.take_res", what=res_amount(arg, 1, tr))
    if kind == "piece":
        if phase == "pick_pieces":
            return ctx.t("deus.act.pick", piece=a_piece(arg, tr))
        return ctx.t("deus.act.take_piece", piece=a_piece(arg, tr))
    if kind == "amount":
        return _sell_label(view, arg, ctx)
    if kind == "card":
        return ctx.t("deus.act.lab", card=card_name(CARDS[arg].id, ctx.tr))
    me = _player(view, int(view.get("seat") or 0))
    k = len((me.get("columns") or {}).get(COLORS[arg], [])) + 1  # DEUS-21.3
    return ctx.t("deus.act.column", color=color_name(arg, tr), cost=gold(k, tr))


# --- reasons and previews ---------------------------------------------------------------------
def reason(view: JSON, card_id: str, why: str, ctx: Ctx) -> str:
    """Why a card of the hand cannot be constructed now (``view["cannot_build"]``)."""
    c = card(card_id)
    me = _player(view, int(view.get("seat") or 0))
    if why == "temple_columns":  # DEUS-8.2
        cols = me.get("columns") or {}
        k = len(cols.get("purple", [])) + 1
        have = min(len(cols.get(COLORS[x], [])) for x in BUILDING_COLORS)
        return ctx.tn("deus.why.temple_columns", k - 1, nth=k, have=have)
    if why == "temple_region":  # DEUS-8.4
        return ctx.t("deus.why.temple_region")
    if why == "piece":  # DEUS-7.1
        p = COLOR_PIECE[c.color]
        return ctx.t(
            "deus.why.piece", piece=piece_name(p, ctx.tr), god=god_name(GOD_OF_PIECE[p], ctx.tr)
        )
    if why == "cost":  # DEUS-7.3
        return ctx.t(
            "deus.why.cost", cost=cost_text(c, ctx.tr), swap=gold(GOLD_PER_RESOURCE, ctx.tr)
        )
    p = COLOR_PIECE[c.color]
    key = "deus.why.region_ship" if PIECES[p] == "ship" else "deus.why.region"
    return ctx.t(key, piece=piece_name(p, ctx.tr))


def previews(view: JSON, ctx: Ctx) -> dict[str, str]:
    """What an offering action would give now (DEUS-10), which column a construction activates
    (DEUS-7.6) and what the card a Laboratory activates would give (DEUS-14.4), by action id."""
    out: dict[str, str] = {}
    hand = view.get("hand") or []
    offering = view.get("offering") or []
    me = _player(view, int(view.get("seat") or 0))
    cols = me.get("columns") or {}
    for a in view.get("legal") or []:
        aid = int(a["id"])
        kind, arg = act.split(aid)
        if kind == "offer":
            gains = offering_gains(view, CARDS[arg].color, 1, len(hand) - 1, ctx)
            out[str(aid)] = ctx.t("deus.preview.offer_one", gains=gains)
        elif kind == "add" and offering:
            color = card(offering[0]).color
            n = len(offering) + 1
            gains = offering_gains(view, color, n, len(hand) - 1, ctx)
            out[str(aid)] = ctx.tn("deus.preview.offer_n", n, gains=gains)
        elif kind == "done" and offering:
            color = card(offering[0]).color
            gains = offering_gains(view, color, len(offering), len(hand), ctx)
            out[str(aid)] = ctx.tn("deus.preview.offer_n", len(offering), gains=gains)
        elif kind == "card":  # a Laboratory's target (DEUS-14.4)
            what = card_value(view, int(view.get("seat") or 0), CARDS[arg], ctx.tr)
            if what is not None:
                out[str(aid)] = ctx.t("deus.preview.lab", what=what)
        elif kind == "build":
            color = CARDS[arg].color
            if color == PURPLE:
                out[str(aid)] = ctx.t("deus.preview.temple")
            else:
                n = len(cols.get(COLORS[color], [])) + 1
                out[str(aid)] = ctx.tn("deus.preview.column", n, color=color_name(color, ctx.tr))
    return out


def gods(view: JSON, ctx: Ctx) -> dict[str, JSON]:
    """Each god (by colour): name, power, and what offering one card to it gives now."""
    hand = view.get("hand")
    out: dict[str, JSON] = {}
    for g in GODS:
        doc: JSON = {"name": god_name(g.color, ctx.tr), "text": god_text(g.color, ctx.tr)}
        if hand is not None and view.get("seat") is not None and hand:
            gains = offering_gains(view, g.color, 1, len(hand) - 1, ctx)
            doc["now"] = ctx.t("deus.preview.offer_one", gains=gains)
        out[COLORS[g.color]] = doc
    return out


def tableau_now(view: JSON, ctx: Ctx) -> list[dict[str, str]]:
    """Per seat: what each card of its tableau would give if activated now."""
    out: list[dict[str, str]] = []
    for p in view.get("player_states") or []:
        doc: dict[str, str] = {}
        for ids in (p.get("columns") or {}).values():
            for cid in ids:
                if cid == "blind":
                    continue
                text = card_now(view, int(p["seat"]), card(cid), ctx.tr)
                if text is not None:
                    doc[cid.rstrip("*")] = text
        out.append(doc)
    return out


# --- places -----------------------------------------------------------------------------------
def region_text(view: JSON, r: int, ctx: Ctx) -> str:
    """One region for its tooltip: name, kind, who holds it with which pieces, village VP."""
    g = view["regions"][r]
    tr = ctx.tr
    parts = [place(view, r, tr)]
    if g["terrain"] == "village":
        village = next((v for v in view.get("villages") or [] if v["id"] == g["id"]), None)
        if village is not None and village["attacked"]:
            parts.append(ctx.t("deus.region.attacked"))
        elif village is not None:
            parts.append(ctx.t("deus.region.village", what=vp(int(village["vp"]), tr)))
    elif g["terrain"] != "sea":
        res = LAND_RESOURCE[TERRAINS.index(g["terrain"])]
        parts.append(ctx.t("deus.region.land", res=res_name(res, tr)))
    if g.get("owner") is not None:
        names = [
            piece_name(PIECES.index(x) if x in PIECES else len(PIECES), tr) for x in g["pieces"]
        ]
        parts.append(
            ctx.t("deus.region.owner", player=ctx.player(int(g["owner"])), pieces=ctx.join(names))
        )
    elif g["terrain"] != "village":
        parts.append(ctx.t("deus.region.empty"))
    if g.get("edge"):
        parts.append(ctx.t("deus.region.edge"))
    return ctx.t("deus.region.sep").join(parts)


# --- the prompt -------------------------------------------------------------------------------
def prompt(view: JSON, ctx: Ctx) -> JSON:
    """What the viewer must do now (``text``) with a short explanation (``hint``); or whom
    the table waits for."""
    tr = ctx.tr
    if view.get("result") is not None:
        return {"text": ctx.t("prompt.over"), "hint": ""}
    seat = view.get("seat")
    to_move = [int(s) for s in view.get("to_move") or []]
    mine = seat is not None and seat in to_move and bool(view.get("legal"))
    if not mine:
        names = ctx.join([ctx.player(s) for s in to_move])
        if view.get("phase") == "pick_pieces":
            return {"text": ctx.t("deus.prompt.wait_picks", players=names), "hint": ""}
        return {"text": ctx.t("prompt.wait", players=names), "hint": ""}
    p = _pending(view)
    phase = view.get("phase")
    c = card(p["card"]) if p.get("card") else None
    cname = card_name(c.id, ctx.tr) if c else ""
    if phase == "main":
        if not view.get("hand"):
            return {"text": ctx.t("deus.prompt.pass"), "hint": ""}
        return {"text": ctx.t("deus.prompt.main"), "hint": ctx.t("deus.prompt.main_hint")}
    if phase == "pick_pieces":
        left = int(p.get("left", 0))
        return {
            "text": ctx.tn("deus.prompt.pick", left),
            "hint": ctx.t("deus.prompt.pick_hint"),
        }
    if phase == "blind_column":
        return {
            "text": ctx.t("deus.prompt.blind_column", card=cname),
            "hint": ctx.t("deus.prompt.blind_hint"),
        }
    if phase == "pay":
        return {
            "text": ctx.t("deus.prompt.pay", card=cname),
            "hint": ctx.t("deus.prompt.pay_hint", swap=gold(GOLD_PER_RESOURCE, tr)),
        }
    if phase == "place":
        n = len({int(a["id"]) for a in view.get("legal") or []})
        what = piece_name(PIECES.index(p["piece"]) if p.get("piece") in PIECES else len(PIECES), tr)
        hint = ctx.tn("deus.prompt.place_hint", n)
        if any(act.split(int(a["id"]))[0] == "edge" for a in view.get("legal") or []):
            hint = f"{hint} {ctx.t('deus.prompt.edge_hint', cost=vp(EDGE_VP, tr))}"
        key = "deus.prompt.place_blind" if p.get("blind") else "deus.prompt.place"
        return {"text": ctx.t(key, piece=what, card=cname), "hint": hint}
    if phase == "offering":
        offering = view.get("offering") or []
        color = card(offering[0]).color if offering else 0
        gains = offering_gains(view, color, len(offering), len(view.get("hand") or []), ctx)
        return {
            "text": ctx.tn("deus.prompt.offering", len(offering), god=god_name(color, ctx.tr)),
            "hint": ctx.t("deus.prompt.offering_hint", gains=gains),
        }
    if phase == "gain_choice":
        res_left = int(p.get("resources_left", 0))
        if res_left:
            return {"text": ctx.tn("deus.prompt.gain_res", res_left), "hint": ""}
        return {
            "text": ctx.tn("deus.prompt.gain_pieces", int(p.get("pieces_left", 0))),
            "hint": ctx.t("deus.prompt.gain_pieces_hint"),
        }
    if phase == "target":
        purpose = str(p.get("purpose"))
        key = f"deus.prompt.target.{purpose}"
        army = p.get("army_region")
        text = ctx.t(key, card=cname, place=place(view, army, tr) if army is not None else "")
        hint = effect_text(c, tr) if c else ""
        return {"text": text, "hint": hint}
    if phase == "sell":
        return {
            "text": ctx.t("deus.prompt.sell", card=cname),
            "hint": effect_text(c, tr) if c else "",
        }
    if phase == "buy":
        bought = int(p.get("bought", 0))
        most = c.effect.max if c else 0
        return {
            "text": ctx.t("deus.prompt.buy", card=cname),
            "hint": ctx.tn(
                "deus.prompt.buy_hint",
                most - bought,
                price=gold(c.effect.price_gold if c else 1, tr),
            ),
        }
    if phase == "laboratory":
        color = c.effect.color if c else 0
        return {
            "text": ctx.t("deus.prompt.lab", card=cname, color=color_name(color, tr)),
            "hint": "",
        }
    return {"text": ctx.t("deus.prompt.other"), "hint": ""}


def round_line(view: JSON, ctx: Ctx) -> str:
    """The top bar's round: "Round 7", "Round 9 · final round", "Round 8 · the game ends after
    round 9" (DEUS-18.2); "Game over" at the end."""
    if view.get("result") is not None:
        return ctx.t("status.over")
    rnd = int(view.get("round") or 1)
    final = view.get("final_round")
    if final is None:
        return ctx.t("deus.round", n=rnd)
    if rnd >= int(final):
        return ctx.t("deus.round_final", n=rnd)
    return ctx.t("deus.round_before_final", n=rnd, final=int(final))


# --- the log ----------------------------------------------------------------------------------
def _gain_what(item: int, n: int, tr: Translator) -> str:
    if item < NRES:
        return res_amount(item, n, tr)
    if item == G_VP:
        return vp(n, tr)
    if item == G_GOLD:
        return gold(n, tr)
    if item == G_CARDS:
        return tr.tn("n.card", n)
    return tr.tn("deus.n.buildings", n)


def log_line(view: JSON | None, e: JSON, ctx: Ctx) -> str:
    """One log event in player words (``view`` names the regions; without it, by number)."""
    kind = str(e.get("kind", ""))
    tr = ctx.tr
    who = ctx.player(int(e["player"])) if isinstance(e.get("player"), int) else ""
    cname = card_name(str(e["card"]), ctx.tr) if e.get("card") else ""
    if kind == "pay":
        parts = [res_amount(r, n, tr) for r, n in enumerate(e.get("res") or []) if n]
        if e.get("gold"):
            parts.append(gold(int(e["gold"]), tr))
        what = ctx.join(parts) if parts else ctx.t("deus.cost.free")
        if not e.get("card"):
            return ctx.t("deus.log.pay_blind", player=who, what=what)
        return ctx.t("deus.log.pay", player=who, what=what, card=cname)
    if kind == "build":
        color = int(e["color"])
        if e.get("region") is None:
            return ctx.t("deus.log.build_no_temple", player=who, card=cname)
        where = place(view, int(e["region"]), tr)
        if color == PURPLE:
            return ctx.t("deus.log.build_temple", player=who, card=cname, place=where)
        piece = a_piece(COLOR_PIECE[color], tr)
        if not e.get("card"):
            text = ctx.t(
                "deus.log.build_blind",
                player=who,
                color=color_name(color, tr),
                piece=piece,
                place=where,
            )
        else:
            text = ctx.t("deus.log.build", player=who, card=cname, piece=piece, place=where)
        if e.get("edge"):
            text = f"{text} {ctx.t('deus.log.edge', cost=vp(EDGE_VP, tr))}"
        return text
    if kind == "activate":
        return ctx.tn(
            "deus.log.activate", int(e["cards"]), player=who, color=color_name(int(e["color"]), tr)
        )
    if kind == "gain":
        item, n = int(e["item"]), int(e["n"])
        if item == G_PIECES:
            if n == 0:
                return ctx.t("deus.log.gain_nothing", card=cname, player=who)
            return ctx.t(
                "deus.log.gain_pieces", card=cname, player=who, what=_gain_what(item, n, tr)
            )
        if n == 0:
            if int(e.get("wanted", 0)) > 0:
                return ctx.t("deus.log.gain_short", card=cname, player=who)
            return ctx.t("deus.log.gain_nothing", card=cname, player=who)
        key = "deus.log.gain_cards" if item == G_CARDS else "deus.log.gain"
        text = ctx.t(key, card=cname, player=who, what=_gain_what(item, n, tr))
        if int(e.get("wanted", n)) > n:
            text = f"{text} {ctx.t('deus.log.short')}"
        return text
    if kind == "take":
        if e.get("res") is not None:
            return ctx.t(
                "deus.log.take_res", player=who, what=res_amount(int(e["res"]), int(e["n"]), tr)
            )
        return ctx.t(
            "deus.log.take_piece", player=who, what=pieces(int(e["piece"]), int(e["n"]), tr)
        )
    if kind == "produce":
        return ctx.t(
            "deus.log.produce",
            card=cname,
            player=who,
            what=res_amount(int(e["res"]), int(e["n"]), tr),
            place=place(view, int(e["region"]), tr),
        )
    if kind == "sell":
        lots = int(e["lots"])
        if lots == 0:
            return ctx.t("deus.log.sell_none", card=cname, player=who)
        c = card(str(e["card"]))
        price = _price_text(int(e.get("gold", 0)), int(e.get("vp", 0)), tr)
        return ctx.t(
            "deus.log.sell",
            card=cname,
            player=who,
            what=_lot_text(c.effect.lot, tr, lots),
            price=price,
        )
    if kind == "buy":
        return ctx.t(
            "deus.log.buy",
            card=cname,
            player=who,
            what=res_amount(int(e["res"]), 1, tr),
            price=gold(int(e["gold"]), tr),
        )
    if kind == "lab":
        return ctx.t(
            "deus.log.lab", card=cname, player=who, target=card_name(str(e["target"]), ctx.tr)
        )
    if kind == "steal":
        item = int(e["item"])
        taken = [(int(v), int(k)) for v, k in e.get("taken") or []]
        where = place(view, int(e["region"]), tr)
        if not taken:
            return ctx.t("deus.log.steal_nobody", card=cname, player=who, place=where)
        parts = [
            ctx.t("deus.log.from", what=_gain_what(item, k, tr), player=ctx.player(v))
            for v, k in taken
        ]
        return ctx.t("deus.log.steal", card=cname, player=who, what=ctx.join(parts), place=where)
    if kind == "siege":
        return ctx.t(
            "deus.log.siege",
            card=cname,
            player=who,
            what=vp(int(e["vp"]), tr),
            place=place(view, int(e["village"]), tr),
        )
    if kind == "move":
        origin, dest = int(e["origin"]), int(e["region"])
        if origin == dest:
            return ctx.t("deus.log.stay", card=cname, player=who, place=place(view, dest, tr))
        return ctx.t(
            "deus.log.move",
            card=cname,
            player=who,
            origin=place(view, origin, tr),
            place=place(view, dest, tr),
        )
    if kind == "idle":
        return ctx.t("deus.log.idle", card=cname, player=who)
    if kind == "attack":
        winners = [int(w) for w in e.get("winners") or []]
        names = ctx.join([ctx.player(w) for w in winners])
        where = place(view, int(e["village"]), tr)
        share = int(e["vp"])
        if len(winners) > 1:
            return ctx.tn(
                "deus.log.attack_shared",
                len(winners),
                place=where,
                players=names,
                what=vp(share, tr),
            )
        return ctx.t("deus.log.attack", place=where, players=names, what=vp(share, tr))
    if kind == "end_trigger":
        key = "deus.log.end_temples" if e.get("cause") == "temples" else "deus.log.end_villages"
        return ctx.t(key, final=int(e["final_round"]))
    if kind == "round":
        key = "deus.log.round_final" if e.get("final") else "deus.log.round"
        return ctx.t(key, n=int(e["round"]))
    if kind == "game_over":
        return ctx.t("deus.log.game_over")
    if kind == "draw":
        return ctx.tn("deus.log.draw", int(e["n"]), player=who)
    if kind == "pass":
        return ctx.t("deus.log.pass", player=who)
    if kind == "offer":
        color = int(e["god"])
        n = int(e["cards"])
        gained: list[str] = []
        if e.get("gold"):
            gained.append(gold(int(e["gold"]), tr))
        if e.get("vp"):
            gained.append(vp(int(e["vp"]), tr))
        if int(e.get("piece", -1)) >= 0:
            gained.append(ctx.t("deus.offer.piece_back_log", piece=a_piece(int(e["piece"]), tr)))
        if e.get("drawn"):
            gained.append(ctx.tn("deus.offer.draw", int(e["drawn"])))
        gains = ctx.join(gained) if gained else ctx.t("deus.offer.nothing_yet")
        return ctx.tn(
            "deus.log.offer",
            n,
            player=who,
            god=god_name(color, ctx.tr),
            card=card_name(str(e["top"]), ctx.tr),
            gains=gains,
        )
    if kind == "start_pieces":
        counts = [int(x) for x in e.get("pieces") or []]
        what = ctx.join([pieces(p, k, tr) for p, k in enumerate(counts) if k])
        return ctx.t("deus.log.start_pieces", player=who, what=what)
    raw = e.get("text")  # an entry of an older log
    return str(raw) if isinstance(raw, str) else ctx.t("deus.log.unknown")


#: rendered log lines by (language, names, board terrains, event): an entry never changes once
#: written, and every payload of a game renders its whole log again
_LINES: dict[tuple[Any, ...], str] = {}
_LINES_MAX = 100_000


def log_lines(view: JSON, ctx: Ctx) -> list[str]:
    """Every entry of ``view["log"]`` in player words (memoized: see :data:`_LINES`)."""
    board = tuple(g["terrain"] for g in view.get("regions") or [])
    head = (ctx.tr.lang, ctx.names, board)
    out = []
    for e in view.get("log") or []:
        key = (*head, repr(e))  # ints, strings, lists and None only: repr is exact
        line = _LINES.get(key)
        if line is None:
            if len(_LINES) >= _LINES_MAX:
                _LINES.clear()
            line = _LINES[key] = log_line(view, e, ctx)
        out.append(line)
    return out


# --- everything -------------------------------------------------------------------------------
def scores(ctx: Ctx) -> dict[str, str]:
    """The score categories of DEUS-19 in words."""
    out = {}
    for cat in CATEGORIES:
        if cat.startswith("majority_"):
            item = cat[len("majority_") :]
            what = gold_word(ctx.tr) if item == "gold" else res_name(RESOURCES.index(item), ctx.tr)
            out[cat] = ctx.t("deus.score.majority", what=what, points=vp(MAJORITY_VP, ctx.tr))
        else:
            out[cat] = ctx.t(f"deus.score.{cat}")
    return out


def gold_word(tr: Translator) -> str:
    """ "gold" as a thing one has the most of."""
    return tr.t("deus.gold")


def render(view: JSON, ctx: Ctx) -> JSON:
    """The player words of one Deus view (see the module doc)."""
    legal = {str(a["id"]): label(view, int(a["id"]), ctx) for a in view.get("legal") or []}
    regions = view.get("regions") or []
    seat = view.get("seat")
    ask = prompt(view, ctx)
    reasons = {
        cid: reason(view, cid, str(why), ctx)
        for cid, why in (view.get("cannot_build") or {}).items()
    }
    out: JSON = {
        "legal": legal,
        "log": log_lines(view, ctx),
        "prompt": ask["text"],
        "hint": ask["hint"],
        "round": round_line(view, ctx),
        "places": [place(view, r, ctx.tr) for r in range(len(regions))],
        "regions": [region_text(view, r, ctx) for r in range(len(regions))],
        "reasons": reasons,
        "previews": previews(view, ctx) if seat is not None else {},
        "gods": gods(view, ctx),
        "now": tableau_now(view, ctx),
    }
    if view.get("result") is not None:
        out["scores"] = scores(ctx)
    return out
