"""``manage.py serve [ADDR:]PORT``: the site on this machine, with what plays its matches.

Django's ``runserver`` serves pages only. Under the embedded default (no broker service) the
tasks wait in a folder for a worker, so this also starts the worker and the beat schedule
(``foundation.workers.background_workers``) and stops them with the server. With a broker
configured it is ``runserver`` alone: the operator runs the workers and beat.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from foundation.workers import background_workers


class Command(BaseCommand):
    help = (
        "Serve the site (runserver) and, with no broker service configured, the worker and "
        "beat that play its matches, qualify uploads and run the ladder."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "addrport", nargs="?", default="127.0.0.1:8000", help="[ADDR:]PORT (127.0.0.1:8000)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        call_command("migrate", verbosity=0)
        with background_workers() as worker_log:
            if worker_log:
                self.stdout.write(f"A background worker plays the matches (log: {worker_log}).")
                self.stdout.flush()  # before the server's own lines, also into a file or pipe
            call_command("runserver", opts["addrport"], use_reloader=False)
