"""Email settings, read from the environment (README, "Configuration"; deploy/SECURITY.md,
"Email"): notifications (docs/notifications.md) are sent by a Celery task, never in a request.
Part of the site's settings (``meeple/settings.py`` imports every name here)."""

from __future__ import annotations

import os

from meeple.env import data_dir, env_bool, env_int

# The console backend by default (the worker prints each email); SMTP once EMAIL_HOST is set,
# or any backend EMAIL_BACKEND names (e.g. django.core.mail.backends.filebased.EmailBackend).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # port 465; STARTTLS (587) otherwise
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Meeple Arena <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The folder of Django's file backend (EMAIL_BACKEND=...filebased.EmailBackend), one file each.
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or str(data_dir() / "emails")
# The site's address as emails link to it (a notification's page, the settings page).
ARENA_SITE_URL = os.environ.get("ARENA_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Notifications kept per user, the newest (older ones are pruned as new ones arrive).
ARENA_NOTIFICATIONS_KEPT = env_int("ARENA_NOTIFICATIONS_KEPT", 200)
