from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from league.ratings.models import Rating
from league.ratings.projection import rated_games, ratings_rebuild


class Command(BaseCommand):
    help = "Ratings from verified results: `ratings rebuild [--game G]` recomputes them from scratch."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=["rebuild"])
        parser.add_argument("--game", choices=rated_games(), help="One game (default: every rated game)")

    def handle(self, *args, action, game=None, **options):
        games = [game] if game else rated_games()
        for g in tqdm(games, desc="Rebuilding ratings", unit="game", file=self.stderr._out):
            used = ratings_rebuild(game=g)
            top = Rating.objects.filter(game=g).order_by("-sort_key", "competitor").first()
            lead = f"; top: {top.label} {top.rating:.1f}" if top else ""
            self.stdout.write(f"{g}: {used} verified results, {Rating.objects.filter(game=g).count()} rated{lead}")
        if not games:
            raise CommandError("No game to rebuild.")
