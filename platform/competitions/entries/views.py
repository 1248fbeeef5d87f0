"""A tournament page's entry forms: a user enters, swaps or withdraws one of their qualified
versions; the tournament's managers add and remove any entrant. Each form posts here and
comes back to the page with what happened (or why not) as a message. A tournament the user
may not see is a 404; so are the managers' forms to anyone who does not manage it."""

from __future__ import annotations

from typing import Any

from bots.models import BotVersion, VersionStatus
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST
from foundation.params import id_param

from competitions.entries import services as entries
from competitions.models import Tournament, TournamentStatus
from competitions.permissions import may_manage, visible_tournaments

#: Versions offered in the managers' "add an entrant" list, and entrants listed with a
#: remove button (a class or a club; the API takes any id).
ADDABLE_SHOWN = 200
ENTRANTS_SHOWN = 200


def visible_or_404(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(visible_tournaments(request.user).select_related("game"), pk=pk)


def managed_or_404(request: HttpRequest, pk: int) -> Tournament:
    t = visible_or_404(request, pk)
    if not may_manage(request.user, t):
        raise Http404("No such tournament.")
    return t


def entry_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    """What the page's entry and management parts need (bounded lists; nothing for a
    tournament that has started, but its settings)."""
    user = request.user
    draft = t.status == TournamentStatus.DRAFT
    managing = may_manage(user, t)
    may_enter = draft and entries.may_enter(user, t)
    mine = entries.entries_of(user, t) if may_enter else []
    versions = entries.qualified_versions(user, t) if may_enter else BotVersion.objects.none()
    context: dict[str, Any] = {
        "can_manage": managing,
        "window": entries.window_state(t),
        "may_enter": may_enter,
        "my_entries": mine,
        # What may be entered or swapped in: not what is entered already.
        "my_versions": list(versions.exclude(pk__in=[v.pk for v in mine])[:ADDABLE_SHOWN]),
    }
    if managing and draft:
        context["entrant_rows"] = list(
            t.entrants.select_related("bot__owner").order_by("bot__name", "pk")[:ENTRANTS_SHOWN]
        )
        context["addable"] = list(
            BotVersion.objects.filter(
                bot__game_id=t.game_id, status=VersionStatus.ACTIVE, held_at__isnull=True
            )
            .exclude(tournaments=t)
            .select_related("bot__owner")
            .order_by("bot__name", "-number")[:ADDABLE_SHOWN]
        )
    return context


def _version(request: HttpRequest, name: str = "version") -> BotVersion | None:
    pk = id_param(request.POST.get(name))
    if pk is None:
        return None
    return BotVersion.objects.select_related("bot").filter(pk=pk).first()


def _done(request: HttpRequest, t: Tournament, act: Any, success: str) -> HttpResponse:
    try:
        act()
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(request, success)
    return redirect("competitions:tournament_detail", pk=t.pk)


@login_required
@require_POST
def tournament_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """``action=enter`` (``version``, optional ``replace``) or ``action=withdraw``."""
    t = visible_or_404(request, pk)
    version = _version(request)
    if version is None:
        messages.error(request, "Choose one of your bot versions.")
        return redirect("competitions:tournament_detail", pk=t.pk)
    if request.POST.get("action") == "withdraw":
        return _done(
            request,
            t,
            lambda: entries.withdraw(request.user, t, version),
            f"{version.label} is withdrawn.",
        )
    replacing = _version(request, "replace")
    return _done(
        request,
        t,
        lambda: entries.enter(request.user, t, version, replacing=replacing),
        f"{version.label} is entered.",
    )


@login_required
@require_POST
def tournament_entrants(request: HttpRequest, pk: int) -> HttpResponse:
    """Managers: ``action=add`` or ``action=remove`` of ``version``."""
    t = managed_or_404(request, pk)
    version = _version(request)
    if version is None:
        messages.error(request, "Choose a bot version.")
        return redirect("competitions:tournament_detail", pk=t.pk)
    if request.POST.get("action") == "remove":
        return _done(
            request,
            t,
            lambda: entries.remove_entrant(request.user, t, version),
            f"{version.label} is removed.",
        )
    return _done(
        request,
        t,
        lambda: entries.add_entrant(request.user, t, version),
        f"{version.label} is entered.",
    )
