"""Bot pages: the bot list, "My bots", a bot with its versions, ladder state, rating over time,
form and head-to-head; creating a bot, uploading a version, pinning one (challenges are sent
by ``ladder.views``)."""

from __future__ import annotations

from functools import partial
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
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST
from foundation import stamps
from foundation.throttles import web_throttle
from ladder import selectors as ladder_selectors
from matches.selectors import match_rows
from ratings.models import Rating

from bots.charts import rating_chart_svg
from bots.forms import BotCreateForm, VersionUploadForm
from bots.models import Bot, BotVersion
from bots.selectors import bots_search
from bots.services import create_bot, pin_version, upload_version

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
def my_bots(request: HttpRequest) -> HttpResponse:
    bots = list(bots_search(owner=request.user.get_username()))
    versions = list(
        BotVersion.objects.filter(bot__in=bots).select_related("bot").order_by("bot", "-number")
    )
    qualification = ladder_selectors.qualification_matches(versions)
    by_bot: dict[int, list[BotVersion]] = {}
    for v in versions:
        v.qualification_match_id = qualification.get(v.pk)  # type: ignore[attr-defined]
        by_bot.setdefault(v.bot_id, []).append(v)
    entries = ladder_selectors.ladder_entries(bots)
    rows = [
        {
            "bot": b,
            "versions": by_bot.get(b.pk, []),
            "entry": entries.get(b.pk),
            "matches": match_rows(bot=b.pk)[:5],
        }
        for b in bots
    ]
    return render(request, "bots/mine.html", {"rows": rows})


def _chart(bot: Bot) -> str:
    history = ladder_selectors.rating_history(bot)
    return mark_safe(rating_chart_svg([p.elo for p in history]))


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "game", "pinned_version"), pk=pk)
    is_owner = request.user == bot.owner
    versions = list(bot.versions.order_by("-number"))
    qualification = ladder_selectors.qualification_matches(versions)
    for v in versions:
        v.qualification_match_id = qualification.get(v.pk)  # type: ignore[attr-defined]
    own_bots = (
        list(
            Bot.objects.filter(owner=request.user, game=bot.game)
            .exclude(pk=bot.pk)
            .order_by("name")
        )
        if request.user.is_authenticated
        else []
    )
    return render(
        request,
        "bots/detail.html",
        {
            "bot": bot,
            "versions": versions,
            "playing": bot.playing_version(),
            "rating": Rating.objects.filter(bot=bot, game=bot.game).first(),
            "entry": ladder_selectors.ladder_entry(bot),
            # Read only when the history parts are drawn (a cache miss): the template calls
            # them; they change only when a match of the bot is recorded.
            "history_stamp": stamps.current(ladder_selectors.history_stamp_key(bot.pk)),
            "chart": partial(_chart, bot),
            "form_rows": partial(ladder_selectors.recent_form, bot),
            "head_to_head": partial(ladder_selectors.head_to_head, bot),
            "matches": match_rows(bot=bot.pk)[:15],
            "is_owner": is_owner,
            "own_bots": own_bots,
            "other_opponents": ladder_selectors.challenge_candidates(bot),
            "challenges_left": ladder_selectors.challenges_left(request.user)
            if request.user.is_authenticated
            else 0,
            "placement_matches": settings.ARENA_LADDER_PLACEMENT,
            "suspend_after": settings.ARENA_LADDER_SUSPEND_AFTER,
        },
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
                upload_version(bot=bot, filename=code.name, data=code.validated_bytes)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, UPLOADED_NOTE.format(name=bot.name, number=1))
            return redirect("bots:detail", pk=bot.pk)
    return render(
        request,
        "bots/create.html",
        {"form": form, "max_upload": settings.ARENA_UPLOAD_MAX_BYTES},
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
            version = upload_version(bot=bot, filename=code.name, data=code.validated_bytes)
        except ValidationError as exc:
            form.add_error("code", exc)
        else:
            messages.success(request, UPLOADED_NOTE.format(name=bot.name, number=version.number))
            return redirect("bots:detail", pk=bot.pk)
    return render(
        request, "bots/upload.html", {"form": form, "bot": bot}, status=400 if form.errors else 200
    )


@login_required
@require_POST
def bot_pin(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot, pk=pk)
    number = request.POST.get("version", "")
    version = None
    if number.isascii() and number.isdigit() and len(number) < 10:  # "²".isdigit() too
        version = bot.versions.filter(number=int(number)).first()
        if version is None:
            messages.error(request, f"{bot.name} has no version {number}.")
            return redirect("bots:detail", pk=bot.pk)
    try:
        pin_version(bot=bot, by=cast(User, request.user), version=version)  # login_required
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            f"{bot.name} now plays with v{version.number}."
            if version
            else f"{bot.name} now plays with its latest active version.",
        )
    return redirect("bots:detail", pk=bot.pk)
