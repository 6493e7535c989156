"""Password reset, the whole way through as a user goes: ask on the log-in page, get the
e-mail, open its link, choose a new password, log in with it. An unknown address gets the
same answer; a used or forged link is refused in words; asking is throttled."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client, override_settings

from accounts.models import User

pytestmark = pytest.mark.django_db

OLD = "a-long-pass-phrase-42"
NEW = "another-long-phrase-77"
LINK = re.compile(r"https?://testserver(/accounts/password-reset/[^/\s]+/[^/\s]+/)")


def reset_link(message: mail.EmailMessage) -> str:
    found = LINK.search(message.body)
    assert found, message.body
    return found.group(1)


def without_tokens(response: object) -> str:
    """The page without its CSRF token (different in every session)."""
    page = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def ask(client: Client, email: str) -> object:
    return client.post("/accounts/password-reset/", {"email": email}, follow=True)


def test_the_log_in_page_links_to_the_reset(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password-reset/"' in page
    assert client.get("/accounts/password-reset/").status_code == 200


def test_reset_the_password_and_log_in_with_the_new_one(client: Client) -> None:
    user = User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    answer = ask(client, "Hong@Example.com")  # any case
    assert answer.redirect_chain == [("/accounts/password-reset/sent/", 302)]  # type: ignore[attr-defined]
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hong@example.com"]
    assert "hong" in message.body

    link = reset_link(message)
    form = client.get(link, follow=True)  # Django moves the token out of the address
    assert form.status_code == 200
    set_url = form.redirect_chain[-1][0]  # type: ignore[attr-defined]
    assert 'name="new_password1"' in form.content.decode()
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert done.redirect_chain[-1][0] == "/accounts/password-reset/complete/"  # type: ignore[attr-defined]
    user.refresh_from_db()
    assert user.check_password(NEW) and not user.check_password(OLD)

    fresh = Client()
    assert fresh.post("/accounts/login/", {"username": "hong", "password": OLD}).status_code == 200
    logged_in = fresh.post("/accounts/login/", {"username": "hong", "password": NEW})
    assert logged_in.status_code == 302
    assert fresh.get("/accounts/profile/").status_code == 200

    # The link worked once: opened again, it is refused in words, with a way to ask anew.
    again = Client().get(link, follow=True)
    page = again.content.decode()
    assert 'data-testid="password-reset-invalid"' in page
    assert 'name="new_password1"' not in page
    assert 'href="/accounts/password-reset/"' in page


def test_an_unknown_address_gets_the_same_answer(client: Client) -> None:
    User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    known = ask(client, "hong@example.com")
    unknown = ask(Client(), "nobody@example.com")
    assert known.redirect_chain == unknown.redirect_chain  # type: ignore[attr-defined]
    assert without_tokens(known) == without_tokens(unknown)
    assert [m.to for m in mail.outbox] == [["hong@example.com"]]


def test_a_forged_token_is_refused(client: Client) -> None:
    user = User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    ask(client, "hong@example.com")
    link = reset_link(mail.outbox[0])
    forged = re.sub(r"/[^/]+/$", "/abc123-0123456789abcdef0123456789abcdef/", link)
    page = Client().get(forged, follow=True).content.decode()
    assert 'data-testid="password-reset-invalid"' in page
    answer = Client().post(forged, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert 'data-testid="password-reset-invalid"' in answer.content.decode()
    user.refresh_from_db()
    assert user.check_password(OLD)


def test_a_weak_new_password_is_refused_and_the_old_one_kept(client: Client) -> None:
    user = User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    ask(client, "hong@example.com")
    form = client.get(reset_link(mail.outbox[0]), follow=True)
    set_url = form.redirect_chain[-1][0]  # type: ignore[attr-defined]
    answer = client.post(set_url, {"new_password1": "123", "new_password2": "123"})
    assert answer.status_code == 200
    assert "field-error" in answer.content.decode()
    user.refresh_from_db()
    assert user.check_password(OLD)


@pytest.mark.parametrize(
    ("language", "words"), [("zh-hans", "重置密码"), ("en", "Reset your password")]
)
def test_the_reset_pages_and_mail_are_in_the_readers_language(language: str, words: str) -> None:
    User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert words in client.get("/accounts/password-reset/").content.decode()
    ask(client, "hong@example.com")
    subject = {"zh-hans": "重置", "en": "Reset your password"}[language]
    assert subject in mail.outbox[0].subject


@override_settings(THROTTLE_RATES={"password_reset": "3/day", "password_reset_email": "100/day"})
def test_asking_for_resets_is_throttled_per_address() -> None:
    client = Client()
    for number in range(3):
        assert ask(client, f"someone{number}@example.com").status_code == 200  # type: ignore[attr-defined]
    refused = client.post("/accounts/password-reset/", {"email": "x@example.com"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert (
        Client(REMOTE_ADDR="10.9.8.7")
        .post("/accounts/password-reset/", {"email": "x@example.com"})
        .status_code
        == 302
    )


@override_settings(THROTTLE_RATES={"password_reset": "100/day", "password_reset_email": "2/day"})
def test_one_mailbox_gets_few_reset_mails_from_any_address() -> None:
    User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    for address in ("10.0.0.1", "10.0.0.2"):
        ask(Client(REMOTE_ADDR=address), "hong@example.com")
    refused = Client(REMOTE_ADDR="10.0.0.3").post(
        "/accounts/password-reset/", {"email": "HONG@example.com"}
    )
    assert refused.status_code == 429
    assert len(mail.outbox) == 2


MAIL = {
    "zh-hans": (
        "重置你在象棋学堂的密码",
        [
            "hong，你好：",
            "有人（希望是你本人）请求重置你在象棋学堂的账户密码。打开下面的链接设置新密码：",
            "链接只能使用一次，一天内有效。如果不是你本人请求的，请忽略这封邮件，你的密码不会改变。",
        ],
    ),
    "en": (
        "Reset your password on Xiangqi School",
        [
            "Hello hong,",
            "Someone (we hope you) asked to reset the password of your account on Xiangqi "
            "School. Open this link to choose a new password:",
            "The link works once, for one day. If you did not ask for it, ignore this e-mail: "
            "your password stays as it is.",
        ],
    ),
}


@pytest.mark.parametrize("language", list(MAIL))
def test_the_mail_is_in_the_reader_s_language_and_says_you_as_the_site_does(
    language: str,
) -> None:
    User.objects.create_user(username="hong", email="hong@example.com", password=OLD)
    Client(HTTP_ACCEPT_LANGUAGE=language).post(
        "/accounts/password-reset/", {"email": "hong@example.com"}
    )
    [message] = mail.outbox
    subject, lines = MAIL[language]
    assert message.subject == subject
    body = [line for line in message.body.splitlines() if line.strip()]
    assert body[:2] == lines[:2] and body[3:] == lines[2:], message.body
    assert LINK.fullmatch(body[2])
    # The site says 你 to its reader everywhere (the lessons, the puzzles, the pages); the
    # mail and the reset pages did say 您.
    assert "您" not in message.body + message.subject


def test_the_reset_pages_say_you_as_the_rest_of_the_site_does() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    for path in ["/accounts/password-reset/", "/accounts/password-reset/sent/"]:
        page = client.get(path).content.decode()
        assert "你" in page and "您" not in page, path
