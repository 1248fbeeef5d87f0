"""A bot's page, and "My bots" (each of the user's bots, its versions, ladder state and latest
matches). A bot's page: its versions and ladder state (bots, ladder), its rating over time and
form (ratings), head-to-head and recent matches (matches). It composes several domains, so it
lives at the top (site_pages), not in any of them."""

from __future__ import annotations

from functools import partial
from typing import Any

from bots.charts import rating_chart_svg
from bots.models import Bot, BotVersion
from bots.selectors import bots_search, playing_versions
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from foundation import stamps
from ladder import selectors as ladder_selectors
from ladder.models import LadderEntry
from matches.models import MatchSeat
from matches.selectors import seen_by
from ratings import stats
from ratings.models import Rating
from ratings.selectors import rating_history

from site_pages.match_rows import match_rows

#: Bots per page of "My bots" (each draws its versions and latest matches).
MY_BOTS_PAGE = 20


def _chart(bot: Bot) -> str:
    history = rating_history(bot)
    return mark_safe(rating_chart_svg([p.elo for p in history]))


def _versions(bot: Bot, entry: LadderEntry | None) -> tuple[list[BotVersion], list[int]]:
    """The bot's versions, newest first, each with its qualification match; and the numbers of
    the qualified versions whose pin would lift its suspension (none when not suspended)."""
    versions = list(bot.versions.order_by("-number"))
    qualification = ladder_selectors.qualification_matches(versions)
    for v in versions:
        v.qualification_match_id = qualification.get(v.pk)  # type: ignore[attr-defined]
    lifting = []
    if entry is not None and entry.is_suspended:
        lifting = [
            v.number
            for v in versions
            if v.is_active and v.held_at is None and v.pk != entry.suspended_version_id
        ]
    return versions, lifting


def _challenge(request: HttpRequest, bot: Bot) -> dict[str, Any]:
    """The challenge form's choices: the user's own bots of the game, and how many more bots
    may sit at the table besides the two (at least, at most)."""
    if not request.user.is_authenticated:
        return {"own_bots": [], "challenges_left": 0}
    game = bot.game
    return {
        "own_bots": list(
            Bot.objects.filter(owner=request.user, game=game).exclude(pk=bot.pk).order_by("name")
        ),
        "other_opponents": ladder_selectors.challenge_candidates(bot),
        "challenges_left": ladder_selectors.challenges_left(request.user),
        "extra_min": max(0, game.min_players - 2),
        "extra_max": max(0, game.max_players - 2),
    }


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "game", "pinned_version"), pk=pk)
    entry = ladder_selectors.ladder_entry(bot)
    versions, lifting = _versions(bot, entry)
    return render(
        request,
        "site_pages/bot.html",
        {
            "bot": bot,
            "versions": versions,
            "playing": bot.playing_version(),
            "rating": Rating.objects.filter(bot=bot, game=bot.game).first(),
            "entry": entry,
            "lifting_versions": lifting,
            # Read only when the history parts are drawn (a cache miss): the template calls
            # them; they change only when a match of the bot is recorded.
            "history_stamp": stamps.current(ladder_selectors.history_stamp_key(bot.pk)),
            "chart": partial(_chart, bot),
            "form_rows": partial(ladder_selectors.recent_form, bot),
            "head_to_head": partial(ladder_selectors.head_to_head, bot),
            "splits": partial(stats.splits, bot),
            "matches": match_rows(viewer=request.user, bot=bot.pk)[:15],
            "is_owner": request.user == bot.owner,
            "placement_matches": settings.ARENA_LADDER_PLACEMENT,
            "suspend_after": settings.ARENA_LADDER_SUSPEND_AFTER,
            **_challenge(request, bot),
        },
    )


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    page = Paginator(bots_search(owner=request.user.get_username()), MY_BOTS_PAGE).get_page(
        request.GET.get("page")
    )
    bots = list(page)
    versions = list(
        BotVersion.objects.filter(bot__in=bots).select_related("bot").order_by("bot", "-number")
    )
    qualification = ladder_selectors.qualification_matches(versions)
    by_bot: dict[int, list[BotVersion]] = {}
    for v in versions:
        v.qualification_match_id = qualification.get(v.pk)  # type: ignore[attr-defined]
        by_bot.setdefault(v.bot_id, []).append(v)
    entries = ladder_selectors.ladder_entries(bots)
    playing = playing_versions([b.pk for b in bots])
    recent = _recent_matches(request.user, [b.pk for b in bots], per_bot=5)
    rows = [
        {
            "bot": b,
            "playing": playing.get(b.pk),
            "versions": by_bot.get(b.pk, []),
            "entry": entries.get(b.pk),
            "matches": recent.get(b.pk, []),
        }
        for b in bots
    ]
    return render(request, "site_pages/my_bots.html", {"rows": rows, "page": page})


def _recent_matches(viewer: Any, bot_ids: list[int], per_bot: int) -> dict[int, list[Any]]:
    """Each bot's ``per_bot`` newest matches that ``viewer`` may see, newest first, in two
    queries for all the bots (a window over their seats, then the rows), not two per bot."""
    newest = (
        MatchSeat.objects.filter(bot_version__bot_id__in=bot_ids)
        .filter(seen_by(viewer, "match__audience"))
        .annotate(
            bot=F("bot_version__bot_id"),
            nth=Window(
                RowNumber(), partition_by=F("bot_version__bot_id"), order_by=F("match_id").desc()
            ),
        )
        .filter(nth__lte=per_bot)
        .values_list("bot", "match_id")
    )
    pairs = list(newest)
    matches = {m.pk: m for m in match_rows(viewer=viewer).filter(pk__in={m for _, m in pairs})}
    recent: dict[int, list[Any]] = {}
    for bot_id, match_id in sorted(set(pairs), key=lambda p: -p[1]):  # a bot in two seats: once
        recent.setdefault(bot_id, []).append(matches[match_id])
    return recent
