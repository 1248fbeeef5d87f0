"""Reading matches. Lists page by id (keyset), so a page costs the same at any depth and
never counts the whole table; the replay lives in its own table and is never loaded here.

Only matches' own rows: what other apps keep about a match (its rating changes, its
tournament, the people who played it) is joined by the pages and endpoints that show it, at
the top (site_pages, api), which import those apps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from matches.access import seen_by as seen_by
from matches.models import Match, MatchSeat


def match_seats(*only: str) -> QuerySet[MatchSeat]:
    """A match's seats in seat order with their versions and bots: only the columns ``only``
    names (and the link to the match) when given."""
    qs = MatchSeat.objects.select_related("bot_version__bot").order_by("seat")
    return qs.only("match", *only) if only else qs


def row_seats() -> QuerySet[MatchSeat]:
    """The seats a table of matches shows (site_pages/_match_rows.html): four columns each."""
    return match_seats("seat", "rank", "score", "bot_version__bot__name")


def detail_seats() -> QuerySet[MatchSeat]:
    """The seats a match's page shows. A version's texts (a failed one's stderr: kilobytes)
    and a bot's description are never shown with a match: not read for every seat."""
    return match_seats().defer(
        "bot_version__failure_stderr", "bot_version__status_reason", "bot_version__bot__description"
    )


def as_rows(qs: QuerySet[Match], seats: QuerySet[MatchSeat] | None = None) -> QuerySet[Match]:
    """Only what a table of matches on a page shows: no JSON column decoded, ``seats``
    (default ``row_seats()``; the top layer may annotate them) prefetched."""
    return (
        qs.select_related("game")
        .only("id", "status", "kind", "created_at", "game__name", "game__slug")
        .prefetch_related(Prefetch("seats", row_seats() if seats is None else seats))
    )


def visible_matches(viewer: Any) -> QuerySet[Match]:
    return Match.objects.filter(seen_by(viewer))


def _narrowed(
    game: str | None,
    bot: int | None,
    status: str | None,
    owner: str | None = None,
    viewer: Any = None,
) -> QuerySet[Match]:
    """Matches ``viewer`` may see (``seen_by``), newest first, narrowed by game slug, bot id,
    status and the user name of a seat's bot's owner (each optional). A bot's matches are
    found through its seats (a subquery, not a join: no DISTINCT)."""
    qs = visible_matches(viewer).order_by("-id")
    if game:
        qs = qs.filter(game__slug=game)
    if bot:
        seats = MatchSeat.objects.filter(bot_version__bot_id=bot).values("match_id")
        qs = qs.filter(pk__in=seats)
    if status:
        qs = qs.filter(status=status)
    if owner:
        qs = of_owner(qs, owner)
    return qs


def of_owner(qs: QuerySet[Match], username: str) -> QuerySet[Match]:
    """The matches of ``qs`` where a bot of the user ``username`` sat (a subquery on the seats:
    no join, no DISTINCT)."""
    seats = MatchSeat.objects.filter(bot_version__bot__owner__username=username)
    return qs.filter(pk__in=seats.values("match_id"))


def latest_matches(
    limit: int = 10, *, viewer: Any = None, seats: QuerySet[MatchSeat] | None = None
) -> QuerySet[Match]:
    """The newest ``limit`` matches ``viewer`` may see, as ``as_rows`` draws them."""
    return as_rows(visible_matches(viewer).order_by("-id"), seats)[:limit]


def match_rows(
    *,
    viewer: Any = None,
    game: str | None = None,
    bot: int | None = None,
    status: str | None = None,
    owner: str | None = None,
    seats: QuerySet[MatchSeat] | None = None,
) -> QuerySet[Match]:
    """Matches for the tables of the pages (see ``_narrowed``): only the columns they show
    (``as_rows``, with ``seats``). ``viewer``: whose eyes (None: public matches only)."""
    return as_rows(_narrowed(game, bot, status, owner, viewer), seats)


def competition_rows() -> QuerySet[Match]:
    """Every match, as ``match_rows`` draws them, for a competition's own page: whoever may
    see the competition sees all its matches (the page checked that already)."""
    return as_rows(Match.objects.order_by("-id"))


def bounded_count(qs: QuerySet[Match], limit: int) -> tuple[int, bool]:
    """How many matches ``qs`` holds, counting at most ``limit`` (one query: a COUNT over a
    subquery of ``limit + 1`` ids, read from an index); and whether there are more."""
    found = qs.order_by().values("pk")[: limit + 1].count()
    return min(found, limit), found > limit


@dataclass(frozen=True)
class KeysetPage:
    """One page of a list ordered by id, newest first. ``older``/``newer`` are the ids to
    pass as ``?before=``/``?after=`` for the next pages (None: no such page)."""

    items: list[Match]
    older: int | None
    newer: int | None

    @property
    def has_other_pages(self) -> bool:
        return self.older is not None or self.newer is not None


def keyset_page(
    qs: QuerySet[Match], *, before: int | None = None, after: int | None = None, size: int = 25
) -> KeysetPage:
    """The ``size`` matches of ``qs`` just older than id ``before`` (or just newer than
    ``after``; else the newest), with the ids of the neighbouring pages. Two indexed queries
    (plus the seats' prefetch), whatever the depth."""
    if after is not None and before is None:
        rows = list(qs.filter(pk__gt=after).order_by("id")[: size + 1])
        more_newer = len(rows) > size
        items = rows[:size][::-1]
        newer = items[0].pk if more_newer and items else None
        older = items[-1].pk if items and qs.filter(pk__lt=items[-1].pk).exists() else None
        return KeysetPage(items, older, newer)
    base = qs.filter(pk__lt=before) if before is not None else qs
    rows = list(base.order_by("-id")[: size + 1])
    items = rows[:size]
    older = items[-1].pk if len(rows) > size else None
    newer = None
    if before is not None and items and qs.filter(pk__gt=items[0].pk).exists():
        newer = items[0].pk
    return KeysetPage(items, older, newer)
