"""Sign up, log in, log out, password reset and the profile page.

Sign-up, log-in and password-reset requests are throttled (``core.throttles``): per client
address for all three, per account name tried for log-in (guessing a password is slow from
anywhere) and per e-mail address for a reset (nobody's mailbox is flooded).

Password reset is Django's own: a link with a one-time token is e-mailed to every active
account with that address; an unknown address gets the same answer (no account enumeration).
The admin's log-in page counts against the same log-in limits (``admin_login``), so staff
accounts get no way around them.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.forms import SignupForm
from accounts.services import user_login
from core.throttles import client_address, throttle_hit


def _throttled(request: HttpRequest, checks: list[tuple[str, str]]) -> HttpResponse | None:
    """Count this request in each (scope, key); a 429 page when any is over its rate."""
    waits = [wait for scope, key in checks if (wait := throttle_hit(scope, key)) is not None]
    if not waits:
        return None
    seconds = math.ceil(max(waits))
    response = render(
        request,
        "accounts/throttled.html",
        {"minutes": max(1, math.ceil(seconds / 60))},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


def _account_key(username: str) -> str:
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]


def login_throttled(request: HttpRequest) -> HttpResponse | None:
    """Count a log-in try per address and per account name; a 429 page when over either."""
    checks = [("login", client_address(request))]
    username = request.POST.get("username", "")
    if username:
        checks.append(("login_account", _account_key(username)))
    return _throttled(request, checks)


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
        return redirect("accounts:profile")
    if request.method == "POST" and (
        refused := _throttled(request, [("signup", client_address(request))])
    ):
        return refused
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        user_login(request=request, user=user)
        return HttpResponseRedirect(_next_url(request) or reverse("accounts:profile"))
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


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password-reset-done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        checks = [("password_reset", client_address(request))]
        email = request.POST.get("email", "")
        if email:
            checks.append(("password_reset_email", _account_key(email)))
        if refused := _throttled(request, checks):
            return refused
        return super().post(request, *args, **kwargs)


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
    return admin.site.login(request)


class LogoutView(auth_views.LogoutView):
    """Log out (POST only, so that a link cannot log anyone out)."""


@login_required
@require_http_methods(["GET", "HEAD"])
def profile(request: HttpRequest) -> HttpResponse:
    """The account: puzzle rating per variant, lesson progress per course, links onwards."""
    # The other apps build on accounts, so their reads are imported here, not at the top.
    from core.selectors import variant_list, variant_title
    from puzzles.selectors import user_ratings
    from tutorials.selectors import course_map, learner_get

    rows = user_ratings(user=request.user)
    ratings = [
        {"variant": variant.name, "title": variant_title(variant), "row": rows.get(variant.name)}
        for variant in variant_list()
    ]
    courses = course_map(learner=learner_get(request))
    return render(
        request,
        "accounts/profile.html",
        {"profile_user": request.user, "ratings": ratings, "courses": courses},
    )
