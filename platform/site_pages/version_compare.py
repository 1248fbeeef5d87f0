"""Comparing two versions of one of your own bots: how each did against the same opponents,
by table size and seat, and the bot's Elo over each version's period (``ratings.comparison``,
read from counters kept as matches are recorded). Its owner's page only."""

from __future__ import annotations

from bots.charts import versions_chart_svg
from bots.models import Bot
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from ratings.comparison import chosen_versions, compare_versions


@login_required
def compare(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "game"), pk=pk)
    if bot.owner != request.user:
        raise PermissionDenied("Only the bot's owner may compare its versions.")
    versions = list(bot.versions.order_by("-number"))
    chosen = chosen_versions(bot, versions, request.GET.get("a"), request.GET.get("b"))
    context: dict[str, object] = {"bot": bot, "versions": versions}
    if isinstance(chosen, str):
        context["problem"] = chosen
        # One version is nothing to compare yet, not a bad request.
        status = 400 if len(versions) > 1 else 200
        return render(request, "site_pages/version_compare.html", context, status=status)
    result = compare_versions(bot, *chosen)
    context.update(
        comparison=result,
        chosen=chosen,
        chart=mark_safe(
            versions_chart_svg([(f"v{s.version.number}", s.series()) for s in (result.a, result.b)])
        ),
    )
    return render(request, "site_pages/version_compare.html", context)
