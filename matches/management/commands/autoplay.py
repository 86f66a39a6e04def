from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from engines import registry
from matches.autoplay import autoplay_match
from matches.models import Match


class Command(BaseCommand):
    help = "Play bot-against-bot matches through the same services the API uses, then verify them."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="e.g. dueling-wizards")
        parser.add_argument("--matches", type=int, default=10)
        parser.add_argument("--seats", type=int, default=None, help="Players per match (default: the fewest)")
        parser.add_argument("--bot", default="random", help="Which bot plays every seat")

    def handle(self, *args, game, matches, seats, bot, **options):
        try:
            engine = registry.get(game)
        except registry.UnknownEngine as exc:
            raise CommandError(str(exc)) from None
        if matches < 1:
            raise CommandError("--matches must be at least 1.")
        seats = seats or engine.min_seats
        results = {}
        for _ in tqdm(range(matches), desc=f"Autoplay {engine.title}", unit="match", file=self.stderr._out):
            match = autoplay_match(game=game, seats=seats, bot=bot)
            results[match.verdict] = results.get(match.verdict, 0) + 1
        verified = results.get(Match.Verdict.VERIFIED, 0)
        self.stdout.write(f"{matches} matches played: {verified} verified, "
                          f"{results.get(Match.Verdict.DISPUTED, 0)} disputed, "
                          f"{results.get(Match.Verdict.PENDING, 0)} pending.")
        if verified != matches and results.get(Match.Verdict.DISPUTED):
            raise CommandError("Some autoplayed matches were disputed.", returncode=2)
