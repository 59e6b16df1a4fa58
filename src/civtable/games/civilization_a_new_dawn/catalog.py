"""Civilization: A New Dawn tables, loaded once from ``data/*.json`` into tuples.

Every fact the rules need is decoded here into small frozen dataclasses indexed by integers:
focus cards (CIV-6, effect vocabulary ``vocabulary.json#focus_effects`` decoded into
:class:`Step` tuples per slot), wonders (CIV-12, CIV-19), leaders (CIV-24), city-states
(CIV-16), diplomacy cards (CIV-17), natural wonders (CIV-18), victory cards (CIV-22), the dials
(CIV-9, CIV-20) and the map tiles (CIV-2, D1). Provisional facts (unverified / substitute) are
only read from the data files, never written into code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

# CIV-6.1 focus types, in this order everywhere.
TYPES = ("culture", "science", "economy", "industry", "military")
CULTURE, SCIENCE, ECONOMY, INDUSTRY, MILITARY = range(5)
TYPE_INDEX = {t: i for i, t in enumerate(TYPES)}
LEVELS = ("I", "II", "III", "IV")

# CIV-18.1 resources.
RESOURCES = ("marble", "mercury", "oil", "diamond")
RES_INDEX = {r: i for i, r in enumerate(RESOURCES)}

# CIV-2.2 terrains (codes used in the map arrays).
TERRAINS = ("grassland", "hills", "forest", "desert", "mountains", "water", "natural_wonder")
GRASS, HILLS, FOREST, DESERT, MOUNTAINS, WATER, NATURAL = range(7)
TERRAIN_INDEX = {t: i for i, t in enumerate(TERRAINS)}

# CIV-19.1 wonder types (deck order) and eras.
WONDER_TYPES = ("culture", "economy", "science", "military")
ERAS = ("ancient", "medieval", "modern")

DIRECTIONS = ("E", "SE", "SW", "W", "NW", "NE")  # CIV-0.2 clockwise from east
DIR_VECTORS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
BARBARIAN_LETTERS = "ABCDEFGHI"


def _load(name: str) -> Any:
    path = resources.files("civtable.games.civilization_a_new_dawn") / "data" / name
    return json.loads(path.read_text(encoding="utf-8"))


def _flag(prov: Any) -> str:
    """``"unverified"``/``"substitute"`` for provisional facts, ``""`` otherwise."""
    if isinstance(prov, dict) and prov.get("status") in ("unverified", "substitute"):
        return str(prov["status"])
    return ""


# --- focus cards (CIV-6, D6) ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Step:
    """One decoded step of a focus-card effect (``vocabulary.json#focus_effects``)."""

    op: str
    count: int = 0  # exactly N as far as legal (CIV-A14)
    maximum: int = 0  # up to N
    adjacent_to: str = ""
    max_difficulty: int = 0  # 0 = no terrain limit
    within: int = 0
    spaces: int = 0
    caravans: int = 0
    move: int = 0
    range: int = 0
    base_production: int = 0
    attacks: int = 0
    combat_bonus: int = 0
    bonus_vs_barbarian: int = -1  # -1: same as combat_bonus
    reduced_by_attacks: bool = False
    as_slot: int = 0
    then: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Effect:
    """A card's effect from one slot: a sequence of steps or a choice of one option."""

    choose_one: bool
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class FocusCard:
    """A focus card; ``index = type * 4 + level - 1``."""

    index: int
    id: str
    name: str
    type: int
    level: int  # 1..4
    text: str
    effects: tuple[Effect, ...]  # per slot 1..5 (index slot - 1)
    abilities: frozenset[str]
    flag: str


def _step(raw: dict[str, Any]) -> Step:
    return Step(
        op=raw["op"],
        count=int(raw.get("count") or 0),
        maximum=int(raw.get("max") or 0),
        adjacent_to=str(raw.get("adjacent_to") or raw.get("to") or raw.get("of") or ""),
        max_difficulty=int(raw.get("max_difficulty") or 0),
        within=int(raw.get("within") or raw.get("radius") or 0),
        spaces=int(raw.get("spaces") or 0),
        caravans=int(raw.get("caravans") or 0),
        move=int(raw.get("move") or 0),
        range=int(raw.get("range") or 0),
        base_production=int(raw.get("base_production") or 0),
        attacks=int(raw.get("max_attacks") or 0),
        combat_bonus=int(raw.get("combat_bonus") or 0),
        bonus_vs_barbarian=int(raw.get("combat_bonus_vs_barbarian", -1)),
        reduced_by_attacks=raw.get("reduced_by") == "attacks_made",
        as_slot=int(raw.get("as_slot") or 0),
        then=tuple(_step(s) for s in raw.get("then") or ()),
    )


def _effect(raw: dict[str, Any]) -> Effect:
    if raw["mode"] == "choose_one":
        return Effect(True, tuple(_step(s) for s in raw["options"]))
    return Effect(False, tuple(_step(s) for s in raw["steps"]))


def _cards() -> tuple[FocusCard, ...]:
    doc = _load("focus_cards.json")
    out: list[FocusCard | None] = [None] * 20
    for raw in doc["cards"]:
        t, lv = TYPE_INDEX[raw["type"]], LEVELS.index(raw["level"]) + 1
        idx = t * 4 + lv - 1
        out[idx] = FocusCard(
            index=idx,
            id=raw["id"],
            name=raw["name"],
            type=t,
            level=lv,
            text=raw.get("text") or "",
            effects=tuple(_effect(raw["effect_by_slot"][str(s)]) for s in range(1, 6)),
            abilities=frozenset(raw.get("abilities") or ()),
            flag=_flag(raw.get("provenance")),
        )
    assert all(c is not None for c in out)
    return tuple(c for c in out if c is not None)


FOCUS_CARDS = _cards()
CARD_INDEX = {c.id: c.index for c in FOCUS_CARDS}
_FOCUS_TYPES = _load("focus_cards.json")["types"]
#: readable effect of spent trade tokens per focus type (CIV-7.4): "+1 per token to ..."
TRADE_TOKEN_EFFECT = tuple(
    f"+{_FOCUS_TYPES[t]['trade_token']['per_token']} per token to "
    f"{_FOCUS_TYPES[t]['trade_token']['adds_to']}"
    for t in TYPES
)
TRADE_CAP = 3  # CIV-7.2


def card_of(type_: int, level: int) -> int:
    """Index of the focus card of ``type_`` at ``level`` (1..4)."""
    return type_ * 4 + level - 1


# --- wonders (CIV-12, CIV-19, D7) --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Wonder:
    """A world wonder card."""

    index: int
    id: str
    name: str
    type: int  # index into WONDER_TYPES
    era: int  # index into ERAS
    cost: int
    resources: tuple[int, int]
    text: str
    params: dict[str, Any]
    flag: str


def _wonders() -> tuple[tuple[Wonder, ...], dict[int, dict[str, int]]]:
    doc = _load("wonders.json")
    out = []
    for i, raw in enumerate(doc["wonders"]):
        prov = raw.get("provenance") or {}
        eff_flag = _flag((prov.get("fields") or {}).get("effect")) or _flag(prov)
        out.append(
            Wonder(
                index=i,
                id=raw["id"],
                name=raw["name"],
                type=WONDER_TYPES.index(raw["type"]),
                era=ERAS.index(raw["era"]),
                cost=int(raw["cost"]),
                resources=(RES_INDEX[raw["resources"][0]], RES_INDEX[raw["resources"][1]]),
                text=raw["effect"]["text"],
                params=dict(raw["effect"].get("params") or {}),
                flag=eff_flag,
            )
        )
    removal = {
        int(n): {str(k): int(v) for k, v in d.items()}
        for n, d in doc["deck_setup"]["remove_unseen_per_type"].items()
    }
    return tuple(out), removal


WONDERS, WONDER_REMOVAL = _wonders()
WONDER_INDEX = {w.id: w.index for w in WONDERS}


# --- leaders (CIV-24, D5) ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Leader:
    """A leader sheet."""

    index: int
    id: str
    civilization: str
    leader: str
    ability_name: str
    ability_text: str
    start_row: tuple[int, ...]  # focus-card indices, slot 1 first
    params: dict[str, Any]


def _leaders() -> tuple[tuple[Leader, ...], tuple[str, ...]]:
    doc = _load("leaders.json")
    out = []
    for i, raw in enumerate(doc["leaders"]):
        out.append(
            Leader(
                index=i,
                id=raw["id"],
                civilization=raw["civilization"],
                leader=raw["leader"],
                ability_name=raw["ability"]["name"],
                ability_text=raw["ability"]["text"],
                start_row=tuple(CARD_INDEX[c] for c in raw["start_row"]),
                params=dict(raw["ability"].get("params") or {}),
            )
        )
    return tuple(out), tuple(doc["player_colours"]["colours"])


LEADERS, COLOURS = _leaders()
LEADER_INDEX = {ld.id: ld.index for ld in LEADERS}


# --- city-states, diplomacy, natural wonders (CIV-16, CIV-17, CIV-18) --------------------------
@dataclass(frozen=True, slots=True)
class CityState:
    """A city-state and its diplomacy card."""

    index: int
    id: str
    name: str
    type: int  # focus type (never economy)
    tile: int
    side: str
    tiles_name: str
    card_text: str
    flag: str


def _city_states() -> tuple[tuple[CityState, ...], int]:
    doc = _load("city_states.json")
    dip = {c["id"]: c for c in _load("diplomacy.json")["cards"]}
    out = []
    for i, raw in enumerate(doc["city_states"]):
        card = dip[raw["diplomacy_card"]]
        out.append(
            CityState(
                index=i,
                id=raw["id"],
                name=raw["name"],
                type=TYPE_INDEX[raw["type"]],
                tile=int(raw["tile"]),
                side=raw["side"],
                tiles_name=raw.get("tiles_json_name") or raw["name"],
                card_text=card["effect"]["text"],
                flag=_flag(card.get("provenance")),
            )
        )
    return tuple(out), int(doc["defence_bonus"])


CITY_STATES, CITY_STATE_DEFENCE = _city_states()
CS_INDEX = {c.id: c.index for c in CITY_STATES}
CS_BY_TILES_NAME = {c.tiles_name: c.index for c in CITY_STATES}

_DIPLO = _load("diplomacy.json")
PLAYER_CARDS = tuple(c["id"] for c in _DIPLO["cards"] if c["kind"] == "player")
PLAYER_CARD_NAMES = tuple(c["name"] for c in _DIPLO["cards"] if c["kind"] == "player")
PLAYER_CARD_TEXTS = tuple(c["effect"]["text"] for c in _DIPLO["cards"] if c["kind"] == "player")
JOINT_WAR, DEFENSIVE_PACT, EMBASSY, OPEN_BORDERS = (
    PLAYER_CARDS.index(x) for x in ("joint_war", "defensive_pact", "embassy", "open_borders")
)
MAX_CARDS_PER_PLAYER = int(_DIPLO["holding_limits"]["per_other_player"])
MAX_CARDS_PER_PLAYER_POTALA = int(_DIPLO["holding_limits"]["per_other_player_with_potala_palace"])


@dataclass(frozen=True, slots=True)
class NaturalWonder:
    """A natural wonder token face."""

    index: int
    id: str
    name: str
    tiles_name: str
    resource: int


NATURAL_WONDERS = tuple(
    NaturalWonder(
        i, r["id"], r["name"], r.get("tiles_json_name") or r["name"], RES_INDEX[r["resource"]]
    )
    for i, r in enumerate(_load("natural_wonders.json")["natural_wonders"])
)
NW_BY_TILES_NAME = {n.tiles_name: n.index for n in NATURAL_WONDERS}


# --- victory cards (CIV-22, D8) -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Agenda:
    """One agenda of a victory card with its decoded condition."""

    id: str
    name: str
    text: str
    condition: dict[str, Any]


@dataclass(frozen=True, slots=True)
class VictoryCard:
    """A victory card (two agendas)."""

    index: int
    id: str
    agendas: tuple[Agenda, Agenda]


_VDOC = _load("victory_cards.json")
VICTORY_CARDS = tuple(
    VictoryCard(
        i,
        v["id"],
        (
            Agenda(
                v["agendas"][0]["id"],
                v["agendas"][0]["name"],
                v["agendas"][0]["text"],
                v["agendas"][0]["condition"],
            ),
            Agenda(
                v["agendas"][1]["id"],
                v["agendas"][1]["name"],
                v["agendas"][1]["text"],
                v["agendas"][1]["condition"],
            ),
        ),
    )
    for i, v in enumerate(_VDOC["victory_cards"])
)
VICTORY_DRAW = int(_VDOC["setup"]["draw"])
VICTORY_DRAW_EPIC = int(_VDOC["setup"]["draw_epic"])

# --- dials (CIV-9, CIV-20, CIV-21.2; D9, D10, D11) ----------------------------------------------
_DIALS = _load("dials.json")
DIAL_LAST = int(_DIALS["tech_dial"]["last_space"])
DIAL_AFTER_LAST = int(_DIALS["tech_dial"]["space_after_last"])
TIER_SPACES = {
    int(t["space"]): LEVELS.index(t["level"]) + 1 for t in _DIALS["tech_dial"]["tier_spaces"]
}
EVENT_SECTIONS = tuple(s["event"] or "" for s in _DIALS["event_dial"]["sections"])
_TOKEN = _DIALS["barbarian_direction_token"]
DIRECTION_ORDER = tuple(DIRECTIONS.index(d) for d in _TOKEN["directions_clockwise_from_east"])


def dial_next(space: int) -> int:
    """The space after ``space`` on the tech dial (CIV-9.2: after 24 comes 15)."""
    return DIAL_AFTER_LAST if space >= DIAL_LAST else space + 1


# --- tiles and layouts (CIV-2, CIV-3.11, CIV-4, D1, D12) ----------------------------------------
@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a tile side, in local coordinates."""

    q: int
    r: int
    terrain: int
    capital: bool
    resource: int  # -1 none
    natural_wonder: int  # -1 none
    city_state: int  # -1 none
    barbarian: int  # -1 none, else letter index


def _tiles() -> dict[tuple[int, str], tuple[Cell, ...]]:
    doc = _load("tiles.json")
    out: dict[tuple[int, str], tuple[Cell, ...]] = {}
    for num, tile in doc["tiles"].items():
        for side, cells in tile["sides"].items():
            out[(int(num), side)] = tuple(
                Cell(
                    q=int(c["q"]),
                    r=int(c["r"]),
                    terrain=TERRAIN_INDEX[c["terrain"]],
                    capital=bool(c.get("capital")),
                    resource=RES_INDEX[c["resource"]] if c.get("resource") else -1,
                    natural_wonder=NW_BY_TILES_NAME[c["natural_wonder"]]
                    if c.get("natural_wonder")
                    else -1,
                    city_state=CS_BY_TILES_NAME[c["city_state"]] if c.get("city_state") else -1,
                    barbarian=BARBARIAN_LETTERS.index(c["barbarian"]) if c.get("barbarian") else -1,
                )
                for c in sorted(cells, key=lambda c: int(c["cell"]))
            )
    return out


TILES = _tiles()
TILE_KINDS = {int(n): t["kind"] for n, t in _load("tiles.json")["tiles"].items()}
DIFFICULTY = tuple(int(_load("tiles.json")["difficulty"][t]) for t in TERRAINS)

_LAYOUTS = _load("layouts.json")
#: first-game placements (tile, side, rotation, oq, or) in order; rows per player count (D12.2)
FIRST_GAME = tuple(
    (int(p["tile"]), str(p["side"]), int(p["rotation"]), int(p["offset"][0]), int(p["offset"][1]))
    for p in _LAYOUTS["first_game"]["placements"]
)
FIRST_GAME_ROWS = {
    int(n): int(d["rows"]) for n, d in _LAYOUTS["first_game"]["per_player_count"].items()
}
FIRST_GAME_WATER = {
    int(n): tuple((int(w[0]), int(w[1])) for w in d.get("water_tokens") or ())
    for n, d in _LAYOUTS["first_game"]["per_player_count"].items()
}
FIRST_GAME_CAPITAL_SEATS = tuple(
    int(p["tile"])
    for p in _LAYOUTS["first_game"]["placements"]
    if p.get("capital_seat") is not None
)
CORE_POSITIONS = {
    side: tuple((int(p["rotation"]), int(p["offset"][0]), int(p["offset"][1])) for p in rows)
    for side, rows in _LAYOUTS["standard"]["core_positions"].items()
    if isinstance(rows, list)
}
MIN_CONTACT = int(_LAYOUTS["standard"]["min_contact_spaces"])
WATER_TOKENS = int(_LAYOUTS["standard"]["water_tokens_available"])
CAPITAL_TILES = tuple(sorted(n for n, k in TILE_KINDS.items() if k == "capital"))
NW_TILES = tuple(sorted(n for n, k in TILE_KINDS.items() if k == "natural_wonder"))
CS_TILES = tuple(sorted(n for n, k in TILE_KINDS.items() if k == "city_state"))
PLAIN_TILES = tuple(sorted(n for n, k in TILE_KINDS.items() if k == "plain"))

# Counts (CIV-1.1, CIV-1.3).
CONTROL_TOKENS = 31
CITIES = 7
CARAVANS = 3
RESOURCE_TOKENS = 8

#: facts marked unverified / substitute in the data files (listed in docs as provisional)
PROVISIONAL = tuple(
    [f"focus card {c.id} ({c.flag})" for c in FOCUS_CARDS if c.flag]
    + [f"wonder {w.id} effect ({w.flag})" for w in WONDERS if w.flag]
    + [f"city-state card {c.id} ({c.flag})" for c in CITY_STATES if c.flag]
    + [
        "barbarian direction token numbering (substitute, D11)",
        "first-game layout (substitute, D12.2)",
        "core tile positions (substitute, D12.1)",
    ]
)
