from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0005_live_seeks"),
    ]

    operations = [
        migrations.AddField(
            model_name="livegame",
            name="takeback_offer_by",
            field=models.CharField(blank=True, max_length=8),
        ),
        migrations.AddField(
            model_name="livegame",
            name="takeback_offer_ply",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="livegame",
            name="takeback_declined",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="livegame",
            name="takebacks",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
