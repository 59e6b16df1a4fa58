"""The Deus action-id table: one fixed integer range per kind of decision.

A turn is a short sequence of decisions (DEUS-6.2): the main choice (construct a card, start an
offering, or build blind), then as needed a payment plan, a region, more offered cards, and the
choices that card effects ask for. The ranges are the same for every player count, so
``ACTION_SPACE`` is constant.

=========  =====================================================================
``BUILD``  + card type: construct that card from the hand (DEUS-7, DEUS-8)
``OFFER``  + card type: start an offering, this card on top = the god (DEUS-10.2)
``ADD``    + card type: add a card to the offering being made (DEUS-10.1)
``BLIND``  + card type: blind-build this card (variant DEUS-21.3)
``DONE``   finish an offering / stop buying / stop moving armies
``PAY``    + code: payment plan, code = sum of g_r * B**r, g_r = units of resource r
           replaced by 4 gold (DEUS-7.3.1), B = largest printed units + 1
``REGION`` + region: place a piece / pick a region target of an effect
``EDGE``   + region: place a piece on an edge region for 3 VP (DEUS-7.4.7)
``RES``    + resource: take (Ceres, DEUS-10.3.3) or buy (Galley) one resource
``PIECE``  + piece type: move one piece from personal supply to the board
``AMOUNT`` + k: sell k lots (DEUS-13.2)
``CARD``   + card type: the tableau card a Laboratory activates (DEUS-14.4)
``COLUMN`` + colour: the column of a blind-built card (DEUS-21.3)
=========  =====================================================================
"""

from __future__ import annotations

from civtable.games.deus.catalog import (
    MAX_COST_UNITS,
    MAX_REGIONS,
    MAX_SUPPLY,
    NCARDS,
    PIECES,
    RESOURCES,
)

PAY_BASE = MAX_COST_UNITS + 1
PAY_CODES: int = PAY_BASE ** len(RESOURCES)

BUILD = 0
OFFER = BUILD + NCARDS
ADD = OFFER + NCARDS
BLIND = ADD + NCARDS
DONE = BLIND + NCARDS
PAY = DONE + 1
REGION = PAY + PAY_CODES
EDGE = REGION + MAX_REGIONS
RES = EDGE + MAX_REGIONS
PIECE = RES + len(RESOURCES)
AMOUNT = PIECE + len(PIECES)
CARD = AMOUNT + MAX_SUPPLY + 1
COLUMN = CARD + NCARDS
ACTION_SPACE: int = COLUMN + len(PIECES)

KINDS: tuple[tuple[str, int, int], ...] = (
    ("build", BUILD, OFFER),
    ("offer", OFFER, ADD),
    ("add", ADD, BLIND),
    ("blind", BLIND, DONE),
    ("done", DONE, PAY),
    ("pay", PAY, REGION),
    ("region", REGION, EDGE),
    ("edge", EDGE, RES),
    ("res", RES, PIECE),
    ("piece", PIECE, AMOUNT),
    ("amount", AMOUNT, CARD),
    ("card", CARD, COLUMN),
    ("column", COLUMN, ACTION_SPACE),
)


#: ``SPLIT[action]`` = ``(kind, argument)`` for every action id (:func:`split` without its
#: range check, for ids already known to be legal)
SPLIT: tuple[tuple[str, int], ...] = tuple(
    (name, a - lo) for name, lo, hi in KINDS for a in range(lo, hi)
)


def split(action: int) -> tuple[str, int]:
    """``(kind, argument)`` of an action id, e.g. ``split(REGION + 3) == ("region", 3)``."""
    if 0 <= action < ACTION_SPACE:
        return SPLIT[action]
    raise ValueError(f"action {action} outside 0..{ACTION_SPACE - 1}")


def pay_code(replaced: tuple[int, ...] | list[int]) -> int:
    """Payment code of ``replaced[r]`` units of each resource paid with gold instead."""
    code = 0
    for r in reversed(range(len(RESOURCES))):
        code = code * PAY_BASE + replaced[r]
    return code


def pay_units(code: int) -> list[int]:
    """Inverse of :func:`pay_code`."""
    out = []
    for _ in RESOURCES:
        out.append(code % PAY_BASE)
        code //= PAY_BASE
    return out
