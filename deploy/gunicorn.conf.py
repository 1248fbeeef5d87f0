"""gunicorn settings for the web process: ``gunicorn -c deploy/gunicorn.conf.py meeple.wsgi``.

Every value can be overridden from the environment (``GUNICORN_<NAME>``). Request bodies are
capped by the site itself (foundation/limits.py: Content-Length checked before reading, uploads
stopped while streaming), since gunicorn has no body limit; here are the limits gunicorn does
have: request line and header sizes, and time limits so that a slow or stuck client or request
cannot hold a worker forever. See deploy/SECURITY.md.
"""

from __future__ import annotations

import gc
import os


def _int(name: str, default: int) -> int:
    return int(os.environ.get(f"GUNICORN_{name.upper()}", default))


bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = _int("workers", 3)
worker_class = "sync"
# Python finds the Django project through these (as in deploy/Dockerfile's PYTHONPATH).
pythonpath = os.environ.get("GUNICORN_PYTHONPATH", ".,platform")
wsgi_app = "meeple.wsgi:application"

# -- request limits (gunicorn refuses with 400/431 before Django runs)
limit_request_line = _int("limit_request_line", 4094)  # the URL with its query string
limit_request_fields = _int("limit_request_fields", 60)  # header count
limit_request_field_size = _int("limit_request_field_size", 8190)  # one header's bytes

# -- time limits
# A request still running after this is killed (its worker replaced): no page may take long
# (matches are played by workers, never in a request).
timeout = _int("timeout", 30)
graceful_timeout = _int("graceful_timeout", 30)
# Idle keep-alive connections are closed quickly so sync workers are not held by them.
keepalive = _int("keepalive", 2)

# -- hygiene
# Recycle workers now and then (with jitter, not all at once) so a leak cannot grow forever.
max_requests = _int("max_requests", 2000)
max_requests_jitter = _int("max_requests_jitter", 200)
# Behind a proxy: the addresses whose X-Forwarded-* headers are trusted (comma separated).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-")
errorlog = "-"

# -- memory and the collector
# Load Django once in the arbiter, then fork: workers share the loaded code's memory pages.
preload_app = os.environ.get("GUNICORN_PRELOAD", "true").lower() in {"1", "true", "yes"}


def when_ready(server):  # type: ignore[no-untyped-def]
    """Everything loaded at start-up moves to a permanent generation before the fork: the
    collector never scans it again (shorter full passes), and workers do not write to, and so
    copy, the pages they share with the arbiter."""
    gc.collect()
    gc.freeze()


def post_fork(server, worker):  # type: ignore[no-untyped-def]
    # Fewer young-generation passes: a request allocates many short-lived objects (templates,
    # querysets), and the default threshold of 700 runs the collector several times per page.
    gc.set_threshold(50_000, 20, 100)
