"""What a match's page fetches, of matches alone: the replay's steps (rendered and cached),
the status it polls, the seats' logs and the replay file. The page itself, and the list of
matches, show other apps' rows too (ratings, the tournament, who played): they are
site_pages/match_page.py's."""

from __future__ import annotations

import gzip
import json

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.views.decorators.http import require_GET
from foundation.params import int_param

from arena import contract
from arena.viewer import steps as replay_steps
from matches import replays, seat_logs
from matches.access import seen
from matches.models import Match

#: Rendered steps of finished matches: kept a day in Django's cache, a day in browsers.
STEP_CACHE_SECONDS = 24 * 3600
#: The match status a page polls: shared caches and browsers may keep it this long (the page
#: polls every 2 s, so a result shows at most a few seconds late).
STATUS_CACHE_SECONDS = 2


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
        body = rendered_step(pk, sha, n, seat)
    except replay_steps.ReplayUnavailable as exc:
        return JsonResponse({"error": str(exc)}, status=404)
    return _step_headers(HttpResponse(body, content_type="application/json"), etag, shared)


def rendered_step(pk: int, sha: str, n: int, seat: int | None = None) -> str:
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
