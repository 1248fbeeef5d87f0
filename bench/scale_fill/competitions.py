"""The tournament (fixed versions, two seats) and the league (latest versions, round by round):
which of the filled matches they take, and their stored tables, computed from those matches
with ``arena.ratings`` and ``arena.formats`` as the recording path would have left them.

Everything the fill knows of how a match belongs to a competition is in this module: on the
match's own columns, or (issue 19) on its ``competitions.CompetitionMatch`` link row."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models

from . import EPOCH, LEAGUE_MATCHES, TOURNAMENT_ENTRANTS, TOURNAMENT_MATCHES
from .copying import copy_rows, model
from .people import People

#: A match's game, its seated versions' ids, and its competition's columns.
Drawn = tuple[Any, list[int], dict[str, Any]]
#: The columns that link a match to its competition (a schema keeps them on the match, or on
#: a link row); ``copy_rows`` writes only the columns a table has.
LINK_COLUMNS = ("tournament_id", "league_id", "round")


def link_model() -> type[models.Model] | None:
    """The link row's model (issue 19), or None where the match holds the link itself."""
    return model("competitions.CompetitionMatch")


@dataclass
class Competitions:
    tournament: Any
    league: Any
    t_game: Any
    l_game: Any
    #: the tournament's entrants (version ids) and the league's bots (bot ids)
    entrants: list[int]
    league_bots: list[int]
    #: matches each still takes
    tour_left: int
    league_left: int
    league_round: int = 0
    #: the league round's bots not yet paired
    unpaired: list[int] = field(default_factory=list)

    def draw(self, i: int, latest: dict[int, int], rng: random.Random) -> Drawn | None:
        """Match ``i``'s seats if one of the competitions takes it: every fifth match from the
        third for the tournament, every fifth from the fifth for the league (spread over the
        history), while each has matches left."""
        if i % 5 == 2 and self.tour_left > 0:
            seats = rng.sample(self.entrants, 2)
            round_ = TOURNAMENT_MATCHES - self.tour_left + 1
            self.tour_left -= 1
            columns = {"tournament_id": self.tournament.pk, "round": round_, "kind": "tournament"}
            return self.t_game, seats, columns
        if i % 5 == 4 and self.league_left > 0:
            if len(self.unpaired) < 2:
                self.unpaired = self.league_bots[:]
                rng.shuffle(self.unpaired)
                self.league_round += 1
            seats = [latest[self.unpaired.pop()], latest[self.unpaired.pop()]]
            self.league_left -= 1
            columns = {"league_id": self.league.pk, "round": self.league_round, "kind": "league"}
            return self.l_game, seats, columns
        return None

    def copy_links(self, matches: list[dict[str, Any]]) -> None:
        """After the matches are in: a link row for each match a competition took."""
        if (Link := link_model()) is not None:
            linked = [r for r in matches if r.get("tournament_id") or r.get("league_id")]
            rows = [{"match_id": r["id"], **{k: r.get(k) for k in LINK_COLUMNS}} for r in linked]
            copy_rows(Link, rows)

    def finish(self) -> None:
        """After the matches are in: the league's rounds played."""
        League = apps.get_model("competitions.League")
        League.objects.filter(pk=self.league.pk).update(rounds_played=self.league_round)


def create_competitions(
    games: list[Any], people: People, scale: float, now: datetime
) -> Competitions:
    """A finished tournament on the first two-player game, a league on the last."""
    Tournament = apps.get_model("competitions.Tournament")
    League = apps.get_model("competitions.League")
    two = [g for g in games if g.min_players <= 2 <= g.max_players]
    t_game, l_game = two[0], two[-1]
    n_entrants = max(8, int(TOURNAMENT_ENTRANTS * min(1, scale * 4)))
    entrants = [people.latest[b] for b in people.by_game[t_game.pk][:n_entrants]]
    tour = Tournament.objects.create(
        game=t_game,
        name="Scale cup",
        organiser=get_user_model().objects.get(pk=people.first_user),
        status="finished",
        players_per_match=2,
        max_matches=max(50, int(TOURNAMENT_MATCHES * scale)),
        started_at=EPOCH,
        finished_at=now,
    )
    tour.entrants.set(entrants)
    league = League.objects.create(
        game=l_game, name="Scale league", players_per_match=2, every_hours=24, last_run_at=now
    )
    return Competitions(
        tour,
        league,
        t_game,
        l_game,
        entrants,
        league_bots=people.by_game[l_game.pk],
        tour_left=tour.max_matches,
        league_left=max(100, int(LEAGUE_MATCHES * scale)),
    )


# -- stored tables -----------------------------------------------------------------------------


def _tables(seats: Any, key: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``arena.ratings`` standings and ``arena.formats`` rows from seat rows ordered by match."""
    from arena.formats import StandingRow, match_points
    from arena.ratings import standings

    by_match: dict[int, list[tuple[str, int, float | None]]] = {}
    for mid, vid, rank, score in seats:
        by_match.setdefault(mid, []).append((key(vid), rank, score))
    records: list[dict[str, Any]] = []
    rows: dict[str, Any] = {}
    for mid, seated in by_match.items():
        names = [n for n, _, _ in seated]
        ranks = [r for _, r, _ in seated]
        records.append({"id": str(mid), "bots": names, "ranks": ranks})
        for seat, (name, pts) in enumerate(zip(names, match_points(ranks), strict=True)):
            row = rows.setdefault(name, StandingRow(bot=name, seed=len(rows) + 1))
            row.count_match(seat, names, ranks, pts)
    return standings(records).by_bot(), rows


STATS = ("matches", "rated", "wins", "faults", "rank_sum", "score_sum", "scored", "elo", "mu",
         "sigma")  # fmt: skip
SEAT_FIELDS = ("match_id", "bot_version_id", "rank", "score")


def build_tables() -> None:
    Tournament = apps.get_model("competitions.Tournament")
    League = apps.get_model("competitions.League")
    # A match's tournament, league and round: on the match, or (issue 19) on its link row.
    via = "competition_link__" if link_model() is not None else ""
    for t in Tournament.objects.all():
        _tournament_table(t, via)
    bot_of = dict(apps.get_model("bots.BotVersion").objects.values_list("pk", "bot_id"))
    for lg in League.objects.all():
        _league_table(lg, bot_of, via)


def _tournament_table(t: Any, via: str) -> None:
    """The entrants' rows (by version), their positions, and the tournament's counters."""
    Seat = apps.get_model("matches.MatchSeat")
    Entry = apps.get_model("competitions.TournamentEntry")
    seats = Seat.objects.filter(**{f"match__{via}tournament": t}, match__status="finished")
    stats, rows = _tables(seats.order_by("match_id", "seat").values_list(*SEAT_FIELDS), str)
    entrants = list(t.entrants.order_by("pk"))
    ranked = sorted(entrants, key=lambda v: -rows[str(v.pk)].points if str(v.pk) in rows else 0)
    entries = []
    for i, v in enumerate(entrants, start=1):
        k = str(v.pk)
        e = Entry(tournament=t, version=v, seed=i, position=ranked.index(v) + 1)
        if k in rows:
            e.row, e.points = rows[k].to_json(), rows[k].points
            for f in STATS:
                setattr(e, f, getattr(stats[k], f))
        entries.append(e)
    Entry.objects.bulk_create(entries)
    n = t.matches.count()
    rounds = t.matches.aggregate(r=models.Max(f"{via}round"))["r"] or 0
    type(t).objects.filter(pk=t.pk).update(
        scheduled_matches=n, planned_matches=n, current_round=rounds
    )


def _league_table(lg: Any, bot_of: dict[int, int], via: str) -> None:
    """The league's table (by bot) for all time and for its one season."""
    Seat = apps.get_model("matches.MatchSeat")
    Standing = apps.get_model("competitions.LeagueStanding")
    Season = apps.get_model("competitions.Season")
    seats = Seat.objects.filter(**{f"match__{via}league": lg}, match__status="finished")
    stats, rows = _tables(
        seats.order_by("match_id", "seat").values_list(*SEAT_FIELDS), lambda v: str(bot_of[v])
    )
    season = Season.objects.create(
        league=lg, number=1, starts_at=EPOCH, rounds=lg.rounds_played + 30, first_round=1,
        rounds_played=lg.rounds_played,
    )  # fmt: skip
    out = []
    for which in (None, season):
        for k, row in rows.items():
            st = Standing(league=lg, season=which, bot_id=int(k), row=row.to_json(),
                          points=row.points, ordinal=stats[k].ordinal)  # fmt: skip
            for f in STATS:
                setattr(st, f, getattr(stats[k], f))
            out.append(st)
    Standing.objects.bulk_create(out, batch_size=1000)
