"""Matches: their seats, their outcomes and replays, and running them through Celery."""
