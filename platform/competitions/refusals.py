"""What a competition's page answers a user who may not do what they asked (tournaments' and
leagues' pages alike): a 403 page that says who may."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

NOT_ORGANISER = (
    "Only staff and members of the “organisers” group may {what}. "
    "Ask an administrator to add you to the group."
)


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "competitions/forbidden.html", {"message": message}, status=403)
