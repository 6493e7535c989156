"""The site's URLs. Each app keeps its own ``urls.py`` (pages) and, where it has an API,
``api_urls.py`` (JSON under ``/api/``)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core import views as core_views

urlpatterns = [
    path("", include("core.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("tutorials.urls")),
    path("", include("puzzles.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", core_views.healthz, name="healthz"),
    path("api/", include("core.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]
