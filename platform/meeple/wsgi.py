"""WSGI entry point: ``gunicorn meeple.wsgi`` (with platform/ on the path)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "meeple.settings")
application = get_wsgi_application()
