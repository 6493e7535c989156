"""The takeback columns get defaults in the database too (a row written without them)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0007_presence"),
    ]

    operations = [
        migrations.AlterField(
            model_name="livegame",
            name="takeback_declined",
            field=models.JSONField(blank=True, db_default={}, default=dict),
        ),
        migrations.AlterField(
            model_name="livegame",
            name="takeback_offer_by",
            field=models.CharField(blank=True, db_default="", max_length=8),
        ),
        migrations.AlterField(
            model_name="livegame",
            name="takebacks",
            field=models.JSONField(blank=True, db_default=[], default=list),
        ),
    ]
