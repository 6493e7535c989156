"""Settings for running the site on one's own machine (``scripts/run``)."""

from config.settings.base import *  # noqa: F403
from config.settings.env import env_bool, env_list, env_str

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "local-only-secret-key-not-for-production-use-0123456789")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

# Password-reset mails: SMTP with EMAIL_HOST (base), files in EMAIL_FILE_PATH, else the console.
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH")
if not env_str("EMAIL_BACKEND") and not env_str("EMAIL_HOST"):
    EMAIL_BACKEND = (
        "django.core.mail.backends.filebased.EmailBackend"
        if EMAIL_FILE_PATH
        else "django.core.mail.backends.console.EmailBackend"
    )
