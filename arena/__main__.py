"""``python -m arena``: the same as the ``arena`` console script."""

from arena.cli import main

raise SystemExit(main())
