"""Django's flush, made to work with the append-only events table.

The test runner flushes the database between transactional tests. Flushing is an
operator's deliberate purge of everything, so the immutability triggers are suspended
for exactly that statement and put back afterwards, whatever happens.
"""

from django.core.management.commands.flush import Command as FlushCommand
from django.db import connections

from matches import immutability


class Command(FlushCommand):
    def handle(self, **options):
        connection = connections[options["database"]]
        disable, enable = immutability.suspended_statements(connection.vendor)
        with connection.cursor() as cursor:
            for sql in disable:
                cursor.execute(sql)
        try:
            return super().handle(**options)
        finally:
            with connection.cursor() as cursor:
                for sql in enable:
                    cursor.execute(sql)
