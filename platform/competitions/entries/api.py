"""REST API of a tournament's entries and members: enter, swap and withdraw one's own bot
(managers add and remove any), the members and co-organisers, the invitation link, and
joining by it. A tournament the caller may not see is a 404, and so is a manager's endpoint
to anyone who does not manage it (docs/permissions.md)."""

from __future__ import annotations

from typing import Any

from audiences.models import AudienceRole
from bots.models import BotVersion
from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from foundation.fields import StrictIntegerField
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.entries import membership
from competitions.entries import services as entries
from competitions.models import Tournament
from competitions.permissions import may_manage, visible_tournaments


def _visible(request: Request, pk: int) -> Tournament:
    return generics.get_object_or_404(
        visible_tournaments(request.user).select_related("game"), pk=pk
    )


def _managed(request: Request, pk: int) -> Tournament:
    t = _visible(request, pk)
    if not may_manage(request.user, t):
        raise NotFound()  # nobody learns more of a tournament than they may act on
    return t


def _version(pk: int | None, field: str) -> BotVersion | None:
    if pk is None:
        return None
    version = BotVersion.objects.select_related("bot").filter(pk=pk).first()
    if version is None:
        raise ValidationError({field: [f"No bot version {pk}."]})
    return version


def _delete_input(request: Request, field: str) -> Any:
    """A DELETE's input: its query string, as the schema documents it (a DELETE's body has no
    place in it, and some proxies drop one), else the JSON body clients sent at first."""
    return request.query_params if field in request.query_params else request.data


# ------------------------------------------------------------------------------- entries


class EntryInSerializer(serializers.Serializer):
    version = StrictIntegerField(min_value=1, help_text="a bot version id")
    replace = StrictIntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text="swap: the caller's entered version that ``version`` replaces",
    )


class WithdrawSerializer(serializers.Serializer):
    version = StrictIntegerField(min_value=1, help_text="the entered bot version id")


class EntryOutSerializer(serializers.Serializer):
    entrants = serializers.ListField(child=serializers.IntegerField(), help_text="version ids")
    mine = serializers.ListField(child=serializers.IntegerField(), help_text="the caller's")
    may_enter = serializers.BooleanField()
    window = serializers.ChoiceField(choices=["open", "not_yet", "closed"])
    entry_policy = serializers.CharField()
    max_entries = serializers.IntegerField(allow_null=True)
    entries_per_user = serializers.IntegerField()


def _entry_state(user: Any, t: Tournament) -> dict[str, Any]:
    return {
        "entrants": sorted(t.entrants.values_list("pk", flat=True)),
        "mine": [v.pk for v in entries.entries_of(user, t)],
        "may_enter": entries.may_enter(user, t),
        "window": entries.window_state(t),
        "entry_policy": t.entry_policy,
        "max_entries": t.max_entries,
        "entries_per_user": t.entries_per_user,
    }


class TournamentEntriesApi(APIView):
    """GET: the entrants and the caller's entries. POST: enter a version of one's own (or swap
    it for ``replace``, or for the entered version of the same bot); managers add any
    qualified version. DELETE ``?version=``: withdraw one's entry; managers remove any."""

    def get_permissions(self) -> list[Any]:
        if self.request.method == "GET":
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    @extend_schema(responses=EntryOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        t = _visible(request, pk)
        return Response(_entry_state(request.user, t))

    @extend_schema(request=EntryInSerializer, responses=EntryOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        t = _visible(request, pk)
        data = EntryInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = _version(data.validated_data["version"], "version")
        replacing = _version(data.validated_data.get("replace"), "replace")
        assert version is not None
        theirs = version.bot.owner_id == request.user.pk
        if (
            may_manage(request.user, t)
            and (replacing is None)
            and not (theirs and entries.may_enter(request.user, t))
        ):
            entries.add_entrant(request.user, t, version)
        else:
            entries.enter(request.user, t, version, replacing=replacing)
        return Response(_entry_state(request.user, t))

    @extend_schema(parameters=[WithdrawSerializer], responses={200: EntryOutSerializer})
    def delete(self, request: Request, pk: int) -> Response:
        t = _visible(request, pk)
        data = WithdrawSerializer(data=_delete_input(request, "version"))
        data.is_valid(raise_exception=True)
        version = _version(data.validated_data["version"], "version")
        assert version is not None
        if may_manage(request.user, t):
            entries.remove_entrant(request.user, t, version)
        else:
            entries.withdraw(request.user, t, version)
        return Response(_entry_state(request.user, t))


# ------------------------------------------------------------------------------- members


class MemberSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=AudienceRole.choices)
    joined_at = serializers.DateTimeField()


class MemberInSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=AudienceRole.choices, default=AudienceRole.MEMBER)


class MemberNameSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class MemberOutSerializer(serializers.Serializer):
    members = MemberSerializer(many=True)


class TournamentMembersApi(APIView):
    """The managers' view of the members: GET lists them (co-organisers first), POST adds one
    by user name or changes their role (``organiser``: a co-organiser), DELETE ``?username=``
    removes one (while a draft, their entries go too)."""

    permission_classes = [permissions.IsAuthenticated]

    def _answer(self, t: Tournament) -> Response:
        return Response({"members": MemberSerializer(membership.members_of(t), many=True).data})

    @extend_schema(responses=MemberOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return self._answer(_managed(request, pk))

    @extend_schema(request=MemberInSerializer, responses=MemberOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        t = _managed(request, pk)
        data = MemberInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership.add_member(t, data.validated_data["username"], data.validated_data["role"])
        return self._answer(t)

    @extend_schema(parameters=[MemberNameSerializer], responses={200: MemberOutSerializer})
    def delete(self, request: Request, pk: int) -> Response:
        t = _managed(request, pk)
        data = MemberNameSerializer(data=_delete_input(request, "username"))
        data.is_valid(raise_exception=True)
        name = data.validated_data["username"]
        user = get_user_model().objects.filter(username=name).first()
        if user is None or not membership.remove_member(t, user):
            raise ValidationError({"username": [f"{name} is not a member."]})
        return self._answer(t)


# ---------------------------------------------------------------------------- invitation


class InviteSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="the link's code; empty: no link yet")
    url = serializers.CharField(help_text="the join page's path; empty: no link yet")


def _invite(t: Tournament) -> dict[str, str]:
    code = membership.invite_code(t)
    url = reverse("competitions:tournament_join", args=[code]) if code else ""
    return {"code": code, "url": url}


class TournamentInviteApi(APIView):
    """The invitation link (managers): GET reads it, POST makes a new one (the old stops
    working)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=InviteSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(_invite(_managed(request, pk)))

    @extend_schema(request=None, responses=InviteSerializer)
    def post(self, request: Request, pk: int) -> Response:
        t = _managed(request, pk)
        membership.rotate_invite(t)
        return Response(_invite(t))


class JoinInSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=200, help_text="the invitation link's code")


class JoinOutSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()


class TournamentJoinApi(APIView):
    """Join a tournament by its invitation code (404 for a code that is not current)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=JoinInSerializer, responses=JoinOutSerializer)
    def post(self, request: Request) -> Response:
        data = JoinInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        t = membership.join_by_token(request.user, data.validated_data["token"])
        return Response({"tournament": t.pk, "name": t.name})
