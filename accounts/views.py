"""Sign up, log in, log out and password reset. The profile page shows the other apps' progress
and lives above them, in ``pages``.

Sign-up, log-in and password-reset requests are throttled (``core.throttles``) per client
address. Nobody else's tries lock an owner out of their account:

- A log-in's failures are counted per account name and per address, only for tries that
  reached the password check. An account with many failures lately (``login_account``) is
  guarded: it may then be tried only from addresses without many failures of their own
  (``login_failures``), so its owner, from their own address, still gets in while a guesser's
  address is refused.
- A reset request always gets the same answer; each mailbox gets at most a few mails an hour
  (``password_reset_email``), and the mails already sent keep working.

Password reset is Django's own: a link with a one-time token is e-mailed to every active
account with that address. The mail is sent by a worker (``accounts.tasks.reset_mail``), which
alone looks the address up: the page answers the same, as soon, for an unknown address.
The admin's log-in page counts against the same log-in limits (``admin_login``), so staff
accounts get no way around them.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from accounts.forms import SignupForm
from accounts.services import password_reset_request, throttle_key, user_login
from core.throttles import client_address, throttle_count, throttle_hit, throttle_over


def _throttled(request: HttpRequest, checks: list[tuple[str, str]]) -> HttpResponse | None:
    """Count this request in each (scope, key); a 429 page when any is over its rate."""
    waits = [wait for scope, key in checks if (wait := throttle_hit(scope, key)) is not None]
    if not waits:
        return None
    return _too_many(request, max(waits))


def _too_many(request: HttpRequest, wait: float) -> HttpResponse:
    seconds = math.ceil(wait)
    response = render(
        request,
        "accounts/throttled.html",
        {"minutes": max(1, math.ceil(seconds / 60))},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


def _reaches_the_password_check(request: HttpRequest) -> bool:
    return bool(request.POST.get("username")) and bool(request.POST.get("password"))


def login_throttled(request: HttpRequest) -> HttpResponse | None:
    """Before a log-in's password is checked: a 429 page when its address has tried too often,
    or when the account is guarded (many failures lately) and the address has failed often
    too. A guarded account's owner, from an address of their own, is let through."""
    address = client_address(request)
    if refused := _throttled(request, [("login", address)]):
        return refused
    if not _reaches_the_password_check(request):
        return None
    account = throttle_over("login_account", throttle_key(request.POST["username"]))
    failing = throttle_over("login_failures", address)
    if account is not None and failing is not None:
        return _too_many(request, min(account, failing))  # either window's end lets it try
    return None


def login_failed(request: HttpRequest) -> None:
    """Count a failed log-in against its account name and its address, if it reached the
    password check (a form without a name or a password says nothing of either)."""
    if _reaches_the_password_check(request):
        throttle_count("login_account", throttle_key(request.POST["username"]))
        throttle_count("login_failures", client_address(request))


def _next_url(request: HttpRequest) -> str | None:
    candidate = request.POST.get("next") or request.GET.get("next")
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return None


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    if request.method == "POST" and (
        refused := _throttled(request, [("signup", client_address(request))])
    ):
        return refused
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        user_login(request=request, user=user)
        return HttpResponseRedirect(_next_url(request) or resolve_url(settings.LOGIN_REDIRECT_URL))
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if refused := login_throttled(request):
            return refused
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        user_login(request=self.request, user=form.get_user())
        return HttpResponseRedirect(self.get_success_url())

    def form_invalid(self, form: Any) -> HttpResponse:
        login_failed(self.request)
        return super().form_invalid(form)


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password-reset-done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if refused := _throttled(request, [("password_reset", client_address(request))]):
            return refused
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        """The same answer, as soon, for every address: a worker looks it up and mails."""
        password_reset_request(
            email=form.cleaned_data["email"],
            domain=self.request.get_host(),
            use_https=self.request.is_secure(),
            language=get_language(),
        )
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password-reset-complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's log-in page (``/admin/login/``), behind the site's log-in limits."""
    if request.method == "POST" and (refused := login_throttled(request)):
        return refused
    response = admin.site.login(request)
    if request.method == "POST" and response.status_code == 200:  # the form again: refused
        login_failed(request)
    return response


class LogoutView(auth_views.LogoutView):
    """Log out (POST only, so that a link cannot log anyone out)."""
