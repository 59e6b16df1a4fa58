"""The 7 Wonders card and wonder tables, loaded once from ``data/*.json`` into tuples.

Everything the rules need per card is precomputed here and indexed by a small integer: costs as
7-vectors, production as bitmask units, chains as index tuples, deck lists per player count.
States share these objects; nothing here is ever mutated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

# SW-0.3 resources, in vector order.
RESOURCES = ("W", "S", "C", "O", "G", "L", "P")
RESOURCE_NAMES = ("wood", "stone", "clay", "ore", "glass", "loom", "papyrus")
RES_INDEX = {code: i for i, code in enumerate(RESOURCES)}
RAW_MASK = 0b0001111  # W S C O
MANUFACTURED_MASK = 0b1110000  # G L P

# SW-0.4 colours, in count order.
COLORS = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}
BROWN, GREY, BLUE, GREEN, YELLOW, RED, PURPLE = range(7)

SCIENCE = ("compass", "gear", "tablet")

# Cities named in counting effects (SW-0.6): bit flags.
SELF, LEFT, RIGHT = 1, 2, 4
_CITY_BITS = {"self": SELF, "left": LEFT, "right": RIGHT}

# Trade discount bits (SW-7.6): which resources from which neighbour cost 1.
RAW_FROM_LEFT, RAW_FROM_RIGHT, MAN_FROM_LEFT, MAN_FROM_RIGHT = 1, 2, 4, 8

# Special wonder powers (SW-10.7 .. SW-10.11).
POWER_SEVENTH = "play_seventh_card"
POWER_FREE_BUILD = "free_build_once_per_age"
POWER_COPY_GUILD = "copy_neighbour_guild"
POWER_DISCARD_BUILD = "build_from_discard"
POWERS = (POWER_SEVENTH, POWER_FREE_BUILD, POWER_COPY_GUILD, POWER_DISCARD_BUILD)


@dataclass(frozen=True, slots=True)
class Per:
    """A counting effect (``coins_per`` / ``vp_per``): ``amount`` per counted thing."""

    colors: int  # bitmask over COLORS
    wonder_stages: bool
    defeat_tokens: bool
    cities: int  # SELF | LEFT | RIGHT
    amount: int


@dataclass(frozen=True, slots=True)
class Effect:
    """A card's or wonder stage's effect, decoded from the data vocabulary."""

    produce: tuple[int, ...] = ()  # tradeable units, each a resource bitmask (SW-6, SW-7.2)
    produce_private: tuple[int, ...] = ()  # owner-only units (SW-6.4)
    vp: int = 0
    shields: int = 0
    coins: int = 0
    science: int = -1  # index into SCIENCE, or -1
    science_wild: int = 0
    discount: int = 0  # RAW_FROM_LEFT | ... bits
    coins_per: Per | None = None
    vp_per: Per | None = None
    power: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """One (age, name) card type."""

    index: int
    id: str
    key: str
    key_index: int  # identity for the no-duplicate rule (SW-4.3)
    name: str
    age: int
    color: int
    cost: tuple[int, ...]  # 7-vector of resources
    coin_cost: int
    cost_id: int
    effect: Effect
    chains_from: tuple[int, ...]
    chains_to: tuple[int, ...]
    copies: tuple[int, ...]  # copies[n] for n = 0..7 (0 below 3 players)
    chain_keys: int  # bitmask of the chain parents' key indexes (SW-5.5)

    @property
    def is_guild(self) -> bool:
        """True for the ten purple cards."""
        return self.color == PURPLE


@dataclass(frozen=True, slots=True)
class Stage:
    """One wonder stage of a board side."""

    number: int
    cost: tuple[int, ...]
    cost_id: int
    effect: Effect


@dataclass(frozen=True, slots=True)
class Board:
    """A wonder board with its two sides (0 = A, 1 = B)."""

    index: int
    id: str
    name: str
    wonder: str
    start_resource: int
    sides: tuple[tuple[Stage, ...], tuple[Stage, ...]]


def _units(raw: list[list[str]]) -> tuple[int, ...]:
    out = []
    for unit in raw:
        mask = 0
        for code in unit:
            mask |= 1 << RES_INDEX[code]
        out.append(mask)
    return tuple(out)


def _per(raw: dict[str, Any]) -> Per:
    colors = 0
    stages = defeats = False
    for thing in raw["count"]:
        if thing == "wonder_stage":
            stages = True
        elif thing == "defeat_token":
            defeats = True
        else:
            colors |= 1 << COLOR_INDEX[thing]
    cities = 0
    for name in raw["cities"]:
        cities |= _CITY_BITS[name]
    return Per(colors, stages, defeats, cities, int(raw["amount"]))


def _discount(raw: dict[str, Any]) -> int:
    mask = 0
    for code in raw["resources"]:
        mask |= 1 << RES_INDEX[code]
    bits = 0
    for side in raw["neighbours"]:
        if mask & RAW_MASK:
            bits |= RAW_FROM_LEFT if side == "left" else RAW_FROM_RIGHT
        if mask & MANUFACTURED_MASK:
            bits |= MAN_FROM_LEFT if side == "left" else MAN_FROM_RIGHT
    return bits


def _effect(raw: dict[str, Any]) -> Effect:
    return Effect(
        produce=_units(raw.get("produce", [])),
        produce_private=_units(raw.get("produce_private", [])),
        vp=int(raw.get("vp", 0)),
        shields=int(raw.get("shields", 0)),
        coins=int(raw.get("coins", 0)),
        science=SCIENCE.index(raw["science"]) if "science" in raw else -1,
        science_wild=int(raw.get("science_wild", 0)),
        discount=_discount(raw["trade_discount"]) if "trade_discount" in raw else 0,
        coins_per=_per(raw["coins_per"]) if "coins_per" in raw else None,
        vp_per=_per(raw["vp_per"]) if "vp_per" in raw else None,
        power=raw.get("power"),
    )


def _cost(raw: dict[str, Any]) -> tuple[int, ...]:
    vec = [0] * 7
    for code, n in raw["resources"].items():
        vec[RES_INDEX[code]] += int(n)
    return tuple(vec)


def _load(name: str) -> Any:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


CARD_DOC: dict[str, Any] = _load("cards.json")
WONDER_DOC: dict[str, Any] = _load("wonders.json")

# Cost vectors are interned: the payment search memoizes by cost id.
COSTS: list[tuple[int, ...]] = []
_cost_ids: dict[tuple[int, ...], int] = {}


def _cost_id(vec: tuple[int, ...]) -> int:
    if vec not in _cost_ids:
        _cost_ids[vec] = len(COSTS)
        COSTS.append(vec)
    return _cost_ids[vec]


FREE_COST_ID = _cost_id((0,) * 7)


def _build_cards() -> tuple[Card, ...]:
    raw_cards = CARD_DOC["cards"]
    index = {c["id"]: i for i, c in enumerate(raw_cards)}
    keys: dict[str, int] = {}
    cards = []
    for i, c in enumerate(raw_cards):
        key_index = keys.setdefault(c["key"], len(keys))
        cost = _cost(c["cost"])
        copies = [0] * 8
        for n_str, k in c["copies"].items():
            copies[int(n_str)] = int(k)
        cards.append(
            Card(
                index=i,
                id=c["id"],
                key=c["key"],
                key_index=key_index,
                name=c["name"],
                age=int(c["age"]),
                color=COLOR_INDEX[c["color"]],
                cost=cost,
                coin_cost=int(c["cost"]["coins"]),
                cost_id=_cost_id(cost),
                effect=_effect(c["effect"]),
                chains_from=tuple(index[p] for p in c["chains_from"]),
                chains_to=tuple(index[p] for p in c["chains_to"]),
                copies=tuple(copies),
                chain_keys=0,
            )
        )
    # Chain parents are earlier cards, so their key indexes are known by now.
    return tuple(
        replace(c, chain_keys=sum(1 << cards[p].key_index for p in set(c.chains_from)))
        for c in cards
    )


CARDS: tuple[Card, ...] = _build_cards()
N_CARDS = len(CARDS)
CARD_INDEX: dict[str, int] = {c.id: c.index for c in CARDS}
GUILDS: tuple[int, ...] = tuple(c.index for c in CARDS if c.color == PURPLE)


def _build_boards() -> tuple[Board, ...]:
    boards = []
    for i, b in enumerate(WONDER_DOC["boards"]):
        sides = []
        for side in ("A", "B"):
            stages = []
            for s in b["sides"][side]["stages"]:
                cost = _cost(s["cost"])
                stages.append(Stage(int(s["stage"]), cost, _cost_id(cost), _effect(s["effect"])))
            sides.append(tuple(stages))
        boards.append(
            Board(
                index=i,
                id=b["id"],
                name=b["name"],
                wonder=b["wonder"],
                start_resource=RES_INDEX[b["start_resource"]],
                sides=(sides[0], sides[1]),
            )
        )
    return tuple(boards)


BOARDS: tuple[Board, ...] = _build_boards()
BOARD_INDEX: dict[str, int] = {b.id: b.index for b in BOARDS}
SIDE_NAMES = ("A", "B")

# Guilds drawn per player count (SW-2.3: n + 2); the 2-player variant uses the 3-player decks.
GUILDS_DRAWN: dict[int, int] = {int(k): int(v) for k, v in CARD_DOC["guilds_drawn"].items()}


def age_deck(age: int, deck_players: int) -> tuple[int, ...]:
    """The non-guild cards of an age deck for ``deck_players`` (3..7), with repeats (SW-2.2)."""
    out: list[int] = []
    for c in CARDS:
        if c.age == age and c.color != PURPLE:
            out.extend([c.index] * c.copies[deck_players])
    return tuple(out)


DECKS: dict[tuple[int, int], tuple[int, ...]] = {
    (age, n): age_deck(age, n) for age in (1, 2, 3) for n in range(3, 8)
}

# The largest number of units one cost asks for bounds the coins paid to one neighbour.
MAX_UNITS = max(sum(v) for v in COSTS)
MAX_PAY_ONE_SIDE = 2 * MAX_UNITS


def card_by_id(card_id: str) -> Card:
    """The card type with that id (``KeyError`` with the id otherwise)."""
    return CARDS[CARD_INDEX[card_id]]


def format_cost(vec: tuple[int, ...], coins: int = 0) -> str:
    """A cost in the spec's notation: ``S×2 + L``, ``1 coin`` or ``free``."""
    parts = [f"{RESOURCES[i]}×{n}" if n > 1 else RESOURCES[i] for i, n in enumerate(vec) if n]
    if coins:
        parts.append(f"{coins} coin" + ("s" if coins > 1 else ""))
    return " + ".join(parts) if parts else "free"


def describe_effect(e: Effect) -> str:
    """A short readable form of an effect, for card lists and the UI."""
    parts: list[str] = []

    def units(us: tuple[int, ...]) -> str:
        return " ".join("/".join(RESOURCES[i] for i in range(7) if u >> i & 1) for u in us)

    if e.produce:
        parts.append("produces " + units(e.produce))
    if e.produce_private:
        parts.append("produces " + units(e.produce_private) + " (owner only)")
    if e.vp:
        parts.append(f"{e.vp} VP")
    if e.shields:
        parts.append(f"{e.shields} shield" + ("s" if e.shields > 1 else ""))
    if e.coins:
        parts.append(f"+{e.coins} coins")
    if e.science >= 0:
        parts.append(SCIENCE[e.science])
    if e.science_wild:
        parts.append("science symbol of choice")
    if e.discount:
        bits = []
        if e.discount & (RAW_FROM_LEFT | RAW_FROM_RIGHT):
            sides = [
                s for s, b in (("left", RAW_FROM_LEFT), ("right", RAW_FROM_RIGHT)) if e.discount & b
            ]
            bits.append("raw from " + " and ".join(sides))
        if e.discount & (MAN_FROM_LEFT | MAN_FROM_RIGHT):
            sides = [
                s for s, b in (("left", MAN_FROM_LEFT), ("right", MAN_FROM_RIGHT)) if e.discount & b
            ]
            bits.append("manufactured from " + " and ".join(sides))
        parts.append("buy " + ", ".join(bits) + " for 1")
    for label, per in (("coins", e.coins_per), ("VP", e.vp_per)):
        if per is not None:
            things = [COLORS[i] for i in range(7) if per.colors >> i & 1]
            if per.wonder_stages:
                things.append("wonder stage")
            if per.defeat_tokens:
                things.append("defeat token")
            cities = [n for n, b in _CITY_BITS.items() if per.cities & b]
            parts.append(f"{per.amount} {label} per {'/'.join(things)} ({'+'.join(cities)})")
    if e.power:
        parts.append(e.power.replace("_", " "))
    return ", ".join(parts) if parts else "no effect"
