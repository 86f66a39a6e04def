import logging
from datetime import timedelta

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from config.celery import app
from league.ratings.models import RatingPoint
from league.ratings.projection import rated_games, ratings_apply, ratings_apply_many, ratings_refresh
from matches.models import Match
from matches.outbox import outbox_death_horizon

from .models import Fixture
from .services import result_record, result_retract, season_results_record, verdicts_followups_apply

log = logging.getLogger(__name__)


@app.task(name="league.record_result", acks_late=True)
def record_result(match_id: str) -> bool:
    """Idempotent: the result event's id is derived from the match id."""
    return result_record(match_id=match_id)


@app.task(name="league.refresh_ratings", acks_late=True)
def refresh_ratings(game: str) -> bool:
    """Idempotent: rebuilds only when a verified result is missing from the ratings. A full scan of
    the game's results: kept for messages already queued; every verdict now sends ``rate_result``."""
    return ratings_refresh(game=game)


@app.task(name="league.rate_result", acks_late=True)
def rate_result(match_id: str) -> bool:
    """Idempotent: folds one match's verdict into its game's ratings, or does nothing if it is in."""
    return ratings_apply(match_id=match_id)


@app.task(name="league.verdicts_followups", acks_late=True)
def verdicts_followups(verdicts: list[dict]) -> dict[str, int]:
    """Idempotent: many verdicts' results, retractions and ratings in one batch (matches_verify)."""
    return verdicts_followups_apply(verdicts=verdicts)


#: How long after its verdict a match's follow-ups may still be on their way (queued, or running).
FOLLOWUPS_GRACE = timedelta(minutes=2)
#: How far back the sweep looks at least: a lost task is found within a day, and the sweep's reads
#: stay bounded by the window's verdicts (an index on ``verified_at``) rather than the whole history.
FOLLOWUPS_WINDOW_MIN = timedelta(days=1)


def followups_window() -> timedelta:
    """How far back this sweep and ``tournaments.requeue_followups`` look: past the death of a
    verdict's ``match.verified`` message (``outbox_death_horizon``, about 33 hours by default), so
    that a verdict whose message went dead is still redone; a day at least."""
    return max(FOLLOWUPS_WINDOW_MIN, outbox_death_horizon())


@app.task(name="league.requeue_followups", acks_late=True)
def requeue_followups(now=None) -> dict[str, int]:
    """The beat's backstop for a verdict's follow-ups that a broker lost (Redis keeps nothing on
    disk: a restart drops every queued task). ``record_result`` and ``rate_result`` are sent from
    the ``match.verified`` outbox message, which counts as delivered once they are queued; a task
    lost after that would leave a fixture in play and a result out of the ratings for good.
    ``requeue_unverified`` is the same backstop one step earlier.

    A verified fixture match whose fixture is still in play gets its result (one batch, in the
    verdicts' order), a disputed one whose result stands is retracted, then every verdict of the window whose ratings disagree with it (a verified
    result not in, a disputed one still in) is applied in the same order. Both steps are
    idempotent, so a follow-up that was only late is done once."""
    now = now or timezone.now()
    since, until = now - followups_window(), now - FOLLOWUPS_GRACE
    verified = {"verdict": Match.Verdict.VERIFIED, "disputed_at__isnull": True, "verified_at__range": (since, until)}

    def due_through(path: str) -> list[tuple]:
        """(verified_at, id) of the verified matches reached from fixtures in play by ``path``."""
        found = Fixture.objects.filter(
            status=Fixture.Status.IN_PLAY, **{f"{path}__{k}": v for k, v in verified.items()}
        )
        return list(found.values_list(f"{path}__verified_at", path))

    due = [
        *due_through("match"),
        # An IWDL fixture names its draft; the match its draft handed off to only once its result
        # lands, so a result lost on its way is found through the draft room.
        *due_through("draft__draft_room__match"),
        # A fixture's draft a coach forfeited: no match follows it, its verdict brings the walkover.
        *due_through("draft"),
    ]
    due = [match_id for _, match_id in sorted(set(due), key=lambda pair: (pair[0], str(pair[1])))]
    recorded = season_results_record(match_ids=due) if due else 0
    # A result recorded before its match was found disputed, whose retraction was lost.
    # (Or found disputed once and verified since: a dispute is final.)
    kept = Fixture.objects.filter(
        Q(match__verdict=Match.Verdict.DISPUTED) | Q(match__disputed_at__isnull=False),
        status=Fixture.Status.PLAYED,
        match__verified_at__range=(since, until),
    ).values_list("match_id", flat=True)
    kept_walkovers = Fixture.objects.filter(
        Q(draft__verdict=Match.Verdict.DISPUTED) | Q(draft__disputed_at__isnull=False),
        status=Fixture.Status.WALKOVER,
        draft__verified_at__range=(since, until),
    ).values_list("draft_id", flat=True)
    retracted = sum(1 for match_id in [*kept, *kept_walkovers] if result_retract(match_id=match_id))
    rated = RatingPoint.objects.filter(game=OuterRef("game"), match_id=OuterRef("pk"))
    disagree = (
        Match.objects.filter(game__in=rated_games(), verified_at__range=(since, until))
        .filter(
            Q(
                verdict=Match.Verdict.VERIFIED,
                status=Match.Status.FINISHED,
                result__isnull=False,
                disputed_at__isnull=True,
            )
            & ~Exists(rated)
            # Once found disputed, out for good, whatever the verdict now says (projection.py).
            | (Q(verdict=Match.Verdict.DISPUTED) | Q(disputed_at__isnull=False)) & Exists(rated)
        )
        .order_by("verified_at", "pk")
        .values_list("pk", flat=True)
    )
    # A result the ratings rightly leave out (an unfinished bot game) is found again by the next
    # sweep and changes nothing: bounded by the window, and cheap.
    found = list(disagree)
    if not found:
        return {"results": recorded, "retracted": retracted, "ratings": 0}
    try:
        # All at once (one transaction per game, issue 17, P6) ...
        changed = ratings_apply_many(match_ids=found)
        return {"results": recorded, "retracted": retracted, "ratings": changed}
    except Exception:
        log.exception("Ratings: the sweep's batch failed; applying its %s matches one at a time.", len(found))
    # ... and if that fails, one at a time, so one bad match holds back none of the others.
    changed = 0
    for match_id in found:
        # One match whose ratings cannot be applied (a bug, bad data) must not hold back every
        # verdict after it, minute after minute: it is logged, and the next sweep tries it again.
        try:
            changed += bool(ratings_apply(match_id=match_id))
        except Exception:
            log.exception("Ratings: match %s could not be applied; the next sweep tries it again.", match_id)
    return {"results": recorded, "retracted": retracted, "ratings": changed}
