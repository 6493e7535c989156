"""A password-reset mail the mail server does not take is not lost in silence: a real worker
sends it to a real SMTP server on this machine (a small one of the test's own, or a port where
nothing listens). A transient failure (a 4xx answer, a refused connection) is tried again after
a growing pause, and a mail that never went is reported: a line at ERROR level and a row the
operator sees in the admin, both with the address masked. A permanent refusal (5xx) is
reported at once, without trying again."""

from __future__ import annotations

import os
import re
import socket
import socketserver
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from accounts.models import ResetMailFailure, User
from tests.conftest import ARTIFACTS, ROOT, _worker_database_url

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

RETRIES = 3  # tries after the first, for this test's worker
BACKOFF = 0.2  # seconds before the first retry, for this test's worker


class SmtpServer(socketserver.ThreadingTCPServer):
    """A small SMTP server: ``answer(connection_number)`` says how the recipient is taken
    ("250 ..." to accept the mail, or a refusal such as "451 ..."); it keeps what it got."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, answer: Callable[[int], str]) -> None:
        super().__init__(("127.0.0.1", 0), SmtpSession)
        self.answer = answer
        self.connections = 0
        self.mails: list[str] = []
        self.lock = threading.Lock()

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class SmtpSession(socketserver.StreamRequestHandler):
    server: SmtpServer

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        with self.server.lock:
            self.server.connections += 1
            number = self.server.connections
        self.reply("220 test.localhost ESMTP")
        while line := self.rfile.readline():
            command = line.decode(errors="replace").strip().upper()
            if command.startswith(("EHLO", "HELO")):
                self.reply("250 test.localhost")
            elif command.startswith("MAIL FROM"):
                self.reply("250 OK")
            elif command.startswith("RCPT TO"):
                self.reply(self.server.answer(number))
            elif command == "DATA":
                self.reply("354 go on")
                body = []
                while (data := self.rfile.readline()) not in (b".\r\n", b""):
                    body.append(data.decode(errors="replace"))
                with self.server.lock:
                    self.server.mails.append("".join(body))
                self.reply("250 taken")
            elif command == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 OK")


@contextmanager
def smtp_server(answer: Callable[[int], str]) -> Iterator[SmtpServer]:
    server = SmtpServer(answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class MailWorker:
    """A real Celery worker reading a queue of its own, sending mail by SMTP to ``port``."""

    def __init__(self, port: int) -> None:
        from django.conf import settings

        self.queue = f"{settings.CELERY_QUEUE_PREFIX}mail-{uuid.uuid4().hex[:6]}"
        self.hostname = f"{self.queue}@localhost"
        ARTIFACTS.mkdir(exist_ok=True)
        self.log = ARTIFACTS / f"reset-mail-worker-{uuid.uuid4().hex[:6]}.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "EMAIL_"))}
        # the settings of a site run on one's own machine (the test settings keep mails in
        # memory), with a mail server: SMTP
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.local",
            DATABASE_URL=_worker_database_url(),
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(port),
            EMAIL_USE_TLS="0",
            EMAIL_TIMEOUT="5",
            RESET_MAIL_RETRIES=str(RETRIES),
            RESET_MAIL_BACKOFF_MS=str(int(BACKOFF * 1000)),
        )
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--queues", self.queue,
            "--hostname", self.hostname, "--pool", "solo", "--loglevel", "INFO",
            "--without-gossip", "--without-mingle",
        ]  # fmt: skip
        with self.log.open("wb") as handle:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT
            )

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_ready(self) -> None:
        from config.celery import app

        deadline = time.monotonic() + 90
        while not app.control.ping(destination=[self.hostname], timeout=1.0):
            assert self.process.poll() is None, self.output()[-4000:]
            assert time.monotonic() < deadline, self.output()[-4000:]

    def send_reset(self, email: str) -> None:
        from accounts.tasks import reset_mail

        options = {"email": email, "domain": "testserver", "use_https": False, "language": "en"}
        reset_mail.apply_async(kwargs=options, queue=self.queue)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def started_worker(port: int) -> Iterator[MailWorker]:
    worker = MailWorker(port)
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


def wait_for(condition: Callable[[], Any], worker: MailWorker, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, worker.output()[-6000:]
        time.sleep(0.1)
    return value


def account(address: str) -> User:
    """An account at ``address`` with a password (only those get reset mails)."""
    name = f"u{uuid.uuid4().hex[:8]}"
    return User.objects.create_user(username=name, email=address, password="a-long-pass-42")


def test_a_mail_refused_for_now_is_sent_on_a_later_try() -> None:
    address = f"mei-{uuid.uuid4().hex[:6]}@example.com"
    account(address)
    answers = iter(["451 4.3.0 try again later", "421 4.7.0 too busy", "250 OK"])
    with (
        smtp_server(lambda number: next(answers, "250 OK")) as server,
        started_worker(server.port) as worker,
    ):
        worker.send_reset(address)
        (mail,) = wait_for(lambda: server.mails, worker)
        assert address in mail and "/accounts/password-reset/" in mail
        wait_for(lambda: "succeeded" in worker.output(), worker)
        assert server.connections == 3
        assert worker.output().count(" retry: ") == 2
    assert not ResetMailFailure.objects.exists()


def test_a_mail_that_never_goes_is_reported_after_the_last_try() -> None:
    """Nothing listens on the mail server's port: every try is refused."""
    address = f"lan-{uuid.uuid4().hex[:6]}@example.com"
    account(address)
    with started_worker(free_port()) as worker:
        worker.send_reset(address)
        failure = wait_for(ResetMailFailure.objects.first, worker)
        log = worker.output()
        assert log.count(" retry: ") == RETRIES
    assert failure.tries == RETRIES + 1
    assert failure.address == "l***@example.com"
    assert "ConnectionRefusedError" in failure.error and address not in failure.error
    assert "Password-reset mail to l***@example.com failed after 4 tries" in log
    assert address not in log
    # the pauses double: 0.2, 0.4 and 0.8 s, each less up to half of it (the jitter)
    pauses = [float(p) for p in re.findall(r" retry: Retry in ([0-9.]+)s", log)]
    assert len(pauses) == RETRIES
    for n, pause in enumerate(pauses):
        assert BACKOFF * 2**n / 2 <= pause <= BACKOFF * 2**n


def test_a_mail_refused_for_good_is_reported_at_once() -> None:
    address = f"bo-{uuid.uuid4().hex[:6]}@example.com"
    account(address)
    with (
        smtp_server(lambda number: "550 5.1.1 no such mailbox") as server,
        started_worker(server.port) as worker,
    ):
        worker.send_reset(address)
        failure = wait_for(ResetMailFailure.objects.first, worker)
        assert server.connections == 1 and not server.mails
        assert " retry: " not in worker.output()
    assert failure.tries == 1 and failure.address == "b***@example.com"
    assert "550" in failure.error and address not in failure.error


def test_the_failures_are_listed_in_the_admin(admin_client: Any) -> None:
    ResetMailFailure.objects.create(address="q***@example.com", error="SMTP 451", tries=6)
    page = admin_client.get("/admin/accounts/resetmailfailure/").content.decode()
    assert "q***@example.com" in page and "SMTP 451" in page
