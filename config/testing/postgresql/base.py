"""PostgreSQL for the test suite: the same backend, emptied with ``DELETE`` between tests.

A test whose commits were real (a live server's, a Celery worker's, ``transaction=True``) has
its database emptied afterwards by Django's ``flush``, which PostgreSQL's backend writes as one
``TRUNCATE`` of every table. ``TRUNCATE`` gives each table and index new files and removes the
old ones when it commits: about 1.9 s for this project's few dozen tables, however few rows
they hold, and several hundred tests empty the database. ``DELETE`` of the handful of rows a
test leaves takes about 20 ms. Every foreign key Django makes is checked at commit
(``DEFERRABLE INITIALLY DEFERRED``, ``tests/core/test_test_database.py`` keeps it so), so the
tables can be emptied in any order inside the flush's transaction. A flush asked to restart
the tables' sequences, or to cascade to tables it does not name, is left to ``TRUNCATE``.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} "
            f"{style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
