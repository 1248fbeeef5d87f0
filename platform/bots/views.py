"""Bot pages: a bot with its versions and results; creating a bot; uploading a version."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from matches.selectors import filter_matches
from ratings.models import Rating

from bots.forms import BotCreateForm, VersionUploadForm
from bots.models import Bot
from bots.services import create_bot, upload_version


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "game"), pk=pk)
    return render(
        request,
        "bots/detail.html",
        {
            "bot": bot,
            "versions": bot.versions.order_by("-number"),
            "rating": Rating.objects.filter(bot=bot, game=bot.game).first(),
            "matches": filter_matches(bot=bot.pk)[:15],
            "is_owner": request.user == bot.owner,
        },
    )


@login_required
def bot_create(request: HttpRequest) -> HttpResponse:
    form = BotCreateForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        try:
            with transaction.atomic():
                bot = create_bot(
                    owner=request.user,
                    game=form.cleaned_data["game"],
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                )
                upload_version(bot=bot, filename=code.name, data=code.validated_bytes)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"{bot.name} v1 is uploaded.")
            return redirect("bots:detail", pk=bot.pk)
    return render(
        request, "bots/create.html", {"form": form, "max_upload": settings.ARENA_UPLOAD_MAX_BYTES}
    )


@login_required
def bot_upload(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot, pk=pk)
    if bot.owner != request.user:
        raise PermissionDenied("Only the bot's owner may upload versions.")
    form = VersionUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        try:
            version = upload_version(bot=bot, filename=code.name, data=code.validated_bytes)
        except ValidationError as exc:
            form.add_error("code", exc)
        else:
            messages.success(request, f"{bot.name} v{version.number} is uploaded.")
            return redirect("bots:detail", pk=bot.pk)
    return render(request, "bots/upload.html", {"form": form, "bot": bot})
