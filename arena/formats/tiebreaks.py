"""Head-to-head records and tie-breaks from a tournament's played matches: what a crosstable
shows between two entrants and the tie-breaks a published table lists (docs/formats.md,
"Crosstables and tie-breaks"). Pure: plain results in, plain numbers out.

Two entrants who sat at one table met once in that match: the one placed better is *ahead*
(equal ranks: *level*). Scored as :func:`arena.formats.match_points` scores a match, a meeting
is worth 1 ahead, 0.5 level, 0 behind, divided by the table's seats less one, so that an
entrant's meetings add up to its match points (at two seats a meeting is the match itself).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from arena.formats.base import Result, Standings


@dataclass
class Meeting:
    """One entrant's record against one other over the matches both finished at one table."""

    ahead: int = 0
    level: int = 0
    behind: int = 0
    #: The share of the entrant's match points won in these meetings.
    points: float = 0.0

    @property
    def played(self) -> int:
        return self.ahead + self.level + self.behind

    def to_json(self) -> dict[str, float | int]:
        return {
            "ahead": self.ahead,
            "level": self.level,
            "behind": self.behind,
            "points": self.points,
        }


Meetings = dict[str, dict[str, Meeting]]


def head_to_head(results: Iterable[Result]) -> Meetings:
    """``out[a][b]``: how ``a`` did against ``b`` over the finished ``results`` (matches that
    ended in ``error`` count for nothing, as in the standings)."""
    out: Meetings = {}
    for res in results:
        if res.ranks is None or len(res.bots) < 2:
            continue
        share = 1 / (len(res.bots) - 1)
        for i, a in enumerate(res.bots):
            row = out.setdefault(a, {})
            for j, b in enumerate(res.bots):
                if i == j:
                    continue
                m = row.setdefault(b, Meeting())
                if res.ranks[i] < res.ranks[j]:
                    m.ahead += 1
                    m.points += share
                elif res.ranks[i] == res.ranks[j]:
                    m.level += 1
                    m.points += share / 2
                else:
                    m.behind += 1
    return out


def sonneborn_berger(
    rows: Standings, meetings: Mapping[str, Mapping[str, Meeting]]
) -> dict[str, float]:
    """Each entrant's Sonneborn-Berger score: for every opponent, the points won against them
    times the opponent's points (beating strong entrants counts more). Shown beside the
    format's own tie-breaks; ``ranking`` does not use it."""
    return {
        bot: sum(m.points * rows[other].points for other, m in meetings.get(bot, {}).items())
        for bot in rows
    }
