"""Fill a PostgreSQL database with a site at real scale, fast (PostgreSQL ``COPY``).

At ``--scale 1``: 1,000 users, ~4,000 bots, ~7,000 versions, 100,000 finished matches with
~300,000 seats and real replays (copied from matches the built-in bots play at the start of
the run, short and long ones for every game and player count), a tournament of 2,000 matches
and a league of 20,000 matches (the game with ~1,000 bots, so "play a round now" schedules
~500 matches). ``--scale 0.1`` makes a tenth of everything. Rows go in with psycopg 3's
``cursor.copy`` (row by row through the ORM took 18 minutes); derived data (the games'
counters, ratings, stored standings, when the code has them) is then rebuilt by the same
functions that the tests compare against a recomputation.

    DATABASE_URL=postgres://... python bench/fill_scale.py [--scale 1] [--seed 1] [--fresh]

Writes the ids that ``bench/site_load.py`` measures to ``$ARENA_DATA_DIR/scale_targets.json``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")

import django  # noqa: E402

django.setup()

from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, models  # noqa: E402
from rich.console import Console  # noqa: E402

console = Console()

#: Full-scale figures (``--scale 1``), as measured in issue 13.
USERS = 1000
BOTS = 4000
MATCHES = 100_000
TOURNAMENT_ENTRANTS = 64
TOURNAMENT_MATCHES = 2000
LEAGUE_MATCHES = 20_000
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def model(label: str) -> type[models.Model] | None:
    try:
        return apps.get_model(label)
    except LookupError:
        return None


def rating_model() -> type[models.Model]:
    """Ratings live in ``competitions`` or, after issue 9, in their own app."""
    for label in ("ratings.Rating", "competitions.Rating"):
        if (m := model(label)) is not None:
            return m
    raise SystemExit("no Rating model found")


class RawJson(str):
    """JSON text already serialised (a replay copied thousands of times is dumped once)."""


def _cell(field: models.Field, value: Any) -> Any:
    if value is None or isinstance(value, RawJson):
        return value
    if isinstance(field, models.JSONField):
        return json.dumps(value)
    return value


def copy_rows(m: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """COPY ``rows`` (dicts by attname; missing fields take the model's default) into ``m``'s
    table, every concrete column named, so the script follows schema changes."""
    if not rows:
        return
    fields = [f for f in m._meta.concrete_fields]
    cols = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(m._meta.db_table)
    defaults = {f.attname: f.get_default() for f in fields}
    with connection.cursor() as cur, cur.cursor.copy(f"COPY {table} ({cols}) FROM STDIN") as cp:
        for row in rows:
            cp.write_row(
                [
                    _cell(f, row[f.attname] if f.attname in row else defaults[f.attname])
                    for f in fields
                ]
            )


def reset_sequences(*labels: str) -> None:
    sql = connection.ops.sequence_reset_sql(
        __import__("django.core.management.color", fromlist=["no_style"]).no_style(),
        [m for label in labels if (m := model(label)) is not None],
    )
    with connection.cursor() as cur:
        for stmt in sql:
            cur.execute(stmt)


def next_id(m: type[models.Model]) -> int:
    return (m.objects.aggregate(n=models.Max("pk"))["n"] or 0) + 1


# ------------------------------------------------------------------------- demo replays


def play_demo_replays(rng: random.Random) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Real replays: for every game and seat count the sample uses, one match of the strong
    built-in bots (short) and one of random bots (long: TRND's run to the round cap)."""
    from arena.referee import run_match
    from games import registry

    pool: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for slug in registry.slugs():
        g = registry.get_game(slug)
        names = list(registry.bots(slug))
        lo, hi = max(2, g.min_players), min(4, g.max_players)
        for n in range(lo, hi + 1):
            for kind in ("strong", "random"):
                bots = [f"builtin:{names[-1] if kind == 'strong' else 'random'}"] * n
                out = run_match(slug, bots, seed=rng.randrange(1 << 30), sandbox="process")
                replay = dict(out.replay)
                replay.pop("logs", None)
                pool.setdefault((slug, n), []).append(replay)
    return pool


# --------------------------------------------------------------------------------- fill


def fill(scale: float, seed: int) -> dict[str, Any]:
    from bots.services import ensure_builtin_bots
    from catalog.models import Game
    from catalog.services import sync_games
    from django.contrib.auth import get_user_model

    rng = random.Random(seed)
    t0 = time.perf_counter()
    sync_games()
    games = list(Game.objects.filter(is_active=True).order_by("pk"))
    for g in games:
        ensure_builtin_bots(g)
    pool = play_demo_replays(rng)
    console.print(
        f"demo replays: {sum(map(len, pool.values()))} in {time.perf_counter() - t0:.1f} s"
    )

    User = get_user_model()
    Bot, Version = apps.get_model("bots.Bot"), apps.get_model("bots.BotVersion")
    Match, Seat = apps.get_model("matches.Match"), apps.get_model("matches.MatchSeat")
    Doc = model("matches.ReplayDocument")
    Tournament, League = (
        apps.get_model("competitions.Tournament"),
        apps.get_model("competitions.League"),
    )
    Rating = rating_model()

    n_users, n_bots = max(10, int(USERS * scale)), max(40, int(BOTS * scale))
    n_matches = max(200, int(MATCHES * scale))
    # --- users, bots, versions
    t = time.perf_counter()
    uid = next_id(User)
    now = datetime.now(UTC)
    users = [
        {
            "id": uid + i,
            "password": "!",
            "username": f"scale{uid + i}",
            "email": "",
            "first_name": "",
            "last_name": "",
            "is_superuser": False,
            "is_staff": False,
            "is_active": True,
            "date_joined": EPOCH,
            "last_login": None,
        }
        for i in range(n_users)
    ]
    copy_rows(User, users)
    bid, vid = next_id(Bot), next_id(Version)
    bots, versions = [], []
    latest: dict[int, int] = {}  # bot id -> latest version id
    by_game: dict[int, list[int]] = {g.pk: [] for g in games}
    for i in range(n_bots):
        g = games[i % len(games)]
        b = bid + i
        bots.append(
            {
                "id": b,
                "owner_id": uid + rng.randrange(n_users),
                "game_id": g.pk,
                "name": f"bot{b}",
                "description": "",
                "is_builtin": False,
                "created_at": EPOCH + timedelta(minutes=i),
            }
        )
        for number in range(1, 1 + rng.choice((1, 1, 2, 2, 3))):
            versions.append(
                {
                    "id": vid,
                    "bot_id": b,
                    "number": number,
                    "code": "",
                    "builtin_name": rng.choice(g.builtin_bots),
                    "sha256": "",
                    "size_bytes": 0,
                    "created_at": EPOCH + timedelta(minutes=i),
                }
            )
            latest[b] = vid
            vid += 1
        by_game[g.pk].append(b)
    copy_rows(Bot, bots)
    copy_rows(Version, versions)
    console.print(
        f"{n_users} users, {n_bots} bots, {len(versions)} versions: {time.perf_counter() - t:.1f} s"
    )

    # --- a tournament (fixed versions) and a league (latest versions, round by round)
    two = [g for g in games if g.min_players <= 2 <= g.max_players]
    t_game, l_game = two[0], two[-1]
    t_entrants = [
        latest[b]
        for b in by_game[t_game.pk][: max(8, int(TOURNAMENT_ENTRANTS * min(1, scale * 4)))]
    ]
    tour = Tournament.objects.create(
        game=t_game,
        name="Scale cup",
        organiser=User.objects.get(pk=uid),
        status="finished",
        players_per_match=2,
        max_matches=max(50, int(TOURNAMENT_MATCHES * scale)),
        started_at=EPOCH,
        finished_at=now,
    )
    tour.entrants.set(t_entrants)
    league = League.objects.create(
        game=l_game, name="Scale league", players_per_match=2, every_hours=24, last_run_at=now
    )
    # --- matches, seats, replays
    t = time.perf_counter()
    mid, sid = next_id(Match), next_id(Seat)
    match_rows, seat_rows = [], []
    doc_rows: list[tuple[int, bytes, int]] = []
    played: Counter[int] = Counter()
    packed: dict[int, tuple[bytes, int]] = {}
    texts: dict[int, RawJson] = {}
    n_tour, n_league = tour.max_matches, max(100, int(LEAGUE_MATCHES * scale))
    league_bots = by_game[l_game.pk]
    league_round, league_left = 0, []
    for i in range(n_matches):
        m = mid + i
        created = EPOCH + timedelta(seconds=300 * i * (100_000 / n_matches))
        extra: dict[str, Any] = {}
        if i % 5 == 2 and n_tour > 0:  # spread the tournament over the history
            g, seats_v = t_game, rng.sample(t_entrants, 2)
            extra = {
                "tournament_id": tour.pk,
                "round": TOURNAMENT_MATCHES - n_tour + 1,
                "kind": "tournament",
            }
            n_tour -= 1
        elif i % 5 == 4 and n_league > 0:
            if len(league_left) < 2:
                league_left = league_bots[:]
                rng.shuffle(league_left)
                league_round += 1
            g = l_game
            seats_v = [latest[league_left.pop()], latest[league_left.pop()]]
            extra = {"league_id": league.pk, "round": league_round, "kind": "league"}
            n_league -= 1
        else:
            g = games[rng.randrange(len(games))]
            lo, hi = max(2, g.min_players), min(4, g.max_players)
            n = rng.randint(lo, hi)
            seats_v = [latest[b] for b in rng.sample(by_game[g.pk], n)]
        n = len(seats_v)
        scores = [rng.randint(0, 40) for _ in range(n)]
        ranks = [1 + sum(o > s for o in scores) for s in scores]
        # Mostly the built-ins' short games; one in 20 a long game of random bots.
        replay = pool[(g.slug, n)][1 if rng.random() < 0.05 else 0]
        match_rows.append(
            {
                "id": m,
                "game_id": g.pk,
                "seed": replay["seed"],
                "options": replay.get("options") or {},
                "time_control": {"start_ms": 5000, "move_ms": 1000, "bank_ms": 10000},
                "status": "finished",
                "error": "",
                "task_id": "",
                "result": {"scores": scores, "ranks": ranks, "reason": "game over"},
                "created_at": created,
                "started_at": created,
                "finished_at": created + timedelta(seconds=3),
                "duration_ms": 3000,
                "tournament_id": None,
                "league_id": None,
                "round": 0,
                **extra,
            }
        )
        if Doc is None:
            key = id(replay)
            if key not in texts:
                texts[key] = RawJson(json.dumps(replay, separators=(",", ":")))
            match_rows[-1]["replay"] = texts[key]
        else:
            key = id(replay)
            if key not in packed:
                raw = json.dumps(replay, separators=(",", ":")).encode()
                packed[key] = (gzip.compress(raw, 6), len(raw))
            doc_rows.append((m, *packed[key]))
        for k, v in enumerate(seats_v):
            seat_rows.append(
                {
                    "id": sid,
                    "match_id": m,
                    "seat": k,
                    "bot_version_id": v,
                    "score": scores[k],
                    "rank": ranks[k],
                    "status": "ok",
                    "faults": [],
                    "time_ms": rng.randint(5, 900),
                    "stderr": "",
                    "elo_before": 1500.0,
                    "elo_after": 1500.0 + (n / 2 - ranks[k]) * 8,
                }
            )
            sid += 1
        for v in seats_v:
            played[v] += 1
    copy_rows(Match, match_rows)
    copy_rows(Seat, seat_rows)
    if Doc is not None:
        from matches.replays import document_row

        copy_rows(Doc, [document_row(m, gz, size) for m, gz, size in doc_rows])
    console.print(
        f"{len(match_rows)} matches, {len(seat_rows)} seats: {time.perf_counter() - t:.1f} s"
    )

    # --- ratings: one per bot that played
    version_bot = {v["id"]: v["bot_id"] for v in versions}
    bot_game = {b["id"]: b["game_id"] for b in bots}
    per_bot: Counter[int] = Counter()
    for v, k in played.items():
        per_bot[version_bot[v]] += k
    rid = next_id(Rating)
    rating_rows = []
    for i, (b, k) in enumerate(sorted(per_bot.items())):
        mu, sigma = rng.gauss(25, 4), max(0.8, 8.33 / (1 + k / 20))
        rating_rows.append(
            {
                "id": rid + i,
                "bot_id": b,
                "game_id": bot_game[b],
                "elo": rng.gauss(1500, 150),
                "mu": mu,
                "sigma": sigma,
                "ordinal": mu - 3 * sigma,
                "matches_played": k,
                "provisional": k < 10,
                "updated_at": now,
            }
        )
    copy_rows(Rating, rating_rows)
    League.objects.filter(pk=league.pk).update(rounds_played=league_round)
    reset_sequences(
        "auth.User",
        "bots.Bot",
        "bots.BotVersion",
        "matches.Match",
        "matches.MatchSeat",
        Rating._meta.label,
    )
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    rebuild_derived()
    console.print(f"total {time.perf_counter() - t0:.1f} s")

    longest = max(pool.values(), key=lambda rs: max(len(json.dumps(r)) for r in rs))
    return {
        "scale": scale,
        "tournament": tour.pk,
        "league": league.pk,
        "league_game": l_game.slug,
        "game": l_game.slug,
        "bot": by_game[l_game.pk][len(by_game[l_game.pk]) // 2],
        "owner": User.objects.get(
            pk=Bot.objects.get(pk=by_game[l_game.pk][len(by_game[l_game.pk]) // 2]).owner_id
        ).username,
        "longest_match": _longest_match(longest),
        "typical_match": mid + n_matches // 2,
        "deep_match": mid + n_matches // 20,
    }


def _longest_match(_: Any) -> int:
    """The match with the longest replay (by decisions), found in the database."""
    Doc = model("matches.ReplayDocument")
    if Doc is not None:
        return Doc.objects.order_by("-size_bytes", "pk").values_list("match_id", flat=True)[0]
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id FROM matches_match WHERE replay IS NOT NULL "
            "ORDER BY jsonb_array_length(replay->'decisions') DESC, id LIMIT 1"
        )
        return cur.fetchone()[0]


def rebuild_derived() -> None:
    """Counters (by the site's own recount) and the tournament's and league's stored tables
    (computed here from the matches with ``arena.ratings`` and ``arena.formats``, as the
    recording path would have left them)."""
    try:
        from matches.services import recount_game_counters
    except ImportError:
        pass
    else:
        recount_game_counters()
    if model("competitions.TournamentEntry") is not None:
        build_tables()


def _tables(seats: Any, key: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``arena.ratings`` standings and ``arena.formats`` rows from seat rows ordered by match."""
    from arena.formats import StandingRow, match_points
    from arena.ratings import standings

    by_match: dict[int, list[tuple[str, int, float | None]]] = {}
    for mid, vid, rank, score in seats:
        by_match.setdefault(mid, []).append((key(vid), rank, score))
    records, rows = [], {}
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


def build_tables() -> None:
    Seat = apps.get_model("matches.MatchSeat")
    Entry = apps.get_model("competitions.TournamentEntry")
    Standing = apps.get_model("competitions.LeagueStanding")
    Season = apps.get_model("competitions.Season")
    bot_of = dict(apps.get_model("bots.BotVersion").objects.values_list("pk", "bot_id"))
    fields = ("match_id", "bot_version_id", "rank", "score")
    for t in apps.get_model("competitions.Tournament").objects.all():
        seats = Seat.objects.filter(match__tournament=t, match__status="finished")
        stats, rows = _tables(seats.order_by("match_id", "seat").values_list(*fields), str)
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
        rounds = t.matches.aggregate(r=models.Max("round"))["r"] or 0
        type(t).objects.filter(pk=t.pk).update(
            scheduled_matches=n, planned_matches=n, current_round=rounds
        )
    for lg in apps.get_model("competitions.League").objects.all():
        seats = Seat.objects.filter(match__league=lg, match__status="finished")
        stats, rows = _tables(
            seats.order_by("match_id", "seat").values_list(*fields), lambda v: str(bot_of[v])
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fresh", action="store_true", help="flush the database first")
    args = ap.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("fill_scale needs PostgreSQL: set DATABASE_URL=postgres://...")
    call_command("migrate", verbosity=0)
    if args.fresh:
        call_command("flush", interactive=False, verbosity=0)
    targets = fill(args.scale, args.seed)
    out = Path(settings.DATA_DIR) / "scale_targets.json"
    out.write_text(json.dumps(targets, indent=1))
    console.print(f"targets in {out}: {targets}")


if __name__ == "__main__":
    main()
