from django.core.management.base import BaseCommand

from matches.checkpoints.services import checkpoint_sign


class Command(BaseCommand):
    help = "Log every stream head that moved and sign a checkpoint over the transparency log."

    def handle(self, *args, **options):
        checkpoint, created, heads = checkpoint_sign()
        for stream_id in heads.conflicts:
            self.stderr.write(
                f"{stream_id}: its head contradicts the head already logged; not logged (run `manage.py verify --all`)."
            )
        logged = f"{len(heads.appended)} head(s) logged. "
        if created:
            self.stdout.write(
                f"{logged}Checkpoint {checkpoint.tree_size} signed: root {checkpoint.root_hash}, "
                f"key {checkpoint.key_id}, {checkpoint.timestamp}."
            )
        else:
            self.stdout.write(
                f"{logged}Nothing new; the latest checkpoint ({checkpoint.tree_size}, root "
                f"{checkpoint.root_hash}) still describes the log."
            )
