"""Sign up, log in, log out, profile, and handing a visitor's progress to the account."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from accounts.merge import (
    visitor_merge_names,
    visitor_merge_register,
    visitor_merge_unregister,
)
from accounts.models import User
from accounts.visitors import VISITOR_SESSION_KEY

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"


def set_visitor(client: Client, visitor_id: str) -> None:
    session = client.session
    session[VISITOR_SESSION_KEY] = visitor_id
    session.save()


@pytest.fixture
def merges() -> Iterator[list[tuple[str, str]]]:
    """Register a merge that records its calls (and remove it afterwards)."""
    calls: list[tuple[str, str]] = []

    def record(visitor_id: str, user: User) -> None:
        calls.append((visitor_id, user.username))

    visitor_merge_register("test-record", record)
    yield calls
    visitor_merge_unregister("test-record")


def test_sign_up_creates_the_account_and_logs_in(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "ming", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    assert User.objects.filter(username="ming").exists()
    profile = client.get("/accounts/profile/")
    assert profile.status_code == 200
    assert "ming" in profile.content.decode()


def test_sign_up_rejects_mismatched_passwords(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "ming", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="ming").exists()
    assert "field-error" in response.content.decode()


def test_sign_up_follows_a_safe_next_only(client: Client) -> None:
    data = {"username": "a1", "password1": PASSWORD, "password2": PASSWORD, "next": "/analysis/"}
    assert client.post("/accounts/signup/", data)["Location"] == "/analysis/"
    other = Client()
    data = {**data, "username": "a2", "next": "https://elsewhere.example/"}
    assert other.post("/accounts/signup/", data)["Location"] == "/accounts/profile/"


def test_log_in_and_out(client: Client) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/accounts/profile/").status_code == 200
    assert client.get("/accounts/logout/").status_code == 405  # a link cannot log anyone out
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.get("/accounts/profile/").status_code == 302


def test_wrong_password_is_refused(client: Client) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "hong", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_profile_needs_an_account(client: Client) -> None:
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/profile/")


def test_anonymous_visitors_can_use_the_public_pages(client: Client) -> None:
    for url in ("/", "/analysis/", "/api/variants/", "/accounts/login/", "/accounts/signup/"):
        assert client.get(url).status_code == 200, url


def test_sign_up_hands_the_visitors_progress_to_the_account(
    client: Client, merges: list[tuple[str, str]]
) -> None:
    set_visitor(client, "visitor-1")
    client.post(
        "/accounts/signup/", {"username": "ming", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert merges == [("visitor-1", "ming")]
    assert VISITOR_SESSION_KEY not in client.session
    assert client.session["_auth_user_id"] == str(User.objects.get(username="ming").pk)


def test_log_in_hands_the_visitors_progress_to_the_account(
    client: Client, merges: list[tuple[str, str]]
) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    set_visitor(client, "visitor-2")
    client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    assert merges == [("visitor-2", "hong")]


def test_no_merge_without_a_visitor_id(client: Client, merges: list[tuple[str, str]]) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    assert merges == []


def test_failed_log_in_merges_nothing(client: Client, merges: list[tuple[str, str]]) -> None:
    User.objects.create_user(username="hong", password=PASSWORD)
    set_visitor(client, "visitor-3")
    client.post("/accounts/login/", {"username": "hong", "password": "wrong"})
    assert merges == []
    assert client.session[VISITOR_SESSION_KEY] == "visitor-3"


def test_merges_run_in_one_transaction(client: Client) -> None:
    """When one merge fails, what the others wrote is rolled back and the error propagates."""

    def rename(visitor_id: str, user: User) -> None:
        user.first_name = visitor_id
        user.save(update_fields=["first_name"])

    def fail(visitor_id: str, user: User) -> None:
        raise RuntimeError("merge failed")

    user = User.objects.create_user(username="hong", password=PASSWORD)
    visitor_merge_register("test-rename", rename)
    visitor_merge_register("test-fail", fail)
    try:
        set_visitor(client, "visitor-4")
        client.raise_request_exception = True
        with pytest.raises(RuntimeError, match="merge failed"):
            client.post("/accounts/login/", {"username": "hong", "password": PASSWORD})
    finally:
        visitor_merge_unregister("test-rename")
        visitor_merge_unregister("test-fail")
    user.refresh_from_db()
    assert user.first_name == ""


def test_registering_a_name_again_replaces_the_merge() -> None:
    calls: list[str] = []
    visitor_merge_register("test-twice", lambda v, u: calls.append("first"))
    visitor_merge_register("test-twice", lambda v, u: calls.append("second"))
    try:
        assert visitor_merge_names().count("test-twice") == 1
        from accounts.merge import visitor_merge_run

        visitor_merge_run(visitor_id="v", user=User.objects.create_user(username="x"))
        assert calls == ["second"]
    finally:
        visitor_merge_unregister("test-twice")
    assert "test-twice" not in visitor_merge_names()


def test_visitor_id_is_created_once_per_session(rf: Any) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.visitors import visitor_id_get

    request = rf.get("/")
    request.session = SessionStore()
    assert visitor_id_get(request, create=False) is None
    first = visitor_id_get(request)
    assert first and len(first) == 32
    assert visitor_id_get(request) == first
