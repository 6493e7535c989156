"""Celery tasks of the accounts app: thin wrappers around services.

- ``accounts.reset_mail``: mails the password-reset link for one address.

A deliberate import cycle: ``accounts.services`` queues this task and the task runs the
service. Both sides import the other inside the function that needs it, never when the module
loads, so either module loads first (tests/core/test_import_cycles.py lists the pair).
"""

from __future__ import annotations

import smtplib

from celery import shared_task


# Sending a reset mail twice (a retry after the server took it) costs a second mail with a
# second working link, nothing more: so it is retried when the mail server cannot be reached.
@shared_task(
    name="accounts.reset_mail",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=60,
    time_limit=90,
    autoretry_for=(smtplib.SMTPException, ConnectionError, TimeoutError),
    retry_backoff=30,
    retry_jitter=True,
    max_retries=5,
)
def reset_mail(*, email: str, domain: str, use_https: bool, language: str) -> int:
    """Mail the password-reset link for ``email`` (``password_reset_mail_send``)."""
    from accounts.services import password_reset_mail_send

    return password_reset_mail_send(
        email=email, domain=domain, use_https=use_https, language=language
    )
