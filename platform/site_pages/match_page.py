"""A match's page (its seats with the rating each won or lost, the tournament it was played
for, the people who played it, and the replay viewer) and the list of matches (who played
each seat). They compose matches, ratings, competitions and play, so they live at the top
(site_pages), served under matches' URL names ("matches:detail", "matches:list"): matches
keeps the JSON the viewer fetches (steps, status, logs, the replay file)."""

from __future__ import annotations

import json

from catalog.selectors import active_games
from django import forms
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from foundation.fields import IdField, LookupField
from foundation.limits import error_response
from matches import replays
from matches.models import Match, MatchSeat, MatchStatus
from matches.seat_logs import may_read_stderr
from matches.selectors import detail_seats, keyset_page, visible_matches
from matches.views import rendered_step, status_stamp
from ratings.models import RatingChange

from arena.viewer import steps as replay_steps
from arena.viewer.markup import notable_markup, viewer_markup
from arena.viewer.notable import notable_decisions
from site_pages.match_rows import match_rows, with_people

PAGE_SIZE = 25
#: ``competitions.CompetitionMatch``'s link to its match, read backwards: the tournament (or
#: league) and round a match was played for, joined to the match's own query.
COMPETITION_LINK = "competition_link"


class MatchFilterForm(forms.Form):
    """The list's filters: a bad value (NUL, non-ASCII digits, unknown status) is a 400."""

    game = LookupField(required=False)
    bot = IdField(required=False)
    owner = LookupField(required=False)  # a user name: matches where one of their bots sat
    status = forms.ChoiceField(required=False, choices=[("", "any"), *MatchStatus.choices])
    page = forms.CharField(required=False, max_length=20)  # old links: ignored
    before = IdField(required=False)
    after = IdField(required=False)


def match_list(request: HttpRequest) -> HttpResponse:
    filters = MatchFilterForm(request.GET)
    if not filters.is_valid():
        problems = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in filters.errors.items())
        return error_response(request, f"Bad filter: {problems}", 400)
    game = filters.cleaned_data["game"] or None
    status = filters.cleaned_data["status"] or None
    bot = filters.cleaned_data["bot"]
    owner = filters.cleaned_data["owner"] or None
    bot_raw = str(bot) if bot is not None else ""
    # Keyset pages (?before=id / ?after=id): the same cost at any depth, no COUNT(*).
    page = keyset_page(
        match_rows(viewer=request.user, game=game, bot=bot, status=status, owner=owner),
        before=filters.cleaned_data["before"],
        after=filters.cleaned_data["after"],
        size=PAGE_SIZE,
    )
    query = request.GET.copy()
    for key in ("page", "before", "after"):
        query.pop(key, None)
    return render(
        request,
        "site_pages/match_list.html",
        {
            "page": page,
            "games": active_games(),
            "statuses": MatchStatus.choices,
            "selected": {
                "game": game or "",
                "status": status or "",
                "bot": bot_raw,
                "owner": owner or "",
            },
            "query": query.urlencode(),
        },
    )


def _detail(viewer: object) -> QuerySet[Match]:
    """The matches ``viewer`` may see, each with its game and tournament (joins), its seats
    with who played them, and the ratings' per-seat changes (two prefetches)."""
    return (
        visible_matches(viewer)
        .select_related("game", f"{COMPETITION_LINK}__tournament")
        .prefetch_related(
            Prefetch("seats", with_people(detail_seats())),
            Prefetch("rating_changes", RatingChange.objects.all()),
        )
    )


def match_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        match = _detail(request.user).get(pk=pk)
    except Match.DoesNotExist:
        raise Http404(f"No match {pk}") from None
    changes = {c.seat: c for c in match.rating_changes.all()}
    seats = list(match.seats.all())
    for seat in seats:
        seat.show_stderr = may_read_stderr(request.user, match, seat)  # type: ignore[attr-defined]
        seat.rating_change = changes.get(seat.seat)  # type: ignore[attr-defined]
    first, note = None, ""
    sha = replays.replay_sha(match.pk)
    try:
        if sha is None:
            raise replay_steps.ReplayUnavailable(_no_replay_note(match))
        first = json.loads(rendered_step(match.pk, sha, 0))
    except replay_steps.ReplayUnavailable as exc:
        note = str(exc)
    return render(
        request,
        "site_pages/match.html",
        {
            "match": match,
            "seats": seats,
            "viewer": _viewer(match, seats, first) if first else None,
            "viewer_seats": {
                "names": {s.seat: _seat_name(s) for s in seats},
                "faults": {s.seat: s.faults or [] for s in seats},
            },
            "notable": _notable(request, match, seats, sha) if first and sha else [],
            "replay_note": note,
            # Until it ends, the page's script polls status.json and redraws on a new stamp.
            "live": not match.is_done,
            "stamp": status_stamp(match.status, match.attempts),
            # as JSON values (true, "points"), the way bots and the API spell them
            "option_rows": [(k, json.dumps(v)) for k, v in (match.options or {}).items()],
        },
    )


def _seat_name(seat: MatchSeat) -> str:
    """Who played the seat: a person by their username (``person_name``, from
    ``with_people``), a bot by its name."""
    return getattr(seat, "person_name", None) or seat.bot_version.bot.name


def _no_replay_note(match: Match) -> str:
    if match.is_done:
        return "This match has no replay."
    return (
        f"This match is {match.get_status_display().lower()}: its result and replay appear "
        "here when it ends (this page follows it, no reload needed)."
    )


def _viewer(match: Match, seats: list[MatchSeat], first: dict) -> SafeString:
    """The replay viewer's markup (arena/viewer: the same as the offline file's), showing step
    0; it fetches the other steps, and ``logs.json`` when the caller may read some seat's log."""
    readable = any(getattr(s, "show_stderr", False) for s in seats)
    logs_url = reverse("matches:logs", args=[match.pk]) if readable else None
    markup = viewer_markup(
        first,
        seats=[(s.seat, _seat_name(s)) for s in seats],
        has_svg=replay_steps.svg_renderer_for(match.game.slug) is not None,
        has_text=replay_steps.renderer_for(match.game.slug) is not None,
        step_url=reverse("matches:step", args=[match.pk, 0]),
        logs_url=logs_url,
        download_url=reverse("matches:replay_download", args=[match.pk]),
    )
    return mark_safe(markup)  # built by arena.viewer.markup, every replay value escaped


def _notable(request: HttpRequest, match: Match, seats: list[MatchSeat], sha: str) -> list[str]:
    """For each of the caller's own seats, its faulted and slowest decisions, each a link to
    its step: one pass over the stored replay (decoded once per process, cached by SHA)."""
    user = request.user
    own = [s for s in seats if user.is_authenticated and s.bot_version.bot.owner_id == user.pk]
    replay = replays.decoded(sha, match_id=match.pk) if own else None
    if not replay:
        return []
    # built by arena.viewer.markup, every value escaped
    return [
        mark_safe(notable_markup(s.seat, s.bot_version.bot.name, notable_decisions(replay, s.seat)))
        for s in own
    ]
