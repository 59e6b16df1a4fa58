"""The 7 Wonders state: plain ints and small lists, cheap to copy.

A :class:`City` holds one player's (or the Free City's) board, structures, coins, tokens and the
derived values the rules query constantly (production signatures, colour counts, shields,
science), updated incrementally when something is built. :class:`SevenWondersState` holds the
cities, hands, discard pile, the step's hidden commitments and the generator. The rules that
change it live in ``rules/``; this module only stores, copies and serializes.
"""

from __future__ import annotations

from typing import Any

from civtable.core.api import JSON, CachedLegalState, Game, Result
from civtable.core.errors import SerializationError
from civtable.core.rng import Rng
from civtable.games.seven_wonders.catalog import (
    BOARDS,
    CARD_INDEX,
    CARDS,
    POWER_COPY_GUILD,
    POWER_DISCARD_BUILD,
    POWER_FREE_BUILD,
    POWER_SEVENTH,
    Effect,
    Stage,
)
from civtable.games.seven_wonders.rules.trade import production_sig

# Phases of a turn.
MAIN, EXTRA, HALI_PHASE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("main", "babylon_extra_step", "halikarnassus", "over")


def _first_stages(stages: tuple[Stage, ...]) -> dict[str, int]:
    """power -> the number of stages that must be built to have it (the first granting it)."""
    out: dict[str, int] = {}
    for i, stage in enumerate(stages):
        if stage.effect.power and stage.effect.power not in out:
            out[stage.effect.power] = i + 1
    return out


#: per board and side: power -> the number of stages that must be built to have it
_POWER_STAGES = [(_first_stages(b.sides[0]), _first_stages(b.sides[1])) for b in BOARDS]

_turn: Any = None  # rules.turn, imported on first use (it imports this module)


def _rules() -> Any:
    global _turn
    if _turn is None:
        from civtable.games.seven_wonders.rules import turn

        _turn = turn
    return _turn


class City:
    """One city: a wonder board plus structures (SW-0.8), with derived values kept current."""

    __slots__ = (
        "board",
        "built",
        "coins",
        "colors",
        "defeats",
        "discount",
        "free_used",
        "keys",
        "own_choices",
        "own_fixed",
        "own_sig",
        "science",
        "shields",
        "side",
        "stage_cards",
        "stages",
        "tokens",
        "trade_choices",
        "trade_fixed",
        "trade_sig",
        "wilds",
    )

    board: int
    side: int
    stages: int
    stage_cards: list[int]
    coins: int
    built: list[int]
    keys: int
    colors: list[int]
    shields: int
    science: list[int]
    wilds: int
    own_fixed: list[int]
    own_choices: list[int]
    trade_fixed: list[int]
    trade_choices: list[int]
    own_sig: int
    trade_sig: int
    discount: int
    tokens: list[int]
    defeats: int
    free_used: bool

    @classmethod
    def new(cls, board: int, side: int, coins: int) -> City:
        """A city at setup: the board's starting resource, no structures (SW-2.7, SW-2.8)."""
        c = cls.__new__(cls)
        c.board, c.side, c.stages, c.stage_cards = board, side, 0, []
        c.coins, c.built, c.keys = coins, [], 0
        c.colors, c.shields, c.science, c.wilds = [0] * 7, 0, [0, 0, 0], 0
        c.own_fixed, c.own_choices = [0] * 7, []
        c.trade_fixed, c.trade_choices = [0] * 7, []
        start = BOARDS[board].start_resource  # SW-10.1: tradeable
        c.own_fixed[start] += 1
        c.trade_fixed[start] += 1
        c.discount, c.tokens, c.defeats, c.free_used = 0, [], 0, False
        c.own_sig = production_sig(c.own_fixed, c.own_choices)
        c.trade_sig = production_sig(c.trade_fixed, c.trade_choices)
        return c

    def copy(self) -> City:
        """An independent copy (lists copied, ints shared)."""
        c = City.__new__(City)
        c.board = self.board
        c.side = self.side
        c.stages = self.stages
        c.stage_cards = self.stage_cards[:]
        c.coins = self.coins
        c.built = self.built[:]
        c.keys = self.keys
        c.colors = self.colors[:]
        c.shields = self.shields
        c.science = self.science[:]
        c.wilds = self.wilds
        c.own_fixed = self.own_fixed  # replaced, never mutated
        c.own_choices = self.own_choices
        c.trade_fixed = self.trade_fixed
        c.trade_choices = self.trade_choices
        c.own_sig = self.own_sig
        c.trade_sig = self.trade_sig
        c.discount = self.discount
        c.tokens = self.tokens[:]
        c.defeats = self.defeats
        c.free_used = self.free_used
        return c

    # --- board --------------------------------------------------------------------------------
    @property
    def board_stages(self) -> tuple[Stage, ...]:
        """The stages of this city's board side."""
        return BOARDS[self.board].sides[self.side]

    def has_power(self, power: str) -> bool:
        """Is a built stage granting ``power``?"""
        return self.stages >= _POWER_STAGES[self.board][self.side].get(power, 99)

    @property
    def can_play_seventh(self) -> bool:
        """Babylon B stage 2 built (SW-10.7)."""
        return self.has_power(POWER_SEVENTH)

    @property
    def has_free_build(self) -> bool:
        """Olympia A stage 2 built (SW-10.8)."""
        return self.has_power(POWER_FREE_BUILD)

    @property
    def copies_guild(self) -> bool:
        """Olympia B stage 3 built (SW-10.10)."""
        return self.has_power(POWER_COPY_GUILD)

    def owns_key(self, key_index: int) -> bool:
        """Does the city hold a structure with that name (SW-4.3)?"""
        return bool(self.keys >> key_index & 1)

    # --- incremental updates --------------------------------------------------------------------
    def add_effect(self, e: Effect) -> None:
        """Apply the lasting part of an effect: production, shields, science, discounts."""
        if e.produce or e.produce_private:
            own_fixed, own_choices = self.own_fixed[:], self.own_choices[:]
            trade_fixed, trade_choices = self.trade_fixed, self.trade_choices
            if e.produce:
                trade_fixed, trade_choices = trade_fixed[:], trade_choices[:]
            for unit, tradeable in [(u, True) for u in e.produce] + [
                (u, False) for u in e.produce_private
            ]:
                if unit & (unit - 1) == 0:  # one resource: a fixed unit
                    i = unit.bit_length() - 1
                    own_fixed[i] += 1
                    if tradeable:
                        trade_fixed[i] += 1
                else:
                    own_choices.append(unit)
                    if tradeable:
                        trade_choices.append(unit)
            self.own_fixed, self.own_choices = own_fixed, own_choices
            self.own_sig = production_sig(own_fixed, own_choices)
            if e.produce:
                self.trade_fixed, self.trade_choices = trade_fixed, trade_choices
                self.trade_sig = production_sig(trade_fixed, trade_choices)
        self.shields += e.shields
        if e.science >= 0:
            self.science[e.science] += 1
        self.wilds += e.science_wild
        self.discount |= e.discount

    def add_structure(self, card_index: int) -> None:
        """Place a card in the city (SW-4.2) and apply its lasting effect."""
        card = CARDS[card_index]
        self.built.append(card_index)
        self.keys |= 1 << card.key_index
        self.colors[card.color] += 1
        self.add_effect(card.effect)

    def add_stage(self, marker: int) -> Stage:
        """Build the next stage with ``marker`` tucked under the board (SW-4.4)."""
        stage = self.board_stages[self.stages]
        self.stages += 1
        self.stage_cards.append(marker)
        self.add_effect(stage.effect)
        return stage

    def stage_grants_discard_build(self, number: int) -> bool:
        """Does stage ``number`` (1-based) grant the Halikarnassus build (SW-10.11)?"""
        return self.board_stages[number - 1].effect.power == POWER_DISCARD_BUILD

    def to_json(self) -> JSON:
        """JSON form (derived values are rebuilt on load)."""
        return {
            "board": BOARDS[self.board].id,
            "side": "AB"[self.side],
            "coins": self.coins,
            "structures": [CARDS[i].id for i in self.built],
            "stage_cards": [CARDS[i].id for i in self.stage_cards],
            "tokens": list(self.tokens),
            "free_used": self.free_used,
        }

    @classmethod
    def from_json(cls, doc: JSON) -> City:
        """Rebuild a city, replaying its structures and stages to derive production etc."""
        board = next(b.index for b in BOARDS if b.id == doc["board"])
        c = cls.new(board, "AB".index(doc["side"]), int(doc["coins"]))
        for cid in doc["structures"]:
            c.add_structure(CARD_INDEX[cid])
        for cid in doc["stage_cards"]:
            c.add_stage(CARD_INDEX[cid])
        c.tokens = [int(t) for t in doc["tokens"]]
        c.defeats = sum(1 for t in c.tokens if t < 0)
        c.free_used = bool(doc["free_used"])
        return c


# A commitment: (kind, card, coins to left, coins to right, free reason).
Commit = tuple[int, int, int, int, int]
# A payment still to be chosen: (kind, card, options).
AwaitPay = tuple[int, int, tuple[tuple[int, int], ...]]


def age_event(age: int) -> JSON:
    """The log event of an age's start: its number and where hands pass (SW-3.2, SW-3.5)."""
    return {"age": age, "turn": 1, "kind": "age", "direction": "right" if age == 2 else "left"}


class SevenWondersState(CachedLegalState):
    """A 7 Wonders game position. See ``rules/turn.py`` for how it moves."""

    __slots__ = (
        "_legal",
        "_log",
        "_plans",
        "age",
        "await_pay",
        "cities",
        "commits",
        "controller",
        "discard",
        "discard_known",
        "game",
        "hali_city",
        "hali_due",
        "hands",
        "history",
        "n",
        "needs",
        "options",
        "phase",
        "players",
        "rng",
        "seed",
        "turn",
        "two_player",
    )

    game: Game
    players: int
    seed: int
    options: JSON
    history: list[tuple[int, int]]
    n: int  # cities (3 in the 2-player variant: the Free City is city 0)
    two_player: bool
    cities: list[City]
    hands: list[list[int]]  # per city; in the 2-player game hands[0] is the Free City pile
    discard: list[int]
    discard_known: list[int]  # per discard entry: the seat that knows its identity, or -1
    age: int
    turn: int
    phase: int
    controller: int  # 2-player: the city holding the Free City card; else -1
    needs: list[bool]  # per city: owes a decision this step
    commits: list[Commit | None]
    await_pay: list[AwaitPay | None]
    hali_due: int  # city that completed a discard-build stage this turn, or -1
    hali_city: int  # city deciding the Halikarnassus build now, or -1
    rng: Rng
    _log: list[JSON] | None
    _legal: dict[int, list[int]]
    #: per seat, the draw-independent part of ``determinize`` (``view._plan``), or None; like
    #: ``_legal`` a cache of this position, dropped by ``_apply`` (code that edits a state's
    #: fields directly must reset both, as ``tests/seven_wonders/scenario.py`` does)
    _plans: dict[int, Any] | None

    # --- the event log ------------------------------------------------------------------------
    @property
    def log(self) -> list[JSON] | None:
        """The structured event log (``None``: off, the default; see ``rules/turn.py _event``).

        Age I starts inside ``new_game`` (SW-3.2), before anyone can switch the log on, so
        switching it on with an empty list at the very start of the game records that start:
        the log then opens with Age I's ``age`` event like Ages II and III."""
        return self._log

    @log.setter
    def log(self, value: list[JSON] | None) -> None:
        if value is not None and not value and self._at_start():
            value.append(age_event(1))
        self._log = value

    def _at_start(self) -> bool:
        """Nothing has happened yet: Age I, turn 1, no move applied."""
        try:
            return not self.history and self.age == 1 and self.turn == 1
        except AttributeError:  # a state still being built field by field
            return False

    # --- seats and cities ---------------------------------------------------------------------
    def city_of(self, seat: int) -> int:
        """The city a seat plays (2-player: seat s plays city s + 1)."""
        return seat + 1 if self.two_player else seat

    def seat_of(self, city: int) -> int:
        """The seat owning a city (-1 for the Free City)."""
        if self.two_player:
            return city - 1
        return city

    def decider(self, city: int) -> int:
        """The seat that decides for a city now (the Free City: its controller, SW-14.4)."""
        if self.two_player and city == 0:
            return self.controller - 1
        return self.seat_of(city)

    def left(self, city: int) -> int:
        """LEFT(i) = i + 1 (clockwise, SW-0.6)."""
        return (city + 1) % self.n

    def right(self, city: int) -> int:
        """RIGHT(i) = i - 1 (SW-0.6)."""
        return (city - 1) % self.n

    def seat_cities(self, seat: int) -> list[int]:
        """Cities this seat decides for now, in decision order (own city, then the Free City)."""
        own = self.city_of(seat)
        if self.two_player and self.controller == own:
            return [own, 0]
        return [own]

    def current_city(self, seat: int) -> int:
        """The city whose decision ``seat`` owes now, or -1."""
        if self.phase == OVER:
            return -1
        if not self.two_player:  # one city per seat
            return seat if self.needs[seat] and self.commits[seat] is None else -1
        for c in self.seat_cities(seat):
            if self.needs[c] and self.commits[c] is None:
                return c
        return -1

    # --- core API ---------------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """Seats that owe a decision now (several in a simultaneous main step)."""
        if self.phase == OVER:
            return ()
        if not self.two_player:
            needs, commits = self.needs, self.commits
            return tuple(s for s in range(self.players) if needs[s] and commits[s] is None)
        return tuple(s for s in range(self.players) if self.current_city(s) >= 0)

    def owes_decision(self, seat: int) -> bool:
        """Does ``seat`` owe a decision now?"""
        return self.current_city(seat) >= 0

    def move_open(self, seat: int) -> bool:
        """A card is chosen and its payment plan is still to choose (SW-7.10): the choice of
        the card may still be withdrawn (nothing is revealed until every seat has committed)."""
        c = self.current_city(seat)
        return c >= 0 and self.await_pay[c] is not None

    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids for ``seat`` (cached until the state changes)."""
        hit = self._legal.get(seat)
        if hit is None:
            hit = self._legal[seat] = (_turn or _rules()).legal_actions(self, seat)
        return hit

    def describe(self, seat: int, action: int) -> str:
        """A readable label of ``action`` for ``seat`` now."""
        return (_turn or _rules()).describe(self, seat, action)  # type: ignore[no-any-return]

    def _apply(self, seat: int, action: int) -> None:
        # Until the step resolves, an action changes only the acting seat's own decision (its
        # hand, commitment or pending payment): the other seats' cached legal actions stay valid.
        # Every resolution moves (phase, age, turn) on, and then the whole cache is dropped.
        self._legal.pop(seat, None)
        self._plans = None
        phase, age, turn = self.phase, self.age, self.turn
        (_turn or _rules()).apply(self, seat, action)
        if self.phase != phase or self.turn != turn or self.age != age:
            self._legal.clear()

    def is_terminal(self) -> bool:
        """True after the Age III conflicts (SW-3.8)."""
        return self.phase == OVER

    def result(self) -> Result:
        """Scores with the seven-category breakdown and tie-broken ranking (SW-12, SW-13)."""
        from civtable.games.seven_wonders import scoring

        return scoring.result(self)

    def view(self, seat: int | None, *, labels: bool = True) -> JSON:
        """What ``seat`` may know (SW-3.9); ``None`` = spectator."""
        from civtable.games.seven_wonders import view

        return view.view(self, seat, labels=labels)

    def determinize(self, seat: int, rng: Rng) -> SevenWondersState:
        """A full state consistent with ``view(seat)``, hidden cards re-dealt."""
        from civtable.games.seven_wonders import view

        return view.determinize(self, seat, rng)

    def copy(self) -> SevenWondersState:
        """A cheap independent copy (the cached legal actions, valid for both, are shared)."""
        s = SevenWondersState.__new__(SevenWondersState)
        s.game = self.game
        s.players = self.players
        s.seed = self.seed
        s.options = self.options
        s.history = self.history[:]
        s.n = self.n
        s.two_player = self.two_player
        s.cities = [c.copy() for c in self.cities]
        s.hands = [h[:] for h in self.hands]
        s.discard = self.discard[:]
        s.discard_known = self.discard_known[:]
        s.age = self.age
        s.turn = self.turn
        s.phase = self.phase
        s.controller = self.controller
        s.needs = self.needs[:]
        s.commits = self.commits[:]
        s.await_pay = self.await_pay[:]
        s.hali_due = self.hali_due
        s.hali_city = self.hali_city
        s.rng = self.rng.copy()
        s._log = None if self._log is None else self._log[:]
        s._legal = self._legal.copy()  # lists never mutated: replaced when the state changes
        s._plans = None
        return s

    # --- serialization ------------------------------------------------------------------------
    def to_json(self) -> JSON:
        """The complete state (including hidden cards and the generator)."""

        def commit_json(c: Commit | None) -> Any:
            return None if c is None else [c[0], CARDS[c[1]].id, c[2], c[3], c[4]]

        def await_json(a: AwaitPay | None) -> Any:
            return None if a is None else [a[0], CARDS[a[1]].id, [list(p) for p in a[2]]]

        doc: JSON = {
            "game": self.game.id,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "age": self.age,
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "controller": self.controller,
            "cities": [c.to_json() for c in self.cities],
            "hands": [[CARDS[i].id for i in h] for h in self.hands],
            "discard": [CARDS[i].id for i in self.discard],
            "discard_known": list(self.discard_known),
            "needs": list(self.needs),
            "commits": [commit_json(c) for c in self.commits],
            "await_pay": [await_json(a) for a in self.await_pay],
            "hali_due": self.hali_due,
            "hali_city": self.hali_city,
            "rng": self.rng.state,
            "history": [[s, a] for s, a in self.history],
        }
        if self.log is not None:
            doc["log"] = list(self.log)
        return doc

    def state_hash(self) -> str:
        """Stable digest of the position (history and log excluded)."""
        log, self._log = self._log, None
        try:
            return super().state_hash()
        finally:
            self._log = log

    @classmethod
    def from_json(cls, game: Game, doc: JSON) -> SevenWondersState:
        """Inverse of :meth:`to_json`."""
        try:
            s = cls.__new__(cls)
            s.game = game
            s.players, s.seed = int(doc["players"]), int(doc["seed"])
            s.options = dict(doc["options"])
            s.history = [(int(a), int(b)) for a, b in doc["history"]]
            s.cities = [City.from_json(c) for c in doc["cities"]]
            s.n = len(s.cities)
            s.two_player = s.players == 2
            s.hands = [[CARD_INDEX[c] for c in h] for h in doc["hands"]]
            s.discard = [CARD_INDEX[c] for c in doc["discard"]]
            s.discard_known = [int(k) for k in doc["discard_known"]]
            s.age, s.turn = int(doc["age"]), int(doc["turn"])
            s.phase = PHASE_NAMES.index(doc["phase"])
            s.controller = int(doc["controller"])
            s.needs = [bool(x) for x in doc["needs"]]
            s.commits = [
                None
                if c is None
                else (int(c[0]), CARD_INDEX[c[1]], int(c[2]), int(c[3]), int(c[4]))
                for c in doc["commits"]
            ]
            s.await_pay = [
                None
                if a is None
                else (int(a[0]), CARD_INDEX[a[1]], tuple((int(p[0]), int(p[1])) for p in a[2]))
                for a in doc["await_pay"]
            ]
            s.hali_due, s.hali_city = int(doc["hali_due"]), int(doc["hali_city"])
            s.rng = Rng.from_state(int(doc["rng"]))
            s.log = list(doc["log"]) if "log" in doc else None
            s._legal = {}
            s._plans = None
        except (KeyError, TypeError, ValueError, IndexError, StopIteration) as exc:
            raise SerializationError(f"not a valid 7 Wonders state: {exc!r}") from exc
        if len(s.hands) != s.n or len(s.needs) != s.n or len(s.discard_known) != len(s.discard):
            raise SerializationError("not a valid 7 Wonders state: inconsistent sizes")
        return s
