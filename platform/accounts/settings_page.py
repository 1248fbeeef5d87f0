"""The account's settings page (``/accounts/settings/``): who you are, where your API token
comes from, what you are notified of and how (``notifications.forms``), and deleting the
account, confirmed by its password (accounts.deletion)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from notifications.forms import PreferencesForm
from notifications.services import preferences_of

from accounts.deletion import DeletionSummary, deletable, delete_account


class DeleteAccountForm(forms.Form):
    """The account's own password: a left-open session alone cannot delete it."""

    password = forms.CharField(
        label="Your password",
        max_length=4096,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: the account was not deleted.")
        return password


def _page(request: HttpRequest, form: DeleteAccountForm, status: int = 200) -> HttpResponse:
    context = {
        "form": form,
        "summary": DeletionSummary.of(request.user),
        "deletable": deletable(request.user),
        # Saved by notifications.views.save_preferences (its own URL).
        "notification_form": PreferencesForm(preferences_of(request.user)),
    }
    return render(request, "accounts/settings.html", context, status=status)


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    return _page(request, DeleteAccountForm(request.user))


@require_POST
@login_required
def delete_own_account(request: HttpRequest) -> HttpResponse:
    """Delete the signed-in account once its password is confirmed, then log out."""
    user = request.user
    if not deletable(user):
        return _page(request, DeleteAccountForm(user), status=403)
    form = DeleteAccountForm(user, request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    name = user.get_username()
    delete_account(user)
    logout(request)  # the session is flushed; its cookie names nobody any more
    messages.success(request, f"The account {name} is deleted.")
    return redirect("site_pages:home")
