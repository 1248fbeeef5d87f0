"""Signals of the bots app, so that apps above it (the ladder) react without bots importing them."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent once a new uploaded version is committed (``sender=BotVersion``, ``version=``).
version_uploaded = Signal()
