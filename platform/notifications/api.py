"""REST API of notifications: your own list (``?unread=true``), marking read, and your
preferences per kind and channel. Signed-in users only; nobody sees anyone else's."""

from __future__ import annotations

from typing import Any, cast

import django_filters
from django.contrib.auth.models import User
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from foundation.fields import StrictBooleanFilter, StrictIntegerField
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications import services
from notifications.models import Notification, NotificationKind

#: Ids one "mark read" may name (a page of the list is 50).
MAX_IDS = 500


class NotificationSerializer(serializers.ModelSerializer):
    url = serializers.CharField(help_text="a path on this site ('' when none)")
    read_at = serializers.DateTimeField(allow_null=True, help_text="null while unread")

    class Meta:
        model = Notification
        fields = ["id", "kind", "title", "body", "url", "created_at", "read_at"]


class NotificationFilter(django_filters.FilterSet):
    """``?unread=true`` (or ``false``), declared here so the schema documents it."""

    unread = StrictBooleanFilter(
        method="filter_unread", help_text="true: only unread ones; false: only read ones"
    )

    class Meta:
        model = Notification
        fields = ["unread"]

    def filter_unread(
        self, queryset: QuerySet[Notification], name: str, value: bool | None
    ) -> QuerySet[Notification]:
        return queryset if value is None else queryset.filter(read_at__isnull=value)


class NotificationListApi(generics.ListAPIView):
    """Your notifications, newest first, 50 a page; ``?unread=true`` for the unread only
    (``false``: the read only)."""

    serializer_class = NotificationSerializer
    permission_classes = [permissions.IsAuthenticated]
    filterset_class = NotificationFilter
    queryset = Notification.objects.none()  # the schema's model; get_queryset is per user

    def get_queryset(self) -> QuerySet[Notification]:
        rows = Notification.objects.filter(user=cast(User, self.request.user))
        return rows.order_by("-created_at", "-pk")


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=StrictIntegerField(min_value=1),
        required=False,
        max_length=MAX_IDS,
        help_text="your notifications to mark read (others' ids are ignored)",
    )
    all = serializers.BooleanField(required=False, default=False, help_text="mark every one")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if not data.get("all") and not data.get("ids"):
            raise ValidationError("Give the ids to mark read, or all: true.")
        if data.get("all") and data.get("ids"):
            raise ValidationError("Give either ids or all: true, not both.")
        return data


class MarkReadResultSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="notifications that were unread and now are read")
    unread = serializers.IntegerField(help_text="your notifications still unread")


class MarkReadApi(APIView):
    """Mark your notifications read: ``{"ids": [...]}`` or ``{"all": true}``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MarkReadSerializer, responses=MarkReadResultSerializer)
    def post(self, request: Request) -> Response:
        data = MarkReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ids = None if data.validated_data.get("all") else data.validated_data["ids"]
        marked = services.mark_read(request.user, ids)
        return Response({"marked": marked, "unread": services.unread_count(request.user)})


class ChannelsSerializer(serializers.Serializer):
    site = serializers.BooleanField(required=False, help_text="in the site's list")
    email = serializers.BooleanField(required=False, help_text="by email")


def _kind_field(kind: NotificationKind) -> ChannelsSerializer:
    return ChannelsSerializer(required=False, help_text=str(kind.label))


class PreferencesSerializer(serializers.Serializer):
    """Every kind's channels; in a PUT, the kinds and channels given change, the rest stay."""

    version_failed = _kind_field(NotificationKind.VERSION_FAILED)
    bot_suspended = _kind_field(NotificationKind.BOT_SUSPENDED)
    competition_started = _kind_field(NotificationKind.COMPETITION_STARTED)
    competition_ended = _kind_field(NotificationKind.COMPETITION_ENDED)
    challenge_played = _kind_field(NotificationKind.CHALLENGE_PLAYED)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(self.initial_data, dict):
            raise ValidationError("Send an object of kinds.")
        unknown = sorted(set(self.initial_data) - set(NotificationKind.values))
        if unknown:
            kinds = ", ".join(NotificationKind.values)
            raise ValidationError({unknown[0]: [f"Not a kind of notification: one of {kinds}."]})
        return data


class ChannelsOutSerializer(serializers.Serializer):
    site = serializers.BooleanField(help_text="in the site's list")
    email = serializers.BooleanField(help_text="by email")


class PreferencesOutSerializer(serializers.Serializer):
    """Every kind's channels (no choice made: both on)."""

    version_failed = ChannelsOutSerializer()
    bot_suspended = ChannelsOutSerializer()
    competition_started = ChannelsOutSerializer()
    competition_ended = ChannelsOutSerializer()
    challenge_played = ChannelsOutSerializer()


def _as_json(channels: dict[str, services.Channels]) -> dict[str, dict[str, bool]]:
    return {kind: {"site": c.site, "email": c.email} for kind, c in channels.items()}


class PreferencesApi(APIView):
    """GET: your channels for each kind of notification (no choice made: both on). PUT: change
    the kinds and channels given, e.g. ``{"challenge_played": {"email": false}}``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=PreferencesOutSerializer)
    def get(self, request: Request) -> Response:
        return Response(_as_json(services.preferences_of(request.user)))

    @extend_schema(request=PreferencesSerializer, responses=PreferencesOutSerializer)
    def put(self, request: Request) -> Response:
        data = PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        current = services.preferences_of(request.user)
        changes = {
            kind: services.Channels(
                site=given.get("site", current[kind].site),
                email=given.get("email", current[kind].email),
            )
            for kind, given in data.validated_data.items()
        }
        return Response(_as_json(services.set_preferences(request.user, changes)))
