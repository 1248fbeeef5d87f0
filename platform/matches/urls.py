from django.urls import path

from matches import views

app_name = "matches"
urlpatterns = [
    path("", views.match_list, name="list"),
    path("<int:pk>/", views.match_view, name="detail"),
    path("<int:pk>/steps/<int:n>.json", views.match_step, name="step"),
    path("<int:pk>/replay.json", views.match_replay_download, name="replay_download"),
]
