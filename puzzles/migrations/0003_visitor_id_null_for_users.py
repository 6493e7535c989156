# One owner convention for every app (accounts.owners): a user's row has visitor_id NULL, not "".

from django.db import migrations, models
from django.db.models import Q


def owner_visitor_field():
    return models.CharField(blank=True, db_index=True, max_length=64, null=True)


def owner_check(name):
    return models.CheckConstraint(
        condition=(Q(user__isnull=False) & Q(visitor_id__isnull=True))
        | (Q(user__isnull=True) & Q(visitor_id__isnull=False)),
        name=name,
    )


def blank_to_null(apps, schema_editor):
    for name in ("PuzzleAttempt", "PuzzleReplay"):
        model = apps.get_model("puzzles", name)
        model.objects.filter(visitor_id="").update(visitor_id=None)


def null_to_blank(apps, schema_editor):
    for name in ("PuzzleAttempt", "PuzzleReplay"):
        model = apps.get_model("puzzles", name)
        model.objects.filter(visitor_id__isnull=True).update(visitor_id="")


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0002_attempts_played_on_the_server"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="puzzleattempt", name="attempt_one_owner"),
        migrations.RemoveConstraint(model_name="puzzlereplay", name="replay_one_owner"),
        migrations.AlterField(
            model_name="puzzleattempt", name="visitor_id", field=owner_visitor_field()
        ),
        migrations.AlterField(
            model_name="puzzlereplay", name="visitor_id", field=owner_visitor_field()
        ),
        migrations.RunPython(blank_to_null, null_to_blank),
        migrations.AddConstraint(
            model_name="puzzleattempt", constraint=owner_check("attempt_one_owner")
        ),
        migrations.AddConstraint(
            model_name="puzzlereplay", constraint=owner_check("replay_one_owner")
        ),
    ]
