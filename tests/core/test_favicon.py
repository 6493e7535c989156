"""The site has an icon: every page links it, the file is served, and /favicon.ico (which
browsers ask for whatever a page links) leads to it instead of a 404."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db

PAGES = ["/", "/analysis/", "/learn/", "/puzzles/", "/puzzles/daily/", "/accounts/login/"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_links_the_icon(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    found = re.search(r'<link rel="icon" href="/static/([^"]+)" type="image/svg\+xml">', page)
    assert found, path
    icon = finders.find(found.group(1))
    assert icon, found.group(1)
    with open(icon, encoding="utf-8") as file:
        assert file.read().lstrip().startswith("<svg")


def test_favicon_ico_leads_to_the_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/img/favicon.svg"
    assert finders.find("img/favicon.svg")
