"""Pending-frame kinds and the registries of decision and automatic handlers.

A frame is a list of ints ``[kind, seat, ...params]`` on ``state.pending`` (top = last). Kinds
below 100 are automatic steps (run by :func:`.turn.advance`); kinds from 100 are decisions owned
by ``seat``: ``legal(state, frame) -> list[int]`` and ``apply(state, frame, action)``; the apply
function pops or edits its own frame. The modules of ``rules/`` register their handlers here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

Frame = list[int]
LegalFn = Callable[["CivState", Frame], list[int]]
ApplyFn = Callable[["CivState", Frame, int], None]
AutoFn = Callable[["CivState", Frame], None]
DescFn = Callable[["CivState", Frame, int], str]

# automatic steps
T_START = 1
T_END = 2
T_RESET = 3
R_BEGIN = 4
R_STEPS = 5
S_STEP = 6
C_RESOLVE = 7
E_SPAWN = 8
E_MOVE = 9
E_STACK = 10
E_TRADE = 11
T_AFTER_CARD = 12
X_EMBASSY = 13
T_CHOOSE_SETUP = 14

# decisions
D_START = 100
D_CHOOSE = 101
D_SPEND = 102
D_MODE = 103
D_PLACE = 104
D_DP_FROM = 105
D_DP_TO = 106
D_MASSMEDIA = 107
D_UPGRADE = 108
D_TRADE_TOKEN = 109
D_GAIN_RES = 110
D_NUKE = 111
D_CARAVAN = 112
D_STEP = 113
D_PCARD = 114
D_EXCH_GIVE = 115
D_EXCH_GET = 116
D_CAPITALISM = 117
D_CITY = 118
D_WDECK = 119
D_WPAY = 120
D_WCITY = 121
D_REINFORCE = 122
D_ATTACK = 123
D_ATT_SPEND = 124
D_DEF_SPEND = 125
D_CONQLIB = 126
D_RAID = 127
D_WMOVE = 128
D_DISCARD = 129
D_STACKPICK = 130
D_RECLAIM = 131
D_EMBASSY = 132
D_PYRAMIDS = 133
D_PORCELAIN = 134
D_POTALA = 135
D_SWAP1 = 136
D_SWAP2 = 137
D_ORACLE = 138
D_SEOUL_FROM = 139
D_SEOUL_TO = 140
D_HG = 141
D_FC = 142
D_MAPTILE = 143
D_MAPORIENT = 144
D_MAPPOS = 145
D_GENEVA_RET = 146
D_GENEVA_TAKE = 147
D_EIFFEL1 = 148
D_EIFFEL2 = 149
D_EIFFEL_VICTIM = 150
D_GZ_MOVE = 151
D_AMERICA = 152
D_CSCARD = 153

NAMES: dict[int, str] = {}
DECISIONS: dict[int, tuple[LegalFn, ApplyFn]] = {}
AUTO: dict[int, AutoFn] = {}
DESCRIBE: dict[int, DescFn] = {}


def decision(kind: int, name: str) -> Callable[[LegalFn], LegalFn]:
    """Register the legal-actions function of a decision kind (apply via :func:`applies`)."""

    def deco(fn: LegalFn) -> LegalFn:
        NAMES[kind] = name
        DECISIONS[kind] = (fn, DECISIONS.get(kind, (fn, _missing))[1])
        return fn

    return deco


def applies(kind: int) -> Callable[[ApplyFn], ApplyFn]:
    """Register the apply function of a decision kind."""

    def deco(fn: ApplyFn) -> ApplyFn:
        DECISIONS[kind] = (DECISIONS[kind][0], fn)
        return fn

    return deco


def auto(kind: int, name: str) -> Callable[[AutoFn], AutoFn]:
    """Register an automatic step."""

    def deco(fn: AutoFn) -> AutoFn:
        NAMES[kind] = name
        AUTO[kind] = fn
        return fn

    return deco


def _missing(state: CivState, frame: Frame, action: int) -> None:  # pragma: no cover
    raise NotImplementedError(f"no apply for frame kind {frame[0]}")
