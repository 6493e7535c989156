"""The site's URLs, one convention for every app: ``<app>/urls.py`` holds its pages
(``app_name = "<app>"``) and, where it has an API, ``<app>/api_urls.py`` its JSON views
(``app_name = "<app>-api"``); both are included here, under the app's prefix and under
``/api/<prefix>/``. A new endpoint is one line in its app's ``api_urls.py``."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import views as accounts_views
from core import views as core_views

urlpatterns = [
    path("", include("pages.urls")),
    path("", include("core.urls")),
    path("accounts/", include("accounts.urls")),
    path("learn/", include("tutorials.urls")),
    path("puzzles/", include("puzzles.urls")),
    path("play/live/", include("live.urls")),
    path("play/", include("games.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", core_views.healthz, name="healthz"),
    path("healthz/full", core_views.healthz_full, name="healthz-full"),
    # Browsers and feed readers ask for /favicon.ico whatever the page links.
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("api/", include("core.api_urls")),
    path("api/learn/", include("tutorials.api_urls")),
    path("api/puzzles/", include("puzzles.api_urls")),
    path("api/games/", include("games.api_urls")),
    path("api/", include("pages.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its set-up script as a file: no inline script (Content-Security-Policy).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # Ahead of the admin's own log-in page: the same log-in limits as the site's.
    path("admin/login/", accounts_views.admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
]

# Under /api/ every error answers in the API's JSON shape; database unavailable -> 503.
handler400 = "core.views.bad_request"
handler403 = "core.views.permission_denied"
handler404 = "core.views.page_not_found"
handler500 = "core.views.server_error"
