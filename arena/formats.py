"""Tournament formats as pure strategies: round robin, Swiss and knockout (docs/formats.md).

A tournament is played round by round. Between rounds the caller keeps one
:class:`StandingRow` per entrant (points, wins, matches, byes, opponents met, seats used,
Buchholz, eliminated); that row set is everything a format needs, so the next round never
replays past ones::

    from arena.formats import FormatOptions, new_standings, next_round, record_round

    opts = FormatOptions(players=2, seed=7)
    rows = new_standings(["alpha", "beta", "gamma", "delta", "eps"])  # list order = seeding
    number = 0
    while (rnd := next_round("swiss", rows, number, opts)) is not None:
        results = [play(m) for m in rnd.matches]      # Result(bots=m.bots, ranks=(...))
        rows = record_round("swiss", rows, number, results, opts)
        number += 1
    best = ranking("swiss", rows)[0]

Every function here is pure and deterministic: the same rows, round number and options give
the same round, seats and match seeds on any machine. ``record_round`` re-derives the round it
records from the rows as they were before it (so the caller stores only the rows and the
matches' results, never the round's plan) and refuses results that do not belong to it.

Points (all formats): a finished match gives each seat ``(seats it beat + half the seats it
tied with) / (seats - 1)``: with two seats a win is 1, a draw 0.5, a loss 0; at a four-seat
table the places are worth 1, 2/3, 1/3, 0. A match that ended in ``error`` (a system failure)
gives nothing to anyone. A Swiss bye is worth an average result, 0.5 per game of the table.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Protocol

import networkx as nx

from arena.schedule import MAX_SEATS, ScheduledMatch, ScheduleError, _SeatCounts, round_robin
from games.rng import Rng, derive_seed

#: The formats by name, as the CLI and the platform spell them.
FORMAT_NAMES = ("round-robin", "swiss", "knockout")
#: What a Swiss bye is worth, per game the table would have played: an average result.
BYE_POINTS = 0.5
#: Node budget of the exact search for repeat-free multiplayer Swiss tables; past it the
#: tables are built greedily (fewest repeats first) instead.
SEARCH_BUDGET = 20_000


class FormatError(ScheduleError):
    """Bad input to a format; the message says which value and why."""


# ------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class FormatOptions:
    """How a tournament is played; the platform stores these with the tournament.

    ``players`` is the table size; ``min_players`` (default ``players``) the smallest table
    Swiss and multiplayer knockout may form when the field does not divide (within the
    game's range). ``rounds``: Swiss rounds (default ``ceil(log2 n)``), or a cut of a round
    robin after that many rounds; knockout refuses it (it plays until one winner).
    ``games_per_table``: matches each table plays in its round, seats rotated (a multiple of
    the table size gives every bot every seat once). ``advance``: how many of each
    multiplayer knockout table go through (fewer than ``min_players``). ``tie_replays``:
    two-seat knockout, how many times a table level on points is played again before the
    better seed goes through.
    """

    players: int = 2
    min_players: int | None = None
    rounds: int | None = None
    games_per_table: int = 1
    advance: int = 1
    seed: int = 0
    tie_replays: int = 0

    @property
    def smallest(self) -> int:
        return self.players if self.min_players is None else self.min_players

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "min_players": self.min_players,
            "rounds": self.rounds,
            "games_per_table": self.games_per_table,
            "advance": self.advance,
            "seed": self.seed,
            "tie_replays": self.tie_replays,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FormatOptions:
        unknown = sorted(set(data) - set(cls().to_json()))
        if unknown:
            raise FormatError(f"unknown format options: {', '.join(unknown)}")
        return cls(**dict(data))


@dataclass
class StandingRow:
    """One entrant's standing in a tournament: what the platform stores per entrant.

    ``seed`` is the seeding (1 is the top seed: the first entrant). ``opponents`` counts the
    matches played against each other entrant; ``seats`` how often the entrant sat in each
    seat; ``buchholz`` is the sum of the current points of every opponent, once per match
    against them (recomputed by :func:`record_round`). ``eliminated_in`` is the knockout round
    that put the entrant out.
    """

    bot: str
    seed: int
    points: float = 0.0
    wins: int = 0
    matches: int = 0
    byes: int = 0
    opponents: dict[str, int] = field(default_factory=dict)
    seats: list[int] = field(default_factory=list)
    buchholz: float = 0.0
    eliminated: bool = False
    eliminated_in: int | None = None

    def count_match(
        self, seat: int, bots: Sequence[str], ranks: Sequence[int], points: float
    ) -> None:
        """Add one played match: ``points`` for it, a win if ranked first from ``seat``, the
        seat, and one meeting with each other bot at the table."""
        self.points += points
        self.matches += 1
        self.wins += ranks[seat] == 1
        self.seats = list(self.seats) + [0] * (seat + 1 - len(self.seats))
        self.seats[seat] += 1
        for other in bots:
            if other != self.bot:
                self.opponents[other] = self.opponents.get(other, 0) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seed": self.seed,
            "points": self.points,
            "wins": self.wins,
            "matches": self.matches,
            "byes": self.byes,
            "opponents": dict(sorted(self.opponents.items())),
            "seats": list(self.seats),
            "buchholz": self.buchholz,
            "eliminated": self.eliminated,
            "eliminated_in": self.eliminated_in,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandingRow:
        try:
            return cls(
                bot=str(data["bot"]),
                seed=int(data["seed"]),
                points=float(data.get("points", 0.0)),
                wins=int(data.get("wins", 0)),
                matches=int(data.get("matches", 0)),
                byes=int(data.get("byes", 0)),
                opponents={str(k): int(v) for k, v in dict(data.get("opponents", {})).items()},
                seats=[int(x) for x in data.get("seats", [])],
                buchholz=float(data.get("buchholz", 0.0)),
                eliminated=bool(data.get("eliminated", False)),
                eliminated_in=(
                    None if data.get("eliminated_in") is None else int(data["eliminated_in"])
                ),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise FormatError(f"bad standing row {dict(data)!r}: {e}") from e


Standings = Mapping[str, StandingRow]


def standings_to_json(rows: Standings) -> list[dict[str, Any]]:
    """All rows as a JSON list, by seeding (for one JSON field per tournament)."""
    return [r.to_json() for r in _by_seed(rows.values())]


def standings_from_json(data: Sequence[Mapping[str, Any]]) -> dict[str, StandingRow]:
    """The rows back from :func:`standings_to_json`, checked: distinct bots, seeds 1..n."""
    if isinstance(data, (str, bytes, Mapping)) or not isinstance(data, Sequence):
        raise FormatError(f"standings must be a list of rows, got {type(data).__name__}")
    rows = [StandingRow.from_json(d) for d in data]
    out = {r.bot: r for r in rows}
    if len(out) != len(rows):
        raise FormatError("standings name a bot twice")
    return _rows(out)


@dataclass(frozen=True)
class Table:
    """The entrants who meet at one table in a round, and the matches they play there.

    ``advance`` (knockout only) is how many of them go through to the next round."""

    bots: tuple[str, ...]
    matches: tuple[ScheduledMatch, ...]
    advance: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "advance": self.advance,
            "matches": [m.to_json() for m in self.matches],
        }


@dataclass(frozen=True)
class Round:
    """One round: tables (an entrant sits at one table at most) and the entrants left out.

    ``byes`` are entrants with no table this round; a Swiss bye scores :data:`BYE_POINTS` per
    game, a knockout bye goes through, a round robin's left-out entrants play later."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def matches(self) -> list[ScheduledMatch]:
        return [m for t in self.tables for m in t.matches]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [t.to_json() for t in self.tables],
            "byes": list(self.byes),
        }


@dataclass(frozen=True)
class Result:
    """One played match: ``bots[seat]`` finished at ``ranks[seat]`` (1 is first, equal ranks
    tie); ``ranks=None`` is a match that ended in ``error`` and counts for nothing."""

    bots: tuple[str, ...]
    ranks: tuple[int, ...] | None

    def __post_init__(self) -> None:
        if self.ranks is not None and len(self.ranks) != len(self.bots):
            raise FormatError(f"{len(self.bots)} seats but {len(self.ranks)} ranks")


# ----------------------------------------------------------------------------------- points


def match_points(ranks: Sequence[int]) -> list[float]:
    """Each seat's points: (seats beaten + half the seats tied with) / (seats - 1)."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for i, r in enumerate(ranks):
        beaten = sum(1 for j, o in enumerate(ranks) if j != i and o > r)
        tied = sum(1 for j, o in enumerate(ranks) if j != i and o == r)
        out.append((beaten + tied / 2) / (n - 1))
    return out


def new_standings(entrants: Sequence[str]) -> dict[str, StandingRow]:
    """Empty rows for a field; the order of ``entrants`` is the seeding (first: top seed)."""
    names = list(entrants)
    if isinstance(entrants, str) or any(not isinstance(b, str) or not b for b in names):
        raise FormatError(f"entrants must be a list of non-empty names, got {entrants!r}")
    dupes = sorted(b for b, k in Counter(names).items() if k > 1)
    if dupes:
        raise FormatError(f"entrants must be distinct, repeated: {', '.join(dupes)}")
    return {b: StandingRow(bot=b, seed=i + 1) for i, b in enumerate(names)}


def order_key(row: StandingRow) -> tuple[float, float, int, int]:
    """Swiss and round robin order: points, then Buchholz, then wins, then the seeding."""
    return (-row.points, -row.buchholz, -row.wins, row.seed)


def _by_seed(rows: Iterable[StandingRow]) -> list[StandingRow]:
    return sorted(rows, key=lambda r: r.seed)


# ---------------------------------------------------------------------------------- formats


class Format(Protocol):
    """A tournament format: pure functions of the standing rows and the round number."""

    name: str

    def check(self, entrants: int, options: FormatOptions) -> None:
        """Raise :class:`FormatError` if this field cannot play this format so."""

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        """Rounds a field of ``entrants`` plays (knockout: if no table has to be replayed)."""

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        """Matches a field of ``entrants`` plays (knockout: if no table is played again)."""

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        """Round ``number`` (from 0), or None when the tournament is over."""

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        """Who of ``table`` is eliminated after its games earned ``points`` (``rows`` as
        they are after the round)."""

    def ranking(self, rows: Standings) -> list[StandingRow]:
        """The final (or current) order of the field, best first."""


def _check_common(entrants: int, options: FormatOptions, what: str, seats: int = 2) -> None:
    p, lo = options.players, options.smallest
    for name, value, least in (
        ("players", p, seats),
        ("min_players", lo, seats),
        ("games_per_table", options.games_per_table, 1),
        ("advance", options.advance, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise FormatError(f"{name} must be an integer of at least {least}, got {value!r}")
    if p > MAX_SEATS:
        raise FormatError(f"players must be at most {MAX_SEATS}, got {p}")
    if lo > p:
        raise FormatError(f"min_players ({lo}) must not exceed players ({p})")
    t = options.tie_replays
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise FormatError(f"tie_replays must be an integer of at least 0, got {t!r}")
    if t and (what != "knockout" or p != 2):
        raise FormatError("tie_replays is for a two-seat knockout")
    r = options.rounds
    if r is not None and (isinstance(r, bool) or not isinstance(r, int) or r < 1):
        raise FormatError(f"rounds must be an integer of at least 1, got {r!r}")
    if entrants < lo:
        raise FormatError(
            f"a {what} of {lo}-seat tables needs at least {lo} entrants, got {entrants}"
        )


def _table_sizes(n: int, most: int, least: int) -> list[int]:
    """Table sizes for ``n`` entrants within [least, most], seating as many as possible and
    as evenly as possible (largest first); whoever is left over has a bye."""
    t = math.ceil(n / most)
    if t * least > n:
        t = n // most
        return [most] * t
    base, extra = divmod(n, t)
    return [base + 1] * extra + [base] * (t - extra)


def _seat_table(
    bots: Sequence[str],
    rows: Standings,
    options: FormatOptions,
    tag: int,
    number: int,
    index: int,
) -> Table:
    """A table's matches: a base seat order that favours each bot's least-used seats (ties
    drawn from the seed), rotated game by game; games of one rotation cycle share a deal."""
    s = len(bots)
    counts = _SeatCounts(bots, s)
    for b in bots:
        row = rows[b].seats
        counts.counts[b] = [row[i] if i < len(row) else 0 for i in range(s)]
    rng = Rng(derive_seed(options.seed, tag, number, index))
    base = list(counts.best_order(list(bots), rng, set()))
    matches = []
    for g in range(options.games_per_table):
        shift = g % s
        order = tuple(base[shift:] + base[:shift])
        deal = derive_seed(options.seed, tag, number, index, g // s)
        matches.append(ScheduledMatch(bots=order, seed=deal, round=number))
    return Table(bots=tuple(bots), matches=tuple(matches))


class RoundRobin:
    """Every combination of ``players`` entrants, ``games_per_table`` matches each: the
    schedule of :func:`arena.schedule.round_robin`, packed into rounds in which each entrant
    sits at one table at most (first fit, in the schedule's order)."""

    name = "round-robin"
    _TAG = 1

    def check(self, entrants: int, options: FormatOptions) -> None:
        _check_common(entrants, options, "round robin", seats=1)  # solitaire: a score table
        if options.smallest != options.players:
            raise FormatError("a round robin plays full tables: it takes no min_players")
        if options.advance != 1:
            raise FormatError("advance is for a knockout: a round robin knocks nobody out")
        if entrants < options.players:
            raise FormatError(
                f"a round robin of {options.players}-seat matches needs at least "
                f"{options.players} entrants, got {entrants}"
            )

    def _rounds(self, names: list[str], options: FormatOptions) -> list[list[ScheduledMatch]]:
        rounds = _packed_round_robin(
            tuple(names), options.players, options.games_per_table, options.seed
        )
        if options.rounds is not None:
            rounds = rounds[: options.rounds]
        return [list(r) for r in rounds]

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        return len(self._rounds([f"e{i}" for i in range(entrants)], options))

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        return sum(map(len, self._rounds([f"e{i}" for i in range(entrants)], options)))

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        names = [r.bot for r in _by_seed(rows.values())]
        rounds = self._rounds(names, options)
        if number >= len(rounds):
            return None
        tables: dict[frozenset[str], list[ScheduledMatch]] = {}
        for m in rounds[number]:
            tables.setdefault(frozenset(m.bots), []).append(m)
        seated = set().union(*tables)
        return Round(
            number=number,
            tables=tuple(Table(bots=ms[0].bots, matches=tuple(ms)) for ms in tables.values()),
            byes=tuple(b for b in names if b not in seated),
        )

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        return set()

    def ranking(self, rows: Standings) -> list[StandingRow]:
        return sorted(rows.values(), key=order_key)


@lru_cache(maxsize=8)
def _packed_round_robin(
    names: tuple[str, ...], players: int, games: int, seed: int
) -> tuple[tuple[ScheduledMatch, ...], ...]:
    """``round_robin`` packed first fit into rounds: each combination (with all its games)
    goes to the earliest round where none of its entrants is busy. Cached: every round of a
    tournament asks for the same packing."""
    units: dict[frozenset[str], list[ScheduledMatch]] = {}
    for m in round_robin(list(names), players, games, seed):
        units.setdefault(frozenset(m.bots), []).append(m)
    rounds: list[list[ScheduledMatch]] = []
    busy = dict.fromkeys(names, 0)  # a bitmask per entrant: bit r set = a table in round r
    for unit, matches in units.items():
        taken = 0
        for b in unit:
            taken |= busy[b]
        r = (~taken & (taken + 1)).bit_length() - 1  # the lowest round free for all of them
        if r == len(rounds):
            rounds.append([])
        for b in unit:
            busy[b] |= 1 << r
        rounds[r].extend(replace(m, round=r) for m in matches)
    return tuple(tuple(r) for r in rounds)


class Swiss:
    """Rounds paired by the standings. Two seats: a maximum-weight matching that, in this
    order, repeats as few pairings as possible, gives the bye to someone with fewest byes,
    pairs equal scores, pairs neighbours in the standings, gives the bye to the lowest. Three
    or more seats: score-group tables cut from the standings top down, searched for tables
    where nobody has met (exactly, within a budget), else greedily with fewest repeats."""

    name = "swiss"
    _TAG = 2

    def check(self, entrants: int, options: FormatOptions) -> None:
        _check_common(entrants, options, "Swiss tournament")
        if options.advance != 1:
            raise FormatError("advance is for a knockout: a Swiss tournament knocks nobody out")

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        if options.rounds is not None:
            return options.rounds
        return max(1, math.ceil(math.log2(entrants)))

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        tables = len(_table_sizes(entrants, options.players, options.smallest))
        return self.total_rounds(entrants, options) * tables * options.games_per_table

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        if number >= self.total_rounds(len(rows), options):
            return None
        ordered = sorted(rows.values(), key=order_key)
        if options.players == 2:
            pairs, byes = _swiss_pairs(ordered)
            groups = [list(p) for p in pairs]
        else:
            groups, byes = _swiss_tables(ordered, options)
        tables = tuple(
            _seat_table(g, rows, options, self._TAG, number, i) for i, g in enumerate(groups)
        )
        return Round(number=number, tables=tables, byes=tuple(byes))

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        return set()

    def ranking(self, rows: Standings) -> list[StandingRow]:
        return sorted(rows.values(), key=order_key)


def _met(a: StandingRow, b: StandingRow) -> int:
    return a.opponents.get(b.bot, 0)


def _swiss_pairs(ordered: list[StandingRow]) -> tuple[list[tuple[str, str]], list[str]]:
    """Pairs (higher-placed first) and the bye, by a maximum-weight perfect matching whose
    weights rank the goals lexicographically (integer tiers, so no rounding can swap them)."""
    n = len(ordered)
    pos = {r.bot: i for i, r in enumerate(ordered)}
    half = [round(2 * r.points) for r in ordered]  # points are multiples of 1/2 at 2 seats
    spread = max(half) - min(half)
    t_rank = 1
    t_score = t_rank * (n * n + n + 1)
    t_bye = t_score * (n * (spread * spread + 1) + 1)
    t_repeat = t_bye * (n * (max(r.byes for r in ordered) + 1) + 1)
    top = t_repeat * (n * (max(max(r.opponents.values(), default=0) for r in ordered) + 1) + 1)
    g = nx.Graph()
    for i, j in combinations(range(n), 2):
        a, b = ordered[i], ordered[j]
        d = half[i] - half[j]
        cost = _met(a, b) * t_repeat + d * d * t_score + (j - i - 1) * t_rank
        g.add_edge(a.bot, b.bot, weight=top - cost)
    bye = "\0bye"
    if n % 2:
        for i, r in enumerate(ordered):
            g.add_edge(r.bot, bye, weight=top - (r.byes * t_bye + (n - 1 - i) * t_rank))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for a, b in matching:
        if bye in (a, b):
            byes.append(b if a == bye else a)
        else:
            pairs.append((a, b) if pos[a] < pos[b] else (b, a))
    pairs.sort(key=lambda p: pos[p[0]])
    return pairs, byes


def _swiss_tables(
    ordered: list[StandingRow], options: FormatOptions
) -> tuple[list[list[str]], list[str]]:
    """Score-group tables of three or more: byes to the lowest placed among those with
    fewest byes; then tables top down from neighbours in the standings, none repeating a
    meeting if that can be found within :data:`SEARCH_BUDGET`, else fewest repeats."""
    sizes = _table_sizes(len(ordered), options.players, options.smallest)
    spare = len(ordered) - sum(sizes)
    placed = list(enumerate(ordered))
    bye_rows = sorted(placed, key=lambda ir: (ir[1].byes, -ir[0]))[:spare]
    bye_names = {r.bot for _, r in bye_rows}
    pool = [r for r in ordered if r.bot not in bye_names]
    found = _repeat_free(pool, sizes)
    tables = found if found is not None else _fewest_repeats(pool, sizes)
    byes = [r.bot for r in ordered if r.bot in bye_names]
    return [[r.bot for r in t] for t in tables], byes


def _repeat_free(pool: list[StandingRow], sizes: list[int]) -> list[list[StandingRow]] | None:
    """Depth-first, top of the standings first, candidates in standings order, larger tables
    first: the first split into tables of ``sizes`` (in any order) with no two table-mates
    who met before (None if there is none, or if the budget ran out)."""
    budget = [SEARCH_BUDGET]

    def search(rest: list[StandingRow], left: Counter[int]) -> list[list[StandingRow]] | None:
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        fresh = [r for r in others if not _met(head, r)]
        for size in sorted((s for s, k in left.items() if k), reverse=True):
            for combo in combinations(fresh, size - 1):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                if any(_met(a, b) for a, b in combinations(combo, 2)):
                    continue
                taken = {r.bot for r in combo}
                tail = search([r for r in others if r.bot not in taken], left - Counter([size]))
                if tail is not None:
                    return [[head, *combo], *tail]
                if budget[0] < 0:
                    return None
        return None

    return search(pool, Counter(sizes))


def _fewest_repeats(pool: list[StandingRow], sizes: list[int]) -> list[list[StandingRow]]:
    rest = list(pool)
    tables = []
    for size in sizes:
        table = [rest.pop(0)]
        while len(table) < size:
            pick = min(range(len(rest)), key=lambda i: (sum(_met(rest[i], t) for t in table), i))
            table.append(rest.pop(pick))
        tables.append(table)
    return tables


class Knockout:
    """Two seats: a bracket in standard seeding order (1 meets 2 only in the final), byes to
    the top seeds when the field is not a power of two. Three or more seats: tables of the
    survivors (byes to the top seeds, the rest dealt out snake-wise by seed) whose best
    ``advance`` go through, until one table plays the final. Who goes through: most points at
    the table over its games; level on points, the better seed."""

    name = "knockout"
    _TAG = 3

    def check(self, entrants: int, options: FormatOptions) -> None:
        _check_common(entrants, options, "knockout")
        if options.rounds is not None:
            raise FormatError("a knockout plays until one winner: it takes no number of rounds")
        if options.players == 2 and options.advance != 1:
            raise FormatError("a two-seat knockout advances one per match")
        if options.players > 2 and options.advance >= options.smallest:
            raise FormatError(
                f"advance ({options.advance}) must be below the smallest table "
                f"({options.smallest}) or nobody would be knocked out"
            )

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        if options.players == 2:
            return math.ceil(math.log2(entrants)) if entrants > 1 else 0
        return len(self._tables_per_round(entrants, options))

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        if options.players == 2:
            tables = entrants - 1  # every table knocks one out
        else:
            tables = sum(self._tables_per_round(entrants, options))
        return tables * options.games_per_table

    @staticmethod
    def _tables_per_round(entrants: int, options: FormatOptions) -> list[int]:
        m, tables = entrants, []
        while m > 1:
            sizes, byes, advances = _group_plan(m, options)
            m = sum(advances) + len(byes)
            tables.append(len(sizes))
        return tables

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        alive = _by_seed(r for r in rows.values() if not r.eliminated)
        if len(alive) <= 1:
            return None
        groups: list[list[str]]
        if options.players == 2:
            groups, byes = _bracket_round(alive, len(rows))
            advances = [1] * len(groups)
        else:
            sizes, bye_idx, advances = _group_plan(len(alive), options)
            byes = [alive[i].bot for i in bye_idx]
            rest = [r.bot for i, r in enumerate(alive) if i not in set(bye_idx)]
            groups = [[] for _ in sizes]
            t, direction = 0, 1
            for b in rest:  # snake: tables 1..t, then t..1, ..., skipping full tables
                while len(groups[t]) >= sizes[t]:
                    t, direction = _snake_step(t, direction, len(sizes))
                groups[t].append(b)
                t, direction = _snake_step(t, direction, len(sizes))
        tables = tuple(
            replace(_seat_table(g, rows, options, self._TAG, number, i), advance=a)
            for i, (g, a) in enumerate(zip(groups, advances, strict=True))
        )
        return Round(number=number, tables=tables, byes=tuple(byes))

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        order = sorted(table.bots, key=lambda b: (-points[b], rows[b].seed))
        if options.tie_replays and len(order) == 2 and points[order[0]] == points[order[1]]:
            # How often this pair's table was played, this round included: the rows count
            # the finished games between them, and in a bracket they meet only here.
            games = rows[order[0]].opponents.get(order[1], 0)
            if math.ceil(games / options.games_per_table) <= options.tie_replays:
                return set()  # nobody out: the bracket plays this table again
        return set(order[table.advance :])

    def ranking(self, rows: Standings) -> list[StandingRow]:
        """The winner, then by the round each went out in (later is better), then points,
        Buchholz, seeding."""

        def key(r: StandingRow) -> tuple[bool, int, float, float, int]:
            out = r.eliminated_in if r.eliminated_in is not None else 0
            return (r.eliminated, -out, -r.points, -r.buchholz, r.seed)

        return sorted(rows.values(), key=key)


def _snake_step(t: int, direction: int, n: int) -> tuple[int, int]:
    nxt = t + direction
    if 0 <= nxt < n:
        return nxt, direction
    return t, -direction


def _bracket_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for x in order for s in (x, n + 1 - x)]
    return order


def _bracket_round(alive: list[StandingRow], field: int) -> tuple[list[list[str]], list[str]]:
    """The next level of the bracket still to be played: the smallest block size at which two
    survivors share a block. Survivors alone in their block wait (a bye): in the first round
    those are the top seeds; later only when a table had to be replayed."""
    size = 1 << max(0, (field - 1).bit_length())
    pos = {seed: i for i, seed in enumerate(_bracket_order(size))}
    level = 1
    while True:
        blocks: dict[int, list[StandingRow]] = {}
        for r in alive:
            blocks.setdefault(pos[r.seed] >> level, []).append(r)
        if any(len(b) > 1 for b in blocks.values()):
            break
        level += 1
    groups = [[r.bot for r in b] for _, b in sorted(blocks.items()) if len(b) == 2]
    byes = [b[0].bot for _, b in sorted(blocks.items()) if len(b) == 1]
    return groups, byes


def _group_plan(m: int, options: FormatOptions) -> tuple[list[int], list[int], list[int]]:
    """Table sizes, the indexes (by seed) of the survivors with a bye, and how many go
    through from each table, for ``m`` survivors of a multiplayer knockout. The number going
    through is raised where needed so that the next round can seat its field (at least
    ``min_players`` of them, or one winner)."""
    p, lo = options.players, options.smallest
    if m <= p:
        return [m], [], [1]
    sizes = _table_sizes(m, p, lo)
    byes = list(range(m - sum(sizes)))
    adv = [min(options.advance, s - 1) for s in sizes]
    total = sum(adv) + len(byes)
    i = 0
    while total < lo:
        if adv[i % len(adv)] < sizes[i % len(adv)] - 1:
            adv[i % len(adv)] += 1
            total += 1
        i += 1
        if i > lo * len(adv) * p:
            raise FormatError(f"cannot seat a knockout of {m} at tables of {lo}-{p}")
    return sizes, byes, adv


FORMATS: dict[str, Format] = {
    "round-robin": RoundRobin(),
    "swiss": Swiss(),
    "knockout": Knockout(),
}


def get_format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(
            f"unknown format {name!r}; choose one of {', '.join(FORMAT_NAMES)}"
        ) from None


# ------------------------------------------------------------------------------- the rounds


def _rows(rows: Standings) -> dict[str, StandingRow]:
    for bot, row in rows.items():
        if row.bot != bot:
            raise FormatError(f"standing row {row.bot!r} filed under {bot!r}")
    seeds = sorted(r.seed for r in rows.values())
    if seeds != list(range(1, len(seeds) + 1)):
        raise FormatError(f"seeds must be 1..{len(seeds)}, got {seeds}")
    return dict(rows)


def check_format(name: str, entrants: int, options: FormatOptions) -> None:
    """Raise :class:`FormatError` with a clear message if the field cannot play so."""
    get_format(name).check(entrants, options)


def total_rounds(name: str, entrants: int, options: FormatOptions) -> int:
    """How many rounds a field of ``entrants`` plays (knockout: unless a table is played
    again, because every match of it failed or, with ``tie_replays``, it ended level)."""
    fmt = get_format(name)
    fmt.check(entrants, options)
    return fmt.total_rounds(entrants, options)


def total_matches(name: str, entrants: int, options: FormatOptions) -> int:
    """How many matches a field of ``entrants`` plays (knockout: unless a table is played
    again, as for :func:`total_rounds`): for progress bars and limits."""
    fmt = get_format(name)
    fmt.check(entrants, options)
    return fmt.total_matches(entrants, options)


def next_round(name: str, rows: Standings, number: int, options: FormatOptions) -> Round | None:
    """Round ``number`` (0 is the first) given the rows after the rounds before it; None when
    the tournament is over."""
    fmt = get_format(name)
    rows = _rows(rows)
    fmt.check(len(rows), options)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise FormatError(f"round number must be an integer of at least 0, got {number!r}")
    return fmt.plan(rows, number, options)


def record_round(
    name: str,
    rows: Standings,
    number: int,
    results: Sequence[Result],
    options: FormatOptions,
    planned: Round | None = None,
) -> dict[str, StandingRow]:
    """The rows after round ``number``, from the rows before it and its matches' results.

    Every result must be a match of that round (same bots in the same seats); missing
    matches count as not played. Points, wins, matches, opponents and seats move for finished
    matches, byes for the round's byes; Buchholz is recomputed for everyone; a knockout
    table's losers are eliminated (a table none of whose matches finished eliminates nobody,
    and is played again in the next round).

    ``planned`` is the round as :func:`next_round` gave it for these rows, if the caller still
    holds it: it saves planning the round again (a two-seat Swiss round of a few hundred
    entrants takes seconds, see docs/benchmarks.md)."""
    fmt = get_format(name)
    before = _rows(rows)
    if planned is not None and planned.number != number:
        raise FormatError(f"the planned round is round {planned.number}, not {number}")
    rnd = planned if planned is not None else next_round(name, before, number, options)
    if rnd is None:
        raise FormatError(f"round {number} of this {name} tournament does not exist")
    after = {
        b: replace(r, opponents=dict(r.opponents), seats=_pad(r.seats, options.players))
        for b, r in before.items()
    }
    expected = Counter(m.bots for m in rnd.matches)
    got = Counter(tuple(r.bots) for r in results)
    extra = got - expected
    if extra:
        raise FormatError(
            f"results for matches not in round {number}: " + ", ".join(" v ".join(k) for k in extra)
        )
    table_of = {b: t for t in rnd.tables for b in t.bots}
    table_points: dict[Table, dict[str, float]] = {
        t: dict.fromkeys(t.bots, 0.0) for t in rnd.tables
    }
    table_played: Counter[Table] = Counter()
    for res in results:
        if res.ranks is None:
            continue
        table = table_of[res.bots[0]]
        table_played[table] += 1
        for seat, (bot, pts) in enumerate(zip(res.bots, match_points(res.ranks), strict=True)):
            after[bot].count_match(seat, res.bots, res.ranks, pts)
            table_points[table][bot] += pts
    for bot in rnd.byes:
        after[bot].byes += 1
        if fmt.name == "swiss":
            after[bot].points += BYE_POINTS * options.games_per_table
    for table in rnd.tables:
        if not table_played[table]:
            continue
        for bot in fmt.advance(table, table_points[table], after, options):
            after[bot].eliminated = True
            after[bot].eliminated_in = number
    for row in after.values():
        row.buchholz = float(sum(after[o].points * k for o, k in row.opponents.items()))
    return after


def _pad(seats: list[int], players: int) -> list[int]:
    return list(seats) + [0] * (players - len(seats))


def ranking(name: str, rows: Standings) -> list[StandingRow]:
    """The field in order, best first (knockout: the winner, then by the round each went out
    in; otherwise points, then Buchholz, wins and seeding)."""
    return get_format(name).ranking(_rows(rows))


def finished(name: str, rows: Standings, number: int, options: FormatOptions) -> bool:
    """True when no round ``number`` is left to play."""
    return next_round(name, rows, number, options) is None
