"""The site's security settings: `check --deploy`, password hashing, cookies, the
Content-Security-Policy, and CSRF on every state-changing form and API call."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher, check_password, make_password
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

from accounts.models import User
from core.authentication import SessionAuthentication

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-pass-phrase-42"
BASE_HASHERS = [
    "accounts.hashers.Argon2idPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]


def production_environment() -> dict[str, str]:
    # The test command relaxes Django's async safety for Playwright; a deployment never does.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {
        **inherited,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "xiangqi.example.org",
        "DATABASE_URL": "postgres://site@db.example.org:5432/xiangqi",
        "CELERY_BROKER_URL": "amqp://site:secret@broker.example.org:5672/xiangqi",
    }


def run_with_production_settings(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=production_environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = run_with_production_settings(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_harden_cookies_transport_and_hashing() -> None:
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k) for k in ["
        "'DEBUG', 'SESSION_COOKIE_SECURE', 'SESSION_COOKIE_HTTPONLY', 'SESSION_COOKIE_SAMESITE', "
        "'CSRF_COOKIE_SECURE', 'CSRF_COOKIE_SAMESITE', 'SECURE_SSL_REDIRECT', "
        "'SECURE_HSTS_SECONDS', 'SECURE_CONTENT_TYPE_NOSNIFF', 'X_FRAME_OPTIONS', "
        "'PASSWORD_HASHERS', 'CONTENT_SECURITY_POLICY', 'CELERY_BROKER_TRANSPORT_OPTIONS', "
        "'CELERY_TASK_DEFAULT_DELIVERY_MODE']} | {'cache': s.CACHES['default']['BACKEND']}, "
        "default=str))"
    )
    result = run_with_production_settings("-c", script)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["SESSION_COOKIE_HTTPONLY"]
    assert values["CSRF_COOKIE_SECURE"]
    assert values["SESSION_COOKIE_SAMESITE"] == values["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert values["SECURE_SSL_REDIRECT"] and values["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] and values["X_FRAME_OPTIONS"] == "DENY"
    assert values["PASSWORD_HASHERS"] == BASE_HASHERS
    assert values["CONTENT_SECURITY_POLICY"]["script-src"] == ["'self'"]
    # Throttle counters are shared by every web process (the database, or Redis).
    assert values["cache"] == "django.core.cache.backends.db.DatabaseCache"
    # RabbitMQ confirms each persistent message before the site goes on.
    assert values["CELERY_BROKER_TRANSPORT_OPTIONS"] == {"confirm_publish": True}
    assert values["CELERY_TASK_DEFAULT_DELIVERY_MODE"] == "persistent"


@pytest.mark.django_db
@override_settings(PASSWORD_HASHERS=BASE_HASHERS)
def test_passwords_are_hashed_with_argon2id_and_old_hashes_are_upgraded(client: Client) -> None:
    user = User.objects.create_user(username="hong", password=PASSWORD)
    assert user.password.startswith("argon2$argon2id$")
    assert PASSWORD not in user.password
    old = User.objects.create_user(username="old")
    old.password = make_password(PASSWORD, hasher="pbkdf2_sha256")
    old.save()
    assert (
        client.post("/accounts/login/", {"username": "old", "password": PASSWORD}).status_code
        == 302
    )
    old.refresh_from_db()
    assert old.password.startswith("argon2$argon2id$") and check_password(PASSWORD, old.password)


@pytest.mark.django_db
@override_settings(PASSWORD_HASHERS=BASE_HASHERS)
def test_passwords_use_owasp_argon2id_parameters_and_other_argon2_hashes_are_rehashed(
    client: Client,
) -> None:
    user = User.objects.create_user(username="ming", password=PASSWORD)
    assert "$v=19$m=19456,t=2,p=1$" in user.password
    # A hash made with Django's default Argon2 parameters still logs in, and is rehashed.
    user.password = make_password(PASSWORD, hasher=Argon2PasswordHasher())
    user.save()
    assert "$m=102400,t=2,p=8$" in user.password
    assert (
        client.post("/accounts/login/", {"username": "ming", "password": PASSWORD}).status_code
        == 302
    )
    user.refresh_from_db()
    assert "$v=19$m=19456,t=2,p=1$" in user.password
    assert not client.login(username="ming", password="wrong-pass-phrase-42")


# --- Headers and cookies ----------------------------------------------------------------------

PAGES = ["/", "/analysis/", "/accounts/login/", "/accounts/signup/", "/learn/", "/puzzles/"]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
EVENT_ATTRIBUTE = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


@pytest.mark.django_db
@pytest.mark.parametrize("url", [*PAGES, "/api/variants/", "/api/docs/", "/healthz"])
def test_every_answer_carries_the_security_headers(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code in (200, 503), url
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-eval" not in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
@pytest.mark.parametrize("url", [*PAGES, "/api/docs/"])
def test_pages_run_no_inline_script(client: Client, url: str) -> None:
    """The policy allows scripts from files only: no page may rely on an inline one."""
    html = client.get(url, follow=True).content.decode()
    assert not INLINE_SCRIPT.findall(html), url
    assert not EVENT_ATTRIBUTE.findall(html), url


@pytest.mark.django_db
def test_session_and_csrf_cookies(client: Client) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    client.get("/accounts/login/")
    response = client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    session = response.cookies["sessionid"]
    assert session["httponly"] and session["samesite"] == "Lax"
    csrf = client.cookies["csrftoken"]
    assert csrf["samesite"] == "Lax"


# --- CSRF -------------------------------------------------------------------------------------


def url_patterns(
    resolver: URLResolver | None = None, prefix: str = ""
) -> Iterator[tuple[str, Any]]:
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            yield from url_patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def test_only_api_views_skip_the_csrf_middleware_and_they_check_csrf_themselves() -> None:
    """Pages are all behind CsrfViewMiddleware; API views (exempt from it by design) all use
    the session authentication that checks the token whenever a session comes along."""
    checked = 0
    for route, callback in url_patterns():
        view_class = getattr(callback, "cls", None)
        if view_class is not None and issubclass(view_class, APIView):
            for authentication in view_class().get_authenticators():
                assert isinstance(authentication, SessionAuthentication), (route, authentication)
            checked += 1
        elif getattr(callback, "csrf_exempt", False):
            pytest.fail(f"{route} ({callback.__module__}.{callback.__name__}) is csrf_exempt")
    assert checked >= 5


@pytest.fixture
def strict_client() -> Client:
    return Client(enforce_csrf_checks=True)


def csrf_token(client: Client) -> str:
    client.get("/accounts/login/")
    return str(client.cookies["csrftoken"].value)


FORMS = [
    ("/accounts/signup/", {"username": "ming", "password1": PASSWORD, "password2": PASSWORD}),
    ("/accounts/login/", {"username": "hong", "password": PASSWORD}),
    ("/i18n/setlang/", {"language": "en", "next": "/"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("url", "data"), FORMS)
def test_forms_refuse_a_post_without_the_csrf_token(
    strict_client: Client, url: str, data: dict[str, str]
) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    assert strict_client.post(url, data).status_code == 403
    data = {**data, "csrfmiddlewaretoken": csrf_token(strict_client)}
    assert strict_client.post(url, data).status_code == 302


@pytest.mark.django_db
def test_log_out_needs_the_csrf_token(strict_client: Client) -> None:
    strict_client.force_login(User.objects.create_user(username="hong", password=PASSWORD))
    assert strict_client.post("/accounts/logout/").status_code == 403
    assert strict_client.get("/accounts/profile/").status_code == 200
    token = csrf_token(strict_client)
    assert (
        strict_client.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    )
    assert strict_client.get("/accounts/profile/").status_code == 302


def unsafe_operations() -> list[tuple[str, str]]:
    """Every state-changing operation in the API's schema, path parameters filled in."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = []
    for path, methods in schema["paths"].items():
        for method in methods:
            if method in {"post", "put", "patch", "delete"}:
                operations.append((method, re.sub(r"\{[^}]+\}", "1", path)))
    return sorted(operations)


def test_the_api_has_state_changing_operations() -> None:
    assert ("post", "/api/positions/") in unsafe_operations()


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), unsafe_operations())
def test_session_api_calls_need_the_csrf_token(
    strict_client: Client, method: str, path: str
) -> None:
    """A logged-in user's call, and an anonymous visitor's call that carries a session,
    is refused without the token (403), whatever the operation; with the token it is not."""
    send = getattr(strict_client, method)
    # An anonymous visitor with a session (visitor progress lives there).
    session = strict_client.session
    session["visitor_id"] = "v" * 32
    session.save()
    token = csrf_token(strict_client)
    refused = send(path, data="{}", content_type="application/json")
    assert refused.status_code == 403, (path, refused.content[:300])
    assert "CSRF" in refused.json()["error"]["message"]
    allowed = send(path, data="{}", content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code != 403 or "CSRF" not in allowed.json()["error"]["message"]
    # A logged-in user.
    strict_client.force_login(User.objects.create_user(username="hong", password=PASSWORD))
    token = csrf_token(strict_client)
    refused = send(path, data="{}", content_type="application/json")
    assert refused.status_code == 403, (path, refused.content[:300])
    assert "CSRF" in refused.json()["error"]["message"]
    allowed = send(path, data="{}", content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert allowed.status_code != 403 or "CSRF" not in allowed.json()["error"]["message"]


@pytest.mark.django_db
def test_programs_without_a_session_need_no_token(strict_client: Client) -> None:
    """The public position API changes no one's data: a call without cookies is served."""
    response = strict_client.post(
        "/api/positions/", data='{"variant": "xiangqi"}', content_type="application/json"
    )
    assert response.status_code == 200
