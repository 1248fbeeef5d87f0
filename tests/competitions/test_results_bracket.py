"""A played knockout's bracket: an SVG drawn on the server, names escaped, each match linked
to its replay, who went through marked (issue 22, item 5)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from bots.models import Bot
from competitions.management.commands.demo import demo_entrants
from competitions.models import TournamentEntry, TournamentStatus
from competitions.tournaments.services import create_tournament, start_tournament
from django.test import Client

SVG = "{http://www.w3.org/2000/svg}"
EVIL = '<script>alert("x")</script> & co'


def play_knockout(games: dict[str, Any], inline: Any, size: int) -> Any:
    game = games["manhattan-traffiq"]
    entrants = demo_entrants(game, size - 1)[:size]
    Bot.objects.filter(pk=entrants[1].bot_id).update(name=EVIL)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=game,
        name="Cup",
        entrants=entrants,
        format="knockout",
        seed=8,
    )
    inline(start_tournament, t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    return t


def bracket_of(html: str) -> ET.Element:
    found = re.search(r'<svg class="bracket".*?</svg>', html, re.S)
    assert found, "no bracket on the page"
    return ET.fromstring(found.group(0))  # well-formed XML: every name was escaped


def test_bracket_draws_every_round_links_every_match_and_escapes_names(
    games, inline, client: Client
):
    t = play_knockout(games, inline, size=5)  # 8-slot bracket: three byes in round 1
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "<script>alert" not in html
    svg = bracket_of(html)
    texts = ["".join(e.itertext()) for e in svg.iter(f"{SVG}text")]
    assert any(EVIL[:10] in s for s in texts)  # drawn as text, escaped in the markup
    assert "Final" in texts and "Winner" in texts

    # Every match of the tournament has a link to its page in the picture.
    links = {int(a.get("data-match")): a.get("href") for a in svg.iter(f"{SVG}a")}
    for m in t.matches.all():
        assert links[m.pk] == f"/matches/{m.pk}/"

    # Columns are the rounds; the boxes of a round hold its tables and its byes.
    rounds = {int(g.get("data-round")) for g in svg.iter(f"{SVG}g") if g.get("data-round")}
    assert rounds == {0, 1, 2}
    byes = [s for s in texts if s.startswith("bye")]
    assert len(byes) == 3

    # Who went through is marked; the winner is the last one standing.
    winner = TournamentEntry.objects.get(tournament=t, position=1).version_id
    champion = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "bracket-winner")
    assert champion.get("data-entrant") == str(winner)
    final = t.matches.get(competition_link__round=2)
    assert links[final.pk] and f'href="/matches/{final.pk}/"' in html
    through = [g.get("data-entrant") for g in svg.iter(f"{SVG}g") if g.get("data-through") == "yes"]
    # Round 1: one table's winner and three byes; round 2: two winners; the final: one.
    assert len(through) == 4 + 2 + 1
    assert through[-1] == str(winner)
    # No style attribute or script in the picture (the CSP allows neither).
    assert not [e for e in svg.iter() if "style" in e.attrib or e.tag == f"{SVG}script"]


def test_json_export_names_the_winner_and_the_final(games, inline, client: Client):
    t = play_knockout(games, inline, size=4)
    data = client.get(f"/tournaments/{t.pk}/standings.json").json()
    final = t.matches.get(competition_link__round=1)
    assert data["winner"]["last_match"] == final.pk
    assert data["winner"]["replay"] == f"http://testserver/matches/{final.pk}/"
    assert data["tournament"]["ranked_by"][0] == "eliminated_in"
    out_in = [r["eliminated_in_round"] for r in data["standings"]]
    assert out_in == [None, 2, 1, 1]
    assert data["standings"][1]["bot"] in {EVIL} | {
        v.bot.name for v in demo_entrants(games["manhattan-traffiq"], 3)
    }


def test_a_running_round_marks_nobody_through_until_it_is_recorded():
    """Pure: a knockout of four whose first round has finished matches but is not recorded
    yet (the rows still have everyone in): nobody is marked through, no winner is drawn."""
    from arena.formats import new_standings
    from arena.formats.results.bracket import build_bracket
    from arena.formats.results.bracket_svg import bracket_svg
    from arena.formats.results.published import Entrant, PlayedMatch, Results

    rows = new_standings(["1", "2", "3", "4"])
    entrants = [Entrant(k, int(k), int(k), f"b{k}", 1, "o", int(k), r) for k, r in rows.items()]
    matches = [
        PlayedMatch(10, 0, "finished", ("1", "4"), (1, 2)),
        PlayedMatch(11, 0, "running", ("2", "3"), None),
    ]
    results = Results(1, "knockout", "running", entrants, matches, {}, {}, {})
    bracket = build_bracket(results)
    assert [len(c) for c in bracket.columns] == [2]
    assert all(not box.through for box in bracket.columns[0])
    assert bracket.champion is None
    svg = bracket_svg(bracket, {e.key: e for e in entrants}, lambda pk: f"/m/{pk}/")
    assert 'data-through="yes"' not in svg and "Winner" not in svg
    assert 'href="/m/10/"' in svg and 'href="/m/11/"' in svg

    # Recorded: 1 and 2 went through (4 and 3 out in round 0), the final under way.
    rows["4"].eliminated, rows["4"].eliminated_in = True, 0
    rows["3"].eliminated, rows["3"].eliminated_in = True, 0
    matches[1] = PlayedMatch(11, 0, "finished", ("2", "3"), (1, 2))
    matches.append(PlayedMatch(12, 1, "queued", ("1", "2"), None))
    bracket = build_bracket(Results(1, "knockout", "running", entrants, matches, {}, {}, {}))
    assert [sorted(b.through) for b in bracket.columns[0]] == [["1"], ["2"]]
    final = bracket.columns[1][0]
    assert final.y == (bracket.columns[0][0].y + bracket.columns[0][1].y) / 2  # between feeders
