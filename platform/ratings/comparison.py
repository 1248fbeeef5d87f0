"""Two versions of one bot side by side: how each did against the same opponents, at each
table size and seat, and the bot's Elo over each version's period. Read from the counters of
``ratings.stats`` (four queries, none over the match history)."""

from __future__ import annotations

from dataclasses import dataclass

from bots.models import Bot, BotVersion
from foundation.params import int_param

from ratings.models import OpponentStat, VersionPeriod
from ratings.stats import Splits, splits_by_version


@dataclass
class Side:
    """One version: its period (None before its first rated match) and its splits."""

    version: BotVersion
    period: VersionPeriod | None
    splits: Splits

    def series(self) -> list[tuple[int, float]]:
        """``(matches since the version's first rated match, Elo)``, from 0."""
        p = self.period
        if p is None:
            return []
        return [(0, p.elo_start)] + [((i + 1) * p.stride, e) for i, e in enumerate(p.points)]

    @property
    def elo_change_text(self) -> str:
        if self.period is None:
            return ""
        value = round(self.period.elo_end - self.period.elo_start)
        return f"{value:+d}" if value else "0"


@dataclass
class Record:
    met: int = 0
    ahead: int = 0
    level: int = 0
    behind: int = 0

    @property
    def ahead_share(self) -> float:
        return self.ahead / self.met if self.met else 0.0


@dataclass
class OpponentRow:
    opponent: Bot
    a: Record
    b: Record

    @property
    def common(self) -> bool:
        return bool(self.a.met and self.b.met)


@dataclass
class Comparison:
    bot: Bot
    a: Side
    b: Side
    #: Opponents both versions met first (most met by both), then the others.
    opponents: list[OpponentRow]
    #: Opponents left out of ``opponents`` (past ``top``).
    more: int

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.a, self.b)


def compare_versions(bot: Bot, a: BotVersion, b: BotVersion, *, top: int = 30) -> Comparison:
    """``a`` and ``b`` (versions of ``bot``) side by side."""
    periods = {p.version_id: p for p in VersionPeriod.objects.filter(version__in=[a, b])}
    split = splits_by_version([a, b])
    records: dict[int, dict[int, Record]] = {}
    for version_id, opponent, met, ahead, level, behind in OpponentStat.objects.filter(
        version__in=[a, b]
    ).values_list("version_id", "opponent_id", "met", "ahead", "level", "behind"):
        records.setdefault(opponent, {})[version_id] = Record(met, ahead, level, behind)

    def order(item: tuple[int, dict[int, Record]]) -> tuple[int, int, int]:
        ra, rb = item[1].get(a.pk, Record()), item[1].get(b.pk, Record())
        return (-min(ra.met, rb.met), -(ra.met + rb.met), item[0])

    chosen = sorted(records.items(), key=order)[:top]
    bots = Bot.objects.select_related("owner").in_bulk([o for o, _ in chosen])
    rows = [
        OpponentRow(bots[o], r.get(a.pk, Record()), r.get(b.pk, Record()))
        for o, r in chosen
        if o in bots
    ]
    return Comparison(
        bot=bot,
        a=Side(a, periods.get(a.pk), split[a.pk]),
        b=Side(b, periods.get(b.pk), split[b.pk]),
        opponents=rows,
        more=max(0, len(records) - top),
    )


def chosen_versions(
    bot: Bot, versions: list[BotVersion], a: str | None, b: str | None
) -> tuple[BotVersion, BotVersion] | str:
    """The two versions asked for by number (by default the newest two), or why not."""
    by_number = {v.number: v for v in versions}
    if len(versions) < 2:
        return f"{bot.name} has one version: there is nothing to compare yet."
    picked = []
    for given, default in ((a, versions[1]), (b, versions[0])):
        if given in (None, ""):
            picked.append(default)
            continue
        number = int_param(given, minimum=1, maximum=10**9)
        if number is None or number not in by_number:
            return f"{bot.name} has no version {given!s:.20}."
        picked.append(by_number[number])
    if picked[0] == picked[1]:
        return "Choose two different versions."
    return picked[0], picked[1]
