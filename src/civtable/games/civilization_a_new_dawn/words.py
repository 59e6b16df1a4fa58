"""Player words for Civilization: A New Dawn: labels, prompts, log lines, space names, previews.

:func:`render` reads one seat's view (never the state) and the reader's catalogue
(``locale/<lang>/civilization_a_new_dawn.po``, keys ``civ.…``) and returns what the table shows:

* ``legal``: a label for every legal action, built from the decision on top of the view's
  ``stack`` (which card, which caravan, which wonder…), never from ``describe()``;
* ``prompt`` / ``hint``: what to do now and why, or whom the table waits for;
* ``log``: one line per log event (``{"kind": …}``, see :mod:`.rules.common`);
* ``spaces`` / ``refs`` / ``rows``: each map space named by what a player sees (terrain,
  city-state or natural wonder) and a short board reference (row letter + position from the
  left, ``C4``) that the table draws along the map's left edge;
* ``previews``: what an attack, a caravan stop, a trade-token spend or a strike gives now;
* ``unavailable``: card options that cannot be used now, with the reason;
* ``event``: the event dial in words; ``scores`` once the game is over.

Card texts per slot come from templates per effect op (:func:`effect_text`), so the catalogue
and the table describe a card from the same effect data the rules resolve.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from civtable.core.api import JSON
from civtable.games.civilization_a_new_dawn import actions as A  # noqa: N812
from civtable.games.civilization_a_new_dawn.catalog import (
    BARBARIAN_LETTERS,
    CITY_STATES,
    DIRECTIONS,
    ERAS,
    EVENT_SECTIONS,
    FOCUS_CARDS,
    LEADERS,
    LEVELS,
    NATURAL_WONDERS,
    PLAYER_CARD_NAMES,
    PLAYER_CARD_TEXTS,
    PLAYER_CARDS,
    RESOURCES,
    TYPES,
    VICTORY_CARDS,
    WONDER_TYPES,
    WONDERS,
    Effect,
    Step,
)
from civtable.games.civilization_a_new_dawn.rules import kinds as K  # noqa: N812
from civtable.present import Ctx, Translator, translator

P = "civ."
#: the start-of-turn effects, in the order of ``rules.start`` (wonder or city-state id)
START_EFFECTS = (
    ("wonder", "hanging_gardens"),
    ("wonder", "forbidden_city"),
    ("wonder", "oracle"),
    ("city_state", "seoul"),
    ("city_state", "geneva"),
    ("wonder", "eiffel_tower"),
    ("wonder", "great_zimbabwe"),
)
# attack target kinds (rules.military)
T_BARB, T_CSTATE, T_TOKEN, T_CITY, T_CAPITAL = range(5)
# D_PLACE modes (rules.culture)
M_CITY, M_FRIENDLY, M_ANCHOR, M_HANGING, M_STONEHENGE = range(5)


# --- content names ------------------------------------------------------------------------------
PKG = "civilization_a_new_dawn"


@dataclass(frozen=True)
class Content:
    """Names and texts of the game's content in one language (English from the game data)."""

    cards: dict[str, str]
    wonders: dict[str, str]
    wonder_texts: dict[str, str]
    city_states: dict[str, str]
    natural_wonders: dict[str, str]
    leaders: dict[str, str]
    civilizations: dict[str, str]
    abilities: dict[str, str]
    ability_texts: dict[str, str]
    player_cards: dict[str, str]
    player_card_texts: dict[str, str]
    agendas: dict[str, tuple[str, ...]]
    cs_texts: dict[str, str]


@functools.cache
def content_english() -> dict[str, str]:
    """Every content key of the game with its English text from the card data (issue 19):
    ``card.<id>`` (focus cards), ``wonder.<id>`` / ``.text``, ``city_state.<id>`` / ``.text``,
    ``natural_wonder.<id>``, ``leader.<id>`` / ``.ability`` / ``.text``, ``civilization.<id>``,
    ``diplomacy.<id>`` / ``.text`` (players' diplomacy cards) and ``agenda.<id>`` (victory
    cards). Focus-card and agenda texts are not here: they are made from the effect data by the
    catalogue's templates (``civ.op.*``, ``civ.agenda.*``)."""
    out: dict[str, str] = {}
    for c in FOCUS_CARDS:
        out[f"card.{c.id}"] = c.name
    for w in WONDERS:
        out[f"wonder.{w.id}"] = w.name
        out[f"wonder.{w.id}.text"] = w.text
    for cs in CITY_STATES:
        out[f"city_state.{cs.id}"] = cs.name
        out[f"city_state.{cs.id}.text"] = cs.card_text
    for n in NATURAL_WONDERS:
        out[f"natural_wonder.{n.id}"] = n.name
    for ld in LEADERS:
        out[f"leader.{ld.id}"] = ld.leader
        out[f"civilization.{ld.id}"] = ld.civilization
        out[f"leader.{ld.id}.ability"] = ld.ability_name
        out[f"leader.{ld.id}.text"] = ld.ability_text
    for k, name, text in zip(PLAYER_CARDS, PLAYER_CARD_NAMES, PLAYER_CARD_TEXTS, strict=True):
        out[f"diplomacy.{k}"] = name
        out[f"diplomacy.{k}.text"] = text
    for v in VICTORY_CARDS:
        for a in v.agendas:
            out[f"agenda.{a.id}"] = a.name
    return out


@functools.cache
def content(lang: str = "en") -> Content:
    """Content names and texts for ``lang``: ``data/i18n/<lang>.json``, English from the data."""
    tr = translator(lang)
    eng = content_english()

    def get(key: str) -> str:
        return tr.content(PKG, key, eng[key])

    return Content(
        cards={c.id: get(f"card.{c.id}") for c in FOCUS_CARDS},
        wonders={w.id: get(f"wonder.{w.id}") for w in WONDERS},
        wonder_texts={w.id: get(f"wonder.{w.id}.text") for w in WONDERS},
        city_states={c.id: get(f"city_state.{c.id}") for c in CITY_STATES},
        natural_wonders={n.id: get(f"natural_wonder.{n.id}") for n in NATURAL_WONDERS},
        leaders={ld.id: get(f"leader.{ld.id}") for ld in LEADERS},
        civilizations={ld.id: get(f"civilization.{ld.id}") for ld in LEADERS},
        abilities={ld.id: get(f"leader.{ld.id}.ability") for ld in LEADERS},
        ability_texts={ld.id: get(f"leader.{ld.id}.text") for ld in LEADERS},
        player_cards={k: get(f"diplomacy.{k}") for k in PLAYER_CARDS},
        player_card_texts={k: get(f"diplomacy.{k}.text") for k in PLAYER_CARDS},
        agendas={v.id: tuple(get(f"agenda.{a.id}") for a in v.agendas) for v in VICTORY_CARDS},
        cs_texts={c.id: get(f"city_state.{c.id}.text") for c in CITY_STATES},
    )


def card_entries(tr: Translator) -> list[dict[str, str]]:
    """Every focus card, world wonder, city-state, natural wonder and leader in player words, for
    ``civtable cards``: ``name``, ``text``, ``kind`` and ``level`` (the tech level of a focus
    card, the era of a wonder; empty where the thing has none)."""
    ctx = Ctx(tr)
    c = content(tr.lang)
    t = tr.t
    out: list[dict[str, str]] = []
    for f in FOCUS_CARDS:
        ty = t(f"{P}type.{TYPES[f.type]}")
        slots = " ".join(
            t(f"{P}ui.slot", n=k) + ": " + card_slot_text(ctx, f.id, k) for k in range(1, 6)
        )
        out.append(
            {
                "name": c.cards[f.id],
                "kind": t(f"{P}ui.card_kind", type=ty, level=LEVELS[f.level - 1]),
                "level": LEVELS[f.level - 1],
                "text": card_rules(ctx, f.id) + " " + slots,
            }
        )
    for w in WONDERS:
        ty = t(f"{P}type.{WONDER_TYPES[w.type]}")
        era = t(f"{P}era.{ERAS[w.era]}")
        res = ctx.join([t(f"{P}resource.{RESOURCES[r]}") for r in w.resources if r >= 0])
        out.append(
            {
                "name": c.wonders[w.id],
                "kind": t(f"{P}ui.wonder_kind", type=ty, era=era),
                "level": era,
                "text": t(f"{P}ui.wonder_price", cost=w.cost, resources=res)
                + " "
                + c.wonder_texts[w.id],
            }
        )
    for cs in CITY_STATES:
        ty = t(f"{P}type.{TYPES[cs.type]}")
        out.append(
            {
                "name": c.city_states[cs.id],
                "kind": t(f"{P}kind.city_state", type=ty),
                "level": "",
                "text": t(f"{P}ui.cs_card", text=c.cs_texts[cs.id]),
            }
        )
    for n in NATURAL_WONDERS:
        out.append(
            {
                "name": c.natural_wonders[n.id],
                "kind": t(f"{P}terrain.natural_wonder"),
                "level": "",
                "text": t(
                    f"{P}ui.legend.resource", resource=t(f"{P}resource.{RESOURCES[n.resource]}")
                ),
            }
        )
    for ld in LEADERS:
        out.append(
            {
                "name": t(
                    f"{P}ui.leader_title", leader=c.leaders[ld.id], civ=c.civilizations[ld.id]
                ),
                "kind": t(f"{P}kind.leader"),
                "level": "",
                "text": c.abilities[ld.id] + ": " + c.ability_texts[ld.id],
            }
        )
    return out


# --- the board reference --------------------------------------------------------------------------
#: row letters of the board reference in English: no I and O (read as 1 and 0) and no P (``P3``
#: reads as a player's default name); another language has its own alphabet in its catalogue
#: (``civ.ui.row_letters``: Cyrillic in Russian and Ukrainian)
ROW_LETTERS = "ABCDEFGHJKLMNQRSTUVWXYZ"


def row_letters(lang: str) -> str:
    """The row letters of the board reference in ``lang`` (``civ.ui.row_letters``)."""
    return translator(lang).t(f"{P}ui.row_letters")


def row_letter(i: int, letters: str = ROW_LETTERS) -> str:
    """A, B, …, Z, AA, AB… for row ``i`` (0-based), using only ``letters``."""
    n = len(letters)
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, n)
        out = letters[r] + out
    return out


@functools.lru_cache(maxsize=64)
def _refs(
    coords: tuple[tuple[int, int], ...], letters: str = ROW_LETTERS
) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    rows = sorted({r for _, r in coords})
    letter = {r: row_letter(i, letters) for i, r in enumerate(rows)}
    # within a row, neighbours differ by 1 in q: count from the row's leftmost space
    first = {r: min(q for q, rr in coords if rr == r) for r in rows}
    refs = tuple(f"{letter[r]}{q - first[r] + 1}" for q, r in coords)
    return refs, tuple((r, letter[r]) for r in rows)


SpaceKey = tuple[tuple[int, int, str, str, str], ...]


def _space_key(spaces: Sequence[JSON]) -> SpaceKey:
    return tuple(
        (
            int(s["q"]),
            int(s["r"]),
            str(s["terrain"]),
            str(s.get("city_state") or ""),
            str(s.get("natural_wonder") or ""),
        )
        for s in spaces
    )


@functools.lru_cache(maxsize=64)
def _space_names(lang: str, key: SpaceKey) -> tuple[str, ...]:
    """Each space named by what is printed on it (city-state, natural wonder, else terrain) and
    its board reference: ``hills C4``, ``Kumasi (D6)``."""
    tr, c = translator(lang), content(lang)
    refs, _ = _refs(tuple((q, r) for q, r, _, _, _ in key), row_letters(lang))
    out = []
    for (_, _, terrain, cs, nw), ref in zip(key, refs, strict=True):
        if cs:
            out.append(tr.t(f"{P}space.named", name=c.city_states[cs], ref=ref))
        elif nw:
            out.append(tr.t(f"{P}space.named", name=c.natural_wonders[nw], ref=ref))
        else:
            out.append(tr.t(f"{P}space.terrain", terrain=tr.t(f"{P}terrain.{terrain}"), ref=ref))
    return tuple(out)


@functools.lru_cache(maxsize=32)
def _line_memo(lang: str, names: tuple[str, ...], key: SpaceKey) -> dict[tuple[Any, ...], str]:
    """Log lines made so far for one language, set of player names and map."""
    return {}


def board_refs(
    spaces: Sequence[JSON], letters: str = ROW_LETTERS
) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    """The board reference of every space (``C4``: row C from the top, 4th space from the row's
    left end) and the letter of every row ``(r, letter)``, rows lettered with ``letters``."""
    return _refs(tuple((int(s["q"]), int(s["r"])) for s in spaces), letters)


# --- card texts from the effect data ------------------------------------------------------------
def step_text(ctx: Ctx, step: Step, slot: int) -> str:
    """One effect step in words (``civ.op.*`` templates)."""
    t, tn = ctx.t, ctx.tn
    op = step.op
    if op == "place_control_tokens":
        n = step.count or step.maximum
        d = slot if step.max_difficulty else 5
        where = {
            "friendly_city": "city",
            "friendly_space": "friendly",
            "new_city": "new_city",
        }.get(step.adjacent_to, "city")
        key = f"{P}op.place.{where}" + ("" if step.count else ".up_to")
        return tn(key, n, d=d)
    if op == "move_own_control_token":
        return t(f"{P}op.move_token")
    if op == "convert_rival_control_token":
        return t(f"{P}op.convert", within=step.within or 2)
    if op == "advance_tech_dial":
        return tn(f"{P}op.dial", step.spaces or slot)
    if op == "gain_trade_tokens":
        return tn(f"{P}op.trade_tokens", step.count or 1)
    if op == "gain_resource":
        return t(f"{P}op.resource_new")
    if op == "area_strike":
        return t(f"{P}op.strike")
    if op == "move_caravans":
        return tn(f"{P}op.caravans", step.caravans, move=step.move, d=slot)
    if op == "exchange_resource":
        return t(f"{P}op.exchange")
    if op == "resolve_other_focus_card":
        return t(f"{P}op.capitalism")
    if op == "build_city":
        text = t(f"{P}op.city", range=step.range, d=slot)
        for then in step.then:
            text = t(f"{P}op.then", first=text, second=step_text(ctx, then, slot))
        return text
    if op == "build_wonder":
        return t(f"{P}op.wonder", p=step.base_production)
    if op == "reinforce":
        n = step.maximum or slot
        key = f"{P}op.reinforce.reduced" if step.reduced_by_attacks else f"{P}op.reinforce"
        return tn(key, n)
    if op == "attack":
        text = tn(f"{P}op.attack", step.attacks, range=step.range, value=slot)
        if step.bonus_vs_barbarian >= 0 and step.bonus_vs_barbarian != step.combat_bonus:
            text += " " + t(
                f"{P}op.attack.bonus_barbarian",
                bonus=step.combat_bonus,
                barbarian=step.bonus_vs_barbarian,
            )
        elif step.combat_bonus:
            text += " " + t(f"{P}op.attack.bonus", bonus=step.combat_bonus)
        return text
    return t(f"{P}op.other")


def effect_text(ctx: Ctx, effect: Effect, slot: int) -> str:
    """A card's whole effect from one slot: its steps in order, or its options."""
    parts = [step_text(ctx, s, slot) for s in effect.steps]
    if effect.choose_one:
        return ctx.t(f"{P}op.either", first=parts[0], second=ctx.join(parts[1:], "or"))
    text = parts[0]
    for p in parts[1:]:
        text = ctx.t(f"{P}op.then", first=text, second=p)
    return text


def card_slot_text(ctx: Ctx, card_id: str, slot: int) -> str:
    """What a focus card does from ``slot`` (1..5), its special abilities included."""
    return _card_slot_text(ctx.tr.lang, card_id, slot)


@functools.lru_cache(maxsize=512)
def _card_slot_text(lang: str, card_id: str, slot: int) -> str:
    ctx = Ctx(translator(lang))
    c = FOCUS_CARDS[_CARD_INDEX[card_id]]
    text = effect_text(ctx, c.effects[slot - 1], slot)
    for ab in sorted(c.abilities):
        text += " " + ctx.t(f"{P}ability.{ab}")
    return text


def agenda_text(ctx: Ctx, cond: JSON) -> str:
    """A victory agenda's condition in words (``civ.agenda.*``, CIV-22.1)."""
    kind = str(cond.get("kind", ""))
    if kind == "any_of":
        parts = [agenda_text(ctx, c).rstrip(".") for c in cond.get("of") or []]
        if len(parts) == 2:
            second = parts[1][:1].lower() + parts[1][1:]
            return ctx.t(f"{P}agenda.any_of", first=parts[0], second=second) + "."
        return " / ".join(parts)
    key = f"{P}agenda.{kind}"
    if not ctx.tr.has(key):
        return ctx.t(f"{P}agenda.other")
    count = int(cond.get("count") or cond.get("space") or 0)
    if kind == "control_world_wonders":
        ty = ctx.t(f"{P}type.{cond['wonder_type']}")
        return ctx.tn(key, count, count=count, type=ty)
    if kind in (
        "control_conquered_city_states",
        "control_mature_cities",
        "control_natural_wonders",
    ):
        return ctx.tn(key, count, count=count)
    return ctx.t(key, count=count)


def card_rules(ctx: Ctx, card_id: str) -> str:
    """The card's type rule: what its slot number means and what a spent trade token adds."""
    t = TYPES[FOCUS_CARDS[_CARD_INDEX[card_id]].type]
    return ctx.t(f"{P}slot_means.{t}") + " " + ctx.t(f"{P}trade_effect.{t}")


_CARD_INDEX = {c.id: c.index for c in FOCUS_CARDS}
_WONDER_INDEX = {w.id: w.index for w in WONDERS}
_CS_INDEX = {c.id: c.index for c in CITY_STATES}


# --- the renderer ---------------------------------------------------------------------------------
class _Words:
    """Words of one view for one reader."""

    def __init__(self, view: JSON, ctx: Ctx) -> None:
        self.v = view
        self.ctx = ctx
        self.t = ctx.t
        self.tn = ctx.tn
        self.c = content(ctx.tr.lang)
        self.spaces: list[JSON] = view["map"]["spaces"]
        self.refs, self.rows = board_refs(self.spaces, row_letters(ctx.tr.lang))
        self.space_key = _space_key(self.spaces)
        self.names = list(_space_names(ctx.tr.lang, self.space_key))
        self.ps: list[JSON] = view["player_state"]
        self.b: JSON = view["board"]
        self.stack: list[list[int]] = view.get("stack") or []
        self.facts: JSON = view.get("facts") or {}

    # --- names --------------------------------------------------------------------------------
    def player(self, seat: Any) -> str:
        if isinstance(seat, int) and seat == -1:
            return self.t(f"{P}barbarians")
        return self.ctx.player(seat if isinstance(seat, int) else None)

    def space(self, i: Any) -> str:
        if isinstance(i, int) and 0 <= i < len(self.names):
            return self.names[i]
        return self.t(f"{P}space.unknown")

    def card(self, card_id: Any) -> str:
        return self.c.cards.get(str(card_id), str(card_id))

    def card_at(self, seat: int, place: int) -> str:
        """The name of the card holding ``place`` (0..4, normally its type) in a seat's row."""
        return self.card(self.ps[seat]["places"][place])

    def wonder(self, wid: Any) -> str:
        return self.c.wonders.get(str(wid), str(wid))

    def cs(self, cid: Any) -> str:
        return self.c.city_states.get(str(cid), str(cid))

    def nw(self, nid: Any) -> str:
        return self.c.natural_wonders.get(str(nid), str(nid))

    def resource(self, r: Any) -> str:
        name = RESOURCES[r] if isinstance(r, int) else str(r)
        return self.t(f"{P}resource.{name}")

    def pcard(self, kind: Any) -> str:
        return self.c.player_cards.get(str(kind), str(kind))

    def direction(self, d: int) -> str:
        return self.t(f"{P}direction.{DIRECTIONS[d]}")

    def barbarian(self, letter: Any) -> str:
        return self.t(f"{P}barbarian", letter=str(letter))

    def what_on(self, s: int) -> str:
        """Who or what an attack on ``s`` would fight: ``Bob's city on hills C4``."""
        b = self.b
        for letter, pos in (b.get("barbarians") or {}).items():
            if pos == s:
                return self.t(
                    f"{P}target.barbarian", barbarian=self.barbarian(letter), space=self.space(s)
                )
        cs = (b.get("city_states") or {}).get(str(s))
        if cs:
            return self.space(s)
        city = b["city"][s]
        if city >= 0:
            capital = self.ps[city]["capital"] == s
            key = f"{P}target.capital" if capital else f"{P}target.city"
            return self.t(key, owner=self.player(city), space=self.space(s))
        tok = b["control"][s]
        if tok >= 0:
            key = f"{P}target.token.reinforced" if b["reinforced"][s] else f"{P}target.token"
            return self.t(key, owner=self.player(tok), space=self.space(s))
        return self.space(s)

    # --- the decision on top --------------------------------------------------------------------
    def top(self) -> list[int]:
        return self.stack[-1] if self.stack else [0, -1]

    def below(self, depth: int = 2) -> list[int]:
        return self.stack[-depth] if len(self.stack) >= depth else [0, -1]

    def combat(self) -> list[int] | None:
        for f in reversed(self.stack):
            if f[0] == K.C_RESOLVE:
                return f
        return None

    def caravan_pool(self) -> int:
        f = self.below()
        return f[6] if f[0] == K.D_CARAVAN and len(f) > 6 else 0

    # --- labels -------------------------------------------------------------------------------
    def labels(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for a in self.v.get("legal") or []:
            aid = int(a["id"])
            try:
                out[str(aid)] = self.label(aid)
            except (KeyError, IndexError, ValueError):  # never leave a button without words
                out[str(aid)] = self.t(f"{P}act.choice")
        return out

    def label(self, a: int) -> str:
        f = self.top()
        kind, seat = f[0], f[1]
        t = self.t
        if kind == K.D_START:
            if a == A.DONE:
                return t(f"{P}act.start.done")
            return self.start_effect(a - A.OPT)
        if kind == K.D_CHOOSE:
            k = a - A.SLOT
            return t(f"{P}act.choose", card=self.card(self.ps[seat]["row"][k]), slot=k + 1)
        if kind == K.D_SPEND:
            if a == A.DONE:
                return t(f"{P}act.spend.none")
            n = a - A.OPT + 1
            return self.tn(f"{P}act.spend", n, effect=self.spend_effect(f[2], n))
        if kind == K.D_MODE:
            if a == A.DONE:
                return t(f"{P}act.mode.none")
            step = FOCUS_CARDS[f[2]].effects[f[3] - 1].steps[a - A.OPT]
            return self.mode_label(step, f[3], f[4])
        if kind in (K.D_ATT_SPEND, K.D_DEF_SPEND):
            if a == A.DONE:
                return t(f"{P}act.spend.none")
            return self.tn(f"{P}act.combat_spend", a - A.OPT + 1)
        if kind == K.D_CARAVAN:
            if a == A.DONE:
                return t(f"{P}act.caravan.done")
            return self.caravan_label(seat, a - A.OPT)
        if kind == K.D_STEP:
            if a == A.DONE:
                return t(f"{P}act.step.stop")
            return t(f"{P}act.step", space=self.space(a - A.SPACE))
        if kind == K.D_CONQLIB:
            cs = self.cs_at(f[2])
            return t(f"{P}act.conquer" if a == A.OPT else f"{P}act.liberate", city_state=cs)
        if kind == K.D_SWAP1 and len(f) > 2 and f[2] in (1, 2):
            if a == A.DONE:
                return t(f"{P}act.decline")
            if f[2] == 1:
                return t(f"{P}act.maracana", card=self.card_at(seat, 2))
            return t(f"{P}act.venetian", card=self.card_at(seat, f[3]))
        if kind == K.D_ORACLE:
            row = self.ps[seat]["row"]
            i = a - A.OPT
            return t(f"{P}act.swap", a=self.card(row[i]), b=self.card(row[i + 1]))
        if kind == K.D_WPAY and a == A.OPT:
            return t(f"{P}act.wonder.build", wonder=self.wonder(WONDERS[f[2]].id))
        if kind == K.D_TRADE_TOKEN and a == A.OPT + 9:
            return t(f"{P}act.trade_token.gz", wonder=self.wonder("great_zimbabwe"))
        if kind == K.D_MAPTILE:
            tile = self.v["map_hands"][seat][a - A.OPT]
            return t(f"{P}act.tile", tile=tile)
        if a == A.DONE:
            return t(self.done_key(kind))
        if a < A.TYPE:
            return t(f"{P}act.option", n=a - A.OPT + 1)
        if a < A.SLOT:
            return self.type_label(kind, f, a - A.TYPE)
        if a < A.RES:
            k = a - A.SLOT
            return t(f"{P}act.slot", card=self.card(self.ps[seat]["row"][k]), slot=k + 1)
        if a < A.CARD:
            return self.resource_label(kind, a - A.RES)
        if a < A.NW:
            return self.card_label(kind, f, a - A.CARD)
        if a < A.WDECK:
            nat = NATURAL_WONDERS[a - A.NW]
            return t(f"{P}act.pay.nw", nw=self.nw(nat.id), resource=self.resource(nat.resource))
        if a < A.CSC:
            return self.wdeck_label(a - A.WDECK)
        if a < A.PCARD:
            return t(f"{P}act.cs_card", city_state=self.cs(CITY_STATES[a - A.CSC].id))
        if a < A.BARB:
            giver = f[2] if kind in (K.D_PCARD, K.D_GENEVA_TAKE) else seat
            return t(
                f"{P}act.pcard",
                card=self.pcard(PLAYER_CARDS[a - A.PCARD]),
                giver=self.player(giver),
            )
        if a < A.SPACE:
            letter = BARBARIAN_LETTERS[a - A.BARB]
            pos = (self.b.get("barbarians") or {}).get(letter, -1)
            return t(f"{P}act.barbarian", barbarian=self.barbarian(letter), space=self.space(pos))
        if a < A.MAPPOS:
            return self.space_label(kind, f, a - A.SPACE)
        return t(f"{P}act.position", n=a - A.MAPPOS + 1)

    def done_key(self, kind: int) -> str:
        return {
            K.D_PLACE: f"{P}act.done.place",
            K.D_REINFORCE: f"{P}act.done.reinforce",
            K.D_ATTACK: f"{P}act.done.attack",
            K.D_DP_FROM: f"{P}act.done.skip",
            K.D_EXCH_GIVE: f"{P}act.done.skip",
            K.D_CAPITALISM: f"{P}act.decline",
            K.D_UPGRADE: f"{P}act.done.upgrade",
            K.D_PCARD: f"{P}act.done.no_card",
            K.D_CSCARD: f"{P}act.done.no_card",
            K.D_PYRAMIDS: f"{P}act.done.stop",
            K.D_PORCELAIN: f"{P}act.done.stop",
            K.D_POTALA: f"{P}act.done.stop",
            K.D_GZ_MOVE: f"{P}act.done.stop",
            K.D_SWAP1: f"{P}act.done.no_swap",
            K.D_RECLAIM: f"{P}act.done.stop",
        }.get(kind, f"{P}act.done")

    def start_effect(self, k: int) -> str:
        what, wid = START_EFFECTS[k]
        name = self.wonder(wid) if what == "wonder" else self.cs(wid)
        return self.t(f"{P}act.start.{wid}", name=name)

    def spend_effect(self, card: int, n: int) -> str:
        c = FOCUS_CARDS[card]
        return self.tn(f"{P}spend_effect.{TYPES[c.type]}", n)

    def mode_label(self, step: Step, slot: int, spent: int) -> str:
        if step.op == "build_city":
            return self.t(f"{P}act.mode.city", range=step.range, d=slot)
        if step.op == "build_wonder":
            return self.t(f"{P}act.mode.wonder", p=step.base_production + spent)
        if step.op == "reinforce":
            return self.tn(f"{P}act.mode.reinforce", step.maximum or slot)
        if step.op == "attack":
            return self.tn(f"{P}act.mode.attack", step.attacks, range=step.range)
        return step_text(self.ctx, step, slot)

    def caravan_label(self, seat: int, i: int) -> str:
        pos = self.ps[seat]["caravans"][i]
        if pos == -1:
            return self.t(f"{P}act.caravan.home", n=i + 1)
        return self.t(f"{P}act.caravan", n=i + 1, space=self.space(pos))

    def cs_at(self, s: int) -> str:
        cid = self.spaces[s].get("city_state")
        return self.cs(cid) if cid else self.space(s)

    def type_label(self, kind: int, f: list[int], k: int) -> str:
        seat = f[1]
        if kind in (K.D_EMBASSY,):
            return self.t(f"{P}act.card_of", card=self.card_at(f[2], k), owner=self.player(f[2]))
        if kind == K.D_RAID:
            return self.t(f"{P}act.raid", card=self.card_at(f[2], k), owner=self.player(f[2]))
        if kind == K.D_UPGRADE:
            return self.t(f"{P}act.upgrade.replace", card=self.card_at(seat, k))
        if kind in (K.D_PYRAMIDS, K.D_PORCELAIN):
            return self.t(f"{P}act.upgrade.card", card=self.card_at(seat, k))
        if kind == K.D_DISCARD:
            return self.t(f"{P}act.discard", card=self.card_at(seat, k))
        if kind in (K.D_TRADE_TOKEN, K.D_GZ_MOVE):
            return self.t(f"{P}act.trade_token", card=self.card_at(seat, k))
        if kind == K.D_AMERICA:
            return self.t(f"{P}act.america", card=self.card_at(seat, k))
        if kind == K.D_CAPITALISM:
            return self.t(f"{P}act.capitalism", card=self.card_at(seat, k))
        return self.card_at(seat, k)

    def resource_label(self, kind: int, r: int) -> str:
        if kind == K.D_WPAY:
            return self.t(f"{P}act.pay.resource", resource=self.resource(r))
        if kind == K.D_EXCH_GIVE:
            return self.t(f"{P}act.exchange", resource=self.resource(r))
        return self.t(f"{P}act.take_resource", resource=self.resource(r))

    def card_label(self, kind: int, f: list[int], x: int) -> str:
        if kind == K.D_UPGRADE:
            c = FOCUS_CARDS[x]
            return self.t(
                f"{P}act.upgrade",
                card=self.card(c.id),
                type=self.t(f"{P}type.{TYPES[c.type]}"),
                level=LEVELS[c.level - 1],
            )
        if kind == K.D_MAPORIENT:
            side, rot = divmod(x, 6)
            return self.t(f"{P}act.orient", side=self.t(f"{P}side.{side}"), degrees=rot * 60)
        g, k = divmod(x, len(PLAYER_CARDS))
        return self.t(f"{P}act.pcard", card=self.pcard(PLAYER_CARDS[k]), giver=self.player(g))

    def wdeck_label(self, t: int) -> str:
        d = (self.v.get("wonder_decks") or {}).get(WONDER_TYPES[t]) or {}
        wid = d.get("face_up")
        cost = (self.facts.get("wonder_costs") or {}).get(wid, 0)
        return self.t(f"{P}act.wonder", wonder=self.wonder(wid), cost=cost)

    def space_label(self, kind: int, f: list[int], s: int) -> str:
        t, sp = self.t, self.space(s)
        if kind == K.D_PLACE:
            return t(f"{P}act.place", space=sp) + self.gain_suffix(s)
        if kind == K.D_CITY:
            return t(f"{P}act.city", space=sp)
        if kind == K.D_WCITY:
            return t(f"{P}act.wcity", wonder=self.wonder(WONDERS[f[2]].id), space=sp)
        if kind == K.D_WMOVE:
            return t(f"{P}act.wcity", wonder=self.wonder(WONDERS[f[2]].id), space=sp)
        if kind == K.D_REINFORCE:
            return t(f"{P}act.reinforce", space=sp)
        if kind == K.D_ATTACK:
            return t(f"{P}act.attack", target=self.what_on(s))
        if kind == K.D_NUKE:
            return t(f"{P}act.nuke", space=sp)
        if kind in (K.D_MASSMEDIA, K.D_FC, K.D_EIFFEL1, K.D_EIFFEL2):
            return self.what_on(s)
        if kind == K.D_EIFFEL_VICTIM:
            return t(f"{P}act.eiffel_victim", space=sp)
        if kind == K.D_DP_FROM:
            return t(f"{P}act.move_from", space=sp)
        if kind in (K.D_DP_TO, K.D_SEOUL_TO):
            return t(f"{P}act.move_to", space=sp)
        if kind == K.D_RECLAIM:
            return t(f"{P}act.reclaim", space=sp)
        return sp

    def gain_suffix(self, s: int) -> str:
        res = (self.b.get("resources") or {}).get(str(s))
        if res:
            return " " + self.t(f"{P}act.gain", what=self.resource(res))
        nw = (self.b.get("natural_wonders") or {}).get(str(s))
        if nw:
            return " " + self.t(f"{P}act.gain", what=self.nw(nw))
        return ""

    # --- prompt -------------------------------------------------------------------------------
    def prompt(self) -> tuple[str, str]:
        v, t = self.v, self.t
        if v.get("over"):
            winners = v.get("winners") or []
            if not winners:
                return t(f"{P}prompt.unfinished"), ""
            names = self.ctx.join([self.player(w) for w in winners])
            key = "ui.winner" if len(winners) == 1 else "ui.winners"
            return t(key, players=names), ""
        to_move = v.get("to_move") or []
        viewer = v.get("seat")
        if viewer is None or viewer not in to_move or not v.get("legal"):
            who = self.ctx.join([self.player(s) for s in to_move]) or t("player.nobody")
            return t("prompt.wait", players=who), self.waiting_for()
        return self.decision_prompt()

    def waiting_for(self) -> str:
        """What the player to move is deciding, when it is worth saying."""
        if not self.stack:
            return ""
        f = self.top()
        key = f"{P}wait.{_KIND_KEY.get(f[0], 'other')}"
        return self.ctx.tr.maybe(key, "", player=self.player(f[1]))

    def decision_prompt(self) -> tuple[str, str]:
        f = self.top()
        kind, seat = f[0], f[1]
        t, tn = self.t, self.tn
        key = _KIND_KEY.get(kind, "other")
        if kind == K.D_START:
            return t(f"{P}prompt.start"), t(f"{P}hint.start")
        if kind == K.D_CHOOSE:
            return t(f"{P}prompt.choose"), t(f"{P}hint.choose")
        if kind == K.D_SPEND:
            card = self.card(FOCUS_CARDS[f[2]].id)
            return (
                tn(f"{P}prompt.spend", f[4], card=card, slot=f[3]),
                t(f"{P}trade_effect.{TYPES[FOCUS_CARDS[f[2]].type]}"),
            )
        if kind == K.D_MODE:
            card = self.card(FOCUS_CARDS[f[2]].id)
            return t(f"{P}prompt.mode", card=card, slot=f[3]), ""
        if kind == K.D_PLACE:
            below = self.below()[0]
            if f[4] == M_STONEHENGE:
                return t(f"{P}prompt.place.stonehenge", space=self.space(f[6])), ""
            if below == K.D_START:
                return t(f"{P}prompt.place.hanging", d=f[3]), ""
            d = f[3] or 5
            where = {M_CITY: "city", M_FRIENDLY: "friendly", M_ANCHOR: "new_city"}.get(f[4], "city")
            hint = t(f"{P}hint.place.{where}", d=d)
            if f[5]:
                return tn(f"{P}prompt.place", f[2]), hint
            return tn(f"{P}prompt.place.up_to", f[2]), hint
        if kind == K.D_REINFORCE:
            return tn(f"{P}prompt.reinforce", f[2]), t(f"{P}hint.reinforce")
        if kind == K.D_ATTACK:
            return tn(f"{P}prompt.attack", f[2], range=f[3]), t(f"{P}hint.attack")
        if kind in (K.D_ATT_SPEND, K.D_DEF_SPEND):
            c = self.combat()
            att, dfn = (c[3], c[4]) if c else (0, 0)
            where = self.what_on(c[2]) if c else ""
            if kind == K.D_ATT_SPEND:
                return t(f"{P}prompt.att_spend", target=where, attack=att, defence=dfn), t(
                    f"{P}hint.combat_spend"
                )
            return t(
                f"{P}prompt.def_spend",
                attacker=self.player(f[2]),
                target=where,
                attack=att,
                defence=dfn,
            ), t(f"{P}hint.combat_spend")
        if kind == K.D_CARAVAN:
            return tn(f"{P}prompt.caravan", f[2] + (f[6] if len(f) > 6 else 0)), t(
                f"{P}hint.caravan", d=f[3]
            )
        if kind == K.D_STEP:
            left = f[3] + self.caravan_pool()
            pos = self.ps[seat]["caravans"][f[2]]
            hint = t(f"{P}hint.step", d=f[4])
            if pos < 0:
                return tn(f"{P}prompt.step.home", left, n_caravan=f[2] + 1), hint
            return tn(f"{P}prompt.step", left, n_caravan=f[2] + 1, space=self.space(pos)), hint
        if kind == K.D_CITY:
            return t(f"{P}prompt.city"), t(f"{P}hint.city", range=f[4], d=f[3])
        if kind == K.D_WDECK:
            return t(f"{P}prompt.wdeck", p=f[2]), t(f"{P}hint.wdeck")
        if kind == K.D_WPAY:
            w = WONDERS[f[2]]
            cost = (self.facts.get("wonder_costs") or {}).get(w.id, w.cost)
            res = self.ctx.join([self.resource(r) for r in sorted(set(w.resources))], "or")
            return t(f"{P}prompt.wpay", wonder=self.wonder(w.id), p=f[3], cost=cost), t(
                f"{P}hint.wpay", resources=res
            )
        if kind == K.D_WCITY:
            return t(f"{P}prompt.wcity", wonder=self.wonder(WONDERS[f[2]].id)), ""
        if kind == K.D_WMOVE:
            return t(f"{P}prompt.wmove", wonder=self.wonder(WONDERS[f[2]].id)), ""
        if kind == K.D_UPGRADE:
            if f[3] >= 0:
                return t(f"{P}prompt.upgrade.which", card=self.card(FOCUS_CARDS[f[3]].id)), ""
            return t(f"{P}prompt.upgrade", level=LEVELS[f[2] - 1]), t(f"{P}hint.upgrade")
        if kind == K.D_TRADE_TOKEN:
            return tn(f"{P}prompt.trade_token", f[2]), t(f"{P}hint.trade_token")
        if kind == K.D_GAIN_RES:
            hint = t(f"{P}hint.gain_res.new") if f[3] else ""
            return tn(f"{P}prompt.gain_res", f[2]), hint
        if kind == K.D_PCARD:
            return t(f"{P}prompt.pcard", giver=self.player(f[2])), t(f"{P}hint.pcard")
        if kind == K.D_CSCARD:
            cid = CITY_STATES[f[2]].id
            return t(f"{P}prompt.cs_card", city_state=self.cs(cid)), self.cs_text(cid)
        if kind == K.D_RAID:
            return tn(f"{P}prompt.raid", f[3], owner=self.player(f[2])), ""
        if kind == K.D_DISCARD:
            return tn(f"{P}prompt.discard", f[2]), ""
        if kind == K.D_CONQLIB:
            cs = self.cs_at(f[2])
            return t(f"{P}prompt.conqlib", city_state=cs), t(f"{P}hint.conqlib", city_state=cs)
        if kind == K.D_STACKPICK:
            return t(f"{P}prompt.stackpick", direction=self.direction(f[2])), ""
        if kind == K.D_EMBASSY:
            return t(f"{P}prompt.embassy", owner=self.player(f[2])), ""
        if kind in (K.D_PYRAMIDS, K.D_PORCELAIN, K.D_POTALA):
            return tn(f"{P}prompt.{key}", f[2]), ""
        if kind == K.D_SWAP1:
            if len(f) > 2 and f[2] == 1:
                return t(f"{P}prompt.maracana", card=self.card_at(seat, 2)), ""
            if len(f) > 2 and f[2] == 2:
                return t(f"{P}prompt.venetian", card=self.card_at(seat, f[3])), ""
            return t(f"{P}prompt.aztec"), ""
        if kind == K.D_SWAP2:
            row = self.ps[seat]["row"]
            return t(f"{P}prompt.swap2", card=self.card(row[f[2]])), ""
        if kind == K.D_SEOUL_TO:
            return t(f"{P}prompt.seoul_to", barbarian=self.barbarian(BARBARIAN_LETTERS[f[2]])), ""
        if kind == K.D_GENEVA_TAKE:
            return t(f"{P}prompt.geneva_take", giver=self.player(f[2])), ""
        if kind == K.D_EIFFEL2:
            return t(f"{P}prompt.eiffel2", owner=self.player(self.b["control"][f[2]])), ""
        if kind == K.D_EIFFEL_VICTIM:
            return t(f"{P}prompt.eiffel_victim", player=self.player(f[2])), ""
        if kind == K.D_AMERICA:
            return t(f"{P}prompt.america", nw=self.nw(NATURAL_WONDERS[f[2]].id)), ""
        if kind == K.D_MAPORIENT:
            return t(f"{P}prompt.maporient", tile=f[2]), ""
        if kind == K.D_MAPPOS:
            return t(f"{P}prompt.mappos", tile=f[2]), t(f"{P}hint.mappos")
        return t(f"{P}prompt.{key}"), ""

    def cs_text(self, cid: str) -> str:
        return self.c.cs_texts.get(cid, "")

    # --- previews -----------------------------------------------------------------------------
    def previews(self) -> dict[str, str]:
        f = self.top()
        legal = [int(a["id"]) for a in self.v.get("legal") or []]
        out: dict[str, str] = {}
        kind = f[0]
        if kind == K.D_CHOOSE:
            texts = self.slot_texts[f[1]]
            for a in legal:
                if A.SLOT <= a < A.RES:
                    out[str(a)] = texts[a - A.SLOT]
        elif kind == K.D_ATTACK:
            for s, fa in (self.facts.get("attacks") or {}).items():
                out[str(A.SPACE + int(s))] = self.attack_preview(fa)
        elif kind == K.D_STEP:
            for a in legal:
                if a >= A.SPACE:
                    text = self.visit_preview(f[1], a - A.SPACE)
                    if text:
                        out[str(a)] = text
        elif kind == K.D_SPEND:
            for a in legal:
                n = 0 if a == A.DONE else a - A.OPT + 1
                out[str(a)] = self.spend_preview(f, n)
        elif kind in (K.D_ATT_SPEND, K.D_DEF_SPEND):
            c = self.combat()
            if c:
                for a in legal:
                    n = 0 if a == A.DONE else a - A.OPT + 1
                    att = c[3] + (n if kind == K.D_ATT_SPEND else 0)
                    dfn = c[4] + (n if kind == K.D_DEF_SPEND else 0)
                    out[str(a)] = self.t(f"{P}preview.combat", attack=att, defence=dfn)
        elif kind == K.D_NUKE:
            for a in legal:
                text = self.nuke_preview(a - A.SPACE)
                if text:
                    out[str(a)] = text
        elif kind == K.D_WDECK:
            prod = self.facts.get("production") or {}
            for a in legal:
                wid = ((self.v.get("wonder_decks") or {}).get(WONDER_TYPES[a - A.WDECK]) or {}).get(
                    "face_up"
                )
                cost = (self.facts.get("wonder_costs") or {}).get(wid, 0)
                out[str(a)] = self.t(
                    f"{P}preview.wonder", p=f[2], most=prod.get(wid, f[2]), cost=cost
                )
        return out

    def attack_preview(self, fa: JSON) -> str:
        att, dfn = int(fa["attack"]), int(fa["defence"])
        chance = win_chance(att, dfn)
        text = self.t(f"{P}preview.attack", attack=att, defence=dfn, chance=round(100 * chance))
        if fa.get("tokens"):
            best = win_chance(att + int(fa["tokens"]), dfn)
            text += " " + self.tn(
                f"{P}preview.attack.tokens", int(fa["tokens"]), chance=round(100 * best)
            )
        if fa.get("defender_tokens"):
            text += " " + self.tn(f"{P}preview.attack.defender_tokens", int(fa["defender_tokens"]))
        return text

    def visit_preview(self, seat: int, s: int) -> str:
        cs = (self.b.get("city_states") or {}).get(str(s))
        barbs = set((self.b.get("barbarians") or {}).values())
        if cs and s not in barbs:
            ty = TYPES[CITY_STATES[_CS_INDEX[cs]].type]
            return self.t(
                f"{P}preview.visit.cs", city_state=self.cs(cs), type=self.t(f"{P}type.{ty}")
            )
        owner = self.b["city"][s]
        if owner >= 0 and owner != seat:
            capital = self.ps[owner]["capital"] == s
            key = f"{P}preview.visit.capital" if capital else f"{P}preview.visit.city"
            return self.t(key, owner=self.player(owner))
        if s in barbs:
            return self.t(f"{P}preview.visit.barbarian")
        return ""

    def spend_preview(self, f: list[int], n: int) -> str:
        c = FOCUS_CARDS[f[2]]
        slot = f[3]
        eff = c.effects[slot - 1]
        ty = c.type
        if ty == 0:  # culture: more tokens on the first placement step
            base = eff.steps[0].count or eff.steps[0].maximum
            return self.tn(f"{P}preview.spend.culture", base + n)
        if ty == 1:
            spaces = next(
                (s.spaces or slot for s in eff.steps if s.op == "advance_tech_dial"), slot
            )
            return self.tn(f"{P}preview.spend.science", spaces + n)
        if ty == 2:
            move = eff.steps[0].move
            return self.tn(f"{P}preview.spend.economy", move + n)
        if ty == 3:
            base = next((s.base_production for s in eff.steps if s.op == "build_wonder"), slot)
            return self.t(f"{P}preview.spend.industry", p=base + n)
        return ""

    def nuke_preview(self, s: int) -> str:
        adj = self.adjacent(s)
        hit = [x for x in (s, *adj) if self.b["control"][x] >= 0]
        if not hit:
            return ""
        flipped = sum(1 for x in hit if self.b["reinforced"][x])
        return self.t(
            f"{P}preview.nuke",
            destroyed=self.tn(f"{P}n.token", len(hit) - flipped),
            flipped=self.tn(f"{P}n.token", flipped),
        )

    @functools.cached_property
    def _coord_index(self) -> dict[tuple[int, int], int]:
        return {(int(sp["q"]), int(sp["r"])): i for i, sp in enumerate(self.spaces)}

    def adjacent(self, s: int) -> list[int]:
        q, r = int(self.spaces[s]["q"]), int(self.spaces[s]["r"])
        idx = self._coord_index
        out = []
        for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
            n = idx.get((q + dq, r + dr))
            if n is not None:
                out.append(n)
        return out

    def unavailable(self) -> list[dict[str, str]]:
        f = self.top()
        if f[0] != K.D_MODE:
            return []
        out = []
        for u in self.facts.get("unavailable") or []:
            step = FOCUS_CARDS[f[2]].effects[f[3] - 1].steps[int(u["option"])]
            out.append(
                {
                    "label": self.mode_label(step, f[3], f[4]),
                    "reason": self.t(f"{P}reason.{u['reason']}"),
                }
            )
        return out

    # --- the event dial, scores ----------------------------------------------------------------
    def event(self) -> str:
        section = int(self.v.get("event_section") or 0)
        icon = EVENT_SECTIONS[section]
        return self.t(f"{P}event.{icon or 'none'}")

    def scores(self) -> dict[str, str]:
        return {
            "agendas": self.t(f"{P}score.agendas"),
            "wonders": self.t(f"{P}score.wonders"),
            "spaces": self.t(f"{P}score.spaces"),
        }

    # --- log ----------------------------------------------------------------------------------
    def log_lines(self) -> list[str]:
        """One line per event; lines already made for this language, names and map are reused
        (a payload carries the whole log)."""
        memo = _line_memo(self.ctx.tr.lang, tuple(self.ctx.names), self.space_key)
        out = []
        for e in self.v.get("log") or []:
            key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in e.items()))
            line = memo.get(key)
            if line is None:
                try:
                    line = self.log_line(e)
                except (KeyError, IndexError, ValueError, TypeError):
                    line = self.t(f"{P}log.other")
                if len(memo) < 20000:
                    memo[key] = line
            out.append(line)
        return out

    def log_line(self, e: JSON) -> str:
        kind = str(e.get("kind", ""))
        t, tn = self.t, self.tn
        k = f"{P}log.{kind}"
        who = self.player(e.get("player"))
        if kind == "resolve":
            return t(k, player=who, card=self.card(e["card"]), slot=e["slot"])
        if kind == "spend":
            return tn(k, e["n"], player=who, card=self.card(e["card"]))
        if kind == "dial":
            return tn(k, e.get("by", 0), player=who, space=e["space"])
        if kind == "upgrade":
            if e.get("old"):
                return t(k, player=who, card=self.card(e["card"]), old=self.card(e["old"]))
            return t(f"{k}.new", player=who, card=self.card(e["card"]))
        if kind in ("place", "city", "reinforce", "caravan", "reclaim"):
            return t(k, player=who, space=self.space(e["space"]))
        if kind == "resource":
            if "space" in e:
                return t(
                    k,
                    player=who,
                    resource=self.resource(e["resource"]),
                    space=self.space(e["space"]),
                )
            return t(f"{k}.supply", player=who, resource=self.resource(e["resource"]))
        if kind == "natural_wonder":
            nw = self.nw(e["natural_wonder"])
            if "victim" in e:
                return t(f"{k}.from", player=who, nw=nw, victim=self.player(e["victim"]))
            return t(k, player=who, nw=nw)
        if kind == "wonder":
            return t(k, player=who, wonder=self.wonder(e["wonder"]), space=self.space(e["space"]))
        if kind == "wonder_revealed":
            ty = self.t(f"{P}type.{WONDER_TYPES[int(e['deck'])]}")
            if e.get("wonder"):
                return t(k, type=ty, wonder=self.wonder(e["wonder"]))
            return t(f"{k}.none", type=ty)
        if kind == "wonder_pay":
            if "natural_wonder" in e:
                return t(
                    f"{k}.nw",
                    player=who,
                    nw=self.nw(e["natural_wonder"]),
                    wonder=self.wonder(e["wonder"]),
                )
            return t(
                k,
                player=who,
                resource=self.resource(e["resource"]),
                wonder=self.wonder(e["wonder"]),
            )
        if kind == "wonder_moved":
            return t(k, player=who, wonder=self.wonder(e["wonder"]), space=self.space(e["space"]))
        if kind == "attack":
            return t(
                k,
                player=who,
                target=self.target_name(e),
                attacker_die=e["attacker_die"],
                defender_die=e["defender_die"],
            )
        if kind == "combat":
            won = bool(e.get("won"))
            return t(
                f"{k}.{'won' if won else 'lost'}",
                player=who,
                attack=e["attack"],
                defence=e["defence"],
            )
        if kind == "combat_spend":
            role = "defence" if e.get("defending") else "attack"
            return tn(f"{k}.{role}", e["n"], player=who)
        if kind in ("barbarian_defeated", "barbarian_removed"):
            return t(
                k,
                player=who,
                barbarian=self.barbarian(e["barbarian"]),
                space=self.space(e["space"]),
            )
        if kind in ("token_taken", "destroy_token", "capital_won"):
            return t(k, player=who, victim=self.player(e["victim"]), space=self.space(e["space"]))
        if kind == "city_taken":
            line = t(k, player=who, victim=self.player(e["victim"]), space=self.space(e["space"]))
            if e.get("wonder"):
                line += " " + t(f"{k}.wonder", wonder=self.wonder(e["wonder"]))
            return line
        if kind in ("conquer", "liberate"):
            return t(k, player=who, city_state=self.cs(e["city_state"]))
        if kind == "raid":
            return t(k, player=who, victim=self.player(e["victim"]), card=self.card(e["card"]))
        if kind == "move_token":
            return t(k, player=who, source=self.space(e["source"]), space=self.space(e["space"]))
        if kind == "convert":
            key = f"{k}.flip" if e.get("flipped") else k
            return t(key, player=who, victim=self.player(e["victim"]), space=self.space(e["space"]))
        if kind == "nuke":
            return t(
                k,
                player=who,
                space=self.space(e["space"]),
                destroyed=tn(f"{P}n.token", e["destroyed"]),
                flipped=tn(f"{P}n.token", e["flipped"]),
            )
        if kind == "visit":
            if "city_state" in e:
                return tn(
                    f"{k}.cs",
                    e.get("n", 2),
                    player=who,
                    city_state=self.cs(e["city_state"]),
                    card=self.card(e["card"]),
                )
            key = f"{k}.capital" if e.get("capital") else f"{k}.city"
            return t(key, player=who, victim=self.player(e["rival"]))
        if kind in ("diplomacy", "potala", "return_card"):
            giver = self.player(e["giver"])
            return t(k, player=who, giver=giver, card=self.pcard(e["card"]))
        if kind == "geneva":
            return t(
                k,
                player=who,
                giver=self.player(e["giver"]),
                returned=self.pcard(e["returned"]),
                card=self.pcard(e["card"]),
            )
        if kind == "embassy":
            return t(k, player=who, giver=self.player(e["giver"]), card=self.card(e["card"]))
        if kind in ("exchange",):
            return t(k, player=who, resource=self.resource(e["resource"]))
        if kind == "cs_card":
            return t(k, player=who, city_state=self.cs(e["city_state"]))
        if kind == "trade_token":
            if e.get("wonder"):
                return t(f"{k}.wonder", player=who, wonder=self.wonder(e["wonder"]))
            return t(k, player=who, card=self.card(e["card"]))
        if kind == "gz_move":
            return t(k, player=who, card=self.card(e["card"]), wonder=self.wonder("great_zimbabwe"))
        if kind == "discard":
            return t(k, player=who, card=self.card(e["card"]))
        if kind == "america":
            return t(k, player=who, nw=self.nw(e["natural_wonder"]), card=self.card(e["card"]))
        if kind == "swap":
            return t(k, player=who, a=self.card(e["a"]), b=self.card(e["b"]))
        if kind == "event_dial":
            return t(k, event=t(f"{P}event.{e.get('icon') or 'none'}"))
        if kind == "barbarian_direction":
            return t(k, direction=self.direction(int(e["direction"])))
        if kind in ("spawn", "barbarian_move", "barbarian_stays"):
            return t(k, barbarian=self.barbarian(e["barbarian"]), space=self.space(e["space"]))
        if kind in ("barbarian_blocked", "barbarian_token", "barbarian_city"):
            return t(
                k,
                barbarian=self.barbarian(e["barbarian"]),
                space=self.space(e["space"]),
                victim=self.player(e["victim"]),
            )
        if kind == "barbarian_capital":
            n = int(e.get("n", 0))
            key = k if n else f"{k}.none"
            return tn(
                key, n, barbarian=self.barbarian(e["barbarian"]), victim=self.player(e["victim"])
            )
        if kind == "caravan_destroyed":
            return t(k, player=who, space=self.space(e["space"]))
        if kind == "trade_event":
            n = int(e.get("n", 0))
            return tn(k, n, player=who) if n else t(f"{k}.none", player=who)
        if kind == "start_effect":
            return t(k, player=who, effect=self.start_effect_name(int(e["effect"])))
        if kind == "seoul":
            return t(
                k,
                player=who,
                barbarian=self.barbarian(e["barbarian"]),
                space=self.space(e["space"]),
            )
        if kind == "eiffel":
            return t(k, player=who, victim=self.player(e["victim"]), space=self.space(e["space"]))
        if kind == "agenda":
            names = self.c.agendas.get(str(e["card"]), ())
            i = int(e.get("agenda", 0))
            agenda = names[i] if i < len(names) else ""
            return t(k, player=who, agenda=agenda)
        if kind == "game_over":
            winners = list(e.get("winners") or [])
            if not winners:
                return t(f"{k}.unfinished")
            names_ = self.ctx.join([self.player(w) for w in winners])
            return tn(k, len(winners), players=names_)
        if kind == "tile":
            return t(k, player=who, tile=e["tile"], side=t(f"{P}side.{int(e['side'])}"))
        if kind == "tile_discarded":
            return t(k, player=who, tile=e["tile"])
        return t(f"{P}log.other")

    def start_effect_name(self, k: int) -> str:
        what, wid = START_EFFECTS[k]
        return self.wonder(wid) if what == "wonder" else self.cs(wid)

    def target_name(self, e: JSON) -> str:
        s = int(e["space"])
        kind = int(e.get("target", -1))
        d = e.get("defender")
        if kind == T_BARB:
            return self.t(f"{P}target.barbarian_at", space=self.space(s))
        if kind == T_CSTATE:
            return self.space(s)
        key = {T_TOKEN: "token", T_CITY: "city", T_CAPITAL: "capital"}.get(kind, "token")
        return self.t(f"{P}target.{key}", owner=self.player(d), space=self.space(s))

    # --- everything ---------------------------------------------------------------------------
    def render(self) -> JSON:
        prompt, hint = self.prompt()
        out: JSON = {
            "legal": self.labels(),
            "log": self.log_lines(),
            "prompt": prompt,
            "hint": hint,
            "spaces": self.names,
            "refs": list(self.refs),
            "rows": [[r, letter] for r, letter in self.rows],
            "previews": self.previews(),
            "unavailable": self.unavailable(),
            "event": self.event(),
            "dial": [self.t(f"{P}event.{e or 'none'}") for e in EVENT_SECTIONS],
            "slots": self.slot_texts,
        }
        if self.v.get("over"):
            out["scores"] = self.scores()
        return out

    @functools.cached_property
    def slot_texts(self) -> list[list[str]]:
        """Per player, what each card of the row does now (its effective slot)."""
        eff = self.facts.get("slots") or [1, 2, 3, 4, 5]
        viewer = self.v.get("seat")
        out = []
        for ps in self.ps:
            slots = eff if ps["seat"] == viewer else [1, 2, 3, 4, 5]
            out.append(
                [card_slot_text(self.ctx, c, int(slots[k])) for k, c in enumerate(ps["row"])]
            )
        return out


def win_chance(attack: int, defence: int) -> float:
    """The chance that ``attack`` + a die beats ``defence`` + a die (ties to the defender,
    CIV-14.7)."""
    wins = sum(1 for a in range(1, 7) for d in range(1, 7) if attack + a > defence + d)
    return wins / 36


_KIND_KEY: dict[int, str] = {
    K.D_START: "start",
    K.D_CHOOSE: "choose",
    K.D_SPEND: "spend",
    K.D_MODE: "mode",
    K.D_PLACE: "place",
    K.D_DP_FROM: "dp_from",
    K.D_DP_TO: "dp_to",
    K.D_MASSMEDIA: "massmedia",
    K.D_UPGRADE: "upgrade",
    K.D_TRADE_TOKEN: "trade_token",
    K.D_GAIN_RES: "gain_res",
    K.D_NUKE: "nuke",
    K.D_CARAVAN: "caravan",
    K.D_STEP: "step",
    K.D_PCARD: "pcard",
    K.D_EXCH_GIVE: "exchange",
    K.D_EXCH_GET: "exchange",
    K.D_CAPITALISM: "capitalism",
    K.D_CITY: "city",
    K.D_WDECK: "wdeck",
    K.D_WPAY: "wpay",
    K.D_WCITY: "wcity",
    K.D_REINFORCE: "reinforce",
    K.D_ATTACK: "attack",
    K.D_ATT_SPEND: "att_spend",
    K.D_DEF_SPEND: "def_spend",
    K.D_CONQLIB: "conqlib",
    K.D_RAID: "raid",
    K.D_WMOVE: "wmove",
    K.D_DISCARD: "discard",
    K.D_STACKPICK: "stackpick",
    K.D_RECLAIM: "reclaim",
    K.D_EMBASSY: "embassy",
    K.D_PYRAMIDS: "pyramids",
    K.D_PORCELAIN: "porcelain",
    K.D_POTALA: "potala",
    K.D_SWAP1: "swap1",
    K.D_SWAP2: "swap2",
    K.D_ORACLE: "oracle",
    K.D_SEOUL_FROM: "seoul_from",
    K.D_SEOUL_TO: "seoul_to",
    K.D_GENEVA_RET: "geneva_ret",
    K.D_GENEVA_TAKE: "geneva_take",
    K.D_EIFFEL1: "eiffel1",
    K.D_EIFFEL2: "eiffel2",
    K.D_EIFFEL_VICTIM: "eiffel_victim",
    K.D_GZ_MOVE: "gz_move",
    K.D_AMERICA: "america",
    K.D_CSCARD: "cs_card",
    K.D_MAPTILE: "maptile",
    K.D_MAPORIENT: "maporient",
    K.D_MAPPOS: "mappos",
    K.D_FC: "fc",
}


def render(view: JSON, ctx: Ctx) -> JSON:
    """The player words of one Civilization view (see the module doc)."""
    return _Words(view, ctx).render()
