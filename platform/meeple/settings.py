"""Django settings for Meeple Arena.

Everything comes from the environment (see README, "Configuration"), with embedded defaults that
need no service at all: SQLite in ./data, Celery tasks run in-process, the process sandbox when no
Docker engine answers. The same code scales out by setting DATABASE_URL, CELERY_BROKER_URL and
ARENA_SANDBOX.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from foundation.converters import IdConverter

from arena.viewer import STATIC_DIR as VIEWER_STATIC
from meeple import arena_settings as _arena  # read once there; the broker's timeout needs them
from meeple.database import bounded_options
from meeple.env import (
    REPO_ROOT,
    code_storage,
    data_dir,
    database_url,
    env_bool,
    env_int,
    env_list,
    secret_key,
)

BASE_DIR = REPO_ROOT
DATA_DIR = data_dir()

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = secret_key(DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django.contrib.sitemaps",  # /sitemap.xml (site_pages.sitemaps)
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "django_celery_beat",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by the site itself (works offline)
    "axes",
    # Meeple Arena's apps, one per domain (platform/<app>/), on what they all stand on.
    "foundation",
    "audiences",
    "notifications",
    "site_pages",
    "api",
    "catalog",
    "bots",
    "matches",
    "ratings",
    "competitions",
    "accounts",
    "play",
    "ladder",
    # Last: its ready() configures the Celery app from the final settings (meeple/apps.py).
    "meeple.apps.MeepleConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads a body: refuse one whose Content-Length is over the cap.
    "foundation.limits.RequestBodyLimitMiddleware",
    # No NUL byte in any query parameter reaches a view (PostgreSQL refuses them in text).
    "foundation.params.NulParameterMiddleware",
    # Pages and API answers compressed when the client accepts it (responses that already
    # carry a Content-Encoding, such as stored replays, pass untouched).
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Anonymous visitors' pages, kept under what they show (foundation/page_cache.py): inside
    # authentication (it reads the user), CSP and compression (they treat a kept page as new).
    "foundation.page_cache.PageCacheMiddleware",
    # Last, as django-axes requires: turns a locked-out log-in into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "meeple.urls"
WSGI_APPLICATION = "meeple.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The menu's unread count, asked only where a page shows it.
                "notifications.context_processors.unread",
            ],
        },
    },
]

DATABASE_URL = database_url()
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Every wait bounded: statements, locks, silent sessions, dead sockets (meeple/database.py).
    DATABASES["default"]["OPTIONS"] = bounded_options(DATABASES["default"].get("OPTIONS"))
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded worker processes and the web server share the file: wait rather than fail,
    # and take the write lock when a transaction starts (no lock upgrade that could deadlock).
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses log-ins of a locked-out address and user name before the
# password is even checked (web log-in and the API's token endpoint alike).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The replay viewer's script and stylesheet live with the arena (arena/viewer/static/), shared
# with the offline file of `arena replay view`: served as /static/arena_viewer/...
STATICFILES_DIRS = [VIEWER_STATIC]
# collectstatic's target; created up front so WhiteNoise has a folder to watch in development.
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)

# --- Uploaded bot code: Django's storage API (deploy/SCALING.md, "Bot code") ----------------
# Workers fetch a version by id and hash through this storage, never through a path: either a
# folder every worker mounts (ARENA_MEDIA_ROOT), or S3-compatible object storage when
# ARENA_S3_BUCKET is set (django-storages: `pip install 'meeple-arena[s3]'`).
MEDIA_ROOT = Path(os.environ.get("ARENA_MEDIA_ROOT") or DATA_DIR / "media")
MEDIA_URL = "media/"
STORAGES = {
    "default": code_storage(os.environ),
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- Request sizes: checked before a body is read (foundation/limits.py) -----------------------
ARENA_UPLOAD_MAX_BYTES = env_int("ARENA_UPLOAD_MAX_BYTES", 2 * 1024 * 1024)
# Any request body (an upload with its form fields included); gunicorn has no body cap.
ARENA_MAX_REQUEST_BYTES = env_int("ARENA_MAX_REQUEST_BYTES", ARENA_UPLOAD_MAX_BYTES + 256 * 1024)
# Non-file form fields and JSON bodies: the largest honest one is a tournament of a few
# hundred entrants.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000
DATA_UPLOAD_MAX_NUMBER_FILES = 2
# An accepted upload stays in memory; the capped handler stops larger ones while they stream.
FILE_UPLOAD_MAX_MEMORY_SIZE = ARENA_UPLOAD_MAX_BYTES
FILE_UPLOAD_HANDLERS = [
    "foundation.limits.CappedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# --- Production (DEBUG=false): `manage.py check --deploy` passes with no warning ---------------
# See deploy/SECURITY.md. Behind a TLS-terminating proxy, set SECURE_PROXY_SSL_HEADER to the
# header it sets (e.g. X-Forwarded-Proto) so that Django knows the request came over HTTPS.
_proxy_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip()
if _proxy_header:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
# How many proxies of yours sit in front: the client's address is then the entry the outermost
# of them wrote into X-Forwarded-For; 0 (the default): the socket's peer, and X-Forwarded-For is
# never read. One answer for throttles, log-in lockouts and logs: foundation/client_address.py.
NUM_PROXIES = env_int("NUM_PROXIES", 0)
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers and orchestrators probe over plain HTTP inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Content-Security-Policy (django-csp): scripts, styles and pictures only from the site itself
# (no inline scripts or style attributes); the favicon and SVG icons are data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Cache: throttle counters and log-in lockouts must hold across processes and hosts --------
# Redis when CACHE_URL (or REDIS_URL) is set; otherwise the database cache (its table is made
# by `migrate`, see accounts/migrations), never a per-process memory cache.
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL", "")
CACHES: dict[str, dict[str, object]]
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "arena",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "arena_cache",
            "KEY_PREFIX": "arena",
            # Django culls a third of the table past MAX_ENTRIES (300 by default): that would
            # drop live throttle counts and the keys of games being played. Entries expire.
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        }
    }

# Seconds an anonymous visitor's page is kept at most (foundation/page_cache.py: it is retired
# sooner when what it shows changes); 0 keeps none.
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 60)

# --- Log-in lockout (django-axes): too many wrong passwords for one user name from one address
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "foundation.client_address.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False
# Failures are what lockouts need; a row per successful log-in is not.
AXES_DISABLE_ACCESS_LOG = True

from meeple.email_settings import *  # noqa: E402, F403  (email: notifications)

# --- Celery ----------------------------------------------------------------------------------
# One code path everywhere: matches always travel through a broker to a worker process, never
# inside a web request. Without CELERY_BROKER_URL the broker is a folder on this machine
# (kombu's filesystem transport: no service to install) and `manage.py demo --serve` starts the
# worker and the beat schedule; with redis://... workers run on any number of machines.
# Why each value: deploy/SCALING.md, "Exactly once".
# (a host name in the URL only quiets kombu's "No hostname was supplied" warning)
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "") or "filesystem://localhost/"
EMBEDDED_BROKER = CELERY_BROKER_URL.startswith("filesystem://")
if EMBEDDED_BROKER:
    _queue = DATA_DIR / "broker"
    _queue.mkdir(exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        # kombu's exchange tables (else a "control" folder in the working directory)
        "control_folder": str(DATA_DIR / "broker-control"),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Above the longest a match may take (time limit + grace), people's matches included:
        # an unacknowledged message is redelivered only after this, and the sweeper acts well
        # before (a redelivery of a match still in hand would only find it taken).
        "visibility_timeout": max(
            _arena.ARENA_MATCH_TIME_LIMIT_S, _arena.ARENA_HUMAN_MATCH_TIME_LIMIT_S
        )
        + 3600,
        # Sending to a broker that is down fails fast; the sweeper sends again later.
        "max_retries": 2,
        "interval_start": 0.2,
        "interval_step": 0.5,
    }
# No result backend unless asked for: matches are recorded by the worker itself, and the
# platform's tasks ignore their results (a result backend is only for scripts using arena's
# own tasks, such as arena.run_match).
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0.2, "interval_step": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A match in hand goes on when the broker goes away: it is recorded in the database, which
# needs no broker (Celery 6 is to change this default; tests/resilience/test_broker_restart.py).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"

# --- The arena's own knobs (matches, people at the table, the ladder): meeple/arena_settings.py;
# the queues (default, people, builds) and the tasks routed to each: meeple/queue_settings.py
from meeple.arena_settings import *  # noqa: E402, F403
from meeple.queue_settings import *  # noqa: E402, F403

# --- REST API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first: its WWW-Authenticate header makes a missing or bad token a 401, not a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies are measured (size, nesting depth) before they are decoded: a 400, never a
    # RecursionError (foundation/parsers.py). Forms and uploads as DRF reads them.
    "DEFAULT_PARSER_CLASSES": [
        "foundation.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "foundation.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "foundation.errors.api_exception_handler",
    # Counted in the shared cache above; scoped rates are used by foundation.throttles, also by
    # the site's forms (sign-up, log-in, upload).
    "DEFAULT_THROTTLE_CLASSES": [
        "foundation.throttles.AnonThrottle",
        "foundation.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "120/min"),
        "user": os.environ.get("THROTTLE_USER", "600/min"),
        "uploads": os.environ.get("THROTTLE_UPLOADS", "30/hour"),
        "signup": os.environ.get("THROTTLE_SIGNUP", "10/hour"),
        "login": os.environ.get("THROTTLE_LOGIN", "30/min"),
        "challenge": os.environ.get("THROTTLE_CHALLENGE", "60/hour"),
    },
    # Not read by the site's throttles (foundation.client_address is), but DRF's None would trust
    # every X-Forwarded-For: keep DRF's own idea the same for any class that still asks it.
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Meeple Arena API",
    "DESCRIPTION": (
        "Bots, versions, matches, tournaments, leagues and leaderboards of Meeple Arena."
    ),
    "VERSION": "1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # ids in paths (foundation/converters.py): integers of at most 18 digits
    "PATH_CONVERTER_OVERRIDES": {"id": IdConverter.schema},
    "ENUM_NAME_OVERRIDES": {"TournamentStatusEnum": "competitions.models.TournamentStatus"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "foundation.schema.add_error_responses",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Records about a request name its client as the throttles count it (never a forged header).
    "filters": {"client": {"()": "foundation.client_address.ClientAddressFilter"}},
    "formatters": {"site": {"format": "%(levelname)s %(name)s [%(client)s] %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["client"], "formatter": "site"}
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
}
