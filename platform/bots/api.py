"""REST API of bots: list, create, detail, versions (upload by the owner only)."""

from __future__ import annotations

from typing import cast

import django_filters
from catalog.models import Game
from django.contrib.auth.models import User
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from foundation.errors import refused_as
from foundation.fields import LookupFilter, SafeSlugRelatedField, StrictBooleanFilter
from foundation.throttles import UploadThrottle
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bots.forms import CODE_HELP, LANGUAGE_HELP
from bots.models import DESCRIPTION_MAX, Bot, BotVersion, VersionStatus
from bots.selectors import listed, with_latest_number
from bots.services import DuplicateUpload, create_bot, upload_version
from bots.validation import language_choices


class BotVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = BotVersion
        fields = [
            "id",
            "number",
            "builtin_name",
            "sha256",
            "language",
            "size_bytes",
            "created_at",
            "status",
            "status_changed_at",
        ]


class OwnBotVersionSerializer(BotVersionSerializer):
    """A version as its owner sees it: why it failed or waits, and its stderr."""

    class Meta(BotVersionSerializer.Meta):
        fields = [*BotVersionSerializer.Meta.fields, "status_reason", "failure_stderr"]


class BotSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)  # type: ignore[var-annotated]
    owner = serializers.CharField(source="owner.username", read_only=True)
    latest_version = serializers.SerializerMethodField()
    #: The newest version's status (``checking``, ``qualifying``, ``active``, ``failed``...).
    latest_status = serializers.SerializerMethodField()

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "description",
            "game",
            "owner",
            "is_builtin",
            "created_at",
            "latest_version",
            "latest_status",
        ]

    def get_latest_version(self, bot: Bot) -> int | None:
        # Lists annotate the number (``with_latest_number``): one query for any page size.
        if hasattr(bot, "latest_number"):
            return bot.latest_number
        v = bot.latest_version()
        return v.number if v else None

    @extend_schema_field(
        {"type": "string", "enum": [s.value for s in VersionStatus], "nullable": True}
    )
    def get_latest_status(self, bot: Bot) -> str | None:
        if hasattr(bot, "latest_status"):
            return bot.latest_status
        v = bot.latest_version()
        return v.status if v else None


class BotCreateSerializer(serializers.Serializer):
    game = SafeSlugRelatedField(slug_field="slug", queryset=Game.objects.filter(is_active=True))
    name = serializers.CharField(max_length=60)
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=DESCRIPTION_MAX
    )


class VersionUploadSerializer(serializers.Serializer):
    code = serializers.FileField(help_text=CODE_HELP)
    language = serializers.ChoiceField(
        choices=language_choices(), required=False, allow_blank=True, help_text=LANGUAGE_HELP
    )


class UploadErrorSerializer(serializers.Serializer):
    """A refused upload: the file's faults under ``code`` (the form field), or one message under
    ``detail`` (a body too large, a request that could not be read)."""

    code = serializers.ListField(child=serializers.CharField(), required=False)
    detail = serializers.CharField(required=False)


class BotFilter(django_filters.FilterSet):
    """``?game=slug``, ``?owner=username`` and ``?mine=true`` (declared here so the schema
    documents them)."""

    search = LookupFilter(
        field_name="name", lookup_expr="icontains", help_text="part of the bot's name"
    )
    game = LookupFilter(field_name="game__slug", help_text="a game's slug")
    owner = LookupFilter(field_name="owner__username", help_text="the owner's user name")
    mine = StrictBooleanFilter(
        method="filter_mine", help_text="true: only the caller's own bots (none when anonymous)"
    )

    class Meta:
        model = Bot
        fields = ["search", "game", "owner", "mine"]

    def filter_mine(self, queryset, name, value):
        if not value:
            return queryset
        user = self.request.user if self.request is not None else None
        if user is None or not user.is_authenticated:
            return queryset.none()
        return queryset.filter(owner=user)


class BotListApi(generics.ListAPIView):
    """Bots, filterable by ``?game=slug``, ``?owner=username`` and ``?mine=true`` (your own);
    POST creates one (then upload its code to ``versions/``)."""

    serializer_class = BotSerializer
    filterset_class = BotFilter
    # The newest version number in the same query (no query per row).
    queryset = with_latest_number(
        listed(Bot.objects.select_related("owner", "game")).order_by("pk")
    )

    @extend_schema(request=BotCreateSerializer, responses={201: BotSerializer})
    def post(self, request: Request) -> Response:
        data = BotCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot = create_bot(owner=cast(User, request.user), **data.validated_data)
        return Response(BotSerializer(bot).data, status=status.HTTP_201_CREATED)


class BotDetailApi(generics.RetrieveAPIView):
    serializer_class = BotSerializer
    queryset = Bot.objects.select_related("owner", "game")


class BotVersionsApi(APIView):
    """GET: the bot's versions, newest first. POST (multipart, ``code``): upload a version;
    only the bot's owner may."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    parser_classes = [MultiPartParser, FormParser]

    def get_throttles(self):
        # The ``uploads`` counter is shared with the site's upload forms.
        return [*super().get_throttles(), UploadThrottle()]

    @extend_schema(responses=OwnBotVersionSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        """Versions with their status; the owner also sees why one failed, and its stderr."""
        bot = generics.get_object_or_404(Bot, pk=pk)
        serializer = (
            OwnBotVersionSerializer if bot.owner_id == request.user.pk else BotVersionSerializer
        )
        return Response(serializer(bot.versions.order_by("-number"), many=True).data)

    @extend_schema(
        request=VersionUploadSerializer,
        responses={
            201: OwnBotVersionSerializer,
            400: OpenApiResponse(UploadErrorSerializer, description="The upload is refused: why"),
            409: OpenApiTypes.OBJECT,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        if bot.owner_id != request.user.pk:
            raise PermissionDenied("Only the bot's owner may upload versions.")
        # Reading request.data streams the body through foundation.limits.CappedUploadHandler:
        # a file past the cap stops there, before it is all read (a 400 with the limit).
        data = VersionUploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["code"]
        try:
            with refused_as("code"):
                version = upload_version(
                    bot=bot,
                    filename=upload.name,
                    data=upload.read(),
                    language=data.validated_data.get("language") or None,
                )
        except DuplicateUpload as exc:
            # Not an error of the file: the same bytes are already version N.
            return Response(
                {"code": exc.messages, "existing_version": exc.existing.number},
                status=status.HTTP_409_CONFLICT,
            )
        return Response(OwnBotVersionSerializer(version).data, status=status.HTTP_201_CREATED)
