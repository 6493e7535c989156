"""Every unsafe endpoint (POST, PUT, PATCH, DELETE of every API and page view) is throttled.

The first test walks the URL resolver: an endpoint that accepts an unsafe method and has no
throttle scope with a rate fails it, so a new endpoint cannot arrive without one. The admin's
pages are left out: only staff reach them, through the throttled admin log-in. The others show
the scopes at work: the game's actions and the pages' forms answer 429 past their rate.
Rates per day here, so that no counting window ends during a test."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.models import User
from core.throttles import parse_rate, view_scopes
from tests.games.conftest import post

pytestmark = pytest.mark.django_db

UNSAFE = ("post", "put", "patch", "delete")
# Staff-only: the admin's pages, reached through the admin log-in (throttled as "login").
EXEMPT_NAMESPACES = ("admin",)


def _endpoints(
    resolver: URLResolver, prefix: str = "", namespaces: tuple[str, ...] = ()
) -> Iterator[tuple[str, str, Any, tuple[str, ...]]]:
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            inner = (*namespaces, pattern.namespace) if pattern.namespace else namespaces
            yield from _endpoints(pattern, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = ":".join((*namespaces, pattern.name)) if pattern.name else ""
            yield prefix + str(pattern.pattern), name, pattern.callback, namespaces


def _example_path(route: str) -> str:
    """A path the route matches: each converter filled with a sample value."""
    return "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: "1" if m.group(1) == "int" else "x", route)


def _unsafe_methods(route: str, view: Any, client: Client) -> list[str]:
    """The unsafe methods a view accepts: a class view's handlers, or, for a function view,
    the methods it does not answer 405 to (asked by a signed-in user, who gets past a page's
    log-in)."""
    cls = getattr(view, "view_class", None) or getattr(view, "cls", None)
    if cls is not None:
        allowed = getattr(cls, "http_method_names", UNSAFE)
        return [m for m in UNSAFE if m in allowed and hasattr(cls, m)]
    path = _example_path(route)
    return [m for m in UNSAFE if getattr(client, m)(path).status_code != 405]


def test_every_unsafe_endpoint_has_a_throttle_scope_with_a_rate() -> None:
    missing, unknown, seen = [], [], 0
    client = Client()
    client.force_login(User.objects.create_user(username="walker", password="x"))
    for route, name, view, namespaces in _endpoints(get_resolver()):
        if set(namespaces) & set(EXEMPT_NAMESPACES):
            continue
        methods = _unsafe_methods(route, view, client)
        if not methods:
            continue
        seen += 1
        scopes = view_scopes(name, getattr(view, "view_class", None) or getattr(view, "cls", view))
        if not scopes:
            missing.append(f"/{route} ({name or 'no URL name'}): {', '.join(methods)}")
        unknown += [
            f"/{route}: {scope}" for scope in scopes if scope not in settings.THROTTLE_RATES
        ]
    assert seen >= 25  # the walk found the site's forms and API operations
    assert not missing, "unsafe endpoints without a throttle scope:\n" + "\n".join(missing)
    assert not unknown, "throttle scopes without a rate:\n" + "\n".join(unknown)
    for rate in settings.THROTTLE_RATES.values():
        parse_rate(rate)


def test_the_walk_notices_an_endpoint_without_a_scope() -> None:
    """The check above is not vacuous: a view of the list with its scope taken away has none."""
    from games.api import GameResignApi

    class Unscoped(GameResignApi):
        throttle_scope = None

    assert view_scopes("games-api:resign", GameResignApi) == ["game_actions"]
    assert view_scopes("games-api:resign", Unscoped) == []


ACTIONS = {
    "resign": ("game_actions", {}),
    "draw": ("game_draws", {}),
    "draw/answer": ("game_actions", {"accept": False}),
    "claim": ("game_actions", {}),
    "takeback": ("game_moves", {}),
    "share": ("game_actions", {}),
}


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_each_action_on_a_game_is_throttled(action: str) -> None:
    """Refused or not (an answer to no offer, a claim that the rule does not allow), each
    request counts; past the rate the answer is 429 and the game is unchanged."""
    scope, body = ACTIONS[action]
    client = Client()
    with override_settings(THROTTLE_RATES={**settings.THROTTLE_RATES, scope: "1/day"}):
        game = post(client, "/api/games/", {"variant": "xiangqi", "level": 1}).json()
        url = f"/api/games/{game['id']}/{action}/"
        assert post(client, url, body).status_code != 429
        before = client.get(f"/api/games/{game['id']}/").json()
        refused = post(client, url, body)
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        after = client.get(f"/api/games/{game['id']}/").json()
    assert (after["status"], after["moves"], after["draw_offer"]) == (
        before["status"],
        before["moves"],
        before["draw_offer"],
    )


@override_settings(
    THROTTLE_RATES={**settings.THROTTLE_RATES, "set_language": "2/day", "logout": "1/day"}
)
def test_page_forms_are_throttled_by_their_url_name() -> None:
    client = Client()
    language = [client.post("/i18n/setlang/", {"language": "zh-hans"}) for _ in range(3)]
    assert [r.status_code for r in language] == [302, 302, 429]
    assert int(language[2]["Retry-After"]) > 0
    assert client.post("/accounts/logout/").status_code == 302
    assert client.post("/accounts/logout/").status_code == 429
    assert Client(REMOTE_ADDR="10.9.8.7").post("/accounts/logout/").status_code == 302


@override_settings(THROTTLE_RATES={**settings.THROTTLE_RATES, "live_blocks": "2/day"})
def test_blocking_and_unblocking_players_are_throttled_together() -> None:
    user = User.objects.create_user(username="blocker", password="a-long-test-password")
    client = Client()
    client.force_login(user)
    answers = [
        client.post("/play/live/nosuchgame/block/"),
        client.post("/play/live/blocks/99999/unblock/"),
        client.post("/play/live/blocks/99999/unblock/"),
    ]
    assert [r.status_code for r in answers] == [404, 404, 429]
    assert int(answers[2]["Retry-After"]) > 0
