"""The API's log-in: ``POST /api/auth/token/`` with ``{username, password}`` -> ``{token}``,
throttled per address (``login`` rate) and locked by django-axes like the web log-in."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from foundation.throttles import LoginThrottle
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.lockout import lockout_message


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class TokenErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


class LoginRequestSerializer(AuthTokenSerializer):
    """AuthTokenSerializer with bounded fields (no NUL, no megabyte passwords)."""

    username = serializers.CharField(label="Username", max_length=150, write_only=True)
    password = serializers.CharField(
        label="Password",
        max_length=4096,
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
    )


class TokenLoginApi(APIView):
    """Exchange a user name and password for an API token."""

    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    throttle_classes = [LoginThrottle]

    @extend_schema(
        request=LoginRequestSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(description="Wrong credentials or bad input"),
            429: TokenErrorSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        data = LoginRequestSerializer(data=request.data, context={"request": request})
        valid = data.is_valid()
        if getattr(request, "axes_locked_out", False) or getattr(
            request._request, "axes_locked_out", False
        ):
            # django-axes marked the request: answer here (its middleware sees only Django's
            # request object, not DRF's wrapper) and keep the middleware from answering again.
            request._request.axes_locked_out = False  # type: ignore[attr-defined]
            return Response({"detail": lockout_message()}, status=status.HTTP_429_TOO_MANY_REQUESTS)
        if not valid:
            return Response(data.errors, status=status.HTTP_400_BAD_REQUEST)
        token, _ = Token.objects.get_or_create(user=data.validated_data["user"])
        return Response({"token": token.key})
