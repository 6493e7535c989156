# Attempts played on the server: first tries, one open attempt per player and puzzle, and
# the judge's answers kept per line.

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def mark_existing_attempts(apps, schema_editor):
    """Before the new constraints: a rated attempt was its player's first try (the earliest
    rated one per player and puzzle, should two have been), and of several attempts a player
    left open at one puzzle (hints asked under throwaway ids) only the newest stays open."""
    attempt_model = apps.get_model("puzzles", "PuzzleAttempt")
    seen = set()
    for row in attempt_model.objects.filter(rated=True).order_by("submitted_at", "id"):
        key = (row.user_id, row.puzzle_id)
        if key in seen:
            attempt_model.objects.filter(pk=row.pk).update(rated=False)
        else:
            seen.add(key)
            attempt_model.objects.filter(pk=row.pk).update(first_try=True)
    kept = set()
    for row in attempt_model.objects.filter(state="started").order_by("-created_at", "-id"):
        key = (row.user_id, row.visitor_id if row.user_id is None else "", row.puzzle_id)
        if key in kept:
            attempt_model.objects.filter(pk=row.pk).update(state="abandoned")
        else:
            kept.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PuzzleLineResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("proof", models.CharField(max_length=16)),
                (
                    "kind",
                    models.CharField(choices=[("judge", "judge"), ("hint", "hint")], max_length=8),
                ),
                ("line", models.TextField(blank=True)),
                ("answer", models.JSONField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.RemoveConstraint(
            model_name="puzzleattempt",
            name="attempt_rated_needs_user",
        ),
        migrations.AddField(
            model_name="puzzleattempt",
            name="first_try",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="puzzleattempt",
            name="client_id",
            field=models.UUIDField(default=uuid.uuid4),
        ),
        migrations.AlterField(
            model_name="puzzleattempt",
            name="state",
            field=models.CharField(
                choices=[
                    ("started", "Started"),
                    ("submitted", "Waiting to be scored"),
                    ("scored", "Scored"),
                    ("abandoned", "Abandoned"),
                ],
                default="started",
                max_length=16,
            ),
        ),
        migrations.RunPython(mark_existing_attempts, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.UniqueConstraint(
                condition=models.Q(("state", "started"), ("user__isnull", False)),
                fields=("user", "puzzle"),
                name="attempt_one_open_per_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.UniqueConstraint(
                condition=models.Q(("state", "started"), ("user__isnull", True)),
                fields=("visitor_id", "puzzle"),
                name="attempt_one_open_per_visitor",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.UniqueConstraint(
                condition=models.Q(("first_try", True), ("user__isnull", False)),
                fields=("user", "puzzle"),
                name="attempt_one_first_try_per_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.UniqueConstraint(
                condition=models.Q(("first_try", True), ("user__isnull", True)),
                fields=("visitor_id", "puzzle"),
                name="attempt_one_first_try_per_visitor",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzleattempt",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("rated", True), _negated=True),
                    models.Q(("user__isnull", False), ("first_try", True)),
                    _connector="OR",
                ),
                name="attempt_rated_needs_user_first_try",
            ),
        ),
        migrations.AddField(
            model_name="puzzlelineresult",
            name="puzzle",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="line_results",
                to="puzzles.puzzle",
            ),
        ),
        migrations.AddConstraint(
            model_name="puzzlelineresult",
            constraint=models.UniqueConstraint(
                fields=("puzzle", "proof", "kind", "line"), name="line_result_unique"
            ),
        ),
    ]
