"""The parts of ``bench/fill_scale.py``, one per phase of the fill: ``copying`` (PostgreSQL
``COPY`` and ids), ``replays`` (the real replays the matches reuse), ``people`` (users, bots,
versions), ``competitions`` (the tournament and the league: their matches and stored tables),
``history`` (matches, seats, replay documents) and ``ratings``."""

from datetime import UTC, datetime

#: Full-scale figures (``--scale 1``), as measured in issue 13.
USERS = 1000
BOTS = 4000
MATCHES = 100_000
TOURNAMENT_ENTRANTS = 64
TOURNAMENT_MATCHES = 2000
LEAGUE_MATCHES = 20_000
#: The filled history starts here.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
