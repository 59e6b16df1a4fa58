"""Action ids of 7 Wonders: small fixed integers, one table for every player count.

A main-step decision is one of (SW-4.1, SW-8.8):

=================  =========================================================
``BUILD + t``      build card type ``t`` from the hand (paying, or free by chain)
``STAGE + t``      use card ``t`` as the marker of the next wonder stage
``DISCARD + t``    discard card ``t`` for 3 coins
``FREE + t``       build card ``t`` with Olympia A's free build (SW-10.8)
``HALI + t``       Halikarnassus: build card ``t`` from the discard pile (SW-10.11)
``HALI_PASS``      Halikarnassus: take nothing
``PAY + l*15 + r`` pay ``l`` coins to the left and ``r`` to the right neighbour
=================  =========================================================

``PAY`` is asked only after a ``BUILD``/``STAGE`` that has several payment options (a choice of
neighbours or prices); with one option the payment is made automatically.
"""

from __future__ import annotations

from civtable.games.seven_wonders.catalog import MAX_PAY_ONE_SIDE, N_CARDS

BUILD = 0
STAGE = BUILD + N_CARDS
DISCARD = STAGE + N_CARDS
FREE = DISCARD + N_CARDS
HALI = FREE + N_CARDS
HALI_PASS = HALI + N_CARDS
PAY = HALI_PASS + 1
PAY_BASE = MAX_PAY_ONE_SIDE + 1
ACTION_SPACE = PAY + PAY_BASE * PAY_BASE

# Commitment kinds.
K_BUILD, K_STAGE, K_DISCARD = 1, 2, 3
# Free-build reasons.
PAID, CHAIN, OLYMPIA = 0, 1, 2


def pay_action(left: int, right: int) -> int:
    """The id of paying ``left`` coins to the left and ``right`` to the right neighbour."""
    return PAY + left * PAY_BASE + right


def decode_pay(action: int) -> tuple[int, int]:
    """Inverse of :func:`pay_action`."""
    return divmod(action - PAY, PAY_BASE)


def kind_of(action: int) -> str:
    """The family of an action id: build, stage, discard, free, hali, hali_pass or pay."""
    if action < STAGE:
        return "build"
    if action < DISCARD:
        return "stage"
    if action < FREE:
        return "discard"
    if action < HALI:
        return "free"
    if action < HALI_PASS:
        return "hali"
    if action == HALI_PASS:
        return "hali_pass"
    return "pay"


def card_of(action: int) -> int:
    """The card type an action names (``-1`` for pass and pay)."""
    if action < HALI_PASS:
        return action % N_CARDS
    return -1
