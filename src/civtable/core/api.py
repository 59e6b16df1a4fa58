"""The game-agnostic contract: :class:`Game`, :class:`State` and :class:`Result`.

Every civtable game implements these two classes; bots, the server, simulations and the RL
wrappers use nothing else. The shape follows OpenSpiel's Game/State split, with three additions
that the four civilization games need:

* **Simultaneous decisions.** :meth:`State.to_move` returns *every* seat that owes a decision now.
  In 7 Wonders all seats pick at once; each :meth:`State.apply` stores one seat's commitment,
  hidden from the others' views, and the ``apply`` that completes the set resolves the step.
* **Compound actions as short decision sequences.** A move that needs several choices (a card,
  then a payment plan; a building, then a region) is asked one small decision at a time. Action
  ids stay small integers below :meth:`Game.action_space_size`, legal lists stay short.
* **Hidden information.** :meth:`State.view` is the only source of what a seat (or a spectator)
  may see; :meth:`State.determinize` samples a full state consistent with a seat's view, which
  makes information-set search generic.

A minimal loop, as every caller writes it::

    from civtable import games
    game = games.get("seven-wonders")
    state = game.new_game(players=4, seed=7)
    while not state.is_terminal():
        for seat in state.to_move():
            state.apply(seat, state.legal_actions(seat)[0])
    print(state.result().scores)
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from civtable.core.errors import IllegalActionError, InvalidOptionsError, NotYourTurnError
from civtable.core.rng import Rng

JSON = dict[str, Any]


@dataclass(frozen=True)
class Result:
    """Final outcome of a game.

    ``scores[s]`` is seat ``s``'s total, ``breakdown[s]`` maps each scoring category (in
    :attr:`categories` order) to its points and sums to ``scores[s]``. ``ranking[s]`` is the
    place of seat ``s`` after tie-breaks (0 = first; co-winners share a place). ``winners`` lists
    the seats in place 0. ``tiebreak[s]`` is the value used to break ties on score (e.g. coins).
    """

    scores: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...]
    categories: tuple[str, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreak: tuple[int, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def rewards(self) -> tuple[float, ...]:
        """Win reward per seat: the victory is split equally among co-winners (SW-13.3 style)."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if s in self.winners else 0.0 for s in range(len(self.scores)))

    def to_json(self) -> JSON:
        """JSON-ready form."""
        return {
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "categories": list(self.categories),
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "tiebreak": list(self.tiebreak),
            "extra": dict(self.extra),
        }


def rank_by(
    keys: Sequence[tuple[int, ...]], eligible: Sequence[int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rank seats by descending key tuples; equal keys share a place.

    Returns ``(ranking, winners)``. Seats not in ``eligible`` (e.g. a neutral city) get place
    ``len(keys)`` and never win.

    >>> rank_by([(58, 7), (58, 9), (57, 20)])
    ((1, 0, 2), (1,))
    """
    seats = list(range(len(keys))) if eligible is None else list(eligible)
    order = sorted(seats, key=lambda s: keys[s], reverse=True)
    ranking = [len(keys)] * len(keys)
    place = 0
    for i, s in enumerate(order):
        if i > 0 and keys[s] != keys[order[i - 1]]:
            place = i
        ranking[s] = place
    winners = tuple(s for s in order if ranking[s] == 0)
    return tuple(ranking), tuple(sorted(winners))


class State(ABC):
    """A mutable game position. One owner at a time; use :meth:`copy` to branch.

    Seats are numbered ``0 .. players-1``. Every method that takes a seat validates it.
    """

    #: the static game this state belongs to
    game: Game

    # --- decisions -------------------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats owing a decision now, ascending; several = simultaneous; empty at the end."""

    def owes_decision(self, seat: int) -> bool:
        """Is ``seat`` among :meth:`to_move`? (Games may answer faster.)"""
        return seat in self.to_move()

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]:
        """Sorted legal action ids for ``seat`` (empty if the seat owes no decision now)."""

    @abstractmethod
    def describe(self, seat: int, action: int) -> str:
        """A readable label for ``action`` as ``seat`` would take it now, e.g.
        ``"build Caravansery, pay 2 to the left neighbour"``."""

    @abstractmethod
    def _apply(self, seat: int, action: int) -> None:
        """Apply a validated legal action (called by :meth:`apply`)."""

    def apply(self, seat: int, action: int) -> None:
        """Apply ``action`` for ``seat``.

        Raises :class:`NotYourTurnError` if the seat owes no decision, and
        :class:`IllegalActionError` for a malformed or illegal action; in both cases the state
        is unchanged.
        """
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(
                f"an action is an integer id, got {type(action).__name__}", seat=seat, action=action
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(f"no seat {seat!r} in a {self.players}-player game", seat=seat)
        if not self.owes_decision(seat):
            raise NotYourTurnError(f"seat {seat} has no decision to make now", seat=seat)
        if action not in self.legal_actions(seat):
            raise IllegalActionError(
                f"action {action} is not legal for seat {seat} now", seat=seat, action=action
            )
        self._apply(seat, action)
        self.history.append((seat, action))

    def move_open(self, seat: int) -> bool:
        """Is ``seat`` in the middle of a compound move it may still withdraw?

        True when the decision ``seat`` owes now continues the move its previous action began
        (a payment after the card, a region after the building, the next option of a card) and
        nothing hidden has been revealed since that move began (no card drawn, no die rolled,
        no other seat's commitment resolved). A table holds such steps back, seen only by their
        seat and never stored, until the move is complete, so the player can cancel them
        (the server's tentative steps). The default, False, makes every action final.
        """
        return False

    # --- outcome ---------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abstractmethod
    def result(self) -> Result:
        """Final scores with breakdown and ranking (the projection so far if not terminal)."""

    # --- information -----------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None, *, labels: bool = True) -> JSON:
        """Everything ``seat`` may know, as JSON-ready data; ``None`` = a spectator (public only).

        ``labels=False`` leaves out the readable labels of legal actions (machine observers).

        This is the only function that decides visibility: servers, bots and RL observations
        are all built from it.
        """

    @abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A full state consistent with ``view(seat)``: what the seat cannot see is re-dealt
        at random (other hands, face-down cards, future decks, others' hidden commitments)."""

    # --- copying and serialization ---------------------------------------------------------
    @abstractmethod
    def copy(self) -> State:
        """An independent copy (cheap: immutable card tables are shared)."""

    @abstractmethod
    def to_json(self) -> JSON:
        """Complete state as JSON-ready data; ``game.state_from_json`` reverses it exactly."""

    def hash_document(self) -> JSON:
        """What :meth:`state_hash` digests: :meth:`to_json` without ``history``. A subclass may
        build it without the history instead of dropping it (the same document)."""
        doc = self.to_json()
        doc.pop("history", None)
        return doc

    def state_hash(self) -> str:
        """A stable hex digest of the position (history excluded), equal across processes."""
        doc = self.hash_document()
        blob = json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.blake2b(blob, digest_size=16).hexdigest()

    # --- common attributes -----------------------------------------------------------------
    players: int
    seed: int
    #: the game options as JSON-ready data (defaults filled in)
    options: JSON
    #: every (seat, action) applied since ``new_game``, in order: the replay log
    history: list[tuple[int, int]]


class CachedLegalState(State):
    """A :class:`State` that caches each seat's legal actions and trusts the cache in ``apply``.

    A subclass keeps, in ``_legal``, seat -> the list :meth:`legal_actions` returned for that
    seat in this position, and must keep two promises:

    * the cache holds only lists of the current position: ``_apply`` (and any code that edits
      the fields of a state by hand) drops every list that may have gone stale;
    * a list held for a seat is that seat's current decision: a seat that owes no decision is
      either absent or holds an empty list.

    Then an action found in a seat's cached list is legal and owed, and :meth:`apply` skips the
    general checks for it. Anything else (no cached list, an action not in it, a ``bool`` or
    other non-``int`` argument, a seat out of range) takes :meth:`State.apply`'s checks, with
    their errors, and leaves the state unchanged on an error. The rules therefore see the same
    calls either way; only the cost of validation differs.
    """

    __slots__ = ()

    #: seat -> its cached legal actions in this position (lists are replaced, never mutated)
    _legal: dict[int, list[int]]

    def apply(self, seat: int, action: int) -> None:
        """Apply ``action`` for ``seat``, validated as :meth:`State.apply` validates it (the
        fast path: plain ints and a cached legal list holding the action)."""
        legal = self._legal.get(seat)
        if (
            legal is not None
            and type(action) is int
            and type(seat) is int
            and 0 <= seat < self.players
            and action in legal
        ):
            self._apply(seat, action)
            self.history.append((seat, action))
            return
        State.apply(self, seat, action)


class Game(ABC):
    """Static facts and the factory of one game. One instance per game id, stateless."""

    id: str
    name: str
    min_players: int
    max_players: int
    #: actions by which a player leaves the game (Through the Ages' resignation): the random
    #: bot takes them only when nothing else is legal, so random games are whole games
    concede_actions: ClassVar[frozenset[int]] = frozenset()

    @abstractmethod
    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game after setup. Raises :class:`InvalidOptionsError` for bad players/options."""

    @abstractmethod
    def action_space_size(self, players: int, options: Mapping[str, Any] | None = None) -> int:
        """Number of action ids; every legal action is below it (fixed, for masks)."""

    def action_ids(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> Sequence[int] | None:
        """The ids a position of this player count and options can ever make legal, ascending,
        for a game whose id table is mostly unused; the learning environments number these
        ``0 .. len - 1`` (:class:`civtable.rl.action_map.ActionMap`). ``None`` (the default):
        every id below :meth:`action_space_size` may be legal, and the environments use the
        ids as they are. A legal id missing from the list is a bug the environments report."""
        return None

    @abstractmethod
    def state_from_json(self, doc: JSON) -> State:
        """Rebuild a state from :meth:`State.to_json`. Raises :class:`SerializationError`."""

    @abstractmethod
    def default_options(self) -> JSON:
        """The options with their default values, as JSON-ready data."""

    def check_players(self, players: int) -> None:
        """Raise :class:`InvalidOptionsError` unless ``players`` is a valid player count."""
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not self.min_players <= players <= self.max_players
        ):
            raise InvalidOptionsError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, "
                f"not {players!r}"
            )

    def describe_rules(self) -> str:
        """Where the rules live (spec file and rule-id prefix)."""
        return ""

    def upgrade_options(self, options: Mapping[str, Any] | None) -> JSON:
        """Options of a game recorded by an earlier version, made explicit: a default that
        changed since is filled with the value it had then, so old games replay unchanged.
        New records store every option explicitly (the server fills the defaults in)."""
        return dict(options or {})

    def replay(
        self,
        players: int,
        seed: int,
        actions: Sequence[tuple[int, int]],
        options: Mapping[str, Any] | None = None,
    ) -> State:
        """Rebuild a game from its setup and action log (identical :meth:`State.state_hash`)."""
        state = self.new_game(players, seed, options)
        for i, (seat, action) in enumerate(actions):
            try:
                state.apply(seat, action)
            except IllegalActionError as exc:
                raise IllegalActionError(
                    f"replay step {i}: {exc}", seat=seat, action=action
                ) from exc
        return state
