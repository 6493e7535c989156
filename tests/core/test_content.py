"""``manage.py load_content`` runs every installed app's content loader."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import modify_settings

from core.content_loaders import content_loader_list
from tests.core.contentapp import content as test_content


def run(*args: str) -> str:
    out = StringIO()
    call_command("load_content", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_load_content_runs_with_the_installed_apps() -> None:
    loaders = content_loader_list()
    output = run()
    if loaders:
        assert [line.split(":")[0] for line in output.splitlines()] == [
            loader.app_label for loader in loaders
        ]
    else:
        assert output.strip() == "No content to load."


@pytest.mark.django_db
@modify_settings(INSTALLED_APPS={"append": "tests.core.contentapp"})
def test_load_content_calls_each_loader_found() -> None:
    test_content.calls.clear()
    assert "contentapp" in [loader.app_label for loader in content_loader_list()]
    output = run()
    assert "contentapp: 1 call(s)" in output
    assert run("contentapp").strip() == "contentapp: 2 call(s)"
    assert test_content.calls == ["load", "load"]


def test_apps_without_a_loader_are_skipped() -> None:
    labels = [loader.app_label for loader in content_loader_list()]
    assert "core" not in labels and "accounts" not in labels
