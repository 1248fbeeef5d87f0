from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from foundation.admin_pages import BoundedAdmin

from competitions.entries.membership import hand_over
from competitions.models import CompetitionMatch, League, Tournament

#: Tournaments one hand-over changes at most (a selection of a page or two).
MAX_HANDED_OVER = 100


class HandOverForm(forms.Form):
    """The admin's hand-over: to whom, and whether the previous organiser stays."""

    username = forms.CharField(label="New organiser (user name)", max_length=150)
    keep_previous = forms.BooleanField(
        label="Keep the previous organiser as a co-organiser", required=False, initial=True
    )

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(f"No active user is named {name!r}.")
        return user


@admin.register(Tournament)
class TournamentAdmin(BoundedAdmin):
    list_display = ("name", "game", "organiser", "status", "visibility", "created_at")
    list_filter = ("status", "visibility", "game")
    list_select_related = ("game", "organiser")
    search_fields = ("name",)
    # Ids: a picker of every version (or user) costs a query per version to draw.
    raw_id_fields = ("organiser", "entrants", "audience")
    actions = ["hand_over_action"]

    @admin.action(description="Hand the selected tournaments over to another organiser")
    def hand_over_action(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse | None:
        """A page asking to whom (the selected ids travel with it); applied on its POST."""
        form = HandOverForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            new, keep = form.cleaned_data["username"], form.cleaned_data["keep_previous"]
            chosen = list(queryset[:MAX_HANDED_OVER])
            for t in chosen:
                hand_over(t, new, keep_previous=keep)
            self.message_user(
                request, f"{len(chosen)} tournament(s) handed over to {new.username}."
            )
            return None
        return render(
            request,
            "competitions/admin/hand_over.html",
            {
                **self.admin_site.each_context(request),
                "title": "Hand tournaments over",
                "form": form,
                "tournaments": queryset.select_related("organiser")[:MAX_HANDED_OVER],
                "selected": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME),
                "opts": self.model._meta,
            },
        )


@admin.register(League)
class LeagueAdmin(BoundedAdmin):
    list_display = ("name", "game", "every_hours", "is_active", "rounds_played", "last_run_at")
    list_filter = ("is_active", "game")
    list_select_related = ("game",)
    raw_id_fields = ("organiser",)


@admin.register(CompetitionMatch)
class CompetitionMatchAdmin(BoundedAdmin):
    """Which tournament or league each match was played for (``matches`` does not know)."""

    list_display = ("match", "tournament", "league", "round")
    list_select_related = ("match__game", "tournament", "league")
    search_fields = ("match__id",)
    raw_id_fields = ("match", "tournament", "league")
