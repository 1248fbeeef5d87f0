"""A version's uploaded code, back to its owner: ``arena play --from-replay`` plays the author's
own recorded bots with it once a re-run leaves the record. Nobody else gets it, staff
included: the code of a bot is its owner's alone (the site runs it, it never shows it)."""

from __future__ import annotations

import base64

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bots.models import BotVersion
from bots.stored_code import fetch_version_code


class VersionCodeSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The version's id (a replay's `version:<id>`).")
    bot = serializers.CharField(help_text="The bot's name.")
    number = serializers.IntegerField(help_text="The version's number within its bot.")
    language = serializers.CharField(help_text="A language key: `python`, `cpp`...")
    suffix = serializers.CharField(help_text="The uploaded file's type: `.zip` or a source file's.")
    sha256 = serializers.CharField(help_text="Hex SHA-256 of the decoded bytes.")
    code_base64 = serializers.CharField(help_text="The uploaded file, base64-encoded.")


class VersionCodeApi(APIView):
    """GET: the code of one of your uploaded versions, as you uploaded it. Any other version
    (another user's, a built-in) is a 404, exactly as one that does not exist."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=VersionCodeSerializer)
    def get(self, request: Request, pk: int) -> Response:
        version = (
            BotVersion.objects.select_related("bot")
            .filter(pk=pk, bot__owner_id=request.user.pk)
            .exclude(code="")
            .first()
        )
        if version is None:
            raise NotFound(f"You have no uploaded version {pk}.")
        try:
            data, suffix = fetch_version_code(version.pk)
        except OSError:  # the stored file is gone: nothing to give back
            raise NotFound(f"The code of version {pk} is no longer stored.") from None
        body = VersionCodeSerializer(
            {
                "version": version.pk,
                "bot": version.bot.name,
                "number": version.number,
                "language": version.language,
                "suffix": suffix,
                "sha256": version.sha256,
                "code_base64": base64.b64encode(data).decode("ascii"),
            }
        ).data
        # Private: never kept by a shared cache.
        return Response(body, headers={"Cache-Control": "private, no-store"})
