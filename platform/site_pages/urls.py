from django.urls import path

from site_pages import bot_page, game_page, match_page, sitemaps, version_compare, views

app_name = "site_pages"
urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("docs/protocol/", views.protocol, name="protocol"),
    path("docs/api/", views.api_guide, name="api_guide"),
    path("robots.txt", sitemaps.robots_txt, name="robots"),
    path("sitemap.xml", sitemaps.index, name="sitemap"),
    path("sitemap-<slug:section>.xml", sitemaps.section, name="sitemap_section"),
]

# Pages that compose domains, served under their domain's URLs and names ("catalog:detail",
# "bots:detail", "matches:detail"): meeple/urls.py adds them to those apps' URL maps.
game_pages = [path("<slug:slug>/", game_page.game_detail, name="detail")]
bot_pages = [
    path("mine/", bot_page.my_bots, name="mine"),
    path("<id:pk>/", bot_page.bot_detail, name="detail"),
    path("<id:pk>/compare/", version_compare.compare, name="compare"),
]
match_pages = [
    path("", match_page.match_list, name="list"),
    path("<id:pk>/", match_page.match_view, name="detail"),
]
