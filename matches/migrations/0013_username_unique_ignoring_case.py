"""One account per username whatever its case: the sign-up form's check (matches/views.py,
SignupForm) made a guarantee.

The form refuses a name another account holds in any case, but two sign-ups at once ("newcomer"
and "Newcomer") both passed that check and both were saved. A unique index on UPPER(username)
settles it in the database: UPPER is what Django's ``username__iexact`` compares on PostgreSQL, so
the index and the form agree on which names are one name (on SQLite both fold ASCII letters only).

The table is django.contrib.auth's, so no model of this app can declare the constraint: it is
added to the historical User here and left out of the migration state (auth's own migrations never
see it, and nothing asks to drop it).
"""

from django.db import migrations
from django.db.models import Count, UniqueConstraint
from django.db.models.functions import Upper

CONSTRAINT = UniqueConstraint(Upper("username"), name="auth_user_username_upper_unique")


def create(apps, schema_editor):
    User = apps.get_model("auth", "User")
    users = User.objects.using(schema_editor.connection.alias)
    same = users.values(key=Upper("username")).annotate(n=Count("pk")).filter(n__gt=1).values_list("key", flat=True)
    if same:
        # Stop with the names, not the database's own "could not create unique index".
        clashes = sorted(users.annotate(key=Upper("username")).filter(key__in=same).values_list("username", flat=True))
        raise RuntimeError(
            f"Accounts whose usernames differ only in case exist ({', '.join(clashes[:20])}): rename all but "
            "one of each (the admin's user page) and migrate again."
        )
    schema_editor.add_constraint(User, CONSTRAINT)


def drop(apps, schema_editor):
    schema_editor.remove_constraint(apps.get_model("auth", "User"), CONSTRAINT)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0012_event_finished_index"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(create, drop)]
