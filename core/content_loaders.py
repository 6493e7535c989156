"""Finding the content loaders of the installed apps.

An app that ships content (lessons, puzzles ...) gives it a loader: a module ``<app>/content.py``
with a function ``load_content() -> str``, which puts the app's shipped content into the
database and returns a one-line summary. A loader must be idempotent: ``scripts/run`` calls
every loader on every start, through ``manage.py load_content``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.apps import AppConfig, apps

LOADER_MODULE = "content"
LOADER_FUNCTION = "load_content"


@dataclass(frozen=True)
class ContentLoader:
    app_label: str
    load: Callable[[], str | None]


def content_loader_list(app_configs: Iterable[AppConfig] | None = None) -> list[ContentLoader]:
    """The loaders of the given (default: all installed) apps, in INSTALLED_APPS order."""
    loaders = []
    for config in app_configs if app_configs is not None else apps.get_app_configs():
        module_name = f"{config.name}.{LOADER_MODULE}"
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        load = getattr(module, LOADER_FUNCTION, None)
        if callable(load):
            loaders.append(ContentLoader(app_label=config.label, load=load))
    return loaders
