"""Ladder pages: sending a challenge from a bot's page (the result is the normal match page)."""

from __future__ import annotations

from typing import cast

from bots.models import Bot
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST
from foundation.params import id_param
from foundation.throttles import web_throttle

from ladder.challenges import create_challenge


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
