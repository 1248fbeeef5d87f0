"""URL map of the site."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
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
