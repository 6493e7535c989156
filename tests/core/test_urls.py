"""One URL convention: every app's pages in ``<app>/urls.py`` (namespace ``<app>``) and its JSON
API in ``<app>/api_urls.py`` (namespace ``<app>-api``, under /api/); the public URLs stay
exactly these."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

PUBLIC = [
    "accounts/login/",
    "accounts/logout/",
    "accounts/password-reset/",
    "accounts/password-reset/<uidb64>/<token>/",
    "accounts/password-reset/complete/",
    "accounts/password-reset/sent/",
    "accounts/profile/",
    "accounts/signup/",
    "analysis/",
    "api/docs/",
    "api/games/",
    "api/games/<int:game_id>/",
    "api/games/<int:game_id>/analysis/",
    "api/games/<int:game_id>/claim/",
    "api/games/<int:game_id>/draw/",
    "api/games/<int:game_id>/draw/answer/",
    "api/games/<int:game_id>/moves/",
    "api/games/<int:game_id>/resign/",
    "api/games/<int:game_id>/setup/",
    "api/games/<int:game_id>/share/",
    "api/games/<int:game_id>/takeback/",
    "api/games/setup/check/",
    "api/learn/courses/",
    "api/live/<int:game_id>/analysis/",
    "api/learn/lessons/<slug:slug>/",
    "api/learn/lessons/<slug:slug>/steps/<str:key>/answer/",
    "api/learn/lessons/<slug:slug>/steps/<str:key>/moves/",
    "api/learn/lessons/<slug:slug>/steps/<str:key>/setup/",
    "api/positions/",
    "api/puzzles/",
    "api/puzzles/<int:puzzle_id>/",
    "api/puzzles/<int:puzzle_id>/attempts/",
    "api/puzzles/<int:puzzle_id>/give-up/",
    "api/puzzles/<int:puzzle_id>/hint/",
    "api/puzzles/<int:puzzle_id>/judge/",
    "api/puzzles/attempts/<int:attempt_id>/",
    "api/puzzles/authored/",
    "api/puzzles/authored/<int:puzzle_id>/",
    "api/puzzles/authored/<int:puzzle_id>/submit/",
    "api/puzzles/authored/check/",
    "api/puzzles/daily/",
    "api/puzzles/dashboard/",
    "api/puzzles/missed/",
    "api/puzzles/next/",
    "api/puzzles/runs/",
    "api/puzzles/runs/<int:run_id>/",
    "api/puzzles/runs/<int:run_id>/move/",
    "api/puzzles/runs/<int:run_id>/skip/",
    "api/puzzles/runs/<int:run_id>/stop/",
    "api/puzzles/runs/leaderboard/",
    "api/puzzles/themes/",
    "api/schema/",
    "api/variants/",
    "favicon.ico",
    "healthz",
    "healthz/full",
    "i18n/setlang/",
    "learn/",
    "learn/<slug:slug>/",
    "play/",
    "play/<int:game_id>/",
    "play/<int:game_id>/learn/",
    "play/g/<str:slug>/",
    "play/games/",
    "play/live/",
    "play/live/lobby/",
    "play/live/blocks/<int:user_id>/unblock/",
    "play/live/<str:slug>/",
    "play/live/<str:slug>/accept/",
    "play/live/<str:slug>/block/",
    "play/live/<int:game_id>/replay/",
    "play/live/<int:game_id>/learn/",
    "play/masters/",
    "play/masters/<int:game_id>/",
    "puzzles/",
    "puzzles/create/",
    "puzzles/create/<int:puzzle_id>/",
    "puzzles/daily/",
    "puzzles/daily/<str:variant>/",
    "puzzles/dashboard/",
    "puzzles/mine/",
    "puzzles/p/<str:slug>/",
    "puzzles/patterns/",
    "puzzles/storm/",
    "puzzles/streak/",
    "api/games/analysis/",
    "api/games/analysis/<int:analysis_id>/",
    "api/learn/lessons/<slug:slug>/steps/<str:key>/write/",
]


def routes() -> list[tuple[str, str, str]]:
    """(path, namespace, module of the urls file) of every URL outside the admin."""
    found: list[tuple[str, str, str]] = []

    def walk(resolver: URLResolver, prefix: str, namespace: str, module: str) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                inner = getattr(entry.urlconf_module, "__name__", module)
                walk(entry, prefix + str(entry.pattern), entry.namespace or namespace, inner)
            elif isinstance(entry, URLPattern):
                found.append((prefix + str(entry.pattern), namespace, module))

    walk(get_resolver(), "", "", "config.urls")
    return [r for r in found if not r[0].startswith("admin/")]


def test_the_public_urls_are_unchanged() -> None:
    paths = sorted(path or "" for path, _ns, _module in routes())
    assert sorted(p for p in paths if p) == sorted(PUBLIC)


def test_every_app_api_lives_in_its_api_urls_under_api() -> None:
    for path, namespace, module in routes():
        app = module.split(".")[0]
        if module.endswith(".api_urls"):
            assert namespace == f"{app}-api", (path, namespace, module)
            assert path.startswith("api/"), (path, module)
        elif module.endswith(".urls") and app in ("core", "tutorials", "puzzles", "games"):
            assert namespace == app, (path, namespace, module)
            assert not path.startswith("api/"), (path, module)
