"""Ratings and standings as pure functions over match results.

Three layers, each usable alone:

* **Elo** for one match: :func:`elo_match` takes the seats' ratings and ranks and returns the new
  ratings. Two seats is classic Elo. With more seats every pair of seats plays a virtual game
  decided by the finishing order (equal ranks are a draw) with K divided by the number of
  opponents, so one match moves a seat by at most K whatever the table size, and the updates sum
  to zero. :func:`elo_period` is the textbook update over several games at once.
* **OpenSkill** for one match: :func:`openskill_match` (the ``openskill`` library's
  Bradley-Terry "full pairing" model with its defaults) takes :class:`Skill` values and ranks,
  ties allowed. Not Plackett-Luce: in openskill 6.2 its tie handling is wrong with more than one
  group (ranks [1, 1, 3, 4] give third place the winners' mu; openskill.py issues #155 and #201),
  while Bradley-Terry full compares every pair, treats a tie as a draw (like our Elo), and is
  identical to Plackett-Luce for two seats.
* **Standings**: :func:`standings` folds a chronological list of :class:`MatchRecord` into one
  :class:`Standing` row per bot (matches, wins, average rank and score, faults, Elo, OpenSkill
  mu/sigma/ordinal, provisional flag). :func:`update_standings` does one match, for callers that
  keep the table between matches (the web leaderboard).

What moves ratings: a match whose ``status`` is ``"error"`` (the platform failed: worker died,
sandbox could not start, engine bug) is ignored entirely, it counts nowhere. Seat faults
(``timeout``, ``crashed``, ``illegal``, ``retired``) are the player's doing: the match counts and
the seat's rank (which the referee already put below every non-retired seat) is rated as is.
A match in which one bot holds several seats, or with a single seat, counts in the table's
statistics but does not move ratings (there is no opponent to be rated against).

Example::

    from arena.ratings import MatchRecord, standings
    table = standings([
        MatchRecord(bots=("alpha", "beta", "gamma"), ranks=(1, 2, 2), scores=(30, 12, 12)),
        MatchRecord(bots=("beta", "alpha"), ranks=(1, 2), scores=(5, 3),
                    seat_status=("ok", "timeout")),
        {"bots": ["alpha", "beta"], "ranks": [1, 2], "status": "error"},  # ignored
    ])
    for row in table.rows:        # best first (conservative OpenSkill ordinal)
        print(row.bot, row.elo, row.ordinal, row.provisional)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from openskill.models import BradleyTerryFull

from arena.contract import MatchStatus, SeatStatus

#: Elo of a bot that has never played, and the default K factor (FIDE's for new players).
DEFAULT_ELO = 1500.0
DEFAULT_K = 32.0
#: OpenSkill's own defaults: mu 25, sigma 25/3; the ordinal is mu - 3 sigma (starts at 0).
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
#: A bot with fewer rated matches than this is flagged provisional.
PROVISIONAL_MATCHES = 10

#: Seat statuses, as the match contract defines them (arena.contract.SeatStatus).
SEAT_OK = SeatStatus.OK.value
PLAYER_FAULTS = frozenset(s.value for s in SeatStatus if s.is_fault)
SEAT_STATUSES = frozenset(s.value for s in SeatStatus)
#: Match statuses: ``ok`` (a plain record) or ``finished`` (the contract's word) are rated;
#: ``error`` (a system failure) is ignored.
MATCH_OK = "ok"
MATCH_ERROR = MatchStatus.ERROR.value
MATCH_STATUSES = frozenset({MATCH_OK, MatchStatus.FINISHED.value, MATCH_ERROR})

#: The OpenSkill model used everywhere, with the library's defaults (its tau adds a little
#: uncertainty per match so that ratings can follow bots that improve).
OPENSKILL_MODEL = BradleyTerryFull()


class RatingError(ValueError):
    """Bad input to a rating function; the message says which value and why."""


# --------------------------------------------------------------------------------------- Elo


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of ``rating`` against ``opponent`` (0..1, 0.5 when equal)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_period(rating: float, games: Iterable[tuple[float, float]], k: float = DEFAULT_K) -> float:
    """The rating after several games rated at once: ``games`` holds (opponent rating, score)
    with score 1 for a win, 0.5 a draw, 0 a loss; expected scores use the ratings before."""
    delta = 0.0
    for opponent, score in games:
        if score not in (0, 0.5, 1):
            raise RatingError(f"a game's score must be 0, 0.5 or 1, got {score!r}")
        delta += score - expected_score(rating, opponent)
    return rating + k * delta


def _pair_score(rank: int, other: int) -> float:
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


def elo_match(ratings: Sequence[float], ranks: Sequence[int], k: float = DEFAULT_K) -> list[float]:
    """New Elo ratings of the seats of one match (ranks: 1 is first, equal ranks tied).

    Each pair of seats is one virtual game with K / (seats - 1), all computed from the ratings
    before the match: zero-sum, and with two seats exactly classic Elo.
    """
    _check_ranks(ranks, len(ratings))
    n = len(ratings)
    if n < 2:
        return [float(r) for r in ratings]
    k_pair = k / (n - 1)
    new = [float(r) for r in ratings]
    for i in range(n):
        for j in range(i + 1, n):
            # One delta applied with opposite signs keeps the sum exactly zero in theory.
            d = k_pair * (_pair_score(ranks[i], ranks[j]) - expected_score(ratings[i], ratings[j]))
            new[i] += d
            new[j] -= d
    return new


# --------------------------------------------------------------------------------- OpenSkill


@dataclass(frozen=True)
class Skill:
    """An OpenSkill (Weng-Lin) belief about a bot: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """A conservative skill, ``mu - 3 sigma``: ranks new bots below proven ones."""
        return self.mu - 3.0 * self.sigma


def openskill_match(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills of the seats of one free-for-all match (Plackett-Luce; ties allowed)."""
    _check_ranks(ranks, len(skills))
    if len(skills) < 2:
        return list(skills)
    teams = [[OPENSKILL_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = OPENSKILL_MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


# --------------------------------------------------------------------------------- Standings


@dataclass(frozen=True)
class MatchRecord:
    """One finished match, seat by seat (all tuples have one entry per seat).

    ``scores`` may be empty (no score shown); ``seat_status`` empty means every seat ``ok``.
    ``status`` is ``"ok"`` (or ``"finished"``) or ``"error"``: a system failure, ignored and so
    not checked further. Build one from JSON-like dicts with :meth:`from_json`.
    """

    bots: tuple[str, ...]
    ranks: tuple[int, ...]
    scores: tuple[float, ...] = ()
    seat_status: tuple[str, ...] = ()
    status: str = MATCH_OK
    id: str | None = None

    def __post_init__(self) -> None:
        where = f"match {self.id}" if self.id is not None else "match"
        for name in ("bots", "ranks", "scores", "seat_status"):
            value = getattr(self, name)
            if isinstance(value, str | bytes) or not isinstance(value, Sequence):
                raise RatingError(f"{where}: {name} must be a list, got {value!r}")
            object.__setattr__(self, name, tuple(value))
        if self.status not in MATCH_STATUSES:
            raise RatingError(
                f"{where}: status must be one of {sorted(MATCH_STATUSES)}, got {self.status!r}"
            )
        if self.status == MATCH_ERROR:
            return
        n = len(self.bots)
        if n == 0:
            raise RatingError(f"{where}: no seats")
        for bot in self.bots:
            if not isinstance(bot, str) or not bot:
                raise RatingError(f"{where}: bots must be non-empty strings, got {bot!r}")
        try:
            _check_ranks(self.ranks, n)
        except RatingError as e:
            raise RatingError(f"{where}: {e}") from None
        if self.scores:
            if len(self.scores) != n:
                raise RatingError(f"{where}: {len(self.scores)} scores for {n} seats")
            for s in self.scores:
                if isinstance(s, bool) or not isinstance(s, int | float) or not math.isfinite(s):
                    raise RatingError(f"{where}: scores must be finite numbers, got {s!r}")
        if self.seat_status:
            if len(self.seat_status) != n:
                raise RatingError(f"{where}: {len(self.seat_status)} seat statuses for {n} seats")
            for st in self.seat_status:
                if st not in SEAT_STATUSES:
                    raise RatingError(
                        f"{where}: seat status must be one of {sorted(SEAT_STATUSES)}, got {st!r}"
                    )

    @property
    def rated(self) -> bool:
        """True when this match moves ratings: not an error, 2+ seats, all bots distinct."""
        return (
            self.status != MATCH_ERROR
            and len(self.bots) >= 2
            and len(set(self.bots)) == len(self.bots)
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchRecord:
        """Read a match from plain JSON. Two shapes are accepted:

        * flat: ``{"bots", "ranks", "scores"?, "seat_status"?, "status"?, "id"?}``;
        * per seat, as the referee writes it (``MatchOutcome.to_json()``):
          ``{"match_id"?, "status", "seats": [{"bot", "rank", "score"?, "status"?}, ...]}``.

        Other keys (``game``, ``seed``, ``result``, a seat's ``faults``...) are ignored.
        """
        if not isinstance(data, Mapping):
            raise RatingError(f"a match must be an object, got {type(data).__name__}")
        raw_id = data.get("id", data.get("match_id"))
        match_id = None if raw_id is None else str(raw_id)
        where = f"match {match_id}" if match_id is not None else "match"
        status = data.get("status", MATCH_OK)
        if status == MATCH_ERROR:
            return cls(bots=(), ranks=(), status=MATCH_ERROR, id=match_id)
        if "seats" in data:
            seats = data["seats"]
            if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
                raise RatingError(f"{where}: seats must be a list of objects")
            try:
                bots = [s["bot"] for s in seats]
                ranks = [s["rank"] for s in seats]
            except KeyError as e:
                raise RatingError(f"{where}: every seat needs {e.args[0]!r}") from None
            scored = [s.get("score") is not None for s in seats]
            if any(scored) and not all(scored):
                raise RatingError(f"{where}: some seats have a score, others not")
            scores = [s["score"] for s in seats] if all(scored) else []
            statuses = [s.get("status", SEAT_OK) for s in seats]
        else:
            if "bots" not in data or "ranks" not in data:
                raise RatingError(f"{where}: needs 'bots' and 'ranks' (or 'seats')")
            bots, ranks = data["bots"], data["ranks"]
            scores = data.get("scores") or []
            statuses = data.get("seat_status") or []
        return cls(
            bots=_as_tuple(where, "bots", bots),
            ranks=_as_tuple(where, "ranks", ranks),
            scores=_as_tuple(where, "scores", scores),
            seat_status=_as_tuple(where, "seat_status", statuses),
            status=status,
            id=match_id,
        )


def as_record(match: MatchRecord | Mapping[str, Any] | Any) -> MatchRecord:
    """A :class:`MatchRecord` from a record, a JSON-like dict, or any object with a
    ``to_json()`` giving one (such as the referee's ``MatchOutcome``)."""
    if isinstance(match, MatchRecord):
        return match
    if not isinstance(match, Mapping) and callable(getattr(match, "to_json", None)):
        match = match.to_json()
    return MatchRecord.from_json(match)


@dataclass(frozen=True)
class Standing:
    """One bot's row of the table. Averages are over the matches counted (``None`` if none)."""

    bot: str
    matches: int = 0
    rated: int = 0  # matches that moved its ratings
    wins: int = 0  # first places, shared first places included
    faults: int = 0  # seats it ended with a player fault (timeout, crashed, illegal, retired)
    rank_sum: int = 0
    score_sum: float = 0.0
    scored: int = 0  # matches that carried scores
    elo: float = DEFAULT_ELO
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    provisional_below: int = PROVISIONAL_MATCHES

    @property
    def avg_rank(self) -> float | None:
        return self.rank_sum / self.matches if self.matches else None

    @property
    def avg_score(self) -> float | None:
        return self.score_sum / self.scored if self.scored else None

    @property
    def ordinal(self) -> float:
        return Skill(self.mu, self.sigma).ordinal

    @property
    def provisional(self) -> bool:
        """Too few rated matches for its rating to mean much yet."""
        return self.rated < self.provisional_below

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "matches": self.matches,
            "rated": self.rated,
            "wins": self.wins,
            "faults": self.faults,
            "avg_rank": self.avg_rank,
            "avg_score": self.avg_score,
            "elo": self.elo,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "provisional": self.provisional,
        }


@dataclass(frozen=True)
class Standings:
    """The table (best first) and the matches left out, as (match id or index, reason)."""

    rows: list[Standing]
    ignored: list[tuple[str, str]] = field(default_factory=list)

    def by_bot(self) -> dict[str, Standing]:
        return {row.bot: row for row in self.rows}

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [r.to_json() for r in self.rows],
            "ignored": [{"match": m, "reason": why} for m, why in self.ignored],
        }


def update_standings(
    table: Mapping[str, Standing],
    match: MatchRecord | Mapping[str, Any] | Any,
    *,
    k: float = DEFAULT_K,
    provisional_below: int = PROVISIONAL_MATCHES,
) -> dict[str, Standing]:
    """A new table with one match added (``table`` is not changed). An ``error`` match returns
    an unchanged copy. New bots start at :data:`DEFAULT_ELO` and OpenSkill's default prior."""
    m = as_record(match)
    out = dict(table)
    if m.status == MATCH_ERROR:
        return out
    rows = [
        out.get(bot) or Standing(bot=bot, provisional_below=provisional_below) for bot in m.bots
    ]
    if m.rated:
        elos = elo_match([r.elo for r in rows], m.ranks, k)
        skills = openskill_match([Skill(r.mu, r.sigma) for r in rows], m.ranks)
    else:
        elos = [r.elo for r in rows]
        skills = [Skill(r.mu, r.sigma) for r in rows]
    for seat, bot in enumerate(m.bots):
        # Re-read: a bot holding two seats accumulates both (such a match is never rated).
        row = out.get(bot) or rows[seat]
        status = m.seat_status[seat] if m.seat_status else SEAT_OK
        out[bot] = replace(
            row,
            matches=row.matches + 1,
            rated=row.rated + m.rated,
            wins=row.wins + (m.ranks[seat] == 1),
            faults=row.faults + (status in PLAYER_FAULTS),
            rank_sum=row.rank_sum + m.ranks[seat],
            score_sum=row.score_sum + (m.scores[seat] if m.scores else 0.0),
            scored=row.scored + bool(m.scores),
            elo=elos[seat],
            mu=skills[seat].mu,
            sigma=skills[seat].sigma,
        )
    return out


def rank_table(table: Mapping[str, Standing]) -> list[Standing]:
    """Rows best first: conservative ordinal, then Elo, then bot name (for a stable order)."""
    return sorted(table.values(), key=lambda r: (-r.ordinal, -r.elo, r.bot))


def standings(
    matches: Iterable[MatchRecord | Mapping[str, Any] | Any],
    *,
    bots: Iterable[str] = (),
    k: float = DEFAULT_K,
    provisional_below: int = PROVISIONAL_MATCHES,
) -> Standings:
    """The table after ``matches`` in the order given (oldest first: Elo depends on order).

    ``bots`` lists bots to show even with no match yet. Dicts are read by
    :meth:`MatchRecord.from_json`. ``error`` matches, single-seat matches and matches where a
    bot holds several seats are listed in ``ignored`` (the last two still count in the
    statistics, not in ratings).
    """
    table: dict[str, Standing] = {
        b: Standing(bot=b, provisional_below=provisional_below) for b in bots
    }
    ignored: list[tuple[str, str]] = []
    for index, raw in enumerate(matches):
        m = as_record(raw)
        label = m.id if m.id is not None else f"#{index}"
        if m.status == MATCH_ERROR:
            ignored.append((label, "system error: not counted"))
        elif len(m.bots) < 2:
            ignored.append((label, "single seat: counted, not rated"))
        elif not m.rated:
            ignored.append((label, "a bot holds several seats: counted, not rated"))
        table = update_standings(table, m, k=k, provisional_below=provisional_below)
    return Standings(rows=rank_table(table), ignored=ignored)


# ------------------------------------------------------------------------------------ checks


def _as_tuple(where: str, name: str, value: Any) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise RatingError(f"{where}: {name} must be a list, got {value!r}")
    return tuple(value)


def _check_ranks(ranks: Sequence[int], seats: int) -> None:
    if len(ranks) != seats:
        raise RatingError(f"{len(ranks)} ranks for {seats} seats")
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= seats:
            raise RatingError(f"ranks must be integers from 1 to {seats} (1 is first), got {r!r}")
    if seats and min(ranks) != 1:
        raise RatingError(f"ranks must include a first place (1), got {list(ranks)}")
