"""Ladder pages: sending a challenge from a bot's page (the result is the normal match page),
and pinning a version (which may bring a suspended bot back)."""

from __future__ import annotations

from typing import cast

from bots.models import Bot
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST
from foundation.params import id_param, int_param
from foundation.throttles import web_throttle

from ladder.challenges import create_challenge
from ladder.pinning import pin, pinned_message


@login_required
@require_POST
@web_throttle("challenge")
def bot_challenge(request: HttpRequest, pk: int) -> HttpResponse:
    """Challenge bot ``pk`` (and any other chosen bots) with one of the user's own bots."""
    user = cast(User, request.user)  # login_required
    target = get_object_or_404(Bot, pk=pk)
    own_id = id_param(request.POST.get("with"))
    own = Bot.objects.filter(pk=own_id, owner=user).first() if own_id else None
    if own is None:
        messages.error(request, "Choose one of your own bots to challenge with.")
        return redirect("bots:detail", pk=target.pk)
    extra_ids = [i for x in request.POST.getlist("also")[:10] if (i := id_param(x))]
    extra = list(Bot.objects.filter(pk__in=extra_ids, game=target.game).exclude(pk=target.pk))
    try:
        match = create_challenge(user=user, bot=own, opponents=[target, *extra])
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("bots:detail", pk=target.pk)
    messages.success(request, f"Challenge sent: match #{match.pk} (friendly, unrated).")
    return redirect("matches:detail", pk=match.pk)


@login_required
@require_POST
def bot_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """Pin the posted version number of bot ``pk`` (none: unpin); said on the bot's page."""
    bot = get_object_or_404(Bot, pk=pk)
    number = request.POST.get("version", "")
    version = None
    wanted = int_param(number, minimum=1, maximum=10**9)
    if wanted is not None:
        version = bot.versions.filter(number=wanted).first()
        if version is None:
            messages.error(request, f"{bot.name} has no version {number}.")
            return redirect("bots:detail", pk=bot.pk)
    try:
        result = pin(bot=bot, by=cast(User, request.user), version=version)  # login_required
    except PermissionDenied as exc:  # another's bot: said on its page, as any refusal
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        say = messages.warning if result.still_suspended else messages.success
        say(request, pinned_message(result))
    return redirect("bots:detail", pk=bot.pk)
