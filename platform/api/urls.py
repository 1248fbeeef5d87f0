"""The REST API's URL map (``/api/...``); the views live in each app's ``api.py``, and those
that compose several apps (the list and detail of matches) here, in ``match_api.py``."""

from accounts import api as accounts_api
from bots import api as bots_api
from bots import code_api
from catalog import api as catalog_api
from competitions.entries import api as entries_api
from competitions.leagues import api as league_api
from competitions.tournaments import api as competitions_api
from competitions.tournaments.results import api as results_api
from django.urls import path
from ladder import api as ladder_api
from matches import api as matches_api
from notifications import api as notifications_api
from ratings import api as ratings_api

from api import match_api

urlpatterns = [
    path("auth/token/", accounts_api.TokenLoginApi.as_view(), name="api-token"),
    path("games/", catalog_api.GameListApi.as_view(), name="api-games"),
    path("games/<slug:slug>/", catalog_api.GameDetailApi.as_view(), name="api-game"),
    path(
        "games/<slug:slug>/leaderboard/",
        ratings_api.LeaderboardApi.as_view(),
        name="api-leaderboard",
    ),
    path("bots/", bots_api.BotListApi.as_view(), name="api-bots"),
    path("bots/<id:pk>/", bots_api.BotDetailApi.as_view(), name="api-bot"),
    path("bots/<id:pk>/versions/", bots_api.BotVersionsApi.as_view(), name="api-bot-versions"),
    path("versions/<id:pk>/code/", code_api.VersionCodeApi.as_view(), name="api-version-code"),
    path("games/<slug:slug>/ladder/", ladder_api.GameLadderApi.as_view(), name="api-ladder"),
    path("bots/<id:pk>/ladder/", ladder_api.BotLadderApi.as_view(), name="api-bot-ladder"),
    path("bots/<id:pk>/pin/", ladder_api.PinApi.as_view(), name="api-bot-pin"),
    path(
        "bots/<id:pk>/rating-history/",
        ratings_api.RatingHistoryApi.as_view(),
        name="api-bot-rating-history",
    ),
    path(
        "bots/<id:pk>/head-to-head/",
        ladder_api.HeadToHeadApi.as_view(),
        name="api-bot-head-to-head",
    ),
    path("bots/<id:pk>/stats/", ratings_api.BotStatsApi.as_view(), name="api-bot-stats"),
    path("bots/<id:pk>/compare/", ratings_api.VersionCompareApi.as_view(), name="api-bot-compare"),
    path("challenges/", ladder_api.ChallengesApi.as_view(), name="api-challenges"),
    path(
        "notifications/",
        notifications_api.NotificationListApi.as_view(),
        name="api-notifications",
    ),
    path(
        "notifications/read/",
        notifications_api.MarkReadApi.as_view(),
        name="api-notifications-read",
    ),
    path(
        "notifications/preferences/",
        notifications_api.PreferencesApi.as_view(),
        name="api-notifications-preferences",
    ),
    path("matches/", match_api.MatchListApi.as_view(), name="api-matches"),
    path("matches/<id:pk>/", match_api.MatchDetailApi.as_view(), name="api-match"),
    path("matches/<id:pk>/replay/", matches_api.MatchReplayApi.as_view(), name="api-match-replay"),
    path("tournaments/", competitions_api.TournamentListApi.as_view(), name="api-tournaments"),
    path(
        "tournaments/<id:pk>/",
        competitions_api.TournamentDetailApi.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<id:pk>/start/",
        competitions_api.TournamentStartApi.as_view(),
        name="api-tournament-start",
    ),
    path(
        "tournaments/<id:pk>/standings/",
        results_api.TournamentStandingsApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<id:pk>/crosstable/",
        results_api.TournamentCrosstableApi.as_view(),
        name="api-tournament-crosstable",
    ),
    path(
        "tournaments/<id:pk>/entries/",
        entries_api.TournamentEntriesApi.as_view(),
        name="api-tournament-entries",
    ),
    path(
        "tournaments/<id:pk>/members/",
        entries_api.TournamentMembersApi.as_view(),
        name="api-tournament-members",
    ),
    path(
        "tournaments/<id:pk>/invite/",
        entries_api.TournamentInviteApi.as_view(),
        name="api-tournament-invite",
    ),
    path("tournaments/join/", entries_api.TournamentJoinApi.as_view(), name="api-tournament-join"),
    path("leagues/", league_api.LeagueListApi.as_view(), name="api-leagues"),
    path("leagues/<id:pk>/", league_api.LeagueDetailApi.as_view(), name="api-league"),
    path(
        "leagues/<id:pk>/standings/",
        league_api.LeagueStandingsApi.as_view(),
        name="api-league-standings",
    ),
    path(
        "leagues/<id:pk>/play/",
        league_api.LeaguePlayRoundApi.as_view(),
        name="api-league-play",
    ),
]
