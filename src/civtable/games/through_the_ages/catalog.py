"""Through the Ages card and board tables, loaded once from ``data/*.json``.

Cards are indexed by small integers (their position in ``cards.json``). Symbol blocks become
fixed-length tuples in :data:`STATS` order; buildings (farms, mines, urban buildings, units) are
addressed by a *slot* ``kind * 4 + level`` because every (kind, age) pair has exactly one card
(checked at import). Effects stay as the data file's op dicts and are interpreted by
:mod:`.rules.effects`, which names every op and hook it implements.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

STATS: tuple[str, ...] = (
    "food",
    "resources",
    "culture",
    "science",
    "strength",
    "happiness",
    "civil_actions",
    "military_actions",
    "colonization",
    "blue_cubes",
    "yellow_cubes",
    "civil_hand_limit",
    "military_hand_limit",
)
FOOD, RES, CULT, SCI, STR, HAPPY, CA, MA, COLON, BLUE, YELLOW, CHAND, MHAND = range(len(STATS))
NSTATS = len(STATS)

AGES = ("A", "I", "II", "III")
#: building kinds (TTA-7.2.3/7.2.4/7.3.1): farm, mine, 5 urban subtypes, 4 unit subtypes
KINDS: tuple[str, ...] = (
    "farm",
    "mine",
    "lab",
    "temple",
    "arena",
    "library",
    "theater",
    "infantry",
    "cavalry",
    "artillery",
    "air_force",
)
K_FARM, K_MINE = 0, 1
URBAN_KINDS = (2, 3, 4, 5, 6)
UNIT_KINDS = (7, 8, 9, 10)
NKINDS = len(KINDS)
NSLOTS = NKINDS * 4
SPECIAL_SUBTYPES = ("civil", "military", "colonization", "construction")


@dataclass(frozen=True, slots=True)
class Card:
    """One distinct card (or board technology) with decoded fields."""

    idx: int
    id: str
    name: str
    age: int  # 0..3 (A..III)
    deck: str  # civil / military / board
    type: str
    tech_type: str | None
    subtype: str | None
    kind: int  # building kind index or -1
    special: int  # special subtype index or -1
    science_cost: int
    revolution_cost: int
    build_cost: int
    per_worker: tuple[int, ...]
    in_play: tuple[int, ...]
    urban_limit: int
    stages: tuple[int, ...]
    ops: tuple[dict[str, Any], ...]
    copies: tuple[int, int, int]  # for 2, 3, 4 players
    army: tuple[int, int, int]  # tactic: infantry, cavalry, artillery per army
    tactic: int  # tactic: tactical strength (normal)
    tactic_old: int  # tactic: outdated value (= normal for Age I, TTA-10.5)
    ma_cost: int = 0  # aggression / war: printed military-action cost (TTA-6.4, TTA-6.5)
    defense: int = 0  # military bonus card: defense value (TTA-6.4)
    colonize: int = 0  # military bonus card: colonization value (TTA-11.4)
    requires: str = ""  # aggression: "target_has_colony" / "target_has_leader_or_unfinished_wonder"
    attacks: str = ""  # pact: "allowed" / "forbidden" / "ends_pact" (between the parties)
    attack_bonus: int = 0  # pact: attacker's strength bonus against the other party (Open Borders)
    war_on_b: bool = True  # pact: may anybody declare war on side B (False: Loss of Sovereignty)
    symmetric: bool = False  # pact: both sides alike

    @property
    def slot(self) -> int:
        """Building slot ``kind * 4 + age`` (only for building technologies)."""
        return self.kind * 4 + self.age


def _load(name: str) -> Any:
    text = (resources.files("civtable.games.through_the_ages") / "data" / name).read_text("utf-8")
    return json.loads(text)


def _vec(block: dict[str, int] | None) -> tuple[int, ...]:
    v = [0] * NSTATS
    for k, n in (block or {}).items():
        v[STATS.index(k)] = int(n)
    return tuple(v)


def _build() -> tuple[tuple[Card, ...], dict[str, Any]]:
    doc = _load("cards.json")
    out: list[Card] = []
    for i, c in enumerate(doc["cards"]):
        tt = c.get("tech_type")
        sub = c.get("subtype")
        kind = -1
        if tt == "farm":
            kind = K_FARM
        elif tt == "mine":
            kind = K_MINE
        elif tt in ("urban", "unit"):
            kind = KINDS.index(sub)
        special = SPECIAL_SUBTYPES.index(sub) if tt == "special" else -1
        cop = c.get("copies", {})
        out.append(
            Card(
                idx=i,
                id=c["id"],
                name=c["name"],
                age=AGES.index(c["age"]),
                deck=c["deck"],
                type=c["type"],
                tech_type=tt,
                subtype=sub,
                kind=kind,
                special=special,
                science_cost=int(c.get("science_cost") or 0),
                revolution_cost=int(c.get("revolution_science_cost") or 0),
                build_cost=int(c.get("build_cost") or 0),
                per_worker=_vec(c.get("per_worker")),
                in_play=_vec(c.get("in_play")),
                urban_limit=int(c.get("urban_limit") or 0),
                stages=tuple(int(s) for s in c.get("stages", ())),
                ops=tuple(c.get("effect", {}).get("ops", ())),
                copies=(int(cop.get("2", 0)), int(cop.get("3", 0)), int(cop.get("4", 0))),
                army=tuple(  # type: ignore[arg-type]
                    int((c.get("army") or {}).get(u, 0))
                    for u in ("infantry", "cavalry", "artillery")
                ),
                tactic=int(c.get("tactical_strength") or 0),
                tactic_old=int(
                    c.get("outdated_strength")
                    if c.get("outdated_strength") is not None
                    else (c.get("tactical_strength") or 0)
                ),
                ma_cost=int(c.get("military_action_cost") or 0),
                defense=int(c.get("defense") or 0),
                colonize=int(c.get("colonization") or 0),
                requires=str(c.get("requires") or ""),
                attacks=str((c.get("attacks") or {}).get("between_parties") or ""),
                attack_bonus=int((c.get("attacks") or {}).get("attacker_strength_bonus") or 0),
                war_on_b=not (c.get("attacks") or {}).get("war_on_side_b_forbidden"),
                symmetric=bool(c.get("symmetric")),
            )
        )
    return tuple(out), _load("board.json")


CARDS, BOARD = _build()
BY_ID: dict[str, int] = {c.id: c.idx for c in CARDS}
#: the data file's paraphrase of each card's effect (for UIs)
EFFECT_TEXT: tuple[str, ...] = tuple(
    str(c.get("effect", {}).get("text", "")) for c in _load("cards.json")["cards"]
)

#: a rule reference inside a card text: ``TTA-7.2.9``, ``TTA-AMB-35``
_RULE_REF = re.compile(r"TTA-(?:AMB-)?\d+(?:\.\d+)*")
#: a parenthesis holding only rule references, with the space before it
_REFS_ONLY = re.compile(r"\s*\((?:\s*TTA-(?:AMB-)?\d+(?:\.\d+)*\s*[,;]?)+\)")
#: a rule reference trailing a parenthesised remark: ``(…; TTA-10.6)``, ``(…, TTA-6.4.)``
_TRAILING_REF = re.compile(r"[,;]\s*TTA-(?:AMB-)?\d+(?:\.\d+)*\.?(?=\))")
#: a parenthesised note on the data's sources (``(BGA display text says +2; … PT say +3)``),
#: kept in the data for developers, with the space before it
_SOURCE_NOTE = re.compile(r"\s*\([^()]*\b(?:BGA|PT)\b[^()]*\)")


def player_text(text: str) -> str:
    """A card text as a player reads it: the rule references and source notes the data keeps
    for developers (``(TTA-7.2.9)``, ``(…; TTA-10.6)``, ``(BGA display text says …)``) taken
    out, the sentence otherwise unchanged."""
    text = _SOURCE_NOTE.sub("", text)
    out = _TRAILING_REF.sub(
        lambda m: "." if m.group(0).endswith(".") else "", _REFS_ONLY.sub("", text)
    )
    return re.sub(r"\s+([.,;])", r"\1", out).strip()


#: each card's effect text for players (no rule ids, issue 18); the rule ids are in
#: :data:`RULE_REFS`
PLAYER_TEXT: tuple[str, ...] = tuple(player_text(t) for t in EFFECT_TEXT)
#: the rule ids each card's data text cites (for developers' views)
RULE_REFS: tuple[tuple[str, ...], ...] = tuple(tuple(_RULE_REF.findall(t)) for t in EFFECT_TEXT)
NCARDS = len(CARDS)


def _pact_side(c: Card, side: int) -> Card:
    block = _load_cards()[c.idx]["side_a" if side == 0 else "side_b"]
    return Card(
        idx=c.idx,
        id=f"{c.id}:{'ab'[side]}",
        name=f"{c.name} ({'AB'[side]})",
        age=c.age,
        deck=c.deck,
        type="pact_side",
        tech_type=None,
        subtype=None,
        kind=-1,
        special=-1,
        science_cost=0,
        revolution_cost=0,
        build_cost=0,
        per_worker=_vec(None),
        in_play=_vec(block.get("in_play")),
        urban_limit=0,
        stages=(),
        ops=tuple(block.get("ops", ())),
        copies=(0, 0, 0),
        army=(0, 0, 0),
        tactic=0,
        tactic_old=0,
    )


def _load_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = _load("cards.json")["cards"]
    return cards


#: pact side ``card * 2 + side`` (0 = A, 1 = B) -> a card-like record of that side's symbols
#: and ops (TTA-6.6; symmetric pacts have equal sides)
PACT_SIDES: dict[int, Card] = {
    c.idx * 2 + side: _pact_side(c, side) for c in CARDS if c.type == "pact" for side in (0, 1)
}

#: building slot -> card index (-1 if no such card)
SLOT_CARD: tuple[int, ...] = tuple(
    next((c.idx for c in CARDS if c.kind == k and c.age == a and c.type == "technology"), -1)
    for k in range(NKINDS)
    for a in range(4)
)
assert len({c.slot for c in CARDS if c.kind >= 0}) == sum(1 for c in CARDS if c.kind >= 0)

_PB = BOARD["player_board"]
_C = BOARD["constants"]
# TTA-1.4.2 yellow bank by N (index N; N > 18 uses above_18, TTA-AMB-5)
_YB = sorted(_PB["yellow_bank"]["by_cubes"], key=lambda r: r["cubes"])
POP_COST: tuple[int, ...] = tuple(
    -1 if r["population_cost"] is None else int(r["population_cost"]) for r in _YB
)
CONSUMPTION: tuple[int, ...] = tuple(int(r["consumption"]) for r in _YB)
HAPPY_REQ: tuple[int, ...] = tuple(int(r["happiness_required"]) for r in _YB)
_A18 = _PB["yellow_bank"]["above_18"]
POP_COST_ABOVE = int(_A18["population_cost"])
CONSUMPTION_ABOVE = int(_A18["consumption"])
HAPPY_REQ_ABOVE = int(_A18["happiness_required"])
# TTA-1.5.1 corruption by B
CORRUPTION: tuple[int, ...] = tuple(
    int(r["corruption"])
    for r in sorted(_PB["blue_bank"]["corruption_by_cubes"], key=lambda r: r["cubes"])
)
YELLOW_START = int(_PB["yellow_bank"]["initial_cubes"])
BLUE_START = int(_PB["blue_bank"]["initial_cubes"])
POOL_START = int(_PB["worker_pool_start"])
INITIAL_TECHS: tuple[tuple[int, int], ...] = tuple(
    (BY_ID[t["card"]], int(t["workers"] or 0)) for t in _PB["initial_technologies"]
)
START_GOVERNMENT = BY_ID[_PB["starting_government"]]

ROW_SLOTS = int(_C["card_row"]["slots"])
TAKE_COST: tuple[int, ...] = tuple(_C["card_row"]["take_cost_by_slot"])
WONDER_SURCHARGE = int(_C["card_row"]["wonder_surcharge_per_completed_wonder"])
SWEEP: dict[int, int] = {int(k): int(v) for k, v in _C["card_row"]["swept_per_replenish"].items()}
INITIAL_EVENTS: dict[int, int] = {
    int(k): int(v) for k, v in _C["deck_preparation"]["initial_current_events"].items()
}
ROUND_ONE_CA: tuple[int, ...] = tuple(_C["round_one"]["civil_actions_by_seat"])
MIL_DRAW_MAX = int(_C["military_draw_max"])
END_AGE_YELLOW = int(_C["end_of_age_yellow_cubes_returned"])
FAMINE = int(_C["famine_culture_per_missing_food"])
#: TTA-6.2 culture for preparing an event, by level
EVENT_CULTURE: tuple[int, ...] = tuple(
    int(_C["event_preparation_culture_by_level"][a]) for a in ("A", "I", "II", "III")
)
#: TTA-6.8 culture for each declarer of a war against a resigning player
RESIGN_CULTURE = int(_C["resignation_culture_per_cancelled_war"])
#: TTA-15.1 the shorter game: Age III events dealt to each player, kept, face up; Age II wonders
SHORTER_DEALT = int(_C["shorter_game"]["age_III_events_dealt_per_player"])
SHORTER_KEPT = int(_C["shorter_game"]["age_III_events_kept_per_player"])
SHORTER_FACEUP = int(_C["shorter_game"]["face_up_age_III_events"])
SHORTER_WONDER = int(_C["shorter_game"]["culture_per_completed_age_II_wonder"])
SHORTER_WAR = str(_C["shorter_game"]["shared_war"])
#: TTA-6.4 defence value of a discarded military card
DEFENSE_DISCARD = int(_C["aggression_defense"]["discard_value"])
FIRST_GAME = _C["first_game_final_scoring"]
#: military card types kept in the first game (TTA-2.6, TTA-14)
FIRST_GAME_MILITARY = ("event", "territory", "tactic", "bonus")


def civil_deck(age: int, players: int) -> list[int]:
    """One entry per physical civil card of ``age`` for ``players`` (TTA-2.2)."""
    return [
        c.idx
        for c in CARDS
        if c.deck == "civil" and c.age == age
        for _ in range(c.copies[players - 2])
    ]


def military_deck(age: int, players: int, first_game: bool) -> list[int]:
    """One entry per physical military card of ``age`` (TTA-2.2, TTA-2.6)."""
    return [
        c.idx
        for c in CARDS
        if c.deck == "military"
        and c.age == age
        and (not first_game or c.type in FIRST_GAME_MILITARY)
        for _ in range(c.copies[players - 2])
    ]
