"""Bot pages of the bots' own domain: the bot list, creating a bot, uploading a
version. A bot's own page and "My bots" compose several domains and live in
``site_pages.bot_page``; challenges and pinning (which may lift a suspension) are
``ladder.views``'."""

from __future__ import annotations

from typing import cast

from catalog.selectors import active_games
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from foundation.throttles import web_throttle

from bots.forms import ZIP_LAYOUT, BotCreateForm, VersionUploadForm
from bots.models import Bot
from bots.selectors import bots_search
from bots.services import create_bot, upload_version

UPLOADED_NOTE = (
    "{name} v{number} is uploaded. A worker checks that its code compiles, then it plays a "
    "qualification match against the built-in bots; once it passes, it joins the ladder and "
    "plays its placement matches on its own."
)


def bot_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:100]
    game = request.GET.get("game", "").strip()[:50]
    page = Paginator(bots_search(query=query, game=game), 50).get_page(request.GET.get("page"))
    return render(
        request,
        "bots/list.html",
        {"page": page, "q": query, "game": game, "games": active_games()},
    )


@login_required
@web_throttle("uploads")
def bot_create(request: HttpRequest) -> HttpResponse:
    form = BotCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        try:
            with transaction.atomic():
                bot = create_bot(
                    owner=cast(User, request.user),  # login_required
                    game=form.cleaned_data["game"],
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                )
                upload_version(
                    bot=bot,
                    filename=code.name,
                    data=code.validated_bytes,
                    language=form.cleaned_data["language"] or None,
                )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, UPLOADED_NOTE.format(name=bot.name, number=1))
            return redirect("bots:detail", pk=bot.pk)
    return render(
        request,
        "bots/create.html",
        {"form": form, "max_upload": settings.ARENA_UPLOAD_MAX_BYTES, "zip_layout": ZIP_LAYOUT},
        status=400 if form.errors else 200,
    )


@login_required
@web_throttle("uploads")
def bot_upload(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot, pk=pk)
    if bot.owner != request.user:
        raise PermissionDenied("Only the bot's owner may upload versions.")
    form = VersionUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        try:
            version = upload_version(
                bot=bot,
                filename=code.name,
                data=code.validated_bytes,
                language=form.cleaned_data["language"] or None,
            )
        except ValidationError as exc:
            form.add_error("code", exc)
        else:
            messages.success(request, UPLOADED_NOTE.format(name=bot.name, number=version.number))
            return redirect("bots:detail", pk=bot.pk)
    return render(
        request,
        "bots/upload.html",
        {"form": form, "bot": bot, "zip_layout": ZIP_LAYOUT},
        status=400 if form.errors else 200,
    )
