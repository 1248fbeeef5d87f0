"""What every app of the site stands on, and nothing above it: reading a request (strict
parameters and input fields, bounded JSON bodies, body and upload limits, the client's
address), answering it (error answers, pagination, URL converters, the API schema's hooks),
rate limits (throttles on an atomic counter), the stamps under which drawn pages are cached,
bounded database sessions, and the embedded worker processes of the default setup.

It imports no app of the site and never the project package ``meeple`` (which only assembles
settings, URLs and the Celery app); every app may import it (pyproject.toml's contracts).
"""
