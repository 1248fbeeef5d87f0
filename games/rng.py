"""A small seeded PRNG whose whole state is one integer, so game states round-trip through JSON.

splitmix64: fast in pure Python, well distributed, and trivially serialisable, unlike
``random.Random`` whose state is 625 words.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """Deterministic random numbers; ``state`` is a plain int (store it in the game state)."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``, like ``random.randint``."""
        return lo + self.below(hi - lo + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]


def derive_seed(seed: int, *salt: int | str) -> int:
    """A new seed from ``seed`` and labels, e.g. one per round or per bot, reproducibly."""
    r = Rng(seed)
    acc = r.next64()
    for s in salt:
        v = s if isinstance(s, int) else int.from_bytes(str(s).encode()[:8].ljust(8, b"\0"), "big")
        acc = Rng(acc ^ (v & _MASK)).next64()
    return acc
