"""ASGI entry point: the pages (HTTP) and live games (WebSocket) in one application.

``gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker`` (scripts/run), or
``uvicorn config.asgi:application``. WebSockets open only from this site's own pages (the
Origin must be one of ``ALLOWED_HOSTS``) and know the visitor by the session cookie.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
# Served by ASGI: the settings keep no database connection past its request or message
# (config/settings/base.py, DATABASE_CONN_MAX_AGE).
os.environ.setdefault("ASGI_SERVER", "1")

# Django is set up before anything imports a model (the consumers do).
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
