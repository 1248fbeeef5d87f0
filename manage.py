#!/usr/bin/env python3
"""Django's command-line utility for Meeple Arena (the Django code lives in platform/)."""

import os
import sys
from pathlib import Path


def main() -> None:
    # platform/ is a source folder, not a package: a package named "platform" would shadow
    # the standard library's platform module.
    sys.path.insert(0, str(Path(__file__).resolve().parent / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
