import datetime as dt

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from engines import registry
from league.seasons import services as seasons
from matches.autoplay import autoplay_match
from matches.commands import AT_HEAD
from matches.models import Match
from matches.services import SeatSpec, bot_action, match_act, match_create
from matches.verification import match_verify

DEMO_USERS = ("alice", "bob", "carol")
#: The IWDL's organiser in the demo (the league's creator): the organiser pages are theirs.
ORGANISER = "organiser"
DIVISIONS = ("Premier", "Championship", "League One", "League Two")
DEMO_PASSWORD = "wizard-demo"


class _Rng:
    """Deterministic stand-in for random.Random: the demo looks the same every time."""

    def __init__(self, seed: int):
        self.x = seed

    def random(self) -> float:
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.x >> 11) / float(1 << 53)


class Command(BaseCommand):
    help = (
        "Load demo data: three players and an organiser, finished matches (one disputed), one in progress, "
        "and the IWDL's 24 clubs with coaches in a season."
    )

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
        self._disputed_match(users["alice"], users["carol"])
        self._league_demo(users)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: users {', '.join(DEMO_USERS)} and {ORGANISER} (password {DEMO_PASSWORD!r}), "
                f"{Match.objects.filter(status='finished').count()} finished and "
                f"{Match.objects.filter(status='live').count()} live match(es)."
            )
        )

    def _league_demo(self, users):
        """The IWDL's 24 clubs, each with a coach, in a season of four divisions; bots play its first round."""
        league = seasons.league_load_iwdl()
        User = get_user_model()
        organiser, created = User.objects.get_or_create(username=ORGANISER)
        if created:
            organiser.set_password(DEMO_PASSWORD)
            organiser.save()
        if league.created_by_id is None:
            league.created_by = organiser
            league.save(update_fields=["created_by"])
        clubs = list(league.clubs.order_by("slug"))
        # alice, bob and carol coach three clubs of the top division; every other club gets an
        # account of its own ("coach-<club>"), hashed once: 21 hashes would slow a first start.
        password = make_password(DEMO_PASSWORD)
        for i, club in enumerate(tqdm(clubs, desc="Demo coaches", unit="club", file=self.stderr._out)):
            if i < len(DEMO_USERS):
                coach = users[DEMO_USERS[i]]
            else:
                coach, _ = User.objects.get_or_create(username=f"coach-{club.slug}", defaults={"password": password})
            club.coaches.add(coach)
        if league.seasons.exists():
            return
        size = len(clubs) // len(DIVISIONS)
        season = seasons.season_create(
            league=league,
            created_by=organiser,
            clubs=clubs,
            divisions={name: [c.slug for c in clubs[i * size : (i + 1) * size]] for i, name in enumerate(DIVISIONS)},
            double=False,
            start_date=dt.date.today(),
            movements={"promote": 1, "relegate": 1},
        )
        # The first round is played by bots, but for the fixtures of the demo's people: those
        # are left for alice, bob and carol to start from the season page.
        people = {c.pk for c in clubs[: len(DEMO_USERS)]}
        to_play = [f for f in season.fixtures.filter(round=1).order_by("id") if not {f.home_id, f.away_id} & people]
        for fixture in tqdm(to_play, desc="Demo league round 1", unit="fixture", file=self.stderr._out):
            # Seeding a season nobody else writes to yet: each start is decided on the head as it is.
            seasons.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)

    def _disputed_match(self, alice, carol):
        """A finished match whose published result was altered afterwards: verification replays
        the events, finds a different winner and records the verdict "disputed". Nothing sets the
        verdict directly."""
        match = self._people_match(alice, carol, 2024)
        match.refresh_from_db()
        seats = len(match.result["placements"])
        losers = [s for s in range(seats) if s not in match.result["winners"]] or [0]
        forged = {
            **match.result,
            "winners": losers[:1],
            "placements": [1 if s == losers[0] else 2 for s in range(seats)],
        }
        Match.objects.filter(pk=match.pk).update(result=forged)
        verdict = match_verify(match_id=match.id)
        if verdict.verified:  # the demo promises a disputed match: say so loudly if it is not
            raise CommandError("The altered demo match verified; verification should have caught it.")
        return match

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
