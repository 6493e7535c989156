from django.apps import AppConfig


class ContentAppConfig(AppConfig):
    name = "tests.core.contentapp"
    label = "contentapp"
