from django.urls import path

from matches import views

app_name = "matches"
urlpatterns = [
    path("", views.match_list, name="list"),
    path("<id:pk>/", views.match_view, name="detail"),
    path("<id:pk>/status.json", views.match_status, name="status"),
    path("<id:pk>/steps/<id:n>.json", views.match_step, name="step"),
    path("<id:pk>/replay.json", views.match_replay_download, name="replay_download"),
    path("<id:pk>/logs.json", views.match_logs, name="logs"),
]
