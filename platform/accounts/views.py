"""Sign-up, log-in and log-out pages. Sign-up and log-in POSTs are throttled per address with
the API's counters (foundation.throttles); wrong passwords lock out through django-axes."""

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from foundation.throttles import web_throttle


class SignupForm(UserCreationForm):
    """Django's sign-up form (user names are at most 150 characters, no NUL)."""


@web_throttle("signup")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log straight in."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("site_pages:home")
    return render(
        request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200
    )


@method_decorator(web_throttle("login"), name="dispatch")
class LoginView(auth_views.LoginView):
    """Django's log-in page, throttled per address."""
