"""Writes of the accounts app: creating users, logging them in, password-reset mails."""

from __future__ import annotations

import hashlib
import logging

from django.contrib.auth import login
from django.db import transaction
from django.http import HttpRequest
from django.utils import translation

from accounts.mail import ResetMailForm, address_masked
from accounts.merge import visitor_merge_run
from accounts.models import ResetMailFailure, User
from accounts.visitors import VISITOR_SESSION_KEY
from core.throttles import throttle_hit

AUTH_BACKEND = "django.contrib.auth.backends.ModelBackend"
logger = logging.getLogger(__name__)


def user_login(*, request: HttpRequest, user: User) -> list[str]:
    """Log ``user`` in and hand the anonymous visitor's progress over to the account.

    Returns the names of the merges that ran (empty when the session had no visitor id).
    """
    visitor_id = request.session.get(VISITOR_SESSION_KEY)
    login(request, user, backend=AUTH_BACKEND)  # keeps the session data, under a new key
    if not visitor_id:
        return []
    ran = visitor_merge_run(visitor_id=visitor_id, user=user)
    # The progress now belongs to the account; a later anonymous visit starts afresh.
    request.session.pop(VISITOR_SESSION_KEY, None)
    return ran


def user_create(*, username: str, password: str, email: str = "") -> User:
    return User.objects.create_user(username=username, password=password, email=email)


RESET_EMAIL_TEMPLATE = "accounts/password_reset_email.txt"
RESET_SUBJECT_TEMPLATE = "accounts/password_reset_subject.txt"


def throttle_key(address: str) -> str:
    """A name or an e-mail address as a throttle key: any letter case, no spaces around."""
    return hashlib.sha256(address.strip().casefold().encode()).hexdigest()[:32]


def password_reset_request(*, email: str, domain: str, use_https: bool, language: str) -> bool:
    """Ask for a reset mail to ``email``: queued for a worker (``accounts.reset_mail``), which
    alone looks the address up, so that the request takes as long whether or not an account
    uses it. A mailbox gets at most ``password_reset_email`` mails a window, whoever asks
    (the mails it already got keep working). Returns whether a mail was queued."""
    if throttle_hit("password_reset_email", throttle_key(email)) is not None:
        return False
    from accounts.tasks import reset_mail  # a deliberate import cycle (accounts.tasks)

    transaction.on_commit(
        lambda: reset_mail.delay(email=email, domain=domain, use_https=use_https, language=language)
    )
    return True


def password_reset_mail_send(*, email: str, domain: str, use_https: bool, language: str) -> int:
    """Mail a one-time link to choose a new password to every active account using ``email``
    (any letter case), in ``language``; links point at ``domain``. Returns how many were sent
    (none for an unknown address). A mail the server does not take raises its error (an
    ``OSError``; ``smtplib``'s errors are ones)."""
    form = ResetMailForm({"email": email})
    if not form.is_valid():
        return 0
    users = list(form.get_users(form.cleaned_data["email"]))
    with translation.override(language):
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name=RESET_SUBJECT_TEMPLATE,
            email_template_name=RESET_EMAIL_TEMPLATE,
        )
    return len(users)


def password_reset_mail_failed(*, email: str, error: str, tries: int) -> ResetMailFailure:
    """Report the reset mail to ``email`` that never went, after ``tries`` tries (``error``:
    the last failure, addresses masked): a line at ERROR level and a row the operator sees in
    the admin, neither with the address in full."""
    masked = address_masked(email)
    logger.error(
        "Password-reset mail to %s failed after %d %s: %s",
        masked, tries, "try" if tries == 1 else "tries", error,
    )  # fmt: skip
    return ResetMailFailure.objects.create(address=masked, error=error, tries=tries)
