"""Reading matches. Lists page by id (keyset), so a page costs the same at any depth and
never counts the whole table; the replay lives in its own table and is never loaded here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Model, OuterRef, Prefetch, QuerySet, Subquery

from matches.access import seen_by as seen_by
from matches.models import Match, MatchSeat

#: The reverse relation to the row that says which tournament (or league) a match was played
#: for and in which round (``competitions.CompetitionMatch``), read by its name as
#: ``rating_changes`` is: this app imports neither.
COMPETITION_LINK = "competition_link"

#: Fields a reader may ask of a match that the link holds, not the match.
LINK_FIELDS = ("tournament", "round")


def _seats(*only: str) -> QuerySet[MatchSeat]:
    """A match's seats in seat order with their versions and bots: only the columns ``only``
    names (and the link to the match) when given."""
    qs = MatchSeat.objects.select_related("bot_version__bot").order_by("seat")
    return qs.only("match", *only) if only else qs


def _with_people(seats: QuerySet[MatchSeat]) -> QuerySet[MatchSeat]:
    """Each seat's ``person_name``: the username of the person who played it (play's row,
    found by the reverse relation ``people`` as ``rating_changes`` is: no import), else None.
    A subquery on play's unique (match, seat) index, in the seats' own query: no query more."""
    people = cast(type[Model], Match._meta.get_field("people").related_model)._default_manager
    person = people.filter(match=OuterRef("match"), seat=OuterRef("seat")).values("user__username")
    return seats.annotate(person_name=Subquery(person[:1]))


def _with_seats(qs: QuerySet[Match]) -> QuerySet[Match]:
    # A version's texts (a failed one's stderr: kilobytes) and a bot's description are never
    # shown with a match: not read for every seat.
    seats = _with_people(_seats()).defer(
        "bot_version__failure_stderr", "bot_version__status_reason", "bot_version__bot__description"
    )
    # rating_changes: the ratings app's rows for this match, by reverse relation (no import);
    # the tournament the page names, through the competition's link (a join: no query).
    return qs.select_related("game", f"{COMPETITION_LINK}__tournament").prefetch_related(
        Prefetch("seats", seats), "rating_changes"
    )


def _as_rows(qs: QuerySet[Match]) -> QuerySet[Match]:
    """Only what a table of matches on a page shows (site_pages/_match_rows.html): no JSON
    column decoded, no rating changes, four columns of each seat."""
    seats = _with_people(_seats("seat", "rank", "score", "bot_version__bot__name"))
    return (
        qs.select_related("game")
        .only("id", "status", "kind", "created_at", "game__name", "game__slug")
        .prefetch_related(Prefetch("seats", seats))
    )


def _for_api(qs: QuerySet[Match], fields: Sequence[str]) -> QuerySet[Match]:
    """Only ``fields`` (the API's match serializer's: ``matches.api.MatchSerializer``), the
    seats' columns it shows and the rating changes: a page of 50 matches makes some 500 model
    objects, so each carries only its own columns."""
    seats = _seats(
        "seat",
        "score",
        "rank",
        "status",
        "faults",
        "time_ms",
        "bot_version__number",
        "bot_version__bot__name",
    )
    # the ratings app's per-seat changes, by reverse relation (matches does not import ratings)
    change_model = cast(type[Model], Match._meta.get_field("rating_changes").related_model)
    changes = change_model._default_manager.only("match", "seat", "elo_before", "elo_after")
    columns = [f for f in fields if f not in LINK_FIELDS]
    link = [f"{COMPETITION_LINK}__{f}" for f in LINK_FIELDS]
    return (
        qs.select_related("game", COMPETITION_LINK)
        .only(*columns, "game__slug", *link)
        .prefetch_related(Prefetch("seats", seats), Prefetch("rating_changes", changes))
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


def of_tournament(qs: QuerySet[Match], tournament_id: int) -> QuerySet[Match]:
    """The matches of ``qs`` played for tournament ``tournament_id`` (the competition's link
    row, by its reverse relation: this app does not import competitions)."""
    return qs.filter(**{f"{COMPETITION_LINK}__tournament_id": tournament_id})


def latest_matches(limit: int = 10, *, viewer: Any = None) -> QuerySet[Match]:
    return _as_rows(visible_matches(viewer).order_by("-id"))[:limit]


def api_matches(
    fields: Sequence[str],
    *,
    viewer: Any = None,
    game: str | None = None,
    bot: int | None = None,
    status: str | None = None,
) -> QuerySet[Match]:
    """Matches for the API (see ``_narrowed``): only the match's ``fields`` (the columns its
    serializer lists; ``tournament`` and ``round`` come from the competition's link)."""
    return _for_api(_narrowed(game, bot, status, viewer=viewer), fields)


def match_rows(
    *,
    viewer: Any = None,
    game: str | None = None,
    bot: int | None = None,
    status: str | None = None,
    owner: str | None = None,
) -> QuerySet[Match]:
    """Matches for the tables of the pages (see ``_narrowed``): only the columns they show.
    ``viewer``: whose eyes (None: public matches only)."""
    return _as_rows(_narrowed(game, bot, status, owner, viewer))


def competition_rows() -> QuerySet[Match]:
    """Every match, as ``match_rows`` draws them, for a competition's own page: whoever may
    see the competition sees all its matches (the page checked that already)."""
    return _as_rows(Match.objects.order_by("-id"))


def bounded_count(qs: QuerySet[Match], limit: int) -> tuple[int, bool]:
    """How many matches ``qs`` holds, counting at most ``limit`` (one query: a COUNT over a
    subquery of ``limit + 1`` ids, read from an index); and whether there are more."""
    found = qs.order_by().values("pk")[: limit + 1].count()
    return min(found, limit), found > limit


def match_detail(pk: int, *, viewer: Any = None) -> Match:
    """The match ``pk`` with its seats, if ``viewer`` may see it (else ``Match.DoesNotExist``,
    as for no such match)."""
    return _with_seats(visible_matches(viewer)).get(pk=pk)


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
