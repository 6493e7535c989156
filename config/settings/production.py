"""Settings for a deployed site: everything secret or host-specific must come from the environment.

Required: ``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL``, ``CELERY_BROKER_URL``
(RabbitMQ: ``amqp://user:pass@host:5672/vhost``, see docs/deployment.md).
Served behind a TLS-terminating proxy: set ``SECURE_PROXY_SSL_HEADER=1`` if it sends
``X-Forwarded-Proto``, and ``TRUSTED_PROXY_COUNT`` to the number of proxies that append to
``X-Forwarded-For`` (throttles count per client address).
Throttle counters go to ``CACHE_URL`` (Redis) or, unset, to the database table made by
``manage.py createcachetable``.
"""

from config.settings.base import *  # noqa: F403
from config.settings.base import CACHE_URL, cache_settings
from config.settings.env import env_bool, env_int, env_list, env_required

DEBUG = False
SECRET_KEY = env_required("SECRET_KEY")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
DATABASE_URL = env_required("DATABASE_URL")
CELERY_BROKER_URL = env_required("CELERY_BROKER_URL")
CACHES = cache_settings(CACHE_URL, "db")

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The API is JSON only in production; the schema has its own docs page.
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}
