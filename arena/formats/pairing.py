"""Two-seat Swiss pairing: one exact matching for a small field, blocks of the standings for
a big one, with the same guarantees.

The goals, in this order: repeat as few pairings as possible; give the bye to someone with
fewest byes; pair equal scores; pair neighbours in the standings; give the bye to the lowest.
:func:`exact_pairs` reaches all of them at once with a maximum-weight perfect matching over
every pair (integer weight tiers, so no rounding can swap two goals). networkx's blossom
algorithm is cubic in the field, though (4-23 s a round at 1,000 entrants), and a sparse
matching does not save it: the same algorithm on a band of 4 candidates per entrant still
took 0.7 s at 1,000.

So a field above :data:`EXACT_LIMIT` is paired as chess pairing programs do, within score
order with bounded look-ahead: the bye goes to the lowest placed of those with fewest byes,
then the standings are cut top down into blocks of :data:`BLOCK` neighbours, each paired by
the exact matching. A block whose best pairing still repeats a meeting doubles, taking in
the entrants below it (looking ahead) or, at the bottom, the blocks above it, until it pairs
without a repeat or would hold more than half the field.
The exact matching pairs neighbours anyway (1 v 2, 3 v 4, and moves off that only to avoid a
repeat or a score gap), so blocks of neighbours lose next to nothing: a pair across a block's
edge is the only pairing a block cannot make, and the block grows when it needs one.

The guarantees hold exactly, not just usually: a blocked round with no repeated pairing, and
its bye to someone with fewest byes, is as good as any on the first two goals (nothing beats
zero repeats and the fewest byes); when the blocks cannot show that (a block still repeats at
half the field), the whole field is paired by the exact matching. With far more entrants than
rounds played, as in a league, the blocks nearly always suffice: every entrant has met fewer
than one in :data:`BLOCK` of its block, so repeat-free pairings abound. A field that has
played about as many rounds as it has entrants pays the exact matching's price.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import networkx as nx

from arena.formats.base import StandingRow

#: Fields of up to this many entrants are always paired by one exact matching.
EXACT_LIMIT = 64
#: Entrants per block of a big field (even, so every block pairs off).
BLOCK = 16

Pairs = list[tuple[str, str]]


def swiss_pairs(ordered: Sequence[StandingRow]) -> tuple[Pairs, list[str]]:
    """The pairs (higher placed first, in standings order) and the bye of a two-seat round,
    ``ordered`` being the standings, best first."""
    if len(ordered) > EXACT_LIMIT:
        found = _blocked_pairs(ordered)
        if found is not None:
            return found
    return exact_pairs(ordered)


def repeats(pairs: Pairs, rows: dict[str, StandingRow]) -> int:
    """How many earlier meetings the pairs repeat (a pair that met twice counts two)."""
    return sum(rows[a].opponents.get(b, 0) for a, b in pairs)


def exact_pairs(ordered: Sequence[StandingRow]) -> tuple[Pairs, list[str]]:
    """Pairs and bye by a maximum-weight perfect matching whose weights rank the goals
    lexicographically (integer tiers, so no rounding can swap them)."""
    n = len(ordered)
    pos = {r.bot: i for i, r in enumerate(ordered)}
    half = [round(2 * r.points) for r in ordered]  # points are multiples of 1/2 at 2 seats
    spread = max(half) - min(half)
    t_rank = 1
    t_score = t_rank * (n * n + n + 1)
    t_bye = t_score * (n * (spread * spread + 1) + 1)
    t_repeat = t_bye * (n * (max(r.byes for r in ordered) + 1) + 1)
    top = t_repeat * (n * (max(max(r.opponents.values(), default=0) for r in ordered) + 1) + 1)
    g = nx.Graph()
    for i, j in combinations(range(n), 2):
        a, b = ordered[i], ordered[j]
        d = half[i] - half[j]
        cost = a.opponents.get(b.bot, 0) * t_repeat + d * d * t_score + (j - i - 1) * t_rank
        g.add_edge(a.bot, b.bot, weight=top - cost)
    bye = "\0bye"
    if n % 2:
        for i, r in enumerate(ordered):
            g.add_edge(r.bot, bye, weight=top - (r.byes * t_bye + (n - 1 - i) * t_rank))
    pairs: Pairs = []
    byes: list[str] = []
    for a, b in nx.max_weight_matching(g, maxcardinality=True):
        if bye in (a, b):
            byes.append(b if a == bye else a)
        else:
            pairs.append((a, b) if pos[a] < pos[b] else (b, a))
    pairs.sort(key=lambda p: pos[p[0]])
    return pairs, byes


def _blocked_pairs(ordered: Sequence[StandingRow]) -> tuple[Pairs, list[str]] | None:
    """Score-order blocks with bounded look-ahead (module docstring); None when a block that
    still repeats a meeting would grow past half the field."""
    rows = {r.bot: r for r in ordered}
    pool = list(ordered)
    byes: list[str] = []
    if len(pool) % 2:
        least = min(r.byes for r in pool)
        lowest = max(i for i, r in enumerate(pool) if r.byes == least)
        byes.append(pool.pop(lowest).bot)
    done: list[tuple[int, Pairs]] = []  # (first index, pairs) of each block paired so far
    start = 0
    while start < len(pool):
        end = _block_end(start, start + BLOCK, len(pool))
        while True:
            pairs, _ = exact_pairs(pool[start:end])
            if not repeats(pairs, rows):
                break
            if 2 * (end - start) > len(pool):
                return None  # half the field or more: one exact matching of it all
            size = end - start
            if end < len(pool):  # look ahead: twice the block
                end = _block_end(start, start + 2 * size, len(pool))
            else:  # the bottom: take in the blocks above, to twice the size
                while done and end - start < 2 * size:
                    start = done.pop()[0]
                if end - start == size:
                    return None
        done.append((start, pairs))
        start = end
    pos = {r.bot: i for i, r in enumerate(ordered)}
    out = sorted((p for _, block in done for p in block), key=lambda p: pos[p[0]])
    return out, byes


def _block_end(start: int, end: int, size: int) -> int:
    """A block's end: ``end``, or the bottom of the pool if less than half a block would be
    left below it (a tail that small is paired with the block above)."""
    return size if size - end < BLOCK // 2 else end
