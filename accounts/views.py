"""Sign up, log in, log out and the profile page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.forms import SignupForm
from accounts.services import user_login


def _next_url(request: HttpRequest) -> str | None:
    candidate = request.POST.get("next") or request.GET.get("next")
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        user_login(request=request, user=user)
        return HttpResponseRedirect(_next_url(request) or reverse("accounts:profile"))
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request)})


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        user_login(request=self.request, user=form.get_user())
        return HttpResponseRedirect(self.get_success_url())


class LogoutView(auth_views.LogoutView):
    """Log out (POST only, so that a link cannot log anyone out)."""


@login_required
@require_http_methods(["GET"])
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"profile_user": request.user})
