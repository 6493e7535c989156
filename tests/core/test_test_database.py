"""The test database is emptied between transactional tests with DELETE
(config/testing/postgresql): every table ends empty, and the foreign keys allow any order."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the DELETE flush is PostgreSQL's test backend"
)


def test_the_test_backend_empties_tables_with_delete_unless_asked_to_restart_sequences() -> None:
    statements = connection.ops.sql_flush(no_style(), ["a_table", "b_table"])
    assert statements == ['DELETE FROM "a_table";', 'DELETE FROM "b_table";']
    restarting = connection.ops.sql_flush(no_style(), ["a_table"], reset_sequences=True)
    assert restarting and all(s.startswith("TRUNCATE") for s in restarting)


@pytest.mark.django_db
def test_every_foreign_key_is_checked_at_commit_so_tables_empty_in_any_order() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint "
            "WHERE contype = 'f' AND NOT condeferred"
        )
        checked_at_once = cursor.fetchall()
    assert checked_at_once == []


@pytest.mark.django_db(transaction=True)
def test_a_flush_leaves_every_table_empty_rows_that_refer_to_each_other_included() -> None:
    user = get_user_model().objects.create_user("flushed", password="x" * 12)
    user.user_permissions.add(*Permission.objects.order_by("pk")[:2])
    call_command("flush", verbosity=0, interactive=False, inhibit_post_migrate=True)
    tables = connection.introspection.django_table_names(only_existing=True)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    assert tables and not any(counts.values()), {t: n for t, n in counts.items() if n}
    call_command("flush", verbosity=0, interactive=False)  # content types and permissions back
