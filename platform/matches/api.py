"""REST API of matches' own: a match's replay. The list and a match's detail show other apps'
rows too (rating changes, the tournament and round): api/match_api.py."""

from __future__ import annotations

import gzip
import re

from django.http import Http404, HttpResponse, HttpResponseBase, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import replays, seat_logs
from matches.access import seen

_GZIP = re.compile(r"\bgzip\b")
#: A stored replay never changes: caches may keep it for a year.
REPLAY_CACHE_CONTROL = "public, max-age=31536000, immutable"
PRIVATE_REPLAY = "private, max-age=31536000, immutable"


class MatchReplayApi(APIView):
    """The versioned replay document of a match (``format: meeple-arena-replay``), served as
    stored: gzip-compressed (``Content-Encoding: gzip``) to clients that accept it, with an
    ETag and long cache lifetimes, since a stored replay never changes.

    To the owner of a bot that sat in the match (staff: every seat) the document also holds
    ``logs`` and ``log_marks`` (its bots' stderr, per decision; ``""`` and ``[]`` for the
    other seats), without an ETag, with ``Cache-Control: private, no-store``."""

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="The replay document (docs/replay-format.md); with the caller's own "
        "bots' logs and log_marks when the caller owns a seat's bot (staff: all seats).",
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        access = seen(request.user, pk)
        if access is None:
            raise Http404(f"No match {pk}")
        stored = replays.stored_replay(pk)
        if stored is None:
            return Response({"detail": "This match has no replay."}, status=404)
        data, sha = stored
        readable = seat_logs.readable_seats(request.user, pk)
        if readable:
            public = replays.decoded(sha, match_id=pk) or {}
            return seat_logs.private_json(seat_logs.with_logs(public, readable))
        etag = f'"{sha}"'
        if etag in request.headers.get("If-None-Match", ""):
            response: HttpResponse = HttpResponseNotModified()
        elif _GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(data, content_type="application/json")
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(gzip.decompress(data), content_type="application/json")
        response["ETag"] = etag
        # A private competition's replay: kept by the member's own browser only.
        private = access.private
        response["Cache-Control"] = PRIVATE_REPLAY if private else REPLAY_CACHE_CONTROL
        # Who asks decides whether logs are in it: a cache keeps one copy per credential.
        response["Vary"] = "Accept-Encoding, Authorization, Cookie"
        return response
