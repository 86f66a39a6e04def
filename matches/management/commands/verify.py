from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from matches.models import Match
from matches.verification import match_verify


class Command(BaseCommand):
    help = "Replay finished matches from their events and record a verification verdict."

    def add_arguments(self, parser):
        parser.add_argument("match_id", nargs="?", help="One match's id")
        parser.add_argument("--all", action="store_true", help="Every finished match")

    def handle(self, *args, match_id=None, all=False, **options):
        if bool(match_id) == bool(all):
            raise CommandError("Give one MATCH_ID, or --all.")
        if match_id:
            if not Match.objects.filter(pk=match_id).exists():
                raise CommandError(f"No match {match_id}.")
            ids = [match_id]
        else:
            ids = list(Match.objects.filter(status=Match.Status.FINISHED).order_by("created_at").values_list("id", flat=True))
        disputed = 0
        for mid in tqdm(ids, desc="Verifying", unit="match", disable=len(ids) < 2, file=self.stderr._out):
            verdict = match_verify(match_id=mid)
            if not verdict.verified:
                disputed += 1
                self.stdout.write(f"{mid}: DISPUTED at event {verdict.seq}: {verdict.reason}")
            elif match_id:
                self.stdout.write(f"{mid}: verified ({verdict.events} events, head {verdict.head_hash})")
        if len(ids) > 1 or not ids:
            self.stdout.write(f"{len(ids) - disputed} verified, {disputed} disputed.")
        if disputed:
            raise CommandError(f"{disputed} match(es) disputed.", returncode=2)
