"""Build exact Deus positions for the scenario and rule tests (deus.md section T).

A position starts as a real setup on a reference board (``REF2`` by default, any player count)
and is then edited through plain fields: pieces on regions, stocks, hands, columns. Nothing here
decides legality or resolves anything; the tests go through the public API (``legal_actions``,
``apply``, ``result``) or call one named rule function.

Region arguments are ids like ``"S0.SW"``, pieces are ``civ sci ship army prod temple``, cards
are spec ids (``"BRN-09"``) or keys (``"brewery_2"``)::

    s = new(2)
    put(s, 0, "S0.SW", "prod")
    hand(s, 0, "GRN-01")
    s.apply(0, build_action("GRN-01"))
"""

from __future__ import annotations

from civtable import games
from civtable.core.rng import Rng
from civtable.games.deus import actions as act
from civtable.games.deus.catalog import (
    LAYOUTS,
    P_INDEX,
    RES_INDEX,
    TEMPLE_BIT,
    build_board,
    card_by_id,
)
from civtable.games.deus.rules import setup
from civtable.games.deus.state import DeusState

GAME = games.get("deus")


def new(players: int = 2, layout: str = "REF2", seed: int = 0, **options: object) -> DeusState:
    """A fresh setup on reference layout ``layout`` with ``players`` seats."""
    opts = setup.check_options(players, options)
    board = build_board(LAYOUTS[layout])
    return setup.setup_on_board(GAME, board, players, seed, opts, Rng(seed))


def changed(state: DeusState) -> None:
    """Drop the legal-action cache after a manual edit."""
    state._legal.clear()


def region(state: DeusState, rid: str) -> int:
    """Region index of an id."""
    return state.board.index(rid)


def bit(piece: str) -> int:
    """Mask bit of a piece name."""
    return TEMPLE_BIT if piece == "temple" else 1 << P_INDEX[piece]


def put(state: DeusState, seat: int, rid: str, *pieces: str) -> None:
    """Put pieces of ``seat`` on region ``rid`` (no legality check, no attack check)."""
    r = region(state, rid)
    state.owner[r] = seat
    for p in pieces:
        state.mask[r] |= bit(p)
    changed(state)


def card(card_id: str) -> int:
    """Card type index of a spec id or key."""
    return card_by_id(card_id).index


def hand(state: DeusState, seat: int, *card_ids: str) -> None:
    """Replace ``seat``'s hand."""
    state.hands[seat] = [card(c) for c in card_ids]
    changed(state)


def column(state: DeusState, seat: int, color: int, *card_ids: str) -> None:
    """Replace one column of ``seat``'s tableau (bottom card first)."""
    state.cols[seat][color] = [card(c) for c in card_ids]
    changed(state)


def resources(state: DeusState, seat: int, **amounts: int) -> None:
    """Set some of ``seat``'s resources (``wood=1, stone=0``)."""
    for name, n in amounts.items():
        state.res[seat][RES_INDEX[name]] = n
    changed(state)


def pieces_on_board(state: DeusState, seat: int, **counts: int) -> None:
    """Set ``seat``'s pieces on its player board."""
    for name, n in counts.items():
        state.onboard[seat][P_INDEX[name]] = n
    changed(state)


def personal(state: DeusState, seat: int, **counts: int) -> None:
    """Set ``seat``'s personal supply."""
    for name, n in counts.items():
        state.personal[seat][P_INDEX[name]] = n
    changed(state)


def build_action(card_id: str) -> int:
    """The BUILD action of a card."""
    return act.BUILD + card(card_id)


def offer_action(card_id: str) -> int:
    """The OFFER action (this card on top)."""
    return act.OFFER + card(card_id)


def add_action(card_id: str) -> int:
    """The ADD action."""
    return act.ADD + card(card_id)


def region_action(state: DeusState, rid: str) -> int:
    """The REGION action of region ``rid``."""
    return act.REGION + region(state, rid)


def edge_action(state: DeusState, rid: str) -> int:
    """The EDGE (3 VP) action of region ``rid``."""
    return act.EDGE + region(state, rid)


def ids(state: DeusState, regions: list[int]) -> set[str]:
    """Region ids of indices."""
    return {state.board.ids[r] for r in regions}


def legal_regions(state: DeusState, seat: int) -> tuple[set[str], set[str]]:
    """(normal, edge-for-3-VP) region ids among ``seat``'s legal actions."""
    normal, edge = set(), set()
    for a in state.legal_actions(seat):
        kind, arg = act.split(a)
        if kind == "region":
            normal.add(state.board.ids[arg])
        elif kind == "edge":
            edge.add(state.board.ids[arg])
    return normal, edge
