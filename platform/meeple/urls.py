"""URL map of the site."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script, so the
    # Content-Security-Policy holds), and its assets come from drf-spectacular-sidecar.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("site_pages.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include("catalog.urls")),
    path("bots/", include("bots.urls")),
    path("bots/", include("ladder.urls")),
    path("matches/", include("matches.urls")),
    path("tournaments/", include("competitions.urls")),
    path("play/", include("play.urls")),
    path("", include("site_pages.urls")),
]

# Requests we cannot read (bodies too large, bad multipart): a page with the reason.
handler400 = "meeple.errors.bad_request"
# Under /api/, a JSON 404 even where no route matches (clients read one format).
handler404 = "meeple.errors.not_found"
