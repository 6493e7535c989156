# One owner convention for every app (accounts.owners): a user's game has visitor_id NULL, not "".

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
    apps.get_model("games", "Game").objects.filter(visitor_id="").update(visitor_id=None)


def null_to_blank(apps, schema_editor):
    apps.get_model("games", "Game").objects.filter(visitor_id__isnull=True).update(visitor_id="")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="game", name="game_owner_user_xor_visitor"),
        migrations.AlterField(model_name="game", name="visitor_id", field=owner_visitor_field()),
        migrations.RunPython(blank_to_null, null_to_blank),
        migrations.AddConstraint(
            model_name="game", constraint=owner_check("game_owner_user_xor_visitor")
        ),
    ]
