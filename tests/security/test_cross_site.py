"""Other sites' pages cannot make their visitors' browsers act on the API.

A form posted from a page elsewhere carries no session cookie of ours (SameSite) and so needed
no CSRF token: ``<form action="https://site/api/games/" method=post>`` started a level-8 game
from each visitor's address. The API now reads JSON only (a form, multipart or plain-text body
is a 415, whether or not the endpoint reads a body) and refuses every unsafe request whose
``Origin`` (or, over HTTPS without one, ``Referer``) is another site's, with a clear 403.
Programs that send neither header, and the site's own pages, are served as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings

from games.models import Game

pytestmark = pytest.mark.django_db

GAMES = "/api/games/"
EVIL = "http://evil.example"


def post_json(client: Client, url: str, body: Any, *, secure: bool = False, **headers: str) -> Any:
    return client.post(
        url, json.dumps(body), content_type="application/json", headers=headers, secure=secure
    )


def code(response: Any) -> str:
    return str(response.json()["error"]["code"])


def test_a_form_posted_from_another_site_starts_no_game() -> None:
    refused = Client().post(
        GAMES,
        "variant=xiangqi&level=8&side=black",
        content_type="application/x-www-form-urlencoded",
        headers={"Origin": EVIL},
    )
    assert refused.status_code == 403 and code(refused) == "foreign_origin"
    assert "来自别的网站" in refused.json()["error"]["message"]  # the site's language
    english = post_json(Client(), GAMES, {}, Origin=EVIL, **{"Accept-Language": "en"})
    assert "comes from another site" in english.json()["error"]["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"],
)
def test_the_api_reads_json_only(content_type: str) -> None:
    """What a page elsewhere can send without the browser asking us first is never read."""
    body = {
        "application/x-www-form-urlencoded": "variant=xiangqi&level=8&side=black",
        "multipart/form-data; boundary=x": (
            '--x\r\nContent-Disposition: form-data; name="variant"\r\n\r\nxiangqi\r\n--x--\r\n'
        ),
        "text/plain": json.dumps({"variant": "xiangqi", "level": 8}),
    }[content_type]
    refused = Client().post(GAMES, body, content_type=content_type)
    assert refused.status_code == 415 and code(refused) == "unsupported_media_type"
    assert "JSON" in refused.json()["error"]["message"]
    assert not Game.objects.exists()


def test_an_endpoint_without_a_body_refuses_a_form_too() -> None:
    client = Client()
    game = post_json(client, GAMES, {"variant": "xiangqi", "level": 1})
    assert game.status_code == 201
    url = f"{GAMES}{game.json()['id']}/resign/"
    # a form with no fields, as a browser sends it: a Content-Type, an empty body
    form = "application/x-www-form-urlencoded"
    refused = client.generic("POST", url, "", CONTENT_TYPE=form, CONTENT_LENGTH="0")
    assert refused.status_code == 415
    assert client.post(url, "x=1", content_type=form).status_code == 415
    assert Game.objects.get().status == Game.Status.PLAYING
    assert client.post(url).status_code == 415  # the test client's empty multipart body
    # No body: no Content-Type (a program), or text/plain as some servers fill in for none
    # (wsgiref does, for the browser's fetch without a body): read as no body.
    resigned = client.generic("POST", url)
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"
    again = client.generic("POST", url, "", CONTENT_TYPE="text/plain", CONTENT_LENGTH="0")
    assert again.status_code == 400  # read, and refused: the game is over


def test_json_from_another_site_is_refused_with_or_without_a_session() -> None:
    assert post_json(Client(), GAMES, {"variant": "xiangqi"}, Origin=EVIL).status_code == 403
    assert post_json(Client(), GAMES, {"variant": "xiangqi"}, Origin="null").status_code == 403
    visitor = Client()
    assert post_json(visitor, GAMES, {"variant": "xiangqi", "level": 1}).status_code == 201
    refused = post_json(visitor, GAMES, {"variant": "xiangqi"}, Origin=EVIL)
    assert refused.status_code == 403 and code(refused) == "foreign_origin"
    assert Game.objects.count() == 1


def test_the_site_s_own_origin_and_programs_are_served() -> None:
    body = {"variant": "xiangqi", "level": 1}
    assert post_json(Client(), GAMES, body).status_code == 201  # no Origin: a program
    own = post_json(Client(), GAMES, body, Origin="http://testserver")
    assert own.status_code == 201
    # over HTTPS the scheme is part of the origin
    secure = {"secure": True}
    assert (
        post_json(Client(), GAMES, body, Origin="https://testserver", **secure).status_code == 201
    )
    assert post_json(Client(), GAMES, body, Origin="http://testserver", **secure).status_code == 403
    assert Game.objects.count() == 3


def test_over_https_a_foreign_referer_is_refused_when_there_is_no_origin() -> None:
    body = {"variant": "xiangqi", "level": 1}
    refused = post_json(Client(), GAMES, body, secure=True, Referer=f"{EVIL}/page")
    assert refused.status_code == 403 and code(refused) == "foreign_origin"
    own = post_json(Client(), GAMES, body, secure=True, Referer="https://testserver/play/")
    assert own.status_code == 201
    # over plain HTTP a Referer says little (proxies drop or rewrite it): only Origin counts
    assert post_json(Client(), GAMES, body, Referer=f"{EVIL}/page").status_code == 201


@override_settings(CSRF_TRUSTED_ORIGINS=["https://*.example.org", "https://partner.example"])
def test_trusted_origins_count_as_the_site_s_own() -> None:
    body = {"variant": "xiangqi", "level": 1}
    for origin in ("https://app.example.org", "https://partner.example"):
        assert post_json(Client(), GAMES, body, Origin=origin).status_code == 201
    for origin in ("https://example.org.evil.example", "http://app.example.org"):
        assert post_json(Client(), GAMES, body, Origin=origin).status_code == 403


def test_the_site_s_forms_refuse_another_site_s_origin() -> None:
    """The pages' forms (log in ...) are guarded by Django's CSRF middleware, Origin included."""
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    token = client.cookies["csrftoken"].value
    data = {"username": "x", "password": "y", "csrfmiddlewaretoken": token}
    assert client.post("/accounts/login/", data, headers={"Origin": EVIL}).status_code == 403
    own = client.post("/accounts/login/", data, headers={"Origin": "http://testserver"})
    assert own.status_code == 200  # the form again, with its error: a wrong password
