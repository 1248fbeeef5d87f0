"""What a locked-out log-in gets (django-axes' AXES_LOCKOUT_CALLABLE): a clear message, as JSON
for the API's token endpoint and as a page for the site, with status 429."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from foundation.limits import error_response


def lockout_message() -> str:
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    return (
        f"Too many failed log-ins for this user name from your address: log-in is locked for "
        f"{minutes} minutes. If you forgot your password, ask an administrator to reset it."
    )


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    response = error_response(request, lockout_message(), 429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
