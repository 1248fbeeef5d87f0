"""What entrants are told about a tournament (``notifications``): it started, it ended (and
its organisers: it could not start by itself). To each entrant's owner once (built-in bots'
owner excluded), in one query and one bulk insert whatever the field's size; the emails leave
after the caller's transaction commits."""

from __future__ import annotations

from audiences.models import AudienceMember, AudienceRole
from bots.services import SYSTEM_USERNAME
from django.db.models import Q, QuerySet
from django.urls import reverse
from notifications.models import NotificationKind
from notifications.services import notify

from competitions.models import Tournament, TournamentEntry, Visibility


def entrants_owners(t: Tournament) -> QuerySet[TournamentEntry, int]:
    """The ids of the people whose bots are entered (a subquery-able list, evaluated once).
    A private tournament's: only those who may see it (an organiser may enter anyone's bot,
    and whoever is not a member must learn nothing of it: docs/permissions.md)."""
    entries = TournamentEntry.objects.filter(tournament=t, version__bot__is_builtin=False)
    if t.visibility == Visibility.PRIVATE:
        members = AudienceMember.objects.filter(audience=t.audience_id).values("user_id")
        owner = "version__bot__owner_id"
        entries = entries.filter(Q(**{f"{owner}__in": members}) | Q(**{owner: t.organiser_id}))
    return (
        entries.exclude(version__bot__owner__username=SYSTEM_USERNAME)
        .order_by()
        .values_list("version__bot__owner_id", flat=True)
        .distinct()
    )


def tournament_started(t: Tournament) -> None:
    notify(
        entrants_owners(t),
        NotificationKind.COMPETITION_STARTED,
        f"{t.name} has started",
        reverse("competitions:tournament_detail", args=[t.pk]),
        body=f"{t.get_format_display()} of {t.game.name}: your entry plays its matches on "
        "the workers; follow them on the tournament's page.",
    )


def tournament_ended(t: Tournament) -> None:
    winners = (
        TournamentEntry.objects.filter(tournament=t, position=1)
        .select_related("version__bot")
        .order_by("seed")
    )
    names = ", ".join(e.version.bot.name for e in winners[:5])
    notify(
        entrants_owners(t),
        NotificationKind.COMPETITION_ENDED,
        f"{t.name} has ended",
        reverse("competitions:tournament_detail", args=[t.pk]),
        body=f"Winner: {names}. The final standings are on the tournament's page."
        if names
        else "The final standings are on the tournament's page.",
    )


def tournament_not_started(t: Tournament, reason: str) -> None:
    """To its organisers (the organiser and co-organisers), when it did not start by itself at
    its time (``services.calendar``): why, and that it waits for them."""
    co = AudienceMember.objects.filter(audience__tournament=t, role=AudienceRole.ORGANISER)
    notify(
        [t.organiser_id, *co.values_list("user_id", flat=True)],
        # No kind of its own yet: the news is about the competition's start.
        NotificationKind.COMPETITION_STARTED,
        f"{t.name} did not start",
        reverse("competitions:tournament_detail", args=[t.pk]),
        body=f"It was due to start by itself but could not: {reason} It stays a draft; "
        "start it from its page when it is ready.",
    )
