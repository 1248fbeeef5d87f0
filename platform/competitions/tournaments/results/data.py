"""A tournament's published results, read from its stored rows: the entrants' standing rows
(``TournamentEntry``) and its own matches' seats (bounded by ``MAX_TOURNAMENT_MATCHES``),
three queries whatever the site holds. Kept in the cache under a stamp that changes whenever a
match of the tournament is scheduled or changes status (its entries change in the same
transaction), so pages, exports and the API compute them once per change."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, F
from foundation import stamps
from matches.models import MatchSeat, MatchStatus

from arena.formats import Result, StandingRow
from arena.formats.results.published import Entrant, PlayedMatch, Results
from arena.formats.tiebreaks import head_to_head, sonneborn_berger
from competitions.models import Tournament, TournamentEntry, TournamentStatus

#: How long computed results stay cached (the stamp retires them sooner on any change).
CACHE_SECONDS = 600


def names_stamp_key(tournament_id: int) -> str:
    """The ``foundation.stamps`` number of the names in a tournament's results: bumped when
    an entrant's owner deletes their account (``accounts.deletion``), whose bots and name
    must then leave the cached results at once."""
    return f"tournament-names:{tournament_id}"


def results_stamp(t: Tournament, progress: str | None = None) -> str:
    """What the results depend on: the tournament's progress and its matches by status
    (``progress``: a stamp of those the caller already holds), and its names' stamp."""
    if progress is None:
        counts = (
            t.matches.order_by().values("status").annotate(n=Count("pk")).values_list("status", "n")
        )
        by_status = ",".join(f"{k}{v}" for k, v in sorted(counts))
        progress = f"{t.status}.{t.current_round}.{t.scheduled_matches}.{by_status}"
    return f"{progress}.{stamps.current(names_stamp_key(t.pk))}"


def tournament_results(t: Tournament) -> Results:
    """The tournament's results (empty for a draft: nothing is played yet), from the cache
    when nothing changed since they were computed."""
    if t.status == TournamentStatus.DRAFT:
        return Results(t.pk, t.format, t.status, [], [], {}, {})
    key = f"tournament-results:{t.pk}:{results_stamp(t)}"
    found = cache.get(key)
    if isinstance(found, Results):
        return found
    results = compute_results(t)
    cache.set(key, results, CACHE_SECONDS)
    return results


def compute_results(t: Tournament) -> Results:
    """Read the rows and compute the head-to-head records and Sonneborn-Berger scores."""
    entrants = _entrants(t)
    matches = _matches(t)
    meetings = head_to_head(Result(m.bots, m.ranks) for m in matches)
    rows = {e.key: e.row for e in entrants}
    return Results(
        tournament_id=t.pk,
        format=t.format,
        status=t.status,
        entrants=entrants,
        matches=matches,
        meetings=meetings,
        sonneborn_berger=sonneborn_berger(rows, meetings),
        by_key={e.key: e for e in entrants},
    )


def _entrants(t: Tournament) -> list[Entrant]:
    entries = (
        TournamentEntry.objects.filter(tournament=t)
        .order_by(F("position").asc(nulls_last=True), "seed")
        .values_list(
            "version_id",
            "version__bot_id",
            "version__bot__name",
            "version__number",
            "version__bot__owner__username",
            "position",
            "row",
        )
    )
    return [
        Entrant(
            key=str(vid),
            version_id=vid,
            bot_id=bot_id,
            bot=bot,
            version=number,
            owner=owner,
            position=position or i,
            row=StandingRow.from_json(row),
        )
        for i, (vid, bot_id, bot, number, owner, position, row) in enumerate(entries, start=1)
    ]


def _matches(t: Tournament) -> list[PlayedMatch]:
    """The tournament's matches with their seats, from one query over its own seats."""
    seats = (
        MatchSeat.objects.filter(match__competition_link__tournament=t)
        .order_by("match_id", "seat")
        .values_list(
            "match_id", "bot_version_id", "rank", "match__status", "match__competition_link__round"
        )
    )
    grouped: dict[int, tuple[int, str, list[str], list[int | None]]] = {}
    for match_id, version_id, rank, status, rnd in seats:
        _, _, bots, ranks = grouped.setdefault(match_id, (rnd, status, [], []))
        bots.append(str(version_id))
        ranks.append(rank)
    out = []
    for match_id, (rnd, status, bots, ranks) in grouped.items():
        done = status == MatchStatus.FINISHED and all(r is not None for r in ranks)
        out.append(
            PlayedMatch(
                match_id=match_id,
                round=rnd,
                status=status,
                bots=tuple(bots),
                ranks=tuple(int(r or 0) for r in ranks) if done else None,
            )
        )
    return out
