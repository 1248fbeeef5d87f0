"""What each page kept for anonymous visitors (``foundation.page_cache``) depends on: the
stamps of its drawn tables and fingerprints of its lists, a query or two whatever the site
holds. Whatever changes a page's content changes one of its parts: a recorded match bumps
its game's board stamp and its bots' history stamps (ladder.receivers), a league's table
stamp (competitions); a match created or moved on changes the ids and statuses of the lists
it appears in. The rest (a rename, relative times) is bounded by ``PAGE_CACHE_SECONDS``.

Anonymous visitors see only public things: a match or tournament with an audience is never
kept (its part function answers None), so nothing private is stored under a key they reach.
"""

from __future__ import annotations

from typing import Any

from bots.models import Bot
from catalog.models import Game
from competitions.leagues.selectors import table_stamp_key
from competitions.live import starting_key
from competitions.models import League, Tournament, Visibility
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import HttpRequest
from foundation import page_cache, stamps
from foundation.fields import IdField
from foundation.page_cache import Parts
from ladder.models import LadderEntry
from ladder.selectors import history_stamp_key
from matches.models import Match
from matches.selectors import match_rows, visible_matches
from ratings.selectors import board_stamp_key

#: Rows fingerprinted for a list: at least as many as the longest list of its page shows.
LIST_ROWS = 26


def _rows(qs: QuerySet[Match], n: int = LIST_ROWS) -> list[tuple[Any, ...]]:
    """A list's fingerprint: the ids and statuses of its first ``n`` matches (a new match, a
    match that moved on, one that left the list: each changes it)."""
    return list(qs.prefetch_related(None).order_by("-id").values_list("pk", "status")[:n])


def _games() -> list[tuple[Any, ...]]:
    games = Game.objects.order_by("pk")
    return list(games.values_list("pk", "is_active", "bot_count", "match_count"))


def _boards(game_ids: list[int]) -> list[int]:
    return stamps.current_many([board_stamp_key(g) for g in game_ids])


def home(request: HttpRequest) -> Parts:
    games = _games()
    return [games, _boards([g[0] for g in games]), _rows(visible_matches(None), 10)]


def game_list(request: HttpRequest) -> Parts:
    return [_games()]


def game_page(request: HttpRequest, slug: str) -> Parts:
    game = Game.objects.filter(slug=slug).values_list("pk", "bot_count", "match_count").first()
    if game is None:
        return None
    tournaments = Tournament.objects.filter(game_id=game[0]).order_by("-created_at")
    # the ladder's held lists (in placement, suspended), as ladder.selectors.held reads them
    held = Q(placement_owed__gt=0) | Q(suspended_at__isnull=False)
    ladder = LadderEntry.objects.filter(held, game_id=game[0]).aggregate(
        n=Count("pk"), owed=Sum("placement_owed"), last=Max("suspended_at")
    )
    return [
        game,
        sorted(ladder.items()),
        stamps.current(board_stamp_key(game[0])),
        _rows(visible_matches(None).filter(game_id=game[0]), 10),
        list(tournaments.values_list("pk", "status", "visibility")[:5]),
    ]


def bot_page(request: HttpRequest, pk: int) -> Parts:
    bot = (
        Bot.objects.filter(pk=pk)
        .annotate(newest=Max("versions__pk"))
        .values_list(
            "name",
            "pinned_version_id",
            "newest",
            "ladder_entry__placement_owed",
            "ladder_entry__suspended_at",
        )
        .first()
    )
    if bot is None:
        return None
    return [bot, stamps.current(history_stamp_key(pk)), _rows(match_rows(bot=pk), 15)]


def match_list(request: HttpRequest) -> Parts:
    """The page's own rows: the matches just older than ``?before=`` (newer than ``?after=``),
    narrowed as the page narrows them; malformed filters are the page's 400, never kept."""
    ids = {n: request.GET.get(n) or None for n in ("bot", "before", "after")}
    field = IdField(required=False)
    try:
        bot, before, after = (field.clean(ids[n]) for n in ("bot", "before", "after"))
    except ValidationError:  # the view answers 400
        return None
    qs = match_rows(
        game=request.GET.get("game") or None,
        bot=bot,
        status=request.GET.get("status") or None,
        owner=request.GET.get("owner") or None,
    )
    if after is not None and before is None:
        newer = qs.prefetch_related(None).filter(pk__gt=after).order_by("id")
        return ["after", list(newer.values_list("pk", "status")[:LIST_ROWS])]
    if before is not None:
        qs = qs.filter(pk__lt=before)
    return ["before", _rows(qs)]


def match_page(request: HttpRequest, pk: int) -> Parts:
    row = Match.objects.filter(pk=pk).values_list("status", "attempts", "audience_id").first()
    if row is None or row[2] is not None:
        return None  # none (the page's 404), or private: never kept
    return list(row[:2])


def tournament_page(request: HttpRequest, pk: int) -> Parts:
    t = (
        Tournament.objects.filter(pk=pk)
        .values_list(
            "status",
            "visibility",
            "current_round",
            "scheduled_matches",
            # The calendar's (competitions.calendar): the start, its problem, the
            # spaced next round.
            "start_at",
            "start_problem",
            "next_round_at",
        )
        .first()
    )
    if t is None or t[1] != Visibility.PUBLIC:
        return None  # none (the page's 404), or private: never kept
    counts = sorted(
        Match.objects.filter(competition_link__tournament_id=pk)
        .values_list("status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    entrants = Tournament.entrants.through.objects.filter(tournament_id=pk).count()
    return [t, counts, entrants, cache.get(starting_key(pk)) is not None]


def league_page(request: HttpRequest, pk: int) -> Parts:
    lg = (
        League.objects.filter(pk=pk)
        .values_list("rounds_played", "last_run_at", "is_active", "every_hours", "starts_at")
        .first()
    )
    if lg is None:
        return None
    matches = Match.objects.filter(competition_link__league_id=pk)
    # the latest round's progress (a failed match bumps no table stamp): one round's rows
    latest_round = matches.filter(competition_link__round=lg[0]).values_list("status")
    progress = sorted(latest_round.annotate(n=Count("pk")).order_by())
    return [lg, stamps.current(table_stamp_key(pk)), _rows(matches, 20), progress]


def register_pages() -> None:
    """The pages kept for anonymous visitors, by URL name, with the query parameters each
    reads (``site_pages.apps`` calls this when the apps are ready)."""
    page_cache.register("site_pages:home", home)
    page_cache.register("catalog:list", game_list)
    page_cache.register(
        "catalog:detail", game_page, query=("bot", "page", "placement", "suspended")
    )
    page_cache.register("bots:detail", bot_page)
    page_cache.register(
        "matches:list",
        match_list,
        query=("game", "bot", "owner", "status", "page", "before", "after"),
    )
    page_cache.register("matches:detail", match_page)
    page_cache.register("competitions:tournament_detail", tournament_page)
    page_cache.register("competitions:league_detail", league_page, query=("season",))
