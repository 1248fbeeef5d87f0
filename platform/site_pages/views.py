from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games.registry import all_games


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "site_pages/home.html", {"games": [g.describe() for g in all_games()]})


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
