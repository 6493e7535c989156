"""Log-in and sign-up are throttled: per client address, and log-in per account name too.

The rates here are per day, so that no counting window ends in the middle of a test."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, override_settings

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"


@override_settings(THROTTLE_RATES={"login": "3/day", "login_account": "100/day"})
def test_log_in_is_throttled_per_address(client: Client) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    for _ in range(3):
        assert (
            client.post("/accounts/login/", {"username": "hong", "password": "x"}).status_code
            == 200
        )
    refused = client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session  # even the right password waits
    # Another address is not affected.
    other = Client(REMOTE_ADDR="10.1.2.3")
    assert (
        other.post("/accounts/login/", {"username": "hong", "password": PASSWORD}).status_code
        == 302
    )


@override_settings(THROTTLE_RATES={"login": "100/day", "login_account": "2/day"})
def test_log_in_is_throttled_per_account_from_any_address() -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    for address in ("10.0.0.1", "10.0.0.2"):
        response = Client(REMOTE_ADDR=address).post(
            "/accounts/login/", {"username": "hong", "password": "guess"}
        )
        assert response.status_code == 200
    refused = Client(REMOTE_ADDR="10.0.0.3").post(
        "/accounts/login/", {"username": "HONG ", "password": "guess"}
    )
    assert refused.status_code == 429
    # Other accounts can still log in from there.
    User.objects.create_user(username="ming", password=PASSWORD)
    response = Client(REMOTE_ADDR="10.0.0.3").post(
        "/accounts/login/", {"username": "ming", "password": PASSWORD}
    )
    assert response.status_code == 302


def test_the_admin_log_in_is_throttled_by_default() -> None:
    """25 wrong passwords on /admin/login/ from one address: refused after the log-in rate."""
    User.objects.create_superuser(username="boss", password=PASSWORD)
    client = Client()
    statuses = [
        client.post("/admin/login/", {"username": "boss", "password": f"guess{i}"}).status_code
        for i in range(25)
    ]
    assert 429 in statuses
    limit = int(settings.THROTTLE_RATES["login"].split("/")[0])
    assert statuses[:limit] == [200] * limit and set(statuses[limit:]) == {429}


@override_settings(THROTTLE_RATES={"login": "3/day", "login_account": "100/day"})
def test_the_admin_log_in_counts_with_the_site_log_in_per_address() -> None:
    User.objects.create_superuser(username="boss", password=PASSWORD)
    client = Client()
    wrong = {"username": "boss", "password": "guess"}
    assert client.post("/admin/login/", wrong).status_code == 200
    assert client.post("/accounts/login/", wrong).status_code == 200
    assert client.post("/admin/login/", wrong).status_code == 200
    refused = client.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session  # even the right password waits
    assert client.post("/accounts/login/", wrong).status_code == 429
    assert client.get("/admin/login/").status_code == 200  # the form still shows
    # Another address logs in to the admin.
    other = Client(REMOTE_ADDR="10.1.2.3")
    response = other.post("/admin/login/", {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302
    assert other.get("/admin/").status_code == 200


@override_settings(THROTTLE_RATES={"login": "100/day", "login_account": "2/day"})
def test_the_admin_log_in_is_throttled_per_account_from_any_address() -> None:
    User.objects.create_superuser(username="boss", password=PASSWORD)
    for address in ("10.0.0.1", "10.0.0.2"):
        response = Client(REMOTE_ADDR=address).post(
            "/admin/login/", {"username": "boss", "password": "guess"}
        )
        assert response.status_code == 200
    refused = Client(REMOTE_ADDR="10.0.0.3").post(
        "/admin/login/", {"username": "Boss", "password": PASSWORD}
    )
    assert refused.status_code == 429


@override_settings(THROTTLE_RATES={"signup": "2/day"})
def test_sign_up_is_throttled_per_address() -> None:
    for name in ("a1", "a2"):
        client = Client()
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        assert client.post("/accounts/signup/", data).status_code == 302
    data = {"username": "a3", "password1": PASSWORD, "password2": PASSWORD}
    refused = Client().post("/accounts/signup/", data)
    assert refused.status_code == 429
    assert not User.objects.filter(username="a3").exists()
    assert Client().get("/accounts/signup/").status_code == 200  # the form still shows


def test_the_default_rates_are_set() -> None:
    from django.conf import settings

    for scope in (
        "login",
        "login_account",
        "signup",
        "password_reset",
        "password_reset_email",
        "attempts",
        "puzzle_submissions",
    ):
        assert settings.THROTTLE_RATES[scope]
