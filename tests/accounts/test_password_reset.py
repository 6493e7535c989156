"""Password reset, the whole way through as a user goes: ask on the log-in page, get the
e-mail (sent by a real worker, which writes it to a folder the test reads), open its link,
choose a new password, log in with it. An unknown address gets the same answer, as soon: the
page neither looks the address up nor sends anything itself; a used or forged link is refused
in words; asking is throttled per address, and a mailbox gets few mails whoever asks, without
its owner ever being refused."""

from __future__ import annotations

import re
import time
import uuid
from email.message import EmailMessage
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from accounts.models import User

pytestmark = [pytest.mark.django_db(transaction=True)]

OLD = "a-long-pass-phrase-42"
NEW = "another-long-phrase-77"
LINK = re.compile(r"https?://testserver(/accounts/password-reset/[^/\s]+/[^/\s]+/)")


@pytest.fixture
def address() -> str:
    """An address of this test's own (the worker's mail folder lasts the whole session)."""
    return f"hong-{uuid.uuid4().hex[:8]}@example.com"


def mails_to(worker: Any, address: str, count: int = 1) -> list[EmailMessage]:
    """The worker's mails to ``address``, once there are ``count`` of them."""
    deadline = time.monotonic() + 60
    while True:
        found = [m for m in worker.mails() if address in str(m["to"])]
        if len(found) >= count:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(found)} mails to {address}:\n{worker.output()}")
        time.sleep(0.1)


def text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def reset_link(message: EmailMessage) -> str:
    found = LINK.search(text(message))
    assert found, text(message)
    return found.group(1)


def without_tokens(response: object) -> str:
    """The page without its CSRF token (different in every session)."""
    page = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def ask(client: Client, email: str) -> Any:
    return client.post("/accounts/password-reset/", {"email": email}, follow=True)


def test_the_log_in_page_links_to_the_reset(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password-reset/"' in page
    assert client.get("/accounts/password-reset/").status_code == 200


@pytest.mark.celery
def test_reset_the_password_and_log_in_with_the_new_one(
    client: Client, celery_worker: Any, address: str
) -> None:
    user = User.objects.create_user(username="hong", email=address, password=OLD)
    answer = ask(client, address.replace("hong", "Hong").upper())  # any case
    assert answer.redirect_chain == [("/accounts/password-reset/sent/", 302)]
    [message] = mails_to(celery_worker, address)
    assert message["to"] == address
    assert "hong" in text(message)

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


@pytest.mark.celery
def test_an_unknown_address_gets_the_same_answer(
    client: Client, celery_worker: Any, address: str
) -> None:
    User.objects.create_user(username="hong", email=address, password=OLD)
    unknown_address = f"nobody-{address}"
    unknown = ask(Client(), unknown_address)
    known = ask(client, address)
    assert known.redirect_chain == unknown.redirect_chain
    assert without_tokens(known) == without_tokens(unknown)
    # The worker runs one task at a time, in order: once the known address's mail is out,
    # the unknown one's task has run, and sent nothing.
    mails_to(celery_worker, address)
    assert not [m for m in celery_worker.mails() if unknown_address in str(m["to"])]


def test_the_page_neither_looks_the_address_up_nor_mails(address: str) -> None:
    """A mail server's delay, or a lookup, would tell by the answer's time whether an account
    uses the address: the page does the same work for any address and sends nothing itself."""
    User.objects.create_user(username="hong", email=address, password=OLD)
    work = []
    for email in (address, f"nobody-{address}"):
        with CaptureQueriesContext(connection) as queries:
            answer = Client().post("/accounts/password-reset/", {"email": email})
        assert answer.status_code == 302
        work.append([query["sql"] for query in queries.captured_queries])
    assert work[0] == work[1]
    assert not any("accounts_user" in sql for sql in work[0])
    assert mail.outbox == []


@pytest.mark.celery
def test_a_forged_token_is_refused(client: Client, celery_worker: Any, address: str) -> None:
    user = User.objects.create_user(username="hong", email=address, password=OLD)
    ask(client, address)
    link = reset_link(mails_to(celery_worker, address)[0])
    forged = re.sub(r"/[^/]+/$", "/abc123-0123456789abcdef0123456789abcdef/", link)
    page = Client().get(forged, follow=True).content.decode()
    assert 'data-testid="password-reset-invalid"' in page
    answer = Client().post(forged, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert 'data-testid="password-reset-invalid"' in answer.content.decode()
    user.refresh_from_db()
    assert user.check_password(OLD)


@pytest.mark.celery
def test_a_weak_new_password_is_refused_and_the_old_one_kept(
    client: Client, celery_worker: Any, address: str
) -> None:
    user = User.objects.create_user(username="hong", email=address, password=OLD)
    ask(client, address)
    form = client.get(reset_link(mails_to(celery_worker, address)[0]), follow=True)
    set_url = form.redirect_chain[-1][0]  # type: ignore[attr-defined]
    answer = client.post(set_url, {"new_password1": "123", "new_password2": "123"})
    assert answer.status_code == 200
    assert "field-error" in answer.content.decode()
    user.refresh_from_db()
    assert user.check_password(OLD)


@pytest.mark.celery
@pytest.mark.parametrize(
    ("language", "words"), [("zh-hans", "重置密码"), ("en", "Reset your password")]
)
def test_the_reset_pages_and_mail_are_in_the_readers_language(
    language: str, words: str, celery_worker: Any, address: str
) -> None:
    User.objects.create_user(username="hong", email=address, password=OLD)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert words in client.get("/accounts/password-reset/").content.decode()
    ask(client, address)
    subject = {"zh-hans": "重置", "en": "Reset your password"}[language]
    assert subject in str(mails_to(celery_worker, address)[0]["subject"])


@override_settings(THROTTLE_RATES={"password_reset": "3/day", "password_reset_email": "100/day"})
def test_asking_for_resets_is_throttled_per_address() -> None:
    client = Client()
    for number in range(3):
        assert ask(client, f"someone{number}@example.com").status_code == 200
    refused = client.post("/accounts/password-reset/", {"email": "x@example.com"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert (
        Client(REMOTE_ADDR="10.9.8.7")
        .post("/accounts/password-reset/", {"email": "x@example.com"})
        .status_code
        == 302
    )


@pytest.mark.celery
@override_settings(THROTTLE_RATES={"password_reset": "100/day", "password_reset_email": "2/day"})
def test_others_asking_never_keep_the_owner_from_a_working_link(
    celery_worker: Any, address: str
) -> None:
    """Three requests for a victim's address refused the victim's own. Now every request gets
    the same answer; the mailbox gets at most two mails, and their links work for its owner."""
    user = User.objects.create_user(username="hong", email=address, password=OLD)
    for number in (1, 2, 3):
        answer = ask(Client(REMOTE_ADDR=f"10.0.0.{number}"), address.upper())
        assert answer.redirect_chain == [("/accounts/password-reset/sent/", 302)]
    owner = ask(Client(REMOTE_ADDR="10.1.1.1"), address)  # the owner asks, too
    assert owner.redirect_chain == [("/accounts/password-reset/sent/", 302)]
    assert without_tokens(owner) == without_tokens(answer)
    sent = mails_to(celery_worker, address, count=2)
    # (a later address's mail, asked for after, is out: every task before it has run)
    User.objects.create_user(username="marker", email=f"marker-{address}", password=OLD)
    ask(Client(), f"marker-{address}")
    mails_to(celery_worker, f"marker-{address}")
    assert len([m for m in celery_worker.mails() if address == str(m["to"])]) == 2
    client = Client()
    form = client.get(reset_link(sent[-1]), follow=True)
    set_url = form.redirect_chain[-1][0]
    client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    user.refresh_from_db()
    assert user.check_password(NEW)


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


@pytest.mark.celery
@pytest.mark.parametrize("language", list(MAIL))
def test_the_mail_is_in_the_reader_s_language_and_says_you_as_the_site_does(
    language: str, celery_worker: Any, address: str
) -> None:
    User.objects.create_user(username="hong", email=address, password=OLD)
    Client(HTTP_ACCEPT_LANGUAGE=language).post("/accounts/password-reset/", {"email": address})
    [message] = mails_to(celery_worker, address)
    subject, lines = MAIL[language]
    assert message["subject"] == subject
    body = [line for line in text(message).splitlines() if line.strip()]
    assert body[:2] == lines[:2] and body[3:] == lines[2:], text(message)
    assert LINK.fullmatch(body[2])
    # The site says 你 to its reader everywhere (the lessons, the puzzles, the pages); the
    # mail and the reset pages did say 您.
    assert "您" not in text(message) + str(message["subject"])


def test_the_reset_pages_say_you_as_the_rest_of_the_site_does() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    for path in ["/accounts/password-reset/", "/accounts/password-reset/sent/"]:
        page = client.get(path).content.decode()
        assert "你" in page and "您" not in page, path
