from datetime import UTC

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from tqdm import tqdm

from matches.errors import Refusal
from matches.models import OutboxMessage
from matches.outbox import made_up_for, outbox_discard, outbox_retry, outbox_sweep

#: Rows listed per section of ``status``.
LISTED = 20


class Command(BaseCommand):
    help = (
        "The outbox's messages: 'status' lists the pending ones and, apart, the dead ones (their attempts ran "
        "out: not tried again) and the discarded ones; 'sweep' delivers the pending ones now (what Celery beat "
        "does every few seconds); 'retry ID' or 'retry --all-dead' makes dead messages pending again; "
        "'discard ID --reason TEXT' gives up on one for good."
    )

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["sweep", "status", "retry", "discard"])
        parser.add_argument("message_id", nargs="?", type=int, help="retry, discard: the message's id (#N in status)")
        parser.add_argument("--all-dead", action="store_true", help="retry: every dead message (not the discarded)")
        parser.add_argument("--reason", default="", help="discard: why it is given up on (kept on the message)")

    def handle(self, *args, action, message_id=None, all_dead=False, reason="", **options):
        try:
            if action == "retry":
                return self._retry(message_id, all_dead)
            if action == "discard":
                if message_id is None:
                    raise CommandError("Give the id of the message to discard.")
                return self._discard(message_id, reason)
        except Refusal as refusal:
            raise CommandError(refusal.message) from None
        if action == "sweep":
            delivered = outbox_sweep()
            self.stdout.write(f"{delivered} delivered.")
        self._status()

    def _status(self):
        undelivered = OutboxMessage.objects.filter(delivered_at__isnull=True).order_by("id")
        pending = undelivered.filter(dead_at__isnull=True)
        self.stdout.write(f"{pending.count()} pending.")
        for message in pending[:LISTED]:
            self.stdout.write(f"  {message.topic} #{message.pk}: {message.attempts} attempts; {message.last_error}")
        dead = undelivered.filter(dead_at__isnull=False, discarded_at__isnull=True)
        self.stdout.write(
            f"{dead.count()} dead: their attempts ran out, nothing tries them again until 'outbox retry ID' "
            "(or --all-dead) once the cause is fixed, or 'outbox discard ID --reason TEXT' gives up on them."
        )
        for message in dead[:LISTED]:
            self.stdout.write(
                f"  {message.topic} #{message.pk}: {message.attempts} attempts, the last at {_when(message.dead_at)}; "
                f"{message.last_error}\n    {made_up_for(message.topic, message_id=message.pk)}"
            )
        discarded = undelivered.filter(discarded_at__isnull=False)
        self.stdout.write(f"{discarded.count()} discarded.")
        for message in discarded.order_by("-discarded_at", "-id")[:LISTED]:
            self.stdout.write(
                f"  {message.topic} #{message.pk}: given up on at {_when(message.discarded_at)}: "
                f"{message.discard_reason} ({message.attempts} attempts; {message.last_error or 'no error'})"
            )

    def _retry(self, message_id, all_dead):
        if (message_id is None) == (not all_dead):
            raise CommandError("Give one message's id, or --all-dead.")
        if message_id is not None:
            self._retried(outbox_retry(message_id=message_id))
            self.stdout.write("1 retried.")
            return
        ids = list(
            OutboxMessage.objects.filter(delivered_at__isnull=True, dead_at__isnull=False, discarded_at__isnull=True)
            .order_by("id")
            .values_list("pk", flat=True)
        )
        retried = 0
        for pk in tqdm(ids, desc="Retrying", unit="message", disable=len(ids) < 2, file=self.stderr._out):
            try:
                self._retried(outbox_retry(message_id=pk))
                retried += 1
            except Refusal as refusal:  # retried, discarded or gone meanwhile
                self.stdout.write(f"skipped: {refusal.message}")
        self.stdout.write(f"{retried} retried.")

    def _retried(self, was: OutboxMessage):
        self.stdout.write(
            f"retried {was.topic} #{was.pk} at {_when(timezone.now())}: pending again, its attempts counted from 0 "
            f"(it was dead since {_when(was.dead_at)} after {was.attempts} attempts; last error: {was.last_error})"
        )

    def _discard(self, message_id, reason):
        message = outbox_discard(message_id=message_id, reason=reason)
        self.stdout.write(
            f"discarded {message.topic} #{message.pk} at {_when(message.discarded_at)} for good: "
            f"{message.discard_reason} ({message.attempts} attempts; last error: {message.last_error or 'none'})"
        )


def _when(moment) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC") if moment else "never"
