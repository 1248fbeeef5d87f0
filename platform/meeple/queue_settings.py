"""The Celery queues and which tasks go where (deploy/SCALING.md, "Queues"). Part of the site's
settings (``meeple/settings.py`` imports every name here)."""

from __future__ import annotations

# Every task not routed below goes to Celery's default queue, "celery": bots' matches, the
# ladder, the sweepers, emails. ``celery -A meeple worker`` takes only that queue.
#
# People's matches wait for a person (minutes a decision, hours a game): they have a queue of
# their own, so they never hold the workers of bots' matches; ``-Q people`` workers play them
# (deploy/SCALING.md, "People's matches"; deploy/SECURITY.md).
PEOPLE_QUEUE = "people"
# Uploads' checks and builds run the uploader's code (a compiler, a build script: up to 2 GB
# and minutes each): a queue of their own, so a flood of uploads delays uploads, never a match;
# ``-Q builds`` workers take them (deploy/SCALING.md, "Builds").
BUILDS_QUEUE = "builds"
# The embedded default (``foundation.workers``) starts a worker for each of the three.
CELERY_TASK_ROUTES = {
    "matches.play_person_match": {"queue": PEOPLE_QUEUE},
    "bots.check_version": {"queue": BUILDS_QUEUE},
}
