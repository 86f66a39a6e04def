import datetime as dt
import time

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from league.seasons import selectors, services
from league.seasons.models import Club, Fixture, League, Season
from matches.commands import AT_HEAD
from matches.verification import matches_verify


class Command(BaseCommand):
    help = "Play a whole season with bots (drafts included) through the real services, then verify it."

    def add_arguments(self, parser):
        parser.add_argument("--league", default="iwdl")
        parser.add_argument("--season", type=int, required=True, help="Season number (created if it is the next)")
        parser.add_argument("--clubs", type=int, default=None, help="Only the first N clubs (a quick run)")
        parser.add_argument("--single", action="store_true", help="Single round robin (default: double)")
        parser.add_argument("--wait", type=int, default=600, help="Seconds to wait for workers (non-eager Celery)")

    def handle(self, *args, league, season, clubs, single, wait, **options):
        league_obj = services.league_load_iwdl() if league == "iwdl" else League.objects.filter(slug=league).first()
        if league_obj is None:
            raise CommandError(f"No league '{league}'.")
        season_obj = Season.objects.filter(league=league_obj, number=season).first()
        if season_obj is None:
            last = league_obj.seasons.order_by("-number").values_list("number", flat=True).first() or 0
            if season != last + 1:
                raise CommandError(f"Season {season} does not exist; the next new season is {last + 1}.")
            members = list(Club.objects.filter(league=league_obj).order_by("slug"))[: clubs or None]
            season_obj = services.season_create(
                league=league_obj, created_by=None, clubs=members, double=not single, start_date=dt.date.today()
            )
        fixtures = list(
            season_obj.fixtures.filter(status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED])
            .select_related("home", "away", "season")
            .order_by("round", "id")
        )
        started = time.monotonic()
        for fixture in tqdm(fixtures, desc=f"Season {season}", unit="fixture", file=self.stderr._out):
            # Seeding a season nobody else writes to yet: each start is decided on the head as it is.
            services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
        self._wait_for_results(season_obj, wait)
        played = time.monotonic() - started
        disputed = self._verify(season_obj)
        table = selectors.season_standings(season=season_obj)
        self.stdout.write(f"Season {season}: {len(fixtures)} fixtures played in {played:.1f} s; {disputed} disputed.")
        for row in table[:5]:
            self.stdout.write(
                f"  {row['position']:>2}. {row['name']:<30} {row['points']:>3} pts WD {row['wizard_difference']:+d}"
            )
        if disputed:
            raise CommandError(f"{disputed} match(es) disputed.", returncode=2)

    def _wait_for_results(self, season, wait):
        deadline = time.monotonic() + wait
        while season.fixtures.exclude(status__in=[Fixture.Status.PLAYED, Fixture.Status.WALKOVER]).exists():
            if time.monotonic() > deadline:
                raise CommandError("Timed out waiting for results: are the Celery workers running?")
            time.sleep(0.5)

    def _verify(self, season):
        ids = []
        for f in season.fixtures.all():
            ids += [i for i in (f.draft_id, f.match_id) if i]
        # One batch: every verdict recorded in one transaction, the results and ratings that
        # follow in one task (one transaction per season and per game), not three per verdict.
        verdicts = matches_verify(match_ids=ids)
        return sum(1 for verdict in verdicts.values() if not verdict.verified)
