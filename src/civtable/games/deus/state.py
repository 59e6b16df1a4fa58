"""The Deus state: plain ints and small lists, cheap to copy.

The map is two lists over regions: ``owner[r]`` (seat or -1; a region never has two owners,
DEUS-7.4.4) and ``mask[r]`` (bit ``k`` = a piece of type ``k``, bit ``TEMPLE`` = a temple;
DEUS-7.4.3 one of each type). Villages keep their VP and an attacked flag. Each seat has gold,
VP, resources, pieces on the player board and in the personal supply, a hand, and the six
columns of its tableau (bottom card first, DEUS-5.2). The decision in progress is ``phase`` plus
the small int list ``ctx``; ``queue`` holds the cards of a column activation still to resolve,
``offer`` the cards of an offering being chosen. The rules that change the state live in
``rules/``; this module only stores, copies and serializes.
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON, CachedLegalState, Game, Result
from civtable.core.errors import SerializationError
from civtable.core.rng import Rng
from civtable.games.deus.catalog import Board, build_board, make_board

# Phases (what ``ctx`` holds).
(
    MAIN,  # the active seat's main choice
    PICK,  # free-start variant: every seat picks its starting pieces (DEUS-21.1)
    COLUMN_PH,  # blind build: choose the column; ctx = [card]
    PAY_PH,  # payment plan; ctx = [card, column, blind]
    PLACE,  # region for the piece; ctx = [card, column, blind]
    OFFERING,  # adding cards to an offering; offer = cards so far
    GAIN,  # resources / pieces of one's choice; ctx = [res_left, pieces_left, source]
    TARGET,  # a region target of an effect; ctx = [card, purpose, *moved]
    SELL_PH,  # how many lots to sell; ctx = [card, max]
    BUY_PH,  # Galley purchases; ctx = [card, bought]
    LAB,  # Laboratory target; ctx = [card]
    OVER,
) = range(12)
PHASE_NAMES = (
    "main",
    "pick_pieces",
    "blind_column",
    "pay",
    "place",
    "offering",
    "gain_choice",
    "target",
    "sell",
    "buy",
    "laboratory",
    "over",
)
#: a blind-built card is stored in its column as card + BLIND_MARK (DEUS-21.3)
BLIND_MARK = 1000

_FIELDS = (
    "players",
    "seed",
    "options",
    "owner",
    "mask",
    "vvp",
    "vatt",
    "supply",
    "temples",
    "deck",
    "discard",
    "gold",
    "vp",
    "res",
    "onboard",
    "personal",
    "hands",
    "cols",
    "blind_used",
    "picks",
    "first",
    "cur",
    "round",
    "turns",
    "end_round",
    "phase",
    "ctx",
    "queue",
    "offer",
    "last_offer",
)


class DeusState(CachedLegalState):
    """A Deus position (see the module docstring for the fields)."""

    __slots__ = (*_FIELDS, "game", "board", "rng", "history", "log", "_legal", "open_seat")

    game: Game
    board: Board
    rng: Rng
    players: int
    seed: int
    options: JSON
    history: list[tuple[int, int]]
    log: list[JSON] | None
    _legal: dict[int, list[int]]
    #: the seat whose move in progress may still be withdrawn (-1: none); not part of the
    #: position (not serialized, not hashed): see :meth:`move_open`
    open_seat: int
    owner: list[int]
    mask: list[int]
    vvp: list[int]
    vatt: list[int]
    supply: list[int]
    temples: int
    deck: list[int]
    discard: list[int]
    gold: list[int]
    vp: list[int]
    res: list[list[int]]
    onboard: list[list[int]]
    personal: list[list[int]]
    hands: list[list[int]]
    cols: list[list[list[int]]]
    blind_used: list[int]
    picks: list[list[int]]
    first: int
    cur: int
    round: int
    turns: list[int]
    end_round: int
    phase: int
    ctx: list[int]
    queue: list[int]
    offer: list[int]
    last_offer: list[int]

    def __init__(self, game: Game, board: Board) -> None:
        self.game = game
        self.board = board
        self.history = []
        self.log = None
        self._legal = {}
        self.open_seat = -1

    # --- decisions -----------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """The active seat; all seats still picking in the free-start variant; none at the end."""
        if self.phase == OVER:
            return ()
        if self.phase == PICK:
            k = setup.pick_target(self)
            return tuple(s for s in range(self.players) if sum(self.picks[s]) < k)
        return (self.cur,)

    def owes_decision(self, seat: int) -> bool:
        """Faster than scanning :meth:`to_move`."""
        if self.phase == PICK:
            return seat in self.to_move()
        return self.phase != OVER and seat == self.cur

    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids (cached until the state changes)."""
        cached = self._legal.get(seat)
        if cached is None:
            ph = self.phase
            owes = seat in self.to_move() if ph == PICK else ph != OVER and seat == self.cur
            cached = turn.legal_actions(self, seat) if owes else []  # owes_decision, inline
            self._legal[seat] = cached
        return cached[:]

    def move_open(self, seat: int) -> bool:
        """Is ``seat`` in the middle of a move it may still withdraw (the server's tentative
        steps)? Nothing hidden may have been revealed since the move began:

        * a construction (DEUS-7, DEUS-8): the card chosen, then its payment (DEUS-7.3), its
          region (DEUS-7.4, DEUS-8.4) and the choices of the column's effects (DEUS-7.6), up to
          the first card drawn (School, University, DEUS-14.6; the empty-hand draw, DEUS-7.7);
        * a blind construction (DEUS-21.3): the card, its column, its region, the same way;
        * an offering (DEUS-10.1): the top card, then the cards added under it; finishing it
          refills the hand (DEUS-10.5), so the choices after it (Ceres, Jupiter) stay open only
          when nothing was drawn;
        * the secret picks of the free start (DEUS-21.1), until the seat's last pick.

        Barbarian attacks (DEUS-9), steals and army moves are public and follow from the choices,
        so they do not close a move; a card draw or a reshuffle of the discard pile does
        (:func:`civtable.games.deus.rules.effects.draw`), and so does the end of the action.
        """
        if self.phase == PICK:
            return 0 < sum(self.picks[seat]) < setup.pick_target(self)
        return self.open_seat == seat and self.phase not in (MAIN, OVER) and seat == self.cur

    def describe(self, seat: int, action: int) -> str:
        """A readable label of ``action`` for ``seat`` now."""
        return turn.describe(self, seat, action)

    def _apply(self, seat: int, action: int) -> None:
        self._legal = {}
        turn.apply(self, seat, action)

    # --- outcome -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once the final round is over (DEUS-18.2)."""
        return self.phase == OVER

    def result(self) -> Result:
        """Final scores (DEUS-19); a projection if the game is not over."""
        return scoring.result(self)

    # --- information ---------------------------------------------------------------------
    def view(self, seat: int | None, *, labels: bool = True) -> JSON:
        """What ``seat`` may know (DEUS-20)."""
        return views.view(self, seat, labels=labels)

    def determinize(self, seat: int, rng: Rng) -> DeusState:
        """Hidden cards re-dealt (DEUS-20)."""
        return views.determinize(self, seat, rng)

    # --- copying and serialization -------------------------------------------------------
    def copy(self) -> DeusState:
        """An independent copy (lists sliced, board and catalog shared)."""
        return self._copy(self.history[:], {})

    def branch(self) -> DeusState:
        """A copy for a bot's look-ahead, which only applies legal actions to it: its history
        starts empty, it keeps no event log (the rules only write the log, never read it), it
        keeps the legal actions already listed here (the lists are never changed in place) and
        shares the lists the rules replace instead of changing them (see :meth:`_copy`).
        :meth:`copy` gives a copy whose fields may be edited by hand."""
        return self._copy([], self._legal.copy(), look_ahead=True)

    def _copy(
        self,
        history: list[tuple[int, int]],
        legal: dict[int, list[int]],
        look_ahead: bool = False,
    ) -> DeusState:
        """The copy; with ``look_ahead`` (:meth:`branch`) it has no event log and shares with
        this state every list that the rules replace by a new one before a change, never
        change in place: each seat's row of ``res``, ``onboard``, ``personal``, ``hands``,
        ``cols`` (and the columns in it) and ``picks``; ``deck``, ``discard``, ``vvp``,
        ``vatt``, ``blind_used``, ``turns``, ``ctx``, ``queue``, ``offer``, ``last_offer`` (see
        the rules: ``effects.draw``, ``offering``, ``turn._after_place``,
        ``board.attack``). The map (``owner``, ``mask``), ``supply``, ``gold`` and ``vp`` are
        copied. ``tests/deus/test_properties.py`` checks that applying any legal action to a
        look-ahead copy leaves the original unchanged."""
        s = DeusState.__new__(DeusState)
        s.game = self.game
        s.board = self.board
        s.players = self.players
        s.seed = self.seed
        s.options = self.options
        s.history = history
        s.log = None if self.log is None or look_ahead else self.log[:]
        s._legal = legal
        s.open_seat = self.open_seat
        s.owner = self.owner[:]
        s.mask = self.mask[:]
        s.supply = self.supply[:]
        s.temples = self.temples
        s.gold = self.gold[:]
        s.vp = self.vp[:]
        s.first = self.first
        s.cur = self.cur
        s.round = self.round
        s.end_round = self.end_round
        s.phase = self.phase
        s.rng = self.rng.copy()
        if look_ahead:
            s.vvp = self.vvp
            s.vatt = self.vatt
            s.deck = self.deck
            s.discard = self.discard
            s.res = self.res[:]
            s.onboard = self.onboard[:]
            s.personal = self.personal[:]
            s.hands = self.hands[:]
            s.cols = self.cols[:]
            s.picks = self.picks[:]
            s.blind_used = self.blind_used
            s.turns = self.turns
            s.ctx = self.ctx
            s.queue = self.queue
            s.offer = self.offer
            s.last_offer = self.last_offer
        else:
            s.vvp = self.vvp[:]
            s.vatt = self.vatt[:]
            s.deck = self.deck[:]
            s.discard = self.discard[:]
            s.res = list(map(list.copy, self.res))
            s.onboard = list(map(list.copy, self.onboard))
            s.personal = list(map(list.copy, self.personal))
            s.hands = list(map(list.copy, self.hands))
            s.cols = [list(map(list.copy, cs)) for cs in self.cols]
            s.picks = list(map(list.copy, self.picks))
            s.blind_used = self.blind_used[:]
            s.turns = self.turns[:]
            s.ctx = self.ctx[:]
            s.queue = self.queue[:]
            s.offer = self.offer[:]
            s.last_offer = self.last_offer[:]
        return s

    def to_json(self) -> JSON:
        """Complete state as JSON (board by its tiles, or as a graph if hand-built)."""
        doc: JSON = {"game": self.game.id}
        for f in _FIELDS:
            v = getattr(self, f)
            doc[f] = _plain(v)
        b = self.board
        if b.tiles:
            doc["board"] = {"tiles": [list(t) for t in b.tiles]}
        else:
            doc["board"] = {
                "ids": list(b.ids),
                "terrain": list(b.terrain),
                "neighbours": [list(n) for n in b.neighbours],
            }
        doc["rng"] = self.rng.state
        doc["history"] = [list(h) for h in self.history]
        return doc

    @classmethod
    def from_json(cls, game: Game, doc: JSON) -> DeusState:
        """Inverse of :meth:`to_json`; raises :class:`SerializationError` on bad documents."""
        try:
            if doc.get("game") != game.id:
                raise SerializationError(f"not a {game.id} state")
            bd = doc["board"]
            if "tiles" in bd:
                board = build_board(tuple((int(a), str(f), int(r)) for a, f, r in bd["tiles"]))
            else:
                board = make_board(
                    [str(x) for x in bd["ids"]],
                    [int(x) for x in bd["terrain"]],
                    [[int(y) for y in n] for n in bd["neighbours"]],
                )
            s = cls(game, board)
            for f in _FIELDS:
                setattr(s, f, _copy_json(doc[f]))
            s.rng = Rng.from_state(int(doc["rng"]))
            s.history = [(int(a), int(b)) for a, b in doc.get("history", [])]
        except SerializationError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SerializationError(f"bad Deus state document: {exc}") from exc
        return s


def _plain(v: Any) -> Any:
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _copy_json(v: Any) -> Any:
    if isinstance(v, list):
        return [_copy_json(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _copy_json(x) for k, x in v.items()}
    return v


# The rules import this module (its phases and the state class), so they are imported last:
# the state's methods call them on every decision, where an import statement would cost.
from civtable.games.deus import scoring  # noqa: E402
from civtable.games.deus import view as views  # noqa: E402
from civtable.games.deus.rules import setup, turn  # noqa: E402
