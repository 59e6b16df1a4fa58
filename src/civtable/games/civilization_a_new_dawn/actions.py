"""Integer action ids (CIV-26.4): one fixed table for every player count.

A turn is a short sequence of decisions (the pending frame on top of ``state.pending`` says which
question is asked); each answer is one id from these ranges:

====================  =========  =============================================================
range                 ids        meaning (depends on the decision)
====================  =========  =============================================================
``DONE``              0          stop / decline / skip an optional step
``OPT + k``           1..10      the k-th option of a small choice (mode, count, caravan, …)
``TYPE + t``          11..15     a focus type (card in the row, trade-token destination)
``SLOT + k``          16..20     a slot 1..5 of the focus row (choose the card to resolve)
``RES + r``           21..24     a resource type
``CARD + c``          25..44     a focus card (upgrade)
``NW + n``            45..52     a natural-wonder token
``WDECK + w``         53..56     the face-up wonder of a wonder type
``CSC + c``           57..64     a city-state (diplomacy card)
``PCARD + k``         65..68     a player diplomacy card kind
``BARB + b``          69..77     a barbarian letter A..I
``SPACE + s``         78..245    a map space (index into the board)
``MAPPOS + k``        246..      the k-th legal position of a map tile (standard map set-up)
====================  =========  =============================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.civilization_a_new_dawn.hexes import MAX_SPACES

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.state import CivState

DONE = 0
OPT = 1
TYPE = 11
SLOT = 16
RES = 21
CARD = 25
NW = 45
WDECK = 53
CSC = 57
PCARD = 65
BARB = 69
SPACE = 78
MAPPOS = SPACE + MAX_SPACES
MAX_POSITIONS = 64  # legal positions of one tile orientation offered (CIV-4.6; at most ~10 seen)
ACTION_SPACE = MAPPOS + MAX_POSITIONS


def describe(state: CivState, seat: int, action: int) -> str:
    """A readable label for ``action`` in the current decision."""
    from civtable.games.civilization_a_new_dawn.rules.turn import describe_action

    return describe_action(state, seat, action)
