"""Match pages: the filterable list, the detail page with its replay viewer, and the JSON
steps the viewer fetches."""

from __future__ import annotations

import gzip
import json

from catalog.selectors import active_games
from django import forms
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET
from foundation.fields import IdField, LookupField
from foundation.limits import error_response
from foundation.params import int_param

from arena import contract
from arena.viewer import steps as replay_steps
from arena.viewer.markup import notable_markup, viewer_markup
from arena.viewer.notable import notable_decisions
from matches import replays, seat_logs
from matches.access import seen
from matches.models import Match, MatchSeat, MatchStatus
from matches.seat_logs import may_read_stderr
from matches.selectors import keyset_page, match_detail, match_rows

PAGE_SIZE = 25
#: Rendered steps of finished matches: kept a day in Django's cache, a day in browsers.
STEP_CACHE_SECONDS = 24 * 3600
#: The match status a page polls: shared caches and browsers may keep it this long (the page
#: polls every 2 s, so a result shows at most a few seconds late).
STATUS_CACHE_SECONDS = 2


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
        "matches/list.html",
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


def match_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        match = match_detail(pk, viewer=request.user)
    except Match.DoesNotExist:
        raise Http404(f"No match {pk}") from None
    seats = list(match.seats.all())
    for seat in seats:
        seat.show_stderr = may_read_stderr(request.user, match, seat)  # type: ignore[attr-defined]
    first, note = None, ""
    sha = replays.replay_sha(match.pk)
    try:
        if sha is None:
            raise replay_steps.ReplayUnavailable(_no_replay_note(match))
        first = json.loads(_rendered_step(match.pk, sha, 0))
    except replay_steps.ReplayUnavailable as exc:
        note = str(exc)
    return render(
        request,
        "matches/detail.html",
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
    """Who played the seat: a person by their username (``person_name``, from the selector),
    a bot by its name."""
    return getattr(seat, "person_name", None) or seat.bot_version.bot.name


def _no_replay_note(match: Match) -> str:
    if match.is_done:
        return "This match has no replay."
    return (
        f"This match is {match.get_status_display().lower()}: its result and replay appear "
        "here when it ends (this page follows it, no reload needed)."
    )


def status_stamp(status: str, attempts: int) -> str:
    """What the match page shows changes only with the status (and with a new attempt of a
    match sent again): the page redraws when this changes."""
    return f"{status}.{attempts}"


@require_GET
def match_status(request: HttpRequest, pk: int) -> JsonResponse:
    """The small JSON a match page polls until the match ends: one query by primary key, and
    cacheable for a moment (however many people watch, a cache in front answers most polls;
    a private competition's match: only the browser's own cache)."""
    row = Match.objects.filter(pk=pk).values_list("status", "attempts", "audience_id").first()
    if row is None or (row[2] is not None and seen(request.user, pk) is None):
        return JsonResponse({"error": f"No match {pk}"}, status=404)
    status, attempts, audience_id = row
    done = contract.MatchStatus(status).is_done
    response = JsonResponse(
        {"status": status, "done": done, "stamp": status_stamp(status, attempts)}
    )
    scope = "public" if audience_id is None else "private"
    response["Cache-Control"] = f"{scope}, max-age={STATUS_CACHE_SECONDS}"
    return response


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


def match_step(request: HttpRequest, pk: int, n: int) -> HttpResponse:
    """Step ``n`` of the replay; ``?seat=k`` adds what seat ``k`` knew (``seat_view``). A
    replay never changes once stored, so the rendered step is cached (Django's cache, keyed by
    the document's SHA-256) and carries an ETag: the game is re-simulated once per step, not
    once per request."""
    access = seen(request.user, pk)
    if access is None:  # unknown, or private and not the caller's: the same answer
        return JsonResponse({"error": f"No match {pk}"}, status=404)
    sha = replays.replay_sha(pk)
    if sha is None:
        return JsonResponse({"error": "This match has no replay."}, status=404)
    raw = request.GET.get("seat", "")
    seat = int_param(raw, maximum=99) if raw else None
    if raw and seat is None:
        return JsonResponse({"error": f"seat must be a seat number, got {raw[:20]!r}"}, status=400)
    variant = _seat_variant(seat)
    etag = f'"{replays.step_cache_key(sha, n, variant).split(":", 1)[1]}"'
    # A step with options (one seat's view), or of a private match: browsers only.
    shared = not variant and not access.private
    if etag in request.headers.get("If-None-Match", ""):
        return _step_headers(HttpResponseNotModified(), etag, shared)
    try:
        body = _rendered_step(pk, sha, n, seat)
    except replay_steps.ReplayUnavailable as exc:
        return JsonResponse({"error": str(exc)}, status=404)
    return _step_headers(HttpResponse(body, content_type="application/json"), etag, shared)


def _rendered_step(pk: int, sha: str, n: int, seat: int | None = None) -> str:
    """Step ``n`` (seen by ``seat``, if given) of the replay with this SHA-256 as JSON text:
    from Django's cache, else re-simulated once and cached (a stored replay never changes)."""
    key = replays.step_cache_key(sha, n, _seat_variant(seat))
    body = cache.get(key)
    if body is None:
        data = replay_steps.step(replays.decoded(sha, match_id=pk), n, seat)
        body = json.dumps(data, separators=(",", ":"))
        cache.set(key, body, STEP_CACHE_SECONDS)
    return body


def _seat_variant(seat: int | None) -> str:
    return "" if seat is None else f"seat={seat}"


def _step_headers(response: HttpResponse, etag: str, shared: bool) -> HttpResponse:
    response["ETag"] = etag
    scope = "public" if shared else "private"
    response["Cache-Control"] = f"{scope}, max-age={STEP_CACHE_SECONDS}"
    return response


def match_replay_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay document as a file (the same JSON as ``/api/matches/<id>/replay/``: stderr
    and server paths were removed when the match was recorded). To a bot's owner (staff: every
    seat) it carries their seats' ``logs`` and ``log_marks`` again, and is private."""
    access = seen(request.user, pk)
    if access is None:
        raise Http404(f"No match {pk}")
    stored = replays.stored_replay(pk)
    if stored is None:
        return HttpResponse("This match has no replay yet.", status=404, content_type="text/plain")
    filename = f"match-{pk}-replay.json"
    readable = seat_logs.readable_seats(request.user, pk)
    if readable:
        public = json.loads(gzip.decompress(stored[0]))
        return seat_logs.private_json(seat_logs.with_logs(public, readable), filename=filename)
    response = HttpResponse(gzip.decompress(stored[0]), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    if access.private:
        response["Cache-Control"] = seat_logs.PRIVATE
    return response


@require_GET
def match_logs(request: HttpRequest, pk: int) -> HttpResponse:
    """``{"seats": {"<seat>": {"text", "marks"}}}``: the logs of the seats the caller may read
    (their own bots'; staff: all), an empty object for anyone else. The viewer's logs panel."""
    if seen(request.user, pk) is None:
        return JsonResponse({"error": f"No match {pk}"}, status=404)
    response = JsonResponse(seat_logs.logs_document(seat_logs.readable_seats(request.user, pk)))
    response["Cache-Control"] = seat_logs.PRIVATE
    return response
