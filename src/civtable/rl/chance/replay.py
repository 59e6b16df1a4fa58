"""Explicit chance by replay: an engine's own random calls turned into chance decisions.

The engines of Deus and Civilization: A New Dawn draw all their randomness from a
:class:`~civtable.core.Rng` (setup: deck shuffles, leaders, wonder decks, boards; during play: the
Deus discard reshuffle, the Civilization combat and barbarian dice). Instead of re-implementing
those draws, a :class:`ReplayChance` driver runs the engine's own code with a
:class:`ScriptedRng` that answers each random call from a script of chance outcomes; a call past
the end of the script raises :class:`NeedChance`, the driver turns the request into explicit
chance decisions, appends the answer to the script and runs the code again from the start. So the
engine's exact sequence of random calls is reproduced with explicit outcomes:

* ``randbelow(n)``: one decision, outcomes ``0..n-1``, each ``1/n`` (``n = 1`` needs none);
* ``shuffle(items)``: one decision per position, from the last position (the top of a deck that
  is drawn with ``pop()``) to the first; an outcome is an item (its value if the items are
  non-negative ints, e.g. card types, else its index), with probability (copies left) / (items
  left), which is exactly a uniform shuffle of the multiset. When only one kind is left the rest
  is filled without a decision;
* ``sample(items, k)``: ``k`` decisions in draw order, the same way (uniform ordered sample);
* ``choice`` goes through ``randbelow``; ``random``/``next_u64`` are not supported (no engine uses
  them in play).

Between moves the engine state holds a :class:`RecordingRng` that returns dummy values and counts
calls. After each player move the driver looks at the count: if the move used randomness, the
move is replayed from the position before it (kept as a snapshot) with a scripted generator, one
chance request at a time, and the dummy outcome is thrown away. An OpenSpiel history therefore
determines the state exactly. While a mid-game chance decision is pending, :attr:`state` is the
position before the move.
"""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, TypeVar

from civtable.core.api import Game, State
from civtable.core.rng import Rng
from civtable.rl.chance import ChanceDriver

T = TypeVar("T")

#: request kinds
BELOW, SHUFFLE, SAMPLE = "below", "shuffle", "sample"
Request = tuple[Any, ...]  # (BELOW, n) | (SHUFFLE, items) | (SAMPLE, items, k)


class NeedChance(Exception):  # noqa: N818 (a control-flow signal, not an error)
    """Raised by :class:`ScriptedRng` when the script has no answer for a random call."""

    def __init__(self, request: Request) -> None:
        super().__init__(request[0])
        self.request = request


def _keys(items: Sequence[Any]) -> list[int]:
    """Outcome keys of the items: the values if they are non-negative ints, else the index of
    the first equal item."""
    if all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in items):
        return [int(x) for x in items]
    return [items.index(x) for x in items]


class ScriptedRng(Rng):
    """A generator answering every random call from a script (see the module doc)."""

    __slots__ = ("pos", "script")

    def __init__(self, script: list[tuple[str, Any]]) -> None:
        super().__init__(0)
        self.script = script
        self.pos = 0

    def _answer(self, request: Request) -> Any:
        if self.pos < len(self.script):
            kind, value = self.script[self.pos]
            if kind != request[0]:
                raise RuntimeError(
                    f"the engine's random calls changed on replay: {kind} then {request[0]}"
                )
            self.pos += 1
            return value
        raise NeedChance(request)

    def randbelow(self, n: int) -> int:
        """The scripted value in ``[0, n)``."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        value = int(self._answer((BELOW, n)))
        if not 0 <= value < n:
            raise RuntimeError(f"scripted value {value} is not below {n}")
        return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Put ``items`` in the scripted order."""
        if len(items) < 2:
            return
        order = self._answer((SHUFFLE, tuple(items)))
        items[:] = [items[i] for i in order]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """The scripted ordered sample."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        if k == 0:
            return []
        picks = self._answer((SAMPLE, tuple(pool), k))
        return [pool[i] for i in picks]

    def next_u64(self) -> int:
        """Not supported: raw bits have no explicit chance model."""
        raise NotImplementedError("explicit chance supports randbelow, shuffle and sample only")

    def copy(self) -> Rng:
        """A dummy generator (a copy made inside a move is a look-ahead, not the game)."""
        return RecordingRng()

    def fork(self) -> Rng:
        """A dummy generator, as :meth:`copy`."""
        return RecordingRng()


class RecordingRng(Rng):
    """The generator of a driven state between moves: dummy values, counted calls."""

    __slots__ = ("calls",)

    def __init__(self) -> None:
        super().__init__(0)
        self.calls = 0

    def randbelow(self, n: int) -> int:
        """0, counted."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        self.calls += 1
        return 0

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Leaves ``items`` as they are, counted."""
        self.calls += 1

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """The first ``k`` items, counted."""
        self.calls += 1
        return list(items)[:k]

    def next_u64(self) -> int:
        """0, counted."""
        self.calls += 1
        return 0

    def copy(self) -> RecordingRng:
        """A fresh recorder."""
        return RecordingRng()

    def fork(self) -> RecordingRng:
        """A fresh recorder."""
        self.calls += 1
        return RecordingRng()


class ReplayChance(ChanceDriver):
    """A chance driver that replays the engine's setup and moves with scripted randomness."""

    #: the position before the last move (never mutated; replays start from copies)
    before: State | None

    def __init__(self, game: Game, players: int, options: Mapping[str, Any] | None) -> None:
        super().__init__(game, players, options)
        self.state = None
        self.before = None
        self.move: tuple[int, int] | None = None  # None: the setup is being drawn
        self.script: list[tuple[str, Any]] = []
        self.request: Request | None = None
        self.keys: list[int] = []  # outcome key of each item of a shuffle/sample request
        self.partial: list[int] = []  # item indices drawn so far for the request
        self.booted = False

    def start(self) -> None:
        """Ready to begin (subclasses call this at the end of ``__init__``). The setup runs on
        first use: pyspiel makes many throw-away drivers (a state's driver is replaced when the
        state is cloned), so building the state eagerly would cost a setup each."""
        self.booted = False

    def _boot(self) -> None:
        if not self.booted:
            self.booted = True
            self._run()

    # --- game-specific ------------------------------------------------------------------------
    @abstractmethod
    def setup(self, rng: Rng) -> State:
        """Build the initial state exactly as the engine's ``new_game`` does, with ``rng``."""

    def describe(self, request: Request, key: int, step: int) -> str:
        """A label of the chance outcome ``key`` (the ``step``-th decision of ``request``)."""
        if request[0] == BELOW:
            return f"random {key} of 0..{request[1] - 1}"
        return f"draw {step + 1}: item {key}"

    # --- the ChanceDriver API ----------------------------------------------------------------
    def pending(self) -> bool:
        """Is a random call of the engine waiting for its outcome?"""
        if not self.booted:
            self._boot()
        return self.request is not None

    def outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the due decision with their probabilities, sorted."""
        self._boot()
        request = self.request
        if request is None:
            return []
        if request[0] == BELOW:
            n = request[1]
            return [(i, 1.0 / n) for i in range(n)]
        left = self._left()
        total = sum(left.values())
        return sorted((k, c / total) for k, c in left.items())

    def apply(self, outcome: int) -> None:
        """Record the outcome; replay once the request is answered."""
        self._boot()
        request = self.request
        if request is None:
            raise ValueError("no chance decision is due")
        outcome = int(outcome)
        if request[0] == BELOW:
            if not 0 <= outcome < request[1]:
                raise ValueError(f"chance outcome {outcome} is not possible now")
            self._answered(outcome)
            return
        if self._left().get(outcome, 0) <= 0:
            raise ValueError(f"chance outcome {outcome} is not possible now")
        self._take(outcome)
        self._fill_forced()

    def after_move(self) -> None:
        """Replay the last move with explicit chance if it used the generator."""
        state = self.state
        assert state is not None
        rng = state.rng  # type: ignore[attr-defined]
        if isinstance(rng, RecordingRng) and rng.calls:
            self.move = state.history[-1]
            self.state = self.before  # the position before the move, until it is replayed
            self.script = []
            self._run()
        else:
            self.before = state.copy()

    def label(self, outcome: int) -> str:
        """A readable label of ``outcome`` for the due decision."""
        self._boot()
        request = self.request
        if request is None:
            return f"chance outcome {outcome}"
        return self.describe(request, int(outcome), len(self.partial))

    def progress(self) -> str:
        """The random call being answered."""
        self._boot()
        request = self.request
        if request is None:
            return ""
        what = "setup" if self.move is None else f"move {self.move}"
        if request[0] == BELOW:
            return f"{what}: random number below {request[1]}"
        size = len(request[1]) if request[0] == SHUFFLE else request[2]
        return f"{what}: {request[0]} {len(self.partial)}/{size} drawn"

    def copy(self) -> ReplayChance:
        """An independent copy (the snapshot before the last move is shared, read-only)."""
        twin = self.__class__.__new__(self.__class__)
        twin.__dict__.update(self.__dict__)
        if self.state is not None and self.state is not self.before:
            twin.state = self.state.copy()
        twin.script = self.script[:]
        twin.partial = self.partial[:]
        return twin

    def with_state(self, state: State) -> ReplayChance:
        """A copy driving ``state`` (a determinization of this driver's state)."""
        if self.request is not None:
            raise ValueError("cannot swap the state while chance decisions are pending")
        twin = self.__class__.__new__(self.__class__)
        twin.__dict__.update(self.__dict__)
        state.rng = RecordingRng()  # type: ignore[attr-defined]
        twin.state = state
        twin.before = state.copy()
        twin.script = []
        twin.partial = []
        return twin

    # --- internals ----------------------------------------------------------------------------
    def _left(self) -> Counter[int]:
        request = self.request
        assert request is not None
        taken = set(self.partial)
        return Counter(k for i, k in enumerate(self.keys) if i not in taken)

    def _take(self, key: int) -> None:
        """Draw the next item with outcome ``key`` (the highest index with that key left)."""
        taken = set(self.partial)
        index = max(i for i, k in enumerate(self.keys) if k == key and i not in taken)
        self.partial.append(index)

    def _fill_forced(self) -> None:
        """Fill the draws that have one possible outcome; replay when the request is done."""
        request = self.request
        assert request is not None
        size = len(request[1]) if request[0] == SHUFFLE else request[2]
        while len(self.partial) < size:
            left = self._left()
            if len(left) > 1:
                return
            self._take(next(iter(left)))
        if request[0] == SHUFFLE:
            # drawn from the last position to the first: position j holds the (n-1-j)-th draw
            self._answered(self.partial[::-1])
        else:
            self._answered(self.partial[:])

    def _answered(self, value: Any) -> None:
        request = self.request
        assert request is not None
        self.script.append((request[0], value))
        self.request = None
        self.partial = []
        self.keys = []
        self._run()

    def _run(self) -> None:
        """Run the setup or the move with the script; stop at the first unanswered call."""
        try:
            rng = ScriptedRng(self.script)
            if self.move is None:
                result = self.setup(rng)
            else:
                before = self.before
                assert before is not None
                result = before.copy()
                result.rng = rng  # type: ignore[attr-defined]
                result.apply(*self.move)
        except NeedChance as need:
            self.request = need.request
            if need.request[0] != BELOW:
                self.keys = _keys(need.request[1])
                self.partial = []
                top = max(self.keys)
                if top >= self.max_outcomes:
                    raise RuntimeError(
                        f"chance outcome {top} exceeds the declared {self.max_outcomes}"
                    ) from None
                self._fill_forced()
            elif need.request[1] > self.max_outcomes:
                raise RuntimeError(
                    f"{need.request[1]} chance outcomes exceed the declared {self.max_outcomes}"
                ) from None
            return
        result.rng = RecordingRng()  # type: ignore[attr-defined]
        self.state = result
        self.before = result.copy()
        self.move = None
        self.script = []


__all__ = ["NeedChance", "RecordingRng", "ReplayChance", "ScriptedRng"]
