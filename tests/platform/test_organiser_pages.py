"""Organisers' pages: a new tournament (form per game, with the game's options), starting it,
and the league pages (list, detail with standings, new league, playing a round now)."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import Bot, BotVersion
from bots.services import create_bot
from catalog.models import Game
from competitions.leagues.services import create_league, run_league_round
from competitions.models import League, Tournament, TournamentStatus
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from matches.models import Match, MatchStatus

NEW = "/tournaments/new/"
NEW_TRND = "/tournaments/new/?game=trnd"


@pytest.fixture
def organiser(db: None) -> Any:
    user = get_user_model().objects.create_user("olga", password="pw-olga-123")
    group, _ = Group.objects.get_or_create(name="organisers")
    user.groups.add(group)
    return user


@pytest.fixture
def staff(db: None) -> Any:
    return get_user_model().objects.create_user("sam", password="pw-sam-123", is_staff=True)


def as_user(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def form_data(versions: list[BotVersion], **extra: Any) -> dict[str, Any]:
    """A valid POST of the trnd form: three entrants, 3 seats, two games per pairing."""
    return {
        "name": "Spring Cup",
        "entrants": [v.pk for v in versions],
        "players_per_match": 3,
        "games_per_pairing": 2,
        "seed": 7,
        "max_matches": "",
        "opt_target_score": 0,
        "opt_max_rounds": 30,
        "opt_scoring": "linear",
        **extra,
    }


# ------------------------------------------------------------------------------ permissions


def test_anonymous_is_sent_to_log_in(client: Client, trnd: Game) -> None:
    for url in (NEW, NEW_TRND, "/tournaments/leagues/new/"):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/accounts/login/?next=")
    r = client.post(NEW_TRND, {"name": "x"})
    assert r.status_code == 302 and Tournament.objects.count() == 0


def test_ordinary_user_gets_a_clear_403(client: Client, user: Any, three_versions) -> None:
    as_user(client, user)
    for url in (NEW, NEW_TRND, "/tournaments/leagues/new/"):
        r = client.get(url)
        assert r.status_code == 403
        assert "organisers" in r.content.decode() and "Not allowed" in r.content.decode()
    assert client.post(NEW_TRND, form_data(three_versions)).status_code == 403
    assert client.post("/tournaments/leagues/new/", {"name": "L"}).status_code == 403
    assert Tournament.objects.count() == 0 and League.objects.count() == 0
    assert "New tournament" not in client.get("/tournaments/").content.decode()


@pytest.mark.parametrize("who", ["organiser", "staff"])
def test_organisers_and_staff_get_the_pages(client: Client, who: str, request, trnd) -> None:
    as_user(client, request.getfixturevalue(who))
    listing = client.get("/tournaments/").content.decode()
    assert 'href="/tournaments/new/"' in listing and "New tournament" in listing
    chooser = client.get(NEW)
    assert chooser.status_code == 200 and 'href="?game=trnd"' in chooser.content.decode()
    assert client.get(NEW_TRND).status_code == 200
    assert client.get("/tournaments/leagues/new/").status_code == 200


def test_unknown_game_shows_the_chooser(client: Client, organiser: Any, trnd: Game) -> None:
    r = as_user(client, organiser).get("/tournaments/new/?game=chess")
    assert r.status_code == 404
    html = r.content.decode()
    assert "There is no game “chess”" in html and 'href="?game=trnd"' in html


# ---------------------------------------------------------------------------- the form


def test_form_lists_versions_latest_ticked_and_game_options(
    client: Client, organiser: Any, user: Any, trnd: Game, builtin_versions
) -> None:
    bot = Bot.objects.create(owner=user, game=trnd, name="alice-bot")
    old = bot.versions.create(number=1, builtin_name="random")
    new = bot.versions.create(number=2, builtin_name="greedy")
    html = as_user(client, organiser).get(NEW_TRND).content.decode()
    assert "alice-bot" in html and ">alice<" in html  # bot name and owner
    assert f'value="{new.pk}" id="entrant-{new.pk}" checked' in html
    assert f'value="{old.pk}" id="entrant-{old.pk}">' in html  # an older version: not ticked
    for v in builtin_versions:
        assert f'value="{v.pk}" id="entrant-{v.pk}" checked' in html
    # trnd's options with their defaults and bounds, and the game's player range.
    assert 'name="opt_max_rounds" value="60"' in html and 'max="1000"' in html
    assert 'name="opt_target_score" value="0"' in html
    assert '<option value="square" selected>square</option>' in html
    assert 'name="players_per_match" value="3"' in html and "3–5 players" in html


def test_valid_form_creates_the_tournament(
    client: Client, organiser: Any, trnd: Game, three_versions, games
) -> None:
    other_game = create_bot(owner=organiser, game=games["tri-area"], name="tri")
    other_game.versions.create(number=1, builtin_name="random")
    r = as_user(client, organiser).post(NEW_TRND, form_data(three_versions))
    t = Tournament.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{t.pk}/"
    assert t.organiser == organiser and t.game == trnd and t.name == "Spring Cup"
    assert t.status == TournamentStatus.DRAFT and t.seed == 7 and t.max_matches is None
    assert (t.players_per_match, t.games_per_pairing) == (3, 2)
    assert set(t.entrants.all()) == set(three_versions)
    assert t.options == {"target_score": 0, "max_rounds": 30, "scoring": "linear"}
    page = client.get(r["Location"]).content.decode()
    assert "is created as a draft with 3 entrants" in page
    assert "Start the tournament" in page and "max_rounds=30" in page


def test_blank_seed_draws_one_and_max_matches_is_kept(
    client: Client, organiser: Any, three_versions
) -> None:
    as_user(client, organiser).post(NEW_TRND, form_data(three_versions, seed="", max_matches=1))
    t = Tournament.objects.get()
    assert t.max_matches == 1 and 0 <= t.seed < 2**63
    # A second blank-seeded tournament gets its own seed (equal only with odds 2**-63).
    client.post(NEW_TRND, form_data(three_versions, seed="", name="Again"))
    assert Tournament.objects.exclude(pk=t.pk).get().seed != t.seed


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "  "}, "This field is required."),
        ({"players_per_match": 2}, "TRND is played by 3–5 players, not 2."),
        ({"players_per_match": 6}, "TRND is played by 3–5 players, not 6."),
        ({"players_per_match": "three"}, "Enter a whole number."),
        ({"games_per_pairing": 0}, "Ensure this value is greater than or equal to 1."),
        ({"opt_max_rounds": 0}, "Ensure this value is greater than or equal to 1."),
        ({"opt_max_rounds": 5000}, "Ensure this value is less than or equal to 1000."),
        ({"opt_scoring": "cubic"}, "Select a valid choice."),
        ({"seed": -1}, "Ensure this value is greater than or equal to 0."),
        ({"max_matches": 0}, "Ensure this value is greater than or equal to 1."),
        ({"entrants": []}, "Choose at least 3 entrants for 3-player matches"),  # or let users enter
        ({"players_per_match": 4}, "Choose at least 4 entrants for 4-player matches"),
        ({"entrants": [999999]}, "Version 999999 is not a bot of this game."),
    ],
)
def test_invalid_input_shows_errors_and_creates_nothing(
    client: Client, organiser: Any, three_versions, change: dict[str, Any], message: str
) -> None:
    r = as_user(client, organiser).post(NEW_TRND, form_data(three_versions, **change))
    html = r.content.decode()
    assert r.status_code == 400 and 'class="errorlist' in html  # the form again, with errors
    assert message in html.replace("&#x27;", "'")
    assert "Traceback" not in html
    assert Tournament.objects.count() == 0
    # The form keeps what was typed: the entrants stay ticked as they were posted.
    for v in three_versions:
        ticked = f'id="entrant-{v.pk}" checked' in html
        assert ticked == (v.pk in change.get("entrants", [x.pk for x in three_versions]))


def test_a_version_of_another_game_is_refused(
    client: Client, organiser: Any, three_versions, games
) -> None:
    tri = create_bot(owner=organiser, game=games["tri-area"], name="tri")
    stranger = tri.versions.create(number=1, builtin_name="random")
    data = form_data(three_versions)
    data["entrants"] = [*data["entrants"], stranger.pk]
    html = as_user(client, organiser).post(NEW_TRND, data).content.decode()
    assert f"Version {stranger.pk} is not a bot of this game." in html
    assert Tournament.objects.count() == 0


def test_an_oversized_round_robin_is_refused_unless_cut(
    client: Client, organiser: Any, trnd: Game
) -> None:
    versions = [
        create_bot(owner=organiser, game=trnd, name=f"r{i}").versions.create(
            number=1, builtin_name="random"
        )
        for i in range(12)
    ]
    data = form_data(versions, games_per_pairing=10)  # C(12, 3) * 10 = 2200 matches
    html = as_user(client, organiser).post(NEW_TRND, data).content.decode()
    assert "This tournament is 2200 matches; a tournament may play at most 2000." in html
    assert Tournament.objects.count() == 0
    assert client.post(NEW_TRND, {**data, "max_matches": 50}).status_code == 302
    assert Tournament.objects.get().max_matches == 50


# ----------------------------------------------------------------------------- starting


def test_start_runs_the_matches_and_shows_standings(
    client: Client,
    organiser: Any,
    user: Any,
    three_versions,
    django_capture_on_commit_callbacks,
) -> None:
    as_user(client, organiser).post(NEW_TRND, form_data(three_versions))
    t = Tournament.objects.get()
    start = f"/tournaments/{t.pk}/start/"

    anonymous = Client()
    assert anonymous.post(start)["Location"].startswith("/accounts/login/")
    stranger = as_user(Client(), user)
    assert "Start the tournament" not in stranger.get(f"/tournaments/{t.pk}/").content.decode()
    assert stranger.post(start).status_code == 403
    assert client.get(start)["Location"] == f"/tournaments/{t.pk}/"  # GET starts nothing
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT and not t.matches.exists()
    draft = client.get(f"/tournaments/{t.pk}/").content.decode()
    entrants = draft.split("<h2>Standings</h2>")[1].split("<h2>Matches</h2>")[0]
    assert entrants.count('<tr><td class="num">–</td>') == 3  # no places before a match
    assert "Not started: the entrants, in no order yet." in entrants

    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(start)
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{t.pk}/"
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    statuses = list(t.matches.values_list("status", flat=True))
    assert statuses == [MatchStatus.FINISHED] * 2  # one group of 3 entrants, 2 games
    for m in t.matches.all():
        assert m.options == {"target_score": 0, "max_rounds": 30, "scoring": "linear"}

    html = client.get(r["Location"]).content.decode()
    assert "Spring Cup is starting: a worker schedules its matches; this page follows them." in html
    assert "<b>2/2</b> matches finished" in html
    assert "Start the tournament" not in html
    standings = html.split("<h2>Standings</h2>")[1].split("<h2>Matches</h2>")[0]
    for v in three_versions:
        assert v.bot.name in standings
    assert standings.count('<td class="num">2</td>') >= 3  # each entrant played 2
    assert '<tr><td class="num">1</td>' in standings and "in no order yet" not in standings

    again = client.post(start)
    assert again.status_code == 400 and "has already been started" in again.content.decode()
    assert t.matches.count() == 2


def test_staff_may_start_anyones_tournament_and_errors_are_shown(
    client: Client, organiser: Any, staff: Any, builtin_versions, trnd: Game
) -> None:
    t = create_tournament(
        organiser=organiser, game=trnd, name="Too small", entrants=builtin_versions,
        players_per_match=3,
    )  # fmt: skip
    r = as_user(client, staff).get(f"/tournaments/{t.pk}/")
    assert "Start the tournament" in r.content.decode()
    r = client.post(f"/tournaments/{t.pk}/start/")
    assert r.status_code == 400
    assert "Too small needs at least 3 entrants (it has 2)." in r.content.decode()
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT and not t.matches.exists()


def test_start_needs_the_csrf_token(organiser: Any, three_versions, trnd: Game) -> None:
    t = create_tournament(
        organiser=organiser, game=trnd, name="Cup", entrants=three_versions, players_per_match=3
    )
    client = as_user(Client(enforce_csrf_checks=True), organiser)
    assert client.post(f"/tournaments/{t.pk}/start/").status_code == 403
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'name="csrfmiddlewaretoken"' in page
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT


# ------------------------------------------------------------------------------ leagues


@pytest.fixture
def played_league(trnd: Game, three_versions, django_capture_on_commit_callbacks) -> League:
    """A trnd league of three bots with two rounds played (one 3-seat match each)."""
    lg = create_league(game=trnd, name="Weekly TRND", every_hours=12, players_per_match=3)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            run_league_round(lg)
    return lg


def test_league_pages_show_real_data(client: Client, played_league: League, three_versions):
    nav = client.get("/").content.decode()
    assert 'href="/tournaments/leagues/"' in nav
    listing = client.get("/tournaments/leagues/").content.decode()
    assert f'href="/tournaments/leagues/{played_league.pk}/">Weekly TRND</a>' in listing
    assert "every 12 h" in listing and '<td class="num">2</td>' in listing
    assert "New league" not in listing

    html = client.get(f"/tournaments/leagues/{played_league.pk}/").content.decode()
    assert "a round every 12 hours, 3 players per match" in html
    assert "<dt>Rounds played</dt><dd>2 · season 1: round 2 of 30</dd>" in html
    assert "<dt>Round 2</dt><dd>1/1 match finished" in html  # the latest round's progress
    standings = html.split("<h2>Standings: all time</h2>")[1].split("<h2>Latest matches</h2>")[0]
    for v in three_versions:
        assert v.bot.name in standings
    assert standings.count('<td class="num">2</td>') >= 3  # each bot played both rounds
    matches = html.split("<h2>Latest matches</h2>")[1]
    for m in Match.objects.filter(competition_link__league=played_league):
        assert f'href="/matches/{m.pk}/"' in matches
    assert "Play a round now" not in html


def test_league_standings_follow_bots_across_versions(
    client: Client, played_league: League, three_versions, django_capture_on_commit_callbacks
) -> None:
    bot = three_versions[0].bot
    bot.versions.create(number=2, builtin_name=three_versions[0].builtin_name)
    with django_capture_on_commit_callbacks(execute=True):
        run_league_round(played_league)
    html = client.get(f"/tournaments/leagues/{played_league.pk}/").content.decode()
    standings = html.split("<h2>Standings: all time</h2>")[1].split("<h2>Latest matches</h2>")[0]
    assert standings.count(f">{bot.name}</a>") == 1
    assert standings.count('<td class="num">3</td>') >= 3  # three rounds per bot


def test_organiser_creates_a_league_and_plays_a_round(
    client: Client,
    organiser: Any,
    user: Any,
    trnd: Game,
    three_versions,
    django_capture_on_commit_callbacks,
) -> None:
    as_user(client, organiser)
    assert "New league" in client.get("/tournaments/leagues/").content.decode()
    bad = client.post(
        "/tournaments/leagues/new/",
        {"game": trnd.pk, "name": "L", "every_hours": 0, "players_per_match": 2},
    )
    html = bad.content.decode()
    assert bad.status_code == 200 and "TRND is played by 3–5 players, not 2." in html
    assert "Ensure this value is greater than or equal to 1." in html
    assert League.objects.count() == 0

    r = client.post(
        "/tournaments/leagues/new/",
        {"game": trnd.pk, "name": "Daily", "every_hours": 24, "players_per_match": 3,
         "seed": 3, "is_active": "on"},
    )  # fmt: skip
    lg = League.objects.get()
    assert r["Location"] == f"/tournaments/leagues/{lg.pk}/"
    assert (lg.game, lg.name, lg.every_hours, lg.players_per_match) == (trnd, "Daily", 24, 3)
    assert lg.seed == 3 and lg.is_active and lg.rounds_played == 0

    stranger = as_user(Client(), user)
    assert stranger.post(f"/tournaments/leagues/{lg.pk}/play/").status_code == 403
    lg.refresh_from_db()
    assert lg.rounds_played == 0
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(f"/tournaments/leagues/{lg.pk}/play/")
    lg.refresh_from_db()
    assert lg.rounds_played == 1
    page = client.get(r["Location"]).content.decode()
    assert "Daily: round 1 is on its way to the workers" in page
    assert (
        Match.objects.filter(competition_link__league=lg, status=MatchStatus.FINISHED).count() == 1
    )


def test_yes_no_options_become_booleans(client: Client, organiser: Any, games) -> None:
    from bots.services import ensure_builtin_bots

    versions = [b.latest_version() for b in ensure_builtin_bots(games["tri-area"])]
    page = as_user(client, organiser).get("/tournaments/new/?game=tri-area").content.decode()
    assert '<option value="false" selected>no</option>' in page  # sold_blocks_penalised
    data = {
        "name": "Towers",
        "entrants": [v.pk for v in versions],
        "players_per_match": 2,
        "games_per_pairing": 1,
        "opt_sold_blocks_penalised": "true",
        "opt_extra_needs_top": "false",
    }
    assert client.post("/tournaments/new/?game=tri-area", data).status_code == 302
    t = Tournament.objects.get()
    assert t.options == {"sold_blocks_penalised": True, "extra_needs_top": False}
    bad = client.post("/tournaments/new/?game=tri-area", {**data, "opt_extra_needs_top": "maybe"})
    assert "Select a valid choice." in bad.content.decode() and Tournament.objects.count() == 1
