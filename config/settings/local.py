"""Settings for running the site on one's own machine (``scripts/run``)."""

from config.settings.base import *  # noqa: F403
from config.settings.env import env_bool, env_list, env_str

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "local-only-secret-key-not-for-production-use-0123456789")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
