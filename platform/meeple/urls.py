"""URL map of the site. The ``<id:...>`` converter is registered by ``foundation`` when the apps
are ready (foundation/apps.py), before any URL map is read."""

from types import ModuleType

import bots.urls
import catalog.urls
import matches.urls
import site_pages.urls
from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularSwaggerSplitView
from foundation.schema import SchemaView


def _with(urls: ModuleType, pages: list[URLPattern]) -> tuple[list[URLPattern | URLResolver], str]:
    """A domain app's URL map with the composed pages (site_pages) that carry its names."""
    return [*urls.urlpatterns, *pages], urls.app_name


# Swagger UI sets inline styles as it draws (React): allowed on that page alone. Scripts stay
# 'self' only: its start-up script is a file (the split view), its assets from the sidecar.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

urlpatterns = [
    path("admin/", admin.site.urls),
    # The schema is the same for everyone and cheap to serve again: not throttled.
    path("api/schema/", SchemaView.as_view(throttle_classes=[]), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script, so the
    # Content-Security-Policy holds), and its assets come from drf-spectacular-sidecar.
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("games/", include(_with(catalog.urls, site_pages.urls.game_pages))),
    path("bots/", include(_with(bots.urls, site_pages.urls.bot_pages))),
    path("bots/", include("ladder.urls")),
    path("matches/", include(_with(matches.urls, site_pages.urls.match_pages))),
    path("tournaments/", include("competitions.urls")),
    path("play/", include("play.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("site_pages.urls")),
]

# Requests we cannot read (bodies too large, bad multipart): a page with the reason.
handler400 = "foundation.errors.bad_request"
# Under /api/, a JSON 404 even where no route matches (clients read one format).
handler404 = "foundation.errors.not_found"
