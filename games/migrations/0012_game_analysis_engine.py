"""A game analysis names the judge that searches it (Fairy-Stockfish or the site's engine), and
keeps every legal move weighed at each mistake and blunder ("Learn from your mistakes")."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0011_deep_work_queue")]

    operations = [
        migrations.AddField(
            model_name="gameanalysis",
            name="engine",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.AddField(
            model_name="gameanalysis",
            name="rankings",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
