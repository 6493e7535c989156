"""Settings for the test suite (pytest ``--ds=config.settings.test``).

The test command sets ``DATABASE_URL`` to PostgreSQL and ``CELERY_BROKER_URL`` to Redis when
they are reachable (CI requires both); without them tests use SQLite and the file broker.
"""

import uuid

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES, VAR_DIR
from config.settings.env import env_str

DEBUG = False
SECRET_KEY = "test-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "testserver"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, so that a Celery worker process can share the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# Serve static files straight from the apps and static/ (no collectstatic before tests).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Each test session sends its tasks to a queue of its own, which the session's worker reads
# (tests/conftest.py passes the name on), so that sessions sharing a broker never mix.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE") or f"test-{uuid.uuid4().hex[:10]}"
