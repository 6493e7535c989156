"""A newcomer's first steps against a running site, over HTTP, as `scripts/run --check` makes
them on a fresh clone (SQLite and the file broker there, where the test suite's PostgreSQL is
not): as a visitor, open the course and a puzzle and try it, then sign up (a visitor's progress
goes to the new account) and open the dashboard. Exits non-zero, saying which step failed.

    python scripts/newcomer_journey.py http://127.0.0.1:8000/

Standard library only: it runs with the site's virtualenv but needs nothing from it.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import secrets
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any


class Visitor:
    """A browser without a browser: one cookie jar, Django's CSRF token sent back."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "csrftoken"), "")

    def call(
        self, method: str, path: str, *, form: dict[str, str] | None = None, api: bool = False
    ) -> tuple[int, str, str]:
        """(status, final address, body) of one request; redirects are followed."""
        headers = {"Referer": self.base + "/", "Accept-Language": "en"}
        data: bytes | None = None
        if method == "POST":
            headers["X-CSRFToken"] = self.csrf()
            if api:
                headers["Content-Type"] = "application/json"
                data = b"{}"
            else:
                fields = {**(form or {}), "csrfmiddlewaretoken": self.csrf()}
                data = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        request.method = method
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.url, error.read().decode()

    def expect(self, method: str, path: str, statuses: tuple[int, ...], **kw: Any) -> str:
        status, url, body = self.call(method, path, **kw)
        if status not in statuses:
            sys.exit(f"newcomer journey: {method} {path} answered {status} ({body[:300]!r})")
        return body


def journey(base: str) -> None:
    me = Visitor(base)
    me.expect("GET", "/learn/", (200,))
    me.expect("GET", "/puzzles/", (200,))
    puzzle = json.loads(me.expect("GET", "/api/puzzles/next/?variant=xiangqi", (200,)))
    me.expect("POST", f"/api/puzzles/{puzzle['id']}/attempts/", (200, 201), api=True)
    print(f"  a visitor opened the course and tried puzzle {puzzle['id']}")

    page = me.expect("GET", "/accounts/signup/", (200,))
    if not re.search(r'name="password1"', page):
        sys.exit("newcomer journey: the sign-up page has no password field")
    name = f"newcomer-{secrets.token_hex(4)}"
    password = secrets.token_urlsafe(16)
    form = {"username": name, "email": f"{name}@example.org", "password1": password,
            "password2": password}  # fmt: skip
    status, url, body = me.call("POST", "/accounts/signup/", form=form)
    if status != 200 or url.rstrip("/").endswith("/accounts/signup"):
        sys.exit(f"newcomer journey: signing up answered {status} at {url} ({body[:300]!r})")
    dashboard = me.expect("GET", "/puzzles/dashboard/", (200,))
    if name not in dashboard:
        sys.exit("newcomer journey: after signing up the dashboard does not name the account")
    print(f"  signed up as {name}; the dashboard answers")


if __name__ == "__main__":
    journey(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/")
