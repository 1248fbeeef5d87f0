"""The arena's own settings, read from the environment (README, "Configuration"): how matches
are played and taken back, people at the table, the ladder. Part of the site's settings
(``meeple/settings.py`` imports every name here)."""

from __future__ import annotations

import os

from meeple.env import env_bool, env_int, sandbox_choice

# --- The arena -------------------------------------------------------------------------------
ARENA_SANDBOX = sandbox_choice()
# The process sandbox is no security boundary: uploads of ordinary users run only in Docker,
# unless the organiser of this installation allows it (a trusted classroom, say).
ARENA_ALLOW_UNSAFE_SANDBOX = env_bool("ARENA_ALLOW_UNSAFE_SANDBOX", False)
#: The longest a match may take on a worker (Celery's soft time limit; the hard one is 30 s more).
ARENA_MATCH_TIME_LIMIT_S = int(os.environ.get("ARENA_MATCH_TIME_LIMIT_S", "900"))
#: How often a match is sent again (worker died, message lost) before it is marked error.
ARENA_MATCH_ATTEMPTS = int(os.environ.get("ARENA_MATCH_ATTEMPTS", "3"))
#: A queued match whose message no worker took in this long is sent again.
ARENA_QUEUE_PATIENCE_S = int(os.environ.get("ARENA_QUEUE_PATIENCE_S", "1800"))
#: Tries to store a played match's outcome when the database refuses it (backoff 0.5 s .. 30 s).
ARENA_RECORD_RETRIES = int(os.environ.get("ARENA_RECORD_RETRIES", "8"))
#: How long a worker that cannot reach the database holds a delivery (trying to claim it, with
#: backoff) before handing it back to the queue: it never acknowledges what it could not claim.
ARENA_CLAIM_PATIENCE_S = env_int("ARENA_CLAIM_PATIENCE_S", 60)
#: How long a worker that claimed a match waits for the database to set it up (read its seats
#: and versions) before handing it back to the queue, as the claim does.
ARENA_SETUP_PATIENCE_S = env_int("ARENA_SETUP_PATIENCE_S", 60)
#: What claiming and setting up may take on top of the match's own time limit, which starts when
#: the referee does: a task's time limits are the match's plus this (``matches.tasks``), so a
#: wait for the database is never charged to the match (deploy/SCALING.md, "Bounded waits").
ARENA_MATCH_PREP_S = ARENA_CLAIM_PATIENCE_S + ARENA_SETUP_PATIENCE_S
#: A worker holding a match renews its claim's lease (``Match.lease_until``) every
#: ``ARENA_MATCH_LEASE_RENEW_S``; a lease this old means the worker is gone, and the sweeper (or a
#: redelivery) takes the match back then, not at its deadline.
ARENA_MATCH_LEASE_S = env_int("ARENA_MATCH_LEASE_S", 20)
ARENA_MATCH_LEASE_RENEW_S = max(ARENA_MATCH_LEASE_S / 6, 0.2)
ARENA_SWEEP_BATCH = 200
#: Seconds of checks and builds one user's uploads may take in any hour (``bots.build_quota``):
#: past it, their next uploads wait ``checking`` (the reason shown) until the hour frees time.
ARENA_BUILD_SECONDS_PER_HOUR = env_int("ARENA_BUILD_SECONDS_PER_HOUR", 900)
#: The API's match list counts the matches that fit its filters up to this many, never more
#: (a count over every match stored would grow with the site): beyond, ``count_capped`` is true.
ARENA_MATCH_COUNT_LIMIT = int(os.environ.get("ARENA_MATCH_COUNT_LIMIT", "10000"))
# --- People at the table (platform/play, docs/human-play.md) ---------------------------------
#: A person's time per decision; no answer by then forfeits the seat (like a bot's timeout).
ARENA_HUMAN_MOVE_S = int(os.environ.get("ARENA_HUMAN_MOVE_S", "300"))
#: A play page that stops polling for this long has left: the seat forfeits.
ARENA_HUMAN_LEAVE_S = int(os.environ.get("ARENA_HUMAN_LEAVE_S", "30"))
#: The longest a people's match may take on a worker (it holds the worker's process).
ARENA_HUMAN_MATCH_TIME_LIMIT_S = int(os.environ.get("ARENA_HUMAN_MATCH_TIME_LIMIT_S", "10800"))
#: Per user: unfinished people's matches at once, and matches started in 24 hours.
ARENA_HUMAN_OPEN_LIMIT = int(os.environ.get("ARENA_HUMAN_OPEN_LIMIT", "2"))
ARENA_HUMAN_DAILY_LIMIT = int(os.environ.get("ARENA_HUMAN_DAILY_LIMIT", "30"))

# --- The ladder (platform/ladder, docs/ladder.md) --------------------------------------------
#: Ladder matches queued or running per game at most (the matchmaker fills up to it).
ARENA_LADDER_BUDGET = int(os.environ.get("ARENA_LADDER_BUDGET", "4"))
#: Placement matches a newly qualified version plays before everyone else's turn.
ARENA_LADDER_PLACEMENT = int(os.environ.get("ARENA_LADDER_PLACEMENT", "5"))
#: Ladder matches in a row ending in a fault (crashed, timed out, retired) that suspend a bot.
ARENA_LADDER_SUSPEND_AFTER = int(os.environ.get("ARENA_LADDER_SUSPEND_AFTER", "3"))
#: Matches in a row that end in a platform error before an uploaded version they involve is
#: held (never scheduled again until staff release it; docs/ladder.md, "Held versions").
ARENA_VERSION_ERROR_LIMIT = int(os.environ.get("ARENA_VERSION_ERROR_LIMIT", "3"))
#: Seconds between two matchmaker ticks (Celery beat, or the embedded runner of the demo).
ARENA_LADDER_TICK_SECONDS = float(os.environ.get("ARENA_LADDER_TICK_SECONDS", "5"))
#: Friendly challenges one user may start per 24 hours.
ARENA_CHALLENGES_PER_DAY = int(os.environ.get("ARENA_CHALLENGES_PER_DAY", "20"))
