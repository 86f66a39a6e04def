from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from matches import stream_verifiers
from matches.models import Match, Stream
from matches.verification import match_verify


class Command(BaseCommand):
    help = (
        "Verify one finished match, or with --all every stream of every kind (matches, drafts, seasons, "
        "tournaments): each disputed one is printed with its kind, first bad event and reason; exit 2 if any."
    )

    def add_arguments(self, parser):
        parser.add_argument("match_id", nargs="?", help="One match's id, or any stream's id (season:..., ...)")
        parser.add_argument("--all", action="store_true", help="Every stream of every kind")
        parser.add_argument(
            "--kind",
            action="append",
            default=[],
            help="With --all: only streams of this kind (match, season, tournament); repeatable",
        )

    def handle(self, *args, match_id=None, all=False, kind=(), **options):
        if bool(match_id) == bool(all):
            raise CommandError("Give one MATCH_ID, or --all.")
        if match_id:
            return self._one_match(match_id)
        streams = Stream.objects.order_by("kind", "created_at", "id")
        if kind:
            streams = streams.filter(kind__in=kind)
        ids = list(streams.values_list("id", flat=True))
        disputed, by_kind = 0, {}
        # A chunk at a time: its finished matches are verified in one batch (their verdicts
        # recorded together, their results and ratings following as one task).
        progress = tqdm(total=len(ids), desc="Verifying", unit="stream", disable=len(ids) < 2, file=self.stderr._out)
        verdicts = []
        for start in range(0, len(ids), stream_verifiers.MATCH_BATCH):
            chunk = stream_verifiers.verify_streams(ids[start : start + stream_verifiers.MATCH_BATCH])
            verdicts += [verdict for _sid, verdict in chunk]
            progress.update(len(chunk))
        progress.close()
        for verdict in verdicts:
            by_kind[verdict.kind] = by_kind.get(verdict.kind, 0) + 1
            if not verdict.ok:
                disputed += 1
                self.stdout.write(
                    f"[{verdict.kind}] {verdict.label}: DISPUTED at event {verdict.seq}: {verdict.reason}"
                )
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(by_kind.items()))
        self.stdout.write(f"{len(ids) - disputed} verified, {disputed} disputed." + (f" ({kinds})" if kinds else ""))
        if disputed:
            raise CommandError(f"{disputed} stream(s) disputed.", returncode=2)

    def _one_match(self, match_id):
        stream = Stream.objects.filter(pk=match_id).first()
        if stream is not None:
            verdict = stream_verifiers.verify_stream(stream)
            if not verdict.ok:
                self.stdout.write(
                    f"[{verdict.kind}] {verdict.label}: DISPUTED at event {verdict.seq}: {verdict.reason}"
                )
                raise CommandError("1 stream disputed.", returncode=2)
            self.stdout.write(
                f"[{verdict.kind}] {verdict.label}: verified ({stream.head_seq} events, head {stream.head_hash})"
            )
            return
        if not _is_uuid(match_id) or not Match.objects.filter(pk=match_id).exists():
            raise CommandError(f"No match {match_id}.")
        verdict = match_verify(match_id=match_id)
        if not verdict.verified:
            self.stdout.write(f"{match_id}: DISPUTED at event {verdict.seq}: {verdict.reason}")
            raise CommandError("1 match(es) disputed.", returncode=2)
        self.stdout.write(f"{match_id}: verified ({verdict.events} events, head {verdict.head_hash})")


def _is_uuid(text: str) -> bool:
    import uuid

    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True
