from django.urls import path

from matches import views

app_name = "matches"
# The list and a match's page ("matches:list", "matches:detail") compose other apps' rows:
# site_pages/match_page.py, added to this map by meeple/urls.py.
urlpatterns = [
    path("<id:pk>/status.json", views.match_status, name="status"),
    path("<id:pk>/steps/<id:n>.json", views.match_step, name="step"),
    path("<id:pk>/replay.json", views.match_replay_download, name="replay_download"),
    path("<id:pk>/logs.json", views.match_logs, name="logs"),
]
