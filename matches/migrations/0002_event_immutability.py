from django.db import migrations

from matches import immutability


def install(apps, schema_editor):
    immutability.install(schema_editor)


def remove(apps, schema_editor):
    immutability.remove(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
