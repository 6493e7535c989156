"""Sending the password-reset mails by SMTP, and telling what went wrong when it fails: the
one place that knows SMTP's answers.

Django's ``PasswordResetForm`` logs a mail it could not send and carries on, so a failed mail
looked sent; ``ResetMailForm`` lets the error reach the task (``accounts.reset_mail``), which
tries again when the failure may pass (``mail_error_transient``) and reports the mail that
never went. Addresses are masked (``m***@example.com``) wherever a failure is written down.
"""

from __future__ import annotations

import re
import smtplib
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import EmailMultiAlternatives
from django.template import loader

from core.tasks import backoff_pause

# The longest pause between two tries of a mail, in seconds.
RETRY_PAUSE_MAX = 600
ADDRESS = re.compile(r"[^\s<>\"'@,;:()]+@[^\s<>\"'@,;:()]+")


class MailNotSent(Exception):
    """A mail the server did not take, described without its address."""


class ResetMailForm(PasswordResetForm):
    """Django's reset form, except that a mail that cannot be sent raises its error."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        if html_email_template_name is not None:
            html = loader.render_to_string(html_email_template_name, context)
            message.attach_alternative(html, "text/html")
        message.send()


def address_masked(address: str) -> str:
    """``mei@example.com`` -> ``m***@example.com``: the domain, and whose it is kept secret."""
    local, _, domain = address.strip().rpartition("@")
    return f"{local[:1]}***@{domain}" if local else "***"


def mail_error_transient(error: OSError) -> bool:
    """Whether a mail that failed with ``error`` may go on a later try: an answer in 4xx
    ("try again later"), a connection refused, reset, cut or timed out. A 5xx answer (no such
    mailbox, refused for good) and a server that lacks what the settings ask (STARTTLS, a way
    to log in) do not pass by themselves."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in error.recipients.values()]
        return bool(codes) and all(400 <= code < 500 for code in codes)
    if isinstance(error, smtplib.SMTPResponseException):
        return 400 <= error.smtp_code < 500
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return True
    return not isinstance(error, smtplib.SMTPException)  # the others: the connection's


def mail_error_text(error: OSError) -> str:
    """The failure in a line for the operator: the error's kind and the server's answer, any
    address in it masked."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = sorted({f"{code} {_text(reply)}" for code, reply in error.recipients.values()})
        text = f"SMTP {'; '.join(answers)}"
    elif isinstance(error, smtplib.SMTPResponseException):
        text = f"SMTP {error.smtp_code} {_text(error.smtp_error)}"
    else:
        text = str(error.strerror or error)
    masked = ADDRESS.sub(lambda found: address_masked(found.group()), text)
    return f"{type(error).__name__}: {masked}"[:300]


def _text(reply: bytes | str) -> str:
    return reply.decode(errors="replace") if isinstance(reply, bytes) else str(reply)


def retry_pause(retries: int) -> float:
    """Seconds before the next try, after ``retries`` retries: ``RESET_MAIL_BACKOFF_MS``
    doubled each time, up to ``RETRY_PAUSE_MAX``, and between half of that and all of it, so
    that the mails of one outage do not all come back at once."""
    return backoff_pause(settings.RESET_MAIL_BACKOFF_MS / 1000, retries, RETRY_PAUSE_MAX)
