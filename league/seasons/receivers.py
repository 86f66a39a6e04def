from django.dispatch import receiver

from matches.models import Match
from matches.signals import match_verified

from .tasks import record_result, refresh_ratings


@receiver(match_verified)
def on_match_verified(sender, match_id, game, verdict, **kwargs):
    # Only verified results move standings and ratings (ARCHITECTURE.md "Verification").
    if verdict != Match.Verdict.VERIFIED:
        return
    origin = Match.objects.filter(pk=match_id).values_list("origin", flat=True).first() or {}
    if "fixture" in origin and game != "iwdl-draft":
        record_result.delay(str(match_id))
    refresh_ratings.delay(game)
