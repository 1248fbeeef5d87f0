"""Signals of the bots app, so that apps above it (the ladder) react without bots importing them."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent once an uploaded version's code passed its check on a worker and that is committed
#: (``sender=BotVersion``, ``version=``): it may now qualify.
version_checked = Signal()
