"""Action B, the offering to the gods (DEUS-10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from civtable.games.deus.catalog import CARDS, GODS, REFILL_TO
from civtable.games.deus.rules.effects import draw, start_gain_choice
from civtable.games.deus.rules.log import event
from civtable.games.deus.state import OFFERING

if TYPE_CHECKING:
    from civtable.games.deus.state import DeusState


def start(state: DeusState, s: int, t: int) -> bool:
    """DEUS-10.1 / 10.2 / AMB-24: the first card chosen is the top card, which names the god.
    Returns True if a decision is pending."""
    hand = state.hands[s] = state.hands[s][:]  # a new row (DeusState.branch)
    hand.remove(t)
    state.offer = [t]
    if not state.hands[s]:
        return finish(state, s)
    state.phase = OFFERING
    return True


def add(state: DeusState, s: int, t: int) -> bool:
    """DEUS-10.1: one more card under the top card."""
    hand = state.hands[s] = state.hands[s][:]  # a new row (DeusState.branch)
    hand.remove(t)
    state.offer = [*state.offer, t]  # a new list (DeusState.branch)
    if not state.hands[s]:
        return finish(state, s)
    return True


def finish(state: DeusState, s: int) -> bool:
    """DEUS-10.2 .. 10.5: discard (top card last), the god's power with strength N, one piece of
    the god's type back (DEUS-10.4), refill to 5 then Minerva's extra cards, hand limit 10."""
    offer = state.offer
    n = len(offer)
    god = GODS[CARDS[offer[0]].color]
    # a new list, not an extension: look-ahead copies share the discard pile (DeusState.branch)
    state.discard = [*state.discard, *offer[1:], offer[0]]
    state.last_offer = [s, n, offer[0]]
    state.offer = []
    piece = -1
    if god.piece >= 0 and state.personal[s][god.piece] > 0:  # DEUS-10.4
        personal = state.personal[s] = state.personal[s][:]  # new rows (DeusState.branch)
        onboard = state.onboard[s] = state.onboard[s][:]
        personal[god.piece] -= 1
        onboard[god.piece] += 1
        piece = god.piece
    state.gold[s] += n * god.gold  # DEUS-10.3.2 Neptune, 10.3.4 Vesta
    state.vp[s] += n * god.vp  # DEUS-10.3.4 Mars
    h = len(state.hands[s])
    drawn = draw(state, s, max(0, REFILL_TO - h) + n * god.extra_cards)  # DEUS-10.5, 10.3.1
    if state.log is not None:  # the arguments are built only for the log
        event(
            state,
            "offer",
            player=s,
            god=god.color,
            top=CARDS[offer[0]].id,  # the top card of the discard pile: public (DEUS-10.1)
            cards=n,
            gold=n * god.gold,
            vp=n * god.vp,
            piece=piece,
            drawn=drawn,
        )
    res, pieces = n * god.resource_choice, n * god.piece_choice  # Ceres, Jupiter
    if res or pieces:
        return start_gain_choice(state, res, pieces)
    state.phase = -1
    return False
