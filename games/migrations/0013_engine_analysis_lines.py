from django.db import migrations, models


class Migration(migrations.Migration):
    """The analysis board's searches keep their budget: the board asks again, deeper, while a
    position is shown. The searches made before were all of 200,000 nodes."""

    dependencies = [
        ("games", "0012_game_analysis_engine"),
    ]

    operations = [
        migrations.AddField(
            model_name="engineanalysis",
            name="nodes",
            field=models.PositiveIntegerField(default=200_000),
            preserve_default=False,
        ),
    ]
