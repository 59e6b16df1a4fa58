"""The Through the Ages position: one :class:`Civ` per player plus the shared boards.

Everything is ints and small lists so :meth:`TTAState.copy` is a handful of slices. Ratings are
never stored: :mod:`.rules.board` computes them from the cards in play and the workers
(TTA-1.9). The rules live in :mod:`.rules`; this module only holds data, (de)serialization and
the :class:`~civtable.core.State` plumbing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from civtable.core.api import JSON, Result, State
from civtable.core.errors import SerializationError
from civtable.core.rng import Rng
from civtable.games.through_the_ages.catalog import CARDS, NSLOTS

if TYPE_CHECKING:
    from civtable.core.api import Game

_CIV_INTS = (
    "yellow",
    "blue",
    "pool",
    "gov",
    "leader",
    "wip",
    "wip_stages",
    "culture",
    "science",
    "ca",
    "ma",
    "temp_ma",
    "mpool",
    "spool",
    "leader_ages",
    "spent_ca",
    "replaced_leader",
    "used",
    "homer_wonder",
    "tactic",
    "tactic_own",
    "flags",
    "xculture",
    "blue_total",
    "yellow_total",
)
_CIV_LISTS = (
    "workers",
    "cubes",
    "developed",
    "special",
    "wonders",
    "hand",
    "mhand",
    "fresh",
    "colonies",
    "ruins",
    "pside",
    "secret",
)

#: every field of a :class:`Civ`: its ints, then its lists (what a key of its content reads)
CIV_INTS: tuple[str, ...] = _CIV_INTS
CIV_LISTS: tuple[str, ...] = _CIV_LISTS

#: ``Civ.flags`` bits lasting the whole game
F_CAESAR = 1  # Julius Caesar's second political action used (once per game)
F_RESIGNED = 2  # resigned (TTA-6.8): out of the game
F_NO_POLITICS = 4  # International Agreement: gives up its next Politics Phase (TTA-AMB-23)


class Civ:
    """One player's civilization (player board and cards in play).

    ``workers[slot]`` workers per building slot (``kind * 4 + age``); ``cubes[0..3]`` blue cubes
    on the farm of age 0..3, ``cubes[4..7]`` on the mines; ``developed`` building technologies
    in play (board cards included); ``special[subtype]`` special technology or -1; ``wip`` the
    unfinished wonder (-1) with ``wip_stages`` stages built; ``ca``/``ma`` available actions;
    ``temp_ma``/``mpool``/``spool`` this turn's temporary military action, unit resources and unit
    science; ``fresh`` action cards taken this turn (TTA-7.2.11); ``used`` once-per-turn hooks;
    ``flags`` the game-long ``F_*`` bits; ``colonies`` territories owned (TTA-11.6); ``ruins``
    completed wonders turned face down by Ravages of Time (TTA-AMB-35); ``pside`` the pact
    sides it holds (``card * 2 + side``, 0 = A); ``xculture`` culture rate from partners'
    wonders (International Tourism), kept in step by :func:`.rules.politics.sync_pacts`;
    ``secret`` the shorter game's face-down Age III events dealt to the player (TTA-15.1);
    ``spent_ca`` the civil actions spent this turn less those given back (a leader replaced,
    Isaac Newton: TTA-7.2.10); ``blue_total``/``yellow_total`` every blue (yellow) cube the
    civilization has, wherever it lies: 16 (25) at setup, then what cards and events take
    from or return to the box (TTA-1.3, TTA-1.11; checked by :mod:`.invariants`).
    """

    __slots__ = _CIV_INTS + _CIV_LISTS

    yellow: int
    blue: int
    pool: int
    gov: int
    leader: int
    wip: int
    wip_stages: int
    culture: int
    science: int
    ca: int
    ma: int
    temp_ma: int
    mpool: int
    spool: int
    leader_ages: int
    spent_ca: int
    replaced_leader: int
    used: int
    homer_wonder: int
    tactic: int
    tactic_own: int
    flags: int
    xculture: int
    blue_total: int
    yellow_total: int
    workers: list[int]
    cubes: list[int]
    developed: list[int]
    special: list[int]
    wonders: list[int]
    hand: list[int]
    mhand: list[int]
    fresh: list[int]
    colonies: list[int]
    ruins: list[int]
    pside: list[int]
    secret: list[int]

    def __init__(self) -> None:
        for name in _CIV_INTS:
            setattr(self, name, 0)
        self.gov = self.leader = self.wip = self.homer_wonder = self.tactic = -1
        self.workers = [0] * NSLOTS
        self.cubes = [0] * 8
        self.developed = []
        self.special = [-1, -1, -1, -1]
        self.wonders = []
        self.hand = []
        self.mhand = []
        self.fresh = []
        self.colonies = []
        self.ruins = []
        self.pside = []
        self.secret = []

    def copy(self) -> Civ:
        """An independent copy."""
        c = Civ.__new__(Civ)
        c.yellow = self.yellow
        c.blue = self.blue
        c.pool = self.pool
        c.gov = self.gov
        c.leader = self.leader
        c.wip = self.wip
        c.wip_stages = self.wip_stages
        c.culture = self.culture
        c.science = self.science
        c.ca = self.ca
        c.ma = self.ma
        c.temp_ma = self.temp_ma
        c.mpool = self.mpool
        c.spool = self.spool
        c.leader_ages = self.leader_ages
        c.spent_ca = self.spent_ca
        c.replaced_leader = self.replaced_leader
        c.used = self.used
        c.homer_wonder = self.homer_wonder
        c.tactic = self.tactic
        c.tactic_own = self.tactic_own
        c.flags = self.flags
        c.xculture = self.xculture
        c.blue_total = self.blue_total
        c.yellow_total = self.yellow_total
        c.workers = self.workers[:]
        c.cubes = self.cubes[:]
        c.developed = self.developed[:]
        c.special = self.special[:]
        c.wonders = self.wonders[:]
        c.hand = self.hand[:]
        c.mhand = self.mhand[:]
        c.fresh = self.fresh[:]
        c.colonies = self.colonies[:]
        c.ruins = self.ruins[:]
        c.pside = self.pside[:]
        c.secret = self.secret[:]
        return c

    def to_json(self) -> JSON:
        """JSON-ready form."""
        doc: JSON = {n: getattr(self, n) for n in _CIV_INTS}
        doc.update({n: list(getattr(self, n)) for n in _CIV_LISTS})
        return doc

    @staticmethod
    def from_json(doc: JSON) -> Civ:
        """Inverse of :meth:`to_json`."""
        c = Civ()
        for n in _CIV_INTS:
            setattr(c, n, int(doc[n]))
        for n in _CIV_LISTS:
            setattr(c, n, [int(x) for x in doc[n]])
        return c


_RULES: Any = None


def _rules() -> Any:
    """:mod:`.rules.civil` (imported on first use: it imports this module)."""
    global _RULES
    if _RULES is None:
        from civtable.games.through_the_ages.rules import civil

        _RULES = civil
    return _RULES


# pending decision kinds (``TTAState.pending[0]``)
P_NONE = 0
P_PERFORM = 1  # (P_PERFORM, card, action-kind, discount, spent_before)
P_CHOOSE = 2  # (P_CHOOSE, card)
P_DISCARD = 3  # (P_DISCARD, count)
P_HOMER = 4  # (P_HOMER,): Homer replaced: 0 = refund 1 CA, 1 = slide under a wonder
# the decisions of the military part (rules/politics.py, rules/events.py); ``state.actor`` decides
# (``actor`` is -1 while the current player decides: see :meth:`TTAState.decider`)
P_DEFEND = 5  # (P_DEFEND, card, attacker, target, attack, defense, cards used) TTA-6.4
P_ACCEPT = 6  # (P_ACCEPT, card, offerer, partner, offerer's side) TTA-6.6
P_BID = 7  # (P_BID, card, high bid, high bidder, passed mask, bids made) TTA-11.2
P_SEND = 8  # (P_SEND, card, bid, bonus value, Cook discards, *unit slots sent) TTA-11.3
P_OPTION = 9  # (P_OPTION, what, card, a, b, c): a choice among OPTION+v values
P_AGREEMENT = 10  # (P_AGREEMENT, budget left): International Agreement takes (TTA-AMB-23)
P_KEEP = 11  # (P_KEEP,): shorter game, end of Age I: keep one of two Age III events (TTA-15.1)

#: ``TTAState.phase``
PH_POLITICS = 0  # Politics Phase, no political action yet (TTA-6.1)
PH_SECOND = 2  # Politics Phase after one action, Julius Caesar's second one still possible
PH_ACTION = 1  # Action Phase

_G_INTS = (
    "players",
    "seed",
    "age",
    "round",
    "first",
    "current",
    "last_round",
    "over",
    "first_refill",
    "actor",
    "phase",
)
_G_LISTS = (
    "row",
    "events",
    "pending",
    "common",
    "future",
    "future_by",
    "past",
    "pacts",
    "wars",
    "faceup",
    "war_cards",
    "boxed",
)


class TTAState(State):
    """A Through the Ages position (first game for now; see docs/through-the-ages.md)."""

    __slots__ = (
        "game",
        "options",
        "history",
        "rng",
        "log",
        "civs",
        "civil_decks",
        "mil_decks",
        "mil_discards",
        "_legal",
        "_civ_views",
        "queue",
        *_G_INTS,
        *_G_LISTS,
    )

    players: int
    seed: int
    age: int
    round: int
    first: int
    current: int
    last_round: int
    over: int
    first_refill: int
    actor: int
    phase: int
    row: list[int]
    events: list[int]
    pending: list[int]
    common: list[int]
    future: list[int]
    future_by: list[int]
    past: list[int]
    pacts: list[int]
    wars: list[int]
    faceup: list[int]
    war_cards: list[int]
    boxed: list[int]
    queue: list[list[int]]
    civs: list[Civ]
    civil_decks: list[list[int]]
    mil_decks: list[list[int]]
    mil_discards: list[list[int]]
    rng: Rng
    log: list[JSON] | None
    _legal: list[int] | None
    #: per seat, the last :func:`.view.civ_public` document worked out and the civilization's
    #: content it was worked out from (checked on every use, so it never goes stale; shared
    #: by copies)
    _civ_views: list[tuple[tuple[object, ...], JSON] | None]

    def __init__(self, game: Game, players: int, seed: int, options: JSON) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.history = []
        self.rng = Rng(seed)
        self.log = None
        self.civs = [Civ() for _ in range(players)]
        self.civil_decks = [[], [], [], []]
        self.mil_decks = [[], [], [], []]
        self.mil_discards = [[], [], [], []]
        self.age = 0
        self.round = 1
        self.first = 0
        self.current = 0
        self.last_round = -1
        self.over = 0
        self.first_refill = 1
        self.row = [-1] * 13
        self.events = []
        self.pending = [P_NONE]
        self.common = []
        self.future = []
        self.future_by = []  # who prepared each future card (only its owner saw it, TTA-6.2)
        self.past = []
        self.pacts = []
        self.wars = []
        self.faceup = []
        self.war_cards = []  # the shorter game: (card, declarer, target) of shared wars
        self.boxed = [0] * 8  # cards out of the game per deck (to_box)
        self.queue = []
        self.actor = -1
        self.phase = PH_ACTION
        self._legal = None
        self._civ_views = [None] * players

    # --- decisions ---------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """The seat deciding now: the current player, or another seat answering an aggression,
        a pact offer, a colonization auction or an event's choice (:meth:`decider`)."""
        return () if self.over else (self.decider(),)

    def decider(self) -> int:
        """The seat deciding now: ``actor`` during another seat's decision, else ``current``."""
        return self.current if self.actor < 0 else self.actor

    def owes_decision(self, seat: int) -> bool:
        """Only the acting seat decides."""
        return not self.over and seat == self.decider()

    def move_open(self, seat: int) -> bool:
        """Is ``seat`` in the middle of a move it began and may still withdraw?

        True while ``seat`` decides a step that continues its own previous action, and nothing
        hidden has been revealed since (a table then holds the steps back, seen only by that
        seat, until the move is complete):

        * the choice an action card asks once played — what to build, upgrade or develop with
          its bonus (TTA-7.2.11, a ``perform``; also Frederick Barbarossa's unit and an event
          option that leads to one), or which of its options (``choose_one``);
        * Homer's slide under a wonder after the leader who replaces him (TTA-7.2.7);
        * the military cards to discard after ending the Action Phase (TTA-8.1): the turn's
          production and the military cards drawn come only after the last discard;
        * a defence under way: bonus cards played, cards discarded for +1 (TTA-6.4);
        * a colonization force being sent: units, bonus cards, James Cook's discards (TTA-11.3,
          TTA-11.4);
        * International Agreement's takes, once one card is taken (TTA-AMB-23);
        * the buildings a Raid destroys, after the first one (TTA-6.4 step 5).

        Each of those steps shows only the seat's own public or already-known cards; the drawing
        of cards and the revealing of events happen on steps that end the move.
        """
        if self.over or seat != self.decider():
            return False
        p = self.pending
        kind = p[0]
        if kind in (P_PERFORM, P_CHOOSE, P_HOMER, P_DISCARD):
            return True
        if kind == P_DEFEND:
            return p[6] > 0  # cards used so far
        if kind == P_SEND:
            return len(p) > 5 or p[3] > 0 or p[4] > 0  # units sent, bonus played, discards
        if kind == P_AGREEMENT:
            return len(p) > 2 and p[2] > 0  # a card taken already
        if kind == P_OPTION:
            from civtable.games.through_the_ages.rules import politics

            return p[1] == politics.W_RAID and p[4] > 0  # a building destroyed already
        return False

    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids (cached until the state changes)."""
        if self.over or seat != self.decider():
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = _rules().legal_actions(self)
        return legal[:]

    def apply(self, seat: int, action: int) -> None:
        """:meth:`State.apply`: a legal action of the deciding seat is applied straight from the
        cached legal list; anything else goes through the generic checks and their errors."""
        if (
            type(action) is int
            and type(seat) is int
            and not self.over
            and seat == self.decider()
            and action in (self._legal or self.legal_actions(seat))
        ):
            self._apply(seat, action)
            self.history.append((seat, action))
            return
        super().apply(seat, action)

    def describe(self, seat: int, action: int) -> str:
        """A readable label of an action id."""
        from civtable.games.through_the_ages.actions import describe

        return describe(self, seat, action)

    def _apply(self, seat: int, action: int) -> None:
        self._legal = None
        log = self.log
        if log is None:
            _rules().apply(self, action)
            self._legal = None
            return
        self._log_apply(log, seat, action)
        self._legal = None

    def _log_apply(self, log: list[JSON], seat: int, action: int) -> None:
        """Apply ``action`` and log it as structured entries (issue 18): the move as
        :func:`.moves.move` describes it (private moves for their seat, with a public
        counterpart), then what followed that the rules did not log themselves — an aggression's
        result (TTA-6.4), an auction's outcome (TTA-11.2), a colony (TTA-11.6), pacts made or
        ended (TTA-6.6, 6.7), wars withdrawn (TTA-6.8), Julius Caesar's second political action,
        a new age or round, the end of the game."""
        from civtable.games.through_the_ages import actions as ax
        from civtable.games.through_the_ages import logs, moves
        from civtable.games.through_the_ages.catalog import AGES, BY_ID, CARDS

        move = moves.move(self, seat, action)
        entry: JSON = {**move, "player": seat}
        hidden = moves.public_move(move)
        if hidden is not None:  # everybody else reads the public part ("others": all but seat)
            log.append({**hidden, "player": seat, "others": seat})
            entry["seat"] = seat
        log.append(entry)
        pending = self.pending[:]
        age, rnd, phase = self.age, self.round, self.phase
        pacts, wars, since = self.pacts[:], self.wars[:], len(log)
        before = (
            logs.snap(self) if action in (ax.DONE,) or ax.COLUMBUS <= action < ax.OPTION else None
        )
        past = len(self.past)
        _rules().apply(self, action)
        kind = pending[0]
        if kind == P_DEFEND and action == ax.DONE:
            card, attacker, target, attack, defense = pending[1:6]
            log.append(
                {
                    "kind": "aggression_result",
                    "card": CARDS[card].id,
                    "attacker": attacker,
                    "target": target,
                    "attack": attack,
                    "defense": defense,
                    "success": defense < attack,
                }
            )
            if before is not None:
                logs.effects(self, before, card, "aggression")
        elif (kind == P_SEND and action == ax.DONE) or ax.COLUMBUS <= action < ax.OPTION:
            card = pending[1] if kind == P_SEND else action - ax.COLUMBUS
            log.append({"kind": "colony", "card": CARDS[card].id, "player": seat})
            if before is not None:
                logs.effects(self, before, card, "colony")
        elif kind == P_BID:
            card = pending[1]
            if len(self.past) > past and self.past[-1] == card:
                log.append({"kind": "auction_void", "card": CARDS[card].id})
            elif self.pending[0] == P_SEND and self.pending[1] == card:
                log.append(
                    {
                        "kind": "auction_won",
                        "card": CARDS[card].id,
                        "player": self.decider(),
                        "bid": self.pending[2],
                    }
                )
        if self.pacts != pacts or self.wars != wars:
            logs.pacts_and_wars(self, pacts, wars, since)
        if phase != PH_SECOND and self.phase == PH_SECOND and not self.over:
            leader = self.civs[self.current].leader
            log.append(
                {
                    "kind": "second_political_action",
                    "player": self.current,
                    "card": CARDS[leader].id if leader >= 0 else CARDS[BY_ID["julius_caesar"]].id,
                }
            )
        if self.age != age:
            log.append({"kind": "age", "age": (*AGES, "IV")[self.age]})
        if self.round != rnd and not self.over:
            log.append({"kind": "round", "round": self.round})
        if self.over:
            log.append({"kind": "game_over"})
        self._legal = None

    # --- outcome -----------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True after the last turn of the game-ending age (TTA-4.4)."""
        return bool(self.over)

    def result(self) -> Result:
        """First-game final scoring (TTA-14); a projection while the game runs."""
        from civtable.games.through_the_ages.scoring import result

        return result(self)

    # --- information -------------------------------------------------------------------------
    def view(self, seat: int | None, *, labels: bool = True) -> JSON:
        """What ``seat`` may know (military hands and deck orders hidden)."""
        from civtable.games.through_the_ages.view import view

        return view(self, seat, labels=labels)

    def determinize(self, seat: int, rng: Rng) -> TTAState:
        """Re-deal what ``seat`` cannot see."""
        from civtable.games.through_the_ages.view import determinize

        return determinize(self, seat, rng)

    # --- copying and serialization -----------------------------------------------------------
    def copy(self) -> TTAState:
        """An independent copy (card tables shared)."""
        s = self._copy_position()
        s.history = self.history[:]
        s.log = None if self.log is None else self.log[:]
        return s

    def scratch_copy(self) -> TTAState:
        """A copy of the position for a look-ahead that is thrown away (the heuristic's):
        no history and no log (the rules read neither; a log only records)."""
        s = self._copy_position()
        s.history = []
        s.log = None
        return s

    def _copy_position(self) -> TTAState:
        """Everything but the history and the log, copied."""
        s = TTAState.__new__(TTAState)
        s.game = self.game
        s.options = self.options
        s.rng = self.rng.copy()
        s.civs = [c.copy() for c in self.civs]
        s.civil_decks = [d[:] for d in self.civil_decks]
        s.mil_decks = [d[:] for d in self.mil_decks]
        s.mil_discards = [d[:] for d in self.mil_discards]
        s.players = self.players
        s.seed = self.seed
        s.age = self.age
        s.round = self.round
        s.first = self.first
        s.current = self.current
        s.last_round = self.last_round
        s.over = self.over
        s.first_refill = self.first_refill
        s.row = self.row[:]
        s.events = self.events[:]
        s.pending = self.pending[:]
        s.common = self.common[:]
        s.future = self.future[:]
        s.future_by = self.future_by[:]
        s.past = self.past[:]
        s.pacts = self.pacts[:]
        s.wars = self.wars[:]
        s.faceup = self.faceup[:]
        s.war_cards = self.war_cards[:]
        s.boxed = self.boxed[:]
        s.queue = [q[:] for q in self.queue]
        s.actor = self.actor
        s.phase = self.phase
        s._legal = self._legal  # never mutated in place: safe to share
        s._civ_views = self._civ_views  # entries checked against the civilization on use
        return s

    def to_json(self) -> JSON:
        """Complete state as JSON-ready data."""
        doc: JSON = {n: getattr(self, n) for n in _G_INTS}
        doc.update({n: list(getattr(self, n)) for n in _G_LISTS})
        doc["game"] = self.game.id
        doc["options"] = dict(self.options)
        doc["rng"] = self.rng.state
        doc["civs"] = [c.to_json() for c in self.civs]
        doc["civil_decks"] = [list(d) for d in self.civil_decks]
        doc["mil_decks"] = [list(d) for d in self.mil_decks]
        doc["mil_discards"] = [list(d) for d in self.mil_discards]
        doc["history"] = [list(h) for h in self.history]
        doc["queue"] = [list(q) for q in self.queue]
        if self.log is not None:
            doc["log"] = list(self.log)
        return doc

    def state_hash(self) -> str:
        """Stable digest of the position (history and log excluded)."""
        log, self.log = self.log, None
        try:
            return super().state_hash()
        finally:
            self.log = log

    @staticmethod
    def from_json(game: Game, doc: JSON) -> TTAState:
        """Inverse of :meth:`to_json`; raises :class:`SerializationError` on bad input."""
        try:
            s = TTAState(game, int(doc["players"]), int(doc["seed"]), dict(doc["options"]))
            for n in _G_INTS:
                setattr(s, n, int(doc[n]))
            for n in _G_LISTS:
                setattr(s, n, [int(x) for x in doc[n]])
            s.rng.state = int(doc["rng"])
            s.civs = [Civ.from_json(c) for c in doc["civs"]]
            s.civil_decks = [[int(x) for x in d] for d in doc["civil_decks"]]
            s.mil_decks = [[int(x) for x in d] for d in doc["mil_decks"]]
            s.mil_discards = [[int(x) for x in d] for d in doc["mil_discards"]]
            s.history = [(int(a), int(b)) for a, b in doc["history"]]
            s.queue = [[int(x) for x in q] for q in doc["queue"]]
            log: Any = doc.get("log")
            s.log = None if log is None else list(log)
        except (KeyError, TypeError, ValueError) as exc:
            raise SerializationError(f"not a Through the Ages state: {exc}") from exc
        return s


#: per card: its deck's entry in ``TTAState.boxed`` (civil A-III 0-3, military A-III 4-7; -1
#: for the technologies printed on the player board, which never leave it)
BOX_OF: tuple[int, ...] = tuple(
    -1 if c.deck == "board" else c.age + (4 if c.deck == "military" else 0) for c in CARDS
)


def to_box(state: TTAState, cards: Iterable[int]) -> None:
    """``cards`` leave the game (back to the box; ``state.boxed`` counts them per deck): swept,
    played action cards, replaced leaders and governments, antiquated, trimmed, resigned."""
    boxed = state.boxed
    for c in cards:
        d = BOX_OF[c]
        if d >= 0:
            boxed[d] += 1
