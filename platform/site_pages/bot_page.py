"""A bot's page, and "My bots" (each of the user's bots, its versions, ladder state and latest
matches). A bot's page: its versions and ladder state (bots, ladder), its rating over time and
form (ratings), head-to-head and recent matches (matches). It composes several domains, so it
lives at the top (site_pages), not in any of them."""

from __future__ import annotations

from functools import partial

from bots.charts import rating_chart_svg
from bots.models import Bot, BotVersion
from bots.selectors import bots_search
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from foundation import stamps
from ladder import selectors as ladder_selectors
from matches.selectors import match_rows
from ratings.models import Rating
from ratings.selectors import rating_history


def _chart(bot: Bot) -> str:
    history = rating_history(bot)
    return mark_safe(rating_chart_svg([p.elo for p in history]))


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "game", "pinned_version"), pk=pk)
    is_owner = request.user == bot.owner
    versions = list(bot.versions.order_by("-number"))
    qualification = ladder_selectors.qualification_matches(versions)
    for v in versions:
        v.qualification_match_id = qualification.get(v.pk)  # type: ignore[attr-defined]
    own_bots = (
        list(
            Bot.objects.filter(owner=request.user, game=bot.game)
            .exclude(pk=bot.pk)
            .order_by("name")
        )
        if request.user.is_authenticated
        else []
    )
    return render(
        request,
        "site_pages/bot.html",
        {
            "bot": bot,
            "versions": versions,
            "playing": bot.playing_version(),
            "rating": Rating.objects.filter(bot=bot, game=bot.game).first(),
            "entry": ladder_selectors.ladder_entry(bot),
            # Read only when the history parts are drawn (a cache miss): the template calls
            # them; they change only when a match of the bot is recorded.
            "history_stamp": stamps.current(ladder_selectors.history_stamp_key(bot.pk)),
            "chart": partial(_chart, bot),
            "form_rows": partial(ladder_selectors.recent_form, bot),
            "head_to_head": partial(ladder_selectors.head_to_head, bot),
            "matches": match_rows(bot=bot.pk)[:15],
            "is_owner": is_owner,
            "own_bots": own_bots,
            "other_opponents": ladder_selectors.challenge_candidates(bot),
            "challenges_left": ladder_selectors.challenges_left(request.user)
            if request.user.is_authenticated
            else 0,
            "placement_matches": settings.ARENA_LADDER_PLACEMENT,
            "suspend_after": settings.ARENA_LADDER_SUSPEND_AFTER,
        },
    )


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    bots = list(bots_search(owner=request.user.get_username()))
    versions = list(
        BotVersion.objects.filter(bot__in=bots).select_related("bot").order_by("bot", "-number")
    )
    qualification = ladder_selectors.qualification_matches(versions)
    by_bot: dict[int, list[BotVersion]] = {}
    for v in versions:
        v.qualification_match_id = qualification.get(v.pk)  # type: ignore[attr-defined]
        by_bot.setdefault(v.bot_id, []).append(v)
    entries = ladder_selectors.ladder_entries(bots)
    rows = [
        {
            "bot": b,
            "versions": by_bot.get(b.pk, []),
            "entry": entries.get(b.pk),
            "matches": match_rows(bot=b.pk)[:5],
        }
        for b in bots
    ]
    return render(request, "site_pages/my_bots.html", {"rows": rows})
