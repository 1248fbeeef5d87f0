"""Who belongs to a tournament: its audience (members, who see a private tournament and may
enter when entries are for members, and co-organisers, who manage it), the invitation link
that lets a user join, and the admin's hand-over to another organiser.

The link's code is ``<tournament id>.<secret>``: the id finds the tournament, the secret is
compared in constant time (``hmac.compare_digest``), so a guess learns nothing from timing and
a rotated secret voids every link sent before."""

from __future__ import annotations

import hmac
import secrets
from functools import partial
from typing import Any

from audiences.models import Audience, AudienceMember, AudienceRole
from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import transaction
from django.http import Http404
from foundation import stamps

from competitions.entries.services import entries_stamp_key
from competitions.models import Tournament, TournamentStatus

#: Members listed on a page or an API answer at most (a class or a club, not a city).
MAX_MEMBERS = 500


def ensure_audience(t: Tournament) -> Audience:
    """The tournament's audience, made when it has none (a private tournament always has one;
    a public one gets one for its co-organisers and invited members). Locks the row so that
    two callers cannot both make one."""
    if t.audience_id is not None:
        return t.audience  # type: ignore[return-value]  # set: its id is
    with transaction.atomic():
        locked = Tournament.objects.select_for_update(of=("self",)).get(pk=t.pk)
        if locked.audience_id is None:
            locked.audience = Audience.objects.create(label=f"Tournament {t.pk}: {t.name}"[:150])
            locked.save(update_fields=["audience"])
    t.audience_id = locked.audience_id
    t.audience = locked.audience
    return t.audience  # type: ignore[return-value]


def rotate_invite(t: Tournament) -> str:
    """A fresh invitation secret (the old link stops working); returns the link's code."""
    ensure_audience(t)
    t.invite_token = secrets.token_urlsafe(24)
    Tournament.objects.filter(pk=t.pk).update(invite_token=t.invite_token)
    return invite_code(t)


def invite_code(t: Tournament) -> str:
    """What the invitation link carries (``/tournaments/join/<code>/``); "" when it has none."""
    return f"{t.pk}.{t.invite_token}" if t.invite_token else ""


def tournament_for_code(code: str) -> Tournament:
    """The tournament whose current invitation ``code`` is; Http404 for any other code
    (malformed, unknown, rotated): a wrong guess and an old link look the same."""
    pk, _, secret = str(code).partition(".")
    if not pk.isascii() or not pk.isdigit() or len(pk) > 18 or not secret:
        raise Http404("No such invitation.")
    t = Tournament.objects.select_related("game", "organiser").filter(pk=int(pk)).first()
    # compare_digest wants ASCII str: a non-ASCII guess can never match a token_urlsafe.
    if t is None or not t.invite_token or not secret.isascii():
        raise Http404("No such invitation.")
    if not hmac.compare_digest(t.invite_token, secret):
        raise Http404("No such invitation.")
    return t


def join_by_token(user: Any, code: str) -> Tournament:
    """``user`` joins the tournament of the invitation ``code`` as a member (already a member
    or a manager: nothing changes). Http404 for a code that is not current."""
    t = tournament_for_code(code)
    if t.organiser_id != user.pk:
        audience = ensure_audience(t)
        AudienceMember.objects.get_or_create(audience=audience, user=user)
    return t


def add_member(t: Tournament, username: str, role: str = AudienceRole.MEMBER) -> AudienceMember:
    """Add the user named ``username`` (or change their role: ``organiser`` makes a
    co-organiser). A ValidationError for an unknown name, an unknown role or the organiser."""
    if role not in AudienceRole.values:
        raise ValidationError(f"Unknown role {role!r}: member or organiser.")
    user = _user_named(username)
    if user.pk == t.organiser_id:
        raise ValidationError(f"{user.username} organises this tournament already.")
    audience = ensure_audience(t)
    member, made = AudienceMember.objects.get_or_create(
        audience=audience, user=user, defaults={"role": role}
    )
    if not made and member.role != role:
        member.role = role
        member.save(update_fields=["role"])
    return member


def remove_member(t: Tournament, user: Any) -> bool:
    """Take ``user`` out of the tournament's audience; while it is a draft, their bots' entries
    go too (a private tournament's entrant must be able to see it). False: not a member."""
    if t.audience_id is None:
        return False
    with transaction.atomic():
        gone, _ = AudienceMember.objects.filter(audience_id=t.audience_id, user=user).delete()
        if gone and t.status == TournamentStatus.DRAFT:
            t.entrants.remove(*t.entrants.filter(bot__owner=user))
            transaction.on_commit(partial(stamps.bump, entries_stamp_key(t.pk)))
    return bool(gone)


def members_of(t: Tournament) -> list[AudienceMember]:
    """The tournament's members and co-organisers (co-organisers first), at most
    ``MAX_MEMBERS``."""
    if t.audience_id is None:
        return []
    rows = AudienceMember.objects.filter(audience_id=t.audience_id).select_related("user")
    return list(rows.order_by("-role", "user__username")[:MAX_MEMBERS])


def hand_over(t: Tournament, new_organiser: Any, *, keep_previous: bool = True) -> None:
    """Make ``new_organiser`` the tournament's organiser (the admin's action). The previous
    one stays as a co-organiser unless ``keep_previous`` is False."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update(of=("self",)).get(pk=t.pk)
        previous = locked.organiser_id
        if previous == new_organiser.pk:
            return
        audience = ensure_audience(locked)
        AudienceMember.objects.filter(audience=audience, user=new_organiser).delete()
        if keep_previous:
            AudienceMember.objects.update_or_create(
                audience=audience, user_id=previous, defaults={"role": AudienceRole.ORGANISER}
            )
        locked.organiser = new_organiser
        locked.save(update_fields=["organiser"])
    t.organiser = new_organiser
    t.audience_id = locked.audience_id


def _user_named(username: str) -> Any:
    name = str(username).strip()
    try:
        return get_user_model().objects.get(username=name, is_active=True)
    except (ObjectDoesNotExist, ValueError):
        raise ValidationError(f"No user is named {name!r}.") from None
