from django.urls import path

from core import api

app_name = "core-api"

urlpatterns = [
    path("variants/", api.VariantListApi.as_view(), name="variants"),
    path("positions/", api.PositionAnalyseApi.as_view(), name="positions"),
]
