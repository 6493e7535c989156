"""HEAD is answered wherever GET is (load balancers and uptime probes ask with HEAD): every
URL of the site without a path parameter, as a visitor and as a logged-in user, answers HEAD
with GET's status and no body."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db


def plain_urls() -> Iterator[str]:
    """Every URL of the site that takes no path parameter."""

    def walk(patterns: list[object], prefix: str) -> Iterator[str]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                route = str(pattern.pattern)
                if "<" not in route and not route.startswith("^"):
                    yield from walk(pattern.url_patterns, prefix + route)
            elif isinstance(pattern, URLPattern):
                route = str(pattern.pattern)
                if "<" not in route and not route.startswith("^"):
                    yield "/" + prefix + route

    yield from walk(get_resolver().url_patterns, "")


def test_every_url_answers_head_as_it_answers_get(django_user_model: object) -> None:
    urls = sorted(set(plain_urls()))
    assert {"/healthz", "/", "/puzzles/", "/api/puzzles/", "/accounts/login/"} <= set(urls)
    user = django_user_model.objects.create_user(username="prober", password="x")  # type: ignore[attr-defined]
    member = Client()
    member.force_login(user)
    wrong = []
    for client in (Client(), member):
        for url in urls:
            get = client.get(url)
            if get.status_code == 405:  # a URL for another method (log-out: POST only)
                continue
            head = client.head(url)
            if head.status_code != get.status_code or head.content:
                wrong.append(f"{url}: GET {get.status_code}, HEAD {head.status_code}")
    assert not wrong, wrong
