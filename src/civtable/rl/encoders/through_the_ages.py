"""The Through the Ages observation encoder: ``view(seat)`` -> a fixed-size ``float32`` vector.

Everything comes from :func:`civtable.games.through_the_ages.view.view`: the public boards,
the card row, the (public, TTA-3.3) civil hands, deck/discard sizes and the seat's own military
hand. Another seat's military hand, the deck orders and the current events appear in a view only
as sizes, so they cannot appear here. :meth:`ThroughTheAgesEncoder.encode` encodes a view;
:meth:`ThroughTheAgesEncoder.encode_state` (what the environments call, several times cheaper)
reads the same fields straight from the state, keeps the blocks that did not change since its
last call, and is tested equal to encoding the view. When the optional C extension ``_tta_fast``
is built (``setup.py``), it assembles that vector (:attr:`ThroughTheAgesEncoder.plan`); the
rules it needs stay here, in the methods both paths call.

Seats are listed relative to the observer: self, then the next seats in turn order.
``S = 13`` row slots, ``n`` players. A per-card block lists only the cards that can appear in it,
in catalog order: the civil cards (``Cc = 121``: the row, civil hands), technologies
(``Ct = 54``: workers, build and develop costs), the cards a civilization has in play
(``Cp = 94``: technologies, leaders, wonders), wonders (``Cw = 16``), tactics (``Ck = 15``),
military cards (``Cm = 109``), events and territories (``Ce = 67``), territories (``Cr = 12``)
and pacts (``Ca = 10``); the pending decision's card may be any of the ``C = 236``. A card
outside its block is an error on both paths (``KeyError``/``TypeError``), never a wrong entry.
The sizes are 3 241, 3 734 and 4 229 for 2, 3 and 4 players.

=================  ==========  ==================================================================
block              size        content
=================  ==========  ==================================================================
turn               9 + 2n      round; age one-hot (A, I, II, III, IV); last round known; last
                               round; game over; first player, current player (one-hot, relative)
piles              13          civil deck sizes (4); military deck sizes (4); military discard
                               sizes (4); current events
row                S*Cc + S    card in each slot (one-hot); what I pay to take each slot
common tactics     Ck          tactics open to everybody (TTA-7.3.3), per card
pending            5 + C + 1   the follow-up decision one-hot; its card; the count to discard
civ x n            36 + Cp     ratings, banks, stocks, productions, actions, limits and costs;
                   + 3Ct + Cw  the blue cubes on each farm/mine (8); per card: in play (developed
                   + Cc + Ck   technologies, government, special technologies, leader, completed
                               wonders), workers on it, unfinished wonder, civil hand, tactic,
                               cost to build, cost to develop
military hand      Cm          my military hand, copies per card
politics           19 + 2n     the military part (TTA-6, TTA-11, TTA-12, TTA-15.1), see below;
                   + 4Ce       per civilization 2 + Cr + Cw + Ca + n more
                   + n(2+Cr
                   +Cw+Ca+n)
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
from collections.abc import Callable, Mapping
from itertools import compress
from operator import itemgetter, ne
from typing import Any, TypeVar

import numpy as np

from civtable.core.api import JSON, State
from civtable.games.through_the_ages.catalog import (
    AGES,
    BY_ID,
    CARDS,
    ROW_SLOTS,
    TAKE_COST,
    Card,
)
from civtable.games.through_the_ages.rules import board, civil, effects, events
from civtable.games.through_the_ages.state import (
    F_RESIGNED,
    P_ACCEPT,
    P_AGREEMENT,
    P_BID,
    P_CHOOSE,
    P_DEFEND,
    P_DISCARD,
    P_OPTION,
    P_PERFORM,
    P_SEND,
    PH_ACTION,
    Civ,
    TTAState,
)
from civtable.games.through_the_ages.view import PENDING_KINDS, peeks
from civtable.rl.encoders import ObservationEncoder, Vector

try:  # the vector assembled in C, when the extension was built (pyproject: setup.py)
    from civtable.rl.encoders import _tta_fast
except ImportError:  # a build without a C compiler: the Python path
    _tta_fast = None  # type: ignore[assignment]

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


class _Cards:
    """A per-card block over only the cards that can appear in it (chosen by type): its card
    ids, each card index's position (``None`` for a card that cannot appear: using it raises),
    its one-hot block per card index (``hot[-1]``, no card: zeros) and its memo key."""

    __slots__ = ("at", "hot", "ids", "key", "pos", "size", "zero")

    def __init__(self, key: int, keep: Callable[[Card], bool]) -> None:
        cards = [c for c in CARDS if keep(c)]
        self.key = key
        self.size = len(cards)
        self.ids = tuple(c.id for c in cards)
        #: card id -> position (the reference path; KeyError for a card that cannot appear)
        self.at = {c.id: k for k, c in enumerate(cards)}
        pos: list[int | None] = [None] * _C
        for k, c in enumerate(cards):
            pos[c.idx] = k
        self.pos = tuple(pos)
        self.zero = bytes(self.size)
        #: (``Any``: ``None`` for a card that cannot appear, which ``bytes.join`` refuses)
        self.hot: tuple[Any, ...] = (
            *(None if k is None else bytes(int(j == k) for j in range(self.size)) for k in pos),
            self.zero,
        )


#: the per-card blocks: the civil cards (the row and civil hands), technologies (workers, build
#: and develop costs), the cards a civilization has in play (technologies, leaders, completed
#: wonders), wonders (unfinished, face-down), tactics, the military cards (my military hand),
#: events and territories (past, face-up, secret and current events), territories (colonies)
#: and pacts (TTA-6.6)
CIVIL = _Cards(0, lambda c: c.deck == "civil")
TECHS = _Cards(1, lambda c: c.type == "technology")
IN_PLAY = _Cards(2, lambda c: c.type in ("technology", "leader", "wonder"))
WONDERS = _Cards(3, lambda c: c.type == "wonder")
TACTICS = _Cards(4, lambda c: c.type == "tactic")
MILITARY = _Cards(5, lambda c: c.deck == "military")
EVENTS = _Cards(6, lambda c: c.type in ("event", "territory"))
TERRITORIES = _Cards(7, lambda c: c.type == "territory")
PACTS = _Cards(8, lambda c: c.type == "pact")
#: a civilization's per-card blocks, in vector order
_CARD_BLOCKS = (
    ("play", IN_PLAY),
    ("workers", TECHS),
    ("wip", WONDERS),
    ("hand", CIVIL),
    ("tactic", TACTICS),
    ("build_cost", TECHS),
    ("develop_cost", TECHS),
)

# --- the state-reading fast path (encode_state) ----------------------------------------------
_CAP = int(HIGH)
#: per card: its building slot (-1: none), whether it is a technology (has a develop cost)
_SLOT = tuple(c.slot if c.kind >= 0 else -1 for c in CARDS)
_TECH = tuple(c.type == "technology" for c in CARDS)
_CARD_IDX = tuple(c.idx for c in CARDS)  # CARDS[x].idx, also for the view's CARDS[-1]
#: the pending kinds with a card (``pending_detail["card"]``)
_CARD_KINDS = frozenset((P_PERFORM, P_CHOOSE, P_DEFEND, P_ACCEPT, P_BID, P_SEND, P_OPTION))
#: positions in :func:`_civ_fields` (= ``Civ.__slots__`` order) read by the memos below
_AT = {name: k for k, name in enumerate(Civ.__slots__)}
_GOV, _LEADER, _SPECIAL, _WONDERS = _AT["gov"], _AT["leader"], _AT["special"], _AT["wonders"]
_COLONIES, _PSIDE, _RUINS, _WORKERS = _AT["colonies"], _AT["pside"], _AT["ruins"], _AT["workers"]
_HOMER, _TACTIC, _XCULTURE = _AT["homer_wonder"], _AT["tactic"], _AT["xculture"]
_DEVELOPED, _HAND, _CUBES = _AT["developed"], _AT["hand"], _AT["cubes"]
#: per card: the building slot whose workers the view shows for it (``Card.slot``)
_CSLOT = tuple(c.kind * 4 + c.age for c in CARDS)


def _civ_fields(c: Civ) -> tuple[Any, ...]:
    """Every field of ``c``, ints then lists (the lists themselves): compared with a snapshot
    (the same with copies of the lists), equal means the civilization has not changed.

    Plain attribute reads, several times cheaper than an ``attrgetter``; ``tests/rl`` checks
    that every field of :class:`Civ` is here, in ``__slots__`` order."""
    return (
        c.yellow,
        c.blue,
        c.pool,
        c.gov,
        c.leader,
        c.wip,
        c.wip_stages,
        c.culture,
        c.science,
        c.ca,
        c.ma,
        c.temp_ma,
        c.mpool,
        c.spool,
        c.leader_ages,
        c.spent_ca,
        c.replaced_leader,
        c.used,
        c.homer_wonder,
        c.tactic,
        c.tactic_own,
        c.flags,
        c.xculture,
        c.blue_total,
        c.yellow_total,
        c.workers,
        c.cubes,
        c.developed,
        c.special,
        c.wonders,
        c.hand,
        c.mhand,
        c.fresh,
        c.colonies,
        c.ruins,
        c.pside,
        c.secret,
    )


#: the int fields come first in :func:`_civ_fields`, then the lists
_NSCALARS = next(k for k, x in enumerate(_civ_fields(Civ())) if isinstance(x, list))
_UINT8, _FLOAT32 = np.dtype(np.uint8), np.dtype(np.float32)
#: memo sizes (the memos are cleared beyond them): card parts (0.7 kB each), card counts
#: (0.2 kB each)
_CARDS_MAX = 4096
_COUNTS_MAX = 4096
#: the start of a politics civilization block (resigned, face-down events, colonies, ruins)
_PCIV_OWN = 2 + TERRITORIES.size + WONDERS.size
_NO_POLITICS = bytes(_PCIV_OWN)
#: a civilization's entry in encode_state's memory (see ThroughTheAgesEncoder._civ_entry)
_Entry = tuple[
    tuple[Any, ...],
    bytes,
    bytes,
    effects.Fx,
    tuple[int, int, int, int, int, int],
    tuple[bytes, bytes],
    tuple[bytes, bytes],
    tuple[int, int, int, int, int],
    bytes,
    bytes,
    tuple[int, int],
]
#: an entry's civ block; the start of its politics block followed by no pacts or wars
_BLOCK = itemgetter(1)
_POLITICS = itemgetter(9)
#: the row slots
_SLOTS = range(ROW_SLOTS)
#: the age one-hot of the turn block, by age
_AGE_HOT = tuple(tuple(int(k == a) for k in range(len(_AGE_NAMES))) for a in range(len(_AGE_NAMES)))
#: the yellow bank's happiness required, next population cost and consumption (TTA-1.4.2),
#: and the blue bank's corruption (TTA-1.5.1), by bank size (the engine's own functions)
_BY_YELLOW = tuple(
    (board.happiness_required(y), board.pop_cost(y), board.consumption(y)) for y in range(64)
)
_CORRUPTION = tuple(board.corruption(b) for b in range(64))
#: per row slot, what a card other than a wonder costs to take when no card in play changes
#: take costs (:func:`~civtable.games.through_the_ages.rules.civil.take_costs`); per card,
#: whether it is a wonder
_PLAIN_TAKE = tuple(max(0, c) for c in TAKE_COST)
_WONDER = tuple(c.type == "wonder" for c in CARDS)


def _take_costs(s: TTAState, civ: Civ, f: effects.Fx) -> list[int]:
    """:func:`civtable.games.through_the_ages.rules.civil.take_costs` (``f``: the
    civilization's :func:`~civtable.games.through_the_ages.rules.effects.fx`), with the
    printed prices read from a table (tested equal)."""
    if "take_from_row" in f.mods:
        return civil.take_costs(s, civ, f)
    out = [0] * len(s.row)
    for slot, card in enumerate(s.row):
        if card >= 0:
            out[slot] = civil.take_cost(s, civ, slot, f) if _WONDER[card] else _PLAIN_TAKE[slot]
    return out


_K = TypeVar("_K")
_V = TypeVar("_V")


def _kept(memo: dict[_K, _V], key: _K, make: Callable[..., _V], *args: Any) -> _V:
    """``memo[key]``, made by ``make(*args)`` when missing (the memo is cleared when it holds
    ``_CARDS_MAX`` entries)."""
    got = memo.get(key)
    if got is None:
        if len(memo) >= _CARDS_MAX:
            memo.clear()
        got = memo[key] = make(*args)
    return got


def _u8(x: int) -> int:
    """``x`` clipped to ``[0, HIGH]`` (as :meth:`ThroughTheAgesEncoder.encode` clips)."""
    return x if 0 <= x <= _CAP else (0 if x < 0 else _CAP)


class ThroughTheAgesEncoder(ObservationEncoder):
    """Fixed-size encoding of a Through the Ages seat view (see the module doc)."""

    high = HIGH

    def __init__(self, players: int, options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        if not 2 <= players <= 4:
            raise ValueError(f"Through the Ages is for 2 to 4 players, not {players}")
        n = players
        ids = [c.id for c in CARDS]  # the pending decision's card may be any card
        names: list[str] = ["round"] + [f"age_{a}" for a in _AGE_NAMES]
        names += ["last_round_known", "last_round", "terminal"]
        names += [f"first_player_{k}" for k in range(n)]
        names += [f"current_{k}" for k in range(n)]
        for pile in ("civil_deck", "military_deck", "military_discard"):
            names += [f"{pile}_{a}" for a in AGES]
        names += ["current_events"]
        self._row_at = len(names)
        for slot in range(ROW_SLOTS):
            names += [f"row{slot}:{c}" for c in CIVIL.ids]
        names += [f"row_cost_{slot}" for slot in range(ROW_SLOTS)]
        names += [f"common_tactic:{c}" for c in TACTICS.ids]
        self._pending_at = len(names)
        names += [f"pending_{p}" for p in _PENDING]
        names += [f"pending_card:{c}" for c in ids] + ["pending_count"]
        self._civ_names = [*_CIV_INTS, "tactic_exclusive"] + [f"cubes_{i}" for i in range(8)]
        self._civ_names += [f"{b}:{c}" for b, cards in _CARD_BLOCKS for c in cards.ids]
        self._civ_at = len(names)
        self._civ_size = len(self._civ_names)
        for k in range(n):
            names += [f"civ{k}:{x}" for x in self._civ_names]
        self._mhand_at = len(names)
        names += [f"military_hand:{c}" for c in MILITARY.ids]
        self._pol_at = len(names)
        names += ["politics_phase"] + [f"decider_{k}" for k in range(n)] + ["future_events"]
        for block in ("past_event", "faceup_event", "my_secret_event", "top_current_event"):
            names += [f"{block}:{c}" for c in EVENTS.ids]
        names += [f"pending2_{p}" for p in _PENDING2] + [f"pending_{x}" for x in _PENDING_NUMBERS]
        names += ["pending_offer_side"] + [f"pending_other_{k}" for k in range(n)]
        self._pciv_names = ["resigned", "secret_events"]
        self._pciv_names += [f"colony:{c}" for c in TERRITORIES.ids]
        self._pciv_names += [f"ruin:{c}" for c in WONDERS.ids]
        self._pciv_names += [f"pact:{c}" for c in PACTS.ids]
        self._pciv_names += [f"war_on_{k}" for k in range(n)]
        self._pciv_at = len(names)
        self._pciv_size = len(self._pciv_names)
        for k in range(n):
            names += [f"civ{k}:{x}" for x in self._pciv_names]
        self._names = names
        self.size = len(names)
        # encode_state's memory: per seat, the civilization's fields when its blocks were
        # last built and those blocks; the card blocks by what they are made of
        self._last: list[_Entry | None] = [None] * n
        self._played_memo: dict[tuple[Any, ...], tuple[bytes, bytes]] = {}
        self._workers_memo: dict[tuple[int, ...], bytes] = {}
        self._hand_memo: dict[tuple[Any, ...], tuple[bytes, bytes]] = {}
        self._counts: dict[tuple[int, ...], bytes] = {}
        self._no_pending = bytes([1]) + bytes(self._civ_at - self._pending_at - 1)
        self._no_pending2 = bytes(len(_PENDING2) + len(_PENDING_NUMBERS) + 1 + n)
        self._no_treaties = bytes(PACTS.size + n)
        self._no_pol_tail = _NO_POLITICS + self._no_treaties
        self._row_costs: list[tuple[tuple[Any, ...], list[int], bytes] | None] = [None] * n
        #: per observer, the seats in relative order (self first)
        self._orders = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        #: a relative seat one-hot (``_hot[n]``: none); both seat one-hots of the turn block
        self._hot = tuple(tuple(int(k == r) for k in range(n)) for r in range(n + 1))
        self._seats = tuple(tuple(self._hot[a] + self._hot[b] for b in range(n)) for a in range(n))
        #: encode_state's C assembly of the vector (None: the Python path, :meth:`_parts`)
        self.plan: _tta_fast.Plan | None = None
        if _tta_fast is not None:
            self.plan = _tta_fast.Plan(self._plan_spec())

    def __getstate__(self) -> dict[str, Any]:
        """What pickling and copying keep: everything but the C plan, which is made again."""
        state = self.__dict__.copy()
        state["plan"] = state["plan"] is not None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        with_plan = state.pop("plan", False)
        self.__dict__.update(state)
        self.plan = None
        if with_plan and _tta_fast is not None:
            self.plan = _tta_fast.Plan(self._plan_spec())

    def _plan_spec(self) -> dict[str, Any]:
        """The layout and tables the C assembly (``_tta_fast.Plan``) reads."""

        def block(cards: _Cards) -> tuple[int, tuple[int | None, ...]]:
            return cards.size, cards.pos

        n = self.players
        return {
            "players": n,
            "size": self.size,
            "n_cards": _C,
            "row_slots": ROW_SLOTS,
            "row_at": self._row_at,
            "pending_at": self._pending_at,
            "civ_at": self._civ_at,
            "civ_size": self._civ_size,
            "mhand_at": self._mhand_at,
            "pol_at": self._pol_at,
            "pciv_at": self._pciv_at,
            "pciv_size": self._pciv_size,
            "pciv_own": _PCIV_OWN,
            "p_discard": P_DISCARD,
            "p_option": P_OPTION,
            "phase_action": PH_ACTION,
            "card_kinds": tuple(sorted(_CARD_KINDS)),
            "card_idx": _CARD_IDX,
            "civil": block(CIVIL),
            "tactics": block(TACTICS),
            "military": block(MILITARY),
            "events": block(EVENTS),
            "pacts": block(PACTS),
            "wonders": block(WONDERS),
            "territories": block(TERRITORIES),
            "in_play_size": IN_PLAY.size,
            "techs_size": TECHS.size,
            "f_resigned": F_RESIGNED,
            "required": tuple(r for r, _, _ in _BY_YELLOW),
            "pop_cost": tuple(c for _, c, _ in _BY_YELLOW),
            "consumption": tuple(c for _, _, c in _BY_YELLOW),
            "corruption": _CORRUPTION,
            "state_type": TTAState,
            "civ_type": Civ,
            "civ_fields": Civ.__slots__,
            "peeks": peeks,
            "wonder": _WONDER,
            "plain_take": _PLAIN_TAKE,
            "take_cost": civil.take_cost,
        }

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
                v[i + slot * CIVIL.size + CIVIL.at[card]] = 1
        i += ROW_SLOTS * CIVIL.size
        for slot, cost in enumerate(view["row_costs"]):
            if cost is not None:
                v[i + slot] = cost
        i += ROW_SLOTS
        for card in view["common_tactics"]:
            v[i + TACTICS.at[card]] += 1
        i += TACTICS.size
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
            v[self._mhand_at + MILITARY.at[card]] = k
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
                v[i + EVENTS.at[card]] += 1
            i += EVENTS.size
        if view.get("top_current_event") is not None:  # Joan of Arc's peek (TTA-6.1)
            v[i + EVENTS.at[view["top_current_event"]]] = 1
        i += EVENTS.size
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
                v[j + TERRITORIES.at[card]] += 1
            for card in doc.get("ruins", []):
                v[j + TERRITORIES.size + WONDERS.at[card]] += 1
        pact_at = _PCIV_OWN
        for pact in view.get("pacts", []):
            for seat, side in ((pact["a"], 1), (pact["b"], 2)):
                v[self._pciv_at + rel(seat) * size + pact_at + PACTS.at[pact["card"]]] = side
        war_at = pact_at + PACTS.size
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
            v[i + IN_PLAY.at[card]] += 1
        i += IN_PLAY.size
        for card, workers in doc["workers"].items():
            v[i + TECHS.at[card]] = workers
        i += TECHS.size
        if doc["unfinished_wonder"] is not None:
            v[i + WONDERS.at[doc["unfinished_wonder"]]] = 1
        i += WONDERS.size
        for card in doc["hand"]:
            v[i + CIVIL.at[card]] += 1
        i += CIVIL.size
        if doc["tactic"] is not None:
            v[i + TACTICS.at[doc["tactic"]]] = 1
        i += TACTICS.size
        for card, cost in doc["build_costs"].items():
            v[i + TECHS.at[card]] = cost
        i += TECHS.size
        for card, cost in doc["develop_costs"].items():
            v[i + TECHS.at[card]] = cost

    def encode_state(self, state: State, seat: int) -> Vector:
        """``encode(view(state, seat))`` without building the view (the environments' path).

        It reads the state fields :func:`~civtable.games.through_the_ages.view.view` shows a
        seat and joins the vector's blocks as bytes, mirroring :meth:`encode` block by block
        (every entry is an integer in ``[0, HIGH]``; an entry outside, which bytes refuse,
        sends the call to the reference path). Blocks are kept by what they are made of: a
        civilization's blocks are rebuilt only when one of its fields changed since the last
        call (most decisions change one civilization), and then only the parts whose inputs
        changed (a civilization's food and resources by its cubes); the hands and event lists
        by their cards; the row is its slots' one-hot blocks and its costs are re-priced only
        for the slots that changed. With the C extension (``self.plan``), the same work is
        done by ``_tta_fast.Plan.encode``, which writes the ``float32`` vector in place and
        calls the part methods below for what the rules compute. ``tests/rl`` checks both
        paths give ``encode(view(seat))`` on every position of random games, for every seat.
        """
        s: TTAState = state  # type: ignore[assignment]
        n = self.players
        if s.players != n:
            raise ValueError(f"a {s.players}-player state given to a {n}-player encoder")
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")
        plan = self.plan
        if plan is not None:
            v = np.empty(self.size, _FLOAT32)
            if plan.encode(self, s, seat, v):
                return v
            return self.encode(s.view(seat, labels=False))
        try:
            data = b"".join(self._parts(s, seat))
        except ValueError:  # an entry outside [0, HIGH]: the reference path clips it
            return self.encode(s.view(seat, labels=False))
        return np.frombuffer(data, _UINT8).astype(_FLOAT32)

    def _parts(self, s: TTAState, seat: int) -> list[bytes | bytearray]:
        """The blocks of :meth:`encode_state`'s vector, in order (ValueError: an entry > 255).

        Per-item work goes through C (``map``, ``compress``, ``itemgetter``) where it can:
        the row is its slots' one-hot blocks, the civilizations' blocks are taken from their
        entries, so a call costs little more than checking what changed."""
        n = self.players
        civs = s.civs
        # turn and piles: one bytes() of a flat tuple (cheaper than setting bytearray items)
        seats = self._seats[(s.first - seat) % n][(s.current - seat) % n]
        last_round = s.last_round
        d, m, x = s.civil_decks, s.mil_decks, s.mil_discards
        head = bytes(
            (
                s.round,
                *_AGE_HOT[s.age],
                last_round >= 0,
                last_round if last_round >= 0 else 0,
                s.over,
                *seats,
                *map(len, d),
                *map(len, m),
                *map(len, x),
                len(s.events),
            )
        )
        # the civilizations' entries (kept while the civilization is unchanged)
        last = self._last
        entries = []
        for o in self._orders[seat]:
            civ = civs[o]
            kept = last[o]
            fields = _civ_fields(civ)
            if kept is None or kept[0] != fields:
                kept = last[o] = self._civ_entry(civ, fields, kept)
            entries.append(kept)
        me = civs[seat]
        # the row (its slots' one-hot blocks) and what I pay for each slot; the common
        # tactics; the follow-up decision
        row_hot = CIVIL.hot
        parts: list[bytes | bytearray] = [head, *[row_hot[c] for c in s.row]]
        parts.append(self._costs(s, seat, entries[0][3]))
        common = s.common
        parts.append(self._counts_of(common, TACTICS) if common else TACTICS.zero)
        p = s.pending
        kind = p[0]
        if kind:
            pending = bytearray(self._civ_at - self._pending_at)
            if 0 <= kind < len(_PENDING):
                pending[kind] = 1
                if kind == P_DISCARD and len(p) > 1:
                    pending[len(_PENDING) + _C] = p[1]
            if kind in _CARD_KINDS and p[1] >= 0:
                pending[len(_PENDING) + _CARD_IDX[p[2] if kind == P_OPTION else p[1]]] = 1
            parts.append(pending)
        else:
            parts.append(self._no_pending)
        parts += map(_BLOCK, entries)
        mhand = me.mhand
        parts.append(self._counts_of(mhand, MILITARY) if mhand else MILITARY.zero)
        # the politics block
        politics = s.phase != PH_ACTION
        decider = self._hot[n if s.over else (s.decider() - seat) % n]
        parts.append(bytes((politics, *decider, len(s.future))))
        past, faceup, secret = s.past, s.faceup, me.secret
        no_event = EVENTS.zero
        parts.append(self._counts_of(past, EVENTS) if past else no_event)
        parts.append(self._counts_of(faceup, EVENTS) if faceup else no_event)
        # my own Age III events (TTA-15.1)
        parts.append(self._counts_of(secret, EVENTS) if secret and s.age >= 2 else no_event)
        if politics and seat == s.current and peeks(s, seat):  # Joan of Arc
            parts.append(EVENTS.hot[s.events[-1]])
        else:
            parts.append(no_event)
        if 0 <= kind < len(_PENDING):
            parts.append(self._no_pending2)
        else:
            parts.append(self._pending2(s, seat, kind))
        if s.pacts or s.wars:
            tails = self._treaties(s, seat)
            for k in range(n):
                parts.append(entries[k][2])
                parts.append(tails[k])
        else:
            parts += map(_POLITICS, entries)
        return parts

    def _counts_of(self, cards: list[int], block: _Cards) -> bytes:
        """Copies per card of ``cards`` in ``block`` (kept by the block and cards)."""
        key = (block.key, *cards)
        kept = self._counts.get(key)
        if kept is None:
            if len(self._counts) >= _COUNTS_MAX:
                self._counts.clear()
            b = bytearray(block.size)
            pos = block.pos
            for card in cards:
                b[pos[card]] += 1  # type: ignore[index]  # None (cannot appear): TypeError
            kept = self._counts[key] = bytes(b)
        return kept

    def _costs(self, s: TTAState, seat: int, f: effects.Fx) -> bytes:
        """What ``seat`` pays to take each row slot (``f``: the seat's
        :func:`~civtable.games.through_the_ages.rules.effects.fx`), kept with what
        :func:`~civtable.games.through_the_ages.rules.civil.take_cost` reads besides the row:
        the civilization's effects (fx), its wonders and face-down ones, whether it replaced a
        leader (Taj Mahal) and, only when a card in play changes take costs, its buildings;
        when those are unchanged and one or two slots changed, only those are priced."""
        civ = s.civs[seat]
        key = (
            f,
            len(civ.wonders) + len(civ.ruins),
            civ.replaced_leader,
            tuple(civ.workers) if "take_from_row" in f.mods else None,
        )
        cards = s.row
        kept = self._row_costs[seat]
        if kept is not None and kept[0] == key:
            was = kept[1]
            if was == cards:
                return kept[2]
            # a card taken empties its slot: only the changed slots are priced
            changed = [*compress(_SLOTS, map(ne, cards, was))]
            if len(changed) <= 2 and len(was) == len(cards):
                b = bytearray(kept[2])
                for slot in changed:
                    b[slot] = civil.take_cost(s, civ, slot, f) if cards[slot] >= 0 else 0
                costs = bytes(b)
                self._row_costs[seat] = (key, cards[:], costs)
                return costs
        costs = bytes(_take_costs(s, civ, f))
        self._row_costs[seat] = (key, cards[:], costs)
        return costs

    def _pending2(self, s: TTAState, seat: int, kind: int) -> bytearray:
        """The politics block's pending decision of the military part: its kind, numbers,
        the pact side offered and the other seat it names."""
        n = self.players
        b = bytearray(len(self._no_pending2))
        name = PENDING_KINDS[kind] if 0 <= kind < len(PENDING_KINDS) else ""
        b[_PENDING2.index(name) if name in _PENDING2 else len(_PENDING2) - 1] = 1
        i = len(_PENDING2)
        p = s.pending
        other = -1
        if kind == P_DEFEND:  # attack, defense, cards used; the attacker
            b[i : i + 3] = bytes(map(_u8, p[4:7]))
            other = p[2]
        elif kind == P_BID:  # the high bid and bidder
            b[i + 3] = _u8(p[2])
            other = p[3]
        elif kind == P_SEND:  # bid, force, units sent
            b[i + 4] = _u8(p[2])
            b[i + 5] = _u8(events.force(s))
            b[i + 6] = _u8(len(p) - 5)
        elif kind == P_AGREEMENT:
            b[i + 7] = _u8(p[1])
        i += len(_PENDING_NUMBERS)
        if kind == P_ACCEPT:  # the side offered and the offerer
            b[i] = 1 if "AB"[p[4]] == "A" else 2
            other = p[2]
        i += 1
        if other >= 0:
            b[i + (other - seat) % n] = 1
        return b

    def _treaties(self, s: TTAState, seat: int) -> list[bytearray]:
        """Per civilization (relative order), the end of its politics block: the pacts it is
        party to (per card: 1 side A, 2 side B) and the wars it declared (per target)."""
        n = self.players
        m = PACTS.size
        tails = [bytearray(m + n) for _ in range(n)]
        pacts = s.pacts
        pos = PACTS.pos
        for x in range(0, len(pacts), 4):
            card = pos[pacts[x]]
            tails[(pacts[x + 2] - seat) % n][card] = 1  # type: ignore[index]
            tails[(pacts[x + 3] - seat) % n][card] = 2  # type: ignore[index]
        wars = s.wars
        for x in range(0, len(wars), 3):
            tails[(wars[x + 1] - seat) % n][m + (wars[x + 2] - seat) % n] += 1
        return tails

    def _civ_entry(self, civ: Civ, fields: tuple[Any, ...], old: _Entry | None) -> _Entry:
        """``civ``'s entry in :meth:`encode_state`'s memory: its snapshot, civ block, the start
        of its politics block (resigned, face-down events, colonies, ruins), its effects
        (:func:`~civtable.games.through_the_ages.rules.effects.fx`), ratings and card parts
        (mirroring :meth:`_civ` on :func:`~civtable.games.through_the_ages.view.civ_public`).

        What ``old`` (the entry of the civilization's previous snapshot) holds is reused when
        the fields it depends on are unchanged: the effects depend on the government, leader,
        specials, wonders, colonies and pact sides (the key of ``effects.fx``); the ratings
        on those, the workers, face-down wonders, Homer, the tactic and ``xculture`` (the key
        of ``board.ratings_memo``); the cards in play and build costs on the effects, the
        technologies and, when a card in play makes build costs depend on buildings
        (``Fx.bcost`` is None), the workers; the workers on each technology on those two; the
        hand and develop costs on the effects, the hand and, when a card in play modifies
        develop costs, the workers (buildings).
        """
        snap = (*fields[:_NSCALARS], *map(list.copy, fields[_NSCALARS:]))
        f: effects.Fx | None = None
        fvals: tuple[int, int, int, int, int] | None = None
        rates: tuple[int, int, int, int, int, int] | None = None
        played: tuple[bytes, bytes] | None = None
        workers: bytes | None = None
        hand: tuple[bytes, bytes] | None = None
        stocks: tuple[int, int] | None = None
        if old is not None:
            was = old[0]
            if was[_CUBES] == snap[_CUBES]:
                stocks = old[10]
            if (
                was[_GOV] == snap[_GOV]
                and was[_LEADER] == snap[_LEADER]
                and was[_SPECIAL] == snap[_SPECIAL]
                and was[_WONDERS] == snap[_WONDERS]
                and was[_COLONIES] == snap[_COLONIES]
                and was[_PSIDE] == snap[_PSIDE]
            ):
                f = old[3]
                fvals = old[7]
                same_workers = was[_WORKERS] == snap[_WORKERS]
                if (
                    same_workers
                    and was[_RUINS] == snap[_RUINS]
                    and was[_HOMER] == snap[_HOMER]
                    and was[_TACTIC] == snap[_TACTIC]
                    and was[_XCULTURE] == snap[_XCULTURE]
                ):
                    rates = old[4]
                if was[_DEVELOPED] == snap[_DEVELOPED]:
                    if same_workers or f.bcost is not None:
                        played = old[5]
                    if same_workers:
                        workers = old[8]
                if was[_HAND] == snap[_HAND] and (
                    same_workers or "develop_technology" not in f.mods
                ):
                    hand = old[6]
        if f is None or fvals is None:
            f, fvals = self._effects(civ)
        if rates is None:
            rates = self._rates(civ)
        if played is None:
            played = self._played_of(civ, f, snap)
        if workers is None:
            workers = self._workers_of(civ, snap)
        if hand is None:
            hand = self._hand_of(civ, f, snap)
        if stocks is None:
            stocks = self._stocks(civ)
        culture_rate, science_rate, strength, happy, food, res = rates
        yellow = civ.yellow
        blue = civ.blue
        if 0 <= yellow < len(_BY_YELLOW):
            required, pop_cost, consumption = _BY_YELLOW[yellow]
        else:
            required = board.happiness_required(yellow)
            pop_cost, consumption = board.pop_cost(yellow), board.consumption(yellow)
        ints = (
            civ.culture,
            civ.science,
            culture_rate,
            science_rate,
            strength,
            happy,
            required - happy if required > happy else 0,
            yellow,
            blue,
            civ.pool,
            stocks[0],
            stocks[1],
            food,
            res,
            civ.wip_stages,
            civ.ca,
            civ.ma,
            civ.temp_ma,
            fvals[0],
            fvals[1],
            len(civ.mhand),
            pop_cost,
            consumption,
            _CORRUPTION[blue] if 0 <= blue < len(_CORRUPTION) else board.corruption(blue),
            fvals[2],
            fvals[3],
            fvals[4],
            1 if civ.tactic_own else 0,
            *civ.cubes,
        )
        try:
            head = bytes(ints)
        except ValueError:  # culture and science may pass HIGH
            head = bytes(map(_u8, ints))
        block = b"".join(
            (
                head,
                played[0],
                workers,
                WONDERS.hot[civ.wip],
                hand[0],
                TACTICS.hot[civ.tactic],
                played[1],
                hand[1],
            )
        )
        if civ.flags & F_RESIGNED or civ.secret or civ.colonies or civ.ruins:
            pol = bytearray(_PCIV_OWN)
            pol[0] = 1 if civ.flags & F_RESIGNED else 0
            pol[1] = _u8(len(civ.secret))
            for card in civ.colonies:
                pol[2 + TERRITORIES.pos[card]] += 1  # type: ignore[operator]
            for card in civ.ruins:
                pol[2 + TERRITORIES.size + WONDERS.pos[card]] += 1  # type: ignore[operator]
            pblock = bytes(pol)
        else:
            pblock = _NO_POLITICS
        return (
            snap,
            block,
            pblock,
            f,
            rates,
            played,
            hand,
            fvals,
            workers,
            self._no_pol_tail if pblock is _NO_POLITICS else pblock + self._no_treaties,
            stocks,
        )

    # --- the parts of a civilization's entry, rebuilt when their inputs changed (both paths:
    # _civ_entry here, the C assembly's own rebuild in _tta_fast.c) ---------------------------
    @staticmethod
    def _effects(civ: Civ) -> tuple[effects.Fx, tuple[int, int, int, int, int]]:
        """The civilization's effects and what the civ block shows of them: civil and military
        actions, hand limits, urban limit."""
        f = effects.fx(civ)
        return f, (f.ca, f.ma, f.ca + f.chand, f.ma + f.mhand, board.urban_limit(civ))

    @staticmethod
    def _rates(civ: Civ) -> tuple[int, int, int, int, int, int]:
        """Culture and science rates, strength, happiness, food and resource production."""
        return (*board.ratings_memo(civ), *board.production(civ))

    @staticmethod
    def _stocks(civ: Civ) -> tuple[int, int]:
        """Food and resources in stock (from the blue cubes)."""
        return board.stock(civ, False), board.stock(civ, True)

    def _played_of(self, civ: Civ, f: effects.Fx, snap: tuple[Any, ...]) -> tuple[bytes, bytes]:
        """:meth:`_played`, kept by the effects, the technologies in play and, when build
        costs depend on buildings (``f.bcost`` is None), the workers (``snap``: the
        civilization's fields)."""
        key = (f, *snap[_DEVELOPED])
        if f.bcost is None:
            key += (-1, *snap[_WORKERS])
        return _kept(self._played_memo, key, self._played, civ, f)

    def _workers_of(self, civ: Civ, snap: tuple[Any, ...]) -> bytes:
        """:meth:`_workers`, kept by the technologies in play and the workers."""
        key = (*snap[_DEVELOPED], -1, *snap[_WORKERS])
        return _kept(self._workers_memo, key, self._workers, civ)

    def _hand_of(self, civ: Civ, f: effects.Fx, snap: tuple[Any, ...]) -> tuple[bytes, bytes]:
        """:meth:`_hand`, kept by the effects, the hand and, when a card in play modifies
        develop costs, the workers (buildings)."""
        key = (f, *snap[_HAND])
        if "develop_technology" in f.mods:
            key += (-1, *snap[_WORKERS])
        return _kept(self._hand_memo, key, self._hand, civ, f)

    @staticmethod
    def _played(civ: Civ, f: effects.Fx) -> tuple[bytes, bytes]:
        """The civ block's cards in play and the build cost of each technology in play."""
        play = bytearray(IN_PLAY.size)
        pos = IN_PLAY.pos
        developed = dict.fromkeys(civ.developed)  # the view's dicts keep each card once
        for card in (*developed, civ.gov, *(c for c in civ.special if c >= 0), *civ.wonders):
            play[pos[_CARD_IDX[card]]] += 1  # type: ignore[index]
        if civ.leader >= 0:
            play[pos[civ.leader]] += 1  # type: ignore[index]
        costs = bytearray(TECHS.size)
        tech = TECHS.pos
        by_slot = f.bcost  # board.building_cost's own shortcut, when it applies
        for card in developed:
            slot = _SLOT[card]
            if slot >= 0:
                costs[tech[card]] = _u8(  # type: ignore[index]
                    by_slot[slot] if by_slot is not None else board.building_cost(civ, slot, f)
                )
        return bytes(play), bytes(costs)

    @staticmethod
    def _workers(civ: Civ) -> bytes:
        """The civ block's workers on each technology in play."""
        b = bytearray(TECHS.size)
        slots = civ.workers
        tech = TECHS.pos
        for card in civ.developed:
            # ValueError past 255: the reference path
            b[tech[card]] = slots[_CSLOT[card]]  # type: ignore[index]
        return bytes(b)

    @staticmethod
    def _hand(civ: Civ, f: effects.Fx) -> tuple[bytes, bytes]:
        """The civ block's civil hand and the cost to develop each technology in it."""
        hand = bytearray(CIVIL.size)
        costs = bytearray(TECHS.size)
        pos, tech = CIVIL.pos, TECHS.pos
        for card in civ.hand:
            hand[pos[card]] += 1  # type: ignore[index]
            if _TECH[card]:
                # (ValueError: as above)
                costs[tech[card]] = civil.develop_cost(civ, CARDS[card], f)  # type: ignore[index]
        return bytes(hand), bytes(costs)

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
