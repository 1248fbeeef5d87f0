"""The replay viewer, one for the site's match page and for the offline file that
``arena replay view`` writes: the per-step JSON (:mod:`arena.viewer.steps`), the viewer's
markup (:mod:`arena.viewer.markup`), its script and stylesheet (``static/arena_viewer/``,
served by the site as static files and inlined into the offline file) and the offline page
(:mod:`arena.viewer.offline`)."""

from __future__ import annotations

from pathlib import Path

#: The viewer's static files: the site serves this folder (``STATICFILES_DIRS``), the offline
#: page inlines its files.
STATIC_DIR = Path(__file__).resolve().parent / "static"
ASSETS = STATIC_DIR / "arena_viewer"
