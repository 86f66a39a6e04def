import json

from django.core.management.base import BaseCommand, CommandError

from matches.checkpoints.export import NotExportable, anchor_note, bundle_for, stream_for
from matches.checkpoints.services import checkpoint_sign


class Command(BaseCommand):
    help = (
        "Write a stream's audit bundle (events with salts, revealed secret, engine, head, inclusion proof, "
        "checkpoint, public key); check it anywhere with `python -m audit verify FILE`."
    )

    def add_arguments(self, parser):
        parser.add_argument("stream", help="A stream id (match:..., season:..., tournament:...) or a match id")
        parser.add_argument("--out", required=True, help="The file to write ('-' for standard output)")
        parser.add_argument(
            "--no-checkpoint",
            action="store_true",
            help="Do not sign a checkpoint first (the head may then not be anchored yet)",
        )

    def handle(self, *args, stream, out, no_checkpoint=False, **options):
        try:
            found = stream_for(stream)
            if not no_checkpoint:
                checkpoint_sign()  # so the head as it is now is in a signed checkpoint
            data = bundle_for(found)
        except NotExportable as exc:
            raise CommandError(exc.message) from None
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if out == "-":
            self.stdout.write(text)
            return
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        anchor = anchor_note(data, stream_events=found.head_seq)
        self.stderr.write(
            f"{found.id}: {len(data['events'])} events, head {data['head']['hash']}, anchored by {anchor}; "
            f"written to {out}."
        )
