"""The Through the Ages observation encoder: ``view(seat)`` -> a fixed-size ``float32`` vector.

Everything comes from :func:`civtable.games.through_the_ages.view.view`: the public boards,
the card row, the (public, TTA-3.3) civil hands, deck/discard sizes and the seat's own military
hand. Another seat's military hand, the deck orders and the current events appear in a view only
as sizes, so they cannot appear here.

Seats are listed relative to the observer: self, then the next seats in turn order.
``C = 236`` card indices (catalog order), ``S = 13`` row slots, ``n`` players.

=================  ==========  ==================================================================
block              size        content
=================  ==========  ==================================================================
turn               9 + 2n      round; age one-hot (A, I, II, III, IV); last round known; last
                               round; game over; first player, current player (one-hot, relative)
piles              13          civil deck sizes (4); military deck sizes (4); military discard
                               sizes (4); current events
row                S*C + S     card in each slot (one-hot); what I pay to take each slot
common tactics     C           tactics open to everybody (TTA-7.3.3), per card
pending            5 + C + 1   the follow-up decision one-hot; its card; the count to discard
civ x n            34 + 7C     ratings, banks, stocks, productions, actions, limits and costs;
                               the blue cubes on each farm/mine (8); per card: in play (developed
                               technologies, government, special technologies, leader, completed
                               wonders), workers on it, unfinished wonder, civil hand, tactic,
                               cost to build, cost to develop
military hand      C           my military hand, copies per card
politics           19 + 2n     the military part (TTA-6, TTA-11, TTA-12, TTA-15.1), see below;
                   + 4C        per civilization 2 + 3C + n more
                   + n(2+3C+n)
=================  ==========  ==================================================================

The politics block: Politics Phase flag; the deciding seat (``actor``, one-hot, relative);
future events count; past events and the shorter game's face-up events (per card); my own
face-down Age III events once visible (per card); the top current event when Joan of Arc lets
me peek (per card, TTA-6.1); the pending decision's extra kind one-hot (the kinds of the
military part and "other": an unknown kind lands there), its numbers (attack, defence, cards
used, high bid, bid, force, units sent, budget), the pact side offered (1 A, 2 B) and the other
seat it names (attacker / offerer / high bidder, relative one-hot); then
per civilization (relative order): resigned, face-down events held, colonies and ruined wonders
(per card), the pacts it is party to (per card: 1 side A, 2 side B) and the wars it declared
(per target seat, relative).

Entries are raw counts (not normalized), clipped to ``[0, HIGH]`` (255).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np

from civtable.core.api import JSON
from civtable.games.through_the_ages.catalog import AGES, BY_ID, CARDS, ROW_SLOTS
from civtable.rl.encoders import ObservationEncoder, Vector

#: upper bound of every entry (all counts of the first game stay far below it)
HIGH = 255.0

_C = len(CARDS)
_AGE_NAMES = (*AGES, "IV")
_PENDING = ("none", "perform", "choose", "discard", "homer")
#: pending kinds of the military part (the politics block); anything else is "other"
_PENDING2 = ("defend", "accept", "bid", "send", "option", "agreement", "keep", "other")
_PENDING_NUMBERS = (
    "attack",
    "defense",
    "cards_used",
    "high_bid",
    "bid",
    "force",
    "units_sent",
    "budget",
)
#: the integer fields of a civilization's public view, in vector order
_CIV_INTS = (
    "culture",
    "science",
    "culture_rate",
    "science_rate",
    "strength",
    "happiness",
    "discontent",
    "yellow_bank",
    "blue_bank",
    "worker_pool",
    "food",
    "resources",
    "food_production",
    "resource_production",
    "wonder_stages_built",
    "civil_actions",
    "military_actions",
    "temporary_military_actions",
    "civil_actions_total",
    "military_actions_total",
    "military_hand_size",
    "next_population_cost",
    "consumption",
    "corruption",
    "civil_hand_limit",
    "military_hand_limit",
    "urban_limit",
)
_CARD_BLOCKS = ("play", "workers", "wip", "hand", "tactic", "build_cost", "develop_cost")


class ThroughTheAgesEncoder(ObservationEncoder):
    """Fixed-size encoding of a Through the Ages seat view (see the module doc)."""

    high = HIGH

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        if not 2 <= players <= 4:
            raise ValueError(f"Through the Ages is for 2 to 4 players, not {players}")
        n = players
        ids = [c.id for c in CARDS]
        names: list[str] = ["round"] + [f"age_{a}" for a in _AGE_NAMES]
        names += ["last_round_known", "last_round", "terminal"]
        names += [f"first_player_{k}" for k in range(n)]
        names += [f"current_{k}" for k in range(n)]
        for pile in ("civil_deck", "military_deck", "military_discard"):
            names += [f"{pile}_{a}" for a in AGES]
        names += ["current_events"]
        self._row_at = len(names)
        for slot in range(ROW_SLOTS):
            names += [f"row{slot}:{c}" for c in ids]
        names += [f"row_cost_{slot}" for slot in range(ROW_SLOTS)]
        names += [f"common_tactic:{c}" for c in ids]
        self._pending_at = len(names)
        names += [f"pending_{p}" for p in _PENDING]
        names += [f"pending_card:{c}" for c in ids] + ["pending_count"]
        self._civ_names = [*_CIV_INTS, "tactic_exclusive"] + [f"cubes_{i}" for i in range(8)]
        self._civ_names += [f"{b}:{c}" for b in _CARD_BLOCKS for c in ids]
        self._civ_at = len(names)
        self._civ_size = len(self._civ_names)
        for k in range(n):
            names += [f"civ{k}:{x}" for x in self._civ_names]
        self._mhand_at = len(names)
        names += [f"military_hand:{c}" for c in ids]
        self._pol_at = len(names)
        names += ["politics_phase"] + [f"decider_{k}" for k in range(n)] + ["future_events"]
        names += [f"past_event:{c}" for c in ids] + [f"faceup_event:{c}" for c in ids]
        names += [f"my_secret_event:{c}" for c in ids] + [f"top_current_event:{c}" for c in ids]
        names += [f"pending2_{p}" for p in _PENDING2] + [f"pending_{x}" for x in _PENDING_NUMBERS]
        names += ["pending_offer_side"] + [f"pending_other_{k}" for k in range(n)]
        self._pciv_names = ["resigned", "secret_events"]
        self._pciv_names += [f"{b}:{c}" for b in ("colony", "ruin", "pact") for c in ids]
        self._pciv_names += [f"war_on_{k}" for k in range(n)]
        self._pciv_at = len(names)
        for k in range(n):
            names += [f"civ{k}:{x}" for x in self._pciv_names]
        self._names = names
        self.size = len(names)

    def feature_names(self) -> list[str]:
        """One name per entry, e.g. ``civ1:hand:bronze`` (civ1 = the next seat)."""
        return list(self._names)

    def encode(self, view: JSON) -> Vector:
        """The observation vector of ``view`` (a seat's view, not a spectator's)."""
        me = view.get("seat")
        if me is None:
            raise ValueError("the Through the Ages encoder needs a seat's view")
        n = view["players"]
        if n != self.players:
            raise ValueError(f"a {n}-player view given to a {self.players}-player encoder")
        v = np.zeros(self.size, dtype=np.float32)

        def rel(seat: int) -> int:
            return int((seat - me) % n)

        v[0] = view["round"]
        v[1 + _AGE_NAMES.index(view["age"])] = 1
        i = 1 + len(_AGE_NAMES)
        if view["last_round"] >= 0:
            v[i] = 1
            v[i + 1] = view["last_round"]
        v[i + 2] = bool(view["terminal"])
        i += 3
        v[i + rel(view["first_player"])] = 1
        i += n
        v[i + rel(view["current"])] = 1
        i += n
        for key in ("civil_deck_sizes", "military_deck_sizes", "military_discard_sizes"):
            v[i : i + 4] = view[key]
            i += 4
        v[i] = view["current_events"]
        i += 1
        assert i == self._row_at
        for slot, card in enumerate(view["row"]):
            if card is not None:
                v[i + slot * _C + BY_ID[card]] = 1
        i += ROW_SLOTS * _C
        for slot, cost in enumerate(view["row_costs"]):
            if cost is not None:
                v[i + slot] = cost
        i += ROW_SLOTS
        for card in view["common_tactics"]:
            v[i + BY_ID[card]] += 1
        i += _C
        detail = view["pending_detail"]
        if detail["kind"] in _PENDING:  # the military part's kinds: the politics block
            v[i + _PENDING.index(detail["kind"])] = 1
        i += len(_PENDING)
        if "card" in detail:
            v[i + BY_ID[detail["card"]]] = 1
        i += _C
        v[i] = detail.get("count", 0)
        for doc in view["civs"]:
            self._civ(v, self._civ_at + rel(doc["seat"]) * self._civ_size, doc)
        for card, k in Counter(view["military_hand"]).items():
            v[self._mhand_at + BY_ID[card]] = k
        self._politics(v, view, rel)
        np.clip(v, 0.0, HIGH, out=v)
        return v

    def _politics(self, v: Vector, view: JSON, rel: Any) -> None:
        """The politics block (see the module doc); absent fields leave zeros."""
        n = self.players
        i = self._pol_at
        v[i] = view.get("phase") == "politics"
        i += 1
        actor = view.get("actor", (view.get("to_move") or [None])[0])
        if isinstance(actor, int):
            v[i + rel(actor)] = 1
        i += n
        v[i] = view.get("future_events", 0)
        i += 1
        for key in ("past_events", "faceup_events", "secret_events"):
            for card in view.get(key, []):
                v[i + BY_ID[card]] += 1
            i += _C
        if view.get("top_current_event") is not None:  # Joan of Arc's peek (TTA-6.1)
            v[i + BY_ID[view["top_current_event"]]] = 1
        i += _C
        detail = view["pending_detail"]
        kind = detail["kind"]
        if kind not in _PENDING:
            v[i + (_PENDING2.index(kind) if kind in _PENDING2 else len(_PENDING2) - 1)] = 1
        i += len(_PENDING2)
        for k, key in enumerate(_PENDING_NUMBERS):
            v[i + k] = detail.get(key) or 0
        i += len(_PENDING_NUMBERS)
        v[i] = {"A": 1, "B": 2}.get(detail.get("offerer_side", ""), 0)
        i += 1
        other = detail.get("attacker", detail.get("offerer", detail.get("high_bidder")))
        if isinstance(other, int):
            v[i + rel(other)] = 1
        i += n
        assert i == self._pciv_at
        size = len(self._pciv_names)
        for doc in view["civs"]:
            j = self._pciv_at + rel(doc["seat"]) * size
            v[j] = bool(doc.get("resigned"))
            v[j + 1] = doc.get("secret_events", 0)
            j += 2
            for card in doc.get("colonies", []):
                v[j + BY_ID[card]] += 1
            for card in doc.get("ruins", []):
                v[j + _C + BY_ID[card]] += 1
        pact_at = 2 + 2 * _C
        for pact in view.get("pacts", []):
            for seat, side in ((pact["a"], 1), (pact["b"], 2)):
                v[self._pciv_at + rel(seat) * size + pact_at + BY_ID[pact["card"]]] = side
        war_at = pact_at + _C
        for war in view.get("wars", []):
            j = self._pciv_at + rel(war["declarer"]) * size + war_at
            v[j + rel(war["target"])] += 1

    def _civ(self, v: Vector, i: int, doc: JSON) -> None:
        """Write one civilization's block at ``i``."""
        for name in _CIV_INTS:
            v[i] = doc[name]
            i += 1
        v[i] = bool(doc["tactic_exclusive"])
        i += 1
        v[i : i + 8] = doc["cubes"]
        i += 8
        play = [*doc["workers"], doc["government"], *doc["special"], *doc["wonders"]]
        if doc["leader"] is not None:
            play.append(doc["leader"])
        for card in play:
            v[i + BY_ID[card]] += 1
        i += _C
        for card, workers in doc["workers"].items():
            v[i + BY_ID[card]] = workers
        i += _C
        if doc["unfinished_wonder"] is not None:
            v[i + BY_ID[doc["unfinished_wonder"]]] = 1
        i += _C
        for card in doc["hand"]:
            v[i + BY_ID[card]] += 1
        i += _C
        if doc["tactic"] is not None:
            v[i + BY_ID[doc["tactic"]]] = 1
        i += _C
        for card, cost in doc["build_costs"].items():
            v[i + BY_ID[card]] = cost
        i += _C
        for card, cost in doc["develop_costs"].items():
            v[i + BY_ID[card]] = cost

    def render(self, view: JSON) -> str:
        """A readable text picture of the table (a seat's or a spectator's view)."""
        seat = view.get("seat")
        lines = [
            f"Through the Ages · round {view['round']} · Age {view['age']} · "
            f"first player {view['first_player']} · to move {view['to_move']}"
            + (f" · last round {view['last_round']}" if view["last_round"] >= 0 else "")
        ]
        row = [c if c is not None else "-" for c in view["row"]]
        costs = ["" if c is None else f"({c})" for c in view["row_costs"]]
        lines.append("row: " + ", ".join(f"{c}{k}" for c, k in zip(row, costs, strict=True)))
        lines.append(
            f"decks: civil {view['civil_deck_sizes']} military {view['military_deck_sizes']} "
            f"discards {view['military_discard_sizes']} events {view['current_events']}"
        )
        for doc in view["civs"]:
            lines.append(
                f"Player {doc['seat']}: culture {doc['culture']} (+{doc['culture_rate']}) "
                f"science {doc['science']} (+{doc['science_rate']}) strength {doc['strength']} "
                f"happiness {doc['happiness']} food {doc['food']} resources {doc['resources']} "
                f"CA {doc['civil_actions']}/{doc['civil_actions_total']} "
                f"MA {doc['military_actions']}/{doc['military_actions_total']} "
                f"gov {doc['government']} leader {doc['leader']}"
            )
            lines.append(f"  hand: {', '.join(doc['hand']) or '-'}")
        if seat is not None:
            lines.append(
                f"Player {seat}'s military hand: {', '.join(view['military_hand']) or '-'}"
            )
            lines.append(f"pending: {view['pending_detail']['kind']}")
            legal = view.get("legal", [])
            lines.append(f"{len(legal)} legal actions")
            for a in legal[:40]:
                lines.append(f"  [{a['id']}] {a.get('label', '')}")
        if "result" in view:
            lines.append(f"scores {view['result']['scores']} winners {view['result']['winners']}")
        return "\n".join(lines)


__all__ = ["ThroughTheAgesEncoder"]
