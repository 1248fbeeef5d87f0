"""The Django project of Meeple Arena: settings, URLs, the Celery wiring."""
