from django.urls import path

from competitions import views, views_entries, views_members
from competitions.tournaments import results_views

app_name = "competitions"
urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<id:pk>/", views.tournament_detail, name="tournament_detail"),
    path("<id:pk>/start/", views.tournament_start, name="tournament_start"),
    path("<id:pk>/status.json", views.tournament_status, name="tournament_status"),
    # Entries and members (competitions/views_entries.py, views_members.py): POST forms.
    path("<id:pk>/entry/", views_entries.tournament_entry, name="tournament_entry"),
    path("<id:pk>/entrants/", views_entries.tournament_entrants, name="tournament_entrants"),
    path("<id:pk>/members/", views_members.tournament_members, name="tournament_members"),
    path("<id:pk>/invite/", views_members.tournament_invite, name="tournament_invite"),
    path("join/<str:code>/", views_members.tournament_join, name="tournament_join"),
    # Results to publish: exports and the embeddable standings
    # (competitions/tournaments/results_views.py).
    path(
        "<id:pk>/standings.csv",
        results_views.standings_csv_view,
        name="tournament_standings_csv",
    ),
    path(
        "<id:pk>/standings.json",
        results_views.standings_json_view,
        name="tournament_standings_json",
    ),
    path("<id:pk>/embed/", results_views.embed_view, name="tournament_embed"),
    # Leagues live under /tournaments/ because the site's URL map mounts this app there.
    path("leagues/", views.league_list, name="league_list"),
    path("leagues/new/", views.league_new, name="league_new"),
    path("leagues/<id:pk>/", views.league_detail, name="league_detail"),
    path("leagues/<id:pk>/play/", views.league_play_round, name="league_play_round"),
]
