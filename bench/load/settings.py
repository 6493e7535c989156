"""Settings of the load benchmark: the production settings, served over plain HTTP on the
loopback (no TLS redirect, cookies without the Secure flag), static files collected into
``var/load/static``. Everything else (DEBUG off, Argon2, throttles, the database cache,
RabbitMQ with confirms) is production's."""

from config.settings.production import *  # noqa: F403
from config.settings.production import VAR_DIR

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STATIC_ROOT = VAR_DIR / "load" / "static"
