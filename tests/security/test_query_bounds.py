"""No request can make the database work without bound. Every query parameter of the API
declares a bound (choices, a range, a length) and is refused past it; every list parameter
costs the same number of queries, and a plan of the same shape and about the same estimated
cost, at one item and at its cap (one join per theme once took the database server down);
and a web request's database session runs under the web's statement and lock time limits,
which cancel a query that runs longer (a worker's and a command's limits are their own)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework import serializers
from rest_framework.views import APIView

from config.database import use_role
from core.api_helpers import CommaSeparatedField

pytestmark = pytest.mark.django_db


def api_schema() -> dict[str, Any]:
    answer = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    return dict(json.loads(answer.content))


def query_parameters() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path, parameter name, schema) of every query parameter of every API operation."""
    for path, operations in api_schema()["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query":
                    yield path, parameter["name"], parameter["schema"]


def is_bounded(schema: dict[str, Any]) -> bool:
    if "enum" in schema or schema.get("format") in ("date", "date-time"):
        return True
    if schema.get("type") in ("integer", "number"):
        return "minimum" in schema and "maximum" in schema
    return schema.get("type") == "string" and "maxLength" in schema


def test_every_query_parameter_of_the_api_is_bounded() -> None:
    found = list(query_parameters())
    assert {("/api/puzzles/", "themes"), ("/api/puzzles/next/", "exclude")} <= {
        (path, name) for path, name, _ in found
    }
    unbounded = [f"{path} ?{name}" for path, name, schema in found if not is_bounded(schema)]
    assert not unbounded, f"query parameters without a bound: {unbounded}"


def past_bound(schema: dict[str, Any]) -> str | None:
    if "maxLength" in schema:
        return "1" * (schema["maxLength"] + 1)
    if schema.get("type") == "integer" and "maximum" in schema:
        return str(schema["maximum"] + 1)
    if schema.get("type") == "number" and "maximum" in schema:
        return str(schema["maximum"] * 2 + 1)
    return None


def test_a_query_parameter_past_its_bound_is_refused() -> None:
    checked = 0
    for path, name, schema in query_parameters():
        value = past_bound(schema)
        if value is None or "{" in path:
            continue
        answer = Client().get(path, {"variant": "xiangqi", name: value})
        assert answer.status_code == 400, (path, name, answer.content[:300])
        assert answer.json()["error"]["params"]["field"] == name
        checked += 1
    assert checked >= 4


# --- List parameters ------------------------------------------------------------------------


@dataclass(frozen=True)
class ListParameter:
    url_name: str
    name: str
    field: CommaSeparatedField
    required: dict[str, str]  # a valid value of each other required parameter

    def largest(self) -> list[str]:
        """As many different valid items as the parameter takes (ids of no puzzle: the
        answer is the same at one item and at many)."""
        if self.field.choices is not None:
            return list(self.field.choices)[: self.field.max_items]
        return [str(10**12 + index) for index in range(self.field.max_items)]


def _api_views() -> Iterator[tuple[str, type[APIView]]]:
    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, type[APIView]]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                yield from walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                view = getattr(pattern.callback, "cls", None)
                if view is not None and issubclass(view, APIView):
                    yield f"{namespace}{pattern.name}", view

    yield from walk(get_resolver().url_patterns, "")


def list_parameters() -> list[ListParameter]:
    """Every comma-separated list read by an API view without a path parameter."""
    found = []
    for url_name, view in _api_views():
        try:
            reverse(url_name)
        except Exception:  # noqa: BLE001 - a URL with a path parameter
            continue
        for attribute in vars(view).values():
            if not (isinstance(attribute, type) and issubclass(attribute, serializers.Serializer)):
                continue
            fields = attribute().fields
            required = {
                name: str(next(iter(field.choices)))
                for name, field in fields.items()
                if field.required and isinstance(field, serializers.ChoiceField)
            }
            for name, field in fields.items():
                if isinstance(field, CommaSeparatedField):
                    found.append(ListParameter(url_name, name, field, required))
    return found


def test_the_list_parameters_are_found() -> None:
    assert {("puzzles-api:list", "themes"), ("puzzles-api:next", "themes")} <= {
        (p.url_name, p.name) for p in list_parameters()
    }


@dataclass(frozen=True)
class Cost:
    queries: int
    scans: int  # tables and indexes read, over every plan
    estimate: float  # PostgreSQL's estimated total cost, over every plan


def _scans(plan: dict[str, Any]) -> int:
    own = 1 if "Relation Name" in plan else 0
    return own + sum(_scans(child) for child in plan.get("Plans", []))


def request_cost(url: str, query: dict[str, str]) -> Cost:
    """What the request costs the database: its queries, and the plans of its reads (each
    query's plan, from EXPLAIN without running it)."""
    with CaptureQueriesContext(connection) as captured:
        answer = Client().get(url, query)
    assert answer.status_code in (200, 404), answer.content[:300]
    scans, estimate = 0, 0.0
    with connection.cursor() as cursor:
        for executed in captured.captured_queries:
            if not executed["sql"].lstrip().upper().startswith("SELECT"):
                continue
            cursor.execute("EXPLAIN (FORMAT JSON) " + executed["sql"])
            found = cursor.fetchone()[0]
            plan = (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]
            scans += _scans(plan)
            estimate += plan["Total Cost"]
    return Cost(len(captured.captured_queries), scans, estimate)


def vacuum_puzzle_tables() -> None:
    """Earlier tests' rolled-back rows leave the puzzle tables hundreds of pages long with a
    handful of live rows; the planner prices a scan by pages, so the estimates would measure
    those leftovers rather than the filter. VACUUM (outside the test's transaction, on a
    connection of its own) gives the pages back."""
    from puzzles.models import Puzzle, PuzzleTheme

    own = connection.get_new_connection(connection.get_connection_params())
    try:
        own.autocommit = True
        for model in (Puzzle, Puzzle.themes.through, PuzzleTheme):
            own.execute(f"VACUUM {model._meta.db_table}")
    finally:
        own.close()


@pytest.mark.parametrize("parameter", list_parameters(), ids=lambda p: f"{p.url_name}?{p.name}")
def test_a_list_parameter_costs_the_same_at_one_item_and_at_its_cap(
    parameter: ListParameter, published: Any
) -> None:
    vacuum_puzzle_tables()
    published()
    with connection.cursor() as cursor:
        # Statistics of this test's rows, not of whatever earlier tests left: the estimates
        # then follow the rows the filter can match (rolled back with the test).
        cursor.execute("ANALYZE")
    url = reverse(parameter.url_name)
    items = parameter.largest()
    assert len(items) == parameter.field.max_items
    one = request_cost(url, {**parameter.required, parameter.name: items[0]})
    cap = request_cost(url, {**parameter.required, parameter.name: ",".join(items)})
    assert (cap.queries, cap.scans) == (one.queries, one.scans), (one, cap)
    # A longer list matches more rows of the same scans, no more: the estimate stays close
    # (asked again after, in case the table statistics changed in between).
    again = request_cost(url, {**parameter.required, parameter.name: items[0]})
    assert cap.estimate <= 2 * max(one.estimate, again.estimate), (one, cap, again)


@pytest.mark.parametrize("parameter", list_parameters(), ids=lambda p: f"{p.url_name}?{p.name}")
def test_a_list_parameter_refuses_more_items_than_its_cap(parameter: ListParameter) -> None:
    url = reverse(parameter.url_name)
    items = [f"{index}" for index in range(parameter.field.max_items + 1)]
    if parameter.field.choices is not None:
        items = [f"x{index}" for index in range(parameter.field.max_items + 1)]
    with CaptureQueriesContext(connection) as captured:
        answer = Client().get(url, {**parameter.required, parameter.name: ",".join(items)})
    assert answer.status_code == 400, answer.content[:300]
    error = answer.json()["error"]
    assert error["code"] == "input.too_many"
    assert error["params"] == {"field": parameter.name, "limit": parameter.field.max_items}
    assert not [q for q in captured.captured_queries if "puzzles_" in q["sql"]]


# --- Time limits ----------------------------------------------------------------------------


@pytest.mark.urls("tests.security.session_limit_urls")
def test_a_web_request_runs_under_the_web_time_limits() -> None:
    answer = Client().get("/api/test-session-limits/").json()
    web = settings.DATABASE_TIMEOUTS["web"]
    assert web == {"statement_ms": 5_000, "lock_ms": 2_000}
    assert answer == {"statement_timeout": "5s", "lock_timeout": "2s"}


@pytest.fixture
def limits() -> Iterator[dict[str, dict[str, int]]]:
    """The roles' limits, changed by the test and restored after it; the connection opens
    again with the web's."""
    kept = {role: dict(values) for role, values in settings.DATABASE_TIMEOUTS.items()}
    try:
        yield settings.DATABASE_TIMEOUTS
    finally:
        for role, values in kept.items():
            settings.DATABASE_TIMEOUTS[role] = values
        use_role("web")


@pytest.mark.django_db(transaction=True)
@pytest.mark.urls("tests.security.session_limit_urls")
def test_a_query_longer_than_the_web_statement_limit_is_cancelled(limits: Any) -> None:
    limits["web"] = {"statement_ms": 200, "lock_ms": 200}
    use_role("web")
    client = Client(raise_request_exception=False)
    assert client.get("/api/test-sleep/", {"seconds": "0"}).status_code == 200
    answer = client.get("/api/test-sleep/", {"seconds": "30"})
    assert answer.status_code == 503 and answer["Retry-After"]
    assert client.get("/api/test-session-limits/").json()["statement_timeout"] == "200ms"


def session_limits() -> tuple[str, str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout'), "
            "current_setting('application_name')"
        )
        row = cursor.fetchone()
    return row[0], row[1], row[2]


@pytest.mark.django_db(transaction=True)
def test_workers_and_commands_have_limits_of_their_own(limits: Any) -> None:
    use_role("worker")
    assert session_limits() == ("1min", "20s", "xiangqi-school-worker")
    use_role("command")
    assert session_limits() == ("0", "0", "xiangqi-school-command")
    use_role("web")
    assert session_limits() == ("5s", "2s", "xiangqi-school-web")


@pytest.mark.celery
def test_a_celery_worker_opens_its_sessions_with_the_worker_limits(celery_worker: Any) -> None:
    from core.tasks import health_check

    assert health_check.delay().get(timeout=60)["database"]["ok"]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT application_name FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        names = {row[0] for row in cursor.fetchall()}
    assert "xiangqi-school-worker" in names, names
