"""Settings for the test suite (pytest ``--ds=config.settings.test``).

The test command sets ``DATABASE_URL`` to PostgreSQL and ``CELERY_BROKER_URL`` to Redis when
they are reachable (CI requires both); without them tests use SQLite and the file broker.
"""

import uuid

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES, VAR_DIR, cache_settings
from config.settings.env import env_str
from config.settings.queues import celery_queues

DEBUG = False
SECRET_KEY = "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# The test worker (tests/conftest.py) writes the mails it sends as files in this folder, where
# the test process reads them.
TEST_EMAIL_DIR = env_str("TEST_EMAIL_DIR")
if TEST_EMAIL_DIR:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = TEST_EMAIL_DIR

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The same backend, emptied between transactional tests with DELETE instead of TRUNCATE
    # (about 20 ms instead of about 2 s a test: config/testing/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.testing.postgresql"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so that a Celery worker process can share the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# Serve static files straight from the apps and static/ (no collectstatic before tests).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Each test session sends its tasks to queues of its own, which the session's worker reads
# (tests/conftest.py passes the prefix on), so that sessions sharing a broker never mix.
CELERY_QUEUE_PREFIX = env_str("CELERY_QUEUE_PREFIX") or f"test-{uuid.uuid4().hex[:10]}."
_queues = celery_queues(CELERY_QUEUE_PREFIX, env_str("CELERY_TASK_DEFAULT_QUEUE"))
CELERY_TASK_DEFAULT_QUEUE = _queues.default
CELERY_PROVING_QUEUE = _queues.proving
CELERY_SCORING_QUEUE = _queues.scoring
CELERY_PLAYING_QUEUE = _queues.playing
CELERY_PLAYING_DEEP_QUEUE = _queues.playing_deep
CELERY_MINING_QUEUE = _queues.mining
CELERY_REQUIRED_QUEUES = _queues.required
CELERY_TASK_QUEUES = _queues.queues
CELERY_TASK_ROUTES = _queues.routes

# Throttle counters live in this process's memory; tests/conftest.py empties them before each
# test. The fault tests start the site on a private Redis instead (TEST_CACHE_URL), so that
# the cache, and the sessions in front of the database, work as in production.
TEST_CACHE_URL = env_str("TEST_CACHE_URL")
if TEST_CACHE_URL:
    CACHES = cache_settings(TEST_CACHE_URL, "memory")
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Tests start many games from one client, most of them never answered by a worker: the caps
# on open games and on the computer's pending moves are raised here, and the tests of those
# caps set them (tests/games/test_fair_queue.py).
GAMES_OPEN_PER_OWNER = GAMES_OPEN_PER_ADDRESS = 1000
COMPUTER_PENDING_PER_OWNER = COMPUTER_PENDING_PER_ADDRESS = 1000
# Most tests run no commit hooks, so polls are what hands work over: at every poll here, and
# the test of the limit sets it (tests/games/test_fair_queue.py).
POLL_DISPATCH_EVERY_SECONDS = 0.0
