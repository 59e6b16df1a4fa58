"""The Civilization: A New Dawn state: flat int lists, cheap to copy.

Per space (index into the :class:`~.hexes.Board`): control-token owner and reinforced flag, city
owner, barbarian letter, resource / natural-wonder / city-state tokens lying on the space and
world-wonder tokens. Per seat: focus row, places (the row card holding each of the five token
places, normally one per type), trade tokens per place, dial, resources, held
natural wonders, supplies, caravans, diplomacy cards and victory marks. The pending-decision stack
(``pending``) holds frames ``[kind, seat, a, b, c, d, e, f]`` (see :mod:`.rules.turn`).
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from civtable.core.api import JSON, Game, Result, State
from civtable.core.errors import SerializationError
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.hexes import Board, build_board
from civtable.games.civilization_a_new_dawn.rules import kinds as _K  # noqa: N812

if TYPE_CHECKING:
    from civtable.games.civilization_a_new_dawn.rules.common import Occupancy

#: the second steps of start-of-turn effects (CIV-5.4), asked above the ``D_START`` frame
_START_STEPS = frozenset(
    {
        _K.D_PLACE,  # Hanging Gardens
        _K.D_FC,
        _K.D_ORACLE,
        _K.D_SEOUL_FROM,
        _K.D_SEOUL_TO,
        _K.D_GENEVA_RET,
        _K.D_GENEVA_TAKE,
        _K.D_EIFFEL1,
        _K.D_EIFFEL2,
        _K.D_GZ_MOVE,
    }
)

FIELDS_SPACE = ("tok", "reinf", "city", "barb", "res", "nw", "cs", "wtok")
FIELDS_SEAT = (
    "leader",
    "capital",
    "row",
    "trade",
    "place",
    "dial",
    "resources",
    "nw_held",
    "supply",
    "cities_left",
    "caravans",
    "cs_cards",
    "marks",
)
FIELDS_GLOBAL = (
    "first",
    "current",
    "fp_turns",
    "section",
    "barb_offset",
    "barb_pos",
    "victory",
    "wdecks",
    "wremoved",
    "wonder_owner",
    "cs_owner",
    "cs_avail",
    "pcard_holder",
    "res_supply",
    "turn_flags",
    "taken",
    "arrived",
    "nw_used",
    "pending",
    "winners",
    "over",
    "unfinished",
    "won_capital",
    "map_hands",
    "map_caps",
    "map_start",
    "map_turn",
    "gz",
    "nw_card",
)


class CivState(State):
    """A position of Civilization: A New Dawn."""

    __slots__ = (
        "game",
        "players",
        "seed",
        "options",
        "history",
        "rng",
        "log",
        "board",
        "_legal",
        "agenda_seen",
        "occupancy",
        *FIELDS_SPACE,
        *FIELDS_SEAT,
        *FIELDS_GLOBAL,
    )

    board: Board
    rng: Rng
    log: list[JSON] | None
    _legal: dict[int, list[int]]
    #: what the last agenda check saw (the map's bitsets, other inputs), never changed in place:
    #: see :func:`.rules.victory.check_agendas`; derived, not serialized
    agenda_seen: tuple[Occupancy, list[Any]] | None
    #: the map's bitsets (:func:`.rules.common.occupancy`); derived, not serialized
    occupancy: Occupancy | None
    # per space
    tok: list[int]
    reinf: list[int]
    city: list[int]
    barb: list[int]
    res: list[int]
    nw: list[int]
    cs: list[int]
    wtok: list[int]
    # per seat
    leader: list[int]
    capital: list[int]
    row: list[list[int]]
    trade: list[list[int]]  # per place k (0..4): tokens on the card holding place k
    place: list[list[int]]  # per seat: the row card holding place k (normally of type k)
    dial: list[int]
    resources: list[list[int]]
    nw_held: list[list[int]]
    supply: list[int]
    cities_left: list[int]
    caravans: list[list[int]]  # -1 on the card, -2 locked / set aside, else a space
    cs_cards: list[list[int]]  # city-state ids whose card the seat holds
    marks: list[int]  # bitmask over the drawn victory cards
    # global
    first: int
    current: int
    fp_turns: int
    section: int
    barb_offset: int
    barb_pos: list[int]  # per letter: space, -1 defeated (off map), -2 never in play
    victory: list[int]
    wdecks: list[list[int]]  # per wonder type, top first
    wremoved: list[int]  # removed unseen (CIV-3.7)
    wonder_owner: list[int]  # per wonder: seat, -1 not built / unowned
    cs_owner: list[int]  # per city-state: -1 neutral / absent, else conquering seat
    cs_avail: list[int]  # face-up diplomacy cards beside the map (-1 = face down)
    pcard_holder: list[list[int]]  # [giver][card] -> holder or -1
    res_supply: list[int]
    turn_flags: int
    taken: list[int]
    arrived: list[int]
    nw_used: list[int]
    pending: list[list[int]]
    winners: list[int]
    over: bool
    unfinished: bool
    won_capital: list[int]
    map_hands: list[list[int]]  # standard map set-up: tiles still to place per seat
    map_caps: list[int]  # capital tile per seat
    map_start: int
    map_turn: int
    gz: int  # trade tokens on the Great Zimbabwe card
    nw_card: list[int]  # America: focus type a held natural-wonder token lies on (-1 none)

    # --- basic protocol ----------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """The seat owning the top pending decision (one at a time)."""
        if self.over or not self.pending:
            return ()
        return (self.pending[-1][1],)

    def owes_decision(self, seat: int) -> bool:
        """Faster than the default."""
        return not self.over and bool(self.pending) and self.pending[-1][1] == seat

    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal ids of the top decision (cached until the state changes)."""
        got = self._legal.get(seat)
        if got is not None:
            return got
        acts: list[int] = _turn().legal(self, seat) if self.owes_decision(seat) else []
        self._legal[seat] = acts
        return acts

    def describe(self, seat: int, action: int) -> str:
        """A readable label of an action for the current decision."""
        from civtable.games.civilization_a_new_dawn.actions import describe

        return describe(self, seat, action)

    def move_open(self, seat: int) -> bool:
        """Is ``seat`` in the middle of a move it may still withdraw (see :meth:`State.move_open`)?

        Two kinds of move are compound here:

        * **A focus card's resolution** (CIV-5.3 steps 1-2): from the card chosen until it is
          reset, the seat's answers (trade tokens to spend, the card's option, spaces, caravans,
          resources, upgrades…) reveal nothing: the whole map, every hand and the focus decks
          are public (CIV-26.2). It stops being open at the reset (the card's ``T_RESET`` frame
          has run), after an attack this turn (the two dice are rolled when a target is chosen,
          CIV-14.4), after a wonder is built (the next card of that deck is turned face up,
          CIV-12.5; only Pyramids, Porcelain Tower and Potala Palace ask more of the seat before
          the reset) and once Capitalism or Venetian Arsenal resolved another card (resolutions
          outside the chosen card's).
        * **A start-of-turn effect** (CIV-5.4) with a second step (the token to destroy, the cards
          to swap, the barbarian's destination…), and a **map tile** placement in the standard
          set-up (CIV-4.6: tile, then side and rotation, then position; the dealt tiles are
          public, CIV-4.8).

        Another seat's decision (a defender's trade tokens, the Eiffel Tower's victim) is never
        part of the move: the server stores the steps before it.
        """
        if self.over or not self.owes_decision(seat):
            return False
        from civtable.games.civilization_a_new_dawn.rules import common as C  # noqa: N812

        K = _K  # noqa: N806
        top = self.pending[-1][0]
        if top in (K.D_MAPORIENT, K.D_MAPPOS):
            return True
        if self.current != seat:
            return False
        below = self.pending[-2][0] if len(self.pending) >= 2 else -1
        if below == K.D_START and top in _START_STEPS:
            return True  # an effect's second step, above the start-of-turn frame
        if top in (K.D_START, K.D_CHOOSE, K.D_PYRAMIDS, K.D_PORCELAIN, K.D_POTALA):
            return False
        if self.turn_flags >> C.ATTACKS_SHIFT:
            return False  # dice were rolled this turn
        if self.turn_flags & (C.F_CAPITALISM_USED | C.F_VENETIAN_USED):
            return False
        return any(f[0] == K.T_RESET for f in self.pending)

    def _apply(self, seat: int, action: int) -> None:
        self._legal = {}
        _turn().apply(self, seat, action)  # ends by caching the next decision's legal actions

    def is_terminal(self) -> bool:
        """True after a victory check ended the game (or the optional turn cap)."""
        return self.over

    def result(self) -> Result:
        """Marks, wonders and friendly spaces; winners per CIV-22.3."""
        from civtable.games.civilization_a_new_dawn.scoring import result

        return result(self)

    def view(self, seat: int | None, *, labels: bool = True) -> JSON:
        """What ``seat`` may see (see :mod:`.view`)."""
        from civtable.games.civilization_a_new_dawn.view import view

        return view(self, seat, labels=labels)

    def determinize(self, seat: int, rng: Rng) -> CivState:
        """Re-deal the face-down wonder decks (CIV-26.2)."""
        from civtable.games.civilization_a_new_dawn.view import determinize

        return determinize(self, seat, rng)

    # --- copy / json --------------------------------------------------------------------------
    def copy(self) -> CivState:
        """Independent copy; lists sliced, the board shared."""
        c = self._clone()
        c.history = self.history[:]
        c.rng = self.rng.copy()
        c.log = None if self.log is None else self.log[:]
        return c

    def branch(self, rng: Rng) -> CivState:
        """An independent copy for a look-ahead (the heuristic's): as :meth:`copy`, but without
        the move record and the log, which the rules never read, and with its own random
        generator ``rng``."""
        c = self._clone()
        c.history = []
        c.rng = rng
        c.log = None
        return c

    def _clone(self) -> CivState:
        """A copy of everything but the history, the random generator and the log."""
        cp = list.copy
        c = CivState.__new__(CivState)
        c.game, c.players, c.seed, c.options = self.game, self.players, self.seed, self.options
        c.board = self.board
        c._legal = dict(self._legal)
        c.agenda_seen = self.agenda_seen
        c.occupancy = self.occupancy
        c.tok, c.reinf, c.city, c.barb = self.tok[:], self.reinf[:], self.city[:], self.barb[:]
        c.res, c.nw, c.cs, c.wtok = self.res[:], self.nw[:], self.cs[:], self.wtok[:]
        c.leader, c.capital = self.leader, self.capital
        c.row = [*map(cp, self.row)]
        c.trade = [*map(cp, self.trade)]
        c.place = [*map(cp, self.place)]
        c.dial = self.dial[:]
        c.resources = [*map(cp, self.resources)]
        c.nw_held = [*map(cp, self.nw_held)]
        c.supply, c.cities_left = self.supply[:], self.cities_left[:]
        c.caravans = [*map(cp, self.caravans)]
        c.cs_cards = [*map(cp, self.cs_cards)]
        c.marks = self.marks[:]
        c.first, c.current, c.fp_turns = self.first, self.current, self.fp_turns
        c.section, c.barb_offset = self.section, self.barb_offset
        c.barb_pos, c.victory = self.barb_pos[:], self.victory
        c.wdecks = [*map(cp, self.wdecks)]
        c.wremoved = self.wremoved[:]
        c.wonder_owner, c.cs_owner, c.cs_avail = (
            self.wonder_owner[:],
            self.cs_owner[:],
            self.cs_avail[:],
        )
        c.pcard_holder = [*map(cp, self.pcard_holder)]
        c.res_supply = self.res_supply[:]
        c.turn_flags = self.turn_flags
        c.taken, c.arrived, c.nw_used = self.taken[:], self.arrived[:], self.nw_used[:]
        c.pending = [*map(cp, self.pending)]
        c.winners, c.over, c.unfinished = self.winners[:], self.over, self.unfinished
        c.won_capital = self.won_capital[:]
        c.map_hands = [*map(cp, self.map_hands)]
        c.map_caps, c.map_start, c.map_turn = self.map_caps, self.map_start, self.map_turn
        c.gz = self.gz
        c.nw_card = self.nw_card[:]
        return c

    def to_json(self) -> JSON:
        """Complete state as JSON-ready data."""
        return self._document(True)

    def hash_document(self) -> JSON:
        """:meth:`to_json` without the history, never built (the hash reads only this)."""
        return self._document(False)

    def _document(self, history: bool) -> JSON:
        doc: JSON = {
            "game": self.game.id,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
        }
        if history:
            doc["history"] = [list(h) for h in self.history]
        doc.update(
            {
                "rng": self.rng.state,
                "log": None if self.log is None else list(self.log),
                "layout": {
                    "placements": [list(p) for p in self.board.placements],
                    "water": [list(w) for w in self.board.water_tokens],
                },
            }
        )
        for name in (*FIELDS_SPACE, *FIELDS_SEAT, *FIELDS_GLOBAL):
            doc[name] = _plain(getattr(self, name))
        return doc

    @classmethod
    def from_json(cls, game: Game, doc: JSON) -> CivState:
        """Inverse of :meth:`to_json`."""
        try:
            s = cls.__new__(cls)
            s.game = game
            s.players = int(doc["players"])
            s.seed = int(doc["seed"])
            s.options = dict(doc["options"])
            s.history = [(int(a), int(b)) for a, b in doc["history"]]
            s.rng = Rng.from_state(int(doc["rng"]))
            s.log = None if doc.get("log") is None else list(doc["log"])
            lay = doc["layout"]
            s.board = build_board(
                tuple(
                    (int(p[0]), str(p[1]), int(p[2]), int(p[3]), int(p[4]))
                    for p in lay["placements"]
                ),
                tuple((int(w[0]), int(w[1])) for w in lay["water"]),
            )
            s._legal = {}
            s.agenda_seen = None
            s.occupancy = None
            for name in (*FIELDS_SPACE, *FIELDS_SEAT, *FIELDS_GLOBAL):
                if name == "place" and name not in doc:  # older documents: one card per type
                    s.place = [_places_by_type(r) for r in doc["row"]]
                    continue
                setattr(s, name, _restore(doc[name]))
            return s
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SerializationError(f"not a Civilization: A New Dawn state: {exc}") from exc


def _turn() -> ModuleType:
    """The turn module (imported on first use: the rules import this module)."""
    global _TURN
    if _TURN is None:
        from civtable.games.civilization_a_new_dawn.rules import turn

        _TURN = turn
    return _TURN


_TURN: ModuleType | None = None


def _places_by_type(row: list[int]) -> list[int]:
    from civtable.games.civilization_a_new_dawn.catalog import FOCUS_CARDS

    return sorted((int(c) for c in row), key=lambda c: FOCUS_CARDS[c].type)


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) if isinstance(v, list) else v for v in value]
    return value


def _restore(value: Any) -> Any:
    if isinstance(value, list):
        return [_restore(v) for v in value]
    return value
