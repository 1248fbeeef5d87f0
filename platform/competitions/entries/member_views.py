"""A tournament's members on its page (managers only: add by user name, remove, make a
co-organiser, the invitation link and its rotation) and the join page the link opens."""

from __future__ import annotations

from typing import Any

from audiences.models import AudienceRole
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from competitions.entries import membership
from competitions.entries.views import managed_or_404
from competitions.models import Tournament
from competitions.permissions import may_see_tournament


def members_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    """The members section's rows and the invitation link (absolute, to copy)."""
    code = membership.invite_code(t)
    link = reverse("competitions:tournament_join", args=[code]) if code else ""
    return {
        "members": membership.members_of(t),
        "members_shown": membership.MAX_MEMBERS,
        "invite_link": request.build_absolute_uri(link) if link else "",
    }


@login_required
@require_POST
def tournament_members(request: HttpRequest, pk: int) -> HttpResponse:
    """``action=add`` (``username``, ``role``), ``action=remove`` (``username``) or
    ``action=role`` (``username``, ``role``: member or organiser)."""
    t = managed_or_404(request, pk)
    action = request.POST.get("action", "add")
    name = request.POST.get("username", "").strip()[:150]
    role = request.POST.get("role") or AudienceRole.MEMBER
    try:
        if action == "remove":
            user = get_user_model().objects.filter(username=name).first()
            if user is None or not membership.remove_member(t, user):
                raise ValidationError(f"{name or 'Nobody'} is not a member.")
            messages.success(request, f"{name} is no longer a member.")
        else:
            member = membership.add_member(t, name, role)
            shown = "a co-organiser" if member.role == AudienceRole.ORGANISER else "a member"
            messages.success(request, f"{member.user.username} is {shown}.")
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    return redirect("competitions:tournament_detail", pk=t.pk)


@login_required
@require_POST
def tournament_invite(request: HttpRequest, pk: int) -> HttpResponse:
    """Make a new invitation link; the old one stops working."""
    t = managed_or_404(request, pk)
    membership.rotate_invite(t)
    messages.success(request, "A new invitation link is made; the old one no longer works.")
    return redirect("competitions:tournament_detail", pk=t.pk)


@login_required
def tournament_join(request: HttpRequest, code: str) -> HttpResponse:
    """GET: what the link is for and a button; POST: join. Anonymous: the log-in page, back
    here after. A code that is not current: 404."""
    t = membership.tournament_for_code(code)
    if request.method == "POST":
        membership.join_by_token(request.user, code)
        messages.success(request, f"You are a member of {t.name}.")
        return redirect("competitions:tournament_detail", pk=t.pk)
    return render(
        request,
        "competitions/join.html",
        {"t": t, "code": code, "member": may_see_tournament(request.user, t)},
    )
