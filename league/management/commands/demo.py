import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from tqdm import tqdm

from engines import registry
from league.seasons import services as seasons
from matches.autoplay import autoplay_match
from matches.commands import AT_HEAD
from matches.models import Match
from matches.services import SeatSpec, bot_action, match_act, match_create

DEMO_USERS = ("alice", "bob", "carol")
DEMO_PASSWORD = "wizard-demo"


class _Rng:
    """Deterministic stand-in for random.Random: the demo looks the same every time."""

    def __init__(self, seed: int):
        self.x = seed

    def random(self) -> float:
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.x >> 11) / float(1 << 53)


class Command(BaseCommand):
    help = "Load demo data: three players, finished verified matches and one in progress."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="Add another batch even if demo data exists")

    def handle(self, *args, force=False, **options):
        User = get_user_model()
        if User.objects.filter(username="alice").exists() and Match.objects.exists() and not force:
            self.stdout.write("Demo data already loaded.")
            return
        users = {}
        for name in DEMO_USERS:
            user, created = User.objects.get_or_create(username=name)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[name] = user
        steps = [("bots", None)] * 4 + [("people", 12345), ("people", 777), ("live", 4242)]
        for kind, seed in tqdm(steps, desc="Demo matches", unit="match", file=self.stderr._out):
            if kind == "bots":
                autoplay_match(game="dueling-wizards", seats=2)
            else:
                self._people_match(users["alice"], users["bob"], seed, stop_after=5 if kind == "live" else None)
        self._league_demo()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: users {', '.join(DEMO_USERS)} (password {DEMO_PASSWORD!r}), "
                f"{Match.objects.filter(status='finished').count()} finished and "
                f"{Match.objects.filter(status='live').count()} live match(es)."
            )
        )

    def _league_demo(self):
        User = get_user_model()
        """The IWDL with a short season (six clubs, single round robin) played by bots."""
        league = seasons.league_load_iwdl()
        if league.seasons.exists():
            return
        clubs = list(league.clubs.order_by("slug")[:6])
        # alice and bob coach two of the clubs, so they can start the fixtures left to play.
        clubs[0].coaches.add(User.objects.get(username="alice"))
        clubs[1].coaches.add(User.objects.get(username="bob"))
        season = seasons.season_create(
            league=league, created_by=None, clubs=clubs, double=False, start_date=dt.date.today()
        )
        fixtures = list(season.fixtures.order_by("round", "id"))
        last_round = fixtures[-1].round
        # Left to play: the last round, and alice's club against bob's, for them to start.
        coached = {clubs[0].pk, clubs[1].pk}
        to_play = [f for f in fixtures if f.round != last_round and {f.home_id, f.away_id} != coached]
        for fixture in tqdm(to_play, desc="Demo league", unit="fixture", file=self.stderr._out):
            # Seeding a season nobody else writes to yet: each start is decided on the head as it is.
            seasons.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)

    def _people_match(self, alice, bob, seed, stop_after=None):
        """alice v bob, played move by move through the same service the API uses."""
        match = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
        engine = registry.get(match.game)
        rng = _Rng(seed)
        users = {0: alice, 1: bob}
        moves = 0
        while True:
            match.refresh_from_db()
            to_move = engine.to_move(match.state)
            if not to_move or (stop_after is not None and moves >= stop_after):
                return match
            seat = to_move[0]
            match_act(
                match_id=match.id,
                user=users[seat],
                seat=seat,
                action=bot_action(engine, "random", match.state, seat, rng),
                expected_seq=match.state_seq,
            )
            moves += 1
