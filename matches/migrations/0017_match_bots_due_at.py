from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0016_match_left"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="bots_due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
    ]
