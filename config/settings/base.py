"""Settings shared by every environment.

Everything that differs between machines comes from the environment:

``DATABASE_URL``           PostgreSQL (``postgres://user:pass@host:5432/name``); unset: SQLite in ``VAR_DIR``
``CELERY_BROKER_URL``      Redis or RabbitMQ; unset: a broker kept in files under ``VAR_DIR``
``CELERY_RESULT_BACKEND``  unset: the broker's Redis, ``rpc://`` for RabbitMQ, files for the file broker
``CELERY_TASK_DEFAULT_QUEUE``  the queue tasks go to and the worker reads (default ``celery``)
``CELERY_QUEUE_PREFIX``    put before every queue name (several sites or test runs on one broker)
``CACHE_URL``              ``redis://host:6379/1`` (throttle counters shared by every web process, and a cache in
                           front of the sessions);
                           unset: memory of each process (local), the database (production)
``THROTTLE_RATES``         overrides, e.g. ``attempts=120/min,login=20/min``
``CHANNEL_LAYER_URL``      ``redis://host:6379/2``: the channel layer that carries live games' moves between
                           the web processes (docs/deployment.md); unset: each process's memory (one
                           web process serves every WebSocket)
``CHANNEL_LAYER_CONNECT_TIMEOUT`` / ``CHANNEL_LAYER_SOCKET_TIMEOUT``  seconds before a connection to the
                           channel layer's Redis, and a reply from it, are given up (3 and 10; the
                           second above the layer's own 5 s wait for a message)
``LIVE_FIRST_MOVE_SECONDS``  how long each side of a live game has for its first move before the game is
                           aborted (60; docs/live.md)
``LIVE_SETUP_MINUTES``     how long a secret setup may go without a half handed in before the game is
                           aborted (10; docs/live.md)
``LIVE_SEEK_EXPIRY_SECONDS``  how long a lobby seek stays listed after its creator's lobby page last
                           refreshed it (120; docs/live.md)
``LIVE_SEEKS_PER_PLAYER``  open lobby seeks one player may have at once (3)
``LIVE_GONE_SECONDS``      how long a live game's player may be away (no connection open to the game)
                           before the opponent may claim the win or a draw (30; docs/live.md)
``LIVE_PRESENCE_SECONDS``  how long one ping of a player's page keeps their seat present (25; the page
                           pings every ``LIVE_PING_SECONDS``, 10)
``LIVE_LAG_ALLOWANCE_MS``  the most network lag a live game's move is credited back (500; docs/live.md)
``LIVE_LAG_PROBE_SECONDS``  how often a live game's socket times a round trip to its page (5; 0: never)
``HEALTH_TOKEN``           the bearer token that opens /healthz/full (unset: closed)
``DATABASE_STATEMENT_TIMEOUT``, ``DATABASE_LOCK_TIMEOUT``  a web request's limits, ms (5000, 2000)
``WORKER_DATABASE_STATEMENT_TIMEOUT``, ``WORKER_DATABASE_LOCK_TIMEOUT``  a worker's (60000, 20000)
``DATABASE_ROLE``          ``web`` (default), ``worker`` or ``command``: whose limits this process has
``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``, ``VAR_DIR``
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.database import ROLES, apply_role, apply_sqlite
from config.settings.env import env_bool, env_int, env_list, env_str
from config.settings.queues import celery_queues

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# Files the running site writes: the SQLite database, the file broker, results.
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var"))).resolve()

SECRET_KEY = env_str("SECRET_KEY")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core",
    "accounts",
    "tutorials",
    "puzzles",
    "games",
    "live",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.ApiJsonErrorMiddleware",
    "core.middleware.RequestSizeLimitMiddleware",
    "core.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "core.middleware.ReadThrottleMiddleware",  # before anything loads the session or user
    "core.middleware.NulCharacterMiddleware",  # after the language is known
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.middleware.PageThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# --- Hostile input --------------------------------------------------------------------------

# Largest request body: a move list of a thousand moves in Chinese notation is about 30 KiB.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 128 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
# Deepest JSON the API reads (our requests nest two or three levels).
API_MAX_JSON_DEPTH = 16

# --- Security headers -----------------------------------------------------------------------

# Scripts, styles, images and fonts from this site only; no plugins, no framing, forms post
# here. Inline style attributes are allowed (the board's pieces are placed with them); inline
# scripts are not.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# The pages' scripts read the CSRF cookie to send it back in X-CSRFToken, so it is not HttpOnly.
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL")
# Under ASGI (config/asgi.py says so) each request and each WebSocket message runs in a thread
# of its own, whose connection would outlive it unclosed: none is kept by a thread ...
SERVED_BY_ASGI = env_bool("ASGI_SERVER", False)
if DATABASE_URL is None:
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # SQLite creates the file, not its folder
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=0 if SERVED_BY_ASGI else env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if SERVED_BY_ASGI and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # ... and, as Django advises under ASGI, a pool of connections per web process instead:
    # a request or a WebSocket message borrows one and gives it back (no new session each time)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("DATABASE_POOL_SIZE", 8),
        # how long a request waits for a connection before it fails (503): short, so that
        # while the database is down requests fail fast, as they did without a pool
        "timeout": 3,
    }
apply_sqlite(DATABASES["default"])  # WAL, IMMEDIATE transactions, a busy wait (config/database.py)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Time limits of database sessions by the kind of process (config/database.py), in ms (0:
# none). A web request's queries take milliseconds; 5 s is far above any of them on a loaded
# server yet short enough that a runaway query frees its web worker and connection before
# clients give up. A worker's queries are as short, but it may queue behind a request's lock.
DATABASE_TIMEOUTS: dict[str, dict[str, int]] = {
    "web": {
        "statement_ms": env_int("DATABASE_STATEMENT_TIMEOUT", 5_000),
        "lock_ms": env_int("DATABASE_LOCK_TIMEOUT", 2_000),
    },
    "worker": {
        "statement_ms": env_int("WORKER_DATABASE_STATEMENT_TIMEOUT", 60_000),
        "lock_ms": env_int("WORKER_DATABASE_LOCK_TIMEOUT", 20_000),
    },
    "command": {"statement_ms": 0, "lock_ms": 0},
}
# The kind of this process: ``web`` unless said otherwise (manage.py says ``command`` for its
# commands but runserver; a Celery worker switches itself to ``worker`` as it starts).
DATABASE_ROLE = env_str("DATABASE_ROLE", "web")
if DATABASE_ROLE not in ROLES:
    raise ImproperlyConfigured(f"DATABASE_ROLE={DATABASE_ROLE!r} is not one of {ROLES}.")
apply_role(DATABASES["default"], DATABASE_ROLE, DATABASE_TIMEOUTS[DATABASE_ROLE])

# --- Cache (throttle counters) --------------------------------------------------------------

CACHE_URL = env_str("CACHE_URL")


def cache_settings(url: str | None, fallback: str) -> dict[str, dict[str, object]]:
    """``redis://…`` -> Redis; ``db://`` -> the database table ``django_cache``; else ``fallback``.

    Redis through ``core.cache.ResilientRedisCache``: while Redis is down the site goes on
    without it (sessions from the database, throttles counted per process, fragments
    recomputed) and uses it again when it is back."""
    if url and url.startswith(("redis://", "rediss://")):
        return {
            "default": {
                "BACKEND": "core.cache.ResilientRedisCache",
                "LOCATION": url,
                "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "xq"),
            }
        }
    if url == "db://" or fallback == "db":
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "django_cache",  # manage.py createcachetable
            }
        }
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


CACHES = cache_settings(CACHE_URL, "memory")
# With a shared cache, sessions are read from it and written through to the database: one
# query less on every signed-in request, and nobody is signed out when the cache restarts.
if CACHE_URL and CACHE_URL.startswith(("redis://", "rediss://")):
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# --- Accounts -------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "pages:profile"
LOGOUT_REDIRECT_URL = "pages:home"
# Argon2id first; the others only read hashes made before (they are upgraded at the next log-in,
# as are Argon2 hashes made with other parameters).
PASSWORD_HASHERS = [
    "accounts.hashers.Argon2idPasswordHasher",  # OWASP's parameters; reads any Argon2 hash
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # a year: anonymous progress lives in the session
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day, and once
# A reset mail the mail server did not take for now is tried again this many times, after a
# pause of RESET_MAIL_BACKOFF_MS doubled each time (up to 10 minutes; accounts/mail.py): with
# the defaults, for about a quarter of an hour. Then it is reported (ResetMailFailure).
RESET_MAIL_RETRIES = env_int("RESET_MAIL_RETRIES", 5)
RESET_MAIL_BACKOFF_MS = env_int("RESET_MAIL_BACKOFF_MS", 30_000)

# --- E-mail (password reset) ------------------------------------------------------------------

# SMTP when EMAIL_HOST is set; else the local settings print mails on the console (or write
# them to EMAIL_FILE_PATH). EMAIL_BACKEND names any other backend.
EMAIL_HOST = env_str("EMAIL_HOST", "localhost") or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not env_bool("EMAIL_USE_SSL", False))
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Xiangqi School <noreply@localhost>")
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")

# --- Languages ------------------------------------------------------------------------------

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

# --- Channel layer (live games: a move reaches every connection watching the game) ---------

CHANNEL_LAYER_URL = env_str("CHANNEL_LAYER_URL")
# A live game's side to move has this long for its first move, or the game is aborted.
LIVE_FIRST_MOVE_SECONDS = env_int("LIVE_FIRST_MOVE_SECONDS", 60)
LIVE_SETUP_MINUTES = env_int("LIVE_SETUP_MINUTES", 10)
# A lobby seek is listed while its creator's lobby page refreshes it (every 30 s while open):
# one not refreshed for this long is gone (the page was closed, the connection lost for good).
LIVE_SEEK_EXPIRY_SECONDS = env_int("LIVE_SEEK_EXPIRY_SECONDS", 120)
# Open lobby seeks one player (an account, or a visitor's session) may have at once.
LIVE_SEEKS_PER_PLAYER = env_int("LIVE_SEEKS_PER_PLAYER", 3)
# The process holding a seated player's connection refreshes the seat every LIVE_PING_SECONDS;
# each refresh (and each connection) keeps the seat present for LIVE_PRESENCE_SECONDS (two pings lost and
# some slack), and a page closed marks it away at once unless another page of theirs answers.
# A player away for LIVE_GONE_SECONDS has left: the opponent may claim the win or a draw.
LIVE_PING_SECONDS = env_int("LIVE_PING_SECONDS", 10)
LIVE_PRESENCE_SECONDS = env_int("LIVE_PRESENCE_SECONDS", 25)
LIVE_GONE_SECONDS = env_int("LIVE_GONE_SECONDS", 30)
# The lag allowance: a move is credited back the round trip the server measured on its
# connection, at most this much a move and within a quota per side (live.clock.LagAllowance).
LIVE_LAG_ALLOWANCE_MS = env_int("LIVE_LAG_ALLOWANCE_MS", 500)
# How often each live game's socket sends its page a probe to time the round trip (0: never).
LIVE_LAG_PROBE_SECONDS = env_int("LIVE_LAG_PROBE_SECONDS", 5)


# A Redis that hangs (accepts, never answers) must not hold a page or a socket for good: a
# connection is given up after CHANNEL_LAYER_CONNECT_TIMEOUT seconds, a reply after
# CHANNEL_LAYER_SOCKET_TIMEOUT. The reply's limit stays above the layer's own blocking read
# (channels_redis waits up to 5 s for a message on a channel), which is no hang.
CHANNEL_LAYER_READ_WAIT = 5


def channel_layer_settings(
    url: str | None, *, connect_timeout: float = 3.0, socket_timeout: float = 10.0
) -> dict[str, dict[str, object]]:
    """``redis://…`` -> the Redis channel layer, shared by every web process; unset: this
    process's memory, right only while one process serves every WebSocket (scripts/run).
    ``socket_timeout`` must exceed the layer's blocking read (``CHANNEL_LAYER_READ_WAIT``)."""
    if socket_timeout <= CHANNEL_LAYER_READ_WAIT:
        raise ImproperlyConfigured(
            f"CHANNEL_LAYER_SOCKET_TIMEOUT must be more than {CHANNEL_LAYER_READ_WAIT} seconds "
            "(the channel layer's own wait for a message)."
        )
    if url and url.startswith(("redis://", "rediss://")):
        host = {
            "address": url,
            "socket_connect_timeout": connect_timeout,
            "socket_timeout": socket_timeout,
        }
        return {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    "hosts": [host],
                    "prefix": env_str("CHANNEL_LAYER_PREFIX", "xq-live") or "xq-live",
                },
            }
        }
    if url:
        raise ImproperlyConfigured(f"CHANNEL_LAYER_URL must be a redis:// URL, not {url!r}.")
    return {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


CHANNEL_LAYERS = channel_layer_settings(
    CHANNEL_LAYER_URL,
    connect_timeout=env_int("CHANNEL_LAYER_CONNECT_TIMEOUT", 3),
    socket_timeout=env_int("CHANNEL_LAYER_SOCKET_TIMEOUT", 10),
)

# --- Static files (served by WhiteNoise: no separate web server needed) --------------------

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# static/build/ is written by the board build (frontend/, `npm run build`). Collected files are
# compressed once per content (core/staticfiles.py).
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "core.staticfiles.CompressedStaticFiles"},
}

# --- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Session authentication that enforces CSRF on every unsafe request carrying a session
        # (logged-in users and anonymous visitors whose progress lives in the session), and
        # refuses unsafe requests from other sites' pages and bodies other than JSON.
        "core.authentication.SessionAuthentication",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",  # refuses JSON nested deeper than API_MAX_JSON_DEPTH
    ],
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.ScopedThrottle"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.exceptions.api_exception_handler",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Xiangqi School API",
    "DESCRIPTION": (
        "Variants and positions of traditional xiangqi, Missile Xiangqi (feidan) and "
        "New-version Xiangqi (xinban). Errors are JSON: "
        '{"error": {"message": "...", "extra": {...}}}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Three choice sets share the field name "mode" (a run's, a game's, a proof's): each its name.
    "ENUM_NAME_OVERRIDES": {"ProofModeEnum": ["full", "checks_only"]},
    # Every operation documents the error answers it can give (400, 403, 404, 413, 429 ...).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.schema.document_error_responses",
    ],
}

# --- Health ---------------------------------------------------------------------------------

# /healthz answers liveness to anyone; /healthz/full (database, cache, broker, workers) only to
# callers sending "Authorization: Bearer <HEALTH_TOKEN>" (unset: to nobody).
HEALTH_TOKEN = env_str("HEALTH_TOKEN", "") or ""
# How long each web process keeps the full report before checking again.
HEALTH_CACHE_SECONDS = env_int("HEALTH_CACHE_SECONDS", 5)

# Memory each web process may give to the position API's latest answers (core/api.py).
POSITION_ANSWER_CACHE_BYTES = env_int("POSITION_ANSWER_CACHE_BYTES", 16 * 1024 * 1024)

# --- Throttles ------------------------------------------------------------------------------

# Fixed windows counted in the cache, per user (or per address for anonymous visitors).
THROTTLE_RATES = {
    "login": "10/min",  # log-in tries per address
    # Failed log-ins per account name beyond which the account is guarded: it may then be
    # tried only from addresses with fewer failed log-ins (of any account) than login_failures.
    "login_account": "20/hour",
    "login_failures": "5/hour",  # failed log-ins per address (see login_account)
    "signup": "5/hour",  # per address
    "password_reset": "10/hour",  # reset requests per address
    # Reset mails per e-mail address; more requests get the same answer and no mail.
    "password_reset_email": "3/hour",
    "attempts": "60/min",  # puzzle attempts opened
    "puzzle_judge": "60/min",  # moves judged in puzzle attempts, and solutions shown
    "puzzle_hints": "20/min",  # hints in puzzle attempts
    "puzzle_runs": "30/min",  # Puzzle Streak and Storm runs started (or resumed)
    "puzzle_run_moves": "180/min",  # moves, skips and stops in those runs
    "drafts": "60/hour",  # authored puzzles created
    "puzzle_submissions": "20/hour",  # authored puzzles sent to the prover
    "games": "30/hour",  # games started
    "game_moves": "120/min",  # moves, setups, takebacks
    "game_draws": "20/hour",  # draw offers (each one adds a search of the computer's)
    "game_actions": "30/min",  # resigning, answering a draw, claiming one, sharing a game
    "live_challenges": "30/hour",  # live games challenged (Play a friend) and accepted
    "live_seeks": "30/hour",  # lobby seeks made, per account (per address for visitors)
    "live_messages": "60/min",  # messages one live game's WebSocket connection sends
    "live_blocks": "30/hour",  # players blocked and unblocked (from a game's page, the profile)
    "setup_checks": "120/min",  # secret halves checked before they are handed in
    "positions": "240/min",  # positions analysed on the analysis board
    # the engine asked about a position of the analysis board: as soon as it is shown, then
    # again deeper (up to four questions a position)
    "engine_analysis": "60/min",
    "game_analysis": "20/hour",  # finished games handed to the computer for analysis
    "lesson_steps": "240/min",  # moves, answers and set-ups tried in lessons
    "position_checks": "120/min",  # the puzzle editor's live check
    "draft_edits": "300/hour",  # authored puzzles changed
    "logout": "30/min",
    "set_language": "30/min",
    # API reads (GET, HEAD) per client address, signed in or not: a page polling a game asks
    # about twice a second; raise it for a school whose pupils share one address.
    "reads": "1200/min",
    **dict(item.split("=", 1) for item in env_list("THROTTLE_RATES", [])),
}
# Puzzles waiting for the prover (being verified), site-wide, beyond which a submission is
# refused with "try again later"; each author has at most one of them.
PROVING_QUEUE_LIMIT = env_int("PROVING_QUEUE_LIMIT", 30)
# Of those, how many may come from one address (a flood from one address refuses no one else).
PROVING_ADDRESS_LIMIT = env_int("PROVING_ADDRESS_LIMIT", 3)
# Rated puzzle tries an account can end in a minute; past it, tries are accepted, unrated.
PUZZLE_RATED_PER_MINUTE = env_int("PUZZLE_RATED_PER_MINUTE", 5)
# The engine's node budget for the reply to a wrong move in a tactics puzzle
# (puzzles.tactics_refutation, measured in docs/puzzles.md).
PUZZLE_REFUTATION_NODES = env_int("PUZZLE_REFUTATION_NODES", 20_000)
# Views throttled by their URL name (an API view may also set ``throttle_scope``): API views by
# ``core.throttles.ScopedThrottle``, page views by ``core.middleware.PageThrottleMiddleware``.
# Only unsafe methods (POST, PATCH ...) count. Every unsafe endpoint has a scope
# (tests/security/test_every_endpoint_throttled.py).
THROTTLE_SCOPES_BY_URL_NAME = {
    "puzzles-api:attempt-open": "attempts",
    "puzzles-api:authored": "drafts",
    "puzzles-api:authored-submit": "puzzle_submissions",
    "puzzles-api:authored-detail": "draft_edits",
    "puzzles-api:position-check": "position_checks",
    "core-api:positions": "positions",
    "tutorials-api:step-moves": "lesson_steps",
    "tutorials-api:step-answer": "lesson_steps",
    "tutorials-api:step-setup": "lesson_steps",
    "tutorials-api:step-write": "lesson_steps",
    "accounts:logout": "logout",
    "accounts:password-reset-confirm": "password_reset",
    "set_language": "set_language",
    "live:new": "live_challenges",
    "live:accept": "live_challenges",
    "live:block": "live_blocks",
    "live:unblock": "live_blocks",
}
# Page views that count their own requests (per address and per account name), by URL name.
THROTTLE_SCOPES_COUNTED_BY_VIEW = {
    "accounts:login": "login",
    "accounts:signup": "signup",
    "accounts:password-reset": "password_reset",
    "admin-login": "login",
}
# --- Games: the computer's fair queue and idle games ---------------------------------------

# Games in progress (not finished, played in the last GAME_IDLE_MINUTES) one owner may have,
# and all the owners playing from one address together: a new game beyond is refused.
GAMES_OPEN_PER_OWNER = env_int("GAMES_OPEN_PER_OWNER", 10)
GAMES_OPEN_PER_ADDRESS = env_int("GAMES_OPEN_PER_ADDRESS", 30)
# The computer's moves one owner, and one address, may be waiting for at once: a move that
# would ask for one more is refused until the computer has answered.
COMPUTER_PENDING_PER_OWNER = env_int("COMPUTER_PENDING_PER_OWNER", 3)
COMPUTER_PENDING_PER_ADDRESS = env_int("COMPUTER_PENDING_PER_ADDRESS", 10)
# Engine searches of the analysis board waiting for a worker, per address (one per owner: the
# database says so; games.analysis); and analyses of finished games (games.game_analysis).
ANALYSIS_PENDING_PER_ADDRESS = 4
GAME_ANALYSIS_PENDING_PER_ADDRESS = 4
# Analyses (the board's searches, the chunks of finished games' analyses) the deep workers hold
# at once, from everyone together (games/queueing.py): fewer than the deep workers' processes,
# and a computer move always finds a process free of them.
ANALYSIS_SEARCHES_AT_ONCE = env_int("ANALYSIS_SEARCHES_AT_ONCE", 1)
# A poll of work still waiting runs the dispatcher (a lost turn is taken up) at most this often
# in each web process and family of work (games/queueing.py); it runs anyway after each commit
# that asks for work and each item done. 0: at every such poll.
POLL_DISPATCH_EVERY_SECONDS = 1.0
# Finished searches of the analysis board are a cache: kept this many days, then swept
# (games.engine_analysis_sweep, hourly); a failed or pending one goes after a day.
ANALYSIS_KEEP_DAYS = 30
# The computer's moves of one address the workers have at once (one per owner): the others
# wait their turn (games/queueing.py). Raise it for a school whose pupils share one address.
COMPUTER_SEARCHES_PER_ADDRESS = env_int("COMPUTER_SEARCHES_PER_ADDRESS", 1)
# The computer's moves at this level and above go to the playing_deep queue, whose workers
# run at a lower CPU priority: a flood of deep searches cannot slow the quick levels' replies.
COMPUTER_DEEP_LEVEL = env_int("COMPUTER_DEEP_LEVEL", 6)
# A game nobody has moved in for this long is over, as abandoned: the side to move loses.
GAME_IDLE_MINUTES = env_int("GAME_IDLE_MINUTES", 24 * 60)

# How many proxies in front of the site append to X-Forwarded-For (0: use REMOTE_ADDR).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)

# --- Celery ---------------------------------------------------------------------------------

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://localhost//")
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Web process and worker on one machine exchange messages through these folders, which
    # the worker looks at ten times a second (kombu's default is once a second).
    _broker_dir = VAR_DIR / "celery" / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "control_folder": str(_broker_dir / "control"),
        "processed_folder": str(_broker_dir / "processed"),
        "store_processed": False,
        "polling_interval": 0.1,
    }
    # kombu's file transport, with each message written whole before a worker can take it
    CELERY_BROKER_TRANSPORT = "core.filebroker:Transport"


def _default_result_backend(broker_url: str) -> str:
    if broker_url.startswith(("redis://", "rediss://")):
        return broker_url
    if broker_url.startswith(("amqp://", "amqps://", "pyamqp://")):
        return "rpc://"
    return f"file://{VAR_DIR / 'celery' / 'results'}"


CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", _default_result_backend(CELERY_BROKER_URL))
CELERY_QUEUE_PREFIX = env_str("CELERY_QUEUE_PREFIX", "") or ""
_queues = celery_queues(CELERY_QUEUE_PREFIX, env_str("CELERY_TASK_DEFAULT_QUEUE"))
CELERY_TASK_DEFAULT_QUEUE = _queues.default  # see config/settings/queues.py
CELERY_PROVING_QUEUE = _queues.proving
CELERY_SCORING_QUEUE = _queues.scoring
CELERY_PLAYING_QUEUE = _queues.playing
CELERY_PLAYING_DEEP_QUEUE = _queues.playing_deep
CELERY_MINING_QUEUE = _queues.mining
CELERY_REQUIRED_QUEUES = _queues.required
CELERY_TASK_QUEUES = _queues.queues
CELERY_TASK_ROUTES = _queues.routes
CELERY_TASK_DEFAULT_DELIVERY_MODE = "persistent"
if CELERY_BROKER_URL.startswith(("amqp://", "amqps://", "pyamqp://")):
    # The broker confirms each message once it holds it (on disk, for a durable queue).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"confirm_publish": True}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 60 * 60
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 5 * 60)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 6 * 60)
# Tasks opt in to acks_late one by one, where running twice is harmless.
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
if CELERY_BROKER_URL.startswith("filesystem://"):
    # A worker on the file broker acknowledges a finished task only between two looks at the
    # queue, and a look lasts two seconds while it holds as many unacknowledged messages as it
    # may: with one, it took a task every two seconds at best. With a few it goes on at once.
    # One worker reads every queue here, so a message it takes early waits for nobody else.
    CELERY_WORKER_PREFETCH_MULTIPLIER = 4
# A task cut off by a lost broker connection cannot be acknowledged any more: stop it, since the
# broker hands it out again.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# A task that ran out of time is not run again (a prover past its budget stays stopped).
CELERY_TASK_ACKS_ON_FAILURE_OR_TIMEOUT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

# --- Logging --------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # each live move's time inside the server, at DEBUG (bench/live_bench.py turns it on)
    "loggers": {"live.timing": {"level": env_str("LIVE_TIMING_LOG_LEVEL", "WARNING")}},
}
