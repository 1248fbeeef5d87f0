"""URL map of the site."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from foundation.converters import IdConverter

# Before the apps' URL modules are read (include() imports them): they use <id:...>.
register_converter(IdConverter, "id")

# Swagger UI sets inline styles as it draws (React): allowed on that page alone. Scripts stay
# 'self' only: its start-up script is a file (the split view), its assets from the sidecar.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

urlpatterns = [
    path("admin/", admin.site.urls),
    # The schema is the same for everyone and cheap to serve again: not throttled.
    path("api/schema/", SpectacularAPIView.as_view(throttle_classes=[]), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script, so the
    # Content-Security-Policy holds), and its assets come from drf-spectacular-sidecar.
    path("api/docs/", api_docs, name="api-docs"),
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
handler400 = "foundation.errors.bad_request"
# Under /api/, a JSON 404 even where no route matches (clients read one format).
handler404 = "foundation.errors.not_found"
