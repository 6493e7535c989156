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


GUARDED = {"login": "100/day", "login_account": "20/day", "login_failures": "5/day"}


def wrong(path: str, address: str, username: str = "hong") -> int:
    client = Client(REMOTE_ADDR=address)
    return int(client.post(path, {"username": username, "password": "guess"}).status_code)


@override_settings(THROTTLE_RATES=GUARDED)
@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_nobody_locks_the_owner_out_of_their_account(path: str) -> None:
    """21 wrong log-ins for a victim's name from one address made the victim's right password
    a 429 from every address, in any letter case, on the admin's log-in too."""
    User.objects.create_superuser(username="hong", password=PASSWORD)
    attacker = "10.6.6.6"
    statuses = [wrong(path, attacker, name) for name in ["hong", "HONG", "Hong "] * 7]
    # 20 failures make the account guarded; the guesser's address, with failures of its
    # own, is refused from then on (and by the per-address rate of tries before that).
    assert statuses[:20] == [200] * 20 and statuses[20:] == [429]
    # The owner, from their own address, gets in.
    owner = Client(REMOTE_ADDR="10.1.1.1")
    assert owner.post(path, {"username": "hong", "password": PASSWORD}).status_code == 302
    # The guesser's address is refused even the right password while the account is guarded.
    right = Client(REMOTE_ADDR=attacker).post(path, {"username": "hong", "password": PASSWORD})
    assert right.status_code == 429 and int(right["Retry-After"]) >= 1


@override_settings(THROTTLE_RATES=GUARDED)
def test_a_guarded_account_gives_each_address_few_guesses() -> None:
    """Many addresses: each new one may guess until it has failed login_failures times."""
    User.objects.create_user(username="hong", password=PASSWORD)
    for number in range(4):  # 20 failures from four addresses: the account is now guarded
        assert {wrong("/accounts/login/", f"10.0.0.{number}") for _ in range(5)} == {200}
    assert wrong("/accounts/login/", "10.0.0.0") == 429  # an address with failures
    fresh = [wrong("/accounts/login/", "10.0.1.1") for _ in range(6)]
    assert fresh == [200] * 5 + [429]
    # Another account is tried from the failing address as usual (the per-address rate of
    # tries still bounds it), and unguarded accounts are never refused for failures.
    User.objects.create_user(username="ming", password=PASSWORD)
    other = Client(REMOTE_ADDR="10.0.0.0")
    assert other.post("/accounts/login/", {"username": "ming", "password": "x"}).status_code == 200
    response = other.post("/accounts/login/", {"username": "ming", "password": PASSWORD})
    assert response.status_code == 302


@override_settings(THROTTLE_RATES={**GUARDED, "login_account": "2/day"})
def test_only_tries_that_reach_the_password_check_count_against_an_account() -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    client = Client(REMOTE_ADDR="10.0.0.1")
    for _ in range(5):  # no password: the form says so, and nobody's account is touched
        assert client.post("/accounts/login/", {"username": "hong"}).status_code == 200
    assert wrong("/accounts/login/", "10.0.0.2") == 200
    assert wrong("/accounts/login/", "10.0.0.3") == 200  # two failures: guarded from now on
    assert (
        client.post("/accounts/login/", {"username": "hong", "password": PASSWORD}).status_code
        == 302
    )


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
        "login_failures",
        "signup",
        "password_reset",
        "password_reset_email",
        "attempts",
        "puzzle_submissions",
    ):
        assert settings.THROTTLE_RATES[scope]
