from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from engines import registry
from engines.base import EngineError
from matches.autoplay import autoplay_match
from matches.models import Match


class Command(BaseCommand):
    help = "Play bot-against-bot matches through the same services the API uses, then verify them."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="e.g. dueling-wizards")
        parser.add_argument("--matches", type=int, default=10)
        parser.add_argument(
            "--seats",
            default=None,
            help="Players per match: N, or a range such as 2-4 played in turn (default: every count the game takes)",
        )
        parser.add_argument("--bot", default="random", help="Which bot plays every seat")

    def handle(self, *args, game, matches, seats, bot, **options):
        try:
            engine = registry.get(game)
        except registry.UnknownEngine as exc:
            raise CommandError(str(exc)) from None
        if matches < 1:
            raise CommandError("--matches must be at least 1.")
        counts = _seat_counts(engine, seats)
        results = {}
        for i in tqdm(range(matches), desc=f"Autoplay {engine.title}", unit="match", file=self.stderr._out):
            match = autoplay_match(game=game, seats=counts[i % len(counts)], bot=bot)
            results[match.verdict] = results.get(match.verdict, 0) + 1
        verified = results.get(Match.Verdict.VERIFIED, 0)
        self.stdout.write(
            f"{matches} matches played: {verified} verified, "
            f"{results.get(Match.Verdict.DISPUTED, 0)} disputed, "
            f"{results.get(Match.Verdict.PENDING, 0)} pending."
        )
        if verified != matches and results.get(Match.Verdict.DISPUTED):
            raise CommandError("Some autoplayed matches were disputed.", returncode=2)


def _seat_counts(engine, wanted: str | None) -> list[int]:
    """The seat counts to cycle through: those asked for, each one the game's default config takes."""
    if wanted is None:
        low, high = engine.min_seats, engine.max_seats
    else:
        low_text, _, high_text = wanted.partition("-")
        try:
            low, high = int(low_text), int(high_text or low_text)
        except ValueError:
            raise CommandError(f"--seats takes a number or a range such as 2-4, not '{wanted}'.") from None
    counts = []
    for n in range(low, high + 1):
        try:
            engine.validate_config({}, n)
        except EngineError:
            continue
        counts.append(n)
    if not counts:
        raise CommandError(
            f"{engine.title} is played by {engine.min_seats} to {engine.max_seats}; none of {low}-{high} fits."
        )
    return counts
