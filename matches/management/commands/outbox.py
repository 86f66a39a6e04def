from django.core.management.base import BaseCommand

from matches.models import OutboxMessage
from matches.outbox import outbox_sweep


class Command(BaseCommand):
    help = "Deliver the outbox's pending messages now (what Celery beat does every few seconds)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["sweep", "status"])

    def handle(self, *args, action, **options):
        if action == "sweep":
            delivered = outbox_sweep()
            self.stdout.write(f"{delivered} delivered.")
        pending = OutboxMessage.objects.filter(delivered_at__isnull=True)
        self.stdout.write(f"{pending.count()} pending.")
        for message in pending.order_by("id")[:20]:
            self.stdout.write(f"  {message.topic} #{message.pk}: {message.attempts} attempts; {message.last_error}")
