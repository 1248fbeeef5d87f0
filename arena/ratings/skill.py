"""OpenSkill (Weng-Lin, Bradley-Terry full pairing) for one free-for-all match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

from arena.ratings.checks import check_ranks

#: OpenSkill's own defaults: mu 25, sigma 25/3; the ordinal is mu - 3 sigma (starts at 0).
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

#: The OpenSkill model used everywhere, with the library's defaults (its tau adds a little
#: uncertainty per match so that ratings can follow bots that improve).
OPENSKILL_MODEL = BradleyTerryFull()


@dataclass(frozen=True)
class Skill:
    """An OpenSkill (Weng-Lin) belief about a bot: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """A conservative skill, ``mu - 3 sigma``: ranks new bots below proven ones."""
        return self.mu - 3.0 * self.sigma


def openskill_match(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills of the seats of one free-for-all match (Plackett-Luce; ties allowed)."""
    check_ranks(ranks, len(skills))
    if len(skills) < 2:
        return list(skills)
    teams = [[OPENSKILL_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = OPENSKILL_MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
