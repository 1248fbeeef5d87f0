from django.urls import path

from competitions.entries import member_views
from competitions.entries import views as entry_views
from competitions.leagues import views as league_views
from competitions.tournaments import results_views, views

app_name = "competitions"
urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<id:pk>/", views.tournament_detail, name="tournament_detail"),
    path("<id:pk>/start/", views.tournament_start, name="tournament_start"),
    path("<id:pk>/status.json", views.tournament_status, name="tournament_status"),
    # Entries and members (competitions/entries/views.py, member_views.py): POST forms.
    path("<id:pk>/entry/", entry_views.tournament_entry, name="tournament_entry"),
    path("<id:pk>/entrants/", entry_views.tournament_entrants, name="tournament_entrants"),
    path("<id:pk>/members/", member_views.tournament_members, name="tournament_members"),
    path("<id:pk>/invite/", member_views.tournament_invite, name="tournament_invite"),
    path("join/<str:code>/", member_views.tournament_join, name="tournament_join"),
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
    path("leagues/", league_views.league_list, name="league_list"),
    path("leagues/new/", league_views.league_new, name="league_new"),
    path("leagues/<id:pk>/", league_views.league_detail, name="league_detail"),
    path("leagues/<id:pk>/play/", league_views.league_play_round, name="league_play_round"),
]
