"""The 7 Wonders observation encoder: ``view(seat)`` -> a fixed-size ``float32`` vector.

Everything is defined on :func:`civtable.games.seven_wonders.view.view` (SW-3.9): the seat's own
hand and pending choice, the public cities, never another seat's hand or pending pick.
:meth:`SevenWondersEncoder.encode` encodes a view; :meth:`SevenWondersEncoder.encode_state` (what
the environments call, 3-4 times cheaper than building the view and encoding it) reads the same
fields straight from the state and is tested equal to it.

Cities are listed relative to the observer: self, left neighbour (LEFT(i) = i + 1), right
neighbour (RIGHT(i) = i - 1), then the remaining cities going left (i + 2, i + 3, ...). In the
2-player variant there are three cities (the Free City and the two players), so the vector has
three city blocks and a flag marks the Free City.

Layout (``N = 78`` card types in catalog order, ``n`` cities):

=====================  =======  ===============================================================
block                  size     content
=====================  =======  ===============================================================
age                    3        one-hot, Age I..III
turn                   6        one-hot, turn 1..6 of the age
phase                  4        one-hot: main, Babylon's extra step, Halikarnassus, over
global                 9        hands pass left; discard-pile size; Free City pile size; I hold
                                the Free City card; I owe a decision; I decide for the Free City;
                                I am choosing a payment; pending kind (build, stage) as 2 flags
hand                   N        my hand, copies per card type
pending card           N        the card whose payment I am choosing (one-hot)
committed              N        cards I committed this step, not yet revealed to others
known discards         N        discard-pile cards I know (mine; the whole pile while I choose
                                for Halikarnassus)
city x n               N + 30   structures per card type; board one-hot (7); side B; stages
                                built; stages total; coins; shields; military victory points;
                                defeat tokens; compass, gear, tablet, science wilds; structures
                                per colour (7); hand size; owes a decision; has committed;
                                Olympia's free build available; is the Free City
=====================  =======  ===============================================================

Entries are raw counts (not normalized), clipped to ``[0, HIGH]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from civtable.core.api import JSON, State
from civtable.games.seven_wonders.actions import K_BUILD
from civtable.games.seven_wonders.catalog import (
    BOARD_INDEX,
    BOARDS,
    CARD_INDEX,
    CARDS,
    COLORS,
    N_CARDS,
    POWER_FREE_BUILD,
    SCIENCE,
)
from civtable.games.seven_wonders.state import HALI_PHASE, MAIN, OVER, PHASE_NAMES
from civtable.rl.encoders import ObservationEncoder, Vector

if TYPE_CHECKING:
    from civtable.games.seven_wonders.state import SevenWondersState

#: upper bound of every entry (coins and counts stay far below it; they are clipped to it)
HIGH = 255.0
_CAP = int(HIGH)

_PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
_N_BOARDS = len(BOARDS)
_CITY_SCALARS = (
    [f"board_{b.id}" for b in BOARDS]
    + ["side_b", "stages_built", "stages_total", "coins", "shields", "victory_points"]
    + ["defeat_tokens", *SCIENCE, "science_wilds"]
    + [f"color_{c}" for c in COLORS]
    + ["hand_size", "deciding", "committed", "free_build_available", "is_free_city"]
)
CITY_SIZE = N_CARDS + len(_CITY_SCALARS)
_GLOBAL = (
    [f"age_{a}" for a in (1, 2, 3)]
    + [f"turn_{t}" for t in range(1, 7)]
    + [f"phase_{p}" for p in PHASE_NAMES]
    + ["direction_left", "discard_size", "free_city_pile_size", "controls_free_city"]
    + ["deciding", "deciding_for_free_city", "choosing_payment", "pending_build"]
    + ["pending_stage"]
)
_AGE, _TURN, _PHASE = 0, 3, 9
_DIRECTION, _DISCARDS, _FC_PILE, _CONTROLS, _DECIDING, _DECIDING_FC = range(13, 19)
_CHOOSING, _PENDING_BUILD, _PENDING_STAGE = range(19, 22)
_HAND = len(_GLOBAL)
_PENDING_CARD = _HAND + N_CARDS
_COMMITTED = _PENDING_CARD + N_CARDS
_KNOWN_DISCARDS = _COMMITTED + N_CARDS
_CITIES = _KNOWN_DISCARDS + N_CARDS
# offsets inside a city block
_C_BOARD = N_CARDS
_C_SIDE = _C_BOARD + _N_BOARDS
_C_STAGES, _C_STAGES_TOTAL, _C_COINS, _C_SHIELDS, _C_VP, _C_DEFEATS = range(
    _C_SIDE + 1, _C_SIDE + 7
)
_C_SCIENCE = _C_SIDE + 7
_C_WILDS = _C_SCIENCE + 3
_C_COLORS = _C_WILDS + 1
_C_HAND, _C_DECIDING, _C_COMMITTED, _C_FREE_BUILD, _C_IS_FC = range(_C_COLORS + 7, _C_COLORS + 12)
# per board and side: stages in total; index of the stage granting Olympia's free build (SW-10.8)
_STAGES_TOTAL = tuple(tuple(len(stages) for stages in b.sides) for b in BOARDS)
_FREE_BUILD_STAGE = tuple(
    tuple(
        next((i for i, st in enumerate(stages) if st.effect.power == POWER_FREE_BUILD), 99)
        for stages in b.sides
    )
    for b in BOARDS
)
_MAIN, _HALI_PHASE, _OVER = MAIN, HALI_PHASE, OVER


def city_order(me: int, n: int) -> list[int]:
    """Cities as the observer sees them: self, left, right, then the rest going left.

    >>> city_order(0, 5)
    [0, 1, 4, 2, 3]
    >>> city_order(2, 3)
    [2, 0, 1]
    """
    if n == 1:
        return [me]
    rest = [(me + k) % n for k in range(2, n - 1)]
    return [me, (me + 1) % n, (me - 1) % n, *rest]


class SevenWondersEncoder(ObservationEncoder):
    """Fixed-size encoding of a 7 Wonders seat view (see the module doc for the layout)."""

    high = HIGH

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.cities = 3 if players == 2 else players
        self.size = _CITIES + self.cities * CITY_SIZE
        self._orders = [city_order(me, self.cities) for me in range(self.cities)]

    def encode(self, view: JSON) -> Vector:
        """The observation vector of ``view`` (a seat's view, not a spectator's)."""
        me = view.get("city")
        if me is None:
            raise ValueError("the 7 Wonders encoder needs a seat's view, not a spectator's")
        # Every entry is a small count: fill a byte buffer, convert once (cheaper than numpy
        # fancy indexing from Python lists).
        buf = bytearray(self.size)
        buf[_AGE + view["age"] - 1] = 1
        buf[_TURN + view["turn"] - 1] = 1
        buf[_PHASE + _PHASE_INDEX[view["phase"]]] = 1
        buf[_DIRECTION] = view["direction"] == "left"
        buf[_DISCARDS] = min(view["discard_size"], _CAP)
        buf[_FC_PILE] = view["free_city_pile_size"]
        buf[_CONTROLS] = view["controller"] is not None and view["controller"] == view["seat"]
        deciding = view.get("deciding_for")
        if deciding is not None:
            buf[_DECIDING] = 1
            buf[_DECIDING_FC] = view["players"] == 2 and deciding == 0
        for cid in view["hand"]:
            buf[_HAND + CARD_INDEX[cid]] += 1
        for key, doc in view["commitments"].items():
            t = CARD_INDEX[doc["card"]]
            if "choosing_payment" not in doc:
                buf[_COMMITTED + t] += 1
            elif deciding is not None and int(key) == deciding:
                buf[_CHOOSING] = 1
                buf[_PENDING_BUILD if doc["action"] == "build" else _PENDING_STAGE] = 1
                buf[_PENDING_CARD + t] = 1
        pile = view.get("discard_pile")
        for cid in pile if pile is not None else view["my_discards"]:
            i = _KNOWN_DISCARDS + CARD_INDEX[cid]
            buf[i] = min(buf[i] + 1, _CAP)
        cities = view["cities"]
        two_player = view["players"] == 2
        for slot, c in enumerate(self._orders[me]):
            doc = cities[c]
            base = _CITIES + slot * CITY_SIZE
            for cid in doc["structures"]:
                buf[base + CARD_INDEX[cid]] = 1
            buf[base + _C_BOARD + BOARD_INDEX[doc["board"]]] = 1
            buf[base + _C_SIDE] = doc["side"] == "B"
            defeats = doc["defeat_tokens"]
            coins = doc["coins"]
            science = doc["science"]
            buf[base + _C_STAGES] = doc["stages_built"]
            buf[base + _C_STAGES_TOTAL] = doc["stages_total"]
            buf[base + _C_COINS] = coins if coins < _CAP else _CAP
            buf[base + _C_SHIELDS] = doc["shields"]
            buf[base + _C_VP] = sum(doc["tokens"]) + defeats  # a defeat token is -1
            buf[base + _C_DEFEATS] = defeats
            buf[base + _C_SCIENCE] = science["compass"]
            buf[base + _C_SCIENCE + 1] = science["gear"]
            buf[base + _C_SCIENCE + 2] = science["tablet"]
            buf[base + _C_WILDS] = doc["science_wilds"]
            buf[base + _C_COLORS : base + _C_COLORS + 7] = bytes(
                doc["colors"].values()
            )  # COLORS order
            buf[base + _C_HAND] = doc["hand_size"]
            buf[base + _C_DECIDING] = doc["deciding"]
            buf[base + _C_COMMITTED] = doc["committed"]
            buf[base + _C_FREE_BUILD] = doc["free_build_available"]
            buf[base + _C_IS_FC] = two_player and c == 0
        return np.frombuffer(buf, dtype=np.uint8).astype(np.float32)

    def encode_state(self, state: State, seat: int) -> Vector:
        """``encode(view(state, seat))`` without building the view (the environments' path).

        It reads exactly the state fields that :func:`~civtable.games.seven_wonders.view.view`
        puts in a seat's view, mirroring it line by line: the public cities, the seat's own hand,
        commitments and known discards, the whole pile only while the seat resolves
        Halikarnassus. ``tests/rl/test_encoder_seven_wonders.py`` checks it equals the encoding
        of ``view(seat)`` on every position of many random games, for every seat.
        """
        s = cast("SevenWondersState", state)
        if not 0 <= seat < s.players:
            raise ValueError(f"no seat {seat} in a {s.players}-player game")
        buf = bytearray(self.size)
        two_player = s.two_player
        phase = s.phase
        age = s.age
        buf[_AGE + age - 1] = 1
        buf[_TURN + s.turn - 1] = 1
        buf[_PHASE + phase] = 1
        buf[_DIRECTION] = age != 2
        discard = s.discard
        n_discard = len(discard)
        buf[_DISCARDS] = n_discard if n_discard < _CAP else _CAP
        hands = s.hands
        needs = s.needs
        commits = s.commits
        await_pay = s.await_pay
        own = seat + 1 if two_player else seat
        controller = s.controller
        if two_player:
            buf[_FC_PILE] = len(hands[0])
            buf[_CONTROLS] = controller == own
            mine = (own, 0) if controller == own else (own,)
        else:
            mine = (own,)
        # current_city(seat): the first of the seat's cities owing an uncommitted decision
        deciding = -1
        if phase != _OVER:
            for c in mine:
                if needs[c] and commits[c] is None:
                    deciding = c
                    break
        if deciding >= 0:
            buf[_DECIDING] = 1
            buf[_DECIDING_FC] = two_player and deciding == 0
        for t in hands[own]:
            buf[_HAND + t] += 1
        for c in mine:
            commit = commits[c] if needs[c] else None
            if commit is not None:
                buf[_COMMITTED + commit[1]] += 1
            else:
                pending = await_pay[c]
                if pending is not None and c == deciding:
                    buf[_CHOOSING] = 1
                    buf[_PENDING_BUILD if pending[0] == K_BUILD else _PENDING_STAGE] = 1
                    buf[_PENDING_CARD + pending[1]] = 1
        if phase == _HALI_PHASE and deciding == s.hali_city:  # SW-10.11: the whole pile
            for t in discard:
                i = _KNOWN_DISCARDS + t
                if buf[i] < _CAP:
                    buf[i] += 1
        else:  # the cards this seat discarded (found by list.index, the pile may be long)
            known = s.discard_known
            k = -1
            for _ in range(known.count(seat)):
                k = known.index(seat, k + 1)
                i = _KNOWN_DISCARDS + discard[k]
                if buf[i] < _CAP:
                    buf[i] += 1
        # Public hand sizes count the cards chosen this step (view._hand_size); in the 2-player
        # game the Free City's chosen card counts in its controller's hand.
        fc_chose = (
            two_player
            and phase == _MAIN
            and needs[0]
            and (commits[0] is not None or await_pay[0] is not None)
        )
        cities = s.cities
        base = _CITIES
        for c in self._orders[own]:
            city = cities[c]
            for t in city.built:
                buf[base + t] = 1
            board, side, stages = city.board, city.side, city.stages
            buf[base + _C_BOARD + board] = 1
            coins, tokens, defeats = city.coins, city.tokens, city.defeats
            need = needs[c]
            if two_player and c == 0:
                size = 0
            else:
                size = len(hands[c]) + (
                    need and (commits[c] is not None or await_pay[c] is not None)
                )
                if fc_chose and c == controller:
                    size += 1
            buf[base + _C_SIDE : base + CITY_SIZE] = bytes(
                (
                    side,
                    stages,
                    _STAGES_TOTAL[board][side],
                    coins if coins < _CAP else _CAP,
                    city.shields,
                    sum(tokens) + defeats,  # a defeat token is -1
                    defeats,
                    *city.science,
                    city.wilds,
                    *city.colors,
                    size,
                    need,
                    need and commits[c] is not None,
                    not city.free_used and stages > _FREE_BUILD_STAGE[board][side],
                    two_player and c == 0,
                )
            )
            base += CITY_SIZE
        return np.frombuffer(buf, dtype=np.uint8).astype(np.float32)

    def feature_names(self) -> list[str]:
        """One name per entry, e.g. ``hand:lumber_yard`` or ``city1:coins`` (city1 = left)."""
        names = list(_GLOBAL)
        for block in ("hand", "pending_card", "committed", "known_discards"):
            names += [f"{block}:{c.id}" for c in CARDS]
        for slot in range(self.cities):
            names += [f"city{slot}:built:{c.id}" for c in CARDS]
            names += [f"city{slot}:{s}" for s in _CITY_SCALARS]
        return names

    def render(self, view: JSON) -> str:
        """A compact text picture of the view: header, one line per city, then the seat's hand."""
        lines = [
            f"7 Wonders · Age {view['age']} · turn {view['turn']} · {view['phase']}"
            f" · hands pass {view['direction']} · discard pile {view['discard_size']}"
        ]
        to_move = view.get("to_move", [])
        for doc in view["cities"]:
            seat = doc["seat"]
            flags = ""
            if seat is not None and seat in to_move:
                flags = " (to move)" if not doc["committed"] else " (chosen)"
            names = ", ".join(CARDS[CARD_INDEX[cid]].name for cid in doc["structures"]) or "-"
            mil = sum(doc["tokens"])
            lines.append(
                f"{doc['name']}{flags}: {doc['wonder']} ({doc['side']}) "
                f"stages {doc['stages_built']}/{doc['stages_total']} · coins {doc['coins']} "
                f"· shields {doc['shields']} · military {mil:+d} · {names}"
            )
        if view.get("seat") is not None:
            hand = ", ".join(CARDS[CARD_INDEX[cid]].name for cid in view["hand"]) or "-"
            lines.append(f"Player {view['seat'] + 1}'s hand: {hand}")
            for a in view.get("legal", []):
                lines.append(f"  [{a['id']}] {a['label']}")
        result = view.get("result")
        if result is not None:
            lines.append(
                "final scores: "
                + ", ".join(f"Player {s + 1} {p}" for s, p in enumerate(result["scores"]))
                + " · winners: "
                + ", ".join(f"Player {s + 1}" for s in result["winners"])
            )
        return "\n".join(lines)


__all__ = ["CITY_SIZE", "HIGH", "SevenWondersEncoder", "city_order"]
