"""The user's notifications page (newest first, a page at a time), "mark all read", and the
settings page's switches (the form is drawn on ``/accounts/settings/``)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from foundation.params import int_param

from notifications import services
from notifications.forms import PreferencesForm
from notifications.models import Notification

PAGE_SIZE = 30


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    rows = Notification.objects.filter(user=cast(User, request.user))  # login_required
    rows = rows.order_by("-created_at", "-pk")
    number = int_param(request.GET.get("page"), minimum=1) or 1
    page = Paginator(rows, PAGE_SIZE).get_page(number)
    return render(
        request,
        "notifications/list.html",
        {"page": page, "unread": services.unread_count(request.user)},
    )


@require_POST
@login_required
def mark_all_read(request: HttpRequest) -> HttpResponse:
    changed = services.mark_read(request.user)
    if changed:
        messages.success(
            request, f"{changed} notification{'s' if changed != 1 else ''} marked read."
        )
    return redirect("notifications:list")


@require_POST
@login_required
def save_preferences(request: HttpRequest) -> HttpResponse:
    """The settings page's form: every kind's two switches (an unticked box: off)."""
    form = PreferencesForm(services.preferences_of(request.user), request.POST)
    form.is_valid()  # checkboxes: always valid; an absent box is off
    services.set_preferences(request.user, form.channels())
    messages.success(request, "Your notification settings are saved.")
    return redirect(reverse("account_settings") + "#notifications")
