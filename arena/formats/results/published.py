"""A tournament's published results as plain data: its entrants with their standing rows, in
the format's ranking order, its matches with their seats and ranks, and the head-to-head
records. The platform reads them from its rows (``competitions.tournaments.results.data``);
the bracket, the crosstable and the rounds grid beside this module draw them, and know no
database."""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.contract import MatchStatus
from arena.formats.base import StandingRow
from arena.formats.tiebreaks import Meeting, Meetings

#: The status of a tournament (and of a match) that is over.
FINISHED = "finished"


@dataclass(frozen=True)
class Entrant:
    """One entrant's line: who (bot, version, owner) and the stored standing row."""

    key: str  # the format's name for it: the version's id
    version_id: int
    bot_id: int
    bot: str
    version: int
    #: The owner's user name ("deleted user" once they deleted their account).
    owner: str
    position: int
    row: StandingRow

    @property
    def label(self) -> str:
        return f"{self.bot} v{self.version}"


@dataclass(frozen=True)
class PlayedMatch:
    """One match of the tournament: its seats' entrants in seat order, and their ranks
    (None until it finished, or when it ended in ``error``)."""

    match_id: int
    round: int
    status: str
    bots: tuple[str, ...]
    ranks: tuple[int, ...] | None

    @property
    def finished(self) -> bool:
        return self.status == MatchStatus.FINISHED


@dataclass(frozen=True)
class Results:
    """What is published of a started tournament."""

    tournament_id: int
    format: str
    status: str
    entrants: list[Entrant]  # in the format's ranking order
    matches: list[PlayedMatch]  # by id
    meetings: Meetings
    sonneborn_berger: dict[str, float]
    by_key: dict[str, Entrant] = field(default_factory=dict)

    @property
    def winner(self) -> Entrant | None:
        """The first of a finished tournament."""
        if self.status != FINISHED or not self.entrants:
            return None
        return self.entrants[0]

    def meeting(self, a: str, b: str) -> Meeting | None:
        return self.meetings.get(a, {}).get(b)

    def matches_of(self, key: str) -> list[PlayedMatch]:
        return [m for m in self.matches if key in m.bots]

    def winner_matches(self) -> list[PlayedMatch]:
        """The winner's finished matches, the last first (a knockout's final leads)."""
        w = self.winner
        if w is None:
            return []
        return [m for m in reversed(self.matches_of(w.key)) if m.finished]
