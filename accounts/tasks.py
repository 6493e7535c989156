"""Celery tasks of the accounts app: thin wrappers around services.

- ``accounts.reset_mail``: mails the password-reset link for one address.

A deliberate import cycle: ``accounts.services`` queues this task and the task runs the
service. Both sides import the other inside the function that needs it, never when the module
loads, so either module loads first (tests/core/test_import_cycles.py lists the pair).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings


# Sending a reset mail twice (a retry after the server took it, or took it for one of two
# accounts at the address) costs a second mail with a second working link, nothing more: so it
# is tried again when the mail server could not take it for now.
@shared_task(
    name="accounts.reset_mail",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=60,
    time_limit=90,
)
def reset_mail(self: Any, *, email: str, domain: str, use_https: bool, language: str) -> int:
    """Mail the password-reset link for ``email`` (``password_reset_mail_send``).

    A mail the server did not take for now (``accounts.mail.mail_error_transient``: a 4xx
    answer, a connection refused or cut) is tried again after a pause that doubles each time
    (``retry_pause``), at most ``RESET_MAIL_RETRIES`` times more. One refused for good, or not
    taken after the last try, is reported (``password_reset_mail_failed``) and the task fails.
    """
    from accounts.mail import MailNotSent, mail_error_text, mail_error_transient, retry_pause
    from accounts.services import password_reset_mail_failed, password_reset_mail_send

    try:
        return password_reset_mail_send(
            email=email, domain=domain, use_https=use_https, language=language
        )
    except OSError as error:  # smtplib's errors are OSErrors too
        text = mail_error_text(error)
        retries = int(self.request.retries)
        if mail_error_transient(error) and retries < settings.RESET_MAIL_RETRIES:
            raise self.retry(
                countdown=retry_pause(retries),
                exc=MailNotSent(text),
                max_retries=settings.RESET_MAIL_RETRIES,
            ) from None
        failure = password_reset_mail_failed(email=email, error=text, tries=retries + 1)
    raise MailNotSent(f"{failure.address}, after {failure.tries}: {failure.error}")
