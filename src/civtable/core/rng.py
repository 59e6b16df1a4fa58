"""A small, seeded, copyable random generator owned by each game state.

The generator is SplitMix64 (Steele, Lea and Flood, 2014): its whole state is one 64-bit integer,
so copying a game state copies its randomness for free and a JSON document can store it exactly.
No code in civtable uses the global :mod:`random` module; every shuffle and roll of a game draws
from the :class:`Rng` of its state, so ``(seed, actions)`` reproduces a game bit for bit.

>>> r = Rng(42)
>>> cards = list(range(5))
>>> r.shuffle(cards)
>>> cards == sorted(cards)
False
>>> Rng(42).randbelow(6) == Rng(42).randbelow(6)
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
#: ``randbelow(n)``'s rejection limit for the small bounds of shuffles and samples
_NLIMITS = 256
_LIMITS = (0, *(_MASK - (_MASK % n) for n in range(1, _NLIMITS)))


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64 pseudo-random generator with an integer state.

    ``Rng(seed)`` accepts any integer seed (negative and large seeds are folded to 64 bits
    through a mixing step, so nearby seeds give unrelated streams).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = _mix((seed & _MASK) ^ 0x5DEECE66D)

    def next_u64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n & (n - 1) == 0:
            return self.next_u64() & (n - 1)
        limit = _MASK - (_MASK % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """Return a float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates: position ``i`` swaps with
        ``randbelow(i + 1)``, from the last position down).

        Dealing and search re-deal shuffle thousands of times a second, so the SplitMix64 steps
        of :meth:`randbelow` are written inline here (one Python call per shuffle, not three per
        number); the draws and the generator afterwards are exactly :meth:`randbelow`'s (tested
        in ``tests/test_core.py``). Subclasses that answer ``randbelow`` differently override
        this too.
        """
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < _NLIMITS else _MASK - (_MASK % n)
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * _M1) & _MASK
                z = ((z ^ (z >> 27)) * _M2) & _MASK
                z ^= z >> 31
                if n & i == 0:  # a power of two: masked, never rejected
                    j = z & i
                    break
                if z < limit:
                    j = z % n
                    break
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: Sequence[T]) -> T:
        """Return a uniformly chosen element of a non-empty sequence."""
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """Return ``k`` distinct elements of ``items`` in random order."""
        pool = list(items)
        size = len(pool)
        if not 0 <= k <= size:
            raise ValueError("sample larger than population")
        # position i swaps with i + randbelow(size - i), inline as in shuffle
        state = self.state
        for i in range(k):
            n = size - i
            limit = _LIMITS[n] if n < _NLIMITS else _MASK - (_MASK % n)
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * _M1) & _MASK
                z = ((z ^ (z >> 27)) * _M2) & _MASK
                z ^= z >> 31
                if n & (n - 1) == 0:
                    j = i + (z & (n - 1))
                    break
                if z < limit:
                    j = i + z % n
                    break
            pool[i], pool[j] = pool[j], pool[i]
        self.state = state
        return pool[:k]

    def fork(self) -> Rng:
        """Return a new generator seeded from this one (independent stream)."""
        child = Rng.__new__(Rng)
        child.state = _mix(self.next_u64() ^ 0xD1B54A32D192ED03)
        return child

    def copy(self) -> Rng:
        """Return a generator in exactly the same state."""
        twin = Rng.__new__(Rng)
        twin.state = self.state
        return twin

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """Rebuild a generator from :attr:`state` (as stored in JSON)."""
        if not isinstance(state, int) or not 0 <= state <= _MASK:
            raise ValueError("an Rng state is an integer in [0, 2**64)")
        r = cls.__new__(cls)
        r.state = state
        return r
