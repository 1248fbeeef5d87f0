"""A match's tournament or league and round live in competitions' own table
(``CompetitionMatch``); the match knows none of them, while the pages and the API show the
same as before."""

from __future__ import annotations

from typing import Any

import pytest
from competitions.leagues.services import create_league, run_league_round
from competitions.models import CompetitionMatch, League, Tournament
from competitions.tournaments.services import create_tournament, start_tournament
from django.db import IntegrityError, transaction
from matches.models import Match, MatchKind, MatchSeat
from matches.services import create_match


def _cup(versions: Any, game: Any) -> Tournament:
    return create_tournament(
        organiser=versions[0].bot.owner,
        game=game,
        name="Cup",
        entrants=versions,
        players_per_match=3,
        games_per_pairing=2,
    )


def test_competitions_make_their_matches_with_a_link(trnd: Any, three_versions: Any) -> None:
    t = _cup(three_versions, trnd)
    first = start_tournament(t, dispatch=False)
    lg = create_league(game=trnd, name="Weekly", players_per_match=3)
    in_league = run_league_round(lg, dispatch=False)
    assert len(first) == 2 and len(in_league) == 1
    for m in first:
        assert m.kind == MatchKind.TOURNAMENT
        link = CompetitionMatch.objects.get(match=m)
        assert (link.tournament_id, link.league_id, link.round) == (t.pk, None, 0)
    (m,) = in_league
    assert m.kind == MatchKind.LEAGUE
    assert (m.competition_link.league_id, m.competition_link.round) == (lg.pk, 1)
    assert list(t.matches.order_by("pk")) == first and list(lg.matches) == in_league
    standalone = create_match(game=trnd, versions=three_versions)
    assert standalone.kind == MatchKind.STANDALONE
    assert not CompetitionMatch.objects.filter(match=standalone).exists()


def test_create_match_takes_no_competition(trnd: Any, three_versions: Any) -> None:
    t = _cup(three_versions, trnd)
    with pytest.raises(TypeError):
        create_match(game=trnd, versions=three_versions, tournament=t)  # type: ignore[call-arg]
    assert not {"tournament", "league", "round"} & {f.name for f in Match._meta.get_fields()}


@pytest.mark.parametrize(
    "which", [{}, {"tournament": True, "league": True}], ids=["neither", "both"]
)
def test_a_link_names_exactly_one_competition(
    trnd: Any, three_versions: Any, which: dict[str, bool]
) -> None:
    t = _cup(three_versions, trnd)
    lg = League.objects.create(game=trnd, name="L")
    m = create_match(game=trnd, versions=three_versions)
    with pytest.raises(IntegrityError), transaction.atomic():
        CompetitionMatch.objects.create(
            match=m,
            tournament=t if which.get("tournament") else None,
            league=lg if which.get("league") else None,
        )


def test_the_api_and_the_match_page_show_the_tournament_and_round(
    client: Any, trnd: Any, three_versions: Any
) -> None:
    t = _cup(three_versions, trnd)
    m = start_tournament(t, dispatch=False)[0]
    lg = create_league(game=trnd, name="Weekly", players_per_match=3)
    run_league_round(lg, dispatch=False)
    run_league_round(lg, dispatch=False)
    (in_league,) = lg.matches.filter(competition_link__round=2)
    standalone = create_match(game=trnd, versions=three_versions)

    shown = {r["id"]: r for r in client.get("/api/matches/").json()["results"]}
    assert (shown[m.pk]["tournament"], shown[m.pk]["round"]) == (t.pk, 0)
    assert (shown[in_league.pk]["tournament"], shown[in_league.pk]["round"]) == (None, 2)
    assert (shown[standalone.pk]["tournament"], shown[standalone.pk]["round"]) == (None, 0)
    detail = client.get(f"/api/matches/{m.pk}/").json()
    assert list(detail)[6:9] == ["result", "tournament", "round"]  # the same place as before

    page = client.get(f"/matches/{m.pk}/").content.decode()
    assert f'href="/tournaments/{t.pk}/">Cup</a> (round 0)' in page
    assert "<dt>Tournament</dt>" not in client.get(f"/matches/{standalone.pk}/").content.decode()


def test_deleting_a_tournament_deletes_its_matches_a_league_leaves_them(
    trnd: Any, three_versions: Any
) -> None:
    t = _cup(three_versions, trnd)
    in_cup = [m.pk for m in start_tournament(t, dispatch=False)]
    lg = create_league(game=trnd, name="Weekly", players_per_match=3)
    in_league = [m.pk for m in run_league_round(lg, dispatch=False)]
    other = create_match(game=trnd, versions=three_versions)

    t.delete()
    assert not Match.objects.filter(pk__in=in_cup).exists()
    assert not MatchSeat.objects.filter(match_id__in=in_cup).exists()
    assert not CompetitionMatch.objects.filter(match_id__in=in_cup).exists()
    lg.delete()
    assert set(Match.objects.values_list("pk", flat=True)) == {*in_league, other.pk}
    assert not CompetitionMatch.objects.exists()
